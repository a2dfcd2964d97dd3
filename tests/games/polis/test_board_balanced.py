"""The balanced board that ships beside the default one (`data/board-balanced.toml`, issue 13 item 5): it loads
and validates, is selectable by name, differs from the default only in values the default marks reconstructed
(each marked as changed for the balanced board), keeps the attested setup, and plays to the end under every
siege rule."""

from __future__ import annotations

import random
import tomllib
from typing import Any

import pytest
from typer.testing import CliRunner

from hegemon.ai import make_bot
from hegemon.cli import app
from hegemon.core.game import CHANCE, TERMINAL
from hegemon.core.play import sample_chance
from hegemon.games.polis.board import DEFAULT_BOARD, SHIPPED_BOARDS, load_board, reconstructed_values
from hegemon.games.polis.game import GAME
from hegemon.games.polis.options import SIEGE_RULES

BALANCED = SHIPPED_BOARDS["balanced"]
PROV = ("provenance", "field_provenance")


def _raw(path: Any) -> dict[str, Any]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def _prov(entry: dict[str, Any], fld: str) -> str:
    return str((entry.get("field_provenance") or {}).get(fld, entry.get("provenance", "")))


def _changes() -> list[tuple[str, str, str, str, str]]:
    """(section, entry id, field, the default's provenance, the balanced file's provenance) of every changed value."""
    a, b = _raw(DEFAULT_BOARD), _raw(BALANCED)
    assert set(a) == set(b)
    out = []
    for section in a:
        if section in ("sources", "schema_version", "game", "edition"):
            assert a[section] == b[section], section
            continue
        if isinstance(a[section], list):
            assert [e["id"] for e in a[section]] == [e["id"] for e in b[section]], section
            for ea, eb in zip(a[section], b[section], strict=True):
                assert set(ea) - set(PROV) == set(eb) - set(PROV), ea["id"]
                for f in ea:
                    if f not in PROV and ea[f] != eb[f]:
                        out.append((section, ea["id"], f, _prov(ea, f), _prov(eb, f)))
        elif section == "constants":
            for k, ca in a[section].items():
                cb = b[section][k]
                if ca["value"] != cb["value"]:
                    out.append((section, k, "value", ca["provenance"], cb["provenance"]))
        else:
            assert a[section] == b[section], section  # the setup (attested) and any other table: unchanged
    return out


def test_the_balanced_board_loads_validates_and_is_selectable_by_name():
    by_name, by_path = load_board("balanced"), load_board(str(BALANCED))
    assert by_name.raw == by_path.raw and by_name is not load_board()
    opts = GAME.parse_options({"board": "balanced"})
    state = GAME.new_game(opts, 1)
    assert state.board is by_name
    assert GAME.board_name(opts) == "balanced"
    assert load_board("default") is load_board()  # the reconstruction by name, for `--board default,balanced`


def test_it_differs_from_the_default_only_in_reconstructed_values_each_marked_as_changed():
    changes = _changes()
    assert changes, "the balanced board changes nothing"
    for section, eid, fld, before, after in changes:
        assert before.startswith("reconstructed"), f"{section}.{eid}.{fld} is {before} in the default board"
        assert after.startswith("reconstructed (balanced board:"), (
            f"{section}.{eid}.{fld} is not marked: {after!r}"
        )
    # the attested setup (Sparta's 4 silver, Athens' 4 wheat…) is untouched, and the changed values are listed
    # by `reconstructed_values` like every other reconstructed value
    listed = {(r["section"], r["id"], r["field"]) for r in reconstructed_values(load_board("balanced"))}
    assert {(s, e, f) for s, e, f, _, _ in changes} <= listed


def test_every_changed_value_has_a_comment_saying_why():
    lines = BALANCED.read_text(encoding="utf-8").splitlines()
    marked = sum(1 for ln in lines if "# BALANCED:" in ln and not ln.startswith("#"))
    assert marked == len(_changes())


@pytest.mark.parametrize("siege", SIEGE_RULES)
def test_it_plays_to_the_end_under_every_siege_rule(siege):
    opts = GAME.parse_options({"board": "balanced", "siege": siege})
    state = GAME.new_game(opts, 7)
    bots = [make_bot("greedy", 1), make_bot("greedy", 2)]
    rng = random.Random(7)
    for _ in range(GAME.max_actions(opts)):
        p = state.current_player()
        if p == TERMINAL:
            break
        state.apply(sample_chance(state, rng) if p == CHANCE else bots[p].choose(state, p))
    out = state.outcome()
    assert out is not None and out.winners


def test_the_rules_command_lists_and_checks_the_shipped_board():
    runner = CliRunner()
    res = runner.invoke(app, ["rules", "polis"])
    assert res.exit_code == 0, res.output
    assert "boards that come with the game (--board NAME): default, balanced" in res.output
    res = runner.invoke(app, ["rules", "polis", "--json"])
    assert res.exit_code == 0 and '"boards": ["default", "balanced"]' in res.output
    res = runner.invoke(app, ["rules", "polis", "--board", "balanced"])
    assert res.exit_code == 0, res.output
    assert "balanced" in res.output
    res = runner.invoke(app, ["rules", "polis", "--reconstructed", "--board", "balanced", "--json"])
    assert res.exit_code == 0, res.output
    assert "balanced board" in res.output


def test_the_lab_compares_the_shipped_boards_by_name(tmp_path):
    from hegemon.lab.run import make_sweep, run_sweep

    sweep = make_sweep("polis", "compare", ["greedy", "greedy"], 2, seed=1, board="default,balanced")
    assert sweep.labels == ["board=default", "board=balanced"]
    summary = run_sweep(sweep, tmp_path / "run")
    assert [v["games"] for v in summary["variants"]] == [2, 2]
    assert [v["options"] for v in summary["variants"]] == [{"board": "default"}, {"board": "balanced"}]
