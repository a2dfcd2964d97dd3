"""Phase 2, reinforcements [R 6]-[R 8] (spqrisiko.md B 4.2): the land table, power-centre legionaries,
trireme -> 2 legionaries, card sets with banner/trireme/arena bonuses, power-centre placement [R 16.4],
one set per turn (U3) and 3 legionaries of one coastal province -> 1 trireme (U19)."""

from __future__ import annotations

import pytest

from hegemon.core.errors import IllegalActionError
from hegemon.core.play import play
from hegemon.games.spqrisiko import actions as A
from tests.games.spqrisiko.fixtures import BOARD, armies, goto, of_kind, phase, pidx, scenario, trir


def own(n: int, k: int = 2) -> dict[str, tuple[int, int]]:
    """Player 0 holds the first n provinces in board order."""
    return {BOARD.province_ids[i]: (0, k) for i in range(n)}


@pytest.mark.parametrize(
    ("n", "pool"), [(1, 1), (2, 1), (3, 3), (7, 3), (11, 3), (12, 4), (13, 4), (14, 4), (15, 5), (21, 7)]
)
def test_r_6_1_to_6_3_land_table(n: int, pool: int) -> None:
    """[R 6.1] 3-11 -> 3, [R 6.2] 12+ -> floor(n/3), [R 6.3] fewer than 3 -> 1."""
    st = scenario(provinces=own(n))
    assert phase(st) == "reinforce"
    assert st.pool == pool


def test_r_6_4_reinforcements_go_one_by_one_on_own_provinces_only() -> None:
    st = scenario(provinces={"italia": (0, 2), "sicilia": (0, 2), "creta": (0, 2), "cipro": (1, 2)})
    assert {a.province for a in st.legal_actions()} == {"italia", "sicilia", "creta"}
    with pytest.raises(IllegalActionError):
        play(st, A.Reinforce("cipro"))
    play(st, A.Reinforce("italia"))
    play(st, A.Reinforce("italia"))
    play(st, A.Reinforce("creta"))
    assert (armies(st, "italia"), armies(st, "creta"), st.pool) == (4, 3, 0)
    assert phase(st) != "reinforce"


def test_r_6_5_power_centre_legionary_goes_into_its_province() -> None:
    """[R 6.5], [R 16.5]: +1 legionary in each own power centre's province."""
    st = scenario(
        provinces={"italia": (0, 2), "sicilia": (0, 2), "creta": (1, 2)}, centres=["italia", "creta"]
    )
    assert armies(st, "italia") == 3
    assert armies(st, "sicilia") == 2
    assert armies(st, "creta") == 2  # someone else's power centre
    assert st.pool == 1  # the land table only


def test_r_6_6_trireme_becomes_two_legionaries_in_an_own_province_on_that_sea() -> None:
    st = scenario(
        provinces={"italia": (0, 2), "sicilia": (0, 2), "creta": (0, 2), "sardinia": (1, 2)},
        triremes={("tyrrenum", 0): 2},
    )
    goto(st, "convert")
    disbands = {(a.sea, a.province) for a in of_kind(st, A.Disband)}
    assert disbands == {("tyrrenum", "italia"), ("tyrrenum", "sicilia")}
    before = armies(st, "sicilia")
    play(st, A.Disband("tyrrenum", "sicilia"))
    assert armies(st, "sicilia") == before + 2 and trir(st, "tyrrenum", 0) == 1
    # U4: any number of conversions
    play(st, A.Disband("tyrrenum", "italia"))
    assert trir(st, "tyrrenum", 0) == 0


def test_u4_option_limits_trireme_conversions() -> None:
    st = scenario(provinces={"italia": (0, 2)}, triremes={("tyrrenum", 0): 2}, trireme_disbands_per_turn=1)
    goto(st, "convert")
    play(st, A.Disband("tyrrenum", "italia"))
    assert not of_kind(st, A.Disband)


def test_r_7_1_three_legionaries_of_one_coastal_province_make_one_trireme() -> None:
    """[R 7.1], [R 7.2]: 3 legionaries of a coastal province -> 1 trireme in an adjacent sea area."""
    st = scenario(provinces={"sicilia": (0, 4), "creta": (0, 3), "arabia": (0, 9)})
    goto(st, "convert", place="creta")
    builds = {(a.province, a.sea) for a in of_kind(st, A.Build)}
    # Sicilia (4) may build in each of its seas; Creta had 3 (+1 placed = 4); Arabia is landlocked
    assert builds == {("sicilia", s) for s in ("ionium", "syrtis", "tyrrenum")} | {
        ("creta", s) for s in ("aegeum", "creticum", "ionium")
    }
    play(st, A.Build("sicilia", "syrtis"))
    assert armies(st, "sicilia") == 1 and trir(st, "syrtis", 0) == 1


def test_u19_build_leaves_one_not_two_even_on_a_frontier() -> None:
    st = scenario(provinces={"italia": (0, 3), "cisalpina": (1, 3)})
    goto(st, "convert", place="italia")
    assert armies(st, "italia") == 4
    play(st, A.Build("italia", "tyrrenum"))
    assert armies(st, "italia") == 1


def test_u19_option_trireme_garrison_two_on_a_frontier() -> None:
    st = scenario(provinces={"italia": (0, 3), "cisalpina": (1, 3)}, trireme_garrison=2)
    play(st, A.Reinforce("italia"))
    assert armies(st, "italia") == 4 and phase(st) == "land_attack"  # nothing to convert: skipped


def test_r_7_3_unlimited_builds_but_never_pooled_from_two_provinces() -> None:
    st = scenario(provinces={"sicilia": (0, 6), "creta": (0, 2), "cipro": (0, 2)})
    goto(st, "convert", place="sicilia")
    assert armies(st, "sicilia") == 9
    play(st, A.Build("sicilia", "ionium"))
    play(st, A.Build("sicilia", "ionium"))
    assert armies(st, "sicilia") == 3 and trir(st, "ionium", 0) == 2
    # Creta and Cipro (2 each) may not pool their legionaries; Sicilia is now too small
    assert not of_kind(st, A.Build)


def test_no_disbanding_after_building_in_the_same_turn() -> None:
    st = scenario(provinces={"sicilia": (0, 6)}, triremes={("ionium", 0): 1})
    goto(st, "convert", place="sicilia")
    assert of_kind(st, A.Disband)
    play(st, A.Build("sicilia", "tyrrenum"))
    assert not of_kind(st, A.Disband)
    assert of_kind(st, A.Build)


def test_r_7_1_conversions_come_after_the_land_reinforcements() -> None:
    st = scenario(provinces={"sicilia": (0, 6)}, triremes={("ionium", 0): 1})
    assert phase(st) == "reinforce"
    assert not of_kind(st, A.Build) and not of_kind(st, A.Disband)


# ------------------------------------------------------------------------------ card sets [R 8]


def cards_state(hand: dict[str, int], **kw: object) -> object:
    provinces = kw.pop("provinces", {"italia": (0, 2), "sicilia": (0, 2), "creta": (0, 2)})
    return scenario(provinces=provinces, hands={0: hand}, **kw)


def test_r_8_4_valid_sets_are_three_equal_or_three_different() -> None:
    """[R 8.2] sets are traded in the reinforcement phase, [R 8.3] four symbols, [R 8.4] valid sets."""
    st = cards_state({"legionary": 2, "banner": 1})
    assert phase(st) == "reinforce"  # two of a kind + one other is no set: the card step is skipped
    st = cards_state({"legionary": 3, "banner": 1, "trireme": 1})
    assert phase(st) == "cards"
    sets = {a.cards for a in of_kind(st, A.TradeSet)}
    assert sets == {("legionary",) * 3, ("legionary", "banner", "trireme")}
    assert A.DONE in st.legal_actions()


def test_r_8_5_three_equal_symbols_give_8() -> None:
    st = cards_state({"legionary": 3})
    play(st, A.TradeSet(("legionary",) * 3))
    assert st.pool == 8 + 3
    assert st.hands[0] == [0, 0, 0, 0] and st.discard[0] == 3


def test_r_8_6_three_different_symbols_give_10_plus_banner_2() -> None:
    st = cards_state({"legionary": 1, "banner": 1, "arena": 1})
    play(st, A.TradeSet(("legionary", "banner", "arena")))
    assert phase(st) == "bonus"
    play(st, A.PlacePowerCentre("italia"))
    assert st.pool == 10 + 2 + 3


def test_r_fig_p7_three_legionary_cards_8() -> None:
    st = cards_state({"legionary": 3})
    play(st, A.TradeSet(("legionary",) * 3))
    assert st.pool - 3 == 8 and sum(st.triremes[0]) == 0 and st.pcs_built == 0


def test_r_fig_p7_legionary_banner_trireme_12_and_a_trireme() -> None:
    st = cards_state({"legionary": 1, "banner": 1, "trireme": 1})
    play(st, A.TradeSet(("legionary", "banner", "trireme")))
    assert phase(st) == "bonus"
    play(st, A.PlaceTrireme("ionium"))
    assert st.pool - 3 == 12 and sum(st.triremes[0]) == 1 and trir(st, "ionium", 0) == 1


def test_r_fig_p7_three_trireme_cards_8_and_three_triremes() -> None:
    st = cards_state({"trireme": 3})
    play(st, A.TradeSet(("trireme",) * 3))
    for sea in ("ionium", "tyrrenum", "ionium"):
        play(st, A.PlaceTrireme(sea))
    assert st.pool - 3 == 8 and trir(st, "ionium", 0) == 2 and trir(st, "tyrrenum", 0) == 1


def test_r_fig_p7_three_banner_cards_14() -> None:
    """[R 8.7.1] +2 per banner card: 8 + 3 x 2."""
    st = cards_state({"banner": 3})
    play(st, A.TradeSet(("banner",) * 3))
    assert st.pool - 3 == 14


def test_r_fig_p7_three_arena_cards_8_and_three_power_centres() -> None:
    """[R 16.1], [R 16.3]: power centres are built only from arena cards, one per card."""
    st = cards_state({"arena": 3})
    play(st, A.TradeSet(("arena",) * 3))
    for p in ("italia", "sicilia", "creta"):
        play(st, A.PlacePowerCentre(p))
    assert st.pool - 3 == 8 and st.pcs_built == 3
    assert all(st.power_centre[pidx(p)] for p in ("italia", "sicilia", "creta"))


def test_r_8_7_2_bonus_trireme_only_in_a_sea_next_to_an_own_province() -> None:
    """[R 7.4], [R 8.7.2]: triremes from trireme cards, next to an own province."""
    st = cards_state({"trireme": 1, "legionary": 1, "banner": 1}, provinces={"italia": (0, 2)})
    play(st, A.TradeSet(("legionary", "banner", "trireme")))
    assert {a.sea for a in of_kind(st, A.PlaceTrireme)} == {"hadriaticum", "ionium", "tyrrenum"}


def test_r_8_7_2_bonus_trireme_lost_with_only_landlocked_provinces() -> None:
    st = cards_state({"trireme": 3}, provinces={"arabia": (0, 2), "mesopotamia": (0, 2)})
    play(st, A.TradeSet(("trireme",) * 3))
    assert phase(st) == "reinforce" and st.pool == 8 + 1
    assert sum(st.triremes[0]) == 0 and st.bonus_triremes == 0


def test_r_16_4_power_centre_never_in_land_bordering_provinces_nor_twice() -> None:
    st = cards_state(
        {"arena": 3},
        provinces={
            "italia": (0, 2),
            "cisalpina": (0, 2),
            "noricum": (0, 2),
            "raetia": (0, 2),
            "creta": (1, 2),
        },
        centres=["creta"],
    )
    play(st, A.TradeSet(("arena",) * 3))
    assert {a.province for a in of_kind(st, A.PlacePowerCentre)} == {
        "italia",
        "cisalpina",
        "noricum",
        "raetia",
    }
    play(st, A.PlacePowerCentre("cisalpina"))
    # all of Italia, Noricum and Raetia border Cisalpina; the last two bonuses are forfeited [R 8.7.3]
    assert phase(st) == "reinforce" and st.bonus_pcs == 0 and st.pcs_built == 2


def test_r_16_4_ban_holds_whoever_owns_the_neighbouring_power_centre() -> None:
    st = cards_state(
        {"arena": 1, "legionary": 1, "banner": 1},
        provinces={"italia": (0, 2), "sicilia": (0, 2), "cisalpina": (1, 2)},
        centres=["cisalpina"],
    )
    play(st, A.TradeSet(("legionary", "banner", "arena")))
    assert {a.province for a in of_kind(st, A.PlacePowerCentre)} == {"sicilia"}  # sea links do not count


def test_r_16_4_existing_power_centre_blocks_its_province() -> None:
    st = cards_state({"arena": 3}, provinces={"italia": (0, 2), "sicilia": (0, 2)}, centres=["sicilia"])
    play(st, A.TradeSet(("arena",) * 3))
    assert {a.province for a in of_kind(st, A.PlacePowerCentre)} == {"italia"}


def test_u14_power_centres_forfeited_when_all_twelve_are_built() -> None:
    st = cards_state({"arena": 3})
    st.pcs_built = 12
    play(st, A.TradeSet(("arena",) * 3))
    assert phase(st) == "reinforce" and st.pcs_built == 12 and not any(st.power_centre)


def test_u1_power_centres_option_limits_them() -> None:
    st = cards_state({"arena": 3}, power_centres=1)
    play(st, A.TradeSet(("arena",) * 3))
    play(st, A.PlacePowerCentre("creta"))
    assert phase(st) == "reinforce" and st.pcs_built == 1 and st.bonus_pcs == 0


def test_r_8_8_a_bonus_may_be_forgone() -> None:
    st = cards_state({"trireme": 1, "arena": 1, "legionary": 1})
    play(st, A.TradeSet(("legionary", "trireme", "arena")))
    assert A.FORGO in st.legal_actions()
    play(st, A.FORGO)
    assert st.bonus_triremes == 0 and of_kind(st, A.PlacePowerCentre)
    play(st, A.FORGO)
    assert phase(st) == "reinforce" and sum(st.triremes[0]) == 0 and st.pcs_built == 0
    assert st.pool == 10 + 3


def test_u3_one_set_per_turn() -> None:
    """[R 4.4.1] "una delle possibili combinazioni": one set per turn (U3)."""
    st = cards_state({"legionary": 6})
    play(st, A.TradeSet(("legionary",) * 3))
    assert phase(st) == "reinforce" and st.hands[0][0] == 3 and st.pool == 8 + 3


def test_u3_option_more_sets_per_turn() -> None:
    st = cards_state({"legionary": 6}, sets_per_turn=None)
    play(st, A.TradeSet(("legionary",) * 3))
    assert phase(st) == "cards"
    play(st, A.TradeSet(("legionary",) * 3))
    assert phase(st) == "reinforce" and st.pool == 16 + 3


def test_r_8_1_sets_are_optional() -> None:
    st = cards_state({"legionary": 3})
    play(st, A.DONE)
    assert phase(st) == "reinforce" and st.pool == 3 and st.hands[0][0] == 3


def test_b_4_2_order_set_first_then_land_reinforcements_with_the_new_power_centre() -> None:
    """B 4.2: the set is traded (1) before land reinforcements are received (2), so a power centre built
    from the set already yields its legionary [R 6.5] in the same phase."""
    st = cards_state({"arena": 3})
    play(st, A.TradeSet(("arena",) * 3))
    play(st, A.PlacePowerCentre("italia"))
    play(st, A.FORGO)
    play(st, A.FORGO)
    assert armies(st, "italia") == 3 and st.pool == 8 + 3
