"""The luck share (issue 27 item 1): the variance decomposition against the published ICC example, the two
reference cases (no chance: 0, a coin flip: 1), and a real run whose games replay and whose bots' seeds do not
depend on the chance stream."""

from __future__ import annotations

import random

import numpy as np
import pytest

from hegemon.core.record import GameRecord, verify
from hegemon.games import get_game
from hegemon.lab import luck as lk

# Shrout & Fleiss (1979), "Intraclass correlations: uses in assessing rater reliability", Table 2:
# 6 targets rated by 4 judges; their ICC(1,1) is 0.17
SHROUT_FLEISS = [
    [9, 2, 5, 8],
    [6, 1, 3, 2],
    [8, 4, 6, 8],
    [7, 1, 2, 6],
    [10, 5, 6, 9],
    [6, 2, 4, 7],
]


def test_icc1_matches_shrout_and_fleiss() -> None:
    assert lk.icc1(SHROUT_FLEISS) == pytest.approx(0.1657, abs=5e-4)
    # the luck share is 1 - ICC(1) with the between-setting component clipped at 0
    assert lk.decompose(SHROUT_FLEISS)["luck"] == pytest.approx(1 - lk.icc1(SHROUT_FLEISS), abs=1e-9)


def test_no_chance_gives_zero() -> None:
    """Every stream plays the same game: the result depends on the setting alone."""
    rng = random.Random(3)
    y = [[float(w)] * 6 for w in (rng.random() < 0.4 for _ in range(50))]
    d = lk.decompose(y)
    assert d["within"] == 0.0 and d["luck"] == 0.0


def test_coin_flip_gives_one() -> None:
    """A game decided by one fair coin whatever the setting: the result changes with the stream alone."""
    rng = random.Random(11)
    y = [[float(rng.random() < 0.5) for _ in range(8)] for _ in range(600)]
    assert lk.decompose(y)["luck"] == pytest.approx(1.0, abs=0.03)


def test_partly_decided_by_the_setting() -> None:
    """Half the settings are decided (the stronger bot always wins), half are coin flips: luck share near the
    analytic value within / (within + between) = 0.125 / (0.125 + 0.0625 + ...)."""
    rng = np.random.default_rng(5)
    decided = np.ones((2000, 8))
    coins = (rng.random((2000, 8)) < 0.5).astype(float)
    y = np.concatenate([decided, coins])
    # within: half the settings vary with p(1-p) = 0.25 -> 0.125; between: means 1 or 0.5 -> variance 0.0625
    assert lk.decompose(y)["luck"] == pytest.approx(0.125 / (0.125 + 0.0625), abs=0.02)


def test_seats_pooled_for_many_players() -> None:
    y = np.zeros((30, 5, 3))
    y[:, :, 0] = 1.0  # seat 0 always wins: no chance at all
    assert lk.decompose(y)["luck"] == 0.0


@pytest.fixture(scope="module")
def small_run() -> tuple[lk.LuckPlan, list[dict]]:
    plan = lk.make_plan(
        "polis", ["random", "greedy"], settings=3, streams=4, seed=5, options=["siege=classic,diceless"]
    )
    return plan, lk.run(plan)


def test_run_games_replay_and_bot_seeds_do_not_follow_the_stream(small_run) -> None:
    plan, records = small_run
    assert len(records) == 3 * 4 * 2
    for r in records[:6]:
        assert verify(get_game("polis"), GameRecord.from_json(r)) == []
    again = lk.play_game(lk.asdict(plan), 1, 2, 3)
    same = next(
        r for r in records if (r["meta"]["variant"], r["meta"]["setting"], r["meta"]["stream"]) == (1, 2, 3)
    )
    assert again["digest"] == same["digest"] and again["actions"] == same["actions"]
    # the streams of a setting are different games; the seats rotate between settings
    digests = {r["digest"] for r in records if r["meta"]["setting"] == 0 and r["meta"]["variant"] == 0}
    assert len(digests) > 1
    seats = {r["meta"]["setting"]: tuple(r["seats"]) for r in records}
    assert seats[0] != seats[1]


def test_analysis_withholds_too_few_streams(small_run) -> None:
    plan, records = small_run
    res = lk.analyse(records, plan, resamples=200)
    assert res["readable"] and len(res["variants"]) == 2
    assert any("settings" in w for w in res["warnings"])  # 3 settings: intervals too wide to read
    for v in res["variants"]:
        assert 0.0 <= v["luck"] <= 1.0 or np.isnan(v["luck"])
    assert res["differences"][0]["p_holm"] >= res["differences"][0]["p"]
    plan2 = lk.LuckPlan(**{**lk.asdict(plan), "streams": 3})
    short = [r for r in records if r["meta"]["stream"] < 3]
    res2 = lk.analyse(short, plan2, resamples=200)
    assert not res2["readable"] and any("chance streams" in w for w in res2["warnings"])
    assert all("ci" not in v for v in res2["variants"]) and not res2["differences"]
