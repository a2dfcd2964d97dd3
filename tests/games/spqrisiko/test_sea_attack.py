"""Phase 5, sea attacks [R 12] (spqrisiko.md B 4.6): the bridge needs strictly more triremes than the
defender (the p.10 Pontus Euxinus example), one source province, the garrison (R 14.3 example), fought to
the end (U7), each province at most once per turn, no sea attack from a province taken by sea but land
attacks allowed, all survivors enter (U8)."""

from __future__ import annotations

import pytest

from hegemon.core.errors import IllegalActionError
from hegemon.core.game import CHANCE
from hegemon.core.play import play
from hegemon.games.spqrisiko import actions as A
from tests.games.spqrisiko.fixtures import armies, goto, of_kind, owner, phase, roll, scenario, trir

ISLANDS = {"sicilia": (0, 6), "sardinia": (0, 5), "africa": (1, 2), "corsica": (1, 1), "creta": (2, 2)}


def sea(provinces: dict | None = None, **kw: object) -> object:
    st = scenario(provinces=provinces or ISLANDS, **kw)
    return goto(st, "sea_attack", place=next(iter(provinces or ISLANDS)))


def targets(st: object) -> set[tuple[str, str, str]]:
    return {(a.source, a.target, a.sea) for a in of_kind(st, A.SeaAttack)}


def test_r_12_p10_pontus_euxinus_example() -> None:
    st = sea(
        {"bithynia": (0, 5), "moesia": (2, 2), "thracia": (1, 2)},
        triremes={("pontus_euxinus", 0): 2, ("pontus_euxinus", 2): 2, ("pontus_euxinus", 1): 1},
    )
    t = targets(st)
    assert ("bithynia", "thracia", "pontus_euxinus") in t  # Red 2 > Blue 1
    assert ("bithynia", "moesia", "pontus_euxinus") not in t  # Red 2 = Yellow 2


def test_r_12_2_more_than_the_defender_not_more_than_everyone() -> None:
    st = sea(
        {"bithynia": (0, 5), "moesia": (2, 2), "thracia": (1, 2)},
        triremes={("pontus_euxinus", 0): 2, ("pontus_euxinus", 2): 3, ("pontus_euxinus", 1): 1},
    )
    assert ("bithynia", "thracia", "pontus_euxinus") in targets(st)


def test_r_12_2_neutral_target_needs_at_least_one_own_trireme() -> None:
    st = sea({"sicilia": (0, 6)}, triremes={("syrtis", 0): 1})
    assert {(s, t) for s, t, _ in targets(st)} == {
        ("sicilia", "africa"),
        ("sicilia", "cyrenaica"),
        ("sicilia", "numidia"),
    }
    st = scenario(provinces={"sicilia": (0, 6), "creta": (1, 2)})
    play(st, A.Reinforce("sicilia"))
    play(st, A.DONE)  # no trireme built
    assert st.current_player() == 1  # no bridge, no attack, nothing to do: the turn is over


def test_r_12_1_bridge_both_provinces_on_the_same_sea_area() -> None:
    st = sea(triremes={("tyrrenum", 0): 1})
    t = targets(st)
    assert ("sicilia", "africa", "tyrrenum") in t and ("sardinia", "corsica", "tyrrenum") in t
    assert not any(s == "syrtis" for _, _, s in t)  # no triremes there
    assert not any(tg == "creta" for _, tg, _ in t)  # Creta is not on Tyrrenum


def test_r_14_3_example_four_legionaries_bordering_an_enemy_declare_at_most_two() -> None:
    st = sea({"italia": (0, 4), "cisalpina": (2, 3), "sicilia": (1, 1)}, triremes={("tyrrenum", 0): 1})
    st.armies[st.board.province_index["italia"]] = 4  # undo the reinforcement
    play(st, A.SeaAttack("italia", "sicilia", "tyrrenum"))
    assert {a.count for a in of_kind(st, A.Declare)} == {1, 2}


def test_r_12_3_declare_from_a_source_without_enemy_neighbours_leaves_one() -> None:
    """[R 12.3], [R 12.4]: the declared force comes from one source province."""
    st = sea(triremes={("tyrrenum", 0): 1})
    play(st, A.SeaAttack("sicilia", "africa", "tyrrenum"))
    assert {a.count for a in of_kind(st, A.Declare)} == {2, 3, 4, 5, 6}  # 7 on Sicilia, 1 stays; >= 2 dice


def test_r_10_13_declared_force_never_rolls_fewer_dice_than_the_defender() -> None:
    st = scenario(
        provinces={"sicilia": (0, 2), "africa": (1, 3), "corsica": (1, 2), "creta": (2, 2)},
        triremes={("tyrrenum", 0): 1},
    )
    goto(st, "sea_attack", place="sicilia")
    # Sicilia: 2+1 legionaries, at most 2 may go: Corsica (2 dice) yes, Africa or neutrals (3 dice) no
    assert targets(st) == {("sicilia", "corsica", "tyrrenum")}
    play(st, A.SeaAttack("sicilia", "corsica", "tyrrenum"))
    assert {a.count for a in of_kind(st, A.Declare)} == {2}


def test_r_12_3_fought_to_the_end_with_all_survivors_rolling() -> None:
    st = sea(triremes={("tyrrenum", 0): 1})
    play(st, A.SeaAttack("sicilia", "africa", "tyrrenum"))
    play(st, A.Declare(3))
    assert armies(st, "sicilia") == 4
    assert st.current_player() == CHANCE and st.chance == (2, 3, 2)
    roll(st, (1, 1, 1), (6, 6))  # lose 2
    assert st.current_player() == CHANCE and st.chance == (2, 1, 2)  # U7: one survivor keeps rolling
    assert not st.legal_actions()  # no withdraw, no dice choice
    roll(st, (6,), (5, 2))
    assert armies(st, "africa") == 1 and st.current_player() == CHANCE
    roll(st, (6,), (6,))  # tie to the defender [R 12.5]
    assert armies(st, "africa") == 1 and owner(st, "africa") == 1
    assert armies(st, "sicilia") == 4  # the declared force is lost, nobody returns
    assert phase(st) == "sea_attack"


def test_u7_option_off_survivors_stop_below_the_defender_and_return() -> None:
    st = sea(triremes={("tyrrenum", 0): 1}, sea_attack_below_defender=False)
    play(st, A.SeaAttack("sicilia", "africa", "tyrrenum"))
    play(st, A.Declare(3))
    roll(st, (1, 1, 1), (6, 6))
    assert st.current_player() != CHANCE
    assert armies(st, "sicilia") == 5


def test_u8_after_a_sea_conquest_all_survivors_enter_and_none_follow() -> None:
    st = sea(triremes={("tyrrenum", 0): 1})
    play(st, A.SeaAttack("sicilia", "africa", "tyrrenum"))
    play(st, A.Declare(5))
    roll(st, (6, 1, 1), (5, 5))  # 1 each
    roll(st, (6, 6, 6), (1,))
    assert owner(st, "africa") == 0 and armies(st, "africa") == 4
    assert armies(st, "sicilia") == 2
    assert not of_kind(st, A.MoveIn) and phase(st) in ("sea_attack", "land_attack")
    assert st.conquered


def test_r_12_triremes_are_not_used_up() -> None:
    st = sea(triremes={("tyrrenum", 0): 1})
    play(st, A.SeaAttack("sicilia", "africa", "tyrrenum"))
    play(st, A.Declare(3))
    roll(st, (6, 6, 6), (1, 1))
    assert trir(st, "tyrrenum", 0) == 1


def test_r_12_6_each_province_at_most_once_per_turn_even_from_different_seas() -> None:
    st = sea(
        {"sicilia": (0, 6), "numidia": (0, 6), "africa": (1, 2), "creta": (1, 1)},
        triremes={("tyrrenum", 0): 1, ("syrtis", 0): 1, ("balearicum", 0): 1},
    )
    play(st, A.SeaAttack("sicilia", "africa", "tyrrenum"))
    play(st, A.Declare(2))
    roll(st, (1, 1), (6, 6))
    assert owner(st, "africa") == 1
    assert not any(t == "africa" for _, t, _ in targets(st))
    with pytest.raises(IllegalActionError):
        play(st, A.SeaAttack("numidia", "africa", "balearicum"))


def test_r_12_7_no_sea_attack_from_a_province_taken_by_sea_but_land_attacks_allowed() -> None:
    st = sea(
        {"sicilia": (0, 8), "africa": (1, 1), "numidia": (1, 1), "mauretania": (2, 2), "creta": (1, 1)},
        triremes={("syrtis", 0): 1, ("balearicum", 0): 2},
    )
    play(st, A.SeaAttack("sicilia", "africa", "syrtis"))
    play(st, A.Declare(6))
    roll(st, (6, 6, 6), (1,))
    assert owner(st, "africa") == 0 and armies(st, "africa") == 6
    # Africa touches Balearicum where player 0 has 2 triremes, yet it may not launch a sea attack
    assert not any(s == "africa" for s, _, _ in targets(st))
    play(st, A.DONE)
    assert phase(st) == "land_attack"
    assert A.Attack("africa", "numidia") in st.legal_actions()


def test_r_12_landlocked_and_one_legionary_provinces_cannot_sea_attack() -> None:
    st = scenario(
        provinces={"sicilia": (0, 1), "arabia": (0, 9), "creta": (1, 1)}, triremes={("tyrrenum", 0): 1}
    )
    play(st, A.Reinforce("arabia"))
    play(st, A.DONE)  # conversions
    play(st, A.DONE)  # naval movement
    # Sicilia keeps its only legionary, Arabia touches no sea: no sea attack; Arabia attacks by land instead
    assert phase(st) == "land_attack" and A.Attack("arabia", "judea") in st.legal_actions()


def test_r_12_6_other_provinces_may_still_be_sea_attacked() -> None:
    st = sea(triremes={("tyrrenum", 0): 1})
    play(st, A.SeaAttack("sicilia", "africa", "tyrrenum"))
    play(st, A.Declare(2))
    roll(st, (1, 1), (6, 6))
    assert ("sardinia", "corsica", "tyrrenum") in targets(st)


def test_r_4_2_sea_attacks_come_before_land_attacks() -> None:
    st = sea({"italia": (0, 9), "cisalpina": (1, 2), "sicilia": (1, 1)}, triremes={("tyrrenum", 0): 1})
    assert phase(st) == "sea_attack"
    assert not of_kind(st, A.Attack)
    play(st, A.DONE)
    assert phase(st) == "land_attack" and not of_kind(st, A.SeaAttack)


def test_the_terminal_shows_the_odds_of_a_declaration() -> None:
    from hegemon.games.spqrisiko.text import action_odds

    st = scenario(
        provinces={"sicilia": (0, 2), "africa": (1, 3), "corsica": (1, 2), "creta": (2, 2)},
        triremes={("tyrrenum", 0): 1},
    )
    goto(st, "sea_attack", place="sicilia")
    play(st, A.SeaAttack("sicilia", "corsica", "tyrrenum"))
    line = action_odds(st, A.Declare(2))
    assert line is not None and line.startswith("sea attack on Corsica with 2: win 36.3% (235/648)")
