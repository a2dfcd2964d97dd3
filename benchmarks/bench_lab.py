"""Lab throughput: games/s of the same sweep with 1 and 2 worker processes, and on a Dask LocalCluster of 1 and
2 workers (the scaling of each), search-bot games/s on 1 and 2 processes with what an hour on 2 cores buys, and
MCTS simulations per second.

Run: python benchmarks/bench_lab.py [--games 200] [--mcts-moves 30] [--no-dask] [--search-games 6] [--json]

The sweep: S.P.Q.RisiKo! (4 players, random deal, 60-round cap) random vs random and greedy vs greedy, and
Polis greedy vs greedy and greedy vs random, through the full lab path (measures, JSONL records written by
the workers, summary, report); the full-share cases (random S.P.Q.RisiKo!, greedy Polis) are repeated on a Dask
LocalCluster of 1 and 2 workers (`--no-dask` skips it). A LocalCluster takes seconds to start and to close,
which a short sweep would count as play: the lab times play from the cluster being up to the last game merged
(`wall_seconds`; the start is `backend_start_seconds` of the summary, printed in the last column). `--search-games N` plays N games per variant of each search-bot case (`SEARCH_CASES`) on
1 and 2 processes and says what an hour on 2 cores buys. Besides wall-clock rates it prints the parent's CPU
time: the workers write their own records, so the parent's share stays small and 2 processes are bounded
only by the idle cores. The machine's load average is printed with the figures: on a shared machine the
2-process scaling is bounded by it, so measure on a quiet machine."""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from hegemon.ai import GreedyBot, MctsBot
from hegemon.core.game import CHANCE, TERMINAL
from hegemon.core.play import sample_chance
from hegemon.games import get_game
from hegemon.lab.run import make_sweep, run_sweep

CASES = [
    (
        "spqrisiko",
        "random,random",
        5.0,
    ),  # ~130 games/s a core: 5x the games, so the pool's start does not dominate
    ("spqrisiko", "greedy,greedy", 0.1),
    ("polis", "greedy,greedy", 1.0),
    ("polis", "greedy,random", 1.0),
]
# search bots: few games, long ones (what a designer's sweep with real opponents costs): the pairs of the lab
# README's planning table (the same search bot on both sides measures a rule; a search bot against greedy
# measures the bots)
SEARCH_CASES = [
    ("polis", "mcts:normal,mcts:normal"),  # the tree search at 40 iterations (mcts:easy until session 21)
    ("polis", "mcts:hard,mcts:hard"),  # the tree over full playouts (the rollout search until session 31)
    ("polis", "mcts:normal,greedy"),
    ("spqrisiko", "mcts:10,mcts:10"),
    ("spqrisiko", "mcts:normal,greedy"),
]


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _self_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def throughput(game: str, bots: str, games: int, jobs: int, dask: str | None = None) -> dict[str, Any]:
    """One sweep through the full lab path. `play_games_per_second` is the play phase (the workers' games
    and the parent's merging); `seconds` adds the summary, tables and HTML report written once at the end.
    `parent_cpu` is the parent's CPU over the play phase and summary; with local processes `worker_cpu` is
    the workers' (reaped children's) CPU."""
    out = Path(tempfile.mkdtemp(prefix="bench-lab-"))
    try:
        sweep = make_sweep(game, "compare", bots.split(","), games, seed=7)
        c0, s0 = _children_cpu(), _self_cpu()
        t0 = time.perf_counter()
        summary = run_sweep(sweep, out, jobs=jobs, dask=dask)
        wall = time.perf_counter() - t0
        parent, children = _self_cpu() - s0, _children_cpu() - c0
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return {
        "game": game,
        "bots": bots,
        "jobs": jobs,
        "dask": dask,
        "games": summary["games"],
        "seconds": round(wall, 2),
        "play_seconds": summary["wall_seconds"],
        "play_games_per_second": summary["games_per_second"],
        "backend_start": summary["backend_start_seconds"],
        "games_per_second": round(summary["games"] / wall, 2),
        "parent_cpu": round(parent, 2),
        "worker_cpu": round(children, 2),
    }


def scaling(game: str, bots: str, games: int, dask: str | None = None) -> dict[str, Any]:
    one = throughput(game, bots, games, 1, dask)
    two = throughput(game, bots, games, 2, dask)
    return {
        "game": game,
        "bots": bots,
        "backend": "dask local" if dask else "processes",
        "games": one["games"],
        "one": one,
        "two": two,
        "play_scaling": round(two["play_games_per_second"] / one["play_games_per_second"], 2),
        "scaling": round(two["games_per_second"] / one["games_per_second"], 2),
    }


def mcts_rate(game: str, moves: int, iterations: int) -> dict[str, Any]:
    """Iterations and simulated atomic actions per second of an MCTS bot over positions of a greedy game."""
    g = get_game(game)
    opts = g.parse_options({"random_deal": "true", "max_rounds": "60"} if game == "spqrisiko" else {})
    st = g.new_game(opts, 3)
    rng = random.Random(3)
    greedy = GreedyBot(1)
    bot = MctsBot(seed=2, iterations=iterations, time_limit=None)
    it = sims = 0
    spent = 0.0
    done = 0
    while done < moves and st.current_player() != TERMINAL:
        p = st.current_player()
        if p == CHANCE:
            st.apply(sample_chance(st, rng))
            continue
        if len(st.legal_actions()) > 2:
            t0 = time.perf_counter()
            a = bot.choose(st, p)
            spent += time.perf_counter() - t0
            it += bot.last_iterations
            sims += bot.last_simulated
            done += 1
        else:
            a = greedy.choose(st, p)
        st.apply(a)
    return {
        "game": game,
        "iterations_per_move": iterations,
        "moves": done,
        "iterations_per_second": round(it / spent, 1),
        "simulated_actions_per_second": round(sims / spent, 1),
        "seconds_per_move": round(spent / max(1, done), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games per throughput case (scaled per case)")
    parser.add_argument("--mcts-moves", type=int, default=30)
    parser.add_argument("--no-dask", action="store_true", help="skip the Dask LocalCluster path")
    parser.add_argument(
        "--search-games",
        type=int,
        default=0,
        help="games per search-bot case (0: skip; each game costs seconds to minutes)",
    )
    parser.add_argument(
        "--search-only",
        default="",
        help="search cases to run, as game:bots separated by ';' (default: all of SEARCH_CASES)",
    )
    parser.add_argument("--only", choices=["polis", "spqrisiko"], default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for game, bots, share in CASES:
        if args.only and game != args.only:
            continue
        n = max(8, int(args.games * share))
        rows.append(scaling(game, bots, n))
        if not args.no_dask and share >= 1.0:
            rows.append(scaling(game, bots, n, "local"))
    search = []
    picked = {x.strip() for x in args.search_only.split(";") if x.strip()}
    if args.search_games:
        for game, bots in SEARCH_CASES:
            if (args.only and game != args.only) or (picked and f"{game}:{bots}" not in picked):
                continue
            r = scaling(game, bots, args.search_games)
            r["games_per_hour_2_cores"] = round(3600 * r["two"]["play_games_per_second"])
            # one process plays in the parent: its CPU per game (the summary and report included, small here)
            r["cpu_seconds_per_game"] = round(r["one"]["parent_cpu"] / max(1, r["one"]["games"]), 3)
            search.append(r)
    mcts = [
        mcts_rate(g, args.mcts_moves, 150) for g in ("spqrisiko", "polis") if not args.only or g == args.only
    ]
    result = {
        "cpus": os.cpu_count(),
        "load_average": os.getloadavg(),
        "throughput": rows,
        "search": search,
        "mcts": mcts,
    }
    if args.json:
        print(json.dumps(result))
        return
    print(f"cpus {result['cpus']}, load average (1, 5, 15 min) at the end {result['load_average']}")
    print(
        "g/s: games per second of play, from the backend being ready (a Dask LocalCluster's start, shown "
        "last, is left out) to the last game merged; end-to-end: the whole command, summary and report included"
    )
    print(
        f"{'game':10} {'bots':19} {'backend':10} {'games':>5} {'1 job g/s':>10} {'2 jobs g/s':>11} "
        f"{'play scaling':>12} {'end-to-end':>10} {'parent CPU 1/2':>15} {'worker CPU 2':>12} {'start 1/2':>10}"
    )
    for r in rows + search:
        one, two = r["one"], r["two"]
        print(
            f"{r['game']:10} {r['bots']:19} {r['backend']:10} {r['games']:5d} {one['play_games_per_second']:10.2f} "
            f"{two['play_games_per_second']:11.2f} {r['play_scaling']:11.2f}x {r['scaling']:9.2f}x "
            f"{one['parent_cpu']:7.1f}/{two['parent_cpu']:<7.1f} {two['worker_cpu']:11.1f}s "
            f"{one['backend_start']:4.1f}/{two['backend_start']:<4.1f}s"
        )
    for r in search:
        print(
            f"search bots {r['game']} {r['bots']}: {r['one']['play_games_per_second']:.3f} games/s on 1 process, "
            f"{r['two']['play_games_per_second']:.3f} on 2 ({r['play_scaling']:.2f}x); an hour on 2 cores buys about "
            f"{r['games_per_hour_2_cores']} games ({r['cpu_seconds_per_game']:.2f} CPU-s a game on 1 process)"
        )
    for m in mcts:
        print(
            f"mcts {m['game']:10} {m['iterations_per_second']:8.1f} iterations/s, "
            f"{m['simulated_actions_per_second']:9.1f} simulated actions/s, {m['seconds_per_move']:.3f} s/move "
            f"at {m['iterations_per_move']} iterations"
        )


if __name__ == "__main__":
    main()
