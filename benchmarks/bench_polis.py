#!/usr/bin/env python3
"""Polis throughput: uniform-random full games with `core.play.playout`, per siege rule.

Prints games/s, atomic actions/s (per CPU second of this process, i.e. per core) and the mean game length
for each siege rule.
Uniform-random games mostly end early (a random side soon runs out of prestige or wheat); `--rich` tops up
both sides' resources and prestige at the start of every turn, so games run all four rounds with battles and
long sieges — a stress test of the late-game code paths, not a legal game.
Usage: python benchmarks/bench_polis.py [--games N] [--seconds S] [--rich] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from hegemon.core.play import playout
from hegemon.games.polis.game import GAME
from hegemon.games.polis.options import SIEGE_RULES


def _top_up(state: Any, action: Any) -> None:
    if state.phase == 0 and state.n_actions == 0:
        for s in (0, 1):
            state.res[s] = [max(x, 6) for x in state.res[s]]
            state.pp[s] = max(state.pp[s], 6)


def bench(siege: str, games: int, seconds: float, rich: bool = False) -> dict[str, Any]:
    opts = GAME.parse_options({"siege": siege})
    rng = random.Random(12345)
    n_games = n_actions = 0
    t0 = time.perf_counter()
    c0 = time.process_time()
    while n_games < games or time.perf_counter() - t0 < seconds:
        state = GAME.new_game(opts, n_games)
        n_actions += playout(state, rng, on_action=_top_up if rich else None)
        n_games += 1
        if n_games >= games and time.perf_counter() - t0 >= seconds:
            break
    # CPU time of this process: the rate per core, not disturbed by other processes on the machine
    dt = time.process_time() - c0
    return {
        "siege": siege,
        "games": n_games,
        "cpu_seconds": round(dt, 3),
        "wall_seconds": round(time.perf_counter() - t0, 3),
        "games_per_s": round(n_games / dt, 1),
        "actions_per_s": round(n_actions / dt),
        "mean_length": round(n_actions / n_games, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--rich", action="store_true", help="top up resources every turn (long games)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = [bench(s, args.games, args.seconds, args.rich) for s in SIEGE_RULES]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'siege':20} {'games':>7} {'games/s':>9} {'actions/s':>10} {'mean length':>12}")
    for r in rows:
        print(
            f"{r['siege']:20} {r['games']:>7} {r['games_per_s']:>9} {r['actions_per_s']:>10} {r['mean_length']:>12}"
        )


if __name__ == "__main__":
    main()
