"""Exact battle odds (spqrisiko.md B 4.4–4.8): single-roll distributions against an independent enumeration of
the dice and hand-computed values, small battles worked out by hand, a Monte-Carlo cross-check, and property
tests of the distributions and the win tables."""

from __future__ import annotations

import itertools
import json
import math
import random
from collections.abc import Callable
from fractions import Fraction as F
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hegemon.core.errors import ConfigError
from hegemon.games.spqrisiko import odds
from hegemon.games.spqrisiko.combat import loss_distribution
from hegemon.games.spqrisiko.odds import (
    MAX_UNITS,
    BattleOdds,
    describe_counts,
    land_battle,
    land_keep,
    land_rule,
    naval_combat,
    sea_attack,
    win_table,
)

# ------------------------------------------------------------------------------ single rolls [R 10], [R 11.5]


def enumerate_roll(n_att: int, n_def: int, naval: bool) -> dict[tuple[int, int], F]:
    """Independent of combat.py: every ordered roll of the dice, compared pair by pair after sorting."""
    counts: dict[tuple[int, int], int] = {}
    for dice in itertools.product(range(1, 7), repeat=n_att + n_def):
        att = sorted(dice[:n_att], reverse=True)
        dfn = sorted(dice[n_att:], reverse=True)
        lost_a = lost_d = 0
        for x, y in zip(att, dfn, strict=False):
            if x > y:
                lost_d += 1
            elif x < y or not naval:
                lost_a += 1
        counts[(lost_a, lost_d)] = counts.get((lost_a, lost_d), 0) + 1
    total = 6 ** (n_att + n_def)
    return {k: F(c, total) for k, c in counts.items()}


def as_dict(n_att: int, n_def: int, naval: bool = False) -> dict[tuple[int, int], F]:
    return {(al, dl): p for al, dl, p in loss_distribution(n_att, n_def, naval)}


@pytest.mark.parametrize("naval", [False, True])
@pytest.mark.parametrize("n_att", [1, 2, 3])
@pytest.mark.parametrize("n_def", [1, 2, 3])
def test_R10_single_roll_matches_enumeration_of_the_dice(n_att: int, n_def: int, naval: bool) -> None:
    dist = as_dict(n_att, n_def, naval)
    assert dist == enumerate_roll(n_att, n_def, naval)
    assert sum(dist.values()) == 1


def test_R10_11_one_v_one_by_hand() -> None:
    # The attacker's die must beat the defender's: 15 of the 36 pairs (5+4+3+2+1); ties to the defender.
    assert as_dict(1, 1) == {(0, 1): F(15, 36), (1, 0): F(21, 36)}


def test_R10_11_two_v_one_by_hand() -> None:
    # Only the attacker's higher die counts: P(max of 2 > d) = Σ_d (1 - (d/6)²)/6 = (35+32+27+20+11+0)/216.
    assert as_dict(2, 1) == {(0, 1): F(125, 216), (1, 0): F(91, 216)}
    assert sum(36 - d * d for d in range(1, 7)) == 125


def test_R10_one_v_two_by_hand() -> None:
    # (sea attacks with U7: a lone survivor against 2) win iff a > max(d1, d2): Σ_a ((a-1)/6)²/6 = 55/216.
    assert as_dict(1, 2) == {(0, 1): F(55, 216), (1, 0): F(161, 216)}


def test_R10_standard_two_and_three_dice_values() -> None:
    assert as_dict(2, 2) == {(0, 2): F(295, 1296), (1, 1): F(420, 1296), (2, 0): F(581, 1296)}
    assert as_dict(3, 1) == {(0, 1): F(855, 1296), (1, 0): F(441, 1296)}
    assert as_dict(3, 2) == {(0, 2): F(2890, 7776), (1, 1): F(2611, 7776), (2, 0): F(2275, 7776)}


def test_R11_5_naval_ties_remove_nobody() -> None:
    assert as_dict(1, 1, naval=True) == {(0, 0): F(1, 6), (0, 1): F(15, 36), (1, 0): F(15, 36)}
    # 2 v 1: the higher attacker die ties the defender's with Σ_d P(max = d)/6 = Σ (2d-1)/216 = 36/216.
    assert as_dict(2, 1, naval=True) == {(0, 0): F(36, 216), (0, 1): F(125, 216), (1, 0): F(55, 216)}


# ---------------------------------------------------------------------------- land battles by hand [R 13]


def test_R14_1_land_two_v_one_is_one_shot() -> None:
    # 2 on the province: 1 die; a loss leaves 1, which can never roll [R 14.1].
    o = land_battle(2, 1)
    assert o.distribution == {(2, 0): F(15, 36), (1, 1): F(21, 36)}
    assert o.p_win == F(15, 36)
    assert o.expected_attacker_losses == F(21, 36)
    assert o.expected_defender_losses == F(15, 36)


def test_R13_land_three_v_one() -> None:
    o = land_battle(3, 1)
    assert o.distribution == {
        (3, 0): F(125, 216),
        (2, 0): F(91, 216) * F(15, 36),
        (1, 1): F(91, 216) * F(21, 36),
    }


def test_R13_land_three_v_two() -> None:
    lose2, each1, win2 = F(581, 1296), F(420, 1296), F(295, 1296)
    o = land_battle(3, 2)
    assert o.distribution == {
        (3, 0): win2,
        (2, 0): each1 * F(15, 36),
        (1, 1): each1 * F(21, 36),
        (1, 2): lose2,  # 1 left: cannot roll against 2 [R 10.13]
    }


def test_R10_13_too_few_attackers_cannot_roll() -> None:
    for a, d in [(1, 1), (2, 2), (3, 3), (3, 10), (1, 5)]:
        o = land_battle(a, d)
        assert not o.attack_possible
        assert o.distribution == {(a, d): 1}
        assert o.p_win == 0 == o.expected_attacker_losses == o.expected_defender_losses
    # with 4 against 3 or more the attacker rolls 3 dice, and stops as soon as fewer than 4 are left
    o = land_battle(4, 5)
    assert o.attack_possible
    assert all(d == 0 or a <= 3 for a, d in o.distribution)


def test_R10_12_stop_at_stops_after_the_roll_that_reaches_it() -> None:
    # stop at 3: one roll of 3 dice against 2, whatever happens
    o = land_battle(4, 2, stop_at=3)
    assert o.distribution == {(4, 0): F(2890, 7776), (3, 1): F(2611, 7776), (2, 2): F(2275, 7776)}
    assert o.p_win == F(2890, 7776)
    # stopping at or above the attacker: no roll at all
    o = land_battle(5, 2, stop_at=5)
    assert not o.attack_possible and o.distribution == {(5, 2): 1}


def test_R10_12_stop_at_never_ends_below_it_except_by_a_roll() -> None:
    for stop in range(1, 8):
        o = land_battle(12, 9, stop_at=stop)
        for a, d in o.distribution:
            assert d == 0 or a <= stop or a - 1 < min(3, d)
            assert a >= stop - 2  # one roll loses at most 3 - 1 below the last state above stop_at
    # a more cautious attacker never wins more often
    wins = [land_battle(12, 9, stop_at=s).p_win for s in range(1, 12)]
    assert wins == sorted(wins, reverse=True)


def test_A1_garrison_first_keep_two() -> None:
    # 3 on the province, 2 must stay: one die at a time [house-1.2, garrison=garrison_first]
    o = land_battle(3, 1, keep=2)
    assert o.distribution == {(3, 0): F(15, 36), (2, 1): F(21, 36)}
    assert not land_battle(3, 2, keep=2).attack_possible
    assert land_battle(5, 2, keep=2).distribution == land_battle(5, 2, keep=2, stop_at=2).distribution
    # keep=2 is exactly keep=1 with one legionary fewer on the province
    for a, d in [(4, 2), (7, 5), (12, 9)]:
        assert land_battle(a, d, keep=2).p_win == land_battle(a - 1, d).p_win
    assert land_keep("garrison_first", True) == 2
    assert land_keep("garrison_first", False) == 1
    assert land_keep("move_in_first", True) == 1
    assert land_keep("garrison_stop", True) == 1
    with pytest.raises(ConfigError):
        land_keep("both", True)


def test_A1_garrison_stop_official_dice_stop_at_two() -> None:
    # house-1.2 default: a frontier source rolls the official dice, needs 3 and stops at 2
    assert land_rule("garrison_stop", True) == (1, 2)
    assert land_rule("garrison_stop", False) == (1, 1)
    assert land_rule("garrison_first", True) == (2, 2)
    assert land_rule("move_in_first", True) == (1, 1)
    assert not land_battle(2, 1, stop_at=2).attack_possible
    o = land_battle(3, 1, stop_at=2)  # 2 dice against 1, once
    assert o.distribution == {(3, 0): F(125, 216), (2, 1): F(91, 216)}
    # 4 against 3 rolls 3 dice (house-strict cannot attack at all)
    assert land_battle(4, 3, stop_at=2).attack_possible and not land_battle(4, 3, keep=2).attack_possible
    # stopping at 2 never wins less often than capping the dice
    for a, d in [(4, 1), (5, 2), (7, 5), (12, 9)]:
        assert land_battle(a, d, stop_at=2).p_win >= land_battle(a, d, keep=2).p_win


# ------------------------------------------------------------------------------ sea attacks by hand [R 12]


def test_R12_3_sea_attack_fought_to_the_end() -> None:
    o = sea_attack(1, 1)
    assert o.distribution == {(1, 0): F(15, 36), (0, 1): F(21, 36)}
    # 2 declared against 1: 2 dice, then 1 die, until one side is gone
    o = sea_attack(2, 1)
    assert o.distribution == {
        (2, 0): F(125, 216),
        (1, 0): F(91, 216) * F(15, 36),
        (0, 1): F(91, 216) * F(21, 36),
    }
    assert all(s == 0 or d == 0 for s, d in sea_attack(9, 7).distribution)


def test_R10_13_sea_declaration_must_roll_as_many_dice_as_the_defender() -> None:
    for s, d in [(1, 2), (2, 3), (2, 9)]:
        o = sea_attack(s, d)
        assert not o.attack_possible and o.distribution == {(s, d): 1}
    assert sea_attack(3, 9).attack_possible


def test_U7_sea_attack_below_the_defender() -> None:
    win2, each1, lose2 = F(2890, 7776), F(2611, 7776), F(2275, 7776)
    then_2v1 = F(125, 216) + F(91, 216) * F(15, 36)
    on = sea_attack(3, 2)
    off = sea_attack(3, 2, continue_below_defender=False)
    lone = F(55, 216) * F(15, 36)  # 1 v 2 won, then 1 v 1 won
    assert on.p_win == win2 + each1 * then_2v1 + lose2 * lone
    assert off.p_win == win2 + each1 * then_2v1
    assert off.distribution[(1, 2)] == lose2  # the survivor returns
    assert (1, 2) not in on.distribution
    assert all(s == 0 or d == 0 for s, d in on.distribution)


# ----------------------------------------------------------------------------- naval combat by hand [R 11]


def test_R11_naval_one_v_one_and_two_v_one() -> None:
    assert naval_combat(1, 1).distribution == {(1, 0): F(15, 36), (0, 1): F(15, 36), (1, 1): F(1, 6)}
    o = naval_combat(2, 1)
    lose = F(55, 216)
    assert o.distribution == {
        (2, 0): F(125, 216),
        (2, 1): F(1, 6),  # a roll without losses ends the combat [R 11.6]
        (1, 0): lose * F(15, 36),
        (1, 1): lose * F(1, 6),
        (0, 1): lose * F(15, 36),
    }


def test_R11_naval_never_fewer_dice_and_never_both_empty() -> None:
    assert not naval_combat(1, 2).attack_possible
    assert not naval_combat(2, 5).attack_possible
    for a in range(1, 9):
        for d in range(1, 9):
            dist = naval_combat(a, d).distribution
            assert (0, 0) not in dist
            assert sum(dist.values()) == 1


# ------------------------------------------------------------------------------------- tables and shapes


@pytest.mark.parametrize(
    ("kind", "kw"),
    [
        ("land", {}),
        ("land", {"keep": 2}),
        ("land", {"stop_at": 4}),
        ("sea", {}),
        ("sea", {"continue_below_defender": False}),
        ("naval", {}),
    ],
)
def test_win_table_agrees_with_the_forward_computation(kind: str, kw: dict[str, object]) -> None:
    table = win_table(14, 12, kind=kind, **kw)
    assert len(table) == 14 and all(len(row) == 12 for row in table)
    single = {"land": land_battle, "sea": sea_attack, "naval": naval_combat}[kind]
    for a in range(1, 15):
        for d in range(1, 13):
            assert table[a - 1][d - 1] == single(a, d, **kw).p_win
    # more attackers never hurt
    for a in range(1, 14):
        assert all(table[a][d] >= table[a - 1][d] for d in range(12))


@pytest.mark.parametrize("kind", ["land", "sea"])
def test_win_table_monotone_in_defender_on_land_and_sea(kind: str) -> None:
    table = win_table(30, 30, kind=kind)
    for row in table:
        assert all(row[d + 1] <= row[d] for d in range(29))


def test_naval_win_is_not_monotone_in_the_defender() -> None:
    # A lone defending trireme stops the combat on a tie more often than two do (documented, not a bug):
    # 3 dice v 1 ties with P(max = d) summed, 3 v 2 needs both pairs to tie.
    assert naval_combat(6, 2).p_win > naval_combat(6, 1).p_win


def test_win_table_is_the_full_30x30_grid_for_every_kind() -> None:
    # speed lives in benchmarks/bench_odds.py; here only the shape and agreement with single battles
    for kind in odds.KINDS:
        table = win_table(30, 30, kind=kind)
        assert len(table) == 30 and all(len(row) == 30 for row in table)
    assert win_table(30, 30)[8][9] == land_battle(9, 10).p_win


def test_to_json_gives_decimals_exact_fractions_and_what_counts() -> None:
    o = land_battle(9, 10, stop_at=2)
    data = json.loads(json.dumps(o.to_json()))
    assert data["kind"] == "land"
    assert "legionaries on the attacking province" in data["counts"] and "never roll" in data["counts"]
    assert data["inputs"] == {"attacker": 9, "defender": 10, "stop_at": 2, "keep": 1}
    assert F(data["p_win"]["fraction"]) == o.p_win
    assert data["p_win"]["decimal"] == pytest.approx(float(o.p_win))
    assert sum(F(x["fraction"]) for x in data["outcomes"]) == 1
    assert all("/" in x["fraction"] for x in data["outcomes"])
    assert all(x["probability"] == pytest.approx(float(F(x["fraction"]))) for x in data["outcomes"])
    assert data["outcomes"][0]["win"] and data["outcomes"][0]["attacker_left"] == 9  # best first
    assert F(data["expected_attacker_losses"]["fraction"]) == o.expected_attacker_losses
    sea = sea_attack(6, 4).to_json()
    assert "declared force" in sea["counts"] and sea["inputs"]["continue_below_defender"] is True
    assert "triremes" in naval_combat(3, 2).to_json()["counts"]
    assert describe_counts("land", keep=2) == land_battle(5, 2, keep=2).counts
    assert "of which 2 never roll" in describe_counts("land", keep=2)
    with pytest.raises(ConfigError):
        describe_counts("air")


def test_battle_odds_is_frozen_and_comparable() -> None:
    o = land_battle(5, 3)
    assert isinstance(o, BattleOdds)
    assert o == odds._odds("land", 5, 3, True, odds._step("land", 1, 1, True), stop_at=1, keep=1)
    with pytest.raises(AttributeError):
        o.p_win = F(1)
    with pytest.raises(TypeError):
        o.distribution[(5, 0)] = F(1)


@pytest.mark.parametrize(
    ("call", "option"),
    [
        (lambda: land_battle(0, 3), "attacker"),
        (lambda: land_battle(3, 0), "defender"),
        (lambda: land_battle(-2, 3), "attacker"),
        (lambda: land_battle(2.0, 1), "attacker"),
        (lambda: land_battle(True, 1), "attacker"),
        (lambda: land_battle("5", 1), "attacker"),
        (lambda: land_battle([5], 1), "attacker"),
        (lambda: land_battle(MAX_UNITS + 1, 1), "attacker"),
        (lambda: land_battle(5, 3, stop_at=0), "stop_at"),
        (lambda: land_battle(5, 3, keep=0), "keep"),
        (lambda: sea_attack(0, 1), "declared"),
        (lambda: sea_attack(3, 1, continue_below_defender=1), "continue_below_defender"),
        (lambda: naval_combat(1, 0), "defender"),
        (lambda: win_table(0, 5), "max_attacker"),
        (lambda: win_table(5, 5, kind="air"), "kind"),
        (lambda: win_table(5, 5, kind="sea", stop_at=2), "stop_at"),
        (lambda: win_table(5, 5, kind="naval", keep=2), "keep"),
        (lambda: win_table(5, 5, kind="land", continue_below_defender=False), "continue_below_defender"),
    ],
)
def test_bad_numbers_raise_config_error_naming_the_option(call: Callable[[], object], option: str) -> None:
    with pytest.raises(ConfigError) as err:
        call()
    assert err.value.option == option


# ----------------------------------------------------------------------------------------- Monte Carlo


def _roll(rng: random.Random, n: int) -> list[int]:
    return sorted((rng.randint(1, 6) for _ in range(n)), reverse=True)


def simulate_land(rng: random.Random, a: int, d: int, stop_at: int, keep: int) -> tuple[int, int]:
    while d > 0 and a > stop_at and a - keep >= min(3, d):
        for x, y in zip(_roll(rng, min(3, a - keep)), _roll(rng, min(3, d)), strict=False):
            if x > y:
                d -= 1
            else:
                a -= 1
    return a, d


def simulate_sea(rng: random.Random, s: int, d: int, below: bool) -> tuple[int, int]:
    if min(3, s) < min(3, d):
        return s, d
    while s > 0 and d > 0 and (below or min(3, s) >= min(3, d)):
        for x, y in zip(_roll(rng, min(3, s)), _roll(rng, min(3, d)), strict=False):
            if x > y:
                d -= 1
            else:
                s -= 1
    return s, d


def simulate_naval(rng: random.Random, a: int, d: int) -> tuple[int, int]:
    while a > 0 and d > 0 and min(3, a) >= min(3, d):
        before = (a, d)
        for x, y in zip(_roll(rng, min(3, a)), _roll(rng, min(3, d)), strict=False):
            if x > y:
                d -= 1
            elif x < y:
                a -= 1
        if (a, d) == before:
            break
    return a, d


MC_CASES = [
    ("land", (9, 10), {}),
    ("land", (12, 5), {"stop_at": 4}),
    ("land", (8, 6), {"keep": 2}),
    ("land", (6, 2), {}),
    ("sea", (6, 4), {}),
    ("sea", (5, 5), {"continue_below_defender": False}),
    ("naval", (5, 4), {}),
    ("naval", (7, 2), {}),
]
TRIALS = 40_000


@pytest.mark.parametrize(("kind", "armies", "kw"), MC_CASES)
def test_monte_carlo_agrees_within_four_standard_errors(
    kind: str, armies: tuple[int, int], kw: dict[str, Any]
) -> None:
    rng = random.Random(f"odds-{kind}-{armies}-{sorted(kw.items())}")
    a, d = armies
    if kind == "land":
        exact = land_battle(a, d, **kw)
        stop_at, keep = max(kw.get("stop_at", 1), kw.get("keep", 1)), kw.get("keep", 1)
        results = [simulate_land(rng, a, d, stop_at, keep) for _ in range(TRIALS)]
    elif kind == "sea":
        exact = sea_attack(a, d, **kw)
        results = [simulate_sea(rng, a, d, kw.get("continue_below_defender", True)) for _ in range(TRIALS)]
    else:
        exact = naval_combat(a, d)
        results = [simulate_naval(rng, a, d) for _ in range(TRIALS)]

    def within(observed: float, p: float, variance: float, k: float = 4.0) -> bool:
        return abs(observed - p) <= k * math.sqrt(variance / TRIALS) + 1e-12

    p = float(exact.p_win)
    wins = sum(1 for _, left in results if left == 0) / TRIALS
    assert within(wins, p, p * (1 - p)), (wins, p)
    # every final outcome the simulation reaches is one of the exact ones
    assert set(results) <= set(exact.distribution)
    for outcome, q in exact.distribution.items():
        pq = float(q)
        assert within(results.count(outcome) / TRIALS, pq, pq * (1 - pq), 4.5), (outcome, pq)
    losses = [a - left for left, _ in results]
    mean = float(exact.expected_attacker_losses)
    var = float(
        sum(
            pr * (a - left - exact.expected_attacker_losses) ** 2
            for (left, _), pr in exact.distribution.items()
        )
    )
    assert within(sum(losses) / TRIALS, mean, var), (sum(losses) / TRIALS, mean)


# ---------------------------------------------------------------------------------------------- properties

small = st.integers(min_value=1, max_value=22)


def _consistent(o: BattleOdds) -> None:
    dist = o.distribution
    assert sum(dist.values()) == 1
    assert all(p > 0 for p in dist.values())
    assert o.p_win == sum(p for (_, d), p in dist.items() if d == 0)
    assert o.expected_attacker_losses == sum((o.attacker - a) * p for (a, _), p in dist.items())
    assert o.expected_defender_losses == sum((o.defender - d) * p for (_, d), p in dist.items())
    assert 0 <= o.expected_attacker_losses <= o.attacker
    assert 0 <= o.expected_defender_losses <= o.defender
    assert all(0 <= a <= o.attacker and 0 <= d <= o.defender for a, d in dist)
    assert o.attack_possible == (dist != {(o.attacker, o.defender): 1})


@settings(max_examples=120, deadline=None)
@given(small, small, st.integers(min_value=1, max_value=8), st.sampled_from([1, 2]))
def test_land_distribution_is_consistent(a: int, d: int, stop_at: int, keep: int) -> None:
    o = land_battle(a, d, stop_at=stop_at, keep=keep)
    _consistent(o)
    stop = max(stop_at, keep)
    for left, d_left in o.distribution:
        assert d_left == 0 or left <= stop or left - keep < min(3, d_left)  # every end is a rule's end
        assert left >= min(a, keep)  # the kept legionaries never fight
    assert o.p_win == win_table(22, 22, stop_at=stop_at, keep=keep)[a - 1][d - 1]
    if a < 22:
        assert land_battle(a + 1, d, stop_at=stop_at, keep=keep).p_win >= o.p_win


@settings(max_examples=120, deadline=None)
@given(small, small, st.booleans())
def test_sea_distribution_is_consistent(s: int, d: int, below: bool) -> None:
    o = sea_attack(s, d, continue_below_defender=below)
    _consistent(o)
    for left, d_left in o.distribution:
        if o.attack_possible:
            assert d_left == 0 or left == 0 or (not below and min(3, left) < min(3, d_left))
    assert o.p_win == win_table(22, 22, kind="sea", continue_below_defender=below)[s - 1][d - 1]
    assert (
        sea_attack(s, d, continue_below_defender=True).p_win
        >= sea_attack(s, d, continue_below_defender=False).p_win
    )


@settings(max_examples=120, deadline=None)
@given(small, small)
def test_naval_distribution_is_consistent(a: int, d: int) -> None:
    o = naval_combat(a, d)
    _consistent(o)
    assert o.p_win == win_table(22, 22, kind="naval")[a - 1][d - 1]
    # the chance of stopping with both fleets intact is the first roll's chance of no loss
    n_att, n_def = min(3, a), min(3, d)
    if o.attack_possible:
        no_loss = dict(((al, dl), p) for al, dl, p in loss_distribution(n_att, n_def, naval=True)).get(
            (0, 0), 0
        )
        assert o.distribution.get((a, d), 0) == no_loss
