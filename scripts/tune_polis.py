"""Tune the search's Polis evaluation weights (`ai/games/polis.py`: `Weights`, the search's set `SEARCH`)
against greedy, which keeps the default set (issue 13 item 1: mcts:normal must beat greedy 65% under every
siege rule on the default board; it wins 90-95% as Sparta but 25-35% as Athens).

A candidate is a set of overrides of the default weights (`unit=0.4,scale=2.5`). It is scored by playing
mcts:normal (150 iterations, no time budget: reproducible) with the candidate's weights against greedy with
the default weights on FIXED paired deals — the same game seeds, bot seeds and chance streams for every
candidate — under all four siege rules, in both seats:

- deal m's game seed is `derive_seed("tune", seed, m)`, the chance stream `derive_seed("chance", game seed)`,
  the bots' seeds `derive_seed("tune-bot", seed, m, seat of the search, seat)`: a candidate and the baseline
  meet the same dice and deals, so a difference between them is not the luck of the deals;
- the bot plays Athens on deals 0..athens-1 and Sparta on deals 0..sparta-1 of every rule. Its rate as Athens
  (about 0.3) varies far more than as Sparta (about 0.93): the objective is the seat-balanced win rate
  (rate as Athens + rate as Sparta) / 2 — what the bench measures with seats rotated — estimated with more
  Athens games than Sparta games (Neyman allocation: games in proportion to sqrt(p(1 - p)), about 2 : 1).

Every game's result is appended to a JSONL file (`--out`), keyed by candidate and game, so an interrupted
run continues where it stopped and the figures can be recomputed. The summary prints, per candidate, the
objective, the rate as Athens / as Sparta, the mcts poleis taken by siege per game, and the paired
difference to the baseline (the same games) with its standard error.

Use (one process, niced: the machine is shared):

    nice -n 5 python scripts/tune_polis.py --screen              # every weight of SCREEN times 0.5 and 2 (and the baseline)
    nice -n 5 python scripts/tune_polis.py --candidate unit=0.4,scale=2.5 --candidate reach=0.3
    python scripts/tune_polis.py --report                         # the summary of what --out holds

Tune on these seeds (`--seed 101`), then confirm the winner on fresh ones with the bench
(`python benchmarks/bench_ai.py --sieges 80`, seed 2026) and the lab (`hegemon lab compare polis --bots
mcts:normal,greedy --games 80 --seed 7 --option siege=...`) after setting it as `SEARCH`: the best of many
noisy candidates is flattered by its noise (docs/experiments/ai-search-history.md, "Polis sieges under every siege rule")."""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

from hegemon.ai import GreedyBot, MctsBot
from hegemon.ai.games import polis as know
from hegemon.core.play import derive_seed
from hegemon.games import get_game
from hegemon.lab.measures import measures_for
from hegemon.lab.sweep import play_measured

RULES = ("classic", "sacrifice", "diceless", "diceless_sacrifice")
# the weights screened one at a time (each times SCREEN_FACTORS): the valuation of material and resources, the
# siege terms' weights and the logistic's scale
SCREEN = ("scale", "unit", "resource", "silver", "merchant", "league", "reach", "hunger")
SCREEN_FACTORS = (0.5, 2.0)
BASELINE = "baseline"


def parse_candidate(text: str) -> dict[str, float]:
    """`name=value,name=value` over the fields of `Weights` (`baseline` or empty: no override)."""
    fields = {f.name for f in dataclasses.fields(know.Weights)}
    out: dict[str, float] = {}
    if text.strip() in ("", BASELINE):
        return out
    for item in text.split(","):
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or name not in fields:
            raise SystemExit(f"candidate {text!r}: {name!r} is not a weight (one of {sorted(fields)})")
        out[name] = float(value)
    return out


def label(over: dict[str, float]) -> str:
    return ",".join(f"{k}={v:g}" for k, v in sorted(over.items())) or BASELINE


def weights(over: dict[str, float], base: str = "default", seat: int = 0) -> know.Weights:
    """The candidate's weights for the search in `seat`: overrides of the default set, or with `base` "search" of
    the set the search uses in that seat (`SEARCH_ATHENS` as Athens, `SEARCH` as Sparta)."""
    start = know.DEFAULT if base == "default" else know.SEARCH_ATHENS if seat == 0 else know.SEARCH
    return dataclasses.replace(start, **over)


def play(
    over: dict[str, float],
    rule: str,
    deal: int,
    mcts_seat: int,
    seed: int,
    iterations: int,
    board: str | None,
    base: str = "default",
    opponent: str = "greedy",
) -> dict[str, Any]:
    """One game: mcts (the candidate's weights) in `mcts_seat` against greedy (default weights), or with
    `opponent` "search" against the search with its own set for its seat (the same iterations)."""
    g = get_game("polis")
    raw: dict[str, Any] = dict(g.selfplay_defaults)
    raw["siege"] = rule
    if board:
        raw["board"] = board
    opts = g.parse_options(raw)
    game_seed = derive_seed("tune", seed, deal)
    w = weights(over, base, mcts_seat)

    def evaluate(st: Any) -> list[float]:
        return know.evaluate(st, w)

    bots: list[Any] = [None, None]
    bots[mcts_seat] = MctsBot(
        derive_seed("tune-bot", seed, deal, mcts_seat, mcts_seat),
        iterations=iterations,
        time_limit=None,
        evaluate=evaluate,
    )
    other_seed = derive_seed("tune-bot", seed, deal, mcts_seat, 1 - mcts_seat)
    bots[1 - mcts_seat] = (
        MctsBot(other_seed, iterations=iterations, time_limit=None)
        if opponent == "search"
        else GreedyBot(other_seed)
    )
    measures = measures_for("polis")
    t0 = time.perf_counter()
    state, _, _ = play_measured(g, opts, game_seed, bots, measures)
    out = state.outcome()
    winners = list(out.winners) if out is not None else []
    won = 1.0 / len(winners) if mcts_seat in winners else 0.0
    taken = measures.result(state).get("sieges_succeeded_by_side", [0, 0])
    return {
        "candidate": label(over),
        "rule": rule,
        "deal": deal,
        "seat": mcts_seat,
        "won": won,
        "sieges": taken[mcts_seat],
        "end": getattr(state, "end_reason", ""),
        "seconds": round(time.perf_counter() - t0, 2),
    }


def games_of(args: argparse.Namespace) -> list[tuple[str, int, int]]:
    """(rule, deal, seat of the search) of every game a candidate plays, deal-major."""
    out = []
    for m in range(max(args.athens, args.sparta)):
        for rule in args.rules:
            if m < args.athens:
                out.append((rule, m, 0))
            if m < args.sparta:
                out.append((rule, m, 1))
    return out


def load(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def summarise(records: list[dict[str, Any]], games: list[tuple[str, int, int]]) -> list[dict[str, Any]]:
    """Per candidate (with every game played): objective, seat rates, per-rule objective, sieges a game, and
    the paired difference of the objective to the baseline with its standard error."""
    by: dict[str, dict[tuple[str, int, int], dict[str, Any]]] = {}
    for r in records:
        by.setdefault(r["candidate"], {})[(r["rule"], r["deal"], r["seat"])] = r
    wanted = set(games)

    def objective(
        res: dict[tuple[str, int, int], dict[str, Any]], rule: str | None = None
    ) -> tuple[float, float, float]:
        a = [res[k]["won"] for k in wanted if k[2] == 0 and (rule is None or k[0] == rule)]
        s = [res[k]["won"] for k in wanted if k[2] == 1 and (rule is None or k[0] == rule)]
        ra = sum(a) / len(a) if a else math.nan
        rs = sum(s) / len(s) if s else math.nan
        # one seat only (`--sparta 0`: a change to Athens' set alone): that seat's rate
        return (ra + rs) / 2 if a and s else ra if a else rs, ra, rs

    base = by.get(BASELINE)
    rules = [rule for rule in RULES if any(g[0] == rule for g in games)]
    rows = []
    for cand, res in by.items():
        if not wanted <= set(res):
            continue
        obj, ra, rs = objective(res)
        row: dict[str, Any] = {
            "candidate": cand,
            "objective": obj,
            "athens": ra,
            "sparta": rs,
            "sieges": sum(res[k]["sieges"] for k in wanted) / len(wanted),
            "rules": {rule: objective(res, rule)[0] for rule in rules},
            "rule_sieges": {
                rule: sum(res[k]["sieges"] for k in wanted if k[0] == rule)
                / sum(1 for k in wanted if k[0] == rule)
                for rule in rules
            },
        }
        if base is not None and wanted <= set(base):
            # paired: the difference per game, stratified by seat (the objective weighs each seat by half)
            diff, var = 0.0, 0.0
            seats = [seat for seat in (0, 1) if any(k[2] == seat for k in wanted)]
            for seat in seats:
                ks = [k for k in wanted if k[2] == seat]
                d = [res[k]["won"] - base[k]["won"] for k in ks]
                mean = sum(d) / len(d)
                sd2 = sum((x - mean) ** 2 for x in d) / max(1, len(d) - 1)
                diff += mean / len(seats)
                var += sd2 / len(d) / len(seats) ** 2
            row["delta"], row["se"] = diff, math.sqrt(var)
        rows.append(row)
    rows.sort(key=lambda r: -r["objective"])
    return rows


def report(rows: list[dict[str, Any]], games: list[tuple[str, int, int]]) -> None:
    na = sum(1 for g in games if g[2] == 0)
    rules = [rule for rule in RULES if any(g[0] == rule for g in games)]
    print(
        f"{len(games)} games a candidate ({na} as Athens, {len(games) - na} as Sparta), rules {', '.join(rules)}"
    )
    print(
        f"{'candidate':34} {'objective':>9} {'vs base':>15} {'Athens':>7} {'Sparta':>7} {'sieges':>6}  "
        + " ".join(f"{r[:10]:>10}" for r in rules)
        + "  mcts sieges a game per rule"
    )
    for r in rows:
        delta = f"{r['delta']:+.3f}±{r['se']:.3f}" if "delta" in r else ""
        print(
            f"{r['candidate'][:34]:34} {r['objective']:9.3f} {delta:>15} {r['athens']:7.3f} {r['sparta']:7.3f} "
            f"{r['sieges']:6.2f}  "
            + " ".join(f"{r['rules'][rule]:10.3f}" for rule in rules)
            + "  "
            + " / ".join(f"{r['rule_sieges'][rule]:.2f}" for rule in rules)
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--candidate", action="append", default=[], help="name=value,… over Weights (repeatable)"
    )
    parser.add_argument(
        "--screen", action="store_true", help="the baseline and every SCREEN weight × 0.5 and × 2"
    )
    parser.add_argument("--report", action="store_true", help="only print the summary of --out")
    parser.add_argument("--seed", type=int, default=101, help="tuning seed (confirm on others: 2026 and 7)")
    parser.add_argument("--athens", type=int, default=20, help="deals a rule with the search as Athens")
    parser.add_argument("--sparta", type=int, default=10, help="deals a rule with the search as Sparta")
    parser.add_argument("--iterations", type=int, default=150, help="search iterations a move (mcts:normal)")
    parser.add_argument("--board", default=None, help="a Polis board data file (default: the default board)")
    parser.add_argument("--rules", default=",".join(RULES), help="the siege rules to play, comma-separated")
    parser.add_argument(
        "--base",
        choices=("default", "search"),
        default="default",
        help="what a candidate overrides: the default set, or the search's own set for each seat",
    )
    parser.add_argument(
        "--opponent",
        choices=("greedy", "search"),
        default="greedy",
        help="the other seat: greedy (default weights), or the search with its own set for that seat"
        " (to tune one seat against the other's best play, e.g. Sparta: --athens 0)",
    )
    parser.add_argument("--out", type=Path, default=Path("/tmp/hegemon-tune-polis.jsonl"))
    args = parser.parse_args()
    args.rules = [r.strip() for r in args.rules.split(",") if r.strip()]
    if not args.rules or any(r not in RULES for r in args.rules):
        raise SystemExit(f"--rules: a comma-separated list of {', '.join(RULES)}")
    games = games_of(args)
    config: dict[str, Any] = {"seed": args.seed, "iterations": args.iterations, "board": args.board}
    if args.base != "default":
        config["base"] = args.base
    if args.opponent != "greedy":
        config["opponent"] = args.opponent
    records = [r for r in load(args.out) if r.get("config") == config]
    if not args.report:
        cands = [parse_candidate(c) for c in args.candidate]
        if args.screen:
            cands = (
                [{}]
                + [{name: getattr(know.DEFAULT, name) * f} for name in SCREEN for f in SCREEN_FACTORS]
                + cands
            )
        elif {} not in cands:
            cands = [{}, *cands]
        done = {(r["candidate"], r["rule"], r["deal"], r["seat"]) for r in records}
        with args.out.open("a") as fh:
            for over in cands:
                t0 = time.perf_counter()
                for rule, deal, seat in games:
                    if (label(over), rule, deal, seat) in done:
                        continue
                    rec = play(
                        over,
                        rule,
                        deal,
                        seat,
                        args.seed,
                        args.iterations,
                        args.board,
                        args.base,
                        args.opponent,
                    )
                    rec["config"] = config
                    fh.write(json.dumps(rec) + "\n")
                    fh.flush()
                    records.append(rec)
                    done.add((label(over), rule, deal, seat))
                print(f"{label(over)}: {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
                report(summarise(records, games), games)
    report(summarise(records, games), games)


if __name__ == "__main__":
    main()
