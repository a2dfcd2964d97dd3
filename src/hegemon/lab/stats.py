"""Statistics for the lab, from statsmodels and scipy wherever they have the statistic.

The unit of independence is the *deal* (a sweep's seed m: every variant, pair and seat rotation of it), not the
game: the games of one deal share its dice and draws. So

- a rate carries a 95% Wilson interval (`statsmodels.stats.proportion.proportion_confint`) on the effective
  number of games: the games divided by the design effect of their clustering by deal (Kish: the
  cluster-robust variance of the mean over the naive one, never below 1);
- a mean carries a 95% t-interval from an intercept-only OLS with standard errors clustered by deal
  (`statsmodels` `cov_type="cluster"`, t with deals − 1 degrees of freedom);
- a difference between two variants is paired by construction (the same pair, deal and rotation) and tested
  the same way: the per-game differences, clustered by deal (`paired`). A win counts a tie as a share of a win
  everywhere (a game's win is split equally among its winners), so the test of a rate is a test of a mean;
- a report's tests are adjusted together with Holm's method (`statsmodels.stats.multitest.multipletests`);
- the games needed to detect a change come from `statsmodels.stats.proportion.samplesize_proportions_2indep_onetail`
  (independent samples, times the design effect) and `statsmodels.stats.power.TTestPower` (paired deals);
- ICC(1) (one-way random effects; Shrout and Fleiss 1979) has no maintained implementation in scipy or
  statsmodels: it is computed here from the ANOVA mean squares and tested against their worked example."""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

Z95 = 1.959963984540054
ALPHA = 0.05
POWER = 0.8
MULTIPLE_TESTING = "holm"  # statsmodels' name of the method
MULTIPLE_TESTING_NAMES = {"holm": ("Holm", "Holm"), "fdr_bh": ("Benjamini–Hochberg", "Benjamini–Hochberg")}


def _ols_mean(
    values: Sequence[float], clusters: Sequence[Hashable] | None
) -> tuple[float, float, float, int]:
    """(mean, its standard error, the naive standard error, degrees of freedom) of `values`: an intercept-only
    OLS, its standard error clustered by `clusters` (CR1, statsmodels' default correction) when given."""
    import statsmodels.api as sm

    y = np.asarray(values, dtype=float)
    x = np.ones((len(y), 1))
    naive = sm.OLS(y, x).fit()
    if clusters is None:
        return float(naive.params[0]), float(naive.bse[0]), float(naive.bse[0]), len(y) - 1
    index: dict[Hashable, int] = {}
    codes = np.asarray([index.setdefault(c, len(index)) for c in clusters])
    groups = len(index)
    if groups < 2:
        return float(naive.params[0]), float("nan"), float(naive.bse[0]), 0
    fit = sm.OLS(y, x).fit(cov_type="cluster", cov_kwds={"groups": codes}, use_t=True)
    return float(fit.params[0]), float(fit.bse[0]), float(naive.bse[0]), groups - 1


def design_effect(values: Sequence[float], clusters: Sequence[Hashable] | None) -> float:
    """Kish's design effect of the mean of `values` clustered by `clusters`: the cluster-robust variance over
    the naive one, at least 1 (1 when there is no variance, no clustering or a single cluster)."""
    if clusters is None or len(values) < 2:
        return 1.0
    _, se, naive, df = _ols_mean(values, clusters)
    if df < 1 or not naive > 0 or not math.isfinite(se):
        return 1.0
    deff = (se / naive) ** 2
    return deff if deff > 1.0 + 1e-9 else 1.0  # rounding leaves 1 ± 1e-15 for independent games


def wilson(successes: float, n: float) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (successes may be fractional: a tie is a share of a win;
    `n` may be an effective number of games)."""
    from statsmodels.stats.proportion import proportion_confint

    if n <= 0:
        return (0.0, 1.0)
    lo, hi = (float(x) for x in proportion_confint(successes, n, alpha=ALPHA, method="wilson"))
    p = successes / n
    # exact at the extremes (rounding leaves 1e-17 above 0 and 1e-16 below 1), and never excluding the
    # estimate itself, so an error bar is never negative
    lo = 0.0 if successes <= 0 else min(p, max(0.0, lo))
    hi = 1.0 if successes >= n else max(p, min(1.0, hi))
    return (lo, hi)


def rate(successes: float, n: int, deff: float = 1.0) -> dict[str, Any]:
    """A rate with its 95% Wilson interval on `n / deff` effective games, JSON-ready."""
    lo, hi = wilson(successes * 1.0 / deff, n / deff) if n else (0.0, 1.0)
    out: dict[str, Any] = {
        "rate": successes / n if n else None,
        "low": lo,
        "high": hi,
        "n": n,
        "successes": successes,
    }
    if deff != 1.0:
        out["design_effect"] = round(deff, 4)
    return out


def rate_of(values: Sequence[float], clusters: Sequence[Hashable] | None = None) -> dict[str, Any]:
    """The rate of per-game results in [0, 1] (1 a win, 1/k a k-way tie, 0 a loss), its Wilson interval
    widened by the design effect of the games' clustering by deal."""
    n = len(values)
    if not n:
        return rate(0.0, 0)
    return rate(float(sum(values)), n, design_effect(values, clusters))


def mean_ci(values: Sequence[float], clusters: Sequence[Hashable] | None = None) -> dict[str, Any]:
    """Mean with a 95% t-interval (standard error clustered by `clusters` when given)."""
    from scipy import stats as st

    n = len(values)
    if n == 0:
        return {"mean": None, "low": None, "high": None, "n": 0}
    m = float(np.mean(values))
    if n < 2:
        return {"mean": m, "low": m, "high": m, "n": n}
    _, se, _, df = _ols_mean(values, clusters)
    sd = float(np.std(values, ddof=1))
    if df < 1 or not math.isfinite(se):
        return {"mean": m, "low": m, "high": m, "n": n, "sd": sd}
    half = float(st.t.ppf(0.975, df)) * se
    return {"mean": m, "low": m - half, "high": m + half, "n": n, "sd": sd}


def paired(diffs: Sequence[float], clusters: Sequence[Hashable]) -> dict[str, Any]:
    """The mean of paired differences (second minus first: the same pair, deal and rotation under two
    variants), its 95% interval and two-sided p-value, with standard errors clustered by deal (t with deals − 1
    degrees of freedom). For win credits (1, 1/k for a tie, 0) this is the difference of the two win rates."""
    from scipy import stats as st

    n = len(diffs)
    by_deal: dict[Hashable, list[float]] = {}
    for x, c in zip(diffs, clusters, strict=True):
        by_deal.setdefault(c, []).append(float(x))
    deals = len(by_deal)
    means = [sum(x) / len(x) for x in by_deal.values()]
    # the spread of the per-deal mean differences: what the games a paired comparison needs depend on
    sd_deal = float(np.std(means, ddof=1)) if deals > 1 else None
    base: dict[str, Any] = {"test": "paired_cluster_t", "pairs": n, "deals": deals, "sd_deal": sd_deal}
    if n == 0:
        return {**base, "diff": None, "low": None, "high": None, "p_value": 1.0}
    d = float(np.mean(diffs))
    if all(x == diffs[0] for x in diffs) or deals < 2:
        # no variance (or one deal): nothing to estimate it from
        return {**base, "diff": d, "low": d, "high": d, "p_value": 1.0 if d == 0 or deals < 2 else 0.0}
    _, se, _, df = _ols_mean(diffs, clusters)
    if not se > 0:
        return {**base, "diff": d, "low": d, "high": d, "p_value": 1.0 if d == 0 else 0.0}
    t = d / se
    half = float(st.t.ppf(0.975, df)) * se
    p = float(2 * st.t.sf(abs(t), df))
    return {**base, "diff": d, "low": d - half, "high": d + half, "p_value": p}


def adjust(p_values: Sequence[float], method: str = MULTIPLE_TESTING) -> list[float]:
    """p-values adjusted for multiple testing (Holm by default) with statsmodels' `multipletests`."""
    from statsmodels.stats.multitest import multipletests

    if not p_values:
        return []
    return [float(x) for x in multipletests(list(p_values), alpha=ALPHA, method=method)[1]]


def games_for_change(p: float, delta: float = 0.05, deff: float = 1.0) -> int:
    """Games per variant for a two-sided 5% test with 80% power to detect a change of `delta` in a rate `p`,
    for two independent samples of games clustered by deal with design effect `deff` (statsmodels'
    `samplesize_proportions_2indep_onetail`, times `deff`). The change is taken toward 1/2, the harder
    direction; a rate at 0 or 1 is taken as 0.5% from it (no variance would need no games)."""
    from statsmodels.stats.proportion import samplesize_proportions_2indep_onetail

    p = min(max(p, 0.005), 0.995)
    q = p + delta if p <= 0.5 else p - delta
    q = min(max(q, 0.0), 1.0)
    n = float(samplesize_proportions_2indep_onetail(q - p, p, POWER, alpha=ALPHA, alternative="two-sided"))
    return math.ceil(n * max(1.0, deff) - 1e-9)


def games_paired(sd_deal_diff: float, games_per_deal: int, delta: float = 0.05) -> int | None:
    """Games per variant for a paired, deal-clustered test (two-sided 5%, 80% power) to detect a mean change of
    `delta`, when the per-deal mean differences have standard deviation `sd_deal_diff`
    (`statsmodels.stats.power.TTestPower`); None without a spread to go on."""
    from statsmodels.stats.power import TTestPower

    if not sd_deal_diff > 0:
        return None
    deals = float(
        TTestPower().solve_power(
            effect_size=delta / sd_deal_diff, alpha=ALPHA, power=POWER, alternative="two-sided"
        )
    )
    return math.ceil(deals - 1e-9) * games_per_deal


def icc1(groups: Sequence[Sequence[float]]) -> dict[str, Any]:
    """ICC(1) from a one-way random-effects ANOVA (Shrout and Fleiss 1979, ICC(1,1)): the share of the
    variance of a result explained by the group (here: the chance seed, each group the seat-rotated replays
    of one seed). Negative estimates are reported as 0; None when there is no variance at all."""
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


ELO = 400.0 / math.log(10.0)
"""Elo points per unit of log-odds: a difference of 400 Elo is odds of 10 to 1."""


def bradley_terry(
    games: Sequence[tuple[int, int, float, float]],
    k: int,
    groups: Sequence[Any] | None = None,
    prior_games: int = 2,
    anchor: int = 0,
) -> dict[str, Any]:
    """The Bradley-Terry (Elo) fit of `k` players from `games` = (i, j, score of i, seat) with 95% intervals.

    P(i beats j) = 1 / (1 + 10^(-(elo_i - elo_j + seat * s) / 400)): a logistic regression (statsmodels' GLM,
    binomial family) of each game's score for i (a share in [0, 1]: a shared win is a fraction) on +1 for i and
    -1 for j, with an optional seat term `seat` (+1 when i had the seat favoured by s, -1 when j had it, 0 for
    none: e.g. +1 when i sat first) whose coefficient s is fitted alongside. `anchor`'s Elo is fixed at 0; the
    others' intervals are Wald intervals relative to it, cluster-robust over `groups` (one label a game: the
    games of one deal, which share their dice and cards, are not independent) when given. `prior_games`
    virtual drawn games between every pair (each its own group) keep the fit finite when one player won
    every game (a mild pull toward equal strength that fades as real games accumulate; 0 for the plain MLE;
    with a seat term they alternate seats, so an even number keeps the seat term unbiased).
    Returns `elo`, `low`, `high`, `se` (Elo, by player), `seat` ({elo, low, high} or None) and `n` (games)."""
    import numpy as np
    import statsmodels.api as sm

    if k < 2:
        raise ValueError("a Bradley-Terry fit needs at least two players")
    rows: list[list[float]] = []
    ys: list[float] = []
    labels: list[Any] = []
    seat_used = any(g[3] for g in games)
    free = [p for p in range(k) if p != anchor]
    col = {p: c for c, p in enumerate(free)}

    def add(i: int, j: int, y: float, seat: float, label: Any) -> None:
        x = [0.0] * (len(free) + (1 if seat_used else 0))
        if i in col:
            x[col[i]] += 1.0
        if j in col:
            x[col[j]] -= 1.0
        if seat_used:
            x[-1] = seat
        rows.append(x)
        ys.append(y)
        labels.append(label)

    for n, (i, j, y, seat) in enumerate(games):
        if not (0 <= i < k and 0 <= j < k) or i == j or not 0.0 <= y <= 1.0:
            raise ValueError(f"game {n}: players {i}, {j} of {k}, score {y}: not a game between two players")
        add(i, j, y, seat, groups[n] if groups is not None else ("game", n))
    for i in range(k):
        for j in range(i + 1, k):
            for v in range(prior_games):  # with a seat term, alternately in either seat: s stays finite too
                add(i, j, 0.5, (1.0 if v % 2 == 0 else -1.0) if seat_used else 0.0, ("prior", i, j, v))
    model = sm.GLM(np.asarray(ys), np.asarray(rows), family=sm.families.Binomial())
    if groups is not None:
        codes = {lab: c for c, lab in enumerate(dict.fromkeys(labels))}
        fit = model.fit(cov_type="cluster", cov_kwds={"groups": np.asarray([codes[lab] for lab in labels])})
    else:
        fit = model.fit()
    beta = np.asarray(fit.params)
    se = np.asarray(fit.bse)
    elo = [0.0] * k
    err = [0.0] * k
    for p, c in col.items():
        elo[p] = float(beta[c]) * ELO
        err[p] = float(se[c]) * ELO
    edge: dict[str, float] | None = None
    if seat_used:
        s, e = float(beta[-1]) * ELO, float(se[-1]) * ELO
        edge = {"elo": s, "low": s - Z95 * e, "high": s + Z95 * e}
    return {
        "elo": elo,
        "se": err,
        "low": [e - Z95 * s for e, s in zip(elo, err, strict=True)],
        "high": [e + Z95 * s for e, s in zip(elo, err, strict=True)],
        "seat": edge,
        "n": len(games),
        "anchor": anchor,
    }


def elo_of(rate: float) -> float:
    """The Elo difference that wins `rate` of games (0 < rate < 1)."""
    return ELO * math.log(rate / (1.0 - rate))
