"""A refused Polis action names the rule it breaks (issue 5): two different actions a turn (§4.3), prestige
for military actions (§4.5), the action's own section (§5.x, §7.x), and the siege rule in force."""

from __future__ import annotations

import random

from hegemon.core.game import CHANCE
from hegemon.core.play import play, sample_chance
from hegemon.games.polis import actions as A
from hegemon.games.polis.game import GAME
from tests.helpers import refused


def start(siege: str = "classic") -> object:
    st = GAME.new_game(GAME.parse_options({"siege": siege}), 3)
    rng = random.Random(0)
    while st.current_player() == CHANCE:
        st.apply(sample_chance(st, rng))
    return st


def test_units_are_created_in_ones_own_polis_and_galleys_need_a_port() -> None:
    st = start()
    me = st.current_player()
    theirs = "sparti" if me == 0 else "athinae"
    e = refused(st, A.CreateHoplites(theirs, 1, 0))
    assert e.rule == "§5.1" and "is not your polis" in str(e)
    if me == 1:
        e = refused(st, A.CreateGalleys("sparti", 1, 0))
        assert e.rule == "§5.2" and "no port" in str(e)


def test_capitals_cannot_be_besieged_and_the_diceless_rules_have_their_own_siege_actions() -> None:
    st = start()
    me = st.current_player()
    e = refused(st, A.Besiege("sparti" if me == 0 else "athinae"))
    assert e.rule in ("§7.1", "§4.5") and ("capital" in str(e) or "prestige" in str(e))
    st = start("diceless")
    e = refused(st, A.Besiege("argos"))
    assert e.rule == "§7.3" and "diceless" in str(e)
    e = refused(start(), A.StartSiege("argos"))
    assert e.rule == "§7.1" and "besiege" in str(e)


def test_the_two_actions_of_a_turn_must_be_different_s_4_3() -> None:
    st = start()
    first = next(a for a in st.legal_actions() if a.kind == "create_hoplites")
    play(st, first)
    while st.current_player() == CHANCE or st.phase_name() != "action":
        st.apply(
            sample_chance(st, random.Random(1)) if st.current_player() == CHANCE else st.legal_actions()[0]
        )
    e = refused(st, first)
    assert e.rule == "§4.3" and "must be different" in str(e) and "create hoplites" in str(e)


def test_an_action_of_another_step_says_what_is_legal_now() -> None:
    st = start()
    e = refused(st, A.EndMove())
    assert e.rule == "§4.3" and "you may:" in str(e) and "pass" in str(e)
