"""Phase 1, scoring [R 5] (spqrisiko.md B 4.1): largest empire of >= 4 land-connected provinces, most
provinces, most sea areas controlled with strictly more triremes, ties score nothing, 1 VP per power centre;
neutrals never compete (U5); reaching the VP target at scoring wins at once [R 4.3.1]."""

from __future__ import annotations

from hegemon.core.game import TERMINAL, Termination
from hegemon.games.spqrisiko.board import Board
from hegemon.games.spqrisiko.scoring import land_reinforcements, largest_empire, sea_controller
from tests.games.spqrisiko.fixtures import BOARD, N, phase, scenario

HISPANIA = {"lusitania": (0, 2), "galicia": (0, 2), "terraconensis": (0, 2), "baetica": (0, 2)}


def test_r_5_6_1_empire_of_four_connected_provinces_scores() -> None:
    st = scenario(provinces=HISPANIA)
    assert st.vp_last["empire"] == 1
    assert st.vp[0] == st.vp_last["empire"] + st.vp_last["provinces"]


def test_r_5_6_1_three_connected_provinces_are_no_empire() -> None:
    st = scenario(
        provinces={"lusitania": (0, 2), "galicia": (0, 2), "terraconensis": (0, 2), "italia": (0, 2)}
    )
    assert largest_empire(BOARD, st.owner, 0) == 3
    assert st.vp_last["empire"] == 0


def test_r_5_6_1_islands_never_connect() -> None:
    islands = {k: (0, 2) for k in ("italia", "sicilia", "sardinia", "corsica", "baleares")}
    st = scenario(provinces=islands)
    assert largest_empire(BOARD, st.owner, 0) == 1
    assert st.vp_last["empire"] == 0


def test_r_5_6_1_tied_largest_empires_score_nothing() -> None:
    east = {"aegyptus": (1, 2), "judea": (1, 2), "arabia": (1, 2), "mesopotamia": (1, 2)}
    st = scenario(provinces={**HISPANIA, **east})
    assert st.vp_last["empire"] == 0


def test_r_5_6_1_strictly_larger_empire_scores_even_if_others_have_one() -> None:
    east = {"aegyptus": (1, 2), "judea": (1, 2), "arabia": (1, 2), "mesopotamia": (1, 2)}
    st = scenario(provinces={**HISPANIA, "aquitania": (0, 2), **east})
    assert st.vp_last["empire"] == 1


def test_r_5_6_2_most_provinces_scores_ties_score_nothing() -> None:
    st = scenario(provinces={"italia": (0, 2), "sicilia": (0, 2), "creta": (1, 2)})
    assert st.vp_last["provinces"] == 1
    st = scenario(provinces={"italia": (0, 2), "sicilia": (1, 2)})
    assert st.vp_last["provinces"] == 0


def test_u5_neutrals_never_compete_in_the_comparisons() -> None:
    # the neutrals hold 40 provinces (a huge empire) and would beat player 0 everywhere if they competed
    st = scenario(provinces={**HISPANIA, "aquitania": (0, 2)})
    assert st.owner.count(-1) == 40
    assert st.vp_last["empire"] == 1 and st.vp_last["provinces"] == 1


def test_u5_option_neutrals_compete() -> None:
    st = scenario(provinces={**HISPANIA, "aquitania": (0, 2)}, neutrals_compete=True)
    assert st.vp_last["empire"] == 0 and st.vp_last["provinces"] == 0


def test_r_5_6_3_sea_controlled_by_strictly_more_triremes_scores() -> None:
    st = scenario(
        provinces={"italia": (0, 2), "sicilia": (1, 2)}, triremes={("tyrrenum", 0): 2, ("tyrrenum", 1): 1}
    )
    assert st.vp_last["seas"] == 1


def test_r_5_6_3_equal_triremes_control_nothing() -> None:
    st = scenario(
        provinces={"italia": (0, 2), "sicilia": (1, 2)}, triremes={("tyrrenum", 0): 2, ("tyrrenum", 1): 2}
    )
    assert sea_controller(st.triremes, BOARD.sea_index["tyrrenum"]) is None
    assert st.vp_last["seas"] == 0


def test_r_5_6_3_tie_in_number_of_seas_controlled_scores_nothing() -> None:
    st = scenario(
        provinces={"italia": (0, 2), "sicilia": (1, 2)},
        triremes={("tyrrenum", 0): 1, ("ionium", 1): 3, ("syrtis", 0): 1, ("syrtis", 1): 1},
    )
    assert st.vp_last["seas"] == 0
    st = scenario(
        provinces={"italia": (0, 2), "sicilia": (1, 2)},
        triremes={("tyrrenum", 0): 1, ("ionium", 1): 3, ("syrtis", 0): 2, ("syrtis", 1): 1},
    )
    assert st.vp_last["seas"] == 1


def test_r_5_6_3_no_triremes_no_sea_vp() -> None:
    st = scenario(provinces={"italia": (0, 2)})
    assert st.vp_last["seas"] == 0


def test_r_5_6_4_one_vp_per_power_centre_held() -> None:
    st = scenario(
        provinces={"italia": (0, 2), "creta": (0, 2), "sicilia": (1, 2)},
        centres=["italia", "creta", "sicilia"],
    )
    assert st.vp_last["power_centres"] == 2


def test_r_5_6_at_most_three_plus_power_centres() -> None:
    st = scenario(
        provinces={**HISPANIA, "italia": (0, 2), "creta": (1, 2)},
        triremes={("tyrrenum", 0): 1},
        centres=["italia", "galicia"],
    )
    assert st.vp_last == {"empire": 1, "provinces": 1, "seas": 1, "power_centres": 2}
    assert st.vp[0] == 5


def test_r_5_4_only_the_active_player_scores() -> None:
    st = scenario(provinces={**HISPANIA, "creta": (1, 2)}, active=1)
    assert st.vp[0] == 0
    assert st.vp[1] == 0  # player 1 is behind on every count


def test_eliminated_players_do_not_compete() -> None:
    st = scenario(provinces={"italia": (0, 2), "sicilia": (1, 2), "creta": (2, 2)}, eliminated=[1, 2, 3])
    # player 0 alone: most provinces by default
    assert st.vp_last["provinces"] == 1


def test_r_4_3_1_reaching_the_vp_target_at_scoring_wins_at_once() -> None:
    """[R 4.1], [R 4.3.1]: the game ends at once when the target is reached at scoring."""
    st = scenario(provinces={**HISPANIA, "creta": (1, 2)}, vp={0: 18, 1: 19})
    assert st.vp[0] == 20
    assert st.current_player() == TERMINAL and phase(st) == "over"
    out = st.outcome()
    assert out is not None and out.termination == Termination.VP_TARGET and out.winners == (0,)
    assert out.ranking[0] == (0,) and out.ranking[1] == (1,)


def test_r_4_3_1_below_the_target_play_goes_on() -> None:
    st = scenario(provinces={**HISPANIA, "creta": (1, 2)}, vp={0: 17})
    assert st.vp[0] == 19 and st.current_player() == 0


def test_u11_vp_target_option() -> None:
    st = scenario(provinces={**HISPANIA, "creta": (1, 2)}, vp={0: 2}, vp_target=4)
    assert st.is_terminal() and st.outcome().winners == (0,)
    st = scenario(provinces={**HISPANIA, "creta": (1, 2)}, vp={0: 30}, vp_target=None, max_rounds=10)
    assert not st.is_terminal()


def test_r_5_4_scoring_also_happens_in_round_one() -> None:
    """[R 5.4], [R 5.5]: VP are claimed as the first act of the turn (the engine never forgets them)."""
    st = scenario(provinces=HISPANIA, round=1, rest=(N, 3))
    assert st.vp[0] == 2


def test_r_6_land_table_function() -> None:
    assert [land_reinforcements(n) for n in (1, 2, 3, 11, 12, 13, 14, 15, 20, 45)] == [
        1,
        1,
        3,
        3,
        4,
        4,
        4,
        5,
        6,
        15,
    ]


def _reference_score(
    board: Board,
    owner: list[int],
    triremes: list[list[int]],
    power_centre: list[bool],
    who: int,
    competitors: list[int],
) -> dict[str, int]:
    """The plain reading of [R 5.6], as the engine computed it before it was made faster."""
    from hegemon.games.spqrisiko.scoring import empire_sizes, sea_controller, strictly_most

    sizes = empire_sizes(board, owner)
    empire = {c: sizes.get(c, 0) for c in competitors}
    counts = {c: sum(1 for o in owner if o == c) for c in competitors}
    seas = {c: 0 for c in competitors}
    for s in range(board.n_seas):
        c = sea_controller(triremes, s)
        if c is not None and c in seas:
            seas[c] += 1
    return {
        "empire": int(empire.get(who, 0) >= 4 and strictly_most(empire, who)),
        "provinces": int(strictly_most(counts, who)),
        "seas": int(seas.get(who, 0) > 0 and strictly_most(seas, who)),
        "power_centres": sum(1 for p, o in enumerate(owner) if o == who and power_centre[p]),
    }


def test_score_turn_equals_the_plain_reading_on_random_positions() -> None:
    import random

    from hegemon.games.spqrisiko.board import default_board
    from hegemon.games.spqrisiko.scoring import NEUTRAL, empire_sizes, score_turn

    b = default_board()
    rng = random.Random(5)
    for _ in range(400):
        n = rng.randint(3, 5)
        parties = [*range(n), NEUTRAL]
        weights = [rng.random() for _ in parties]
        owner = rng.choices(parties, weights, k=b.n_provinces)
        triremes = [[rng.choice((0, 0, 0, 1, 2, 3)) for _ in range(b.n_seas)] for _ in range(n)]
        pcs = [rng.random() < 0.2 for _ in range(b.n_provinces)]
        alive = [p for p in range(n) if rng.random() < 0.9] or [0]
        comp = alive + ([NEUTRAL] if rng.random() < 0.5 else [])
        for who in range(n):
            want = _reference_score(b, owner, triremes, pcs, who, comp)
            assert score_turn(b, owner, triremes, pcs, who, comp) == want
            assert score_turn(b, owner, triremes, pcs, who, comp, empire_sizes(b, owner)) == want
