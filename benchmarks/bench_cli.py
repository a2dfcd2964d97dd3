"""CLI start-up: wall time of `hegemon --help`, a single odds query and a whole odds table, each a fresh
process (median and range of N runs; the issue-15 target is <= 0.3 s for the first two). Each runs as
`python -m hegemon ...`, the module behind the `hegemon` console command (a plain odds query is answered there
before typer loads); `hegemon.cli` directly (the typer app, every command) is shown for the single query.

    python benchmarks/bench_cli.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

COMMANDS = (
    ("python -c pass (interpreter only)", ["-c", "pass"]),
    ("hegemon --help", ["-m", "hegemon", "--help"]),
    ("hegemon odds spqrisiko 9 10", ["-m", "hegemon", "odds", "spqrisiko", "9", "10"]),
    ("hegemon odds spqrisiko 9 10 --json", ["-m", "hegemon", "odds", "spqrisiko", "9", "10", "--json"]),
    (
        "python -m hegemon.cli odds spqrisiko 9 10 (typer path)",
        ["-m", "hegemon.cli", "odds", "spqrisiko", "9", "10"],
    ),
    (
        "hegemon odds spqrisiko --table 30x30 --json",
        ["-m", "hegemon", "odds", "spqrisiko", "--table", "30x30", "--json"],
    ),
    (
        "hegemon odds spqrisiko --table 30x30 --sea --csv",
        ["-m", "hegemon", "odds", "spqrisiko", "--table", "30x30", "--sea", "--csv"],
    ),
)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    print(f"fresh-process wall time, {args.runs} runs each: median [min, max] seconds")
    for label, argv in COMMANDS:
        times = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, *argv], check=True, stdout=subprocess.DEVNULL)
            times.append(time.perf_counter() - t0)
        print(f"{label:<58} {statistics.median(times):6.3f} [{min(times):.3f}, {max(times):.3f}]")


if __name__ == "__main__":
    main()
