"""S.P.Q.RisiKo! search speed at a fixed budget (issue 15): CPU seconds per searched decision of a search bot
(default mcts:400, `mcts:hard` when its figures were recorded; the named levels are 5, 12 and 160 iterations
now) from the same positions — 4 players, house rules, two rounds of random play after set-up, then every seat
searches — and a digest of the decisions taken. Two versions of the code
give the same digest when they decide alike (then the strength is the same at the same budget), and their
times compare directly.

    python benchmarks/bench_search_spqr.py [--bot mcts:400] [--seeds 1,2,3] [--decisions 40]
    PYTHONPATH=<other checkout>/src python benchmarks/bench_search_spqr.py    # the same on other code
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time

from hegemon.ai import make_bot
from hegemon.core.game import CHANCE, TERMINAL
from hegemon.core.play import sample_chance
from hegemon.games import get_game


def run(spec: str, seed: int, decisions: int) -> tuple[list[float], list[str]]:
    """(CPU seconds of each searched decision, the decisions as text) from seed's position."""
    g = get_game("spqrisiko")
    st = g.new_game(g.parse_options({"players": 4}), seed)
    rng = random.Random(seed)
    while st.round < 3:  # set-up and two rounds at random
        if st.current_player() == CHANCE:
            st.apply(sample_chance(st, rng))
        else:
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
    bots = [make_bot(spec, 100 + i) for i in range(4)]
    times: list[float] = []
    chosen: list[str] = []
    while st.current_player() != TERMINAL and len(times) < decisions:
        p = st.current_player()
        if p == CHANCE:
            a = sample_chance(st, rng)
        else:
            legal = st.legal_actions()
            if len(legal) == 1:
                a = legal[0]
            else:
                t0 = time.process_time()
                a = bots[p].choose(st, p)
                times.append(time.process_time() - t0)
                chosen.append(str(a))
        st.apply(a)
    return times, chosen


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bot", default="mcts:400")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--decisions", type=int, default=40)
    args = ap.parse_args()
    print(f"{args.bot}: CPU seconds per searched decision ({args.decisions} decisions a position)")
    all_times: list[float] = []
    for seed in (int(s) for s in args.seeds.split(",")):
        times, chosen = run(args.bot, seed, args.decisions)
        all_times += times
        digest = hashlib.sha256(json.dumps(chosen).encode()).hexdigest()[:12]
        print(
            f"seed {seed}: mean {sum(times) / len(times):.3f} s, median {sorted(times)[len(times) // 2]:.3f} s, "
            f"decisions digest {digest}"
        )
    print(f"all: mean {sum(all_times) / len(all_times):.3f} s over {len(all_times)} decisions")


if __name__ == "__main__":
    main()
