"""Summaries of a sweep's records: per-variant rates with intervals, tests between variants, luck versus
skill; the per-game table (CSV, and Parquet when pyarrow is installed) and a self-contained HTML report with
matplotlib plots embedded as PNG data.

Definitions used in the report (the statistics are in `stats`):
- *win credit*: a game's win is shared equally among tied winners (a two-way tie is half a win); every win
  rate — a seat's, a bot's, the first player's, the stronger bot's — is the mean credit, in the findings,
  tables, tests, plots and `summary.json` alike;
- *deal*: the unit of independence. Every interval and test is clustered by deal (rates: Wilson on the
  effective games, means and paired differences: cluster-robust standard errors), and the report's tests
  are adjusted together (Holm);
- *stronger bot* of a pair of different bots: the one with more win credit over all variants of the sweep;
  *skill rate*: its win credit — 1/2 means luck decides everything, 1 means skill does. Two copies of one bot
  have no stronger one: no skill rate is given (a warning says why);
- *rank gap*: the distance of the two bots in the `--bots` list (list strongest first to read it as a
  budget gap);
- *identical rotations*: the share of deals whose two seat rotations were played move for move alike;
- *dice share*: ICC(1), over the groups of games that share a chance seed (the two seat rotations of one
  deal), of the win share of the even seats less its mean per rotation (the mean holds the seat and skill
  effects): the share of the result's variance explained by the seed — dice, draws, deal — favouring some
  seats whichever bot sits there. Withheld where identical rotations reach `IDENTICAL_SHARE`: there it would
  measure how deterministic the bots are, not the dice;
- tests compare each variant with the first (the baseline) on the same deals and seats: the mean of the
  paired per-game differences with standard errors clustered by deal (`stats.paired`), for rates and
  numbers alike.
"""

from __future__ import annotations

import base64
import csv
import io
import json
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from hegemon.lab import design, stats
from hegemon.lab.findings import IDENTICAL_SHARE, annotate, measure_name, seat_name, test_name, variant_name
from hegemon.lab.sweep import Sweep

SKIP_MEASURES = {"first_player", "curves", "end_reason", "turns", "rounds", "score_components"}


def a_seats(rotation: int, n: int) -> list[int]:
    return [j for j in range(n) if (j + rotation) % 2 == 0]


def credit(rec: dict[str, Any], seats: list[int]) -> float:
    out = rec.get("outcome") or {}
    winners = out.get("winners") or []
    if not winners:
        return 0.0
    return sum(1 for w in winners if w in seats) / len(winners)


class Game:
    """One record, flattened for the summaries."""

    def __init__(self, rec: dict[str, Any], sweep: Sweep) -> None:
        meta = rec["meta"]
        self.rec = rec
        self.variant = meta["variant"]
        self.pair = meta["pair"]
        self.deal = meta["deal"]
        self.rotation = meta["rotation"]
        self.seats = rec["seats"]
        self.n = len(self.seats)
        a, b = sweep.pairs[self.pair]
        self.bot_a, self.bot_b = a, b
        sa = a_seats(self.rotation, self.n)
        self.credit_a = credit(rec, sa)
        self.credit_b = credit(rec, [j for j in range(self.n) if j not in sa]) if rec.get("outcome") else 0.0
        self.even_credit = self.credit_a if self.rotation == 0 else self.credit_b
        out = rec.get("outcome") or {}
        self.winners: list[int] = out.get("winners") or []
        self.scores: list[float] = out.get("scores") or []
        self.termination = out.get("termination") or "unfinished"
        self.measures: dict[str, Any] = meta.get("measures") or {}
        # the designer's metrics (`lab.design`); None for records from before they were kept
        self.metrics: dict[str, Any] | None = meta.get("metrics")
        self.actions = meta["actions"] if "actions" in meta else len(rec.get("actions") or [])
        self.decisions = meta.get("decisions", 0)
        self.seconds = meta.get("seconds", 0.0)  # wall time of the game
        self.cpu: float | None = meta.get("cpu_seconds")  # CPU time of the game (records from before: None)
        # how the game was played, move for move (older records: the final state's digest and the length)
        self.play = meta.get("play") or f"{rec.get('digest')}/{self.actions}"
        fp = self.measures.get("first_player")
        self.first_player = fp
        self.first_credit = self.seat_credit(fp) if fp is not None else 0.0

    def seat_credit(self, j: int) -> float:
        return 1.0 / len(self.winners) if j in self.winners else 0.0

    def bot_credit(self, bot: int) -> float:
        return self.credit_a if bot == self.bot_a else self.credit_b

    def length(self) -> float:
        t = self.measures.get("turns")
        return float(t if t is not None else self.measures.get("rounds") or self.actions)

    def pair_key(self) -> tuple[int, int, int]:
        return (self.pair, self.deal, self.rotation)


def load_games(records: Iterable[dict[str, Any]], sweep: Sweep) -> list[Game]:
    return [Game(r, sweep) for r in records]


def same_bot(sweep: Sweep, pair: int) -> bool:
    """Both bots of the pair are one bot (the same spec): neither is stronger."""
    a, b = sweep.pairs[pair]
    return sweep.bots[a] == sweep.bots[b]


def stronger_of(games: list[Game], pair: int, sweep: Sweep) -> tuple[int, int] | None:
    """(stronger, weaker) bot of a pair by win credit over the whole sweep; None for two copies of one bot,
    whose difference in wins is noise, not skill."""
    if same_bot(sweep, pair):
        return None
    a, b = sweep.pairs[pair]
    ca = sum(g.credit_a for g in games if g.pair == pair)
    cb = sum(g.credit_b for g in games if g.pair == pair)
    return (a, b) if ca >= cb else (b, a)


def identical_rotations(gs: list[Game]) -> dict[str, Any]:
    """How many deals (of each pair) were played move for move alike in both seat rotations."""
    plays: dict[tuple[int, int], dict[int, str]] = defaultdict(dict)
    for g in gs:
        plays[(g.pair, g.deal)][g.rotation] = g.play
    both = [p for p in plays.values() if 0 in p and 1 in p]
    same = sum(1 for p in both if p[0] == p[1])
    return {"identical": same, "deals": len(both), "share": same / len(both) if both else None}


def summarise(records: list[dict[str, Any]], sweep: Sweep) -> dict[str, Any]:
    """The JSON summary of a sweep's records (what `--json` prints and the HTML report shows)."""
    games = load_games(records, sweep)
    by_var: dict[int, list[Game]] = defaultdict(list)
    for g in games:
        by_var[g.variant].append(g)
    strong = {p: stronger_of(games, p, sweep) for p in range(len(sweep.pairs))}
    n_players = games[0].n if games else 0
    variants = []
    for v, label in enumerate(sweep.labels):
        gs = by_var.get(v, [])
        n = len(gs)
        entry: dict[str, Any] = {"variant": v, "label": label, "options": sweep.variants[v], "games": n}
        if not n:
            variants.append(entry)
            continue
        deals = [g.deal for g in gs]
        entry["deals"] = len(set(deals))
        entry["seat_win_rate"] = [
            stats.rate_of([g.seat_credit(j) for g in gs], deals) for j in range(n_players)
        ]
        fp = [g for g in gs if g.first_player is not None]
        entry["first_player_win_rate"] = (
            stats.rate_of([g.first_credit for g in fp], [g.deal for g in fp]) if fp else None
        )
        bots = []
        for spec in dict.fromkeys(sweep.bots):
            # a bot's games against other bots (two copies of one bot meeting each other say nothing of it)
            mine = [
                (g, g.credit_a if sweep.bots[g.bot_a] == spec else g.credit_b)
                for g in gs
                if (sweep.bots[g.bot_a] == spec) != (sweep.bots[g.bot_b] == spec)
            ]
            if mine:
                bots.append({"bot": spec, **stats.rate_of([c for _, c in mine], [g.deal for g, _ in mine])})
        entry["bot_win_rate"] = bots
        entry["identical_rotations"] = identical_rotations(gs)
        luck = []
        for p in range(len(sweep.pairs)):
            pg = [g for g in gs if g.pair == p]
            if not pg:
                continue
            a, b = sweep.pairs[p]
            e: dict[str, Any] = {
                "pair": p,
                "bots": [sweep.bots[a], sweep.bots[b]],
                "rank_gap": abs(sweep.pairs[p][0] - sweep.pairs[p][1]),
            }
            sw = strong[p]
            if sw is None:
                e.update(same_bot=True, skill_rate=None)
            else:
                e.update(
                    stronger=sweep.bots[sw[0]],
                    weaker=sweep.bots[sw[1]],
                    skill_rate=stats.rate_of([g.bot_credit(sw[0]) for g in pg], [g.deal for g in pg]),
                )
            same = identical_rotations(pg)
            e["identical_rotations"] = same
            if same["share"] is not None and same["share"] >= IDENTICAL_SHARE:
                e["dice_share"] = {"icc": None, "withheld": "identical_rotations"}
            else:
                # the result seen from the seats: the win share of the even seats (bot A's seats in rotation 0,
                # bot B's in rotation 1), less its mean per rotation (which holds the seat and skill effects); a
                # seed that favours some seats whoever sits there makes its two replays agree
                by_rot: dict[int, list[float]] = defaultdict(list)
                for g in pg:
                    by_rot[g.rotation].append(g.even_credit)
                rot_mean = {r: sum(x) / len(x) for r, x in by_rot.items()}
                groups: dict[int, list[float]] = defaultdict(list)
                for g in pg:
                    groups[g.deal].append(g.even_credit - rot_mean[g.rotation])
                e["dice_share"] = stats.icc1(list(groups.values()))
            luck.append(e)
        entry["luck_vs_skill"] = luck
        entry["length"] = {
            "turns_or_rounds": stats.mean_ci([g.length() for g in gs], deals),
            "rounds": stats.mean_ci([float(g.measures.get("rounds") or 0) for g in gs], deals),
            "actions": stats.mean_ci([float(g.actions) for g in gs], deals),
            "decisions": stats.mean_ci([float(g.decisions) for g in gs], deals),
        }
        kinds = sorted({g.termination for g in gs})
        entry["endings"] = {k: stats.rate_of([float(g.termination == k) for g in gs], deals) for k in kinds}
        reasons = sorted({str(g.measures["end_reason"]) for g in gs if g.measures.get("end_reason")})
        if reasons:
            entry["end_reasons"] = {
                k: stats.rate_of([float(g.measures.get("end_reason") == k) for g in gs], deals)
                for k in reasons
            }
        measure_names = sorted(
            k for k, x in gs[0].measures.items() if k not in SKIP_MEASURES and isinstance(x, int | float)
        )
        entry["measures"] = {
            k: stats.mean_ci([float(g.measures.get(k) or 0) for g in gs], deals) for k in measure_names
        }
        entry["design"] = design.summarise([g.metrics for g in gs], deals)
        entry["curves"] = curves(gs)
        entry["seconds_per_game"] = sum(g.seconds for g in gs) / n
        timed = [g.cpu for g in gs if g.cpu is not None]
        entry["cpu_seconds_per_game"] = sum(timed) / len(timed) if timed else None
        variants.append(entry)
    comparisons = compare_variants(by_var, sweep, strong, n_players)
    timed = [g.cpu for g in games if g.cpu is not None]
    summary: dict[str, Any] = {
        "game": sweep.game,
        "kind": sweep.kind,
        "bots": sweep.bots,
        "pairs": [[sweep.bots[a], sweep.bots[b]] for a, b in sweep.pairs],
        "seed": sweep.seed,
        "players": n_players,
        "games": len(games),
        "games_planned": sweep.deals * 2 * len(sweep.variants) * len(sweep.pairs),
        # CPU time of play (each game's process time in its worker), and the games' own wall time summed
        "cpu_seconds": round(sum(timed), 3) if timed else None,
        "cpu_seconds_games": len(timed),
        "game_wall_seconds": round(sum(g.seconds for g in games), 3),
        "variants": variants,
        "comparisons": comparisons,
        "tournament": tournament_table(games, sweep) if sweep.kind == "tournament" else None,
    }
    annotate(summary)
    # what a designer reads first comes first in summary.json too
    lead = ("game", "kind", "findings", "warnings", "games_needed")
    return {**{k: summary[k] for k in lead}, **{k: x for k, x in summary.items() if k not in lead}}


def curves(gs: list[Game]) -> dict[str, dict[str, list[float | None]]]:
    """Mean of each by-round series for the eventual winner and for the others (and per seat)."""
    names: set[str] = set()
    for g in gs:
        names.update((g.measures.get("curves") or {}).keys())
    out: dict[str, dict[str, list[float | None]]] = {}
    for name in sorted(names):
        acc: dict[str, list[list[float]]] = defaultdict(list)
        for g in gs:
            series = (g.measures.get("curves") or {}).get(name) or []
            w = g.winners[0] if len(g.winners) == 1 else None
            for r, row in enumerate(series):
                for key, val in _curve_points(row, w):
                    lst = acc[key]
                    while len(lst) <= r:
                        lst.append([])
                    lst[r].append(val)
        out[name] = {k: [sum(x) / len(x) if x else None for x in v] for k, v in acc.items()}
    return out


def _curve_points(row: list[float], winner: int | None) -> list[tuple[str, float]]:
    pts = [(f"seat {j}", float(x)) for j, x in enumerate(row)]
    if winner is not None:
        pts.append(("winner", float(row[winner])))
        others = [x for j, x in enumerate(row) if j != winner]
        if others:
            pts.append(("others", sum(others) / len(others)))
    return pts


def compare_variants(
    by_var: dict[int, list[Game]], sweep: Sweep, strong: dict[int, tuple[int, int] | None], n_players: int
) -> list[dict[str, Any]]:
    """Each variant against the baseline (variant 0) on paired games (same pair, deal and rotation): the mean
    of the per-game differences, clustered by deal (`stats.paired`) — for win credits, the difference of the
    win rates as the tables define them (a tie is a share of a win)."""
    base = {g.pair_key(): g for g in by_var.get(0, [])}
    out = []
    for v in range(1, len(sweep.variants)):
        other = {g.pair_key(): g for g in by_var.get(v, [])}
        keys = sorted(set(base) & set(other))
        if not keys:
            continue

        def test(
            first: Any,
            second: Any,
            ks: list[tuple[int, int, int]] = keys,
            other: dict[tuple[int, int, int], Game] = other,
        ) -> dict[str, Any]:
            return stats.paired(
                [float(second(other[k])) - float(first(base[k])) for k in ks], [k[1] for k in ks]
            )

        entry: dict[str, Any] = {
            "variant": v,
            "label": sweep.labels[v],
            "baseline": sweep.labels[0],
            "paired_games": len(keys),
        }
        skill = []
        for p in range(len(sweep.pairs)):
            pk = [k for k in keys if k[0] == p]
            sw = strong[p]
            if not pk or sw is None:  # two copies of one bot: no skill to compare
                continue
            s = sw[0]
            skill.append(
                {
                    "pair": p,
                    "stronger": sweep.bots[s],
                    **test(lambda g, s=s: g.bot_credit(s), lambda g, s=s: g.bot_credit(s), pk),
                }
            )
        entry["skill_rate"] = skill
        entry["seat_win_rate"] = [
            {"seat": j, **test(lambda g, j=j: g.seat_credit(j), lambda g, j=j: g.seat_credit(j))}
            for j in range(n_players)
        ]
        fk = [k for k in keys if base[k].first_player is not None and other[k].first_player is not None]
        if fk:
            entry["first_player_win_rate"] = test(lambda g: g.first_credit, lambda g: g.first_credit, fk)
        kinds = sorted({g.termination for k in keys for g in (base[k], other[k])})
        if len(kinds) > 1:
            # how games end (VP target, round limit, …): each way's paired rate
            entry["endings"] = {
                kind: test(
                    lambda g, kind=kind: g.termination == kind, lambda g, kind=kind: g.termination == kind
                )
                for kind in kinds
            }
        entry["length"] = test(lambda g: g.length(), lambda g: g.length())
        names = [
            k
            for k, x in base[keys[0]].measures.items()
            if k not in SKIP_MEASURES and isinstance(x, int | float)
        ]
        entry["measures"] = {
            name: test(
                lambda g, name=name: g.measures.get(name) or 0, lambda g, name=name: g.measures.get(name) or 0
            )
            for name in sorted(names)
        }
        # the designer's metrics, on the paired games where both variants have the metric (a game with a shared
        # win has no `decided_at`, for one)
        entry["design"] = {}
        for key in design.METRICS:
            dk = [k for k in keys if _metric(base[k], key) is not None and _metric(other[k], key) is not None]
            if dk:
                entry["design"][key] = test(
                    lambda g, key=key: _metric(g, key), lambda g, key=key: _metric(g, key), dk
                )
        out.append(entry)
    return out


def _metric(g: Game, key: str) -> float | None:
    x = (g.metrics or {}).get(key)
    return None if x is None else float(x)


def tournament_table(games: list[Game], sweep: Sweep) -> dict[str, Any]:
    """Cross table (row bot's win rate against column bot) and every bot's overall rate."""
    k = len(sweep.bots)
    cells: list[list[dict[str, Any] | None]] = [[None] * k for _ in range(k)]
    overall = []
    for i in range(k):
        tot: list[float] = []
        tot_deals: list[int] = []
        for j in range(k):
            if i == j:
                continue
            gs = [g for g in games if {g.bot_a, g.bot_b} == {i, j}]
            if not gs:
                continue
            c = [g.bot_credit(i) for g in gs]
            cells[i][j] = stats.rate_of(c, [g.deal for g in gs])
            tot += c
            tot_deals += [g.deal for g in gs]
        overall.append({"bot": sweep.bots[i], **stats.rate_of(tot, tot_deals)})
    ranking = sorted(range(k), key=lambda i: -(overall[i]["rate"] or 0))
    return {
        "bots": sweep.bots,
        "cross": cells,
        "overall": overall,
        "ranking": [sweep.bots[i] for i in ranking],
    }


# --------------------------------------------------------------------------- per-game table


def game_rows(records: list[dict[str, Any]], sweep: Sweep) -> list[dict[str, Any]]:
    """One flat row per game: identifiers, seats, result, each seat's final score and its components, every
    scalar measure, the game's CPU and wall time."""
    games = load_games(records, sweep)
    strong = {p: stronger_of(games, p, sweep) for p in range(len(sweep.pairs))}
    names: list[str] = []
    seats = max((g.n for g in games), default=0)
    parts: list[str] = []
    for g in games:
        for k, x in g.measures.items():
            if k not in ("curves",) and not isinstance(x, dict | list) and k not in names:
                names.append(k)
        for comp in g.measures.get("score_components") or []:
            parts += [c for c in comp if c not in parts]
    rows = []
    for g in sorted(games, key=lambda g: (g.variant, g.pair, g.deal, g.rotation)):
        sw = strong[g.pair]
        row: dict[str, Any] = {
            "key": g.rec["meta"]["key"],
            "variant": g.variant,
            "label": sweep.labels[g.variant],
            "pair": g.pair,
            "bot_a": sweep.bots[g.bot_a],
            "bot_b": sweep.bots[g.bot_b],
            "deal": g.deal,
            "rotation": g.rotation,
            "seed": g.rec["seed"],
            "seats": "|".join(g.seats),
            "winners": "|".join(map(str, g.winners)),
            "termination": g.termination,
            "credit_a": g.credit_a,
            "stronger_credit": g.bot_credit(sw[0]) if sw is not None else None,
            "first_player_credit": g.first_credit if g.first_player is not None else None,
            "actions": g.actions,
            "decisions": g.decisions,
            "cpu_seconds": g.cpu,
            "wall_seconds": g.seconds,
            "play": g.play,
        }
        comps = g.measures.get("score_components") or []
        for j in range(seats):
            row[f"score_{j}"] = g.scores[j] if j < len(g.scores) else None
            for c in parts:
                row[f"score_{j}_{c}"] = comps[j].get(c) if j < len(comps) else None
        for k in names:
            row[k] = g.measures.get(k)
        for k in design.METRICS:  # the designer's metrics (`lab.design`): empty for records from before them
            row[k] = (g.metrics or {}).get(k)
        rows.append(row)
    return rows


def write_tables(records: list[dict[str, Any]], sweep: Sweep, out: Path) -> list[str]:
    """games.csv always; games.parquet when pyarrow is importable. Returns the files written."""
    rows = game_rows(records, sweep)
    written = []
    if rows:
        with (out / "games.csv").open("w", newline="", encoding="utf-8") as fh:
            w = csv.DictWriter(fh, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)
        written.append("games.csv")
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            pass
        else:
            pq.write_table(pa.Table.from_pylist(rows), out / "games.parquet")
            written.append("games.parquet")
    return written


# --------------------------------------------------------------------------- HTML


def _png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def plots(summary: dict[str, Any]) -> list[tuple[str, str]]:
    """(title, PNG data URI) of every plot."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    out: list[tuple[str, str]] = []
    vs = [v for v in summary["variants"] if v.get("games")]
    if not vs:
        return out
    labels = [v["label"] for v in vs]
    x = list(range(len(vs)))
    game = summary.get("game", "")

    def legend(ax: Any, size: int = 7) -> None:
        # outside the axes, at their right: a legend never covers the data
        ax.legend(
            fontsize=size, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, frameon=False
        )

    def bars(ax: Any, rates: list[dict[str, Any]], offset: float, width: float, label: str) -> None:
        ys = [r["rate"] for r in rates]
        lo = [max(0.0, r["rate"] - r["low"]) for r in rates]
        hi = [max(0.0, r["high"] - r["rate"]) for r in rates]
        ax.bar([i + offset for i in x], ys, width, yerr=[lo, hi], capsize=3, label=label)

    # skill only between different bots (two copies of one bot have no stronger one)
    skilled = [
        p
        for p, e in enumerate(vs[0]["luck_vs_skill"])
        if e.get("skill_rate")
        and all(p < len(v["luck_vs_skill"]) and v["luck_vs_skill"][p].get("skill_rate") for v in vs)
    ]
    if skilled:
        fig, ax = plt.subplots(figsize=(max(5, 1.6 * len(vs)), 3.2))
        width = 0.8 / len(skilled)
        for i, p in enumerate(skilled):
            rates = [v["luck_vs_skill"][p]["skill_rate"] for v in vs]
            name = f"{vs[0]['luck_vs_skill'][p]['stronger']} beats {vs[0]['luck_vs_skill'][p]['weaker']}"
            bars(ax, rates, (i - (len(skilled) - 1) / 2) * width, width, name)
        ax.axhline(0.5, color="grey", lw=0.8, ls="--")
        ax.set_xticks(x, labels, rotation=20, ha="right")
        ax.set_ylim(0, 1)
        ax.set_ylabel("stronger bot's win rate")
        legend(ax)
        out.append(
            (
                "Luck vs skill: the stronger bot's win rate, a tie a share of a win (95% Wilson intervals, "
                "clustered by deal)",
                _png(fig),
            )
        )

    seats = len(vs[0]["seat_win_rate"])
    fig, ax = plt.subplots(figsize=(max(5, 1.6 * len(vs)), 3.2))
    width = 0.8 / seats
    for j in range(seats):
        bars(
            ax, [v["seat_win_rate"][j] for v in vs], (j - (seats - 1) / 2) * width, width, seat_name(game, j)
        )
    ax.axhline(1 / seats, color="grey", lw=0.8, ls="--")
    ax.set_xticks(x, labels, rotation=20, ha="right")
    ax.set_ylabel("win rate")
    legend(ax)
    out.append(
        (
            "Win rate per seat, a tie a share of a win (bots rotated over seats; 95% Wilson intervals, "
            "clustered by deal)",
            _png(fig),
        )
    )

    gaps = sorted({e["rank_gap"] for v in vs for e in v["luck_vs_skill"] if e.get("skill_rate")})
    if len(gaps) > 1:
        fig, ax = plt.subplots(figsize=(5, 3.2))
        for v in vs:
            pts = sorted(
                (e["rank_gap"], e["skill_rate"]["rate"]) for e in v["luck_vs_skill"] if e.get("skill_rate")
            )
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=v["label"])
        ax.set_xlabel("rank gap of the two bots")
        ax.set_ylabel("stronger bot's win rate")
        legend(ax)
        out.append(("Skill rate against the strength gap", _png(fig)))

    fig, ax = plt.subplots(figsize=(max(5, 1.6 * len(vs)), 3.2))
    kinds = sorted({k for v in vs for k in v["endings"]})
    bottom = [0.0] * len(vs)
    for k in kinds:
        ys = [v["endings"].get(k, {"rate": 0})["rate"] for v in vs]
        ax.bar(x, ys, 0.6, bottom=bottom, label=k)
        bottom = [b + y for b, y in zip(bottom, ys, strict=True)]
    ax.set_xticks(x, labels, rotation=20, ha="right")
    ax.set_ylabel("share of games")
    legend(ax)
    out.append(("How games end", _png(fig)))

    two_sides = summary.get("players") == 2
    lines = (("seat 0", "-"), ("seat 1", ":")) if two_sides else (("winner", "-"), ("others", ":"))
    who_name = {
        "seat 0": seat_name(game, 0),
        "seat 1": seat_name(game, 1),
        "winner": "winner",
        "others": "others",
    }
    for name in sorted({n for v in vs for n in v["curves"]}):
        fig, ax = plt.subplots(figsize=(6, 3.2))
        for v in vs:
            c = v["curves"].get(name, {})
            for who, style in lines:
                ys = c.get(who)
                if ys:
                    ax.plot(
                        range(1, len(ys) + 1), ys, style, marker=".", label=f"{v['label']} {who_name[who]}"
                    )
        ax.set_xlabel("round")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel(name)
        legend(ax, 6)
        what = (
            f"{seat_name(game, 0)} (solid) and {seat_name(game, 1)} (dotted)"
            if two_sides
            else "the eventual winner (solid) and the others (dotted)"
        )
        out.append(
            (f"{name} at the end of each round: {what}; means over the games still running", _png(fig))
        )
    return out


def _fmt_rate(r: dict[str, Any] | None) -> str:
    if not r or r.get("rate") is None:
        return "–"
    return f"{r['rate']:.1%} [{r['low']:.1%}, {r['high']:.1%}]"


def _fmt_mean(m: dict[str, Any] | None) -> str:
    if not m or m.get("mean") is None:
        return "–"
    return f"{m['mean']:.2f} [{m['low']:.2f}, {m['high']:.2f}]"


T: dict[str, tuple[str, str]] = {
    "findings": ("Findings", "Risultati principali"),
    "warnings": ("Warnings", "Avvertenze"),
    "no_warnings": (
        "No warnings: nothing suggests this comparison cannot tell.",
        "Nessuna avvertenza: nulla indica che il confronto non possa distinguere.",
    ),
    "needed": ("Games needed", "Partite necessarie"),
    "needed_note": (
        "Games per variant to detect a 5-point change in each main rate (two-sided 5% test, 80% "
        "power): paired, from this run's spread of per-deal differences between variants; independent, "
        "an upper bound for unpaired games, times the design effect of the clustering by deal. This run "
        "has {n}.",
        "Partite per variante per rilevare un cambiamento di 5 punti in ciascun tasso principale "
        "(test bilaterale al 5%, potenza 80%): appaiate, dalla dispersione delle differenze per "
        "distribuzione tra varianti di questa prova; indipendenti, un limite superiore per partite non "
        "appaiate, per l'effetto del disegno del raggruppamento per distribuzione. Questa prova ne ha "
        "{n}.",
    ),
    "paired": ("paired", "appaiate"),
    "independent": ("independent", "indipendenti"),
    "rate": ("rate", "tasso"),
    "now": ("now", "ora"),
    "games": ("games", "partite"),
    "variants": ("Variants", "Varianti"),
    "variant": ("variant", "variante"),
    "wins": ("wins", "vittorie"),
    "first": ("first player wins", "vince il primo giocatore"),
    "length": ("length (turns/rounds)", "durata (turni/round)"),
    "actions": ("atomic actions", "azioni atomiche"),
    "endings": ("endings", "finali"),
    "luck": ("Luck vs skill", "Fortuna e abilità"),
    "pair": ("pair", "coppia"),
    "gap": ("rank gap", "distanza in classifica"),
    "stronger": ("stronger bot's win rate", "tasso di vittoria del bot più forte"),
    "dice": ("dice share (ICC)", "quota dei dadi (ICC)"),
    "identical": ("identical rotations", "rotazioni identiche"),
    "same_bot": ("– (one bot twice: no skill)", "– (lo stesso bot due volte: niente abilità)"),
    "withheld": ("withheld (identical rotations)", "non data (rotazioni identiche)"),
    "p_adj": ("p ({method})", "p ({method})"),
    "cpu": ("CPU {cpu} s", "CPU {cpu} s"),
    "wall": ("wall time of play {wall} s", "tempo reale di gioco {wall} s"),
    "wall_games": ("the games' wall time summed {wall} s", "somma dei tempi reali delle partite {wall} s"),
    "bots": ("Bots", "Bot"),
    "bot": ("bot", "bot"),
    "win_rate": ("win rate", "tasso di vittoria"),
    "measures": ("Game measures (mean per game)", "Misure di gioco (media per partita)"),
    "design": (
        "Game metrics (per variant, 95% intervals clustered by deal)",
        "Metriche di gioco (per variante, intervalli al 95% raggruppati per distribuzione)",
    ),
    "design_note": (
        "Each game's standing is read at every decision from the game's own score; the lead is the "
        "strictly highest score. Definitions: the lab's README (after Ludii's metrics).",
        "La posizione di ogni partita è letta a ogni decisione dal punteggio del gioco; il comando è "
        "il punteggio strettamente più alto. Definizioni: il README del laboratorio (sulle metriche "
        "di Ludii).",
    ),
    "meaning": ("what it says", "che cosa dice"),
    "against": ("Against the baseline", "Rispetto al riferimento"),
    "measure": ("measure", "misura"),
    "diff": ("difference vs baseline [95%]", "differenza dal riferimento [95%]"),
    "test": ("test", "test"),
    "tournament": ("Tournament", "Torneo"),
    "row_beats": ("row beats column", "la riga batte la colonna"),
    "overall": ("overall", "complessivo"),
    "plots": ("Plots", "Grafici"),
    "methods": ("Methods", "Metodo"),
    "skill_rate": ("skill rate", "tasso di abilità"),
    "first_rate": ("first player win rate", "vittorie del primo giocatore"),
    "json": ("Summary (JSON)", "Riepilogo (JSON)"),
    "show": ("show", "mostra"),
    "ends_by": ("games ending by", "partite finite per"),
}
METHODS = (
    "Every variant is played on the same seeds (paired deals) and every pair of bots on both seat rotations, so "
    "seat advantage and dice noise cancel in the comparisons. A win rate counts a tie as a share of a win (a "
    "two-way tie is half a win) in every table, finding, test and plot. The unit of independence is the deal "
    "(its seed, in every variant and rotation): rates carry 95% Wilson intervals on the games divided by the "
    "design effect of their clustering by deal, means 95% t-intervals with standard errors clustered by deal. "
    "<b>Skill rate</b>: the win rate of the stronger of two different bots (more wins over the whole sweep); "
    "two copies of one bot have none. <b>Identical rotations</b>: the share of deals whose two seat rotations "
    "were played move for move alike. <b>Dice share</b>: ICC(1), over the two seat rotations of each seed, of "
    "the win share of the even seats less its mean per rotation (which holds the seat and skill effects) — the "
    "share of the result's variance explained by the seed (dice, draws, deal) favouring some seats whichever "
    "bot sits there; withheld where 5% or more of the rotations are identical, since it would then measure how "
    "deterministic the bots are, not the dice. Tests against the first variant: the mean of the paired "
    "per-game differences (the same pair, deal and rotation) with standard errors clustered by deal, t with "
    "deals − 1 degrees of freedom, for rates and numbers alike. All of a report's tests are adjusted together "
    "with <b>{method}'s method</b> ({tests} tests); the findings state a change only when its adjusted p "
    "&lt; 0.05. Games needed: statsmodels' sample size for two proportions, times the design effect "
    "(independent), and a paired t-test's power on this run's spread of per-deal differences (paired). CPU "
    "time is each game's process time in its worker; wall time is reported apart.",
    "Ogni variante è giocata sugli stessi semi (distribuzioni appaiate) e ogni coppia di bot su entrambe le "
    "rotazioni dei posti, così il vantaggio del posto e il rumore dei dadi si annullano nei confronti. Un tasso "
    "di vittoria conta un pareggio come una quota di vittoria (un pareggio a due è mezza vittoria) in ogni "
    "tabella, risultato, test e grafico. L'unità indipendente è la distribuzione (il suo seme, in ogni "
    "variante e rotazione): i tassi hanno intervalli di Wilson al 95% sulle partite divise per l'effetto del "
    "disegno del loro raggruppamento per distribuzione, le medie intervalli t al 95% con errori standard "
    "raggruppati per distribuzione. <b>Tasso di abilità</b>: il tasso di vittoria del più forte di due bot "
    "diversi; due copie dello stesso bot non ne hanno. <b>Rotazioni identiche</b>: la quota di distribuzioni "
    "le cui due rotazioni sono state giocate mossa per mossa uguali. <b>Quota dei dadi</b>: ICC(1) sulle due "
    "rotazioni di ogni seme, la parte della varianza del risultato spiegata dal seme (dadi, pescate, "
    "distribuzione); non data dove almeno il 5% delle rotazioni è identico, perché misurerebbe quanto sono "
    "deterministici i bot, non i dadi. Test rispetto alla prima variante: la media delle differenze appaiate "
    "partita per partita con errori standard raggruppati per distribuzione, t con distribuzioni − 1 gradi di "
    "libertà, per tassi e numeri. Tutti i test del rapporto sono corretti insieme con il <b>metodo di "
    "{method}</b> ({tests} test); i risultati principali dichiarano un cambiamento solo se il p corretto è "
    "&lt; 0,05. Partite necessarie: la numerosità di statsmodels per due proporzioni, per l'effetto del "
    "disegno (indipendenti), e la potenza di un test t appaiato sulla dispersione delle differenze per "
    "distribuzione di questa prova (appaiate). Il tempo CPU è il tempo di processo di ogni partita nel suo "
    "worker; il tempo reale è riportato a parte.",
)


def _environment() -> Any:
    """The Jinja2 environment of the report templates (shipped in `hegemon/lab/templates`), autoescaping."""
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader("hegemon.lab", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )


_ENV: Any = None


def _template() -> Any:
    global _ENV
    if _ENV is None:
        _ENV = _environment()
    return _ENV.get_template("report.html.j2")


def _fmt_share(x: dict[str, Any] | None) -> str:
    if not x or x.get("share") is None:
        return "–"
    return f"{x['share']:.0%} ({x['identical']}/{x['deals']})"


def _fmt_dice(d: dict[str, Any], t: dict[str, str]) -> str:
    if d.get("withheld"):
        return t["withheld"]
    return "–" if d.get("icc") is None else f"{d['icc']:.2f}"


def _times(summary: dict[str, Any], t: dict[str, str]) -> str:
    """ "CPU 160 s · wall time of play 309 s": CPU time of the games, and the run's wall time apart."""
    parts = []
    if summary.get("cpu_seconds") is not None:
        parts.append(t["cpu"].format(cpu=f"{summary['cpu_seconds']:.0f}"))
    if summary.get("wall_seconds") is not None:
        parts.append(t["wall"].format(wall=f"{summary['wall_seconds']:.0f}"))
    elif summary.get("game_wall_seconds") is not None:
        parts.append(t["wall_games"].format(wall=f"{summary['game_wall_seconds']:.0f}"))
    return " · ".join(parts)


def _diff_rate(e: dict[str, Any]) -> str:
    return f"{e['diff']:+.1%} [{e['low']:+.1%}, {e['high']:+.1%}]"


def _diff_mean(e: dict[str, Any]) -> str:
    return f"{e['diff']:+.2f} [{e['low']:+.2f}, {e['high']:+.2f}]"


def report_context(summary: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    """What the report template shows, as plain text (the template escapes it): headings in `lang`, every
    table's head and rows, the plots. Only `methods` is markup (a constant of this module, marked safe in the
    template)."""
    li = 1 if lang == "it" else 0
    t = {k: v[li] for k, v in T.items()}
    game = summary["game"]
    vs = [v for v in summary["variants"] if v.get("games")]
    vname = {v["variant"]: variant_name(summary, v["variant"], lang) for v in summary["variants"]}
    mt = summary.get("multiple_testing") or {}
    method = stats.MULTIPLE_TESTING_NAMES.get(mt.get("method", stats.MULTIPLE_TESTING), ("Holm", "Holm"))[li]
    ctx: dict[str, Any] = {
        "lang": "it" if li else "en",
        "t": t,
        "game": game,
        "kind": summary["kind"],
        "games": summary["games"],
        "games_planned": summary["games_planned"],
        "bots": ", ".join(summary["bots"]),
        "seed": summary["seed"],
        "players": summary["players"],
        "time": _times(summary, t),
        "findings": summary.get("findings_it" if li else "findings") or [],
        "warnings": summary.get("warnings_it" if li else "warnings") or [],
        "needed": None,
        "measures": None,
        "against": None,
        "tournament": None,
    }
    need = summary.get("games_needed") or []
    if need:
        n_now = min((v["games"] for v in vs), default=0)
        ctx["needed"] = {
            "note": t["needed_note"].format(n=n_now),
            "head": [t["rate"], t["now"], t["paired"], t["independent"]],
            "rows": [
                [
                    x["name_it" if li else "name"],
                    f"{x['value']:.1%}",
                    "–" if x.get("games_paired") is None else str(x["games_paired"]),
                    str(x["games_independent"]),
                ]
                for x in need
            ],
        }
    seats = len(vs[0]["seat_win_rate"]) if vs else 0
    ctx["variants"] = {
        "head": [t["variant"], t["games"]]
        + [f"{seat_name(game, j, lang)} {t['wins']}" for j in range(seats)]
        + [t["first"], t["length"], t["actions"], t["endings"]],
        "rows": [
            [vname[v["variant"]], str(v["games"])]
            + [_fmt_rate(v["seat_win_rate"][j]) for j in range(seats)]
            + [
                _fmt_rate(v.get("first_player_win_rate")),
                _fmt_mean(v["length"]["turns_or_rounds"]),
                _fmt_mean(v["length"]["actions"]),
                ", ".join(f"{k} {e['rate']:.0%}" for k, e in v["endings"].items()),
            ]
            for v in vs
        ],
    }
    ctx["luck"] = {
        "head": [t["variant"], t["pair"], t["gap"], t["stronger"], t["identical"], t["dice"]],
        "rows": [
            [
                vname[v["variant"]],
                " vs ".join(e["bots"]),
                str(e["rank_gap"]),
                t["same_bot"]
                if e.get("skill_rate") is None
                else f"{e['stronger']}: {_fmt_rate(e['skill_rate'])}",
                _fmt_share(e.get("identical_rotations")),
                _fmt_dice(e["dice_share"], t),
            ]
            for v in vs
            for e in v["luck_vs_skill"]
        ],
    }
    ctx["bot_rates"] = {
        "head": [t["variant"], t["bot"], t["win_rate"]],
        "rows": [[vname[v["variant"]], b["bot"], _fmt_rate(b)] for v in vs for b in v["bot_win_rate"]],
    }
    ctx["design"] = design_table(summary, vs, vname, lang)
    if vs and vs[0].get("measures"):
        names = list(vs[0]["measures"])
        ctx["measures"] = {
            "head": [t["variant"], *(measure_name(k, lang) for k in names)],
            "rows": [[vname[v["variant"]]] + [_fmt_mean(v["measures"].get(k)) for k in names] for v in vs],
        }
    if summary["comparisons"]:
        rows = []

        def row(label: str, what: str, e: dict[str, Any], diff: str) -> list[str]:
            adj = e.get("p_adjusted")
            return [
                label,
                what,
                diff,
                f"{e['p_value']:.3g}",
                "–" if adj is None else f"{adj:.3g}",
                test_name(e["test"], lang),
            ]

        for c in summary["comparisons"]:
            label = vname[c["variant"]]
            for e in c["skill_rate"]:
                rows.append(row(label, f"{t['skill_rate']} ({e['stronger']})", e, _diff_rate(e)))
            for e in c["seat_win_rate"]:
                rows.append(
                    row(label, f"{seat_name(game, e['seat'], lang)}: {t['win_rate']}", e, _diff_rate(e))
                )
            f = c.get("first_player_win_rate")
            if f:
                rows.append(row(label, t["first_rate"], f, _diff_rate(f)))
            for kind, e in (c.get("endings") or {}).items():
                rows.append(row(label, f"{t['ends_by']}: {kind}", e, _diff_rate(e)))
            ln = c["length"]
            rows.append(row(label, measure_name("length", lang), ln, _diff_mean(ln)))
            for k, m in c["measures"].items():
                if m["diff"] is not None:
                    rows.append(row(label, measure_name(k, lang), m, _diff_mean(m)))
            for k, m in (c.get("design") or {}).items():
                if m["diff"] is not None:
                    rows.append(
                        row(
                            label,
                            design.name(k, lang),
                            m,
                            (_diff_rate if k in design.RATES else _diff_mean)(m),
                        )
                    )
        ctx["against"] = {
            "baseline": vname[0],
            "head": [t["variant"], t["measure"], t["diff"], "p", t["p_adj"].format(method=method), t["test"]],
            "rows": rows,
        }
    tour = summary.get("tournament")
    if tour:
        ctx["tournament"] = {
            "head": [t["row_beats"], *tour["bots"], t["overall"]],
            "rows": [
                [b] + [_fmt_rate(c) if c else "–" for c in tour["cross"][i]] + [_fmt_rate(tour["overall"][i])]
                for i, b in enumerate(tour["bots"])
            ],
        }
    ctx["plots"] = plots(summary)
    ctx["methods"] = METHODS[li].format(
        method=method, tests=mt.get("tests", 0)
    )  # a constant of this module with <b> and &lt; markup: the template marks it safe
    ctx["summary_json"] = json.dumps(summary, indent=1, default=str)[:200000]
    return ctx


def design_table(
    summary: dict[str, Any], vs: list[dict[str, Any]], vname: dict[int, str], lang: str
) -> dict[str, Any] | None:
    """The designer's metrics (`lab.design`), one row each: its name, one plain sentence saying what it is, and
    each variant's value with its 95% interval clustered by deal. None when no variant has them."""
    if not any(v.get("design") for v in vs):
        return None
    li = 1 if lang == "it" else 0
    game = summary["game"]
    rows: list[list[str]] = []

    def add(key: str, cells: list[str], label: str | None = None, say: bool = True) -> None:
        rows.append([label or design.name(key, lang), design.explain(key, lang) if say else "", *cells])

    add("rounds", [_fmt_mean(v["length"].get("rounds")) for v in vs])
    add("decisions", [_fmt_mean(v["length"].get("decisions")) for v in vs])
    for key in design.METRICS:
        if any(key in (v.get("design") or {}) for v in vs):
            fmt = _fmt_rate if key in design.RATES else _fmt_mean
            add(key, [fmt((v.get("design") or {}).get(key)) for v in vs])
    seats = len(vs[0]["seat_win_rate"])
    for j in range(seats):
        add(
            "seat",
            [_fmt_rate(v["seat_win_rate"][j]) for v in vs],
            f"{seat_name(game, j, lang)}: {T['win_rate'][li]}",
            say=j == 0,
        )
    if any(v.get("first_player_win_rate") for v in vs):
        add("first_player", [_fmt_rate(v.get("first_player_win_rate")) for v in vs])
    head = [T["measure"][li], T["meaning"][li], *(vname[v["variant"]] for v in vs)]
    return {"head": head, "rows": rows}


def render_html(summary: dict[str, Any], lang: str = "en") -> str:
    """A self-contained HTML page (inline CSS, plots as data URIs) from the `report.html.j2` template:
    findings and warnings first, then the results, then the methods."""
    return str(_template().render(report_context(summary, lang)))
