"""The user's house rules v1.2 (seeds-en.md §2), one test per line, each under the default rule set
`house-1.2` and each docstring quoting the line it proves."""

from __future__ import annotations

from hegemon.core.game import CHANCE
from hegemon.core.play import play
from hegemon.games.spqrisiko import actions as A
from hegemon.games.spqrisiko.scoring import NEUTRAL
from tests.games.spqrisiko.fixtures import (
    armies,
    fight,
    goto,
    new_game,
    of_kind,
    ordered,
    owner,
    pass_turn,
    phase,
    pidx,
    roll,
    scenario,
    trir,
)

HISPANIA = {"lusitania": (0, 2), "galicia": (0, 2), "terraconensis": (0, 2), "baetica": (0, 2)}


def test_default_rule_set_is_house_1_2() -> None:
    """Notes: "they are the user's preferred way to play and must be available as a named rule set (house-1.2)" """
    assert new_game().opts.rules == "house-1.2"


# ------------------------------------------------------------------------------ set-up


def test_house_setup_players_take_turns_each_occupies_one_province_with_two() -> None:
    """Set-up: "Players take turns; each occupies one province with 2 of his own legionaries." """
    st = ordered(new_game(5), (3, 1, 4, 0, 2))
    for seat, prov in zip((3, 1, 4, 0, 2), ("italia", "creta", "cipro", "dacia", "syria"), strict=True):
        assert st.current_player() == seat
        play(st, A.Claim(prov))
        assert owner(st, prov) == seat and armies(st, prov) == 2


def test_house_setup_27_neutral_legionaries_in_all() -> None:
    """Set-up: "With fewer than five players, each also occupies another province with 3 neutral legionaries
    (27 neutral legionaries in all)." """
    for players in (3, 4):
        st = ordered(new_game(players))
        while st.round == 0:
            play(st, st.legal_actions()[-1])
        neutral = [i for i in range(45) if st.owner[i] == NEUTRAL]
        assert len(neutral) == 9 and sum(st.armies[i] for i in neutral) == 27
        assert all(st.owner.count(p) == 36 // players for p in range(players))


def test_house_setup_four_players_italia_first() -> None:
    """Set-up: "With 4 players, first put 3 neutral legionaries in Italia." """
    st = ordered(new_game(4))
    assert owner(st, "italia") == NEUTRAL and armies(st, "italia") == 3
    assert st.phase_name() == "setup: claim"


# ------------------------------------------------------------------------------ 1. scoring


def test_house_scoring_largest_empire_at_least_4_connected_tie_nobody() -> None:
    """1. Scoring: "largest empire — at least 4 connected provinces — 1 VP (no one scores on a tie);" """
    assert scenario(provinces=HISPANIA).vp_last["empire"] == 1
    three = dict(list(HISPANIA.items())[:3])
    assert scenario(provinces=three).vp_last["empire"] == 0
    east = {"aegyptus": (1, 2), "judea": (1, 2), "arabia": (1, 2), "mesopotamia": (1, 2)}
    assert scenario(provinces={**HISPANIA, **east}).vp_last["empire"] == 0


def test_house_scoring_most_provinces_tie_nobody() -> None:
    """1. Scoring: "most provinces controlled — 1 VP (no one on a tie);" """
    assert scenario(provinces={"italia": (0, 2), "creta": (0, 2), "cipro": (1, 2)}).vp_last["provinces"] == 1
    assert scenario(provinces={"italia": (0, 2), "cipro": (1, 2)}).vp_last["provinces"] == 0


def test_house_scoring_most_sea_areas_more_triremes_than_anyone_tie_nobody() -> None:
    """1. Scoring: "most sea areas controlled (controlling = more triremes there than anyone else) — 1 VP
    (no one on a tie);" """
    base = {"italia": (0, 2), "cipro": (1, 2)}
    assert scenario(provinces=base, triremes={("ionium", 0): 2, ("ionium", 1): 1}).vp_last["seas"] == 1
    assert scenario(provinces=base, triremes={("ionium", 0): 2, ("ionium", 1): 2}).vp_last["seas"] == 0
    assert scenario(provinces=base, triremes={("ionium", 0): 1, ("aegeum", 1): 1}).vp_last["seas"] == 0


def test_house_scoring_each_power_centre_one_vp() -> None:
    """1. Scoring: "each power centre in a province he controls — 1 VP." """
    st = scenario(
        provinces={"italia": (0, 2), "creta": (0, 2), "cipro": (1, 2)}, centres=["italia", "creta", "cipro"]
    )
    assert st.vp_last["power_centres"] == 2


# ------------------------------------------------------------------------------ 2. reinforcements


def test_house_land_reinforcements_table() -> None:
    """2. Reinforcements: "Land: fewer than 3 provinces → 1 legionary (the text says "3 provinces → 1"; read as
    "< 3"); 3–11 provinces → 3; more than 11 → ⌊provinces / 3⌋ legionaries." """
    from hegemon.games.spqrisiko.board import default_board

    ids = default_board().province_ids
    for n, pool in ((2, 1), (3, 3), (11, 3), (12, 4), (17, 5)):
        st = scenario(provinces={ids[i]: (0, 2) for i in range(n)})
        assert st.pool == pool, n


def test_house_power_centre_legionary_in_its_province() -> None:
    """2. Reinforcements: "Each power centre → 1 legionary placed in its province." """
    st = scenario(provinces={"italia": (0, 2), "creta": (0, 2)}, centres=["creta"])
    assert armies(st, "creta") == 3 and armies(st, "italia") == 2 and st.pool == 1


def test_house_trireme_given_back_two_legionaries_on_its_sea() -> None:
    """2. Reinforcements: "Each trireme given back → 2 legionaries in a province on that trireme's sea area." """
    st = scenario(provinces={"italia": (0, 2), "creta": (0, 2)}, triremes={("aegeum", 0): 1})
    goto(st, "convert", place="italia")
    assert {(a.sea, a.province) for a in of_kind(st, A.Disband)} == {("aegeum", "creta")}
    play(st, A.Disband("aegeum", "creta"))
    assert armies(st, "creta") == 4 and trir(st, "aegeum", 0) == 0


def test_house_card_sets_8_equal_10_different_plus_2_per_banner() -> None:
    """2. Reinforcements: "A set of 3 cards: three equal → 8 legionaries, three different → 10; each card in
    the set that shows a banner → 2 more legionaries." """
    prov = {"arabia": (0, 2)}
    for hand, cards, value in (
        ({"legionary": 3}, ("legionary",) * 3, 8),
        ({"banner": 3}, ("banner",) * 3, 14),
        ({"legionary": 1, "banner": 1, "arena": 1}, ("legionary", "banner", "arena"), 12),
    ):
        st = scenario(provinces=prov, hands={0: hand}, power_centres=0)
        play(st, A.TradeSet(cards))
        assert st.pool == value + 1, cards


def test_house_power_centre_per_arena_card_never_in_adjacent_provinces() -> None:
    """2. Reinforcements: "Playing a set also builds 1 power centre for each card in it with the power-centre
    symbol — never in two adjacent provinces." """
    st = scenario(provinces={"italia": (0, 2), "cisalpina": (0, 2), "creta": (0, 2)}, hands={0: {"arena": 3}})
    play(st, A.TradeSet(("arena",) * 3))
    play(st, A.PlacePowerCentre("italia"))
    assert {a.province for a in of_kind(st, A.PlacePowerCentre)} == {"creta"}  # not Cisalpina, next to Italia
    play(st, A.PlacePowerCentre("creta"))
    assert st.pcs_built == 2 and phase(st) == "reinforce"  # the third cannot be placed: lost


def test_house_naval_reinforcements_three_legionaries_or_trireme_cards() -> None:
    """2. Reinforcements: "Naval: give back 3 legionaries from a coastal province → 1 trireme in that province's
    sea area; playing a set also gives 1 trireme per card with the trireme symbol." """
    st = scenario(provinces={"creta": (0, 4), "arabia": (0, 9)}, hands={0: {"trireme": 3}})
    play(st, A.TradeSet(("trireme",) * 3))
    for sea in ("aegeum", "creticum", "ionium"):
        play(st, A.PlaceTrireme(sea))
    goto(st, "convert", place="arabia")
    assert {(a.province, a.sea) for a in of_kind(st, A.Build)} == {
        ("creta", "aegeum"), ("creta", "creticum"), ("creta", "ionium")
    }  # fmt: skip
    play(st, A.Build("creta", "ionium"))
    assert armies(st, "creta") == 1 and trir(st, "ionium", 0) == 2 and sum(st.triremes[0]) == 4


# ------------------------------------------------------------------------------ 3. naval movement


def test_house_naval_move_each_trireme_once() -> None:
    """3. "Naval movement: each trireme may move once, to an adjacent sea area." """
    st = scenario(
        provinces={"italia": (0, 2), "creta": (1, 2)}, triremes={("ionium", 0): 2, ("aegeum", 0): 1}
    )
    goto(st, "naval_move")
    play(st, A.NavalMove("ionium", "tyrrenum", 1))
    play(st, A.NavalMove("ionium", "aegeum", 1))
    # the one that arrived in Aegeum may not move on; the one that started there may
    assert {(a.source, a.count) for a in of_kind(st, A.NavalMove)} == {("aegeum", 1)}
    assert {a.dest for a in of_kind(st, A.NavalMove)} == {"creticum", "ionium", "pontus_euxinus"}


# ------------------------------------------------------------------------------ 4. combat


def test_house_naval_combat_at_most_one_per_sea_area_per_turn() -> None:
    """4. Combat: "Naval: at most one naval combat per turn in each occupied sea area." """
    st = scenario(
        provinces={"italia": (0, 2), "creta": (1, 2), "cipro": (2, 2)},
        triremes={("ionium", 0): 6, ("ionium", 1): 1, ("ionium", 2): 1, ("aegeum", 0): 1, ("aegeum", 1): 1},
    )
    goto(st, "naval_combat")
    play(st, A.NavalAttack("ionium", 1))
    fight(st, ((6, 5, 4), (1,)))
    assert {a.sea for a in of_kind(st, A.NavalAttack)} == {"aegeum"}


def test_house_naval_tie_nobody_wins_and_the_combat_stops() -> None:
    """4. Combat: "A tie on the dice lets no one win: if a roll causes no losses, that combat cannot continue." """
    st = scenario(
        provinces={"italia": (0, 2), "creta": (1, 2)}, triremes={("ionium", 0): 3, ("ionium", 1): 2}
    )
    goto(st, "naval_combat")
    play(st, A.NavalAttack("ionium", 1))
    fight(st, ((5, 3, 1), (5, 3)))
    assert trir(st, "ionium", 0) == 3 and trir(st, "ionium", 1) == 2
    assert phase(st) != "naval_battle"


def test_house_sea_attack_needs_more_triremes_than_the_defender() -> None:
    """4. Combat: "By sea: between two provinces on the same sea area, if the attacker has more triremes there
    than the defender." """
    prov = {"italia": (0, 6), "creta": (1, 2), "sicilia": (2, 1), "cipro": (3, 2)}
    st = scenario(provinces=prov, triremes={("ionium", 0): 2, ("ionium", 1): 1, ("ionium", 2): 2})
    goto(st, "sea_attack", place="italia")
    t = {a.target for a in of_kind(st, A.SeaAttack)}
    assert "creta" in t and "sicilia" not in t and "cipro" not in t


def test_house_sea_attack_declare_legionaries_and_fight_to_the_end() -> None:
    """4. Combat: "The attacker declares how many legionaries he commits and fights to the end." """
    st = scenario(
        provinces={"sicilia": (0, 6), "creta": (1, 3), "cipro": (1, 2)}, triremes={("ionium", 0): 1}
    )
    goto(st, "sea_attack", place="sicilia")
    play(st, A.SeaAttack("sicilia", "creta", "ionium"))
    assert {a.count for a in of_kind(st, A.Declare)} == {3, 4, 5, 6}
    play(st, A.Declare(4))
    roll(st, (1, 1, 1), (6, 6, 6))
    assert st.current_player() == CHANCE  # one survivor, no way to stop
    roll(st, (1,), (6, 6, 6))
    assert armies(st, "sicilia") == 3 and owner(st, "creta") == 1


def test_house_same_province_not_attacked_twice_by_sea() -> None:
    """4. Combat: "The same province may not be attacked twice (even from different sea areas);" """
    st = scenario(
        provinces={"sicilia": (0, 9), "achaia": (0, 9), "creta": (1, 3), "cipro": (1, 2)},
        triremes={("ionium", 0): 1, ("aegeum", 0): 1},
    )
    goto(st, "sea_attack", place="sicilia")
    play(st, A.SeaAttack("sicilia", "creta", "ionium"))
    play(st, A.Declare(3))
    roll(st, (1, 1, 1), (6, 6, 6))
    assert not any(a.target == "creta" for a in of_kind(st, A.SeaAttack))  # not from Achaia via Aegeum either


def test_house_province_conquered_by_sea_launches_no_sea_attack() -> None:
    """4. Combat: "a province conquered by sea may not launch another sea attack." """
    st = scenario(
        provinces={"sicilia": (0, 9), "creta": (1, 1), "cipro": (1, 1)},
        triremes={("ionium", 0): 1, ("creticum", 0): 1, ("aegeum", 0): 1},
    )
    goto(st, "sea_attack", place="sicilia")
    play(st, A.SeaAttack("sicilia", "creta", "ionium"))
    play(st, A.Declare(7))
    roll(st, (6, 6, 6), (1,))
    assert owner(st, "creta") == 0 and armies(st, "creta") == 7
    assert not any(a.source == "creta" for a in of_kind(st, A.SeaAttack))


def test_house_land_attacks_only_between_adjacent_provinces_not_across_a_strait() -> None:
    """4. Combat: "Land: only between adjacent provinces; provinces separated by a strait of sea are not
    adjacent." """
    st = scenario(provinces={"italia": (0, 9), "sicilia": (1, 1), "cisalpina": (1, 1), "creta": (2, 2)})
    goto(st, "land_attack", place="italia")
    assert {(a.source, a.target) for a in of_kind(st, A.Attack)} == {("italia", "cisalpina")}


# ------------------------------------------------------------------------------ 5. movement


def test_house_move_in_leaving_two_if_the_source_borders_an_enemy() -> None:
    """5. Movement: "After a won combat, move in; leave at least 2 legionaries behind if the province he attacked
    from borders an enemy province." """
    st = scenario(provinces={"cisalpina": (0, 6), "italia": (1, 1), "creta": (1, 2)})
    goto(st, "land_attack", place="cisalpina")
    play(st, A.Attack("cisalpina", "italia"))
    fight(st, ((6, 6, 6), (1,)))
    assert {a.count for a in of_kind(st, A.MoveIn)} == {3, 4, 5}  # the 3 dice rolled, up to 7 - 2
    play(st, A.MoveIn(5))
    assert armies(st, "cisalpina") == 2


def test_house_one_strategic_move_across_one_sea_only_if_controlled() -> None:
    """5. Movement: "One strategic move at the end of the turn; it may cross one sea area only if he controls
    it." """
    prov = {"sicilia": (0, 5), "creta": (0, 1), "cipro": (1, 2)}
    st = scenario(provinces=prov, triremes={("ionium", 0): 2, ("ionium", 1): 1})
    goto(st, "strategic", place="sicilia")
    assert {(a.source, a.dest) for a in of_kind(st, A.Fortify)} == {("sicilia", "creta")}
    play(st, A.Fortify("sicilia", "creta"))
    play(st, A.Move(5))
    assert st.current_player() == 1  # one move, and the turn is over
    st = scenario(provinces=prov, triremes={("ionium", 0): 1, ("ionium", 1): 1})
    play(st, A.Reinforce("sicilia"))
    while st.current_player() == 0:  # Ionium is not controlled (1 v 1): no strategic move is ever offered
        assert phase(st) != "strategic"
        play(st, A.DONE)
    assert armies(st, "creta") == 1


# ------------------------------------------------------------------------------ 6. card


def test_house_card_after_at_least_one_conquest() -> None:
    """6. "Card: draw 1 card if he conquered at least one province this turn." """
    st = scenario(provinces={"italia": (0, 9), "cisalpina": (1, 1), "noricum": (1, 1), "creta": (1, 2)})
    goto(st, "land_attack", place="italia")
    play(st, A.Attack("italia", "cisalpina"))
    fight(st, ((6, 6, 6), (1,)))
    play(st, A.MoveIn(6))
    play(st, A.Attack("cisalpina", "noricum"))
    fight(st, ((6, 6, 6), (1,)))
    play(st, A.MoveIn(3))
    while st.current_player() == 0:
        play(st, A.DONE)
    assert st.current_player() == CHANCE
    play(st, A.Draw("banner", 0))
    assert st.hands[0] == [0, 1, 0, 0] and st.current_player() == 1


# ------------------------------------------------------------------------------ elimination


def eliminate(round: int = 5) -> object:
    st = scenario(
        round=round,
        provinces={"italia": (0, 9), "arabia": (0, 9), "cisalpina": (1, 1), "creta": (2, 2), "cipro": (3, 2)},
        hands={1: {"trireme": 2, "legionary": 1}, 0: {"banner": 1}},
        triremes={("ionium", 1): 2, ("aegeum", 1): 1, ("ionium", 0): 1},
    )
    goto(st, "land_attack", place="italia")
    return st


def test_house_eliminator_takes_the_cards() -> None:
    """Elimination: "Whoever eliminates a player takes his cards;" """
    st = eliminate()
    play(st, A.Attack("italia", "cisalpina"))
    fight(st, ((6, 6, 6), (1,)))
    assert st.eliminated[1] and st.hands[0] == [1, 1, 2, 0] and sum(st.hands[1]) == 0


def test_house_eliminated_players_triremes_removed() -> None:
    """Elimination: "all the eliminated player's triremes are removed." """
    st = eliminate()
    play(st, A.Attack("italia", "cisalpina"))
    fight(st, ((6, 6, 6), (1,)))
    assert sum(st.triremes[1]) == 0 and trir(st, "ionium", 0) == 1


def test_house_no_elimination_before_the_4th_game_turn() -> None:
    """Elimination: "No player may be eliminated before the 4th game turn." (house: from round 4 on)"""
    assert A.Attack("italia", "cisalpina") not in eliminate(round=3).legal_actions()
    assert A.Attack("italia", "cisalpina") in eliminate(round=4).legal_actions()
    st = eliminate(round=3)
    pass_turn(st)
    assert not any(st.eliminated) and st.round == 3 and pidx("cisalpina") in st.provinces_of(1)
