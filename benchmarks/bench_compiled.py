"""The compiled engine (mypyc, setup.py) against the pure-Python one: uniform-random playouts of both games, the
same seeded games in each, each engine in a process of its own (HEGEMON_PURE=1 for the pure one). Prints
atomic actions per CPU second of each and the ratio.

    python benchmarks/bench_compiled.py [--games N] [--polis-games N]

The compiled figures need the build (`pip install -e .`, or `make install`); without it, or when it is stale,
the "compiled" process runs pure Python too and the script says so.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from typing import Any

CASES = [
    ("spqrisiko", {"rules": "house-1.2", "players": 4}),
    ("spqrisiko", {"rules": "official", "players": 4}),
    ("polis", {"siege": "classic"}),
    ("polis", {"siege": "diceless_sacrifice"}),
]

WORKER = """
import importlib, json, random, sys, time
from hegemon import _native
from hegemon.core.play import playout
from hegemon.games import get_game

cases, games, polis_games = json.loads(sys.argv[1])
out = {"compiled": all(_native.is_compiled(importlib.import_module(m)) for m in _native.NATIVE), "rates": []}
for name, raw in cases:
    g = get_game(name)
    opts = g.parse_options({**g.selfplay_defaults, **raw})
    n = games if name == "spqrisiko" else polis_games
    total = 0
    c0 = time.process_time()
    for seed in range(n):
        state = g.new_game(opts, seed)
        total += playout(state, random.Random(seed))
    out["rates"].append([total, time.process_time() - c0])
print(json.dumps(out))
"""


def run(pure: bool, games: int, polis_games: int) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != "HEGEMON_PURE"}
    if pure:
        env["HEGEMON_PURE"] = "1"
    proc = subprocess.run(
        [sys.executable, "-c", WORKER, json.dumps([CASES, games, polis_games])],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"the {'pure' if pure else 'compiled'} run failed:\n{proc.stderr}")
    if proc.stderr.strip():
        print(proc.stderr.strip(), file=sys.stderr)
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="S.P.Q.RisiKo! games per case")
    ap.add_argument("--polis-games", type=int, default=300, help="Polis games per case")
    args = ap.parse_args()
    pure = run(True, args.games, args.polis_games)
    native = run(False, args.games, args.polis_games)
    if not native["compiled"]:
        print(
            "note: the compiled engine is not built or is stale here: both columns are pure Python "
            "(build it with `pip install -e .`)"
        )
    print(
        f"uniform-random playouts, atomic actions per CPU second, {args.games} S.P.Q.RisiKo! / "
        f"{args.polis_games} Polis games per case, one process each"
    )
    print(f"{'game':<10} {'options':<28} {'pure':>10} {'compiled':>10} {'ratio':>6}")
    for (name, raw), (pn, pt), (cn, ct) in zip(CASES, pure["rates"], native["rates"], strict=True):
        assert pn == cn, f"{name} {raw}: the two engines played different games ({pn} != {cn} actions)"
        p, c = pn / pt, cn / ct
        opts = " ".join(f"{k}={v}" for k, v in raw.items())
        print(f"{name:<10} {opts:<28} {p:>10,.0f} {c:>10,.0f} {c / p:>5.2f}x")


if __name__ == "__main__":
    main()
