"""Every benchmark, one after the other, each printing its figures (`make bench`).

    python benchmarks/run_all.py            # quick sizes (a few minutes): engines, odds, server, lab
    python benchmarks/run_all.py --full     # the sizes quoted in the docs, and the bot strength table (long)
    python benchmarks/run_all.py --only server,odds

Each benchmark is a script of its own in this folder with its own `--help`; this runner only chooses sizes."""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

# name -> (quick arguments, full arguments); None: skipped at that size
RUNS: dict[str, tuple[list[str] | None, list[str] | None]] = {
    "spqrisiko": (["--games", "10"], ["--games", "30"]),
    "polis": (["--games", "100"], ["--games", "200"]),
    "compiled": (["--games", "10", "--polis-games", "150"], ["--games", "30", "--polis-games", "300"]),
    "odds": ([], []),
    "boards": ([], []),
    "cli": (["--runs", "5"], ["--runs", "9"]),
    "server": (["--moves", "500", "--window", "3"], ["--moves", "2000", "--window", "5"]),
    "limits": (["--conns", "50"], ["--conns", "200"]),
    "odds_flood": (["--moves", "300"], ["--moves", "1000"]),
    "lab": (["--games", "100"], ["--games", "400", "--search-games", "6"]),
    "ladder": (["--levels", "greedy,mcts:40,mcts:160", "--games", "10"], ["--games", "40", "--jobs", "2"]),
    "ai": (None, []),
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--full", action="store_true", help="the documented sizes, with the bot strength table")
    ap.add_argument("--only", default="", help=f"comma-separated subset of: {', '.join(RUNS)}")
    args = ap.parse_args()
    only = {x.strip() for x in args.only.split(",") if x.strip()}
    unknown = only - set(RUNS)
    if unknown:
        ap.error(f"unknown benchmark(s): {', '.join(sorted(unknown))}")
    failed = []
    for name, (quick, full) in RUNS.items():
        extra = full if args.full else quick
        if (only and name not in only) or extra is None:
            continue
        cmd = [sys.executable, str(HERE / f"bench_{name}.py"), *extra]
        print(f"\n== {name}: {' '.join(cmd[1:])}", flush=True)
        t0 = time.perf_counter()
        rc = subprocess.call(cmd)
        print(
            f"== {name}: {'ok' if rc == 0 else f'FAILED ({rc})'} in {time.perf_counter() - t0:.0f} s",
            flush=True,
        )
        if rc:
            failed.append(name)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
