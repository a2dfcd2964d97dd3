"""Set-up [R 3] (spqrisiko.md B 2) for 3, 4 and 5 players under both neutral pools: provinces per player,
neutral groups, Italia pre-placed with 4 players, the placement schedule, and the random deal."""

from __future__ import annotations

import random

import pytest

from hegemon.core.game import CHANCE
from hegemon.core.play import play
from hegemon.games.spqrisiko import actions as A
from hegemon.games.spqrisiko.scoring import FREE, NEUTRAL
from tests.games.spqrisiko.fixtures import new_game, ordered, owner, pidx

# players, neutrals option -> (provinces per player, neutral provinces)
EXPECTED = {
    (3, "per_unused_colour"): (9, 18),
    (3, "total_27"): (12, 9),
    (4, "per_unused_colour"): (9, 9),
    (4, "total_27"): (9, 9),
    (5, "per_unused_colour"): (9, 0),
    (5, "total_27"): (9, 0),
}


def claim_setup(players: int, neutrals: str, order: tuple[int, ...] | None = None) -> tuple[object, list]:
    """Play the chosen set-up with the first free province each time; return (state, [(seat, kind)])."""
    st = ordered(new_game(players, neutrals=neutrals), order)
    log = []
    while st.round == 0:
        me = st.current_player()
        a = st.legal_actions()[-1]  # the last free province, so Italia's pre-placement is not in the way
        log.append((me, type(a).__name__))
        play(st, a)
    return st, log


@pytest.mark.parametrize(("players", "neutrals"), sorted(EXPECTED))
def test_r_3_7_r_3_9_chosen_setup_counts(players: int, neutrals: str) -> None:
    """[R 3.7]-[R 3.11]: 2 own legionaries per province, groups of 3 neutrals, no triremes, no cards; [R 3.5] everyone starts at 0 VP."""
    st, _ = claim_setup(players, neutrals)
    mine, neutral = EXPECTED[(players, neutrals)]
    for p in range(players):
        assert st.owner.count(p) == mine
        assert all(st.armies[i] == 2 for i in st.provinces_of(p))  # 2 own legionaries each [R 3.7]
    assert st.owner.count(NEUTRAL) == neutral
    assert all(st.armies[i] == 3 for i in range(45) if st.owner[i] == NEUTRAL)  # groups of 3
    assert FREE not in st.owner
    assert sum(sum(r) for r in st.triremes) == 0  # no triremes at the start [R 3.10]
    assert all(sum(h) == 0 for h in st.hands)  # nobody starts with cards [R 3.11]
    assert st.pcs_built == 0 and not any(st.power_centre)


def test_house_setup_27_neutral_legionaries_in_total_with_three_players() -> None:
    """seeds §2 Set-up: "With fewer than five players, each also occupies another province with 3 neutral
    legionaries (27 neutral legionaries in all)." — house-1.2, 3 players: 9 neutral provinces, 12 each."""
    st, _ = claim_setup(3, "total_27")
    assert sum(st.armies[i] for i in range(45) if st.owner[i] == NEUTRAL) == 27


def test_r_3_3_official_three_players_54_neutral_legionaries() -> None:
    st, _ = claim_setup(3, "per_unused_colour")
    assert sum(st.armies[i] for i in range(45) if st.owner[i] == NEUTRAL) == 54


@pytest.mark.parametrize("rules", ["house-1.2", "official"])
def test_r_3_4_four_players_italia_neutral_before_occupation(rules: str) -> None:
    st = ordered(new_game(4, rules))
    assert owner(st, "italia") == NEUTRAL and st.armies[pidx("italia")] == 3
    assert st.owner.count(NEUTRAL) == 1
    assert st.neutral_groups == 8
    assert A.Claim("italia") not in st.legal_actions()


@pytest.mark.parametrize("players", [3, 5])
def test_r_3_4_italia_is_free_with_three_or_five_players(players: int) -> None:
    st = ordered(new_game(players))
    assert owner(st, "italia") == FREE
    assert A.Claim("italia") in st.legal_actions()


@pytest.mark.parametrize(
    ("players", "neutrals", "mixed_rounds", "own_rounds"),
    [
        (3, "per_unused_colour", 6, 3),
        (3, "total_27", 3, 9),
        (4, "per_unused_colour", 2, 7),
        (5, "total_27", 0, 9),
    ],
)
def test_b_2_3_placement_schedule(players: int, neutrals: str, mixed_rounds: int, own_rounds: int) -> None:
    """[R 3.7], [R 3.8]: own + neutral placements while groups remain, then own only."""
    order = tuple(reversed(range(players)))
    _, log = claim_setup(players, neutrals, order)
    expected = []
    for _ in range(mixed_rounds):
        for p in order:
            expected += [(p, "Claim"), (p, "ClaimNeutral")]
    for _ in range(own_rounds):
        for p in order:
            expected.append((p, "Claim"))
    assert log == expected


def test_r_3_7_claims_only_free_provinces_and_neutral_group_on_another() -> None:
    st = ordered(new_game(5))
    play(st, A.Claim("italia"))
    assert owner(st, "italia") == 0 and st.current_player() == 1
    assert A.Claim("italia") not in st.legal_actions()
    st = ordered(new_game(3))
    play(st, A.Claim("italia"))
    assert st.phase_name() == "setup: neutral group" and st.current_player() == 0
    assert A.ClaimNeutral("italia") not in st.legal_actions()
    play(st, A.ClaimNeutral("sicilia"))
    assert owner(st, "sicilia") == NEUTRAL and st.armies[pidx("sicilia")] == 3


def test_u18_play_order_is_the_placement_order_and_round_1_starts_with_its_first() -> None:
    st, log = claim_setup(4, "total_27", (2, 0, 3, 1))
    assert [p for p, _ in log[:8:2]] == [2, 0, 3, 1]
    assert st.round == 1 and st.current_player() == 2


def test_r_3_2_order_of_play_is_a_uniform_chance_draw() -> None:
    st = new_game(4)
    assert st.current_player() == CHANCE
    outs = st.chance_outcomes()
    assert len(outs) == 24 and abs(sum(p for _, p in outs) - 1) < 1e-12
    assert {a.seats for a, _ in outs} == {tuple(x) for x in __import__("itertools").permutations(range(4))}


@pytest.mark.parametrize(("players", "neutrals"), sorted(EXPECTED))
def test_random_deal_gives_the_same_counts(players: int, neutrals: str) -> None:
    rng = random.Random(players * 7 + len(neutrals))
    st = ordered(new_game(players, neutrals=neutrals, random_deal=True))
    while st.round == 0:
        assert st.current_player() == CHANCE
        outs = st.chance_outcomes()
        assert abs(sum(p for _, p in outs) - 1) < 1e-9
        play(st, st.sample_chance(rng))
    mine, neutral = EXPECTED[(players, neutrals)]
    assert [st.owner.count(p) for p in range(players)] == [mine] * players
    assert st.owner.count(NEUTRAL) == neutral
    assert all(st.armies[i] == (3 if st.owner[i] == NEUTRAL else 2) for i in range(45))
    if players == 4:
        assert owner(st, "italia") == NEUTRAL


def test_random_deal_weights_follow_the_slots_left() -> None:
    st = ordered(new_game(4, random_deal=True))
    outs = dict((a.owner, p) for a, p in st.chance_outcomes())
    assert outs == pytest.approx({0: 9 / 44, 1: 9 / 44, 2: 9 / 44, 3: 9 / 44, NEUTRAL: 8 / 44})
