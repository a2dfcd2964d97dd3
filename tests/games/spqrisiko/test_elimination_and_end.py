"""Neutral armies [R 2.6], elimination [R 18] with the `first_elimination_round` switch (U9), and the end of
the game: VP target, round limit (U10: the round is finished, ties shared), last player standing
(spqrisiko.md B 4.13-4.15)."""

from __future__ import annotations

import pytest

from hegemon.core.game import CHANCE, TERMINAL, Termination
from hegemon.core.play import play
from hegemon.games.spqrisiko import actions as A
from hegemon.games.spqrisiko.rules.common import garrison
from hegemon.games.spqrisiko.scoring import NEUTRAL
from tests.games.spqrisiko.fixtures import fight, goto, of_kind, owner, pass_turn, phase, roll, scenario


def end_turn(st: object, me: int) -> None:
    assert st.current_player() == me
    pass_turn(st)


def last_province(rules: str = "house-1.2", round: int = 5, **kw: object) -> object:
    st = scenario(
        rules=rules,
        round=round,
        provinces={
            "italia": (0, 9),
            "cisalpina": (1, 1),
            "sicilia": (0, 9),
            "creta": (2, 2),
            "cipro": (3, 2),
        },
        hands={1: {"banner": 2, "arena": 1}, 0: {"legionary": 1}},
        triremes={("ionium", 1): 1, ("tyrrenum", 0): 2, ("hadriaticum", 1): 2},
        **kw,
    )
    return goto(st, "sea_attack", place="italia")


def test_r_18_1_to_18_3_eliminator_takes_the_cards_and_the_triremes_leave() -> None:
    """[R 18.1] last province lost, [R 18.2] cards to the eliminator, [R 18.3] triremes removed."""
    st = last_province()
    play(st, A.DONE)
    play(st, A.Attack("italia", "cisalpina"))
    fight(st, ((6, 6, 6), (1,)))
    assert st.eliminated[1] and st.eliminated_by[1] == 0
    assert st.hands[0] == [1, 2, 0, 1] and st.hands[1] == [0, 0, 0, 0]
    assert sum(st.triremes[1]) == 0
    assert not st.is_terminal()


def test_r_18_2_captured_cards_not_usable_at_once_but_next_turn() -> None:
    st = last_province()
    play(st, A.DONE)
    play(st, A.Attack("italia", "cisalpina"))
    fight(st, ((6, 6, 6), (1,)))
    assert not of_kind(st, A.TradeSet)
    if phase(st) == "move_in":
        play(st, of_kind(st, A.MoveIn)[0])
    end_turn(st, 0)
    # player 1 is out: the turn goes to player 2
    assert st.current_player() == 2


def test_eliminated_player_is_skipped_in_the_turn_order() -> None:
    st = last_province()
    play(st, A.DONE)
    play(st, A.Attack("italia", "cisalpina"))
    fight(st, ((6, 6, 6), (1,)))
    if phase(st) == "move_in":
        play(st, of_kind(st, A.MoveIn)[0])
    end_turn(st, 0)
    seen = []
    for _ in range(2):
        seen.append(st.current_player())
        pass_turn(st)
    seen.append(st.current_player())
    assert seen == [2, 3, 0]
    assert phase(st) == "cards" and st.round == 6  # player 0 may now trade the captured cards


@pytest.mark.parametrize(
    ("rules", "round", "protected"),
    [("official", 4, True), ("official", 5, False), ("house-1.2", 3, True), ("house-1.2", 4, False)],
)
def test_r_18_4_u9_last_province_protected_before_the_first_elimination_round(
    rules: str, round: int, protected: bool
) -> None:
    st = last_province(rules, round)
    sea_targets = {a.target for a in of_kind(st, A.SeaAttack)}
    assert ("cisalpina" not in sea_targets) == protected
    play(st, A.DONE)
    assert (A.Attack("italia", "cisalpina") not in st.legal_actions()) == protected


@pytest.mark.parametrize("first", [2, 7])
def test_first_elimination_round_option(first: int) -> None:
    st = last_province("house-1.2", 6, first_elimination_round=first)
    play(st, A.DONE)
    assert (A.Attack("italia", "cisalpina") in st.legal_actions()) == (first <= 6)


def test_u9_a_player_with_two_provinces_may_be_attacked_when_protected() -> None:
    st = scenario(round=1, provinces={"italia": (0, 9), "cisalpina": (1, 1), "noricum": (1, 1)})
    goto(st, "land_attack", place="italia")
    play(st, A.Attack("italia", "cisalpina"))
    fight(st, ((6, 6, 6), (1,)))
    assert owner(st, "cisalpina") == 0
    play(st, of_kind(st, A.MoveIn)[-1])
    # Noricum is now player 1's last province: protected in round 1
    assert A.Attack("cisalpina", "noricum") not in st.legal_actions()


def test_u9_neutral_provinces_are_never_protected() -> None:
    st = scenario(
        round=1, provinces={"italia": (0, 9), "cisalpina": ("neutral", 1), "cipro": (1, 2)}, rest=(2, 1)
    )
    goto(st, "land_attack", place="italia")
    assert A.Attack("italia", "cisalpina") in st.legal_actions()


def test_r_2_6_neutral_armies_never_act() -> None:
    st = scenario(provinces={"italia": (0, 2), "sicilia": (1, 2), "creta": (2, 2), "cipro": (3, 2)}, active=3)
    assert st.order == [0, 1, 2, 3]
    players = []
    for _ in range(5):
        p = st.current_player()
        players.append(p)
        pass_turn(st)
    assert players == [3, 0, 1, 2, 3]
    assert NEUTRAL not in players and st.owner.count(NEUTRAL) == 41


# ------------------------------------------------------------------------------ end of the game


def test_last_player_standing_wins() -> None:
    st = scenario(
        provinces={"italia": (0, 9), "cisalpina": (1, 1)},
        rest=("neutral", 3),
        eliminated=[2, 3],
        vp={1: 15, 0: 3},
    )
    goto(st, "land_attack", place="italia")
    play(st, A.Attack("italia", "cisalpina"))
    fight(st, ((6, 6, 6), (1,)))
    assert st.current_player() == TERMINAL
    out = st.outcome()
    assert out.termination == Termination.ELIMINATION and out.winners == (0,)
    assert out.ranking[0] == (0,)


def round_limit(active: int, vp: dict[int, int], **kw: object) -> object:
    return scenario(
        provinces={"italia": (0, 2), "sicilia": (1, 2), "creta": (2, 2), "cipro": (3, 2)},
        round=5,
        active=active,
        vp=vp,
        **{"max_rounds": 5, "vp_target": None, **kw},
    )


def test_u10_round_limit_finishes_the_round() -> None:
    st = round_limit(1, {})
    end_turn(st, 1)
    assert st.current_player() == 2 and not st.is_terminal()
    end_turn(st, 2)
    assert st.current_player() == 3
    end_turn(st, 3)
    assert st.is_terminal()
    out = st.outcome()
    assert out.termination == Termination.ROUND_LIMIT


def test_u10_round_limit_most_vp_wins_ties_shared() -> None:
    st = round_limit(3, {0: 7, 1: 9, 2: 9, 3: 1})
    end_turn(st, 3)
    out = st.outcome()
    assert out is not None and out.termination == Termination.ROUND_LIMIT
    assert out.winners == (1, 2) and out.winner is None
    assert out.ranking == ((1, 2), (0,), (3,))
    assert out.scores == (7.0, 9.0, 9.0, 1.0)


def test_u10_round_limit_single_winner() -> None:
    st = round_limit(3, {0: 12, 1: 9, 2: 9, 3: 1})
    end_turn(st, 3)
    assert st.outcome().winners == (0,)


def test_r_4_3_1_vp_target_ends_the_game_before_the_round_limit() -> None:
    st = scenario(provinces={"italia": (0, 2), "creta": (0, 2), "sicilia": (1, 2)}, vp={0: 19}, max_rounds=50)
    assert st.outcome().termination == Termination.VP_TARGET


def test_a_3_max_rounds_with_a_vp_target() -> None:
    st = round_limit(3, {0: 2}, vp_target=20)
    end_turn(st, 3)
    assert st.outcome().termination == Termination.ROUND_LIMIT


def test_sea_attack_can_eliminate_too() -> None:
    st = last_province("official", 5)
    play(st, A.SeaAttack("italia", "cisalpina", "tyrrenum"))
    play(st, A.Declare(2))
    roll(st, (6, 6), (1,))
    assert st.eliminated[1] and sum(st.triremes[1]) == 0 and st.hands[0][1] == 2


def test_u10_round_limit_an_eliminated_player_cannot_win() -> None:
    st = scenario(
        provinces={"italia": (0, 2), "creta": (2, 2), "cipro": (3, 2)},
        round=5,
        active=3,
        vp={0: 3, 1: 15, 2: 4},
        eliminated=[1],
        max_rounds=5,
        vp_target=None,
    )
    pass_turn(st)
    out = st.outcome()
    assert out is not None and out.termination == Termination.ROUND_LIMIT
    assert out.winners == (2,)
    assert out.ranking == ((2,), (0,), (3,), (1,))
    assert out.scores[1] == 15.0


@pytest.mark.parametrize(
    ("rules", "players", "seed"),
    [("house-1.2", 4, 1), ("official", 3, 2), ("house-1.2", 5, 3), ("official", 4, 4)],
)
def test_random_playouts_keep_the_rules_invariants(rules: str, players: int, seed: int) -> None:
    """Whole games with uniformly random legal moves: every occupied province keeps >= 1 legionary [R 14.1],
    voluntary moves respect the garrison [R 14.2], nobody is eliminated before `first_elimination_round`
    [R 18.4], triremes never go negative, and the game ends (VP target or the round limit)."""
    import random

    from hegemon.games.spqrisiko import state as S
    from tests.games.spqrisiko.fixtures import new_game

    rng = random.Random(seed)
    st = new_game(players, rules, random_deal=True, max_rounds=25)
    steps = 0
    while not st.is_terminal():
        steps += 1
        assert steps < 20000
        if st.current_player() == CHANCE:
            a = st.sample_chance(rng)
        else:
            acts = st.legal_actions()
            assert acts
            a = rng.choice(acts)
        before = st.clone()
        st.apply(a)
        if st.round == 0 or st.is_terminal():
            continue
        if st.phase != S.MOVE_IN:
            assert all(k >= 1 for k in st.armies)
        assert all(x >= 0 for row in st.triremes for x in row)
        if sum(st.eliminated) > sum(before.eliminated):
            assert before.round >= st.opts.first_elimination_round
        me = before.order[before.turn]
        if a.kind in ("move", "declare"):
            src = before.battle.source
            assert st.armies[src] >= garrison(before, src, me)
        if a.kind == "move_in" and rules == "house-1.2":
            src = before.battle.source
            assert st.armies[src] >= garrison(st, src, me)
    out = st.outcome()
    assert out is not None and out.termination in (
        Termination.VP_TARGET,
        Termination.ROUND_LIMIT,
        Termination.ELIMINATION,
    )
    assert st.round <= 26
