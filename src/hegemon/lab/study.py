"""`hegemon lab study NAME`: the lab's checked-in answers to the user's questions (issue 27 item 4), one command
each. A study runs, on each of its boards, the three lab measurements on the same switch:

- `compare`: the rule variants on paired, seat-rotated deals, the same bot on every seat (length, sieges or
  conquests, balance between the sides, design metrics; every test clustered by deal and Holm-corrected);
- `luck`: the luck share of each variant by common random numbers (the same settings under several chance
  streams);
- `ladder`: the skill range of each variant (the Elo spread of a ladder of bots of known, different strength).

It writes every run's files under `--out` (`<board>/compare`, `<board>/luck`, `<board>/ladder`) and one page,
`README.md` there: findings first in plain words (English, then Italian), then the tables, the warnings, and how
it was made (the command, the bots, the games, the CPU time). Figures are read from the runs' own JSON, never
typed by hand, so the page can always be rebuilt (`--page-only`) from the stored runs.
"""

from __future__ import annotations

import json
import os
import platform
import resource
import shlex
import time
from collections.abc import Callable
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from hegemon.core.errors import ConfigError
from hegemon.core.roles import StudySpec

Study = StudySpec


def studies() -> dict[str, Study]:
    """Every game's checked-in studies (declared in its lab role), by name."""
    from hegemon.games import game_names, get_game

    found: dict[str, Study] = {}
    for g in game_names():
        lab = get_game(g).roles.lab()
        for spec in lab.studies if lab is not None else ():
            found[spec.name] = replace(spec, game=g)
    return found


def get_study(name: str) -> Study:
    known = studies()
    if name not in known:
        raise ConfigError("study", f"no study {name!r}; the studies are: {', '.join(sorted(known))}")
    return known[name]


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the worker processes)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


SPENT = "spent.json"
"""Each stage's CPU and wall time, stored beside its results when it is played, so a resumed study counts it."""


def _record(where: Path, t0: float, c0: float) -> None:
    where.mkdir(parents=True, exist_ok=True)
    spent = {"cpu": _cpu() - c0, "wall": time.perf_counter() - t0}
    (where / SPENT).write_text(json.dumps(spent), encoding="utf-8")


def _recorded(where: Path, fallback: dict[str, float] | None = None) -> dict[str, float]:
    """The stage's stored time; `fallback` (or nothing known: `unrecorded`) for a stage stored without it."""
    f = where / SPENT
    if f.exists():
        return {k: float(v) for k, v in json.loads(f.read_text(encoding="utf-8")).items()}
    return {"unrecorded": 1.0, "cpu": 0.0, "wall": 0.0, **(fallback or {})}


def _board_args(board: str) -> str | None:
    return None if board in ("", "default") else board


def run_study(study: Study, out: Path, jobs: int = 1, on_stage: Callable[[str], None] | None = None,
              command: str = "") -> dict[str, Any]:  # fmt: skip
    """Play every measurement of `study` on each board (a stage already stored under `out` is reused), then write
    the page. Returns the page's data (also stored as `out/study.json`)."""
    from hegemon.lab import luck as lk
    from hegemon.lab.ladder import run_skill
    from hegemon.lab.run import make_sweep, rebuild, run_sweep

    say = on_stage or (lambda _s: None)
    options = [study.option]
    stages: dict[str, dict[str, Any]] = {}
    for board in study.boards:
        where = out / (board or "default")
        b = _board_args(board)
        spent: dict[str, dict[str, float]] = {}

        t0, c0 = time.perf_counter(), _cpu()
        say(f"{board or 'default'}: compare ({study.games} games a variant, {study.bots})")
        bots = [x.strip() for x in study.bots.split(",") if x.strip()]
        if len(bots) == 1:  # one bot on every seat
            bots *= 2
        sweep = make_sweep(study.game, "compare", bots, study.games, study.seed, options, b, study.players)
        if (where / "compare" / "summary.json").exists():
            summary = rebuild(where / "compare")
            if summary.get("games", 0) < summary.get("games_planned", study.games):
                summary = run_sweep(sweep, where / "compare", jobs=jobs)
                _record(where / "compare", t0, c0)
        else:
            summary = run_sweep(sweep, where / "compare", jobs=jobs)
            _record(where / "compare", t0, c0)
        # (a comparison played before stage times were kept: its games' own CPU time, from the summary)
        spent["compare"] = _recorded(where / "compare", {"cpu": float(summary.get("cpu_seconds") or 0.0)})

        t0, c0 = time.perf_counter(), _cpu()
        say(
            f"{board or 'default'}: luck ({study.luck_settings} settings x {study.luck_streams} chance streams)"
        )
        luck_file = where / "luck" / "luck.json"
        if luck_file.exists():
            luck = json.loads(luck_file.read_text(encoding="utf-8"))
        else:
            plan = lk.make_plan(study.game, [x.strip() for x in study.luck_bots.split(",")], study.luck_settings,
                                study.luck_streams, study.seed, options, b, study.players)  # fmt: skip
            records = lk.run(plan, jobs)
            luck = lk.analyse(records, plan)
            lk.write(where / "luck", records, luck)
            _record(where / "luck", t0, c0)
        spent["luck"] = _recorded(where / "luck")

        t0, c0 = time.perf_counter(), _cpu()
        say(f"{board or 'default'}: ladder ({study.levels}, {study.ladder_games} games a pair)")
        ladder_file = where / "ladder" / "ladder.json"
        levels = [x.strip() for x in study.levels.split(",")]
        ladder = json.loads(ladder_file.read_text(encoding="utf-8")) if ladder_file.exists() else None
        if ladder is not None and (
            ladder.get("levels") != levels or ladder.get("games_per_pair") != study.ladder_games
        ):
            say(f"{board or 'default'}: the stored ladder has other levels or games; playing it again")
            ladder = None
        if ladder is None:
            ladder = run_skill(study.game, levels, study.ladder_games,
                               study.seed, options, b, study.players, jobs)  # fmt: skip
            ladder_file.parent.mkdir(parents=True, exist_ok=True)
            ladder_file.write_text(json.dumps(ladder, indent=1, default=str), encoding="utf-8")
            _record(where / "ladder", t0, c0)
        spent["ladder"] = _recorded(where / "ladder")
        stages[board or "default"] = {"compare": summary, "luck": luck, "ladder": ladder, "spent": spent}

    data: dict[str, Any] = {
        "study": asdict(study),
        "command": command,
        "boards": {k: _digest(study, v) for k, v in stages.items()},
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "jobs": jobs,
            "engine": "pure Python" if os.environ.get("HEGEMON_PURE") else "compiled (mypyc) if built",
        },
    }
    (out / "study.json").write_text(json.dumps(data, indent=1, default=str), encoding="utf-8")
    (out / "README.md").write_text(page(data), encoding="utf-8")
    return data


# ------------------------------------------------------------------ what the page reads from the runs


def _digest(study: Study, stage: dict[str, Any]) -> dict[str, Any]:
    """The figures the page prints, taken from the three runs of one board."""
    s, luck, lad = stage["compare"], stage["luck"], stage["ladder"]
    variants = []
    luck_by = {v["label"]: v for v in luck.get("variants", [])}
    lad_by = {v["label"]: v for v in lad.get("variants", [])}
    from hegemon.lab.findings import variant_name

    for i, v in enumerate(s["variants"]):
        lv, kv = luck_by.get(v["label"], {}), lad_by.get(v["label"], {})
        variants.append(
            {
                "label": v["label"],
                "name": variant_name(s, i, "en"),
                "name_it": variant_name(s, i, "it"),
                "games": v["games"],
                "seat_win_rate": v["seat_win_rate"],
                "first_player_win_rate": v["first_player_win_rate"],
                "length": v["length"],
                "measures": v["measures"],
                "design": v["design"],
                "identical_rotations": v["identical_rotations"],
                "luck": {k: lv.get(k) for k in ("luck", "ci", "identical_streams")} if lv else None,
                "luck_readable": bool(luck.get("readable")),
                "skill_range": kv.get("skill_range"),
                "cpu_seconds_per_game": v.get("cpu_seconds_per_game"),
            }
        )
    return {
        "variants": variants,
        "comparisons": s["comparisons"],
        "findings": s["findings"],
        "findings_it": s["findings_it"],
        "warnings": s["warnings"] + luck.get("warnings", []) + lad.get("warnings", []),
        "warnings_it": s["warnings_it"]
        + luck.get("warnings_it", luck.get("warnings", []))
        + lad.get("warnings_it", lad.get("warnings", [])),
        "luck_differences": luck.get("differences", []),
        "skill_differences": lad.get("differences", []),
        "multiple_testing": s["multiple_testing"],
        "games": s["games"],
        "bots": s["bots"],
        "compare_cpu_seconds": s.get("cpu_seconds"),
        "spent": stage["spent"],
    }


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _it(text: str) -> str:
    """Decimal comma for the Italian page (figures only; the text is already Italian)."""
    out, prev_digit = [], False
    for i, ch in enumerate(text):
        nxt = text[i + 1] if i + 1 < len(text) else ""
        out.append("," if ch == "." and prev_digit and nxt.isdigit() else ch)
        prev_digit = ch.isdigit()
    return "".join(out)


def _label(d: dict[str, Any], label: str, it: bool = False) -> str:
    v = next((x for x in d["variants"] if x["label"] == label), None)
    return label if v is None else str(v["name_it" if it else "name"])


def _answers(study: Study, board: str, d: dict[str, Any], it: bool) -> list[str]:
    """One plain sentence per variant after the baseline: what it changes (Holm-adjusted p < 0.05) and what it
    does not, on each of the five questions."""
    from hegemon.lab.findings import measure_name, seat_rate_name

    lines = []
    base = d["variants"][0]
    side = study.headline_seat
    for c in d["comparisons"]:
        v = next(x for x in d["variants"] if x["label"] == c["label"])
        said: list[str] = []

        def change(name: str, name_it: str, t: dict[str, Any] | None, scale: float = 1.0, unit: str = "",
                   unit_it: str = "", said: list[str] = said) -> None:  # fmt: skip
            if not t:
                return
            sig = t.get("p_adjusted", 1.0) < 0.05
            diff = t["diff"] * scale
            if it:
                said.append(
                    f"{name_it} {'cambia' if sig else 'non cambia in modo chiaro'}: {diff:+.2f}{unit_it} "
                    f"[{t['low'] * scale:+.2f}, {t['high'] * scale:+.2f}], p corretto {t['p_adjusted']:.3g}"
                )
            else:
                said.append(
                    f"{name} {'changes' if sig else 'does not clearly change'}: {diff:+.2f}{unit} "
                    f"[{t['low'] * scale:+.2f}, {t['high'] * scale:+.2f}], adjusted p {t['p_adjusted']:.3g}"
                )

        unit, unit_it = study.length_unit
        change(f"length ({unit} a game)", f"durata ({unit_it} a partita)", c.get("length"))
        key = study.key_measure
        if key:
            change(measure_name(key, "en"), measure_name(key, "it"), c["measures"].get(key))
        if side is not None:
            change(
                seat_rate_name(study.game, side, "en"),
                seat_rate_name(study.game, side, "it"),
                c["seat_win_rate"][side] if len(c["seat_win_rate"]) > side else None,
                100,
                " points",
                " punti",
            )
        else:
            change(
                "the first player's win rate",
                "il tasso di vittoria del primo giocatore",
                c["first_player_win_rate"],
                100,
                " points",
                " punti",
            )
        ld = next((x for x in d["luck_differences"] if x["label"] == c["label"]), None)
        if ld is not None:
            sig = ld.get("p_holm", 1.0) < 0.05
            lo, hi = ld["ci"]
            if it:
                said.append(
                    f"quota di fortuna {'cambia' if sig else 'non cambia in modo chiaro'}: "
                    f"{ld['difference']:+.2f} [{lo:+.2f}, {hi:+.2f}], p corretto {ld.get('p_holm', 1):.3g}"
                )
            else:
                said.append(
                    f"luck share {'changes' if sig else 'does not clearly change'}: {ld['difference']:+.2f} "
                    f"[{lo:+.2f}, {hi:+.2f}], adjusted p {ld.get('p_holm', 1):.3g}"
                )
        elif not v["luck_readable"]:
            said.append(
                "quota di fortuna: non leggibile (vedi gli avvisi)"
                if it
                else "luck share: not readable (see the warnings)"
            )
        sd = next((x for x in d["skill_differences"] if x["label"] == c["label"]), None)
        if sd is not None:
            sig = sd.get("p_adjusted", 1.0) < 0.05
            if it:
                said.append(
                    f"ampiezza di abilità {'cambia' if sig else 'non cambia in modo chiaro'}: "
                    f"{sd['diff']:+.0f} Elo [{sd['low']:+.0f}, {sd['high']:+.0f}], p corretto "
                    f"{sd['p_adjusted']:.3g}"
                )
            else:
                said.append(
                    f"skill range {'changes' if sig else 'does not clearly change'}: {sd['diff']:+.0f} Elo "
                    f"[{sd['low']:+.0f}, {sd['high']:+.0f}], adjusted p {sd['p_adjusted']:.3g}"
                )
        else:
            said.append(
                "ampiezza di abilità: non misurabile (la scala non si separa)"
                if it
                else "skill range: not measurable (the ladder does not separate)"
            )
        name, bname = _label(d, c["label"], it), _label(d, base["label"], it)
        head = f"**{name}** rispetto a {bname} ({board})" if it else f"**{name}** against {bname} ({board})"
        lines.append(f"- {head}: " + "; ".join(_it(x) if it else x for x in said) + ".")
    return lines


def _table(study: Study, d: dict[str, Any], it: bool) -> list[str]:
    from hegemon.lab.findings import seat_rate_name

    lang = "it" if it else "en"
    rate = (
        seat_rate_name(study.game, study.headline_seat, lang)
        if study.headline_seat is not None
        else ("il tasso di vittoria del primo giocatore" if it else "the first player's win rate")
    )
    if it:
        head = f"| variante | partite | {rate} | decisioni a partita | quota di fortuna | ampiezza di abilità (Elo) |"
    else:
        head = f"| variant | games | {rate} | decisions a game | luck share | skill range (Elo) |"
    rows = [head, "| --- | ---: | --- | --- | --- | --- |"]
    for v in d["variants"]:
        w = (
            v["seat_win_rate"][study.headline_seat]
            if study.headline_seat is not None
            else v["first_player_win_rate"]
        )
        dec = v["length"].get("decisions") or v["length"].get("turns_or_rounds") or {}
        lk = v["luck"]
        luck = (
            "–"
            if not lk or not v["luck_readable"] or lk.get("luck") is None
            else (
                f"{lk['luck']:.2f} [{lk['ci'][0]:.2f}, {lk['ci'][1]:.2f}]"
                if lk.get("ci")
                else f"{lk['luck']:.2f}"
            )
        )
        sr = v["skill_range"]
        skill = "–" if not sr else f"{sr['elo']:.0f} [{sr['low']:.0f}, {sr['high']:.0f}]"
        figures = (
            f" {v['games']} | {_pct(w['rate'])} [{_pct(w['low'])}, {_pct(w['high'])}] | "
            f"{dec.get('mean', float('nan')):.1f} | {luck} | {skill} |"
        )
        rows.append(f"| {_label(d, v['label'], it)} |" + (_it(figures) if it else figures))
    return rows


def page(data: dict[str, Any]) -> str:
    """The study's page (Markdown), from `study.json`'s data."""
    fields: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in data["study"].items()}
    study = Study(**fields)
    boards = data["boards"]
    cpu = sum(t["cpu"] for b in boards.values() for t in b["spent"].values())
    wall = sum(t["wall"] for b in boards.values() for t in b["spent"].values())
    unknown = any(t.get("unrecorded") for b in boards.values() for t in b["spent"].values())
    L: list[str] = [f"# {study.title[0]}", "", f"*{study.question[0]}*", ""]
    L += [
        "This page is written by the command below from its own runs; every figure has its 95% interval, every "
        "test is paired by deal and Holm-corrected over the report's tests, a tie counts as half a win. An "
        "interval is a 95% interval on its own; whether a change is called clear is read from its Holm-adjusted "
        "p (below 0.05), so an interval may miss zero while the change, one of many tested, is not called clear.",
        "",
    ]
    L += ["## Findings", ""]
    for board, d in boards.items():
        L += [f"### {board}", "", *_answers(study, board, d, it=False), "", *_table(study, d, it=False), ""]
        L += ["Details (from the comparison's report):", ""] + [f"- {f}" for f in d["findings"]] + [""]
    L += ["## Warnings", ""]
    for board, d in boards.items():
        L += [f"- ({board}) {w}" for w in d["warnings"]]
    L += ["", "## In italiano", "", f"### {study.title[1]}", "", f"*{study.question[1]}*", ""]
    L += [
        "Ogni cifra ha il suo intervallo al 95%, ogni test è appaiato per distribuzione e corretto con Holm sui "
        "test del rapporto, un pareggio vale mezza vittoria. Un cambiamento è detto chiaro se il suo p corretto "
        "(Holm) è sotto 0,05: un intervallo può escludere lo zero senza che il cambiamento, uno dei molti "
        "provati, sia detto chiaro.",
        "",
    ]
    for board, d in boards.items():
        L += [f"### {board}", "", *_answers(study, board, d, it=True), ""]
        L += _table(study, d, it=True) + [""] + [f"- {f}" for f in d["findings_it"]] + [""]
    L += ["Avvisi:", ""]
    for board, d in boards.items():
        L += [f"- ({board}) {w}" for w in d["warnings_it"]]
    L += ["", "## How it was made", ""]
    L += ["```", data.get("command") or f"hegemon lab study {study.name}", "```", ""]
    L += [
        f"- Switch compared: `{study.option}` (the first value is the baseline); boards: "
        f"{', '.join(b or 'default' for b in study.boards)}; players: {study.players or 'the game default'}.",
        f"- Comparison: bots `{study.bots}` on every seat, {study.games} games a variant (paired deals, both seat "
        "rotations), seed " + str(study.seed) + ".",
        f"- Luck share: bots `{study.luck_bots}`, {study.luck_settings} settings × {study.luck_streams} chance "
        "streams a variant (common random numbers: the same deal, bots and bot seeds under each stream).",
        f"- Skill range: the ladder `{study.levels}`, {study.ladder_games} games a pair and variant (Bradley–Terry "
        "Elo, bootstrap over deals).",
        f"- CPU time: {'at least ' if unknown else ''}{cpu / 3600:.2f} CPU hours in all ({wall / 3600:.2f} hours of wall clock; "
        f"{data['machine']['cpus']} CPUs, {data['machine']['jobs']} worker processes, Python "
        f"{data['machine']['python']}, engine {data['machine']['engine']}).",
        "",
    ]
    for board, d in boards.items():
        parts = ", ".join(
            f"{k} {t['cpu']:.0f} CPU s"
            + (
                " (its games alone: played before stage times were kept)"
                if t.get("unrecorded") and t["cpu"]
                else ""
            )
            if t["cpu"] or not t.get("unrecorded")
            else f"{k} not recorded (played before stage times were kept)"
            for k, t in d["spent"].items()
        )
        L.append(f"  - {board}: {parts}.")
    L += [
        "",
        "Every run's figures (summary.json, luck.json, ladder.json, study.json) are beside this page; the command "
        "also writes the games themselves (games.jsonl, .csv, .parquet) and the comparison's report.html, which "
        "are too large to check in. `--page-only` rewrites this page from the figures.",
        "",
    ]
    return "\n".join(L)


def rewrite_page(out: Path) -> Path:
    data = json.loads((out / "study.json").read_text(encoding="utf-8"))
    (out / "README.md").write_text(page(data), encoding="utf-8")
    return out / "README.md"


def with_overrides(study: Study, **kw: Any) -> Study:
    """The study with the given figures changed (None: kept)."""
    return replace(study, **{k: v for k, v in kw.items() if v is not None})


def command_line(study: Study, out: Path, jobs: int, **kw: Any) -> str:
    parts = ["hegemon", "lab", "study", study.name, "--out", str(out), "--jobs", str(jobs)]
    for k, v in kw.items():
        if v is not None:
            parts += [f"--{k.replace('_', '-')}", str(v)]
    return shlex.join(parts)
