"""The log says what each action changed (issue 28 item 1): conquests and captures, units lost, VP scored and
from what, sieges, prestige, eliminations, new rounds. In public facts only: every seat and spectator receives
the same words, which match the positions before and after, and nothing of a hand or a deck."""

from __future__ import annotations

import json
import random
from pathlib import Path

from hegemon.server.storage import SqlStorage
from hegemon.server.tables import TableManager

from .conftest import new_table, play_random
from .test_tables import _collect

HIDDEN_WORDS = (
    "hand",
    "card",
    "deck",
    'legionary"',
    "banner",
    "arena",
)  # SPQR's card symbols, a hand, a deck


def _lines_by_seat(inbox: dict) -> dict:
    """Per seat: log index → the log line as that seat received it."""
    out = {}
    for seat, msgs in inbox.items():
        got = {}
        for msg in msgs:
            for line in msg["log"]:
                got[line["i"]] = line
        out[seat] = got
    return out


def test_spqr_log_says_conquests_losses_vp_and_the_same_to_every_seat() -> None:
    # a fixed salt: the same dice every run (this one holds a naval roll whose one pair tied: no loss)
    manager = TableManager(salt=lambda: "s51")
    t = new_table(manager, seed=5)
    inbox = {seat: _collect(manager, t, seat) for seat in (0, 1, 2, None)}
    play_random(manager, t, 1500, random.Random(5))
    by_seat = _lines_by_seat(inbox)
    spectator = by_seat[None]
    assert len(spectator) == t.version
    for seat in (0, 1, 2):
        assert set(by_seat[seat]) == set(spectator)
        for i, line in by_seat[seat].items():
            assert line.get("changes") == spectator[i].get("changes"), (seat, i)
    kinds = {c["k"] for line in spectator.values() for c in line.get("changes", [])}
    assert {"conquest", "lost", "vp", "round"} <= kinds, kinds
    text = json.dumps([line.get("changes") for line in spectator.values()])
    for word in HIDDEN_WORDS:
        assert word not in text, word
    # the words match the positions: each conquest's new owner, and the VP add up to the score
    vp = [0, 0, 0]
    for i, line in sorted(spectator.items()):
        for c in line.get("changes", []):
            if c["k"] == "conquest":
                after = manager.replay_view(t, i + 1, None)["view"]
                before = manager.replay_view(t, i, None)["view"]
                owner = {p["id"]: p["owner"] for p in after["provinces"]}
                was = {p["id"]: p["owner"] for p in before["provinces"]}
                assert owner[c["place"]] == c["to"] and was[c["place"]] == c["from"], c
            if c["k"] == "vp":
                vp[c["who"]] += c["n"]
                assert sum(c["sources"].values()) == c["n"], c
            if c["k"] == "lost":
                assert c["legionaries"] + c["triremes"] > 0
    assert vp == [p["vp"] for p in t.view(None)["players"]]
    # units are lost to the dice alone, said on the roll's own line (legionaries embarked for a sea attack or
    # turned into a trireme are not lost)
    # and a roll says no loss only where nobody lost: a naval combat whose pairs all tied ([R 11.5])
    rolls = [ln for ln in spectator.values() if ln["action"]["type"] == "roll" and ln.get("changes")]
    assert rolls and any(any(c["k"] == "lost" for c in ln["changes"]) for ln in rolls)
    naval_ties = 0
    for ln in rolls:
        if any(c["k"] == "lost" for c in ln["changes"]):
            continue
        battle = manager.replay_view(t, ln["i"], None)["view"]["battle"]
        att, dfn = (
            sorted(ln["action"]["attacker"], reverse=True),
            sorted(ln["action"]["defender"], reverse=True),
        )
        assert battle["kind"] == "naval" and all(a == d for a, d in zip(att, dfn, strict=False)), ln
        naval_ties += 1
    assert naval_ties >= 1  # the case this salt was chosen for
    losers = {
        ln["action"]["type"] for ln in spectator.values() for c in ln.get("changes", []) if c["k"] == "lost"
    }
    assert losers == {"roll"}, losers


def _polis_with_sieges(m: TableManager) -> tuple:
    """A random game with a siege, a capture and a unit lost (random players are often ostracised early)."""
    # 271 with the caller's salt: the first game that has all three (found by trying)
    for seed in range(271, 520):
        t = new_table(m, game="polis", n=2, seed=seed, options={"siege": "diceless_sacrifice"})
        inbox = {seat: _collect(m, t, seat) for seat in (0, 1, None)}
        play_random(m, t, 4000, random.Random(seed))
        lines = _lines_by_seat(inbox)
        kinds = {c["k"] for ln in lines[None].values() for c in ln.get("changes", [])}
        if {"polis", "siege", "lost"} <= kinds:
            return t, lines
    raise AssertionError("no random game besieged a polis")


def test_polis_log_says_captures_sieges_losses_and_prestige() -> None:
    manager = TableManager(salt=lambda: "test-salt-111")  # fixed dice: the game below is found at once
    t, by_seat = _polis_with_sieges(manager)
    spectator = by_seat[None]
    for seat in (0, 1):
        for i, line in by_seat[seat].items():
            assert line.get("changes") == spectator[i].get("changes"), (seat, i)
    changes = [(i, c) for i, ln in sorted(spectator.items()) for c in ln.get("changes", [])]
    kinds = {c["k"] for _, c in changes}
    assert {"polis", "siege", "prestige", "lost"} <= kinds, kinds
    text = json.dumps([c for _, c in changes])
    assert "hand" not in text and "card" not in text
    # the prestige lines add up to each side's prestige, the captures name the new owner, a siege its markers
    start = manager.replay_view(t, 0, None)["view"]
    pp = {s["side"]: s["prestige"] for s in start["sides"]}
    for i, c in changes:
        if c["k"] == "prestige":
            pp[c["side"]] += c["n"]
            assert pp[c["side"]] == c["total"]
        if c["k"] in ("polis", "siege"):
            after = {p["id"]: p for p in manager.replay_view(t, i + 1, None)["view"]["poleis"]}[c["polis"]]
            if c["k"] == "polis":
                assert after["owner"] == c["to"]
            else:
                assert after["siege_discs"].get(c["side"], 0) == c["n"] and after["fortification"] == c["of"]
                assert c["rule"] == "diceless_sacrifice"
    assert pp == {s["side"]: s["prestige"] for s in t.view(None)["sides"]}


def test_the_changes_come_back_the_same_after_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'h.db'}"
    m1 = TableManager(SqlStorage(url), salt=lambda: "pepper")
    a = new_table(m1, seed=21)
    play_random(m1, a, 400, random.Random(1))
    before = m1.log_json(a, None)
    assert any("changes" in line for line in before)
    m1.storage.close()
    m2 = TableManager(SqlStorage(url))
    assert m2.load() == 1
    assert m2.log_json(m2.get(a.id), None) == before
    m2.storage.close()
