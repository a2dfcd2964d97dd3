"""A ladder of bot levels: a round robin (a lab tournament: every pair on the same deals, both seat rotations;
S.P.Q.RisiKo! with 4 players, the pair's bots on alternating seats, two each, scored as `hegemon lab
tournament` scores it: the share of the win its seats hold), a Bradley-Terry (Elo) fit with 95% intervals
(`hegemon.lab.stats.bradley_terry`: a logistic regression with a seat term, intervals cluster-robust over the
two rotations of a deal), pairwise win rates with Wilson intervals, and what each level costs: wall seconds per
decision with a choice (median, p90; wall clock, then CPU: on a loaded machine the wall times stretch) and CPU
seconds per game (all of that level's decisions in one game).

Run: python benchmarks/bench_ladder.py [--game polis] [--levels greedy,mcts:40,mcts:160,mcts:640,mcts:2560]
        [--games 20] [--seed 1] [--jobs 1] [--option siege=classic] [--players 4] [--chain] [--out DIR] [--json]
     python benchmarks/bench_ladder.py --game spqrisiko --levels greedy,mcts:normal --games 4 --option rules=official

`--chain` plays each level against the next only (a curve of thinking budgets, weakest first: the pairs far
apart, the costliest, are left out and the Elo fit links the levels through the chain). `--out DIR` keeps every
game there as it ends (a stopped run, started again with the same arguments, resumes) and writes the summary to
DIR/ladder.json.

Levels are bot specs (`hegemon.ai`); `mcts:N` is N iterations a move, `mcts:N@S` also caps it at S seconds, but
the lab clears time caps (iteration budgets only, so every game reproduces on any machine). The same seed plays
the same games as `hegemon lab tournament GAME --bots LEVELS --games G --seed S` (and the game digests are in
the JSON). Elo is relative to the first level. Timings are of this machine under its load, printed beside them
(load average and CPUs before and after); with --jobs N the decisions of N games run side by side.
Cost (compiled engine): a Polis game of mcts:640 against mcts:2560 takes about 5.5 CPU seconds (1.4 + 4.1),
one of greedy against mcts:40 about 0.06; S.P.Q.RisiKo! games take minutes each at mcts:normal and above."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from hegemon.lab.ladder import run_ladder


def fmt_ms(s: float | None) -> str:
    return "-" if s is None else f"{s * 1000:.1f}"


def table(summary: dict[str, Any]) -> str:
    lines = []
    load = summary["load"]
    lines.append(
        f"{summary['game']}  options {summary['options'] or 'default'}  {summary['design']}, "
        f"{summary['games']} games, seed "
        f"{summary['seed']}, {summary['wall_seconds']} s wall; load average {load['before'][0]} -> "
        f"{load['after'][0]} on {load['cpus']} CPUs, {load['jobs']} jobs"
    )
    lines.append(
        f"Elo relative to {summary['anchor']} (95% interval), seat 0's edge "
        + (
            "-"
            if summary["seat_elo"] is None
            else f"{summary['seat_elo']['elo']:+.0f} [{summary['seat_elo']['low']:+.0f}, "
            f"{summary['seat_elo']['high']:+.0f}]"
        )
    )
    lines.append(
        f"{'level':<16} {'Elo':>6} {'95% interval':>15} {'games':>6} {'decisions':>9} "
        f"{'median ms':>9} {'p90 ms':>8} {'CPU med':>8} {'CPU p90':>8} {'CPU s/game':>10}"
    )
    for lv in summary["levels"]:
        iv = "anchor" if lv["level"] == summary["anchor"] else f"[{lv['low']:+.0f}, {lv['high']:+.0f}]"
        cpu = "-" if lv["cpu_per_game_s"] is None else f"{lv['cpu_per_game_s']:.2f}"
        lines.append(
            f"{lv['level']:<16} {lv['elo']:>+6.0f} {iv:>15} {lv['games']:>6} {lv['decisions']:>9} "
            f"{fmt_ms(lv['decision_median_s']):>9} {fmt_ms(lv['decision_p90_s']):>8} "
            f"{fmt_ms(lv['decision_cpu_median_s']):>8} {fmt_ms(lv['decision_cpu_p90_s']):>8} {cpu:>10}"
        )
    lines.append("")
    lines.append(
        f"{'pair':<34} {'games':>6} {'A wins':>7} {'95% interval':>16} {'same game both rotations':>25}"
    )
    for p in summary["pairs"]:
        r = p["a_rate"]
        same = "-" if p["identical_rotations"] is None else f"{100 * p['identical_rotations']:.0f}%"
        lines.append(
            f"{p['a'] + ' vs ' + p['b']:<34} {p['games']:>6} {100 * r['rate']:>6.1f}% "
            f"[{100 * r['low']:5.1f}, {100 * r['high']:5.1f}] {same:>25}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--game", default="polis")
    ap.add_argument(
        "--levels",
        default="greedy,mcts:40,mcts:160,mcts:640,mcts:2560",
        help="comma-separated bot specs, the Elo anchor first",
    )
    ap.add_argument("--games", type=int, default=20, help="games per pair (rounded up to an even number)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="processes (one game each at a time)")
    ap.add_argument("--option", action="append", default=[], help="a rule option key=value (repeatable)")
    ap.add_argument(
        "--players",
        type=int,
        default=None,
        help="players a game (S.P.Q.RisiKo!: 4 unless given; the levels alternate over the seats)",
    )
    ap.add_argument("--chain", action="store_true", help="each level against the next only (a budget curve)")
    ap.add_argument("--out", type=Path, default=None, help="keep the games (resumable) and ladder.json here")
    ap.add_argument("--json", action="store_true", help="print the summary as JSON instead of the table")
    args = ap.parse_args(argv)
    levels = [s.strip() for s in args.levels.split(",") if s.strip()]
    players = args.players if args.players is not None else (4 if args.game.startswith("spq") else None)

    def progress(done: int, total: int) -> None:
        print(f"\r{done}/{total} games", end="", file=sys.stderr, flush=True)

    summary = run_ladder(
        args.game,
        levels,
        args.games,
        seed=args.seed,
        options=args.option,
        players=players,
        jobs=args.jobs,
        on_progress=None if args.json else progress,
        chain=args.chain,
        store=args.out,
    )
    if args.out is not None:
        (args.out / "ladder.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    if not args.json:
        print(file=sys.stderr)
    print(json.dumps(summary, indent=1) if args.json else table(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
