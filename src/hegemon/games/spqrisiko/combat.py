"""Dice combat [R 10]: up to 3 dice a side, sorted and compared pairwise; ties to the defender on land and in
sea attacks [R 10.11], to nobody in naval combat [R 11.5]. Roll tables for chance nodes and for exact odds."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

Dice = tuple[int, ...]


def resolve(attacker: Dice, defender: Dice, naval: bool = False) -> tuple[int, int]:
    """Losses (attacker, defender) of one roll. Dice must be sorted in descending order [R 10.6]-[R 10.11]."""
    a_loss = d_loss = 0
    for a, d in zip(attacker, defender, strict=False):
        if a > d:
            d_loss += 1
        elif a < d or not naval:
            a_loss += 1
    return a_loss, d_loss


@cache
def sorted_rolls(n: int) -> tuple[tuple[Dice, int], ...]:
    """Every sorted (descending) result of n six-sided dice with the number of ordered rolls giving it."""
    counts: dict[Dice, int] = {}
    for roll in itertools.product(range(1, 7), repeat=n):
        key = tuple(sorted(roll, reverse=True))
        counts[key] = counts.get(key, 0) + 1
    return tuple(sorted(counts.items(), reverse=True))


@cache
def roll_table(n_att: int, n_def: int) -> tuple[tuple[Dice, Dice, Fraction], ...]:
    """Every (attacker dice, defender dice, exact probability) of one roll of n_att against n_def dice."""
    total = 6 ** (n_att + n_def)
    return tuple(
        (a, d, Fraction(ca * cd, total)) for a, ca in sorted_rolls(n_att) for d, cd in sorted_rolls(n_def)
    )


@cache
def loss_distribution(n_att: int, n_def: int, naval: bool = False) -> tuple[tuple[int, int, Fraction], ...]:
    """Exact distribution of (attacker losses, defender losses) for one roll of n_att against n_def dice."""
    dist: dict[tuple[int, int], Fraction] = {}
    for a, d, p in roll_table(n_att, n_def):
        key = resolve(a, d, naval)
        dist[key] = dist.get(key, Fraction(0)) + p
    return tuple((al, dl, p) for (al, dl), p in sorted(dist.items()))
