#!/usr/bin/env python3
"""Polis throughput: uniform-random full games with `core.play.playout`, per siege rule.

Prints games/s, atomic actions/s and the mean game length for each siege rule (one core).
Usage: python benchmarks/bench_polis.py [--games N] [--seconds S] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time

from hegemon.core.play import playout
from hegemon.games.polis.game import GAME
from hegemon.games.polis.options import SIEGE_RULES


def bench(siege: str, games: int, seconds: float) -> dict[str, float]:
    opts = GAME.parse_options({"siege": siege})
    rng = random.Random(12345)
    n_games = n_actions = 0
    t0 = time.perf_counter()
    while n_games < games or time.perf_counter() - t0 < seconds:
        state = GAME.new_game(opts, n_games)
        n_actions += playout(state, rng)
        n_games += 1
        if n_games >= games and time.perf_counter() - t0 >= seconds:
            break
    dt = time.perf_counter() - t0
    return {
        "siege": siege,  # type: ignore[dict-item]
        "games": n_games,
        "seconds": round(dt, 3),
        "games_per_s": round(n_games / dt, 1),
        "actions_per_s": round(n_actions / dt),
        "mean_length": round(n_actions / n_games, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = [bench(s, args.games, args.seconds) for s in SIEGE_RULES]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'siege':20} {'games':>7} {'games/s':>9} {'actions/s':>10} {'mean length':>12}")
    for r in rows:
        print(f"{r['siege']:20} {r['games']:>7} {r['games_per_s']:>9} {r['actions_per_s']:>10} {r['mean_length']:>12}")


if __name__ == "__main__":
    main()
