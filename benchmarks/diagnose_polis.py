"""Where a Polis bot's score comes from, per side: plays (or reads) lab games and replays each record, then
prints for each bot in each seat its means per game — actions taken per round, resources gained by source and
spent by sink (the action that changed them; the round end, the market dice and the events by name), prestige
by source, projects started and completed, units built, poleis held by round, what is left unused at the end
and the final score by part (population, prestige, posterity). Issue 13: why mcts:normal loses as Athens.

Run: python benchmarks/diagnose_polis.py [--bots mcts:normal,greedy] [--games 40] [--siege classic]
                                          [--seed 2026] [--board FILE] [--out /tmp/hegemon-diagnose]
     python benchmarks/diagnose_polis.py --records /tmp/hegemon-bench-ai/polis-sieges/games.jsonl
`--games` deals are each played with the seats both ways (2 x games games), the same deals as
`hegemon lab compare polis --bots A,B --seed S --option siege=RULE` (a stored run is continued).
With `--bots greedy,greedy` each seat is greedy's own."""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path
from typing import Any

from hegemon.core.record import GameRecord
from hegemon.games import get_game
from hegemon.games.polis import scoring
from hegemon.games.polis.board import RESOURCES
from hegemon.games.polis.rules import common
from hegemon.lab.run import GAMES_FILE, make_sweep, read_jsonl, run_sweep

SIDES = ("Athens", "Sparta")
END_PHASES = frozenset((common.SUPPLY, common.GROWTH, common.PHOROS))
CHANCE_NAMES = {"market_roll": "trade", "siege_roll": "besiege", "draw_event": "event", "draw_card": "battle"}


class Tally:
    """Sums over the games of one (bot, seat); means printed per game."""

    def __init__(self) -> None:
        self.games = 0
        self.wins = 0.0
        self.n: dict[str, float] = defaultdict(float)  # any named count, summed over games
        self.gain: dict[tuple[str, str], float] = defaultdict(float)  # (source, resource) -> amount
        self.spend: dict[tuple[str, str], float] = defaultdict(float)
        self.pp: dict[str, float] = defaultdict(float)  # source -> prestige (negative: spent)
        self.kinds: dict[tuple[int, str], float] = defaultdict(float)  # (round, kind) -> count
        self.projects: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])  # id -> [started, completed]
        self.held: dict[int, float] = defaultdict(float)  # round -> poleis held at its start
        self.rounds = 0.0


def source_of(state: Any, kind: str, before_phase: int, before_round: int) -> str:
    """The name a change of resources or prestige is booked under: the action, or the round's end."""
    if state.round != before_round or state.phase in END_PHASES or before_phase in END_PHASES:
        if kind in ("pay_supply", "release_polis", "grow", "end_growth", "phoros"):
            return "end:" + kind
        return "end:auto"  # projects completed, supply paid, megalopolis, storage halved
    return CHANCE_NAMES.get(kind, kind)


def replay(game: Any, rec: dict[str, Any], tallies: dict[tuple[str, int], Tally]) -> None:
    record = GameRecord.from_json(rec)
    st = game.new_game(game.parse_options(record.options), record.seed)
    b = st.board
    seats = record.seats
    tal = [tallies[(seats[s], s)] for s in (0, 1)]
    last_round = -1
    for raw in record.actions:
        a = game.decode_action(raw)
        if st.round != last_round and st.phase != common.OVER:
            last_round = st.round
            for s in (0, 1):
                tal[s].held[st.round] += sum(1 for o in st.owner if o == s)
        mover = st.active
        decision = st.current_player() >= 0
        if decision and st.phase == common.ACTION:
            tal[mover].kinds[(st.round, a.kind)] += 1
        res0 = [list(st.res[s]) for s in (0, 1)]
        pp0 = list(st.pp)
        units0 = [sum(st.units[s]) for s in (0, 1)]
        merch0 = list(st.merchants)
        started0 = list(st.started)
        notes0 = len(st.round_notes)
        phase0, round0 = st.phase, st.round
        st.apply(a)
        where = source_of(st, a.kind, phase0, round0)
        for s in (0, 1):
            for i, r in enumerate(RESOURCES):
                d = st.res[s][i] - res0[s][i]
                if d > 0:
                    tal[s].gain[(where, r)] += d
                elif d < 0:
                    tal[s].spend[(where, r)] -= d
            if st.pp[s] != pp0[s]:
                tal[s].pp[where] += st.pp[s] - pp0[s]
        if a.kind == "create_hoplites":
            tal[mover].n["hoplites built"] += sum(st.units[mover]) - units0[mover]
        elif a.kind == "create_galleys":
            tal[mover].n["galleys built"] += sum(st.units[mover]) - units0[mover]
        elif a.kind == "create_merchants":
            tal[mover].n["merchants built"] += st.merchants[mover] - merch0[mover]
        for p in st.started:
            if p not in started0:
                tal[mover].projects[b.project_ids[p]][0] += 1
        notes = st.round_notes[notes0:] if len(st.round_notes) >= notes0 else st.round_notes
        for note in notes:
            if note and note[0] == "project":
                tal[note[1]].projects[b.project_ids[note[2]]][1] += 1
                tal[note[1]].n["prestige from projects completed"] += note[3]
    out = record.outcome or {}
    winners = out.get("winners") or []
    for s in (0, 1):
        t = tal[s]
        t.games += 1
        t.wins += 1 / len(winners) if s in winners else 0.0
        t.rounds += st.round + 1
        t.n["end " + (st.end_reason or "?")] += 1
        for part, v in scoring.breakdown(st, s).items():
            t.n["final " + part] += v
        for i, r in enumerate(RESOURCES):
            t.n["left " + r] += st.res[s][i]
        t.n["left units"] += sum(st.units[s])
        t.n["left merchants"] += st.merchants[s]
        t.n["poleis at the end"] += sum(1 for o in st.owner if o == s)


def report(tallies: dict[tuple[str, int], Tally]) -> None:
    for (bot, s), t in sorted(tallies.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        g = t.games
        if not g:
            continue
        print(f"\n=== {bot} as {SIDES[s]}: {g} games, wins {t.wins / g:.1%}, rounds {t.rounds / g:.2f}")
        fin = ", ".join(
            f"{k[6:]} {t.n[k] / g:.2f}"
            for k in ("final population", "final prestige", "final posterity", "final total")
        )
        ends = ", ".join(f"{k[4:]} {v / g:.2f}" for k, v in sorted(t.n.items()) if k.startswith("end "))
        print(f"final score: {fin}; ends: {ends}")
        print(
            "prestige by source: "
            + ", ".join(f"{k} {v / g:+.2f}" for k, v in sorted(t.pp.items(), key=lambda kv: -abs(kv[1])))
        )
        for label, book in (("gained", t.gain), ("spent", t.spend)):
            by_src: dict[str, dict[str, float]] = defaultdict(dict)
            for (src, r), v in book.items():
                by_src[src][r] = v / g
            print(f"resources {label} by {'source' if label == 'gained' else 'sink'}:")
            for src, rs in sorted(by_src.items(), key=lambda kv: -sum(kv[1].values())):
                print(f"  {src:22} " + " ".join(f"{r} {rs.get(r, 0):5.2f}" for r in RESOURCES))
        print(
            "left at the end: "
            + " ".join(f"{r} {t.n['left ' + r] / g:.2f}" for r in RESOURCES)
            + f"; units {t.n['left units'] / g:.2f}, merchants {t.n['left merchants'] / g:.2f}, poleis "
            f"{t.n['poleis at the end'] / g:.2f}"
        )
        print(
            "built: "
            + ", ".join(
                f"{k} {t.n[k] / g:.2f}" for k in ("hoplites built", "galleys built", "merchants built")
            )
        )
        started = sum(v[0] for v in t.projects.values()) / g
        done = sum(v[1] for v in t.projects.values()) / g
        print(
            f"projects: started {started:.2f}, completed {done:.2f}, their immediate prestige "
            f"{t.n['prestige from projects completed'] / g:.2f}; by project (started/completed): "
            + ", ".join(
                f"{p} {v[0] / g:.2f}/{v[1] / g:.2f}"
                for p, v in sorted(t.projects.items(), key=lambda kv: -kv[1][0])
            )
        )
        rounds = sorted({r for r, _ in t.kinds})
        kinds = sorted({k for _, k in t.kinds}, key=lambda k: -sum(t.kinds[(r, k)] for r in rounds))
        print("actions per round (action phase): " + " ".join(f"{'r' + str(r):>6}" for r in rounds))
        for k in kinds:
            print(f"  {k:31} " + " ".join(f"{t.kinds[(r, k)] / g:6.2f}" for r in rounds))
        print(
            "poleis held at each round's start: "
            + " ".join(f"r{r} {v / g:.2f}" for r, v in sorted(t.held.items()))
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--bots", default="mcts:normal,greedy")
    parser.add_argument("--games", type=int, default=40, help="deals (each played both ways)")
    parser.add_argument("--siege", default="classic")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--board", default=None)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("/tmp/hegemon-diagnose"))
    parser.add_argument("--records", type=Path, default=None, help="read this games.jsonl instead of playing")
    parser.add_argument("--variant", type=int, default=None, help="with --records: only this variant index")
    args = parser.parse_args()
    if args.records is None:
        bots = args.bots.split(",")
        sweep = make_sweep(
            "polis",
            "compare",
            bots,
            args.games,
            seed=args.seed,
            options=[f"siege={args.siege}"],
            board=args.board,
        )
        run_sweep(sweep, args.out, jobs=args.jobs)
        path = args.out / GAMES_FILE
    else:
        path = args.records
    game = get_game("polis")
    tallies: dict[tuple[str, int], Tally] = defaultdict(Tally)
    for rec in read_jsonl(path):
        if args.variant is None or rec["meta"]["variant"] == args.variant:
            replay(game, rec, tallies)
    report(tallies)


if __name__ == "__main__":
    main()
