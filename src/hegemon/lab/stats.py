"""Statistics for the lab: Wilson intervals for rates, t-intervals for means, paired tests between variants
(McNemar's exact test on paired binary results, the paired t-test on paired measures), intervals of a
difference of rates (Agresti-Min for paired, Newcombe for independent samples), and the share of outcome variance explained by the chance seed (ICC(1))."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from scipy import stats as st

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (successes may be fractional for shared wins)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(max(0.0, p * (1 - p)) / n + z * z / (4 * n * n)) / den
    # exact at the extremes (rounding leaves 1e-17 above 0 and 1e-16 below 1), and never excluding the
    # estimate itself, so an error bar is never negative
    lo = 0.0 if successes <= 0 else min(p, max(0.0, centre - half))
    hi = 1.0 if successes >= n else max(p, min(1.0, centre + half))
    return (lo, hi)


def rate(successes: float, n: int) -> dict[str, Any]:
    """A rate with its 95% Wilson interval, JSON-ready."""
    lo, hi = wilson(successes, n)
    return {"rate": successes / n if n else None, "low": lo, "high": hi, "n": n, "successes": successes}


def mean_ci(values: Sequence[float]) -> dict[str, Any]:
    """Mean with a 95% t-interval."""
    n = len(values)
    if n == 0:
        return {"mean": None, "low": None, "high": None, "n": 0}
    m = sum(values) / n
    if n < 2:
        return {"mean": m, "low": m, "high": m, "n": n}
    var = sum((x - m) ** 2 for x in values) / (n - 1)
    half = float(st.t.ppf(0.975, n - 1)) * math.sqrt(var / n)
    return {"mean": m, "low": m - half, "high": m + half, "n": n, "sd": math.sqrt(var)}


def newcombe_diff(s1: float, n1: int, s2: float, n2: int) -> tuple[float, float, float]:
    """Difference p2 - p1 with Newcombe's hybrid score 95% interval (from the two Wilson intervals)."""
    p1, p2 = s1 / n1, s2 / n2
    l1, u1 = wilson(s1, n1)
    l2, u2 = wilson(s2, n2)
    d = p2 - p1
    lo = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    hi = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return d, lo, hi


def paired_diff(pairs: Sequence[tuple[bool, bool]]) -> tuple[float, float, float]:
    """Difference of two paired proportions (second minus first) with the Agresti-Min 95% interval (a Wald
    interval after adding 1/2 to each cell of the 2x2 table), the interval that goes with McNemar's test."""
    n = len(pairs)
    b = sum(1 for x, y in pairs if x and not y)
    c = sum(1 for x, y in pairs if y and not x)
    d = (c - b) / n if n else 0.0
    a_ = sum(1 for x, y in pairs if x and y) + 0.5
    d_ = sum(1 for x, y in pairs if not x and not y) + 0.5
    b_, c_ = b + 0.5, c + 0.5
    m = a_ + b_ + c_ + d_
    adj = (c_ - b_) / m
    se = math.sqrt(max(0.0, (b_ + c_) - (c_ - b_) ** 2 / m)) / m
    # the interval is centred on the adjusted estimate; widen it to hold the observed difference too
    return d, min(d, max(-1.0, adj - Z95 * se)), max(d, min(1.0, adj + Z95 * se))


def mcnemar(pairs: Sequence[tuple[bool, bool]]) -> dict[str, Any]:
    """McNemar's exact test on paired binary results (the same game seed and seats under two variants)."""
    b = sum(1 for x, y in pairs if x and not y)
    c = sum(1 for x, y in pairs if y and not x)
    p = float(st.binomtest(b, b + c, 0.5).pvalue) if b + c else 1.0
    return {"test": "mcnemar_exact", "only_first": b, "only_second": c, "p_value": p, "pairs": len(pairs)}


def paired_t(pairs: Sequence[tuple[float, float]]) -> dict[str, Any]:
    """Paired t-test and 95% interval of the mean difference (second minus first)."""
    diffs = [y - x for x, y in pairs]
    ci = mean_ci(diffs)
    if len(diffs) < 2 or all(d == diffs[0] for d in diffs):
        p = 1.0 if not diffs or diffs[0] == 0 else 0.0
    else:
        p = float(st.ttest_1samp(diffs, 0.0).pvalue)
    return {"test": "paired_t", "diff": ci["mean"], "low": ci["low"], "high": ci["high"], "p_value": p, "pairs": len(diffs)}


def icc1(groups: Sequence[Sequence[float]]) -> dict[str, Any]:
    """ICC(1) from a one-way random-effects ANOVA: the share of the variance of a result explained by the
    group (here: the chance seed, each group the seat-rotated replays of one seed). Negative estimates are
    reported as 0; None when there is no variance at all."""
    groups = [g for g in groups if len(g) >= 2]
    k_sizes = [len(g) for g in groups]
    if len(groups) < 2:
        return {"icc": None, "groups": len(groups)}
    n_total = sum(k_sizes)
    grand = sum(sum(g) for g in groups) / n_total
    ssb = sum(len(g) * (sum(g) / len(g) - grand) ** 2 for g in groups)
    ssw = sum(sum((x - sum(g) / len(g)) ** 2 for x in g) for g in groups)
    dfb = len(groups) - 1
    dfw = n_total - len(groups)
    msb = ssb / dfb
    msw = ssw / dfw if dfw else 0.0
    k0 = (n_total - sum(k * k for k in k_sizes) / n_total) / dfb
    den = msb + (k0 - 1) * msw
    if den <= 0:
        return {"icc": None, "groups": len(groups)}
    icc = (msb - msw) / den
    return {"icc": max(0.0, min(1.0, icc)), "raw": icc, "groups": len(groups)}
