"""S.P.Q.RisiKo! engine throughput: uniform-random playouts (games/s, atomic actions/s, mean game length) for
3, 4 and 5 players under both rule sets, one process, plus the exact-odds 30x30 table time.

    python benchmarks/bench_spqrisiko.py [--games N]
"""

from __future__ import annotations

import argparse
import random
import time

from hegemon.core.play import playout
from hegemon.games import get_game
from hegemon.games.spqrisiko import odds


def bench(rules: str, players: int, games: int) -> tuple[float, float, float]:
    g = get_game("spqrisiko")
    opts = g.parse_options({"rules": rules, "players": players, "random_deal": True, "max_rounds": 60})
    total = 0
    t0 = time.perf_counter()
    for seed in range(games):
        state = g.new_game(opts, seed)
        total += playout(state, random.Random(seed))
        assert state.is_terminal()
    dt = time.perf_counter() - t0
    return games / dt, total / dt, total / games


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=30)
    args = ap.parse_args()
    print(f"S.P.Q.RisiKo! uniform-random playouts, {args.games} games each, 1 process")
    print(f"{'rules':<10} {'players':>7} {'games/s':>9} {'actions/s':>11} {'actions/game':>13}")
    for rules in ("house-1.2", "official"):
        for players in (3, 4, 5):
            gps, aps, length = bench(rules, players, args.games)
            print(f"{rules:<10} {players:>7} {gps:>9.1f} {aps:>11,.0f} {length:>13.0f}")
    for kind in ("land", "sea", "naval"):
        odds._win_grid.cache_clear()
        t0 = time.perf_counter()
        odds.win_table(30, 30, kind=kind)
        print(f"exact odds, full 30x30 {kind} table: {1000 * (time.perf_counter() - t0):.1f} ms")


if __name__ == "__main__":
    main()
