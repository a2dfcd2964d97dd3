"""Refusals in the player's language: every sentence the engines' explain.py can return has a template in the
client's reasons.js (so it is translated, not shown in English to an Italian player), real refusals from real
positions come out in Italian with their numbers and names, and the dictionaries' plurals are right
("1 dado", "2 dadi"). The client's modules run under Node, as they are shipped."""

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

from hegemon.core.errors import IllegalActionError
from hegemon.core.game import CHANCE, TERMINAL
from hegemon.core.play import play, sample_chance
from hegemon.games import get_game

SRC = Path(__file__).resolve().parents[2] / "src" / "hegemon"
WEB = SRC / "web"
HARNESS = Path(__file__).with_name("reasons_harness.mjs")
NODE = shutil.which("node")


def run(lang: str, game: str = "", texts: list[str] | None = None, calls: list[Any] | None = None) -> dict[str, Any]:
    assert NODE, "node is needed to run the client's modules"
    arg = json.dumps({"web": WEB.as_uri() + "/", "lang": lang, "game": game, "texts": texts or [], "calls": calls or []})
    out = subprocess.run([NODE, str(HARNESS), arg], capture_output=True, text=True, timeout=60, check=True)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def sentences(game: str) -> set[str]:
    """Every reason explain.py returns, its variable parts as {}: literal strings and f-strings returned alone or
    as the second item of a (rule, reason) pair."""

    def norm(node: ast.AST) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.JoinedStr):
            return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        return None

    tree = ast.parse((SRC / "games" / game / "explain.py").read_text())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Return) and node.value is not None:
            v = node.value
            if isinstance(v, ast.Tuple) and len(v.elts) == 2:
                v = v.elts[1]
            text = norm(v)
            if text and not re.match(r"^(R \d|§)", text):
                out.add(text)
    return out


WHOSE = {"yours", "neutral", "free", "player {}'s"}  # the parts of a sentence, translated on their own


@pytest.mark.parametrize("game", ["spqrisiko", "polis"])
def test_every_engine_reason_has_a_template(game: str) -> None:
    templates = run("en")["templates"]
    known = {re.sub(r"\{\w+\}", "{}", tpl) for tpl in templates.values()}
    found = sentences(game)
    assert len(found) > 15
    missing = sorted(found - known - WHOSE)
    assert not missing, missing


def refusals(game: str) -> list[str]:
    """Real refusals from real positions: a move of each legal kind with wrong names or numbers, and moves of
    kinds that belong to other phases."""
    g = get_game(game)
    st = g.new_game({"random_deal": True} if game == "spqrisiko" else {}, seed=3)
    out: list[str] = []
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
                if e.reason and e.reason not in out:
                    out.append(e.reason)
            except Exception:
                continue
        legal = st.legal_actions()
        play(st, legal[steps % len(legal)])
        steps += 1
    return out


@pytest.mark.parametrize("game", ["spqrisiko", "polis"])
def test_real_refusals_come_out_in_italian(game: str) -> None:
    texts = refusals(game)
    assert len(texts) >= 3, texts
    it = run("it", game, texts)
    assert all(it["matched"]), dict(zip(texts, it["matched"], strict=True))
    for en, said in zip(texts, it["reasons"], strict=True):
        assert said != en, en
        assert not re.search(r"\b(you may|the|is not|cannot|belongs to)\b", said), said
        for num in re.findall(r"\b\d+\b", en):  # every number of the reason survives
            assert num in said or str(int(num) + 1) in said, (en, said)


def test_a_reason_nobody_wrote_a_template_for_is_shown_as_it_came() -> None:
    out = run("it", "spqrisiko", ["a brand new reason"])
    assert out["reasons"] == ["a brand new reason"] and out["matched"] == [None]


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



def test_the_most_specific_template_wins() -> None:
    text = "a collection outside your home region costs 1 prestige and you have none"
    out = run("it", "polis", [text])
    assert out["matched"] == ["p_collect_prestige"]
    assert out["reasons"] == ["una riscossione fuori dalla tua regione costa 1 prestigio e non ne hai"]
