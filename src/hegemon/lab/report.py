"""Summaries of a sweep's records: per-variant rates with intervals, tests between variants, luck versus
skill; the per-game table (CSV, and Parquet when pyarrow is installed) and a self-contained HTML report with
matplotlib plots embedded as PNG data.

Definitions used in the report:
- *win credit*: a game's win is shared equally among tied winners; a bot's credit in a game is the share of
  the win held by its seats.
- *stronger bot* of a pair: the one with more win credit over all variants of the sweep; *skill rate*: how
  often it wins (credit > 1/2) — 1/2 means luck decides everything, 1 means skill does;
- *rank gap*: the distance of the two bots in the `--bots` list (list strongest first to read it as a
  budget gap);
- *dice share*: ICC(1), over the groups of games that share a chance seed (the two seat rotations of one
  deal), of the win share of the even seats less its mean per rotation (the mean holds the seat and skill
  effects): the share of the result's variance explained by the seed — dice, draws, deal — favouring some
  seats whichever bot sits there;
- tests compare each variant with the first (the baseline) on the same deals and seats (McNemar's exact test
  for win/loss results, the paired t-test for numbers), with the Agresti-Min interval of the paired difference of rates.
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

from hegemon.lab import stats
from hegemon.lab.findings import annotate, measure_name, seat_name, variant_name
from hegemon.lab.sweep import Sweep

SKIP_MEASURES = {"first_player", "curves", "end_reason", "turns", "rounds"}


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
        self.termination = out.get("termination") or "unfinished"
        self.measures: dict[str, Any] = meta.get("measures") or {}
        self.actions = meta["actions"] if "actions" in meta else len(rec.get("actions") or [])
        self.decisions = meta.get("decisions", 0)
        self.seconds = meta.get("seconds", 0.0)
        fp = self.measures.get("first_player")
        self.first_player = fp
        self.first_won = (fp in self.winners) if fp is not None and self.winners else False

    def seat_credit(self, j: int) -> float:
        return 1.0 / len(self.winners) if j in self.winners else 0.0

    def length(self) -> float:
        t = self.measures.get("turns")
        return float(t if t is not None else self.measures.get("rounds") or self.actions)

    def pair_key(self) -> tuple[int, int, int]:
        return (self.pair, self.deal, self.rotation)


def load_games(records: Iterable[dict[str, Any]], sweep: Sweep) -> list[Game]:
    return [Game(r, sweep) for r in records]


def stronger_of(games: list[Game], pair: int, sweep: Sweep) -> tuple[int, int]:
    a, b = sweep.pairs[pair]
    ca = sum(g.credit_a for g in games if g.pair == pair)
    cb = sum(g.credit_b for g in games if g.pair == pair)
    return (a, b) if ca >= cb else (b, a)


def stronger_won(g: Game, strong: int) -> bool:
    c = g.credit_a if strong == g.bot_a else g.credit_b
    return c > 0.5


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
        entry["seat_win_rate"] = [stats.rate(sum(g.seat_credit(j) for g in gs), n) for j in range(n_players)]
        fp = [g for g in gs if g.first_player is not None]
        entry["first_player_win_rate"] = stats.rate(sum(1 for g in fp if g.first_won), len(fp)) if fp else None
        bots = []
        for k, spec in enumerate(sweep.bots):
            mine = [g for g in gs if k in (g.bot_a, g.bot_b)]
            if mine:
                c = sum(g.credit_a if g.bot_a == k else g.credit_b for g in mine)
                bots.append({"bot": spec, **stats.rate(c, len(mine))})
        entry["bot_win_rate"] = bots
        luck = []
        for p in range(len(sweep.pairs)):
            pg = [g for g in gs if g.pair == p]
            if not pg:
                continue
            s, w = strong[p]
            won = sum(1 for g in pg if stronger_won(g, s))
            # the result seen from the seats: the win share of the even seats (bot A's seats in rotation 0,
            # bot B's in rotation 1), less its mean per rotation (which holds the seat and skill effects); a seed
            # that favours some seats whoever sits there makes its two replays agree
            by_rot: dict[int, list[float]] = defaultdict(list)
            for g in pg:
                by_rot[g.rotation].append(g.even_credit)
            rot_mean = {r: sum(x) / len(x) for r, x in by_rot.items()}
            groups: dict[int, list[float]] = defaultdict(list)
            for g in pg:
                groups[g.deal].append(g.even_credit - rot_mean[g.rotation])
            luck.append(
                {
                    "pair": p,
                    "stronger": sweep.bots[s],
                    "weaker": sweep.bots[w],
                    "rank_gap": abs(sweep.pairs[p][0] - sweep.pairs[p][1]),
                    "skill_rate": stats.rate(won, len(pg)),
                    "dice_share": stats.icc1(list(groups.values())),
                }
            )
        entry["luck_vs_skill"] = luck
        entry["length"] = {
            "turns_or_rounds": stats.mean_ci([g.length() for g in gs]),
            "rounds": stats.mean_ci([float(g.measures.get("rounds") or 0) for g in gs]),
            "actions": stats.mean_ci([float(g.actions) for g in gs]),
            "decisions": stats.mean_ci([float(g.decisions) for g in gs]),
        }
        endings: dict[str, int] = defaultdict(int)
        for g in gs:
            endings[g.termination] += 1
        entry["endings"] = {k: stats.rate(c, n) for k, c in sorted(endings.items())}
        reasons: dict[str, int] = defaultdict(int)
        for g in gs:
            r = g.measures.get("end_reason")
            if r:
                reasons[r] += 1
        if reasons:
            entry["end_reasons"] = {k: stats.rate(c, n) for k, c in sorted(reasons.items())}
        measure_names = sorted(
            k for k, x in gs[0].measures.items() if k not in SKIP_MEASURES and isinstance(x, int | float)
        )
        entry["measures"] = {k: stats.mean_ci([float(g.measures.get(k) or 0) for g in gs]) for k in measure_names}
        entry["curves"] = curves(gs)
        entry["seconds_per_game"] = sum(g.seconds for g in gs) / n
        variants.append(entry)
    comparisons = compare_variants(by_var, sweep, strong, n_players)
    total_seconds = sum(g.seconds for g in games)
    summary: dict[str, Any] = {
        "game": sweep.game,
        "kind": sweep.kind,
        "bots": sweep.bots,
        "pairs": [[sweep.bots[a], sweep.bots[b]] for a, b in sweep.pairs],
        "seed": sweep.seed,
        "players": n_players,
        "games": len(games),
        "games_planned": sweep.deals * 2 * len(sweep.variants) * len(sweep.pairs),
        "cpu_seconds": round(total_seconds, 3),
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
    by_var: dict[int, list[Game]], sweep: Sweep, strong: dict[int, tuple[int, int]], n_players: int
) -> list[dict[str, Any]]:
    """Each variant against the baseline (variant 0) on paired games (same pair, deal and rotation)."""
    base = {g.pair_key(): g for g in by_var.get(0, [])}
    out = []
    for v in range(1, len(sweep.variants)):
        other = {g.pair_key(): g for g in by_var.get(v, [])}
        keys = sorted(set(base) & set(other))
        if not keys:
            continue
        entry: dict[str, Any] = {"variant": v, "label": sweep.labels[v], "baseline": sweep.labels[0], "paired_games": len(keys)}
        skill = []
        for p in range(len(sweep.pairs)):
            pk = [k for k in keys if k[0] == p]
            if not pk:
                continue
            s = strong[p][0]
            pairs = [(stronger_won(base[k], s), stronger_won(other[k], s)) for k in pk]
            d, lo, hi = stats.paired_diff(pairs)
            skill.append(
                {"pair": p, "stronger": sweep.bots[s], "diff": d, "low": lo, "high": hi, **stats.mcnemar(pairs)}
            )
        entry["skill_rate"] = skill
        seat = []
        for j in range(n_players):
            pairs = [(j in base[k].winners, j in other[k].winners) for k in keys]
            d, lo, hi = stats.paired_diff(pairs)
            seat.append({"seat": j, "diff": d, "low": lo, "high": hi, **stats.mcnemar(pairs)})
        entry["seat_win_rate"] = seat
        fp = [(base[k].first_won, other[k].first_won) for k in keys if base[k].first_player is not None]
        if fp:
            d, lo, hi = stats.paired_diff(fp)
            entry["first_player_win_rate"] = {"diff": d, "low": lo, "high": hi, **stats.mcnemar(fp)}
        kinds = sorted({g.termination for k in keys for g in (base[k], other[k])})
        if len(kinds) > 1:
            # how games end (VP target, round limit, …): each way's paired rate
            entry["endings"] = {}
            for kind in kinds:
                ends = [(base[k].termination == kind, other[k].termination == kind) for k in keys]
                d, lo, hi = stats.paired_diff(ends)
                entry["endings"][kind] = {"diff": d, "low": lo, "high": hi, **stats.mcnemar(ends)}
        entry["length"] = stats.paired_t([(base[k].length(), other[k].length()) for k in keys])
        names = [
            k for k, x in base[keys[0]].measures.items() if k not in SKIP_MEASURES and isinstance(x, int | float)
        ]
        entry["measures"] = {
            name: stats.paired_t(
                [(float(base[k].measures.get(name) or 0), float(other[k].measures.get(name) or 0)) for k in keys]
            )
            for name in sorted(names)
        }
        out.append(entry)
    return out


def tournament_table(games: list[Game], sweep: Sweep) -> dict[str, Any]:
    """Cross table (row bot's win rate against column bot) and every bot's overall rate."""
    k = len(sweep.bots)
    cells: list[list[dict[str, Any] | None]] = [[None] * k for _ in range(k)]
    overall = []
    for i in range(k):
        tot_c, tot_n = 0.0, 0
        for j in range(k):
            if i == j:
                continue
            gs = [g for g in games if {g.bot_a, g.bot_b} == {i, j}]
            if not gs:
                continue
            c = sum(g.credit_a if g.bot_a == i else g.credit_b for g in gs)
            cells[i][j] = stats.rate(c, len(gs))
            tot_c += c
            tot_n += len(gs)
        overall.append({"bot": sweep.bots[i], **stats.rate(tot_c, tot_n)})
    ranking = sorted(range(k), key=lambda i: -(overall[i]["rate"] or 0))
    return {"bots": sweep.bots, "cross": cells, "overall": overall, "ranking": [sweep.bots[i] for i in ranking]}


# --------------------------------------------------------------------------- per-game table

def game_rows(records: list[dict[str, Any]], sweep: Sweep) -> list[dict[str, Any]]:
    """One flat row per game: identifiers, seats, result and every scalar measure."""
    games = load_games(records, sweep)
    strong = {p: stronger_of(games, p, sweep) for p in range(len(sweep.pairs))}
    names: list[str] = []
    for g in games:
        for k, x in g.measures.items():
            if k not in ("curves",) and not isinstance(x, dict | list) and k not in names:
                names.append(k)
    rows = []
    for g in sorted(games, key=lambda g: (g.variant, g.pair, g.deal, g.rotation)):
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
            "stronger_won": int(stronger_won(g, strong[g.pair][0])),
            "first_player_won": int(g.first_won),
            "actions": g.actions,
            "decisions": g.decisions,
            "seconds": g.seconds,
        }
        for k in names:
            row[k] = g.measures.get(k)
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

    def bars(ax: Any, rates: list[dict[str, Any]], offset: float, width: float, label: str) -> None:
        ys = [r["rate"] for r in rates]
        lo = [max(0.0, r["rate"] - r["low"]) for r in rates]
        hi = [max(0.0, r["high"] - r["rate"]) for r in rates]
        ax.bar([i + offset for i in x], ys, width, yerr=[lo, hi], capsize=3, label=label)

    npairs = max(len(v["luck_vs_skill"]) for v in vs)
    fig, ax = plt.subplots(figsize=(max(5, 1.6 * len(vs)), 3.2))
    width = 0.8 / max(1, npairs)
    for p in range(npairs):
        rates = [v["luck_vs_skill"][p]["skill_rate"] for v in vs]
        name = f"{vs[0]['luck_vs_skill'][p]['stronger']} beats {vs[0]['luck_vs_skill'][p]['weaker']}"
        bars(ax, rates, (p - (npairs - 1) / 2) * width, width, name)
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xticks(x, labels, rotation=20, ha="right")
    ax.set_ylim(0, 1)
    ax.set_ylabel("stronger bot wins")
    ax.legend(fontsize=7)
    out.append(("Luck vs skill: how often the stronger bot wins (95% Wilson intervals)", _png(fig)))

    seats = len(vs[0]["seat_win_rate"])
    fig, ax = plt.subplots(figsize=(max(5, 1.6 * len(vs)), 3.2))
    width = 0.8 / seats
    for j in range(seats):
        bars(ax, [v["seat_win_rate"][j] for v in vs], (j - (seats - 1) / 2) * width, width, f"seat {j}")
    ax.axhline(1 / seats, color="grey", lw=0.8, ls="--")
    ax.set_xticks(x, labels, rotation=20, ha="right")
    ax.set_ylabel("win rate")
    ax.legend(fontsize=7)
    out.append(("Win rate per seat (bots rotated over seats)", _png(fig)))

    gaps = sorted({e["rank_gap"] for v in vs for e in v["luck_vs_skill"]})
    if len(gaps) > 1:
        fig, ax = plt.subplots(figsize=(5, 3.2))
        for v in vs:
            pts = sorted((e["rank_gap"], e["skill_rate"]["rate"]) for e in v["luck_vs_skill"])
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=v["label"])
        ax.set_xlabel("rank gap of the two bots")
        ax.set_ylabel("stronger bot wins")
        ax.legend(fontsize=7)
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
    ax.legend(fontsize=7)
    out.append(("How games end", _png(fig)))

    two_sides = summary.get("players") == 2
    lines = (("seat 0", "-"), ("seat 1", ":")) if two_sides else (("winner", "-"), ("others", ":"))
    for name in sorted({n for v in vs for n in v["curves"]}):
        fig, ax = plt.subplots(figsize=(6, 3.2))
        for v in vs:
            c = v["curves"].get(name, {})
            for who, style in lines:
                ys = c.get(who)
                if ys:
                    ax.plot(range(1, len(ys) + 1), ys, style, marker=".", label=f"{v['label']} {who}")
        ax.set_xlabel("round")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel(name)
        ax.legend(fontsize=6)
        what = "seat 0 (solid) and seat 1 (dotted)" if two_sides else "the eventual winner (solid) and the others (dotted)"
        out.append((f"{name} at the end of each round: {what}; means over the games still running", _png(fig)))
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
    "no_warnings": ("No warnings: nothing suggests this comparison cannot tell.",
                    "Nessuna avvertenza: nulla indica che il confronto non possa distinguere."),
    "needed": ("Games needed", "Partite necessarie"),
    "needed_note": ("Games per variant to detect a 5-point change in each main rate (two-sided 5% test, 80% "
                    "power, independent samples; the lab's paired seeds usually need fewer). This run has {n}.",
                    "Partite per variante per rilevare un cambiamento di 5 punti in ciascun tasso principale "
                    "(test bilaterale al 5%, potenza 80%, campioni indipendenti; i semi appaiati del laboratorio "
                    "di solito ne richiedono meno). Questa prova ne ha {n}."),
    "rate": ("rate", "tasso"), "now": ("now", "ora"), "games": ("games", "partite"),
    "variants": ("Variants", "Varianti"), "variant": ("variant", "variante"),
    "wins": ("wins", "vittorie"), "first": ("first player wins", "vince il primo giocatore"),
    "length": ("length (turns/rounds)", "durata (turni/round)"), "actions": ("atomic actions", "azioni atomiche"),
    "endings": ("endings", "finali"), "luck": ("Luck vs skill", "Fortuna e abilità"),
    "pair": ("pair", "coppia"), "gap": ("rank gap", "distanza in classifica"),
    "stronger": ("stronger bot wins", "vince il bot più forte"), "dice": ("dice share (ICC)", "quota dei dadi (ICC)"),
    "bots": ("Bots", "Bot"), "bot": ("bot", "bot"), "win_rate": ("win rate", "tasso di vittoria"),
    "measures": ("Game measures (mean per game)", "Misure di gioco (media per partita)"),
    "against": ("Against the baseline", "Rispetto al riferimento"), "measure": ("measure", "misura"),
    "diff": ("difference vs baseline [95%]", "differenza dal riferimento [95%]"), "test": ("test", "test"),
    "tournament": ("Tournament", "Torneo"), "row_beats": ("row beats column", "la riga batte la colonna"),
    "overall": ("overall", "complessivo"), "plots": ("Plots", "Grafici"), "methods": ("Methods", "Metodo"),
    "skill_rate": ("skill rate", "tasso di abilità"), "first_rate": ("first player win rate", "vittorie del primo giocatore"),
    "json": ("Summary (JSON)", "Riepilogo (JSON)"), "show": ("show", "mostra"),
    "ends_by": ("games ending by", "partite finite per"),
}
METHODS = (
    "Every variant is played on the same seeds (paired deals) and every pair of bots on both seat rotations, so "
    "seat advantage and dice noise cancel in the comparisons. Rates carry 95% Wilson intervals, means 95% "
    "t-intervals. <b>Skill rate</b>: how often the stronger bot of a pair (more wins over the whole sweep) wins. "
    "<b>Dice share</b>: ICC(1), over the two seat rotations of each seed, of the win share of the even seats less "
    "its mean per rotation (which holds the seat and skill effects) — the share of the result's variance "
    "explained by the seed (dice, draws, deal) favouring some seats whichever bot sits there. Tests against the "
    "first variant: McNemar's exact test on paired win/loss results, the paired t-test on numbers; differences "
    "of paired rates with the Agresti-Min interval. Findings list every measure whose change has p &lt; 0.05 and "
    "the side or seat win rates whether they changed or not; with many measures, expect about one in twenty "
    "p &lt; 0.05 by chance alone.",
    "Ogni variante è giocata sugli stessi semi (distribuzioni appaiate) e ogni coppia di bot su entrambe le "
    "rotazioni dei posti, così il vantaggio del posto e il rumore dei dadi si annullano nei confronti. I tassi "
    "hanno intervalli di Wilson al 95%, le medie intervalli t al 95%. <b>Tasso di abilità</b>: quanto spesso vince "
    "il bot più forte della coppia. <b>Quota dei dadi</b>: ICC(1) sulle due rotazioni di ogni seme, la parte "
    "della varianza del risultato spiegata dal seme (dadi, pescate, distribuzione). Test rispetto alla prima "
    "variante: test esatto di McNemar sui risultati vittoria/sconfitta appaiati, test t appaiato sui numeri; "
    "differenze di tassi appaiati con l'intervallo di Agresti-Min. I risultati principali elencano ogni misura "
    "cambiata con p &lt; 0,05 e i tassi di vittoria dei lati o dei posti, cambiati o no; con molte misure, "
    "circa una su venti ha p &lt; 0,05 per puro caso.",
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
        "cpu_seconds": f"{summary['cpu_seconds']:.0f}",
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
            "head": [t["rate"], t["now"], t["games"]],
            "rows": [[x["name_it" if li else "name"], f"{x['value']:.1%}", str(x["games"])] for x in need],
        }
    seats = len(vs[0]["seat_win_rate"]) if vs else 0
    ctx["variants"] = {
        "head": [t["variant"], t["games"]] + [f"{seat_name(game, j, lang)} {t['wins']}" for j in range(seats)]
        + [t["first"], t["length"], t["actions"], t["endings"]],
        "rows": [
            [vname[v["variant"]], str(v["games"])]
            + [_fmt_rate(v["seat_win_rate"][j]) for j in range(seats)]
            + [_fmt_rate(v.get("first_player_win_rate")), _fmt_mean(v["length"]["turns_or_rounds"]),
               _fmt_mean(v["length"]["actions"]),
               ", ".join(f"{k} {e['rate']:.0%}" for k, e in v["endings"].items())]
            for v in vs
        ],
    }
    ctx["luck"] = {
        "head": [t["variant"], t["pair"], t["gap"], t["stronger"], t["dice"]],
        "rows": [
            [vname[v["variant"]], f"{e['stronger']} vs {e['weaker']}", str(e["rank_gap"]), _fmt_rate(e["skill_rate"]),
             "–" if e["dice_share"]["icc"] is None else f"{e['dice_share']['icc']:.2f}"]
            for v in vs for e in v["luck_vs_skill"]
        ],
    }
    ctx["bot_rates"] = {
        "head": [t["variant"], t["bot"], t["win_rate"]],
        "rows": [[vname[v["variant"]], b["bot"], _fmt_rate(b)] for v in vs for b in v["bot_win_rate"]],
    }
    if vs and vs[0].get("measures"):
        names = list(vs[0]["measures"])
        ctx["measures"] = {
            "head": [t["variant"], *(measure_name(k, lang) for k in names)],
            "rows": [[vname[v["variant"]]] + [_fmt_mean(v["measures"].get(k)) for k in names] for v in vs],
        }
    if summary["comparisons"]:
        rows = []
        for c in summary["comparisons"]:
            label = vname[c["variant"]]
            for e in c["skill_rate"]:
                rows.append([label, f"{t['skill_rate']} ({e['stronger']})", _diff_rate(e), f"{e['p_value']:.3g}", e["test"]])
            for e in c["seat_win_rate"]:
                rows.append([label, f"{seat_name(game, e['seat'], lang)}: {t['win_rate']}", _diff_rate(e),
                             f"{e['p_value']:.3g}", e["test"]])
            f = c.get("first_player_win_rate")
            if f:
                rows.append([label, t["first_rate"], _diff_rate(f), f"{f['p_value']:.3g}", f["test"]])
            for kind, e in (c.get("endings") or {}).items():
                rows.append([label, f"{t['ends_by']}: {kind}", _diff_rate(e), f"{e['p_value']:.3g}", e["test"]])
            ln = c["length"]
            rows.append([label, measure_name("length", lang), _diff_mean(ln), f"{ln['p_value']:.3g}", ln["test"]])
            for k, m in c["measures"].items():
                if m["diff"] is not None:
                    rows.append([label, measure_name(k, lang), _diff_mean(m), f"{m['p_value']:.3g}", m["test"]])
        ctx["against"] = {"baseline": vname[0], "head": [t["variant"], t["measure"], t["diff"], "p", t["test"]],
                          "rows": rows}
    tour = summary.get("tournament")
    if tour:
        ctx["tournament"] = {
            "head": [t["row_beats"], *tour["bots"], t["overall"]],
            "rows": [[b] + [_fmt_rate(c) if c else "–" for c in tour["cross"][i]] + [_fmt_rate(tour["overall"][i])]
                     for i, b in enumerate(tour["bots"])],
        }
    ctx["plots"] = plots(summary)
    ctx["methods"] = METHODS[li]  # a constant of this module with <b> and &lt; markup: the template marks it safe
    ctx["summary_json"] = json.dumps(summary, indent=1, default=str)[:200000]
    return ctx


def render_html(summary: dict[str, Any], lang: str = "en") -> str:
    """A self-contained HTML page (inline CSS, plots as data URIs) from the `report.html.j2` template:
    findings and warnings first, then the results, then the methods."""
    return str(_template().render(report_context(summary, lang)))
