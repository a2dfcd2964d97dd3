"""Phase 6, land attacks [R 13] with the dice rules of [R 10] and the garrisons of [R 14]
(spqrisiko.md B 4.4, B 4.7, B 4.8), and moving in after a conquest under both `garrison` switches."""

from __future__ import annotations

import pytest

from hegemon.core.errors import IllegalActionError
from hegemon.core.game import CHANCE
from hegemon.core.play import play
from hegemon.games.spqrisiko import actions as A
from hegemon.games.spqrisiko.scoring import NEUTRAL
from tests.games.spqrisiko.fixtures import (
    armies,
    fight,
    goto,
    names,
    of_kind,
    owner,
    phase,
    pidx,
    roll,
    scenario,
)
from tests.helpers import refused


def land(provinces: dict, rules: str = "house-1.2", place: str = "creta", **kw: object) -> object:
    provinces = {"creta": (0, 2), "cipro": (1, 2), **provinces}
    st = scenario(rules=rules, provinces=provinces, **kw)
    return goto(st, "land_attack", place=place)


def attacks(st: object) -> set[tuple[str, str]]:
    return {(a.source, a.target) for a in of_kind(st, A.Attack)}


def test_r_13_1_only_land_borders_r_13_6_straits_never_adjacent() -> None:
    st = land({"italia": (0, 9), "sicilia": (1, 1), "cisalpina": (1, 1)})
    assert attacks(st) == {("italia", "cisalpina")}
    with pytest.raises(IllegalActionError):
        play(st, A.Attack("italia", "sicilia"))
    st = land({"thracia": (0, 9), "asia": (1, 1), "baetica": (0, 9), "mauretania": (1, 1)})
    assert not any(t in ("asia", "mauretania") for _, t in attacks(st))


def test_r_14_1_last_legionary_never_attacks() -> None:
    st = land({"italia": (0, 3), "cisalpina": (1, 1)})
    play(st, A.Attack("italia", "cisalpina"))
    assert {a.dice for a in of_kind(st, A.RollDice)} == {1, 2}
    st = land({"italia": (0, 1), "cisalpina": (1, 1), "arabia": (0, 9)})
    assert attacks(st) == {("arabia", "judea"), ("arabia", "mesopotamia")}


def test_r_10_13_attacker_never_rolls_fewer_dice_than_defender() -> None:
    st = land({"italia": (0, 2), "cisalpina": (1, 2), "arabia": (0, 9)})
    assert ("italia", "cisalpina") not in attacks(st) and attacks(st)
    st = land({"italia": (0, 3), "cisalpina": (1, 2)})
    play(st, A.Attack("italia", "cisalpina"))
    assert {a.dice for a in of_kind(st, A.RollDice)} == {2}
    st = land({"italia": (0, 9), "cisalpina": (1, 5)})
    play(st, A.Attack("italia", "cisalpina"))
    assert {a.dice for a in of_kind(st, A.RollDice)} == {3}


def test_r_10_5_defender_always_rolls_the_maximum() -> None:
    st = land({"italia": (0, 9), "cisalpina": (1, 2)})
    play(st, A.Attack("italia", "cisalpina"))
    play(st, A.RollDice(3))
    assert st.current_player() == CHANCE and st.chance == (2, 3, 2)
    outs = st.chance_outcomes()
    assert len(outs) == 56 * 21 and abs(sum(p for _, p in outs) - 1) < 1e-12


def test_r_10_11_ties_go_to_the_defender_and_only_paired_dice_count() -> None:
    """[R 10.3] a series of rolls; [R 10.6]-[R 10.10] sorted dice compared pairwise; [R 10.11] ties to the defender; [R 1.4], [R 1.5] three dice a side."""
    st = land({"italia": (0, 9), "cisalpina": (1, 3)})
    play(st, A.Attack("italia", "cisalpina"))
    fight(st, ((6, 5, 4), (6, 5, 3)))  # tie, tie, win
    assert (armies(st, "italia"), armies(st, "cisalpina")) == (7, 2)
    fight(st, ((6, 6, 6), (5, 5)))  # 3 v 2: two pairs only
    assert owner(st, "cisalpina") == 0


def test_r_10_12_attacker_may_stop_after_any_roll() -> None:
    """[R 10.12] stop after any roll; [R 13.2] selecting an attack binds to a roll."""
    st = land({"italia": (0, 9), "cisalpina": (1, 3)})
    play(st, A.Attack("italia", "cisalpina"))
    assert A.WITHDRAW not in st.legal_actions()
    fight(st, ((1, 1, 1), (6, 6, 6)))
    assert A.WITHDRAW in st.legal_actions()
    play(st, A.WITHDRAW)
    assert phase(st) == "land_attack" and armies(st, "italia") == 6
    # and may attack again, any number of times
    assert ("italia", "cisalpina") in attacks(st)


def test_r_10_13_battle_ends_when_the_attacker_cannot_roll_enough_dice() -> None:
    st = land({"italia": (0, 4), "cisalpina": (1, 3), "sicilia": (0, 9)})
    play(st, A.Attack("italia", "cisalpina"))
    fight(st, ((1, 1, 1), (6, 6, 6)))
    assert armies(st, "italia") == 1 and phase(st) != "land_battle"


def test_r_13_5_a_conquered_province_may_attack_at_once() -> None:
    st = land({"italia": (0, 9), "cisalpina": (1, 1), "noricum": (1, 1)}, rules="official")
    play(st, A.Attack("italia", "cisalpina"))
    fight(st, ((6, 6, 6), (1,)))
    play(st, A.MoveIn(7))
    assert ("cisalpina", "noricum") in attacks(st)


def test_r_16_2_power_centre_passes_to_the_conqueror() -> None:
    st = land({"italia": (0, 9), "cisalpina": (1, 1)}, centres=["cisalpina"])
    play(st, A.Attack("italia", "cisalpina"))
    fight(st, ((6, 6, 6), (1,)))
    assert owner(st, "cisalpina") == 0 and st.power_centre[pidx("cisalpina")]


def test_neutral_provinces_defend_with_the_normal_dice() -> None:
    st = land({"italia": (0, 9)}, rest=("neutral", 3))
    play(st, A.Attack("italia", "cisalpina"))
    assert {a.dice for a in of_kind(st, A.RollDice)} == {3}
    play(st, A.RollDice(3))
    assert st.chance == (2, 3, 3)
    roll(st, (6, 6, 6), (1, 1, 1))
    assert owner(st, "cisalpina") == 0
    assert NEUTRAL in st.owner


# ------------------------------------------------------------------------------ moving in, official


def test_r_13_3_official_move_in_at_least_the_dice_of_the_last_roll() -> None:
    """[R 13.3] at least the dice of the last roll, [R 13.4] more may follow."""
    st = land({"italia": (0, 9), "cisalpina": (1, 2)}, rules="official")
    play(st, A.Attack("italia", "cisalpina"))
    fight(st, ((6, 6), (1, 1)))
    assert phase(st) == "move_in"
    # Italia now borders no enemy: 1 must stay
    assert {a.count for a in of_kind(st, A.MoveIn)} == set(range(2, 9))


def test_r_14_2_official_four_attacking_with_three_leave_one() -> None:
    st = land({"cisalpina": (0, 4), "italia": (1, 1)}, rules="official")
    play(st, A.Attack("cisalpina", "italia"))
    assert {a.dice for a in of_kind(st, A.RollDice)} == {1, 2, 3}
    fight(st, ((6, 6, 6), (1,)))
    # must move in 3 (the dice of the last roll): the frontier garrison yields, Cisalpina keeps 1
    assert (armies(st, "cisalpina"), armies(st, "italia")) == (1, 3)
    assert phase(st) == "land_attack" or phase(st) != "move_in"


def test_r_14_2_official_extra_legionaries_respect_the_frontier_garrison() -> None:
    st = land({"cisalpina": (0, 7), "italia": (1, 1)}, rules="official")
    play(st, A.Attack("cisalpina", "italia"))
    fight(st, ((6, 6), (1,)))
    assert {a.count for a in of_kind(st, A.MoveIn)} == {2, 3, 4, 5}  # Cisalpina borders neutrals: 2 stay


def test_u6_option_neutrals_not_enemies_for_the_garrison() -> None:
    st = land({"cisalpina": (0, 7), "italia": (1, 1)}, rules="official", neutral_is_enemy=False)
    play(st, A.Attack("cisalpina", "italia"))
    fight(st, ((6, 6), (1,)))
    assert {a.count for a in of_kind(st, A.MoveIn)} == {2, 3, 4, 5, 6}


# ------------------------------------------------------------------------------ moving in, house


def test_house_default_frontier_source_rolls_the_official_dice_and_leaves_two_after_moving_in() -> None:
    # house-1.2 reads the seed literally (garrison=garrison_stop): the dice follow [R 10.13], [R 14.1]
    st = land({"cisalpina": (0, 4), "italia": (1, 1)})
    assert st.opts.garrison == "garrison_stop"
    play(st, A.Attack("cisalpina", "italia"))
    assert {a.dice for a in of_kind(st, A.RollDice)} == {1, 2, 3}
    fight(st, ((6, 6, 6), (1,)))
    # Cisalpina borders neutrals: 2 stay, so the 3 dice's minimum yields to 2, the one count, applied by itself
    assert phase(st) != "move_in" and (armies(st, "cisalpina"), armies(st, "italia")) == (2, 2)


def test_house_default_four_against_three_rolls_three_dice() -> None:
    st = land({"cisalpina": (0, 4), "italia": (1, 3)})
    play(st, A.Attack("cisalpina", "italia"))
    assert {a.dice for a in of_kind(st, A.RollDice)} == {3}
    st = land(
        {"cisalpina": (0, 4), "italia": (1, 3), "arabia": (0, 9)}, place="arabia", garrison="garrison_first"
    )
    assert ("cisalpina", "italia") not in attacks(st) and attacks(
        st
    )  # house-strict: at most 2 dice against 3


def test_house_default_frontier_attack_needs_three_and_stops_at_two() -> None:
    st = land({"cisalpina": (0, 2), "italia": (1, 1), "arabia": (0, 9)}, place="arabia")
    assert ("cisalpina", "italia") not in attacks(st) and attacks(st)
    e = refused(st, A.Attack("cisalpina", "italia"))
    assert e.rule == "R 14.2" and "at least 3" in str(e)
    st = land({"cisalpina": (0, 3), "italia": (1, 2), "arabia": (0, 9)}, place="arabia")
    play(st, A.Attack("cisalpina", "italia"))
    assert {a.dice for a in of_kind(st, A.RollDice)} == {2}
    fight(st, ((6, 1), (5, 5)))  # one loss each: Cisalpina is down to 2, the attack stops by itself
    assert armies(st, "cisalpina") == 2 and armies(st, "italia") == 1
    assert phase(st) == "land_attack" and st.current_player() == 0


def test_house_default_source_bordering_only_the_target_attacks_down_to_one() -> None:
    st = land({"italia": (0, 2), "cisalpina": (1, 1)})
    play(st, A.Attack("italia", "cisalpina"))  # Italia borders only the target: the garrison is 1
    assert {a.dice for a in of_kind(st, A.RollDice)} == {1}


def test_house_default_move_in_at_least_the_last_roll() -> None:
    """The house rules keep the published minimum [R 13.3] where the seed is silent (issue 29 item 7)."""
    st = land({"italia": (0, 5), "cisalpina": (1, 3)})
    play(st, A.Attack("italia", "cisalpina"))
    assert {a.dice for a in of_kind(st, A.RollDice)} == {3}  # Italia borders only the target
    fight(st, ((6, 6, 6), (1, 1, 1)))
    assert {a.count for a in of_kind(st, A.MoveIn)} == {3, 4}
    assert refused(st, A.MoveIn(1))


def test_house_move_in_minimum_one_is_the_earlier_reading() -> None:
    st = land({"italia": (0, 5), "cisalpina": (1, 3)}, move_in_minimum="one")
    play(st, A.Attack("italia", "cisalpina"))
    fight(st, ((6, 6, 6), (1, 1, 1)))
    assert {a.count for a in of_kind(st, A.MoveIn)} == {1, 2, 3, 4}


@pytest.mark.parametrize(
    ("rules", "extra", "counts"),
    [
        ("house-1.2", {}, set(range(3, 9))),
        ("house-1.2", {"garrison": "garrison_first"}, set(range(3, 9))),
        ("house-1.2", {"move_in_minimum": "one"}, set(range(1, 9))),
        ("official", {}, set(range(3, 9))),
    ],
)
def test_audit_cisalpina_nine_conquers_italia_with_three_dice(
    rules: str, extra: dict, counts: set[int]
) -> None:
    """The audit's case: Cisalpina (9, no other enemy neighbour) takes Italia with 3 dice."""
    mine = {p: (0, 3) for p in ("illiria", "lugdunense", "narbonensis", "noricum", "raetia")}
    st = land({"cisalpina": (0, 9), "italia": (1, 1), **mine}, rules=rules, **extra)
    assert armies(st, "cisalpina") == 9
    play(st, A.Attack("cisalpina", "italia"))
    fight(st, ((6, 6, 6), (1,)))
    assert {a.count for a in of_kind(st, A.MoveIn)} == counts


def test_house_move_in_minimum_yields_to_the_frontier_garrison() -> None:
    """Fewer than the last roll's dice only where the garrison would be broken: a frontier source of 4 rolling
    3 dice keeps 2 and moves in 2."""
    st = land({"cisalpina": (0, 3), "italia": (1, 1)}, place="cisalpina")
    play(st, A.Attack("cisalpina", "italia"))
    fight(st, ((6, 6, 6), (1,)))
    # one legal count (2) is applied by itself: Cisalpina keeps its 2
    assert phase(st) != "move_in" and (armies(st, "cisalpina"), armies(st, "italia")) == (2, 2)
    st = land({"cisalpina": (0, 3), "italia": (1, 1)}, place="cisalpina", move_in_minimum="one")
    play(st, A.Attack("cisalpina", "italia"))
    fight(st, ((6, 6, 6), (1,)))
    assert {a.count for a in of_kind(st, A.MoveIn)} == {1, 2}


def test_house_strict_dice_cap_keeps_two_on_a_frontier() -> None:
    st = land({"cisalpina": (0, 4), "italia": (1, 1)}, garrison="garrison_first")
    play(st, A.Attack("cisalpina", "italia"))
    assert {a.dice for a in of_kind(st, A.RollDice)} == {1, 2}
    fight(st, ((6, 6), (1,)))
    assert phase(st) != "move_in" and (armies(st, "cisalpina"), armies(st, "italia")) == (2, 2)
    st = land({"cisalpina": (0, 4), "italia": (1, 1)}, garrison="garrison_first", move_in_minimum="one")
    play(st, A.Attack("cisalpina", "italia"))
    fight(st, ((6, 6), (1,)))
    assert {a.count for a in of_kind(st, A.MoveIn)} == {1, 2}
    play(st, A.MoveIn(1))
    assert (armies(st, "cisalpina"), armies(st, "italia")) == (3, 1)


def test_house_strict_attack_illegal_when_the_garrison_leaves_too_few_dice() -> None:
    st = land({"cisalpina": (0, 3), "italia": (1, 2), "arabia": (0, 9)}, garrison="garrison_first")
    assert ("cisalpina", "italia") not in attacks(st) and attacks(st)
    e = refused(st, A.Attack("cisalpina", "italia"))
    assert e.rule == "R 10.13"
    st = land({"cisalpina": (0, 3), "italia": (1, 2), "arabia": (0, 9)}, rules="official")
    assert ("cisalpina", "italia") in attacks(st)


def test_option_official_with_garrison_first() -> None:
    st = land({"cisalpina": (0, 4), "italia": (1, 1)}, rules="official", garrison="garrison_first")
    play(st, A.Attack("cisalpina", "italia"))
    assert {a.dice for a in of_kind(st, A.RollDice)} == {1, 2}


def test_attack_outside_the_land_attack_phase_is_illegal_and_named() -> None:
    st = scenario(provinces={"creta": (0, 2), "cipro": (1, 2), "italia": (0, 9), "cisalpina": (1, 1)})
    assert st.phase_name() == "reinforcements: place"
    with pytest.raises(IllegalActionError) as info:
        play(st, A.Attack("italia", "cisalpina"))
    assert info.value.phase == "reinforcements: place" and info.value.player == 0


def test_land_attack_actions_read_as_text() -> None:
    st = land({"italia": (0, 9), "cisalpina": (1, 1)})
    assert names(st.legal_actions()) == ["attack italia -> cisalpina", "done"]
