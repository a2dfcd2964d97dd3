"""Every statistic of the lab against a library value or a published worked example: Wilson intervals
(Newcombe 1998), the design effect of a deal-clustered rate, cluster-robust means and paired differences
(equal to scipy's t-test on per-deal means), Holm's adjustment (worked by hand from its definition), the games
needed (Fleiss' two-proportion formula; G*Power's paired t-test), ICC(1) (Shrout and Fleiss 1979)."""

from __future__ import annotations

import math

import pytest
from scipy import stats as st
from statsmodels.stats.proportion import proportion_confint

from hegemon.lab import stats


def test_wilson_against_newcombe_1998() -> None:
    # Newcombe, "Two-sided confidence intervals for the single proportion", Statistics in Medicine 17 (1998),
    # table II, method 3 (score interval without continuity correction)
    for (s, n), (lo, hi) in {
        (81, 263): (0.2553, 0.3662),
        (15, 148): (0.0624, 0.1605),
        (8, 10): (0.4902, 0.9433),
    }.items():
        got = stats.wilson(s, n)
        assert got == pytest.approx((lo, hi), abs=1e-4)
        assert got == pytest.approx(proportion_confint(s, n, method="wilson"))


def test_a_rate_of_independent_games_is_wilsons() -> None:
    values = [1.0] * 30 + [0.5] * 4 + [0.0] * 26  # 4 ties: 32 wins in 60 games
    r = stats.rate_of(values, list(range(60)))  # every game its own deal
    assert r["rate"] == pytest.approx(32 / 60) and "design_effect" not in r
    assert (r["low"], r["high"]) == pytest.approx(proportion_confint(32, 60, method="wilson"))


def test_a_rate_clustered_by_deal_is_wider_by_its_design_effect() -> None:
    # both games of every deal alike: the CR1 cluster variance over the naive one is (2G - 1) / (G - 1), the
    # design effect of clusters of 2 with intra-class correlation 1 (Kish: 1 + (m - 1) rho = 2) with CR1's
    # small-sample factor
    g = 10
    per_deal = [1.0, 0.0, 1.0, 1.0, 0.5, 0.0, 1.0, 0.0, 1.0, 0.0]
    values = [x for x in per_deal for _ in range(2)]
    deals = [d for d in range(g) for _ in range(2)]
    deff = stats.design_effect(values, deals)
    assert deff == pytest.approx((2 * g - 1) / (g - 1))
    r = stats.rate_of(values, deals)
    n_eff = len(values) / deff
    assert (r["low"], r["high"]) == pytest.approx(
        proportion_confint(r["rate"] * n_eff, n_eff, method="wilson")
    )
    plain = stats.rate_of(values)
    assert r["low"] < plain["low"] and r["high"] > plain["high"]
    # negatively correlated games are never reported narrower than independent ones
    assert stats.design_effect([1.0, 0.0] * 10, deals) == 1.0


def test_a_clustered_mean_is_the_t_interval_of_the_deal_means() -> None:
    values = [3.0, 5.0, 2.0, 2.5, 7.0, 6.0, 4.0, 4.5, 1.0, 3.0, 5.5, 6.5]
    deals = [i // 2 for i in range(12)]
    m = stats.mean_ci(values, deals)
    means = [(values[2 * i] + values[2 * i + 1]) / 2 for i in range(6)]
    ref = st.ttest_1samp(means, 0.0).confidence_interval()
    assert m["mean"] == pytest.approx(sum(values) / 12)
    assert (m["low"], m["high"]) == pytest.approx((ref.low, ref.high))
    # unclustered: the ordinary t-interval (1, 2, 3, 4: 2.5 ± 3.182 · 0.6455)
    plain = stats.mean_ci([1.0, 2.0, 3.0, 4.0])
    assert plain["low"] == pytest.approx(0.4457, abs=1e-4) and plain["high"] == pytest.approx(
        4.5543, abs=1e-4
    )


def test_a_paired_difference_is_the_t_test_of_the_deal_means() -> None:
    diffs = [1.0, 0.0, 0.5, 1.0, 0.0, -1.0, 1.0, 1.0, 0.0, 0.5, 1.0, 0.0, -0.5, 1.0, 1.0, 0.0]
    deals = [i // 2 for i in range(16)]
    e = stats.paired(diffs, deals)
    means = [(diffs[2 * i] + diffs[2 * i + 1]) / 2 for i in range(8)]
    ref = st.ttest_1samp(means, 0.0)
    ci = ref.confidence_interval()
    assert e["test"] == "paired_cluster_t" and e["deals"] == 8 and e["pairs"] == 16
    assert e["diff"] == pytest.approx(sum(diffs) / 16)
    assert e["p_value"] == pytest.approx(ref.pvalue) and (e["low"], e["high"]) == pytest.approx(
        (ci.low, ci.high)
    )
    assert e["sd_deal"] == pytest.approx(st.tstd(means))
    # every game its own deal: scipy's paired t-test
    first = [0.0, 1.0, 0.5, 0.0, 1.0, 0.0, 0.0, 1.0]
    second = [1.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.5, 1.0]
    e = stats.paired([b - a for a, b in zip(first, second, strict=True)], list(range(8)))
    assert e["p_value"] == pytest.approx(st.ttest_rel(second, first).pvalue)
    # no variance: nothing to test
    assert stats.paired([0.0] * 6, [0, 0, 1, 1, 2, 2])["p_value"] == 1.0


def test_holm_adjustment_worked_example() -> None:
    # sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04 → monotone: 0.02, 0.03, 0.06, 0.06
    assert stats.adjust([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert stats.adjust([0.2, 0.9]) == pytest.approx([0.4, 0.9]) and stats.adjust([]) == []


def test_games_needed_against_fleiss_and_gpower() -> None:
    # Fleiss, Levin and Paik (2003) eq. 4.14 without continuity correction, 50% → 45%, 5% two-sided, 80% power:
    # (1.96·√(2·0.475·0.525) + 0.8416·√(0.25 + 0.2475))² / 0.05² = 1564.7
    assert stats.games_for_change(0.5) == 1565
    assert stats.games_for_change(0.9) == 686  # toward 1/2: 0.90 → 0.85
    assert stats.games_for_change(0.5, deff=1.5) == math.ceil(1564.672 * 1.5)
    assert stats.games_for_change(0.0) == stats.games_for_change(1.0) > 0
    # G*Power 3, one-sample t (paired), d = 0.5, two-tailed 5%, power 0.8: 34 deals; 2 games a deal
    assert stats.games_paired(0.1, 2, delta=0.05) == 68
    assert stats.games_paired(0.0, 2) is None


def test_icc1_against_shrout_and_fleiss_1979() -> None:
    # Shrout and Fleiss, "Intraclass correlations: uses in assessing rater reliability", Psychological Bulletin
    # 86 (1979), table 2: six targets, four judges; ICC(1,1) = .17
    table = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
    assert round(stats.icc1(table)["icc"], 2) == 0.17
    # results decided entirely by the seed: ICC 1; independent of it: 0
    assert stats.icc1([[1, 1], [0, 0], [1, 1], [0, 0]])["icc"] == 1.0
    assert stats.icc1([[1, 0], [0, 1], [1, 0], [0, 1]])["icc"] == 0.0
