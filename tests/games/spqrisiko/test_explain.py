"""A refused action names the rule it breaks (issue 5: "when something is refused, read why — the rule it
breaks, named"): `play` raises IllegalActionError with `rule` and a reason a player can act on."""

from __future__ import annotations

from hegemon.core.play import play
from hegemon.games.spqrisiko import actions as A
from tests.games.spqrisiko.fixtures import goto, scenario
from tests.helpers import refused


def test_a_land_attack_across_the_sea_breaks_r_13_6() -> None:
    st = goto(scenario(provinces={"italia": (0, 9), "sicilia": (1, 1), "cisalpina": (1, 1)}), "land_attack")
    e = refused(st, A.Attack("italia", "sicilia"))
    assert e.rule == "R 13.6" and "no land border" in str(e) and "Sicilia" in str(e)


def test_attacking_from_someone_elses_province_or_with_the_last_legionary() -> None:
    st = goto(scenario(provinces={"italia": (1, 9), "cisalpina": (0, 5), "creta": (0, 2)}), "land_attack")
    e = refused(st, A.Attack("italia", "cisalpina"))
    assert e.rule == "R 13.1" and "player 1's" in str(e)
    st = scenario(provinces={"italia": (0, 1), "cisalpina": (1, 1), "arabia": (0, 9)})
    st = goto(st, "land_attack", "arabia")
    e = refused(st, A.Attack("italia", "cisalpina"))
    assert e.rule == "R 14.1" and "last one never attacks" in str(e)


def test_an_action_of_another_phase_says_which_phase_and_what_is_legal_now() -> None:
    st = goto(scenario(provinces={"italia": (0, 9)}), "reinforce")
    e = refused(st, A.Attack("italia", "cisalpina"))
    assert e.rule == "R 6" and "belongs to land attacks" in str(e) and "you may: reinforce" in str(e)
    e = refused(st, A.Reinforce("cisalpina"))
    assert e.rule == "R 6" and "your own provinces" in str(e)


def test_one_naval_move_per_turn_r_9_3_and_one_step_r_9_4() -> None:
    st = scenario(provinces={"italia": (0, 9)}, triremes={("tyrrenum", 0): 3}, rules="official")
    st = goto(st, "naval_move")
    e = refused(st, A.NavalMove("tyrrenum", "aegeum", 1))
    assert e.rule == "R 9.4" and "one step only" in str(e)
    e = refused(st, A.NavalMove("tyrrenum", "ionium", 4))
    assert e.rule == "R 9.3" and "3 trireme(s)" in str(e)
    play(st, A.NavalMove("tyrrenum", "ionium", 1))
    e = refused(st, A.NavalMove("tyrrenum", "ionium", 1))
    assert "moved already" in str(e) or "belongs to naval movement" in str(e)


def test_a_sea_attack_needs_more_triremes_than_the_defender_r_12_2() -> None:
    st = scenario(
        provinces={"italia": (0, 9), "sicilia": (1, 1)}, triremes={("ionium", 0): 1, ("ionium", 1): 1}
    )
    st = goto(st, "sea_attack")
    e = refused(st, A.SeaAttack("italia", "sicilia", "ionium"))
    assert e.rule == "R 12.2" and "strictly more triremes" in str(e)


def test_a_sea_attack_or_declaration_below_the_defenders_dice_breaks_r_10_13() -> None:
    st = scenario(
        provinces={"sicilia": (0, 2), "africa": (1, 3), "corsica": (1, 2), "creta": (2, 2)},
        triremes={("tyrrenum", 0): 1},
    )
    st = goto(st, "sea_attack", place="sicilia")
    e = refused(st, A.SeaAttack("sicilia", "africa", "tyrrenum"))
    assert e.rule == "R 10.13" and "at most 2" in str(e) and "3" in str(e)
    play(st, A.SeaAttack("sicilia", "corsica", "tyrrenum"))
    e = refused(st, A.Declare(1))
    assert e.rule == "R 10.13" and "at least 2" in str(e)
    e = refused(st, A.Declare(3))
    assert e.rule == "R 12.3" and "between 2 and 2" in str(e)
