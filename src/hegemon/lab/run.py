"""Running a sweep into an output directory, resumably: `sweep.json` (what is played), `games.jsonl` (one
replayable record per finished game, appended as tasks complete), then `summary.json`, `games.csv` and
`report.html`. Re-running the same command continues: finished games (by their unit key) are never
recomputed; asking for more games adds deals, asking for fewer reports on the first deals only (the games
beyond stay stored, uncounted, and count again when --games is raised)."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hegemon.core.errors import ConfigError
from hegemon.games import get_game
from hegemon.lab.backends import PARTS_DIR, execute
from hegemon.lab.report import render_html, summarise, write_tables
from hegemon.lab.sweep import Sweep, Unit, light, plan_units, record_line

SWEEP_FILE = "sweep.json"
GAMES_FILE = "games.jsonl"


def parse_switches(
    options: list[str], board: str | None = None
) -> tuple[dict[str, Any], list[tuple[str, list[str]]]]:
    """`key=v1,v2` pairs: single values are fixed, several values are a switch to vary."""
    fixed: dict[str, Any] = {}
    switches: list[tuple[str, list[str]]] = []
    items = list(options)
    if board:
        items.append(f"board={board}")
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise ConfigError("option", f"--option expects key=value[,value…], got {item!r}")
        values = [v.strip() for v in value.split(",") if v.strip()]
        if not values:
            raise ConfigError(key, "no value given")
        if len(values) == 1:
            fixed[key] = values[0]
        else:
            switches.append((key, values))
    return fixed, switches


def plan_variants(
    switches: list[tuple[str, list[str]]],
    preset_field: str | None = None,
    presets: dict[str, dict[str, Any]] | None = None,
) -> tuple[list[dict[str, Any]], list[str]]:
    """One switch: each of its values. Several: the baseline (every switch's first value), then one switch
    changed at a time — so each variant differs from the baseline in exactly one switch.

    A variant that changes the game's preset option (`preset_field`, S.P.Q.RisiKo!'s `rules`) leaves the
    switches that preset sets to the preset: `--option rules=house-1.2,official --option naval_move=
    per_trireme,single_group` plays `rules=official` as the official rule set, not as the official set with
    the baseline's house naval move (which explicit options would override)."""
    if not switches:
        return [{}], ["default"]
    if len(switches) == 1:
        key, values = switches[0]
        return [{key: v} for v in values], [f"{key}={v}" for v in values]
    base = {k: vs[0] for k, vs in switches}
    variants = [dict(base)]
    labels = ["baseline (" + ", ".join(f"{k}={v}" for k, v in base.items()) + ")"]
    for k, vs in switches:
        for v in vs[1:]:
            variant = {**base, k: v}
            if k == preset_field:
                for name in (presets or {}).get(v, {}):
                    variant.pop(name, None)
            variants.append(variant)
            labels.append(f"{k}={v}")
    return variants, labels


DEFAULT_BOTS = "greedy,greedy"


def default_bots(game: str) -> str:
    """The bots `lab compare` plays when none are named: the game's own choice (`bots` of its lab role,
    `LabRole`: one bot of useful strength on every side, so a rule's effect is not swamped by a gap between
    bots), else greedy on every side."""
    g = get_game(game)
    lab = g.roles.lab()
    return DEFAULT_BOTS if lab is None or lab.bots is None else lab.bots


def make_sweep(
    game: str,
    kind: str,
    bots: list[str],
    games: int,
    seed: int = 0,
    options: list[str] | None = None,
    board: str | None = None,
    players: int | None = None,
) -> Sweep:
    """Validate everything up front (every variant's options, every bot spec) and build the sweep."""
    from hegemon.ai import make_bot

    g = get_game(game)
    if len(bots) < 2:
        raise ConfigError("bots", "name at least two bots (the lab plays them against each other)")
    for b in bots:
        make_bot(b, 0)
    fixed, switches = parse_switches(options or [], board)
    if kind == "tournament" and switches:
        raise ConfigError(
            "option", "a tournament plays one rule set: give single values (use `lab compare` to vary)"
        )
    variants, labels = plan_variants(switches, g.options_type.PRESET_FIELD, g.options_type.PRESETS)
    sweep = Sweep(
        game=g.name,
        kind=kind,
        bots=bots,
        pairs=[list(p) for p in itertools.combinations(range(len(bots)), 2)],
        variants=variants,
        labels=labels,
        deals=1,
        seed=seed,
        base=fixed,
        players=players,
    )
    for v in range(len(variants)):
        g.parse_options(sweep.options(v))
    if games < 1:
        raise ConfigError("games", "--games must be at least 1")
    per_deal = 2 * (len(sweep.pairs) if kind == "compare" else 1)
    sweep.deals = -(-games // per_deal)
    return sweep


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Every complete record of a games file (a line cut short by an interrupted run is skipped)."""
    if not path.exists():
        return []
    out = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if not line.endswith("\n"):
                break
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return out


def _repair_tail(path: Path) -> None:
    """Drop a partial last line (an interrupted write) so appends start on a fresh line."""
    if not path.exists():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        path.write_bytes(data[: data.rfind(b"\n") + 1])


def merge_part(part: Path, games: Path) -> None:
    """Append a worker's part file (its complete lines) to the games file, then delete it."""
    data = part.read_bytes()
    data = data[: data.rfind(b"\n") + 1]
    if data:
        with games.open("ab") as fh:
            fh.write(data)
    part.unlink()


def merge_leftover_parts(out: Path) -> None:
    """Parts an interrupted run left behind hold finished games: merge them before continuing."""
    parts = out / PARTS_DIR
    if parts.is_dir():
        for part in sorted(parts.glob("part-*.jsonl")):
            merge_part(part, out / GAMES_FILE)


def unique(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One record per unit key (a part merged twice by an interrupted merge adds nothing)."""
    seen: set[str] = set()
    out = []
    for r in records:
        k = r["meta"]["key"]
        if k not in seen:
            seen.add(k)
            out.append(r)
    return out


def open_run(sweep: Sweep, out: Path) -> tuple[Sweep, list[dict[str, Any]]]:
    """Create or continue the run in `out`; the stored records. A directory holding another sweep is an error."""
    out.mkdir(parents=True, exist_ok=True)
    sf = out / SWEEP_FILE
    if sf.exists():
        old = Sweep.from_json(json.loads(sf.read_text(encoding="utf-8")))
        if old.identity() != sweep.identity():
            raise ConfigError(
                "out", f"{out} holds a different sweep (other game, bots, options or seed); use another --out"
            )
    # the deals asked for now are the run's (a lower --games is honoured: the stored games beyond it stay on
    # disk, uncounted, until --games is raised again)
    sf.write_text(json.dumps(sweep.to_json(), indent=1), encoding="utf-8")
    _repair_tail(out / GAMES_FILE)
    merge_leftover_parts(out)
    return sweep, unique(read_jsonl(out / GAMES_FILE))


def within(sweep: Sweep, records: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """The records of the sweep's deals, and how many stored ones lie beyond them (a lower --games)."""
    kept = [r for r in records if r["meta"]["deal"] < sweep.deals]
    return kept, len(records) - len(kept)


def run_sweep(
    sweep: Sweep,
    out: Path,
    jobs: int = 1,
    dask: str | None = None,
    chunk: int | None = None,
    on_progress: Callable[[int, int, float], None] | None = None,
    limit_units: list[Unit] | None = None,
    lang: str = "en",
) -> dict[str, Any]:
    """Play every unit not yet stored, appending records as tasks finish; then write the summary files.
    Returns the summary with `computed` (games played now) and `reused` (games found on disk)."""
    sweep, stored = open_run(sweep, out)
    done = {r["meta"]["key"] for r in stored}
    units = limit_units if limit_units is not None else plan_units(sweep)
    todo = [u for u in units if u.key not in done]
    total = len(todo)
    t0 = time.perf_counter()
    computed = 0
    if on_progress:
        on_progress(0, total, 0.0)
    games_file = out / GAMES_FILE
    fresh: list[dict[str, Any]] = []
    ready = [t0]

    def on_ready() -> None:
        ready[0] = time.perf_counter()  # a Dask cluster's start is not play

    t_last = t0
    # the workers write the records; the parent merges their files and keeps the light records for the summary
    for batch in execute(sweep, todo, games_file, jobs=jobs, dask=dask, size=chunk, on_ready=on_ready):
        if batch.part is not None:
            merge_part(batch.part, games_file)
        elif not batch.written:
            with games_file.open("a", encoding="utf-8") as fh:
                fh.writelines(record_line(rec) for rec in batch.records)
        fresh.extend(light(rec) for rec in batch.records)
        computed += len(batch.records)
        t_last = time.perf_counter()
        if on_progress:
            on_progress(computed, total, t_last - ready[0])
    # play: from the backend being ready to the last game merged (a cluster's start and shutdown left out)
    wall = t_last - ready[0] if computed else 0.0
    parts = out / PARTS_DIR
    if parts.is_dir() and not any(parts.iterdir()):
        parts.rmdir()
    extra = {
        "computed": computed,
        "reused": len(done & {u.key for u in units}),
        "wall_seconds": round(wall, 3),
        "backend_start_seconds": round(ready[0] - t0, 3),
        "games_per_second": round(computed / wall, 3) if computed and wall > 0 else None,
        "out": str(out),
    }
    return write_outputs(sweep, out, lang, records=unique(stored + fresh), extra=extra)


def write_outputs(
    sweep: Sweep,
    out: Path,
    lang: str = "en",
    records: list[dict[str, Any]] | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """summary.json, games.csv (+ .parquet) and report.html (in `lang`: en or it) from the records (light
    ones do: the summary needs no action lists), read from the games file when not given; `extra` (the run's
    timings) is added to the summary."""
    if records is None:
        records = unique(read_jsonl(out / GAMES_FILE))
    records, beyond = within(sweep, records)
    summary = summarise(records, sweep)
    summary["games_stored_beyond"] = beyond
    summary.update(extra or {})
    summary["files"] = [GAMES_FILE, *write_tables(records, sweep, out), "report.html", "summary.json"]
    (out / "report.html").write_text(render_html(summary, lang), encoding="utf-8")
    (out / "summary.json").write_text(json.dumps(summary, indent=1, default=str), encoding="utf-8")
    return summary


def rebuild(out: Path, lang: str = "en") -> dict[str, Any]:
    """`lab report`: the summary and files again from `sweep.json` and `games.jsonl`."""
    sf = out / SWEEP_FILE
    if not sf.exists():
        raise ConfigError("path", f"{out} holds no lab run ({SWEEP_FILE} is missing)")
    sweep = Sweep.from_json(json.loads(sf.read_text(encoding="utf-8")))
    summary = write_outputs(sweep, out, lang)
    summary["out"] = str(out)
    return summary
