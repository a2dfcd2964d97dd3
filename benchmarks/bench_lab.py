"""Lab throughput: games/s of the same sweep with 1 and 2 worker processes (and the scaling), and MCTS
simulations per second.

Run: python benchmarks/bench_lab.py [--games 200] [--mcts-moves 30] [--json]

The sweep: S.P.Q.RisiKo! (4 players, random deal, 60-round cap) random vs random and greedy vs greedy, and
Polis greedy vs random, through the full lab path (measures, JSONL records, summary). The machine's load
average is printed with the figures: on a shared machine the 2-process scaling is bounded by the idle cores."""

from __future__ import annotations

import argparse
import json
import os
import random
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
    ("spqrisiko", "random,random", 1.0),
    ("spqrisiko", "greedy,greedy", 0.1),
    ("polis", "greedy,random", 1.0),
]


def throughput(game: str, bots: str, games: int, jobs: int) -> dict[str, Any]:
    out = Path(tempfile.mkdtemp(prefix="bench-lab-"))
    try:
        sweep = make_sweep(game, "compare", bots.split(","), games, seed=7)
        t0 = time.perf_counter()
        summary = run_sweep(sweep, out, jobs=jobs)
        wall = time.perf_counter() - t0
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return {"game": game, "bots": bots, "jobs": jobs, "games": summary["games"], "seconds": round(wall, 2),
            "games_per_second": round(summary["games"] / wall, 2)}


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
    return {"game": game, "iterations_per_move": iterations, "moves": done,
            "iterations_per_second": round(it / spent, 1), "simulated_actions_per_second": round(sims / spent, 1),
            "seconds_per_move": round(spent / max(1, done), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games per throughput case (scaled per case)")
    parser.add_argument("--mcts-moves", type=int, default=30)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for game, bots, share in CASES:
        n = max(8, int(args.games * share))
        one = throughput(game, bots, n, 1)
        two = throughput(game, bots, n, 2)
        rows.append({**one, "games_per_second_2_jobs": two["games_per_second"],
                     "scaling": round(two["games_per_second"] / one["games_per_second"], 2)})
    mcts = [mcts_rate("spqrisiko", args.mcts_moves, 150), mcts_rate("polis", args.mcts_moves, 150)]
    result = {"cpus": os.cpu_count(), "load_average": os.getloadavg(), "throughput": rows, "mcts": mcts}
    if args.json:
        print(json.dumps(result))
        return
    print(f"cpus {result['cpus']}, load average (1, 5, 15 min) at the end {result['load_average']}")
    print(f"{'game':10} {'bots':15} {'games':>6} {'1 job g/s':>10} {'2 jobs g/s':>11} {'scaling':>8}")
    for r in rows:
        print(f"{r['game']:10} {r['bots']:15} {r['games']:6d} {r['games_per_second']:10.2f} "
              f"{r['games_per_second_2_jobs']:11.2f} {r['scaling']:7.2f}x")
    for m in mcts:
        print(f"mcts {m['game']:10} {m['iterations_per_second']:8.1f} iterations/s, "
              f"{m['simulated_actions_per_second']:9.1f} simulated actions/s, {m['seconds_per_move']:.3f} s/move "
              f"at {m['iterations_per_move']} iterations")


if __name__ == "__main__":
    main()
