"""A ladder: a round robin between bot levels with a Bradley-Terry (Elo) fit and the cost of each level.

The games are a lab tournament's (`lab.sweep`: every pair on the same deals, both seat rotations; with more than
two players the pair's bots on alternating seats, a bot's result the share of the win its seats hold), played by
the lab's own `play_unit`, with each bot wrapped to time its decisions: the wall and CPU time (`time.process_time`,
the game's process) of every decision that had more than one legal action, and the CPU time of all of a
level's decisions in a game. On a loaded machine the wall times stretch and the CPU times hold. The same seed gives the same games as `hegemon lab tournament` with the same bots and seed.

The Elo fit (`stats.bradley_terry`) takes every game's score for one side with a seat term (+1 when that side
held seat 0, which in Polis is Athens), and intervals cluster-robust over the games of one deal and pair (its
two seat rotations share dice, cards and deal)."""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from hegemon.ai import Bot
from hegemon.core.actions import Action
from hegemon.core.game import PlayerId, State
from hegemon.lab import stats
from hegemon.lab.report import a_seats, credit
from hegemon.lab.run import make_sweep
from hegemon.lab.sweep import Sweep, Unit, plan_units, play_unit


class Timed:
    """A bot that times another's decisions (and changes none of them)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.wall: list[float] = []  # seconds of each decision with a choice (more than one legal action)
        self.cpu_each: list[float] = []  # CPU seconds of the same decisions
        self.cpu = 0.0  # CPU seconds of every decision

    def choose(self, state: State, player: PlayerId) -> Action:
        choice = len(state.legal_actions()) > 1
        c0 = time.process_time()
        t0 = time.perf_counter()
        action = self.bot.choose(state, player)
        t1 = time.perf_counter()
        cpu = time.process_time() - c0
        self.cpu += cpu
        if choice:
            self.wall.append(t1 - t0)
            self.cpu_each.append(cpu)
        return action


@dataclass
class UnitResult:
    """What the ladder keeps of one game."""

    pair: int
    deal: int
    rotation: int
    credit_a: float
    credit_b: float
    digest: str
    seats: list[str]
    wall: dict[int, list[float]] = field(default_factory=dict)  # level -> decision seconds
    cpu_each: dict[int, list[float]] = field(default_factory=dict)  # level -> decision CPU seconds
    cpu: dict[int, float] = field(default_factory=dict)  # level -> CPU seconds in this game


def play_timed(sweep_json: dict[str, Any], units: list[tuple[int, int, int, int]]) -> list[UnitResult]:
    """A task (any process): play `units` of the sweep with timed bots."""
    sweep = Sweep.from_json(sweep_json)
    out = []
    for u in units:
        unit = Unit(*u)
        timed: list[Timed] = []

        def wrap(seat: int, bot: Bot, timed: list[Timed] = timed) -> Bot:
            t = Timed(bot)
            timed.append(t)
            return t

        rec = play_unit(sweep, unit, wrap)
        n = len(rec["seats"])
        sa = a_seats(unit.rotation, n)
        a, b = sweep.pairs[unit.pair]
        res = UnitResult(
            pair=unit.pair, deal=unit.deal, rotation=unit.rotation,
            credit_a=credit(rec, sa), credit_b=credit(rec, [j for j in range(n) if j not in sa]),
            digest=rec["digest"], seats=rec["seats"],
        )
        for j, t in enumerate(timed):
            level = a if j in sa else b
            res.wall.setdefault(level, []).extend(t.wall)
            res.cpu_each.setdefault(level, []).extend(t.cpu_each)
            res.cpu[level] = res.cpu.get(level, 0.0) + t.cpu
        out.append(res)
    return out


def quantile(values: Sequence[float], q: float) -> float | None:
    """The q-quantile (linear interpolation between order statistics), None for no values."""
    if not values:
        return None
    xs = sorted(values)
    pos = q * (len(xs) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def run_ladder(
    game: str,
    levels: list[str],
    games: int,
    seed: int = 0,
    options: list[str] | None = None,
    players: int | None = None,
    jobs: int = 1,
    on_progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Play the round robin (`games` per pair, rounded up to whole deals of two rotations) and summarise it."""
    sweep = make_sweep(game, "tournament", levels, games, seed, options, players=players)
    units = [(u.variant, u.pair, u.deal, u.rotation) for u in plan_units(sweep)]
    sj = sweep.to_json()
    results: list[UnitResult] = []
    t0 = time.perf_counter()
    load0 = os.getloadavg()
    if jobs <= 1:
        for i, u in enumerate(units):
            results.extend(play_timed(sj, [u]))
            if on_progress:
                on_progress(i + 1, len(units))
    else:
        size = max(1, min(8, len(units) // (jobs * 4)))
        tasks = [units[i : i + size] for i in range(0, len(units), size)]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for batch in pool.map(play_timed, [sj] * len(tasks), tasks):
                results.extend(batch)
                if on_progress:
                    on_progress(len(results), len(units))
    summary = summarise(sweep, results)
    summary["wall_seconds"] = round(time.perf_counter() - t0, 2)
    summary["load"] = {"before": [round(x, 2) for x in load0], "after": [round(x, 2) for x in os.getloadavg()],
                       "cpus": os.cpu_count(), "jobs": jobs}
    return summary


def summarise(sweep: Sweep, results: list[UnitResult]) -> dict[str, Any]:
    """The Elo fit, pairwise win rates and costs of a ladder's games."""
    k = len(sweep.bots)
    fit_games = []
    groups = []
    for r in results:
        a, b = sweep.pairs[r.pair]
        share = r.credit_a + r.credit_b
        score = r.credit_a / share if share > 0 else 0.5  # an unfinished game without winners: a draw
        fit_games.append((a, b, score, 1.0 if r.rotation == 0 else -1.0))
        groups.append((r.pair, r.deal))
    fit = stats.bradley_terry(fit_games, k, groups=groups)
    pairs = []
    for p, (a, b) in enumerate(sweep.pairs):
        rs = [r for r in results if r.pair == p]
        pairs.append({
            "a": sweep.bots[a], "b": sweep.bots[b], "games": len(rs),
            # a's share of the win in each game (a game nobody won counts half each), its interval widened by
            # the clustering of the games by deal, as the lab's rates are
            "a_rate": stats.rate_of([r.credit_a + (1.0 - r.credit_a - r.credit_b) / 2 for r in rs],
                                    [r.deal for r in rs]),
            "identical_rotations": identical_rotations(rs),
        })
    levels = []
    for i, bot in enumerate(sweep.bots):
        wall = [t for r in results for t in r.wall.get(i, [])]
        cpu = [r.cpu[i] for r in results if i in r.cpu]
        each = [t for r in results for t in r.cpu_each.get(i, [])]
        levels.append({
            "level": bot, "elo": fit["elo"][i], "low": fit["low"][i], "high": fit["high"][i],
            "games": sum(1 for r in results if i in sweep.pairs[r.pair]),
            "decisions": len(wall),
            "decision_median_s": quantile(wall, 0.5), "decision_p90_s": quantile(wall, 0.9),
            "decision_cpu_median_s": quantile(each, 0.5), "decision_cpu_p90_s": quantile(each, 0.9),
            "cpu_per_game_s": sum(cpu) / len(cpu) if cpu else None,
        })
    return {
        "game": sweep.game, "levels": levels, "pairs": pairs, "seat_elo": fit["seat"], "anchor": sweep.bots[0],
        "games": len(results), "seed": sweep.seed, "options": sweep.base, "players": sweep.players,
        "digests": sorted(r.digest for r in results),
    }


def identical_rotations(rs: list[UnitResult]) -> float | None:
    """The share of deals whose two seat rotations ended in the same state (the bots played the same game
    with the seats swapped: near-deterministic play); None without complete deals."""
    by_deal: dict[int, dict[int, str]] = {}
    for r in rs:
        by_deal.setdefault(r.deal, {})[r.rotation] = r.digest
    full = [d for d in by_deal.values() if len(d) == 2]
    return sum(1 for d in full if d[0] == d[1]) / len(full) if full else None
