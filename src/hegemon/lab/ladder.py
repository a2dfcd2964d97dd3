"""A ladder: a round robin between bot levels with a Bradley-Terry (Elo) fit and the cost of each level.

The games are a lab tournament's (`lab.sweep`: every pair on the same deals, both seat rotations; with more than
two players the pair's bots on alternating seats, a bot's result the share of the win its seats hold), played by
the lab's own `play_unit`, with each bot wrapped to time its decisions: the wall and CPU time (`time.process_time`,
the game's process) of every decision that had more than one legal action, and the CPU time of all of a
level's decisions in a game. On a loaded machine the wall times stretch and the CPU times hold. The same seed gives the same games as `hegemon lab tournament` with the same bots and seed.

The Elo fit (`stats.bradley_terry`) takes every game's score for one side with a seat term (+1 when that side
held seat 0, which in Polis is Athens), and intervals cluster-robust over the games of one deal (every pair
and both seat rotations of a deal share its dice, cards and set-up).

`skill` (`hegemon lab ladder GAME --option k=v1,v2 --levels …`) plays the ladder under each rule variant on the
same deals and gives each variant's *skill range*: the Elo spread of the ladder (top level minus bottom level;
Duersch, Lambrecht and Oechssler 2020 measure skill by the spread of playing strengths a game rewards), with a
percentile bootstrap interval over deals, and the paired change of the spread between variants (the same
bootstrap resamples of deals for both, Holm over the variant comparisons). A ladder that does not separate
(the order of the fitted Elo is not the order of the levels, or the bootstrap interval of the Elo difference of
two adjacent levels reaches 0) gives no skill range and a warning, and so do levels that are one bot twice."""

from __future__ import annotations

import hashlib
import json
import math
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from hegemon.ai import Bot
from hegemon.core.actions import Action
from hegemon.core.errors import HegemonError
from hegemon.core.game import PlayerId, State
from hegemon.lab import stats
from hegemon.lab.report import a_seats, credit
from hegemon.lab.run import make_sweep
from hegemon.lab.sweep import Sweep, Unit, plan_units, play_unit


class Timed:
    """A bot that times another's decisions (and changes none of them)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.wall: list[float] = []  # seconds of each decision with a choice (more than one legal action)
        self.cpu_each: list[float] = []  # CPU seconds of the same decisions
        self.cpu = 0.0  # CPU seconds of every decision

    def choose(self, state: State, player: PlayerId) -> Action:
        choice = len(state.legal_actions()) > 1
        c0 = time.process_time()
        t0 = time.perf_counter()
        action = self.bot.choose(state, player)
        t1 = time.perf_counter()
        cpu = time.process_time() - c0
        self.cpu += cpu
        if choice:
            self.wall.append(t1 - t0)
            self.cpu_each.append(cpu)
        return action


@dataclass
class UnitResult:
    """What the ladder keeps of one game."""

    pair: int
    deal: int
    rotation: int
    credit_a: float
    credit_b: float
    digest: str
    seats: list[str]
    wall: dict[int, list[float]] = field(default_factory=dict)  # level -> decision seconds
    cpu_each: dict[int, list[float]] = field(default_factory=dict)  # level -> decision CPU seconds
    cpu: dict[int, float] = field(default_factory=dict)  # level -> CPU seconds in this game


def play_timed(sweep_json: dict[str, Any], units: list[tuple[int, int, int, int]]) -> list[UnitResult]:
    """A task (any process): play `units` of the sweep with timed bots."""
    sweep = Sweep.from_json(sweep_json)
    out = []
    for u in units:
        unit = Unit(*u)
        timed: list[Timed] = []

        def wrap(seat: int, bot: Bot, timed: list[Timed] = timed) -> Bot:
            t = Timed(bot)
            timed.append(t)
            return t

        rec = play_unit(sweep, unit, wrap)
        n = len(rec["seats"])
        sa = a_seats(unit.rotation, n)
        a, b = sweep.pairs[unit.pair]
        res = UnitResult(
            pair=unit.pair,
            deal=unit.deal,
            rotation=unit.rotation,
            credit_a=credit(rec, sa),
            credit_b=credit(rec, [j for j in range(n) if j not in sa]),
            digest=rec["digest"],
            seats=rec["seats"],
        )
        for j, t in enumerate(timed):
            level = a if j in sa else b
            res.wall.setdefault(level, []).extend(t.wall)
            res.cpu_each.setdefault(level, []).extend(t.cpu_each)
            res.cpu[level] = res.cpu.get(level, 0.0) + t.cpu
        out.append(res)
    return out


def quantile(values: Sequence[float], q: float) -> float | None:
    """The q-quantile (linear interpolation between order statistics), None for no values."""
    if not values:
        return None
    xs = sorted(values)
    pos = q * (len(xs) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def run_ladder(
    game: str,
    levels: list[str],
    games: int,
    seed: int = 0,
    options: list[str] | None = None,
    players: int | None = None,
    jobs: int = 1,
    on_progress: Callable[[int, int], None] | None = None,
    chain: bool = False,
    store: Path | None = None,
) -> dict[str, Any]:
    """Play the round robin (`games` per pair, rounded up to whole deals of two rotations) and summarise it.
    `chain`: only each level against the next (a curve of budgets: the costly pairs far apart are not played;
    the Elo fit links the levels through the chain, its intervals widening along it). `store`: keep the games
    there as they end and resume (`play`)."""
    sweep = make_sweep(game, "tournament", levels, games, seed, options, players=players)
    if chain:
        sweep.pairs = [[i, i + 1] for i in range(len(levels) - 1)]
    t0 = time.perf_counter()
    load0 = os.getloadavg()
    results = play(sweep, jobs, on_progress, store)
    summary = summarise(sweep, results)
    summary["design"] = "chain" if chain else "round robin"
    summary["wall_seconds"] = round(time.perf_counter() - t0, 2)
    summary["load"] = {
        "before": [round(x, 2) for x in load0],
        "after": [round(x, 2) for x in os.getloadavg()],
        "cpus": os.cpu_count(),
        "jobs": jobs,
    }
    return summary


def store_file(store: Path, sweep: Sweep) -> Path:
    """Where a ladder's sweep keeps its finished games in `store`: one file a sweep (levels, options, pairs and
    seed in its name's digest, not the number of games: a game's deal seed does not depend on it), so a stopped
    ladder resumes, a ladder asked for more games extends the one before it (and one asked for fewer reads the
    first of them), and another ladder never reads its games. A file named by the older digest (that counted the
    deals) for the same games is taken over."""
    name = "ladder-games-{}.jsonl"
    path = store / name.format(_digest(sweep.identity()))
    legacy = store / name.format(_digest(sweep.to_json()))
    if not path.exists() and legacy.exists():
        legacy.rename(path)
    return path


def _digest(obj: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:16]


def _result_json(r: UnitResult) -> dict[str, Any]:
    return asdict(r)


def _result_of(d: dict[str, Any]) -> UnitResult:
    """A stored game back (JSON's object keys are strings: the level numbers are made ints again)."""
    r = UnitResult(**d)
    r.wall = {int(k): v for k, v in r.wall.items()}
    r.cpu_each = {int(k): v for k, v in r.cpu_each.items()}
    r.cpu = {int(k): v for k, v in r.cpu.items()}
    return r


def load_stored(path: Path) -> dict[tuple[int, int, int], UnitResult]:
    """The games a stopped ladder stored, by (pair, deal, rotation). A last line cut off by the stop is dropped
    (and cut from the file, so the next game is appended on a line of its own)."""
    if not path.exists():
        return {}
    raw = path.read_bytes()
    whole = raw[: raw.rfind(b"\n") + 1]
    if len(whole) != len(raw):
        with path.open("r+b") as f:
            f.truncate(len(whole))
    out: dict[tuple[int, int, int], UnitResult] = {}
    for line in whole.decode("utf-8").splitlines():
        try:
            r = _result_of(json.loads(line))
        except (ValueError, TypeError) as e:
            raise HegemonError(f"{path}: a stored ladder game is unreadable ({e}); move the file away") from e
        out[(r.pair, r.deal, r.rotation)] = r
    return out


def play(
    sweep: Sweep,
    jobs: int = 1,
    on_progress: Callable[[int, int], None] | None = None,
    store: Path | None = None,
) -> list[UnitResult]:
    """Every game of a ladder's sweep, on `jobs` processes. With `store` (a folder), each finished game is
    appended to its file there (`store_file`) and the games already there are not played again."""
    units = [(u.variant, u.pair, u.deal, u.rotation) for u in plan_units(sweep)]
    sj = sweep.to_json()
    path = None if store is None else store_file(store, sweep)
    have = {} if path is None else load_stored(path)
    results: list[UnitResult] = [have[u[1:]] for u in units if u[1:] in have]
    todo = [u for u in units if u[1:] not in have]
    sink = None
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        sink = path.open("a", encoding="utf-8")

    def keep(batch: list[UnitResult]) -> None:
        results.extend(batch)
        if sink is not None:
            for r in batch:
                sink.write(json.dumps(_result_json(r)) + "\n")
            sink.flush()
        if on_progress:
            on_progress(len(results), len(units))

    try:
        if jobs <= 1:
            for u in todo:
                keep(play_timed(sj, [u]))
        else:
            # one game a task when the games are kept (a stop loses at most the games in play), else up to 8
            size = 1 if sink is not None else max(1, min(8, len(todo) // (jobs * 4)))
            tasks = [todo[i : i + size] for i in range(0, len(todo), size)]
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                for batch in pool.map(play_timed, [sj] * len(tasks), tasks):
                    keep(batch)
    finally:
        if sink is not None:
            sink.close()
    order = {u[1:]: i for i, u in enumerate(units)}
    return sorted(results, key=lambda r: order[(r.pair, r.deal, r.rotation)])


def summarise(sweep: Sweep, results: list[UnitResult]) -> dict[str, Any]:
    """The Elo fit, pairwise win rates and costs of a ladder's games."""
    k = len(sweep.bots)
    fit_games = []
    groups = []
    for r in results:
        a, b = sweep.pairs[r.pair]
        share = r.credit_a + r.credit_b
        score = r.credit_a / share if share > 0 else 0.5  # an unfinished game without winners: a draw
        fit_games.append((a, b, score, 1.0 if r.rotation == 0 else -1.0))
        groups.append(r.deal)  # the deal is the unit: every pair plays it, on the same dice and cards
    fit = stats.bradley_terry(fit_games, k, groups=groups)
    pairs = []
    for p, (a, b) in enumerate(sweep.pairs):
        rs = [r for r in results if r.pair == p]
        pairs.append(
            {
                "a": sweep.bots[a],
                "b": sweep.bots[b],
                "games": len(rs),
                # a's share of the win in each game (a game nobody won counts half each), its interval widened by
                # the clustering of the games by deal, as the lab's rates are
                "a_rate": stats.rate_of(
                    [r.credit_a + (1.0 - r.credit_a - r.credit_b) / 2 for r in rs], [r.deal for r in rs]
                ),
                "identical_rotations": identical_rotations(rs),
            }
        )
    levels = []
    for i, bot in enumerate(sweep.bots):
        wall = [t for r in results for t in r.wall.get(i, [])]
        cpu = [r.cpu[i] for r in results if i in r.cpu]
        each = [t for r in results for t in r.cpu_each.get(i, [])]
        levels.append(
            {
                "level": bot,
                "elo": fit["elo"][i],
                "low": fit["low"][i],
                "high": fit["high"][i],
                "games": sum(1 for r in results if i in sweep.pairs[r.pair]),
                "decisions": len(wall),
                "decision_median_s": quantile(wall, 0.5),
                "decision_p90_s": quantile(wall, 0.9),
                "decision_cpu_median_s": quantile(each, 0.5),
                "decision_cpu_p90_s": quantile(each, 0.9),
                "cpu_per_game_s": sum(cpu) / len(cpu) if cpu else None,
            }
        )
    return {
        "game": sweep.game,
        "levels": levels,
        "pairs": pairs,
        "seat_elo": fit["seat"],
        "anchor": sweep.bots[0],
        "games": len(results),
        "seed": sweep.seed,
        "options": sweep.base,
        "players": sweep.players,
        "digests": sorted(r.digest for r in results),
    }


def identical_rotations(rs: list[UnitResult]) -> float | None:
    """The share of deals whose two seat rotations ended in the same state (the bots played the same game
    with the seats swapped: near-deterministic play); None without complete deals."""
    by_deal: dict[int, dict[int, str]] = {}
    for r in rs:
        by_deal.setdefault(r.deal, {})[r.rotation] = r.digest
    full = [d for d in by_deal.values() if len(d) == 2]
    return sum(1 for d in full if d[0] == d[1]) / len(full) if full else None


# --------------------------------------------------------------------------- skill range by variant

RESAMPLES = 1000
CONFIDENCE = 0.95


def bot_identity(spec: str) -> str:
    """What makes two bot specs one bot: `mcts:40` is `MCTS:40` (the lab plays iteration budgets only, so a
    time budget does not count; a named level with the same budget in every game and no settings of its own
    would be that budget, any other level is itself: `ai/levels.py`, where every level's budget is per game; a
    one-ply level is the greedy bot: `mcts:easy` is `greedy`); other kinds by their spec as written (the kind's
    name in any case)."""
    kind, _, arg = spec.strip().partition(":")
    kind = kind.strip().lower()
    if kind == "mcts":
        from hegemon.ai.levels import LEVELS
        from hegemon.ai.mcts import parse_settings, parse_strength

        head, *rest = arg.split(":")
        level = LEVELS.get(head.strip().lower() or "normal")
        if level is not None and level.one_ply:
            return bot_identity(":".join(["greedy", *rest]))
        settings = parse_settings(rest)
        if level is not None and (len(set(level.iterations.values())) > 1 or level.settings):
            text = ",".join(f"{k}={v}" for k, v in sorted(settings.items()))
            return f"mcts:{level.name}:{text}"
        iters = level.budget("*") if level is not None else parse_strength(head)[0]
        text = ",".join(f"{k}={v}" for k, v in sorted(settings.items()))
        return f"mcts:{iters}:{text}"
    return f"{kind}:{arg.strip()}"


@dataclass
class Cells:
    """A ladder's games summed by deal and cell (a pair in one seat rotation): `score[d][c]` the first bot's
    score (a share in [0, 1]), `games[d][c]` how many games; every deal plays every cell once or more."""

    k: int
    cells: list[tuple[int, int, float]]  # (level a, level b, seat term: +1 when a held seat 0)
    score: Any  # numpy [deals, cells]
    games: Any


def cells_of(sweep: Sweep, results: list[UnitResult], deals: int) -> Cells:
    import numpy as np

    index = {
        (p, rot): c for c, (p, rot) in enumerate((p, rot) for p in range(len(sweep.pairs)) for rot in (0, 1))
    }
    score = np.zeros((deals, len(index)))
    games = np.zeros((deals, len(index)))
    for r in results:
        c = index[(r.pair, r.rotation)]
        share = r.credit_a + r.credit_b
        score[r.deal, c] += r.credit_a / share if share > 0 else 0.5  # no winner: a draw, as `summarise`
        games[r.deal, c] += 1
    cells = [(sweep.pairs[p][0], sweep.pairs[p][1], 1.0 if rot == 0 else -1.0) for (p, rot) in index]
    return Cells(len(sweep.bots), cells, score, games)


def elo_of_cells(
    k: int, cells: list[tuple[int, int, float]], score: Any, games: Any, prior_games: int = 2
) -> Any:
    """The Bradley-Terry (Elo) point estimates of `k` levels (level 0 at 0) from games summed by cell: the same
    likelihood as `stats.bradley_terry` on the games one by one (a binomial GLM of each cell's mean score with
    its games as weights, the same seat term and the same `prior_games` drawn games a pair), only faster — what
    a bootstrap refits a thousand times."""
    import warnings as warnings_module

    import numpy as np
    import statsmodels.api as sm

    rows, ys, ws = [], [], []
    pairs: set[tuple[int, int]] = set()

    def add(a: int, b: int, seat: float, y: float, w: float) -> None:
        x = [0.0] * k
        x[a] += 1.0
        x[b] -= 1.0
        rows.append([*x[1:], seat])  # level 0 is the anchor: its column is dropped
        ys.append(y)
        ws.append(w)

    for (a, b, seat), s, n in zip(cells, score, games, strict=True):
        pairs.add((a, b))
        if n > 0:
            add(a, b, seat, s / n, n)
    for a, b in sorted(pairs):
        for v in range(prior_games):
            add(a, b, 1.0 if v % 2 == 0 else -1.0, 0.5, 1.0)
    with warnings_module.catch_warnings():
        warnings_module.simplefilter("ignore")
        fit = sm.GLM(
            np.asarray(ys), np.asarray(rows), family=sm.families.Binomial(), var_weights=np.asarray(ws)
        ).fit()
    return np.concatenate([[0.0], np.asarray(fit.params)[: k - 1]]) * stats.ELO


def skill(
    levels: list[str],
    variants: list[dict[str, Any]],
    cells: list[Cells],
    seed: int = 0,
    resamples: int = RESAMPLES,
    confidence: float = CONFIDENCE,
) -> dict[str, Any]:
    """Each variant's skill range from its ladder's games (`cells`, on the same deals in every variant): the Elo
    of every level with a percentile bootstrap interval over deals, the intervals of adjacent levels' Elo
    differences, whether the ladder separates, the spread (top level minus bottom level) with its interval when
    it does; then each variant's paired change of the spread from the first (the same resampled deals for both,
    a two-sided bootstrap p-value, Holm over the comparisons); warnings in English and Italian."""
    import numpy as np

    from hegemon.core.play import derive_seed

    k = len(levels)
    deals = cells[0].score.shape[0]
    rng = np.random.default_rng(derive_seed("lab-ladder-bootstrap", seed))
    draws = rng.integers(0, deals, size=(resamples, deals))
    counts = np.stack([np.bincount(d, minlength=deals) for d in draws])  # [resamples, deals]
    lo_q, hi_q = (1 - confidence) / 2, (1 + confidence) / 2
    ids = [bot_identity(x) for x in levels]
    twice = sorted({levels[i] for i in range(k) if ids.index(ids[i]) != i})
    warns: list[tuple[str, str, str]] = []
    if twice:
        warns.append(
            (
                "same_bot_ladder",
                f"The levels name one bot more than once ({', '.join(twice)}): copies of one bot have no "
                "strength gap, so no skill range is given. List levels of known, different strength: one "
                "search at increasing budgets, with greedy and random.",
                f"I livelli nominano lo stesso bot più volte ({', '.join(twice)}): copie dello stesso bot non "
                "hanno un divario di forza, quindi non si dà un'ampiezza di abilità. Elenca livelli di forza "
                "nota e diversa: la stessa ricerca a budget crescenti, con greedy e random.",
            )
        )
    out_vs: list[dict[str, Any]] = []
    boots: list[Any] = []
    for var, cs in zip(variants, cells, strict=True):
        point = elo_of_cells(k, cs.cells, cs.score.sum(axis=0), cs.games.sum(axis=0))
        boot = np.stack(
            [elo_of_cells(k, cs.cells, c @ cs.score, c @ cs.games) for c in counts]
        )  # [resamples, k]
        boots.append(boot)
        lv = [
            {
                "level": levels[i],
                "elo": float(point[i]),
                "low": float(np.quantile(boot[:, i], lo_q)),
                "high": float(np.quantile(boot[:, i], hi_q)),
            }
            for i in range(k)
        ]
        adjacent: list[dict[str, Any]] = []
        for i in range(k - 1):
            d = boot[:, i + 1] - boot[:, i]
            adjacent.append(
                {
                    "lower": levels[i],
                    "upper": levels[i + 1],
                    "diff": float(point[i + 1] - point[i]),
                    "low": float(np.quantile(d, lo_q)),
                    "high": float(np.quantile(d, hi_q)),
                }
            )
        monotone = all(point[i + 1] > point[i] for i in range(k - 1))
        separated = monotone and all(a["low"] > 0 for a in adjacent)
        spread = boot[:, k - 1] - boot[:, 0]
        entry: dict[str, Any] = {
            **var,
            "levels": lv,
            "adjacent": adjacent,
            "monotone": monotone,
            "separated": separated,
            "skill_range": None,
        }
        if separated and not twice:
            entry["skill_range"] = {
                "elo": float(point[k - 1] - point[0]),
                "low": float(np.quantile(spread, lo_q)),
                "high": float(np.quantile(spread, hi_q)),
            }
        elif not twice:
            bad = next(a for a in adjacent if not (a["diff"] > 0 and a["low"] > 0))
            if not monotone:
                why_en = f"{bad['upper']} does not rank above {bad['lower']}"
                why_it = f"{bad['upper']} non si classifica sopra {bad['lower']}"
            else:
                why_en = (
                    f"the Elo difference of {bad['lower']} and {bad['upper']} is {bad['diff']:+.0f}, its "
                    f"{confidence:.0%} interval {bad['low']:+.0f} to {bad['high']:+.0f} reaching 0"
                )
                why_it = (
                    f"la differenza di Elo tra {bad['lower']} e {bad['upper']} è {bad['diff']:+.0f}, con "
                    f"intervallo al {confidence:.0%} da {bad['low']:+.0f} a {bad['high']:+.0f} che tocca 0"
                )
            warns.append(
                (
                    "ladder_not_separated",
                    f"{var['label']}: the ladder does not separate ({why_en}), so no skill range is given: "
                    "its spread would mix noise with skill. Play more games, or levels further apart.",
                    f"{var['label']}: la scala non separa i livelli ({why_it}), quindi non si dà "
                    "un'ampiezza di abilità: mescolerebbe rumore e abilità. Gioca più partite, o livelli più "
                    "distanti.",
                )
            )
        out_vs.append(entry)
    diffs: list[dict[str, Any]] = []
    base = out_vs[0]
    for v in range(1, len(out_vs)):
        if base["skill_range"] is None or out_vs[v]["skill_range"] is None:
            continue
        d = (boots[v][:, k - 1] - boots[v][:, 0]) - (boots[0][:, k - 1] - boots[0][:, 0])
        p = float(min(1.0, 2 * min((d <= 0).mean(), (d >= 0).mean())))
        diffs.append(
            {
                "label": out_vs[v]["label"],
                "versus": base["label"],
                "diff": out_vs[v]["skill_range"]["elo"] - base["skill_range"]["elo"],
                "low": float(np.quantile(d, lo_q)),
                "high": float(np.quantile(d, hi_q)),
                "p_value": p,
            }
        )
    for e, p in zip(diffs, stats.adjust([e["p_value"] for e in diffs]), strict=True):
        e["p_adjusted"] = p
    return {
        "levels": levels,
        "deals": deals,
        "resamples": resamples,
        "confidence": confidence,
        "multiple_testing": stats.MULTIPLE_TESTING_NAMES[stats.MULTIPLE_TESTING][0],
        "variants": out_vs,
        "differences": diffs,
        "warning_codes": [c for c, _, _ in warns],
        "warnings": [e for _, e, _ in warns],
        "warnings_it": [i for _, _, i in warns],
    }


def run_skill(
    game: str,
    levels: list[str],
    games: int,
    seed: int = 0,
    options: list[str] | None = None,
    board: str | None = None,
    players: int | None = None,
    jobs: int = 1,
    resamples: int = RESAMPLES,
    on_progress: Callable[[int, int], None] | None = None,
    store: Path | None = None,
) -> dict[str, Any]:
    """`hegemon lab ladder`: the ladder's round robin (`games` per pair, whole deals of two rotations) under each
    variant of `options` (`--option k=v1,v2`, as `lab compare`), on the same deals, and its skill analysis.
    With `store`, finished games are kept there as they end and a rerun resumes (`play`)."""
    from hegemon.games import get_game
    from hegemon.lab.run import parse_switches, plan_variants

    g = get_game(game)
    fixed, switches = parse_switches(options or [], board)
    variants, labels = plan_variants(switches, g.options_type.PRESET_FIELD, g.options_type.PRESETS)
    sweeps = [
        make_sweep(
            game,
            "tournament",
            levels,
            games,
            seed,
            [f"{k}={x}" for k, x in {**fixed, **var}.items()],
            players=players,
        )
        for var in variants
    ]
    total = sum(len(plan_units(s)) for s in sweeps)
    t0, c0 = time.perf_counter(), time.process_time()
    load0 = os.getloadavg()
    ladders, cells = [], []
    done = 0
    for sweep in sweeps:

        def step(n: int, _total: int, before: int = done) -> None:
            if on_progress:
                on_progress(before + n, total)

        results = play(sweep, jobs, step, store)
        done += len(results)
        ladders.append(summarise(sweep, results))
        cells.append(cells_of(sweep, results, sweep.deals))
    out = skill(
        levels,
        [
            {"variant": v, "label": lab, "options": var}
            for v, (lab, var) in enumerate(zip(labels, variants, strict=True))
        ],
        cells,
        seed,
        resamples,
    )
    for entry, lad in zip(out["variants"], ladders, strict=True):
        entry["ladder"] = {k: lad[k] for k in ("levels", "pairs", "seat_elo", "games")}
    out.update(
        game=g.name,
        seed=seed,
        options=fixed,
        games_per_pair=2 * sweeps[0].deals,
        players=players,
        wall_seconds=round(time.perf_counter() - t0, 2),
        parent_cpu_seconds=round(time.process_time() - c0, 2),
        load={
            "before": [round(x, 2) for x in load0],
            "after": [round(x, 2) for x in os.getloadavg()],
            "cpus": os.cpu_count(),
            "jobs": jobs,
        },
    )
    return out
