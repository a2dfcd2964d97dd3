"""Phase 3, naval movement [R 9] with the `naval_move` switch, and phase 4, naval combat [R 11]
(spqrisiko.md B 4.3, B 4.5): declared sea area and opponent, at most one combat per sea area per turn, naval
ties remove nobody, a roll without losses ends the combat, the rulebook's p.9 example."""

from __future__ import annotations

import pytest

from hegemon.core.errors import IllegalActionError
from hegemon.core.game import CHANCE
from hegemon.core.play import play
from hegemon.games.spqrisiko import actions as A
from tests.games.spqrisiko.fixtures import fight, goto, of_kind, phase, roll, scenario, trir

LAND = {"italia": (0, 3), "sicilia": (1, 2), "creta": (2, 2), "cipro": (3, 2)}


def naval(rules: str = "house-1.2", **kw: object) -> object:
    st = scenario(rules=rules, provinces=LAND, **kw)
    return goto(st, "naval_move")


# ------------------------------------------------------------------------------ movement [R 9]


def test_r_9_3_official_one_group_move_to_one_adjacent_area() -> None:
    st = naval("official", triremes={("tyrrenum", 0): 3, ("ionium", 0): 1})
    moves = {(a.source, a.dest, a.count) for a in of_kind(st, A.NavalMove)}
    assert ("tyrrenum", "syrtis", 3) in moves and ("tyrrenum", "syrtis", 1) in moves
    assert ("ionium", "creticum", 1) in moves
    assert not any(d == "aegeum" and s == "tyrrenum" for s, d, _ in moves)  # one step only [R 9.4]
    assert {d for s, d, _ in moves if s == "tyrrenum"} == {"balearicum", "ionium", "sinus_gallicus", "syrtis"}
    play(st, A.NavalMove("tyrrenum", "syrtis", 2))
    assert trir(st, "tyrrenum", 0) == 1 and trir(st, "syrtis", 0) == 2
    # a single move per turn: the phase is over
    assert phase(st) != "naval_move"


def test_house_naval_move_each_trireme_once() -> None:
    """seeds §2 Turn phases 3: "Naval movement: each trireme may move once, to an adjacent sea area." """
    st = naval(triremes={("tyrrenum", 0): 3, ("ionium", 0): 1})
    play(st, A.NavalMove("tyrrenum", "syrtis", 1))
    assert phase(st) == "naval_move"
    play(st, A.NavalMove("tyrrenum", "balearicum", 1))
    play(st, A.NavalMove("ionium", "tyrrenum", 1))
    # Tyrrenum: 1 original + 1 arrived; only the original may still move; arrivals are done
    moves = {(a.source, a.dest, a.count) for a in of_kind(st, A.NavalMove)}
    assert {(s, c) for s, _, c in moves} == {("tyrrenum", 1)}
    with pytest.raises(IllegalActionError):
        play(st, A.NavalMove("syrtis", "ionium", 1))
    play(st, A.NavalMove("tyrrenum", "ionium", 1))
    assert phase(st) != "naval_move"
    assert (trir(st, "tyrrenum", 0), trir(st, "syrtis", 0), trir(st, "balearicum", 0), trir(st, "ionium", 0)) == (
        1, 1, 1, 1,
    )  # fmt: skip


def test_u16_naval_move_may_empty_an_area() -> None:
    st = naval("official", triremes={("tyrrenum", 0): 2})
    play(st, A.NavalMove("tyrrenum", "ionium", 2))
    assert trir(st, "tyrrenum", 0) == 0 and trir(st, "ionium", 0) == 2


def test_r_9_moves_only_own_triremes_and_is_optional() -> None:
    """[R 9.3], [R 9.6]: optional, own triremes only, independent of the strategic move."""
    st = naval(triremes={("tyrrenum", 1): 2, ("ionium", 0): 1})
    assert all(a.source == "ionium" for a in of_kind(st, A.NavalMove))
    assert A.DONE in st.legal_actions()
    play(st, A.DONE)
    assert trir(st, "ionium", 0) == 1


def test_r_9_naval_move_phase_skipped_without_triremes() -> None:
    st = scenario(provinces=LAND)
    goto(st, "land_attack")
    assert st.phase_name() == "land attacks"


def test_option_official_rules_with_per_trireme_move() -> None:
    st = naval("official", naval_move="per_trireme", triremes={("tyrrenum", 0): 2})
    play(st, A.NavalMove("tyrrenum", "ionium", 1))
    assert phase(st) == "naval_move"


# ------------------------------------------------------------------------------ combat [R 11]


def combat(**kw: object) -> object:
    st = scenario(provinces=LAND, **kw)
    return goto(st, "naval_combat")


def test_r_11_3_declare_sea_and_opponent_where_both_have_triremes() -> None:
    """[R 9.1], [R 9.2] several players share a sea area; [R 11.1] combat inside one area; [R 11.3]."""
    st = combat(triremes={("tyrrenum", 0): 3, ("tyrrenum", 1): 2, ("tyrrenum", 2): 2, ("ionium", 3): 1})
    assert {(a.sea, a.opponent) for a in of_kind(st, A.NavalAttack)} == {("tyrrenum", 1), ("tyrrenum", 2)}


def test_r_10_13_naval_attacker_never_rolls_fewer_dice_than_defender() -> None:
    st = combat(triremes={("tyrrenum", 0): 1, ("tyrrenum", 1): 2, ("ionium", 0): 2, ("ionium", 1): 2})
    assert {(a.sea, a.opponent) for a in of_kind(st, A.NavalAttack)} == {("ionium", 1)}
    play(st, A.NavalAttack("ionium", 1))
    assert {a.dice for a in of_kind(st, A.RollDice)} == {2}
    assert A.WITHDRAW not in st.legal_actions()  # a declared combat rolls at least once


def test_r_11_p9_example_red_blue_yellow() -> None:
    st = combat(triremes={("tyrrenum", 0): 3, ("tyrrenum", 1): 2, ("tyrrenum", 2): 2})
    play(st, A.NavalAttack("tyrrenum", 1))
    fight(st, ((6, 2, 1), (5, 3)))  # roll 1: 3 v 2, each side loses one
    assert (trir(st, "tyrrenum", 0), trir(st, "tyrrenum", 1)) == (2, 1)
    fight(st, ((3, 1), (4,)))  # roll 2: 2 v 1, red loses one
    assert (trir(st, "tyrrenum", 0), trir(st, "tyrrenum", 1)) == (1, 1)
    fight(st, ((4,), (4,)))  # roll 3: a tie, nobody loses [R 11.5] and the combat must stop [R 11.6]
    assert (trir(st, "tyrrenum", 0), trir(st, "tyrrenum", 1), trir(st, "tyrrenum", 2)) == (1, 1, 2)
    assert phase(st) != "naval_battle"
    # at most one combat per sea area per turn [R 11.4]: not even against Yellow
    assert not any(a.sea == "tyrrenum" for a in of_kind(st, A.NavalAttack))


def test_r_11_5_naval_tie_removes_nobody_per_pair() -> None:
    st = combat(triremes={("tyrrenum", 0): 3, ("tyrrenum", 1): 3})
    play(st, A.NavalAttack("tyrrenum", 1))
    fight(st, ((5, 4, 2), (5, 3, 2)))  # tie, win, tie: only blue loses one
    assert (trir(st, "tyrrenum", 0), trir(st, "tyrrenum", 1)) == (3, 2)
    assert phase(st) == "naval_battle"


def test_r_11_6_roll_without_losses_ends_the_combat() -> None:
    st = combat(triremes={("tyrrenum", 0): 3, ("tyrrenum", 1): 3, ("ionium", 0): 1, ("ionium", 1): 1})
    play(st, A.NavalAttack("tyrrenum", 1))
    fight(st, ((6, 4, 2), (6, 4, 2)))
    assert (trir(st, "tyrrenum", 0), trir(st, "tyrrenum", 1)) == (3, 3)
    assert phase(st) == "naval_combat"
    assert {a.sea for a in of_kind(st, A.NavalAttack)} == {"ionium"}  # another area is still allowed


def test_r_10_12_attacker_may_stop_after_a_roll() -> None:
    st = combat(triremes={("tyrrenum", 0): 5, ("tyrrenum", 1): 3})
    play(st, A.NavalAttack("tyrrenum", 1))
    fight(st, ((6, 4, 2), (5, 5, 3)))
    assert A.WITHDRAW in st.legal_actions()
    play(st, A.WITHDRAW)
    assert (trir(st, "tyrrenum", 0), trir(st, "tyrrenum", 1)) == (3, 2)
    assert phase(st) != "naval_battle"


def test_r_10_13_naval_combat_ends_when_attacker_would_roll_fewer_dice() -> None:
    st = combat(triremes={("tyrrenum", 0): 3, ("tyrrenum", 1): 3})
    play(st, A.NavalAttack("tyrrenum", 1))
    fight(st, ((6, 4, 2), (5, 5, 3)))
    assert (trir(st, "tyrrenum", 0), trir(st, "tyrrenum", 1)) == (1, 2)
    assert phase(st) != "naval_battle"


def test_r_11_combat_ends_when_the_declared_opponent_is_gone_u17() -> None:
    st = combat(triremes={("tyrrenum", 0): 3, ("tyrrenum", 1): 1, ("tyrrenum", 2): 1})
    play(st, A.NavalAttack("tyrrenum", 1))
    fight(st, ((6,), (1,)))
    assert trir(st, "tyrrenum", 1) == 0 and trir(st, "tyrrenum", 2) == 1 and trir(st, "tyrrenum", 0) == 3
    assert phase(st) != "naval_battle"
    assert not any(a.sea == "tyrrenum" for a in of_kind(st, A.NavalAttack))


def test_r_11_7_no_garrison_at_sea_all_triremes_may_be_lost() -> None:
    st = combat(triremes={("tyrrenum", 0): 1, ("tyrrenum", 1): 1})
    play(st, A.NavalAttack("tyrrenum", 1))
    fight(st, ((2,), (5,)))
    assert trir(st, "tyrrenum", 0) == 0 and trir(st, "tyrrenum", 1) == 1


def test_r_10_4_naval_dice_choices_and_defender_rolls_max() -> None:
    st = combat(triremes={("tyrrenum", 0): 5, ("tyrrenum", 1): 2})
    play(st, A.NavalAttack("tyrrenum", 1))
    assert {a.dice for a in of_kind(st, A.RollDice)} == {2, 3}
    play(st, A.RollDice(3))
    assert st.current_player() == CHANCE
    outs = st.chance_outcomes()
    assert all(len(a.attacker) == 3 and len(a.defender) == 2 for a, _ in outs)
    assert abs(sum(p for _, p in outs) - 1) < 1e-12
    roll(st, (1, 1, 1), (6, 6))
    assert trir(st, "tyrrenum", 0) == 3


def test_r_11_2_naval_combat_comes_after_movement_and_before_attacks() -> None:
    """[R 4.5], [R 4.6], [R 9.5], [R 11.2]: movement, then naval combat, then attacks."""
    st = scenario(provinces=LAND, triremes={("ionium", 0): 2, ("tyrrenum", 1): 1})
    goto(st, "naval_move")
    play(st, A.NavalMove("ionium", "tyrrenum", 2))
    assert phase(st) == "naval_combat"  # every trireme has moved: the movement phase ends by itself
    assert of_kind(st, A.NavalAttack) == [A.NavalAttack("tyrrenum", 1)]
