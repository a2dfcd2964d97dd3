"""Battles (polis.md §6; seed 002 "Battle"): trigger, hands, matching, prestige, retreat, the three ends."""

from __future__ import annotations

import json

from hegemon.games.polis import actions as A
from hegemon.games.polis.rules.common import BATTLE_DRAW, MATCH, PLAY, RETREAT

from .fixtures import ATHENS, SPARTA, T, do, hoplites, scenario


def _deal(st, side, cards):
    for c in cards:
        do(st, A.DrawCard(side, c))


def _boiotia_battle(pp=(3, 5)):
    """§6.8: round 4, Sparta moves 4 hoplites into Boiotia where Athens has 4."""
    st = scenario(rnd="4", to_move=SPARTA, pp=pp, units={(ATHENS, "boiotia"): 4, (SPARTA, "megaris"): 4})
    do(st, A.MoveHoplites("boiotia"), A.MoveFrom("megaris", 4), A.EndMove(), A.MoveProxenos("gythion"))
    return st


def test_battle_worked_example_of_section_6_8():
    st = _boiotia_battle()
    assert st.phase == BATTLE_DRAW and st.battle_at == T(st, "boiotia")
    assert st.attacker == SPARTA  # Sparta attacks first on land (R48)
    assert st.chance_outcomes()[0][0].side == SPARTA
    _deal(st, SPARTA, ["phalanx:2", "charge:1", "skirmish:0", "flank:1"])
    _deal(st, ATHENS, ["phalanx:1", "flank:0", "skirmish:2", "skirmish:1"])
    assert sum(st.deck) == 16 and st.phase == RETREAT and st.active == SPARTA
    do(st, A.Stand(), A.Stand())
    assert st.phase == PLAY and st.active == SPARTA
    do(st, A.PlayCards("phalanx:2", "charge:1"))
    assert st.phase == MATCH and st.active == ATHENS
    legal = st.legal_actions()
    assert A.Match("phalanx:1", "") in legal and A.Match("", "") in legal
    assert all(m.second == "" for m in legal)  # Athens holds no Charge
    do(st, A.Match("phalanx:1", ""))
    # Charge unmatched: Athens loses 1 hoplite, Sparta +1; Phalanx 2 vs 1: Sparta +1
    assert hoplites(st, ATHENS, "boiotia") == 3 and hoplites(st, SPARTA, "boiotia") == 4
    assert st.pp == [3, 4 + 2]
    assert st.draw_queue == [SPARTA, SPARTA, ATHENS]  # attacker draws 2, defender 2 − 1 loss
    _deal(st, SPARTA, ["flank:2", "flank:2"])
    _deal(st, ATHENS, ["charge:0"])
    assert sum(st.deck) == 13 and sum(st.hands[0]) == 4 and sum(st.hands[1]) == 4
    # exchange 2: Athens attacks
    assert st.phase == RETREAT and st.active == ATHENS
    do(st, A.Stand(), A.Stand())
    do(st, A.PlayCards("skirmish:1", "skirmish:2"))
    do(st, A.Match("", "skirmish:0"))
    assert st.pp == [3 + 3, 6]  # Skirmish 2 vs 0: +2; Skirmish 1 unmatched: +1
    assert hoplites(st, SPARTA, "boiotia") == 3
    _deal(st, ATHENS, ["charge:2", "phalanx:0"])
    _deal(st, SPARTA, ["skirmish:1"])
    assert sum(st.deck) == 10 and st.attacker == SPARTA


def test_defender_may_only_lay_matching_cards():
    st = _boiotia_battle()
    _deal(st, SPARTA, ["phalanx:2", "phalanx:1", "skirmish:0", "flank:1"])
    _deal(st, ATHENS, ["phalanx:0", "phalanx:1", "skirmish:2", "skirmish:1"])
    do(st, A.Stand(), A.Stand(), A.PlayCards("phalanx:1", "phalanx:2"))
    legal = set(st.legal_actions())
    assert legal == {
        A.Match("", ""),
        A.Match("phalanx:0", ""),
        A.Match("phalanx:1", ""),
        A.Match("", "phalanx:0"),
        A.Match("", "phalanx:1"),
        A.Match("phalanx:0", "phalanx:1"),
        A.Match("phalanx:1", "phalanx:0"),
    }


def test_retreat_pays_one_prestige_to_the_opponent_and_ends_the_battle():
    """§6.5: all units to one adjacent same-kind territory not controlled by the opponent."""
    st = _boiotia_battle()
    _deal(st, SPARTA, ["phalanx:2", "charge:1", "skirmish:0", "flank:1"])
    _deal(st, ATHENS, ["phalanx:1", "flank:0", "skirmish:2", "skirmish:1"])
    do(st, A.Stand())
    retreats = {a.territory for a in st.legal_actions() if isinstance(a, A.Retreat)}
    # land neighbours of Boiotia; Attika already holds 3 Athenian hoplites (3 + 4 > stacking limit 4)
    assert retreats == {"euboia", "megaris", "thessalia"}
    st.pp[ATHENS] = 0
    assert not [a for a in st.legal_actions() if isinstance(a, A.Retreat)]  # retreat costs 1 PP


def test_retreat_destinations_exclude_enemy_controlled_territories():
    st = _boiotia_battle()
    st.units[SPARTA][T(st, "attika")] = 2
    _deal(st, SPARTA, ["phalanx:2", "charge:1", "skirmish:0", "flank:1"])
    _deal(st, ATHENS, ["phalanx:1", "flank:0", "skirmish:2", "skirmish:1"])
    do(st, A.Stand())
    retreats = {a.territory for a in st.legal_actions() if isinstance(a, A.Retreat)}
    assert "attika" not in retreats and "megaris" in retreats
    do(st, A.Retreat("megaris"))
    assert st.pp == [3 - 1, 4 + 1]
    assert hoplites(st, ATHENS, "boiotia") == 0 and hoplites(st, ATHENS, "megaris") == 4
    assert st.battle_at == -1 and st.phase_name() == "action" and st.active == ATHENS


def test_battle_ends_when_a_side_has_fewer_than_two_units():
    st = scenario(rnd="5a", to_move=SPARTA, pp=(3, 5), units={(ATHENS, "boiotia"): 3, (SPARTA, "megaris"): 5})
    do(st, A.MoveHoplites("boiotia"), A.MoveFrom("megaris", 5), A.EndMove(), A.MoveProxenos("gythion"))
    _deal(st, SPARTA, ["phalanx:2", "charge:1", "skirmish:0", "flank:1"])
    _deal(st, ATHENS, ["phalanx:1", "flank:0", "skirmish:2", "skirmish:1"])
    do(st, A.Stand(), A.Stand(), A.PlayCards("phalanx:2", "charge:1"), A.Match("", ""))
    assert hoplites(st, ATHENS, "boiotia") == 1
    assert st.battle_at == -1 and st.pp[SPARTA] == 4 + 3  # battle over, no further draws
    assert sum(st.deck) == 24 and sum(st.hands[0]) == 0


def test_battle_ends_when_the_deck_cannot_supply_the_cards():
    st = _boiotia_battle()
    _deal(st, SPARTA, ["phalanx:2", "charge:1", "skirmish:0", "flank:1"])
    _deal(st, ATHENS, ["phalanx:1", "flank:0", "skirmish:2", "skirmish:1"])
    st.deck = [0] * len(st.deck)
    st.deck[0] = 2  # two cards left: the attacker's 2 + the defender's 1 do not fit
    do(st, A.Stand(), A.Stand(), A.PlayCards("phalanx:2", "charge:1"), A.Match("phalanx:1", ""))
    assert st.battle_at == -1 and hoplites(st, ATHENS, "boiotia") == 3


def test_sea_battles_start_with_athens_and_no_battle_below_eight_units():
    st = scenario(
        rnd="4", to_move=ATHENS, pp=(5, 5), units={(ATHENS, "kyklades"): 4, (SPARTA, "myrtoon_pelagos"): 4}
    )
    do(st, A.MoveGalleys("myrtoon_pelagos"), A.MoveFrom("kyklades", 2), A.EndMove(), A.Pass())
    assert st.battle_at == -1  # 6 galleys: no battle
    st = scenario(
        rnd="4", to_move=ATHENS, pp=(5, 5), units={(ATHENS, "kyklades"): 4, (SPARTA, "myrtoon_pelagos"): 4}
    )
    do(st, A.MoveGalleys("myrtoon_pelagos"), A.MoveFrom("kyklades", 4), A.EndMove(), A.Pass())
    assert st.battle_at == T(st, "myrtoon_pelagos") and st.attacker == ATHENS


def test_card_draws_are_hidden_from_the_opponent():
    """§6.7: hands are secret; the opponent sees only the count."""
    st = _boiotia_battle()
    a = A.DrawCard(SPARTA, "phalanx:2")
    assert a.visible_to(SPARTA) == a and a.visible_to(ATHENS) == A.DrawCard(SPARTA, "?")
    assert a.visible_to(None).card == "?"
    _deal(st, SPARTA, ["phalanx:2", "charge:1", "skirmish:0", "flank:1"])
    other = st.clone()
    other.hands[SPARTA] = [0] * len(other.hands[SPARTA])
    for c in ("flank:0", "flank:1", "charge:2", "skirmish:2"):
        other.hands[SPARTA][st.board.card_index[c]] += 1
    assert json.dumps(st.view(ATHENS), sort_keys=True) == json.dumps(other.view(ATHENS), sort_keys=True)
    assert json.dumps(st.view(None), sort_keys=True) == json.dumps(other.view(None), sort_keys=True)
    assert st.view(SPARTA)["hand"] != other.view(SPARTA)["hand"]
    assert st.view(ATHENS)["sides"][SPARTA]["hand_size"] == 4


def test_draw_probabilities_follow_the_cards_left():
    st = _boiotia_battle()
    outs = dict((a.card, p) for a, p in st.chance_outcomes())
    assert abs(outs["phalanx:1"] - 3 / 24) < 1e-12 and abs(outs["phalanx:0"] - 1 / 24) < 1e-12
    assert abs(sum(outs.values()) - 1) < 1e-12


def test_several_battles_the_side_whose_turn_ended_chooses_the_order():
    """§6.1 (R47): every territory with 8+ units fights; the side whose turn ended picks the order; a
    territory is fought once per turn-end."""
    st = scenario(
        rnd="4",
        to_move=ATHENS,
        pp=(5, 5),
        clear_units=True,
        units={
            (ATHENS, "boiotia"): 4,
            (SPARTA, "boiotia"): 4,
            (ATHENS, "kyklades"): 4,
            (SPARTA, "myrtoon_pelagos"): 4,
        },
    )
    do(st, A.MoveGalleys("myrtoon_pelagos"), A.MoveFrom("kyklades", 4), A.EndMove(), A.Pass())
    assert st.phase_name() == "battle choice" and st.active == ATHENS
    assert {a.territory for a in st.legal_actions()} == {"boiotia", "myrtoon_pelagos"}
    do(st, A.ChooseBattle("myrtoon_pelagos"))
    assert st.battle_at == T(st, "myrtoon_pelagos") and st.attacker == ATHENS
    for c in ("phalanx:0", "phalanx:1", "phalanx:1", "phalanx:1"):
        do(st, A.DrawCard(ATHENS, c))
    for c in ("flank:0", "flank:1", "flank:1", "flank:1"):
        do(st, A.DrawCard(SPARTA, c))
    do(st, A.Stand(), A.Retreat("ionion_pelagos"))  # Sparta retreats at sea: the battle ends
    assert st.pp == [5 - 1 + 1, 5 - 1]  # the move cost Athens 1 PP; the retreat pays Athens 1
    # the remaining battle starts at once (one candidate left)
    assert st.battle_at == T(st, "boiotia") and st.attacker == SPARTA and st.phase_name() == "card draw"
