"""Refusals as data: every reason an engine can give (explain.py's `_r(rule, id, text, **args)`) has a text in
both of the client's dictionaries (`why.<id>`) with exactly its arguments as placeholders; real refusals from real
positions, sent as the server sends them (reason id as `detail`, `args`), come out in Italian with their numbers
and names through the client's reasons.js (no sentence parsed); the dictionaries' plurals are right ("1 dado",
"2 dadi"). The client's modules run under Node, as they are shipped."""

from __future__ import annotations

import ast
import json
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from hegemon.core.errors import IllegalActionError, Refusal
from hegemon.core.game import CHANCE, TERMINAL
from hegemon.core.play import play, sample_chance
from hegemon.games import get_game

SRC = Path(__file__).resolve().parents[2] / "src" / "hegemon"
WEB = SRC / "web"
HARNESS = Path(__file__).with_name("reasons_harness.mjs")
NODE = shutil.which("node")
DICTS = {lang: json.loads((WEB / "i18n" / f"{lang}.json").read_text()) for lang in ("en", "it")}


def run(
    lang: str, game: str = "", errors: list[dict[str, Any]] | None = None, calls: list[Any] | None = None
) -> dict[str, Any]:
    assert NODE, "node is needed to run the client's modules"
    arg = json.dumps(
        {"web": WEB.as_uri() + "/", "lang": lang, "game": game, "errors": errors or [], "calls": calls or []}
    )
    out = subprocess.run([NODE, str(HARNESS), arg], capture_output=True, text=True, timeout=60, check=True)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def reasons_in_source(game: str) -> dict[str, set[str]]:
    """id -> argument names of every `_r(rule, "id", text, **args)` call in the game's explain.py."""
    tree = ast.parse((SRC / "games" / game / "explain.py").read_text())
    out: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_r":
            rid = node.args[1]
            assert isinstance(rid, ast.Constant) and isinstance(rid.value, str), ast.dump(node)[:200]
            names = {k.arg for k in node.keywords if k.arg}
            assert out.setdefault(rid.value, names) == names, f"{rid.value}: two sets of arguments"
    return out


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)(?:\}|, plural,)", text))


@pytest.mark.parametrize("game", ["spqrisiko", "polis"])
def test_every_engine_reason_has_a_text_in_both_languages_with_its_arguments(game: str) -> None:
    found = reasons_in_source(game)
    assert len(found) > 15
    found["legal_now"] = {"kinds"}  # core.play's reason for a game that cannot say
    for lang, d in DICTS.items():
        missing = sorted(rid for rid in found if f"why.{rid}" not in d)
        assert not missing, (lang, missing)
        wrong = {rid: (placeholders(d[f"why.{rid}"]), names) for rid, names in found.items()
                 if placeholders(d[f"why.{rid}"]) != names}  # fmt: skip
        assert not wrong, (lang, wrong)


def refusals(game: str) -> list[Refusal]:
    """Real refusals from real positions: a move of each legal kind with wrong names or numbers, and moves of
    kinds that belong to other phases."""
    g = get_game(game)
    st = g.new_game({"random_deal": True} if game == "spqrisiko" else {}, seed=3)
    out: list[Refusal] = []
    steps = 0
    rng = random.Random(5)
    while len(out) < 12 and steps < 80 and st.current_player() != TERMINAL:
        if st.current_player() == CHANCE:
            play(st, sample_chance(st, rng))
            continue
        tries: list[dict[str, Any]] = []
        if game == "spqrisiko":
            tries = [{"type": "attack", "source": "italia", "target": "dacia"}, {"type": "reinforce", "province": "aegyptus"},
                     {"type": "fortify", "source": "italia", "dest": "britannia"}, {"type": "naval_move", "source": "mare_nostrum", "dest": "x", "count": 1}]  # fmt: skip
        else:
            tries = [{"type": "besiege", "polis": "athinae"}, {"type": "collect", "territory": "makedonia"},
                     {"type": "create_galleys", "polis": "sparti", "count": 1, "silver": 0}, {"type": "trade", "market": "persia", "how": "purchase"}]  # fmt: skip
        for raw in tries:
            try:
                play(st, g.decode_action(raw))
            except IllegalActionError as e:
                if e.refusal and e.refusal.text not in {r.text for r in out}:
                    out.append(e.refusal)
            except Exception:
                continue
        legal = st.legal_actions()
        play(st, legal[steps % len(legal)])
        steps += 1
    return out


def wire(r: Refusal) -> dict[str, Any]:
    """The refusal as the server sends it (`ServerError.to_json` of an illegal_action)."""
    return json.loads(
        json.dumps({"code": "illegal_action", "detail": r.id, "args": dict(r.args), "reason": r.text})
    )


@pytest.mark.parametrize("game", ["spqrisiko", "polis"])
def test_real_refusals_come_out_in_italian(game: str) -> None:
    found = refusals(game)
    assert len(found) >= 3, found
    en = run("en", game, [wire(r) for r in found])["reasons"]
    it = run("it", game, [wire(r) for r in found])["reasons"]
    for r, said_en, said in zip(found, en, it, strict=True):
        assert f"why.{r.id}" in DICTS["it"], r
        assert said != r.text, r
        assert not re.search(r"\b(you may|the|is not|cannot|belongs to)\b", said), said
        assert "{" not in said and "{" not in said_en, (said, said_en)  # every placeholder filled
        for num in re.findall(r"\b\d+\b", r.text):  # every number of the reason survives
            assert num in said or str(int(num) + 1) in said, (r, said)
        for name in (v for k, v in r.args.items() if k in ("place", "source", "target", "sea", "territory")):
            assert str(name) in said, (r, said)


def test_a_reason_nobody_wrote_a_text_for_is_shown_in_the_engines_english() -> None:
    out = run(
        "it",
        "spqrisiko",
        [{"detail": "a_brand_new_reason", "args": {"n": 1}, "reason": "a brand new reason"}],
    )
    assert out["reasons"] == ["a brand new reason"]


def test_plurals_and_grammar_in_both_languages() -> None:
    calls = [["act.spqrisiko.roll_dice", {"dice": 1}], ["act.spqrisiko.roll_dice", {"dice": 3}],
             ["do.spqrisiko.naval_move", {"count": 1, "source": "A", "dest": "B"}],
             ["do.spqrisiko.naval_move", {"count": 2, "source": "A", "dest": "B"}],
             ["act.polis.create_hoplites", {"count": 1, "polis": "Athinai", "cost": "1 metal"}],
             ["n.galley", {"n": 1}], ["n.galley", {"n": 0}], ["spqr.autoroll", {"n": 1}], ["spqr.autoroll", {"n": 2}],
             ["why.last_legionary", {"place": "Italia", "n": 1}]]  # fmt: skip
    it = run("it", calls=calls)["calls"]
    assert it[:4] == ["tira 1 dado", "tira 3 dadi", "Sposta 1 trireme A → B", "Sposta 2 triremi A → B"]
    assert it[4] == "crea 1 oplita ad Athinai (1 metal)"
    assert it[5:7] == ["1 galea", "0 galee"]
    assert it[7].endswith("ne resta 1") and it[8].endswith("ne restano 2")
    assert it[9] == "Italia ha 1 legionario: l'ultimo non attacca mai"
    en = run("en", calls=calls)["calls"]
    # signed changes on the buttons (the show helper's texts, merged into the same dictionaries)
    signed = [["fx.hoplites", {"n": "+1"}], ["fx.galleys", {"n": "\u22121"}], ["fx.triremes", {"n": "+2"}]]
    assert run("it", calls=signed)["calls"] == ["+1 oplita", "\u22121 galea", "+2 triremi"]
    assert run("en", calls=signed)["calls"] == ["+1 hoplite", "\u22121 galley", "+2 triremes"]
    assert en[:4] == ["rolls 1 die", "rolls 3 dice", "Move 1 trireme A → B", "Move 2 triremes A → B"]
    assert en[5:7] == ["1 galley", "0 galleys"]
    assert en[9] == "Italia has 1 legionary: the last one never attacks"


def test_the_client_parses_no_sentence() -> None:
    """reasons.js says a refusal from its id and arguments only: it keeps no English templates and builds no
    regular expression from one (what it did before refusals travelled as data)."""
    src = (WEB / "js" / "reasons.js").read_text()
    assert "RegExp" not in src and "TEMPLATES" not in src and ".match(" not in src
