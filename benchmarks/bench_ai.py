"""Strength table: win rates with 95% Wilson intervals of mcts:hard, greedy and random against each other in
both games (a lab tournament: every pair on the same seeds, both seat rotations; S.P.Q.RisiKo! with 4
players, the pair's bots on alternating seats, a win = the winner is one of the bot's seats).

Targets (issue 6): mcts at its default budget beats greedy in at least 65% of games and greedy beats random in
at least 80%, in both games.

Run: python benchmarks/bench_ai.py [--polis-games 200] [--spqr-games 26] [--jobs 2] [--mcts mcts:hard]
      [--out /tmp/hegemon-bench-ai] [--json]
     python benchmarks/bench_ai.py --sieges 40 [--siege-bot mcts:normal]   # issue 13: every siege rule vs greedy
     python benchmarks/bench_ai.py --sieges 20 --siege-bot greedy   # greedy vs greedy: sieges per game, each rule
     python benchmarks/bench_ai.py --move-time 24 [--siege-bot mcts:normal]  # seconds per move, every siege rule
     python benchmarks/bench_ai.py --sieges 80 --board FILE   # the same on another Polis board (use a fresh --out)
The siege table also prints the bot's win rate in each seat and its lost games by seat and end reason: the default
board favours Sparta (Athens wins 7-17% with the same bot both sides), which squeezes any win rate toward 50%.
Runs are stored (resumable) under --out: re-running continues them; use a fresh --out after the bots change.
Cost on a 2-core machine: Polis, 200 games per pair, about 9 minutes (an mcts:hard game takes about 4 s);
S.P.Q.RisiKo! about 4 minutes per game with two mcts:hard seats (about 2 per game with two processes), so
26 games per pair take about an hour.
The defaults are the game counts of the table in src/hegemon/ai/README.md."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from hegemon.lab import stats
from hegemon.lab.run import GAMES_FILE, make_sweep, read_jsonl, run_sweep

TARGETS = {("mcts", "greedy"): 0.65, ("greedy", "random"): 0.80}


SIEGE_RULES = ("classic", "sacrifice", "diceless", "diceless_sacrifice")
SIEGE_TARGETS = {"win_rate": 0.65, "sieges_per_game": 1.0}
SIDES = ("Athens", "Sparta")


def siege_table(bot: str, games: int, jobs: int, out: Path, board: str | None = None) -> list[dict[str, Any]]:
    """Issue 13: under every siege rule, `bot` against greedy (a lab compare: the same deals under each rule,
    seats rotated): its win rate and the poleis it takes by siege per game (targets: ≥ 65%, ≥ 1). With `bot`
    greedy both seats count as the bot: the sieges per game of both sides together."""
    sweep = make_sweep(
        "polis",
        "compare",
        [bot, "greedy"],
        games,
        seed=2026,
        options=["siege=" + ",".join(SIEGE_RULES)],
        board=board,
    )
    t0 = time.perf_counter()
    run_sweep(sweep, out / "polis-sieges", jobs=jobs)
    wall = time.perf_counter() - t0
    rows = []
    for v, rule in enumerate(SIEGE_RULES):
        recs = [r for r in read_jsonl(out / "polis-sieges" / GAMES_FILE) if r["meta"]["variant"] == v]
        n = len(recs)
        credit = 0.0
        taken = [0, 0]  # the bot's, greedy's
        by_seat = [[0.0, 0], [0.0, 0]]  # the bot as Athens, as Sparta: [wins, games]
        lost: dict[str, int] = {}  # "Athens ostracism": games the bot lost in that seat, by the end's reason
        for r in recs:
            winners = (r.get("outcome") or {}).get("winners") or []
            by_side = r["meta"]["measures"]["sieges_succeeded_by_side"]
            for j, seat in enumerate(r["seats"]):
                mine = 0 if seat == bot else 1
                taken[mine] += by_side[j]
                if mine == 0:
                    won = 1 / len(winners) if j in winners else 0.0
                    credit += won
                    by_seat[j][0] += won  # greedy against itself: each seat's own rate
                    by_seat[j][1] += 1
                    if not won:
                        why = f"{SIDES[j]} {r['meta']['measures']['end_reason']}"
                        lost[why] = lost.get(why, 0) + 1
        rate = stats.rate(credit, n)
        rows.append(
            {
                "rule": rule,
                "bot": bot,
                "games": n,
                "win_rate": rate["rate"],
                "low": rate["low"],
                "high": rate["high"],
                "sieges_per_game": taken[0] / n if n else None,
                "greedy_sieges_per_game": taken[1] / n if n else None,
                "wall_seconds": round(wall, 1),
                "as_athens": by_seat[0][0] / by_seat[0][1] if by_seat[0][1] else None,
                "as_sparta": by_seat[1][0] / by_seat[1][1] if by_seat[1][1] else None,
                "losses": dict(sorted(lost.items())),
                "met": bool(n)
                and rate["rate"] >= SIEGE_TARGETS["win_rate"]
                and taken[0] / n >= SIEGE_TARGETS["sieges_per_game"],
            }
        )
    return rows


def print_seats(rows: list[dict[str, Any]]) -> None:
    """The bot's win rate in each seat and why its games were lost: the board favours Sparta (docs/experiments/ai-search-history.md), so a
    seat's rate says more than the total."""
    print(f"\n{'siege rule':20} {'as Athens':>9} {'as Sparta':>9}  games lost, by the bot's seat and the end")
    for r in rows:
        print(
            f"{r['rule']:20} {r['as_athens']:9.1%} {r['as_sparta']:9.1%}  "
            + ", ".join(f"{k} {v}" for k, v in r["losses"].items())
        )


def move_times(bot: str, positions: int) -> list[dict[str, Any]]:
    """Seconds per move of `bot` on the same Polis positions under every siege rule: action-phase decisions
    taken every 5th decision of seeded random games (seeds 1, 2, …: the same positions for every version of
    the bots, so two versions compare directly), `positions` per rule, one process."""
    import random
    import statistics

    from hegemon.ai import make_bot
    from hegemon.core.game import CHANCE, TERMINAL
    from hegemon.core.play import sample_chance
    from hegemon.games import get_game

    g = get_game("polis")
    rows = []
    for rule in SIEGE_RULES:
        found: list[Any] = []
        seed = 0
        while len(found) < positions:
            seed += 1
            st = g.new_game(g.parse_options({"siege": rule}), seed)
            rng = random.Random(seed)
            k = 0
            while st.current_player() != TERMINAL and len(found) < positions:
                if st.current_player() == CHANCE:
                    st.apply(sample_chance(st, rng))
                    continue
                legal = st.legal_actions()
                k += 1
                if k % 5 == 0 and len(legal) > 1 and st.phase_name() == "action":
                    found.append(st.clone())
                st.apply(rng.choice(legal))
        searcher = make_bot(bot, 1)
        times = []
        for st in found:
            t0 = time.perf_counter()
            searcher.choose(st, st.current_player())
            times.append(time.perf_counter() - t0)
        times.sort()
        rows.append(
            {
                "rule": rule,
                "bot": bot,
                "positions": len(times),
                "median": statistics.median(times),
                "p90": times[int(0.9 * (len(times) - 1))],
                "max": times[-1],
                "mean": statistics.fmean(times),
            }
        )
    return rows


def table(
    game: str, bots: list[str], games: int, jobs: int, out: Path, players: int | None
) -> list[dict[str, Any]]:
    sweep = make_sweep(game, "tournament", bots, games, seed=2026, players=players)
    t0 = time.perf_counter()
    summary = run_sweep(sweep, out / game, jobs=jobs)
    wall = time.perf_counter() - t0
    rows = []
    cross = summary["tournament"]["cross"]
    for i, a in enumerate(bots):
        for j, b in enumerate(bots):
            if i < j and cross[i][j]:
                r = cross[i][j]
                target = TARGETS.get((a.split(":")[0], b.split(":")[0]))
                rows.append(
                    {
                        "game": game,
                        "bot": a,
                        "opponent": b,
                        "games": r["n"],
                        "win_rate": r["rate"],
                        "low": r["low"],
                        "high": r["high"],
                        "target": target,
                        "met": None if target is None else r["rate"] >= target,
                        "seat_win_rate": [s["rate"] for s in summary["variants"][0]["seat_win_rate"]],
                        "wall_seconds": round(wall, 1),
                    }
                )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--polis-games", type=int, default=200, help="games per pair in Polis")
    parser.add_argument("--spqr-games", type=int, default=26, help="games per pair in S.P.Q.RisiKo!")
    parser.add_argument("--players", type=int, default=4, help="S.P.Q.RisiKo! players")
    parser.add_argument("--mcts", default="mcts:hard")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("/tmp/hegemon-bench-ai"))
    parser.add_argument("--only", choices=["polis", "spqrisiko"], default=None)
    parser.add_argument(
        "--sieges",
        type=int,
        default=0,
        metavar="GAMES",
        help="also play GAMES games per siege rule of --siege-bot against greedy (issue 13)",
    )
    parser.add_argument("--siege-bot", default="mcts:normal")
    parser.add_argument(
        "--board", default=None, help="--sieges on this Polis board data file instead of the default board"
    )
    parser.add_argument(
        "--move-time",
        type=int,
        default=0,
        metavar="POSITIONS",
        help="only time --siege-bot's moves on POSITIONS Polis positions per siege rule",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    bots = [args.mcts, "greedy", "random"]
    rows: list[dict[str, Any]] = []
    if args.move_time:
        timed = move_times(args.siege_bot, args.move_time)
        if args.json:
            print(json.dumps(timed))
            return
        print(f"{'siege rule':20} {'bot':12} {'positions':>9} {'median s':>9} {'p90 s':>7} {'max s':>7}")
        for r in timed:
            print(
                f"{r['rule']:20} {r['bot']:12} {r['positions']:9d} {r['median']:9.3f} {r['p90']:7.3f} "
                f"{r['max']:7.3f}"
            )
        return
    if args.sieges:
        sieges = siege_table(args.siege_bot, args.sieges, args.jobs, args.out, args.board)
        if args.json:
            print(json.dumps(sieges))
        else:
            if args.siege_bot == "greedy":  # greedy against itself: how often the rule is exercised
                print(f"{'siege rule':20} {'games':>5}  poleis taken by siege per game (both sides)")
                for r in sieges:
                    print(f"{r['rule']:20} {r['games']:5d}  {r['sieges_per_game']:.2f}")
                print_seats(sieges)
                return
            print(
                f"{'siege rule':20} {'bot':12} {'games':>5}  {'win rate vs greedy [95% CI]':28} "
                f"{'its sieges/game':>15} {'greedy sieges/game':>18}  met (≥ 65%, ≥ 1)"
            )
            for r in sieges:
                print(
                    f"{r['rule']:20} {r['bot']:12} {r['games']:5d}  {r['win_rate']:.1%} [{r['low']:.1%}, "
                    f"{r['high']:.1%}]{'':6} {r['sieges_per_game']:15.2f} {r['greedy_sieges_per_game']:18.2f}  "
                    f"{'yes' if r['met'] else 'NO'}"
                )
            print_seats(sieges)
        if args.only is None:
            return
    if args.only in (None, "polis"):
        rows += table("polis", bots, args.polis_games, args.jobs, args.out, None)
    if args.only in (None, "spqrisiko"):
        rows += table("spqrisiko", bots, args.spqr_games, args.jobs, args.out, args.players)
    if args.json:
        print(json.dumps(rows))
        return
    print(f"{'game':10} {'bot':10} {'vs':8} {'games':>5}  {'win rate [95% CI]':24} {'target':>7}  met")
    for r in rows:
        tgt = "" if r["target"] is None else f"{r['target']:.0%}"
        met = "" if r["met"] is None else ("yes" if r["met"] else "NO")
        print(
            f"{r['game']:10} {r['bot']:10} {r['opponent']:8} {r['games']:5d}  "
            f"{r['win_rate']:.1%} [{r['low']:.1%}, {r['high']:.1%}]{'':4} {tgt:>7}  {met}"
        )


if __name__ == "__main__":
    main()
