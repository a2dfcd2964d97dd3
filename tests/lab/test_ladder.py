"""The ladder: the Bradley-Terry (Elo) fit against known answers, and the round robin playing the lab's games."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from hegemon.core.errors import HegemonError
from hegemon.lab import stats
from hegemon.lab.ladder import Cells, bot_identity, elo_of_cells, quantile, run_ladder, run_skill, skill
from hegemon.lab.run import GAMES_FILE, make_sweep, read_jsonl, run_sweep


def test_two_players_exact_elo_and_standard_error() -> None:
    # 75 wins of 100: odds 3 to 1, 400 * log10(3) = 190.85 Elo; the logit's standard error is
    # 1 / sqrt(n p (1 - p)) = 1 / sqrt(18.75) -> 40.12 Elo
    games = [(0, 1, 1.0, 0.0)] * 75 + [(0, 1, 0.0, 0.0)] * 25
    fit = stats.bradley_terry(games, 2, prior_games=0)
    assert fit["elo"][0] == 0.0
    assert fit["elo"][1] == pytest.approx(-400 * math.log10(3), abs=1e-6)
    assert fit["se"][1] == pytest.approx(stats.ELO / math.sqrt(18.75), rel=1e-6)
    assert fit["low"][1] < -190.8 < fit["high"][1]
    assert fit["seat"] is None
    assert stats.elo_of(0.75) == pytest.approx(400 * math.log10(3))
    # anchored on the other player, the same fit seen from there
    assert stats.bradley_terry(games, 2, prior_games=0, anchor=1)["elo"][0] == pytest.approx(190.85, abs=0.01)


def simulate(
    truth: list[float], seat_edge: float, per_pair: int, seed: int
) -> list[tuple[int, int, float, float]]:
    """Games drawn from the Bradley-Terry model: each pair `per_pair` times, in alternating seats."""
    rng = random.Random(seed)
    games = []
    for i in range(len(truth)):
        for j in range(i + 1, len(truth)):
            for n in range(per_pair):
                seat = 1.0 if n % 2 == 0 else -1.0
                p = 1.0 / (1.0 + 10 ** (-(truth[i] - truth[j] + seat * seat_edge) / 400))
                games.append((i, j, 1.0 if rng.random() < p else 0.0, seat))
    return games


def test_recovers_known_strengths_and_seat_edge() -> None:
    truth = [0.0, 100.0, 250.0, 400.0]
    fit = stats.bradley_terry(simulate(truth, 60.0, 400, seed=7), 4)
    for i, t in enumerate(truth):  # (seed 7 happens to sit about 2 standard errors low on the strongest)
        assert abs(fit["elo"][i] - t) <= 3.5 * fit["se"][i], (i, fit)
        assert abs(fit["elo"][i] - t) < 60
    assert fit["low"][1] <= 100.0 <= fit["high"][1] and fit["low"][2] <= 250.0 <= fit["high"][2]
    assert fit["elo"] == sorted(fit["elo"])
    assert fit["seat"]["low"] <= 60.0 <= fit["seat"]["high"]
    assert fit["seat"]["low"] > 0  # a real seat edge is found
    # the intervals shrink with more games (about as 1 / sqrt(n))
    small = stats.bradley_terry(simulate(truth, 60.0, 100, seed=7), 4)
    assert small["se"][3] == pytest.approx(2 * fit["se"][3], rel=0.25)


def test_clusters_do_not_count_a_repeated_game_twice() -> None:
    # every game played twice with the same result (two rotations of a deal that came out the same): naive
    # intervals shrink by sqrt(2); grouped by deal, the fit knows it has only the information of one copy
    once = simulate([0.0, 150.0], 0.0, 200, seed=3)
    twice = [g for g in once for _ in range(2)]
    deals = [n for n in range(len(once)) for _ in range(2)]
    base = stats.bradley_terry(once, 2, prior_games=0)
    naive = stats.bradley_terry(twice, 2, prior_games=0)
    grouped = stats.bradley_terry(twice, 2, groups=deals, prior_games=0)
    assert naive["elo"][1] == pytest.approx(base["elo"][1])
    assert naive["se"][1] == pytest.approx(base["se"][1] / math.sqrt(2), rel=1e-6)
    assert grouped["se"][1] == pytest.approx(base["se"][1], rel=0.05)


def test_a_clean_sweep_stays_finite() -> None:
    games = [(0, 1, 1.0, 1.0 if n % 2 == 0 else -1.0) for n in range(10)] + [(1, 2, 0.5, 0.0)] * 4
    fit = stats.bradley_terry(games, 3)
    assert all(math.isfinite(x) for x in fit["elo"] + fit["low"] + fit["high"])
    assert fit["elo"][1] < -100 and fit["high"][1] < 0  # ten wins of ten: clearly weaker, finitely so
    assert abs(fit["seat"]["elo"]) < 1e-6  # balanced seats: no seat edge


@pytest.mark.parametrize("bad", [[(0, 0, 1.0, 0.0)], [(0, 2, 1.0, 0.0)], [(0, 1, 1.5, 0.0)]])
def test_bad_games_are_refused(bad: list[tuple[int, int, float, float]]) -> None:
    with pytest.raises(ValueError):
        stats.bradley_terry(bad, 2)


def test_quantile() -> None:
    assert quantile([], 0.5) is None
    assert quantile([3.0, 1.0, 2.0], 0.5) == 2.0
    assert quantile([0.0, 10.0], 0.9) == pytest.approx(9.0)


def test_ladder_plays_the_lab_tournaments_games(tmp_path: Path) -> None:
    summary = run_ladder("polis", ["random", "greedy"], 2, seed=5, options=["siege=diceless"])
    assert summary["games"] == 2 and summary["options"] == {"siege": "diceless"}
    random_lv, greedy_lv = summary["levels"]
    assert random_lv["elo"] == 0.0 and greedy_lv["elo"] > 0  # greedy beats random
    assert (
        greedy_lv["decisions"] > 10 and greedy_lv["decision_median_s"] > 0 and greedy_lv["cpu_per_game_s"] > 0
    )
    assert greedy_lv["decision_cpu_p90_s"] >= greedy_lv["decision_cpu_median_s"] > 0
    pair = summary["pairs"][0]
    assert (pair["a"], pair["b"], pair["games"]) == ("random", "greedy", 2)
    # the same games, move for move, as `hegemon lab tournament` with the same bots, seed and options
    sweep = make_sweep("polis", "tournament", ["random", "greedy"], 2, 5, ["siege=diceless"])
    run_sweep(sweep, tmp_path)
    assert sorted(r["digest"] for r in read_jsonl(tmp_path / GAMES_FILE)) == summary["digests"]


# --------------------------------------------------------------------------- skill range by variant


def simulated_cells(truth: list[float], deals: int, seed: int, seat_edge: float = 30.0) -> Cells:
    """A ladder's games drawn from the Bradley-Terry model: every pair on every deal in both seat rotations."""
    import numpy as np

    rng = random.Random(seed)
    k = len(truth)
    pairs = [(a, b) for a in range(k) for b in range(a + 1, k)]
    cells = [(a, b, seat) for a, b in pairs for seat in (1.0, -1.0)]
    score = np.zeros((deals, len(cells)))
    for d in range(deals):
        for c, (a, b, seat) in enumerate(cells):
            p = 1.0 / (1.0 + 10 ** (-(truth[a] - truth[b] + seat * seat_edge) / 400))
            score[d, c] = 1.0 if rng.random() < p else 0.0
    return Cells(k, cells, score, np.ones((deals, len(cells))))


def test_summed_cells_fit_as_the_games_one_by_one() -> None:
    cs = simulated_cells([0.0, 150.0, 300.0], 30, seed=1)
    games = [
        (a, b, float(cs.score[d, c]), seat) for d in range(30) for c, (a, b, seat) in enumerate(cs.cells)
    ]
    fit = stats.bradley_terry(games, 3)
    summed = elo_of_cells(3, cs.cells, cs.score.sum(axis=0), cs.games.sum(axis=0))
    assert list(summed) == pytest.approx(fit["elo"], abs=1e-6)


def test_the_skill_range_of_known_strengths_and_its_paired_change() -> None:
    levels = ["random", "greedy", "mcts:4", "mcts:16"]
    wide = simulated_cells([0.0, 200.0, 400.0, 600.0], 150, seed=4)
    narrow = simulated_cells([0.0, 100.0, 200.0, 300.0], 150, seed=5)
    res = skill(levels, [{"label": "wide"}, {"label": "narrow"}], [wide, narrow], seed=1, resamples=300)
    w, n = res["variants"]
    assert w["separated"] and n["separated"] and res["warnings"] == []
    assert w["skill_range"]["low"] <= 600 <= w["skill_range"]["high"]
    assert n["skill_range"]["low"] <= 300 <= n["skill_range"]["high"]
    assert abs(w["skill_range"]["elo"] - 600) < 120 and abs(n["skill_range"]["elo"] - 300) < 80
    assert w["skill_range"]["elo"] == pytest.approx(w["levels"][3]["elo"] - w["levels"][0]["elo"])
    (d,) = res["differences"]
    assert d["label"] == "narrow" and d["low"] <= -300 <= d["high"] and d["high"] < 0
    assert d["p_value"] < 0.01 and d["p_adjusted"] == pytest.approx(
        d["p_value"]
    )  # one comparison: Holm keeps p


def test_a_ladder_that_does_not_separate_gives_no_skill_range() -> None:
    levels = ["random", "greedy", "mcts:4"]
    flat = simulated_cells([0.0, 300.0, 310.0], 40, seed=2)  # the two top levels barely differ
    good = simulated_cells([0.0, 300.0, 700.0], 40, seed=3)
    res = skill(levels, [{"label": "good"}, {"label": "flat"}], [good, flat], seed=1, resamples=200)
    g, f = res["variants"]
    assert g["skill_range"] is not None and f["skill_range"] is None and not f["separated"]
    assert (
        res["warning_codes"] == ["ladder_not_separated"]
        and "flat: the ladder does not separate" in res["warnings"][0]
    )
    assert "non separa" in res["warnings_it"][0]
    assert res["differences"] == []  # no change of a spread that is not given
    # and a ladder whose order is not the levels' order
    upside = skill(
        levels, [{"label": "upside"}], [simulated_cells([0.0, 400.0, 100.0], 40, seed=6)], resamples=100
    )
    assert upside["variants"][0]["monotone"] is False and upside["variants"][0]["skill_range"] is None
    assert "does not rank above" in upside["warnings"][0]


def test_two_copies_of_one_bot_give_no_skill_range() -> None:
    assert bot_identity("mcts:40") == bot_identity("MCTS:40") != bot_identity("mcts:41")
    # a level whose budget depends on the game is itself (ai/levels.py), never a plain budget
    assert bot_identity("mcts:normal") == bot_identity("MCTS:Normal") != bot_identity("mcts:40")
    assert bot_identity("mcts:hard") == bot_identity("MCTS:Hard") != bot_identity("mcts:160")
    assert bot_identity("mcts:normal:turns=1") != bot_identity("mcts:normal")
    # the one-ply level is the greedy bot, with greedy's settings
    assert bot_identity("mcts:easy") == bot_identity("greedy") != bot_identity("mcts:40")
    assert bot_identity("mcts:easy:samples=2") == bot_identity("greedy:samples=2") != bot_identity("greedy")
    res = run_skill("polis", ["random", "greedy", "greedy"], 2, seed=3, resamples=20)
    assert res["variants"][0]["skill_range"] is None
    assert res["warning_codes"] == ["same_bot_ladder"] and "greedy" in res["warnings"][0]
    assert res["games_per_pair"] == 2 and res["variants"][0]["ladder"]["games"] == 6


def test_lab_ladder_command_plays_each_variant_on_the_same_deals(tmp_path: Path) -> None:
    import json

    from typer.testing import CliRunner

    from hegemon.cli import app

    res = CliRunner().invoke(
        app,
        [
            "lab",
            "ladder",
            "polis",
            "--levels",
            "random,greedy",
            "--games",
            "2",
            "--option",
            "siege=classic,diceless",
            "--resamples",
            "20",
            "--out",
            str(tmp_path),
        ],
    )
    assert res.exit_code == 0, res.stdout
    out = json.loads((tmp_path / "ladder.json").read_text())
    assert [v["label"] for v in out["variants"]] == ["siege=classic", "siege=diceless"]
    assert all(v["ladder"]["games"] == 2 for v in out["variants"]) and out["deals"] == 1
    assert "skill range" in res.stdout
    # each variant's games kept as they ended, in the output folder
    stored = sorted(tmp_path.glob("ladder-games-*.jsonl"))
    assert len(stored) == 2 and all(len(p.read_text().splitlines()) == 2 for p in stored)
    bad = CliRunner().invoke(app, ["lab", "ladder", "polis", "--levels", "random,nobot", "--games", "2"])
    assert bad.exit_code != 0 and "nobot" in bad.output


def test_a_stopped_ladder_resumes_from_its_stored_games(tmp_path: Path) -> None:
    from hegemon.lab.ladder import load_stored, play, store_file

    sweep = make_sweep("polis", "tournament", ["random", "greedy"], 4, 5, ["siege=diceless"])
    first = play(sweep, store=tmp_path)
    path = store_file(tmp_path, sweep)
    assert len(path.read_text().splitlines()) == len(first) == 4
    # a stop in the middle of writing the last game: that game is dropped and played again, the rest kept
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:2]) + lines[2][:30])
    assert len(load_stored(path)) == 2 and path.read_text() == "".join(lines[:2])
    played: list[int] = []
    again = play(sweep, on_progress=lambda n, total: played.append(n), store=tmp_path)
    assert played == [3, 4]  # two games played, two read back
    assert [r.digest for r in again] == [r.digest for r in first]
    assert [r.credit_a for r in again] == [r.credit_a for r in first]
    assert set(again[0].cpu) == set(first[0].cpu) and all(isinstance(k, int) for k in again[0].cpu)
    # all stored: nothing is played; another ladder (another seed) keeps its games in another file
    assert play(sweep, on_progress=lambda n, total: played.append(n), store=tmp_path) and played == [3, 4]
    other = make_sweep("polis", "tournament", ["random", "greedy"], 4, 6, ["siege=diceless"])
    assert store_file(tmp_path, other) != path
    # an unreadable stored game is a clear error, never a silent replay
    path.write_text(lines[0] + "{not json\n")
    with pytest.raises(HegemonError, match="unreadable"):
        play(sweep, store=tmp_path)


def test_a_ladder_asked_for_more_games_extends_the_stored_ones(tmp_path: Path) -> None:
    import hashlib
    import json

    from hegemon.lab.ladder import play, store_file

    small = make_sweep("polis", "tournament", ["random", "greedy"], 2, 5, ["siege=diceless"])
    big = make_sweep("polis", "tournament", ["random", "greedy"], 4, 5, ["siege=diceless"])
    first = play(small, store=tmp_path)
    assert store_file(tmp_path, big) == store_file(tmp_path, small)
    played: list[int] = []
    more = play(big, on_progress=lambda n, total: played.append(n), store=tmp_path)
    assert played == [3, 4]  # the first deal read back, the second played
    assert [r.digest for r in more[:2]] == [r.digest for r in first]
    # the same four games as a ladder that asked for four from the start
    assert [r.digest for r in more] == [r.digest for r in play(big)]
    # asked for fewer again: the first games, none played
    assert [
        r.digest for r in play(small, on_progress=lambda n, t: pytest.fail("played"), store=tmp_path)
    ] == [r.digest for r in first]
    assert len(list(tmp_path.glob("ladder-games-*.jsonl"))) == 1
    # a file named by the older digest (games counted in it) is taken over, not played again
    path = store_file(tmp_path, big)
    old = hashlib.sha256(json.dumps(big.to_json(), sort_keys=True).encode()).hexdigest()[:16]
    path.rename(tmp_path / f"ladder-games-{old}.jsonl")
    assert [r.digest for r in play(big, on_progress=lambda n, t: pytest.fail("played"), store=tmp_path)] == [
        r.digest for r in more
    ]
    assert [p.name for p in tmp_path.glob("ladder-games-*.jsonl")] == [path.name]


def test_a_chain_plays_each_level_against_the_next_only(tmp_path: Path) -> None:
    summary = run_ladder("polis", ["random", "beginner", "greedy"], 2, seed=5, chain=True, store=tmp_path)
    assert summary["design"] == "chain"
    assert [(p["a"], p["b"]) for p in summary["pairs"]] == [("random", "beginner"), ("beginner", "greedy")]
    assert summary["games"] == 4 and [lv["games"] for lv in summary["levels"]] == [2, 4, 2]
    # the fit links random and greedy through beginner, with the widest interval at the chain's end
    random_lv, _, greedy_lv = summary["levels"]
    assert random_lv["elo"] == 0.0 and greedy_lv["high"] - greedy_lv["low"] > 0
    assert len(list(tmp_path.glob("ladder-games-*.jsonl"))) == 1
    # the same games, stored: a rerun reads them back and plays none
    again = run_ladder("polis", ["random", "beginner", "greedy"], 2, seed=5, chain=True, store=tmp_path,
                       on_progress=lambda n, total: pytest.fail("played a stored game"))  # fmt: skip
    assert again["digests"] == summary["digests"]
