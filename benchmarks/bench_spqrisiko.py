"""S.P.Q.RisiKo! engine throughput: uniform-random playouts (games/s, atomic actions/s, mean game length) for
3, 4 and 5 players under both rule sets, one process, plus the exact-odds 30x30 table time. Each rate is given
per wall second and per CPU second of this process (the machine may be shared: CPU seconds vary less).

    python benchmarks/bench_spqrisiko.py [--games N] [--pyrisk DIR]

pyrisk side by side (issue 15): pyrisk cannot be downloaded by this script. If a checkout of
https://github.com/chronitis/pyrisk is present (`--pyrisk DIR` or the environment variable PYRISK_DIR), the
same run also plays StupidAI x4 games of pyrisk without display, interleaved game by game with our house-1.2
4-player playouts (so both see the same machine load), and prints both rates and their ratio. The grains
differ: pyrisk counts one event per claim, placement, reinforcement, attack and move (a whole attack with all
its rolls is one event), where our engine counts each dice choice and each roll. Without a checkout that part
is skipped and says so; no peer figure is ever printed that this run did not measure.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import sys
import time
from pathlib import Path

from hegemon.core.play import playout
from hegemon.games import get_game
from hegemon.games.spqrisiko import odds


def bench(rules: str, players: int, games: int) -> tuple[float, float, float, float]:
    """(games/s, actions/s wall, actions/s CPU, actions per game)."""
    g = get_game("spqrisiko")
    opts = g.parse_options(
        {**g.selfplay_defaults, "rules": rules, "players": players}
    )  # as `hegemon selfplay`
    total = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for seed in range(games):
        state = g.new_game(opts, seed)
        total += playout(state, random.Random(seed))
        assert state.is_terminal()
    dt, dc = time.perf_counter() - t0, time.process_time() - c0
    return games / dt, total / dt, total / dc, total / games


def pyrisk_game(path: Path, seed: int) -> int:
    """One StupidAI x4 pyrisk game from a checkout at `path` (no display), seeded: its events."""
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))
    from ai.stupid import StupidAI  # type: ignore[import-not-found]  # pyrisk's own module, from its checkout
    from game import Game  # type: ignore[import-not-found]  # pyrisk's own module, from its checkout

    events = 0

    def count(*args: object, **kwargs: object) -> None:
        nonlocal events
        events += 1

    random.seed(seed)
    game = Game(curses=False, color=False, delay=0, wait=False)
    game.event = count  # no display, no logging: count pyrisk's events instead
    for name in ("ALPHA", "BETA", "GAMMA", "DELTA"):
        game.add_player(name, StupidAI)
    with contextlib.redirect_stdout(io.StringIO()):
        game.play()
    return events


def side_by_side(path: Path, games: int) -> None:
    """Our house-1.2 4-player playouts and pyrisk's StupidAI x4 games, alternating game by game."""
    try:
        pyrisk_game(path, 0)  # imports pyrisk and warms it up
    except ImportError as e:
        print(f"pyrisk: cannot import game/ai.stupid from {path} ({e}): not compared")
        return
    g = get_game("spqrisiko")
    opts = g.parse_options({**g.selfplay_defaults, "rules": "house-1.2", "players": 4})
    ours = theirs = 0
    cpu_ours = cpu_theirs = 0.0
    for seed in range(games):
        c0 = time.process_time()
        state = g.new_game(opts, seed)
        ours += playout(state, random.Random(seed))
        c1 = time.process_time()
        theirs += pyrisk_game(path, seed)
        c2 = time.process_time()
        cpu_ours += c1 - c0
        cpu_theirs += c2 - c1
    a, b = ours / cpu_ours, theirs / cpu_theirs
    print(f"side by side, interleaved, {games} games each, CPU seconds of this process:")
    print(
        f"  hegemon house-1.2 x4: {a:>11,.0f} actions/CPU-s ({games / cpu_ours:.1f} games/CPU-s; our grain)"
    )
    print(
        f"  pyrisk StupidAI x4:   {b:>11,.0f} events/CPU-s  ({games / cpu_theirs:.1f} games/CPU-s; pyrisk's grain)"
    )
    print(f"  ratio: hegemon {a / b:.2f}x pyrisk per CPU second, each at its own grain")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument(
        "--pyrisk", default=os.environ.get("PYRISK_DIR"), help="a pyrisk checkout (or PYRISK_DIR)"
    )
    args = ap.parse_args()
    print(f"S.P.Q.RisiKo! uniform-random playouts, {args.games} games each, 1 process")
    print(
        f"{'rules':<10} {'players':>7} {'games/s':>9} {'actions/s':>11} {'act/CPU-s':>11} {'actions/game':>13}"
    )
    for rules in ("house-1.2", "official"):
        for players in (3, 4, 5):
            gps, aps, cps, length = bench(rules, players, args.games)
            print(f"{rules:<10} {players:>7} {gps:>9.1f} {aps:>11,.0f} {cps:>11,.0f} {length:>13.0f}")
    if args.pyrisk and Path(args.pyrisk, "game.py").is_file():
        side_by_side(Path(args.pyrisk), args.games)
    else:
        print("pyrisk: no checkout (set PYRISK_DIR or --pyrisk to a clone of chronitis/pyrisk): not compared")
    for kind in ("land", "sea", "naval"):
        odds._win_grid.cache_clear()
        t0 = time.perf_counter()
        odds.win_table(30, 30, kind=kind)
        print(f"exact odds, full 30x30 {kind} table: {1000 * (time.perf_counter() - t0):.1f} ms")


if __name__ == "__main__":
    main()
