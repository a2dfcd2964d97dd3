"""Does a bigger Polis search budget change the move? A probe for issue 30 (docs/experiments/).

Collects action-phase positions (more than one legal action) from greedy-vs-greedy games, searches each with
`mcts:N` at every budget and two seeds, and prints per budget: how often its move equals the reference's (the
largest budget, seed 1), how often its two seeds agree with each other, the root's candidates and the share of
the visits on the chosen move, and the CPU per decision. If moves at 640 and 2560 iterations agree with each
other as often as two seeds at 2560 do, more thought cannot buy strength: the search has converged.

Run: python scripts/polis_budget_probe.py [--positions 40] [--budgets 40,160,640,2560] [--siege classic]
        [--set key=value ...]   (MctsBot arguments for every search, e.g. --set candidates=32)
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from hegemon.ai import make_bot
from hegemon.ai.mcts import MctsBot
from hegemon.core.game import CHANCE, TERMINAL
from hegemon.core.play import derive_seed, sample_chance
from hegemon.games import get_game
from hegemon.games.polis.rules import common


def positions(n: int, siege: str, seed: int) -> list[Any]:
    game = get_game("polis")
    opts = game.parse_options({"siege": siege})
    out: list[Any] = []
    g = 0
    rng = random.Random(seed)
    while len(out) < n:
        s = derive_seed("probe", seed, g)
        st: Any = game.new_game(opts, s)
        crng = random.Random(derive_seed("chance", s))
        bots = [make_bot("greedy", s + j) for j in (0, 1)]
        while True:
            p = st.current_player()
            if p == TERMINAL:
                break
            if p == CHANCE:
                st.apply(sample_chance(st, crng))
                continue
            if st.phase == common.ACTION and len(st.legal_actions()) > 1 and rng.random() < 0.15:
                out.append(st.clone())
            st.apply(bots[p].choose(st, p))
        g += 1
    return out[:n]


def parse_value(v: str) -> Any:
    for cast in (int, float):
        try:
            return cast(v)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(v.lower(), v)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--budgets", default="40,160,640,2560")
    ap.add_argument("--siege", default="classic")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--set", action="append", default=[], help="an MctsBot argument key=value (repeatable)")
    args = ap.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    extra = {k: parse_value(v) for k, _, v in (s.partition("=") for s in args.set)}
    pos = positions(args.positions, args.siege, args.seed)
    moves: dict[tuple[int, int], list[Any]] = {}
    stats: dict[int, dict[str, float]] = {
        b: {"cpu": 0.0, "share": 0.0, "cands": 0.0, "depth2": 0.0} for b in budgets
    }
    for b in budgets:
        for sd in (1, 2):
            ms = []
            for i, st in enumerate(pos):
                bot = MctsBot(derive_seed("probe-bot", sd, i), iterations=b, time_limit=None, **extra)
                p = st.current_player()
                c0 = time.process_time()
                root = bot.search(st, p)
                stats[b]["cpu"] += time.process_time() - c0
                kids = root.children  # the move `MctsBot.choose` plays: most visits, then the best mean
                a = max(kids, key=lambda x: (kids[x].n, kids[x].w[p] / max(1, kids[x].n)))
                ms.append(a)
                if sd == 1:
                    stats[b]["share"] += root.children[a].n / max(1, root.n)
                    stats[b]["cands"] += len(root.children)
                    stats[b]["depth2"] += sum(len(ch.children) for ch in root.children.values())
            moves[(b, sd)] = ms
    ref = moves[(budgets[-1], 1)]
    n = len(pos)
    print(
        f"{n} positions ({args.siege}), settings {extra or 'default'}; reference: mcts:{budgets[-1]} seed 1"
    )
    print(
        f"{'budget':>7} {'= reference':>12} {'seeds agree':>12} {'root children':>14} {'2nd-level nodes':>16} "
        f"{'visit share of move':>20} {'CPU ms/decision':>16}"
    )
    for b in budgets:
        same_ref = sum(1 for x, y in zip(moves[(b, 2)], ref, strict=True) if x == y) / n
        agree = sum(1 for x, y in zip(moves[(b, 1)], moves[(b, 2)], strict=True) if x == y) / n
        s = stats[b]
        print(
            f"{b:>7} {100 * same_ref:>11.0f}% {100 * agree:>11.0f}% {s['cands'] / n:>14.1f} {s['depth2'] / n:>16.1f} "
            f"{100 * s['share'] / n:>19.0f}% {1000 * s['cpu'] / (2 * n):>16.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
