"""The luck share of a variant, measured by design with common random numbers (issue 27 item 1).

A *setting* fixes everything but chance: the variant, the bots by seat and each bot's own seed (bots' randomness
is seeded apart from the game's chance, see `sweep.play_unit`). Each setting is played under K *chance streams*:
the game's chance (dice, draws, events, set-up) comes from `derive_seed("chance", game_seed)` and the game seed
is `derive_seed("lab-luck", seed, setting, k)`, while the bots' seeds depend on the setting alone. Every game is
an ordinary record (`hegemon replay` reproduces it from its seed and actions).

The result of a game is each seat's share of the win (a tie is a share: 1/number of winners). With y[s, k, j]
the share of seat j in setting s under stream k, the one-way random-effects decomposition (Shrout & Fleiss
1979, ICC(1)) of each seat's result over settings gives

    within  = MSW                          (what changes with the chance stream alone)
    between = max(0, (MSB - MSW) / K)      (what the setting - bots, their seeds, the seats - fixes)
    luck share = sum_j within_j / sum_j (within_j + between_j)  =  1 - ICC(1) pooled over seats

so a game without chance scores 0 (every stream plays the same game) and a coin flip scores 1 (nothing but the
stream matters). Intervals: percentile bootstrap over settings (`scipy.stats.bootstrap`), paired across
variants since every variant plays the same settings; the paired differences' p-values are corrected with Holm
(`statsmodels.stats.multitest.multipletests`).
"""

from __future__ import annotations

import json
import warnings as warnings_module
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from hegemon.ai import make_bot
from hegemon.core.play import derive_seed
from hegemon.games import get_game
from hegemon.lab.measures import measures_for

MIN_STREAMS = 4  # fewer streams than this: the within-setting variance is too noisy to read (warning)
MIN_SETTINGS = 20


@dataclass
class LuckPlan:
    """What determines a luck run's games (its `luck.json` 'plan')."""

    game: str
    bots: list[str]  # by seat, cycled over the seats; seats rotate between settings
    variants: list[dict[str, Any]]
    labels: list[str]
    settings: int
    streams: int
    seed: int = 0
    base: dict[str, Any] = field(default_factory=dict)
    players: int | None = None

    def options(self, variant: int) -> dict[str, Any]:
        raw: dict[str, Any] = dict(get_game(self.game).selfplay_defaults)
        raw.update(self.base)
        raw.update(self.variants[variant])
        if self.players is not None:
            raw["players"] = self.players
        return raw

    def seats(self, setting: int, n: int) -> list[str]:
        """The bots by seat: the list cycled over the seats, rotated by one seat per setting."""
        return [self.bots[(j + setting) % len(self.bots)] for j in range(n)]


def shares(outcome: dict[str, Any] | None, n: int) -> list[float]:
    """Each seat's share of the win (a tie is a share; no winner: 0 for all)."""
    winners = (outcome or {}).get("winners") or []
    return [1.0 / len(winners) if j in winners else 0.0 for j in range(n)]


def play_game(plan_json: dict[str, Any], variant: int, setting: int, stream: int) -> dict[str, Any]:
    """One game of the plan: its record as JSON, the setting and stream in `meta`."""
    from hegemon.lab.sweep import play_measured, record_json, untimed

    plan = LuckPlan(**plan_json)
    game = get_game(plan.game)
    opts = game.parse_options(plan.options(variant))
    n = game.players(opts)
    seats = plan.seats(setting, n)
    seed = derive_seed("lab-luck", plan.seed, setting, stream)
    bots = [make_bot(s, derive_seed("lab-luck-bot", plan.seed, setting, j)) for j, s in enumerate(seats)]
    untimed(bots)  # iteration budgets only: reproducible anywhere
    state, actions, decisions = play_measured(game, opts, seed, bots, measures_for(game.name))
    meta = {
        "variant": variant,
        "label": plan.labels[variant],
        "setting": setting,
        "stream": stream,
        "decisions": decisions,
    }
    return record_json(game, opts, seed, seats, state, actions, meta)


def _play_many(plan_json: dict[str, Any], units: list[tuple[int, int, int]]) -> list[dict[str, Any]]:
    return [play_game(plan_json, *u) for u in units]


def run(plan: LuckPlan, jobs: int = 1, progress: Any = None) -> list[dict[str, Any]]:
    """Play every game of the plan (setting-major, so that every variant sees the same settings); records."""
    units = [
        (v, s, k)
        for s in range(plan.settings)
        for v in range(len(plan.variants))
        for k in range(plan.streams)
    ]
    pj = asdict(plan)
    size = max(1, min(16, len(units) // max(1, 4 * jobs)))
    tasks = [units[i : i + size] for i in range(0, len(units), size)]
    out: list[dict[str, Any]] = []
    if jobs <= 1:
        for t in tasks:
            out.extend(_play_many(pj, t))
            if progress:
                progress(len(t))
        return out
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for res in pool.map(_play_many, [pj] * len(tasks), tasks):
            out.extend(res)
            if progress:
                progress(len(res))
    return out


def decompose(y: Any) -> dict[str, float]:
    """The variance decomposition of results y[setting, stream, seat] (or [setting, stream]): within (chance),
    between (setting) and the luck share (0 where the results do not vary at all)."""
    import numpy as np

    a = np.asarray(y, dtype=float)
    if a.ndim == 2:
        a = a[:, :, None]
    g, k, _ = a.shape
    if g < 2 or k < 2:
        raise ValueError("the luck share needs at least 2 settings and 2 chance streams")
    means = a.mean(axis=1)  # [setting, seat]
    grand = a.mean(axis=(0, 1))  # [seat]
    msw = ((a - means[:, None, :]) ** 2).sum(axis=(0, 1)) / (g * (k - 1))
    msb = k * ((means - grand) ** 2).sum(axis=0) / (g - 1)
    within = float(msw.sum())
    between = float(np.maximum(0.0, (msb - msw) / k).sum())
    total = within + between
    # no variation at all: chance changed nothing, a share of 0
    return {"within": within, "between": between, "luck": within / total if total > 0 else 0.0}


def icc1(y: Any) -> float:
    """ICC(1) of Shrout & Fleiss (1979) for y[target, judge]: (MSB - MSW) / (MSB + (k - 1) MSW) (unclipped)."""
    import numpy as np

    a = np.asarray(y, dtype=float)
    g, k = a.shape
    means = a.mean(axis=1)
    msw = ((a - means[:, None]) ** 2).sum() / (g * (k - 1))
    msb = k * ((means - a.mean()) ** 2).sum() / (g - 1)
    return float((msb - msw) / (msb + (k - 1) * msw))


def results_array(records: list[dict[str, Any]], variant: int, settings: int, streams: int, n: int) -> Any:
    import numpy as np

    y = np.full((settings, streams, n), np.nan)
    for r in records:
        m = r["meta"]
        if m["variant"] == variant and m["setting"] < settings and m["stream"] < streams:
            y[m["setting"], m["stream"]] = shares(r.get("outcome"), n)
    keep = ~np.isnan(y).any(axis=(1, 2))
    return y[keep]


def identical_share(records: list[dict[str, Any]], variant: int) -> float:
    """The share of settings whose streams all played the same game (same final digest)."""
    by: dict[int, set[str]] = {}
    for r in records:
        if r["meta"]["variant"] == variant:
            by.setdefault(r["meta"]["setting"], set()).add(r["digest"])
    return sum(1 for d in by.values() if len(d) == 1) / len(by) if by else float("nan")


def analyse(
    records: list[dict[str, Any]], plan: LuckPlan, confidence: float = 0.95, resamples: int = 2000
) -> dict[str, Any]:
    """Per variant: the luck share with its bootstrap interval; per variant after the first: the paired
    difference with its interval and a Holm-corrected p-value; warnings for what cannot be read."""
    import numpy as np
    from scipy import stats
    from statsmodels.stats.multitest import multipletests

    game = get_game(plan.game)
    n = game.players(game.parse_options(plan.options(0)))
    arrays = [results_array(records, v, plan.settings, plan.streams, n) for v in range(len(plan.variants))]
    common = min(len(a) for a in arrays)
    arrays = [a[:common] for a in arrays]
    rng = np.random.default_rng(derive_seed("lab-luck-bootstrap", plan.seed))
    warnings: list[str] = []
    if plan.streams < MIN_STREAMS:
        warnings.append(
            f"only {plan.streams} chance streams a setting (at least {MIN_STREAMS} are needed to read "
            "the luck share): the figures below are withheld"
        )
    if common < MIN_SETTINGS:
        warnings.append(
            f"only {common} settings (at least {MIN_SETTINGS}): the intervals are too wide to read"
        )
    readable = plan.streams >= MIN_STREAMS and common >= 2

    def stat(idx: Any, v: int) -> float:
        return decompose(arrays[v][idx.astype(int)])["luck"]

    variants: list[dict[str, Any]] = []
    idx = np.arange(common)
    for v, label in enumerate(plan.labels):
        d = decompose(arrays[v]) if common >= 2 else {"luck": float("nan"), "within": 0.0, "between": 0.0}
        row: dict[str, Any] = {
            "label": label,
            "settings": common,
            "streams": plan.streams,
            "identical_streams": identical_share(records, v),
            **d,
        }
        if readable and not np.isnan(d["luck"]):
            with warnings_module.catch_warnings():
                warnings_module.simplefilter("ignore", stats.DegenerateDataWarning)
                ci = stats.bootstrap(
                    (idx,),
                    lambda i, v=v: stat(i, v),
                    n_resamples=resamples,
                    confidence_level=confidence,
                    method="percentile",
                    random_state=rng,
                    vectorized=False,
                ).confidence_interval
            if np.isnan(ci.low) or np.isnan(
                ci.high
            ):  # every resample gives the same value (scipy returns NaN)
                row["ci"] = [d["luck"], d["luck"]]
            else:
                row["ci"] = [float(ci.low), float(ci.high)]
        if row["identical_streams"] == 1.0:
            warnings.append(
                f"{label}: every setting played the same game under every chance stream: no chance "
                "reached the result (luck share 0 by construction)"
            )
        variants.append(row)
    diffs: list[dict[str, Any]] = []
    if readable and len(arrays) > 1:
        boot = rng.integers(0, common, size=(resamples, common))
        for v in range(1, len(arrays)):
            point = variants[v]["luck"] - variants[0]["luck"]
            draws = np.array(
                [decompose(arrays[v][b])["luck"] - decompose(arrays[0][b])["luck"] for b in boot]
            )
            draws = draws[~np.isnan(draws)]
            lo, hi = np.quantile(draws, [(1 - confidence) / 2, (1 + confidence) / 2])
            p = (
                float(min(1.0, 2 * min((draws <= 0).mean(), (draws >= 0).mean())))
                if len(draws)
                else float("nan")
            )
            diffs.append(
                {
                    "label": plan.labels[v],
                    "versus": plan.labels[0],
                    "difference": float(point),
                    "ci": [float(lo), float(hi)],
                    "p": p,
                }
            )
        if diffs:
            _, adj, _, _ = multipletests([d["p"] for d in diffs], method="holm")
            for d, a in zip(diffs, adj, strict=True):
                d["p_holm"] = float(a)
    return {
        "plan": asdict(plan),
        "variants": variants,
        "differences": diffs,
        "warnings": warnings,
        "confidence": confidence,
        "correction": "Holm",
        "readable": readable,
    }


def write(out: Path, records: list[dict[str, Any]], result: dict[str, Any]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "games.jsonl", "w", encoding="utf-8") as fh:
        for r in records:
            fh.write(json.dumps(r, sort_keys=True, separators=(",", ":")) + "\n")
    (out / "luck.json").write_text(json.dumps(result, indent=1, sort_keys=True))


def make_plan(
    game: str,
    bots: list[str],
    settings: int,
    streams: int,
    seed: int = 0,
    options: list[str] | None = None,
    board: str | None = None,
    players: int | None = None,
) -> LuckPlan:
    """Validate everything up front (every variant's options, every bot spec) and build the plan."""
    from hegemon.core.errors import ConfigError
    from hegemon.lab.run import parse_switches, plan_variants

    g = get_game(game)
    if not bots:
        raise ConfigError("bots", "name at least one bot")
    for b in bots:
        make_bot(b, 0)
    if settings < 2:
        raise ConfigError("settings", "--settings must be at least 2")
    if streams < 2:
        raise ConfigError("streams", "--streams must be at least 2 (the luck share compares chance streams)")
    fixed, switches = parse_switches(options or [], board)
    variants, labels = plan_variants(switches, g.options_type.PRESET_FIELD, g.options_type.PRESETS)
    plan = LuckPlan(
        game=g.name,
        bots=bots,
        variants=variants,
        labels=labels,
        settings=settings,
        streams=streams,
        seed=seed,
        base=fixed,
        players=players,
    )
    for v in range(len(variants)):
        g.parse_options(plan.options(v))
    return plan
