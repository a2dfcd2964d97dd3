"""Terminal play (`hegemon play`) as a user types it (issue 12 item 12): the README's repeat syntax in both
games, only what changed after an action, menus that never wrap mid-word, `board` with neighbours, and the
exact odds of an attack shown before it is made."""

from __future__ import annotations

import re
from pathlib import Path

from rich.cells import cell_len
from typer.testing import CliRunner

from hegemon.cli import app, board_changes, menu_lines
from hegemon.games.polis.board import DEFAULT_BOARD
from hegemon.games.polis.game import GAME as POLIS
from hegemon.games.polis.text import action_odds

runner = CliRunner()
SPQR = ("play", "spqrisiko", "--seats", "human,random,random,random", "--seed", "3", "-o", "random_deal=true")


def play(args: tuple[str, ...], *lines: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input="".join(x + "\n" for x in lines))
    assert not isinstance(result.exception, (AttributeError, TypeError)), result.exception  # the old crash
    return result.exit_code, result.stdout


def test_polis_repeat_by_text_plays_the_action_k_times(tmp_path: Path) -> None:
    board = tmp_path / "board.toml"  # no wheat for supply, so Athens reaches its growth with 4 wheat
    board.write_text(DEFAULT_BOARD.read_text(encoding="utf-8").replace(
        "supply_wheat_per_cube = { value = 1,", "supply_wheat_per_cube = { value = 0,"), encoding="utf-8")  # fmt: skip
    code, out = play(("play", "polis", "--seats", "human,random", "--seed", "3", "--board", str(board)),
                     "pass", "grow athinae x2", "quit")  # fmt: skip
    assert code == 1 and "game abandoned" in out
    assert out.count("P1: grow athinae") == 2 and "repeat: grow athinae" in out
    # after the first growth only what changed is printed: Athens's line and Athinae, not the markets
    after = out.split("repeat: grow athinae")[0].rsplit("P1: grow athinae", 1)[1]
    assert "pop 5/4/10" in after and "wheat 3" in after and "Market values" not in after
    assert "only what changed" in after


def test_polis_board_lists_every_territory_with_its_neighbours() -> None:
    code, out = play(("play", "polis", "--seats", "human,random", "--seed", "3"), "board", "quit")
    assert code == 1
    assert re.search(r"Attika +land units 3/0 +poleis: Athinae ATH 4\s+neighbours: Megaris, Boiotia, Saronikos", out)
    assert out.count("neighbours:") == POLIS.new_game().board.n_terr


def test_spqrisiko_repeat_by_number_and_by_attack_text_with_the_odds_first() -> None:
    code, out = play(SPQR, "1 x3", "done", "quit")
    assert code == 1
    first = re.search(r"P1>   P1: (reinforce \w+)", out)
    assert first and out.count(f"P1: {first[1]}") == 3
    assert f"repeat: {first[1]} (1 more)" in out and f"repeat: {first[1]}\n" in out
    menu = out.rsplit("land attacks", 1)[1]
    attack = re.search(r"\d+ (attack \w+ -> \w+) \[win (\d+\.\d)%\]", menu)
    assert attack, menu
    text, pct = attack[1], attack[2]

    code, out = play(SPQR, "1 x3", "done", f"{text} x2", "quit")
    assert code == 1
    odds = out.index(f"odds: {text}: win {pct}%")
    assert odds < out.index(f"P1: {text}")  # the exact odds come before the attack is made
    assert re.search(rf"odds: {re.escape(text)}: win {pct}% \(\d+/\d+\); expected losses", out)
    assert f"repeat waiting: {text} (1 more" in out  # the dice of this attack come first


def test_spqrisiko_board_shows_neighbours() -> None:
    code, out = play(SPQR, "board", "quit")
    from hegemon.games.spqrisiko.board import load_board

    assert code == 1 and out.count("    land: ") == load_board().n_provinces
    assert re.search(r"land: [A-Z][a-z]+.*  ·  seas: ", out)


def test_menus_break_between_items_never_inside_a_word() -> None:
    items = [(i, f"move hoplites to territory_number_{i} and then somewhere very far away") for i in range(1, 9)]
    items.append((9, "x" * 10 + " " + "a-very-long-word-" * 2))
    for width in (20, 40, 80):
        lines = menu_lines("move_hoplites", items, width)
        words = {w for _, label in items for w in label.split(" ")}
        for line in lines:
            assert cell_len(line.plain) <= width or len(line.plain.split()) == 1
            for w in line.plain.split():
                assert w in words or w.isdigit() or w == "move_hoplites:"
        joined = " ".join(line.plain for line in lines)
        for i, label in items:
            assert f"{i} {label}" in re.sub(r"\s+", " ", joined)


def test_board_changes_keeps_the_title_and_headings_of_changed_lines() -> None:
    before = ["title 1", "Poleis:", "  A 1", "  B 1", "Units:", "  x 1"]
    now = ["title 2", "Poleis:", "  A 1", "  B 2", "Units:", "  x 1"]
    assert board_changes(None, now) == now
    assert board_changes(before, now) == ["title 2", "Poleis:", "  B 2"]


def test_polis_siege_odds_before_the_roll() -> None:
    from hegemon.games.polis import actions as A

    from ..games.polis.fixtures import ATHENS, scenario

    st = scenario(to_move=ATHENS, pp=(3, 3), units={(ATHENS, "megaris"): 3})
    line = action_odds(st, A.Besiege("megara"))
    assert line is not None and "win 75.0% (3/4) with this roll" in line and "(15/16) repeating" in line
    assert action_odds(st, A.Pass()) is None
