"""`hegemon lab compare | tournament | report`: the Typer app registered by the main CLI as `lab`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from hegemon.console import err, fail
from hegemon.core.errors import HegemonError

# the sweep machinery (scipy, dask) is imported by the commands that run, so that `hegemon --help` and every
# other command start fast

lab_app = typer.Typer(
    help="The variant lab: bots play paired, seat-rotated games; statistics and reports.",
    no_args_is_help=True,
)

LAB_EXTRA = ("numpy", "scipy", "statsmodels", "matplotlib", "jinja2", "dask", "pyarrow")


@lab_app.callback()
def _lab_extra() -> None:
    """Every lab command needs the `lab` extra: say so in one line when it is missing."""
    import importlib.util

    def absent(name: str) -> bool:
        try:
            return importlib.util.find_spec(name) is None
        except (ImportError, ValueError):
            return True

    missing = [m for m in LAB_EXTRA if absent(m)]
    if missing:
        fail(
            f"the lab needs hegemon's 'lab' extra ({', '.join(missing)} missing): "
            "`.venv/bin/pip install -e '.[lab]'` in a checkout (`make test` installs it too), "
            "or `pip install 'hegemon[lab]'`"
        )


class _Out:
    """The lab's standard-output console, made at each use so that the terminal width (COLUMNS) of the command
    that runs is the one obeyed, not the one of whoever imported this module first."""

    def __getattr__(self, name: str) -> Any:
        return getattr(Console(), name)


out = _Out()


def _progress(quiet: bool) -> Progress:
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=quiet,
    )


def _run(
    kind: str,
    game: str,
    bots: str | None,
    games: int,
    seed: int,
    option: list[str] | None,
    board: str | None,
    players: int | None,
    jobs: int,
    dask: str | None,
    out_dir: Path | None,
    chunk: int | None,
    as_json: bool,
    lang: str = "en",
) -> None:
    from hegemon.lab.run import default_bots, make_sweep, run_sweep

    try:
        if bots is None:
            bots = default_bots(game)
        sweep = make_sweep(
            game,
            kind,
            [b.strip() for b in bots.split(",") if b.strip()],
            games,
            seed,
            option or [],
            board,
            players,
        )
    except HegemonError as e:
        fail(str(e))
        return
    target = out_dir or Path("lab") / f"{sweep.game}-{kind}"
    with _progress(False) as prog:
        task = prog.add_task(f"{sweep.game} {kind}", total=None, rate="")

        def on_progress(done: int, total: int, seconds: float) -> None:
            rate = f"{done / seconds:.2f} games/s" if seconds > 0 and done else ""
            prog.update(task, total=total, completed=done, rate=rate)

        try:
            summary = run_sweep(
                sweep, target, jobs=jobs, dask=dask, chunk=chunk, on_progress=on_progress, lang=lang
            )
        except HegemonError as e:
            fail(str(e))
            return
    if as_json:
        print(json.dumps(summary, default=str))
        return
    show(summary, lang)


def show(summary: dict[str, Any], lang: str = "en") -> None:
    """Readable tables of a summary, then its findings and warnings."""
    vs = [v for v in summary["variants"] if v.get("games")]
    t = Table(
        title=f"{summary['game']}: {summary['games']} games ({summary.get('computed', 0)} played now, "
        f"{summary.get('reused', 0)} reused) → {summary.get('out', '')}"
    )
    t.add_column("variant", overflow="fold")
    t.add_column("games", justify="right")
    seats = len(vs[0]["seat_win_rate"]) if vs else 0
    from hegemon.lab.findings import seat_name  # Polis's seats by side: Athens, Sparta

    for j in range(seats):
        t.add_column(escape(seat_name(summary["game"], j, lang)), justify="right")
    t.add_column("first player", justify="right")
    t.add_column("skill rate", justify="right")
    t.add_column("length", justify="right")

    def r(x: dict[str, Any] | None) -> str:
        return "–" if not x or x.get("rate") is None else f"{x['rate']:.0%} [{x['low']:.0%},{x['high']:.0%}]"

    for v in vs:
        skill = "; ".join(
            f"{e['stronger']} {r(e['skill_rate'])}" if e.get("skill_rate") else "– (one bot twice)"
            for e in v["luck_vs_skill"]
        )
        ln = v["length"]["turns_or_rounds"]
        t.add_row(
            escape(v["label"]),
            str(v["games"]),
            *(r(v["seat_win_rate"][j]) for j in range(seats)),
            r(v.get("first_player_win_rate")),
            escape(skill),
            f"{ln['mean']:.1f}",
        )
    out.print(t)
    for c in summary.get("comparisons") or []:
        for e in c["skill_rate"]:
            out.print(
                f"{escape(c['label'])} vs {escape(c['baseline'])}: skill rate of {escape(e['stronger'])} "
                f"{e['diff']:+.1%} [{e['low']:+.1%}, {e['high']:+.1%}], p = {e['p_value']:.3g} "
                f"({summary.get('multiple_testing', {}).get('name', 'Holm')}-adjusted "
                f"{e.get('p_adjusted', e['p_value']):.3g})"
            )
    tour = summary.get("tournament")
    if tour:
        tt = Table(title="tournament (row beats column)")
        tt.add_column("bot")
        for b in tour["bots"]:
            tt.add_column(escape(b), justify="right")
        tt.add_column("overall", justify="right")
        for i, b in enumerate(tour["bots"]):
            tt.add_row(escape(b), *(r(c) for c in tour["cross"][i]), r(tour["overall"][i]))
        out.print(tt)
    it = lang == "it"
    times = []
    if summary.get("cpu_seconds") is not None:
        times.append(f"CPU {summary['cpu_seconds']:.1f} s")
    if summary.get("wall_seconds") is not None:
        times.append(
            f"tempo reale di gioco {summary['wall_seconds']:.1f} s"
            if it
            else f"wall time of play {summary['wall_seconds']:.1f} s"
        )
    if times:
        out.print(" · ".join(times))
    beyond = summary.get("games_stored_beyond") or 0
    if beyond:
        out.print(
            f"[yellow]![/yellow] {beyond} "
            + (
                "partite salvate oltre --games non sono contate (restano in games.jsonl; alza --games per contarle)"
                if it
                else "stored games lie beyond --games and are not counted (they stay in games.jsonl; raise "
                "--games to count them again)"
            ),
            soft_wrap=True,
        )
    out.print("[bold]" + ("Risultati principali" if it else "Findings") + "[/bold]")
    for f in summary.get("findings_it" if it else "findings") or []:
        out.print(f"• {escape(f)}", soft_wrap=True)
    warns = summary.get("warnings_it" if it else "warnings") or []
    if warns:
        out.print("[bold yellow]" + ("Avvertenze" if it else "Warnings") + "[/bold yellow]")
        for w in warns:
            out.print(f"[yellow]![/yellow] {escape(w)}", soft_wrap=True)
    if summary.get("out"):
        out.print(f"report: {escape(str(Path(summary['out']) / 'report.html'))}")


Bots = Annotated[
    str,
    typer.Option(
        help="Comma-separated bot specs (random, beginner, greedy, mcts:easy|normal|hard (easy is greedy), "
        "mcts:N, mcts:N@SECONDS, rollout:N); every pair meets. List the strongest first."
    ),
]
Seed = Annotated[int, typer.Option(help="Seed of the sweep: the same seed reproduces every game")]
Option = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="name=value, or name=v1,v2,… to vary it")
]
Board = Annotated[
    str | None,
    typer.Option(
        help="A board data file or a shipped board's name (Polis: `balanced`), or several comma-separated to compare"
    ),
]
Players = Annotated[int | None, typer.Option(help="Number of players (S.P.Q.RisiKo!: 3-5)")]
Jobs = Annotated[int, typer.Option(help="Local worker processes")]
Dask = Annotated[
    str | None, typer.Option(help="Run on Dask: a scheduler address (tcp://host:8786) or `local`")
]
Out = Annotated[Path | None, typer.Option("--out", help="Output directory (re-running continues it)")]
Chunk = Annotated[int | None, typer.Option(help="Games per task (default: a few tasks per worker)")]
AsJson = Annotated[bool, typer.Option("--json", help="Print one JSON summary object on stdout")]
Lang = Annotated[str, typer.Option("--lang", help="Language of the report and findings: en or it")]


def _lang(lang: str) -> str:
    if lang not in ("en", "it"):
        fail(f"--lang must be en or it, got {lang!r}")
    return lang


@lab_app.command()
def compare(
    game: Annotated[str, typer.Argument(help="The game: polis or spqrisiko")],
    bots: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated bot specs (random, beginner, greedy, mcts:easy|normal|hard, mcts:N, rollout:N); every "
            "pair meets. Default: one bot on every side, the game's choice (Polis mcts:normal, S.P.Q.RisiKo! "
            "greedy), so the bots' gap does not swamp the rule"
        ),
    ] = None,
    games: Annotated[
        int,
        typer.Option(
            help="Games per variant (split over the pairs and both seat rotations); on a "
            "resumed run a lower number reports on the first games only"
        ),
    ] = 100,
    seed: Seed = 1,
    option: Option = None,
    board: Board = None,
    players: Players = None,
    jobs: Jobs = 1,
    dask: Dask = None,
    out_dir: Out = None,
    chunk: Chunk = None,
    as_json: AsJson = False,
    lang: Lang = "en",
) -> None:
    """Compare rule variants on paired seeds: `--option siege=classic,sacrifice` varies one switch; several
    such options vary one switch at a time from the baseline (their first values)."""
    _run(
        "compare",
        game,
        bots,
        games,
        seed,
        option,
        board,
        players,
        jobs,
        dask,
        out_dir,
        chunk,
        as_json,
        _lang(lang),
    )


@lab_app.command()
def tournament(
    game: Annotated[str, typer.Argument(help="The game: polis or spqrisiko")],
    bots: Bots = "random,greedy,mcts:normal",
    games: Annotated[int, typer.Option(help="Games per pair of bots (both seat rotations)")] = 20,
    seed: Seed = 1,
    option: Option = None,
    board: Board = None,
    players: Players = None,
    jobs: Jobs = 1,
    dask: Dask = None,
    out_dir: Out = None,
    chunk: Chunk = None,
    as_json: AsJson = False,
    lang: Lang = "en",
) -> None:
    """Every pair of bots plays the same seeds on both seat rotations: a cross table with intervals."""
    _run(
        "tournament",
        game,
        bots,
        games,
        seed,
        option,
        board,
        players,
        jobs,
        dask,
        out_dir,
        chunk,
        as_json,
        _lang(lang),
    )


@lab_app.command()
def report(
    path: Annotated[Path, typer.Argument(help="A lab output directory")],
    as_json: AsJson = False,
    lang: Lang = "en",
) -> None:
    """Rebuild summary.json, games.csv and report.html from the stored records."""
    from hegemon.lab.run import rebuild

    try:
        summary = rebuild(path, _lang(lang))
    except HegemonError as e:
        fail(str(e))
        return
    if as_json:
        print(json.dumps(summary, default=str))
        return
    show(summary, lang)


@lab_app.command()
def luck(
    game: Annotated[str, typer.Argument(help="The game: polis or spqrisiko")],
    bots: Annotated[
        str, typer.Option(help="Bots by seat (cycled over the seats, rotated per setting)")
    ] = "mcts:normal",
    settings: Annotated[int, typer.Option(help="Settings: bots, their seeds and seats fixed")] = 100,
    streams: Annotated[int, typer.Option(help="Chance streams each setting is played under")] = 8,
    seed: Seed = 1,
    option: Option = None,
    board: Board = None,
    players: Players = None,
    jobs: Jobs = 1,
    out_dir: Out = None,
    as_json: AsJson = False,
) -> None:
    """The luck share of each variant, by common random numbers: each setting (bots, bot seeds, seats) is
    replayed under several chance streams; the share of the result's variance that changes with the stream
    alone is the luck share (0: chance never decides; 1: only chance does)."""
    from hegemon.lab import luck as lk

    try:
        plan = lk.make_plan(
            game,
            [b.strip() for b in bots.split(",") if b.strip()],
            settings,
            streams,
            seed,
            option or [],
            board,
            players,
        )
    except HegemonError as e:
        fail(str(e))
        return
    total = plan.settings * plan.streams * len(plan.variants)
    with _progress(False) as prog:
        task = prog.add_task("luck", total=total, rate="")
        records = lk.run(plan, jobs, progress=lambda k: prog.advance(task, k))
    result = lk.analyse(records, plan)
    target = out_dir or Path("lab") / f"{plan.game}-luck"
    lk.write(target, records, result)
    if as_json:
        print(json.dumps(result, default=str))
        return
    for w in result["warnings"]:
        err.print(f"[yellow]warning:[/yellow] {escape(w)}")
    table = Table(title=f"Luck share ({plan.settings} settings x {plan.streams} chance streams; bots {bots})")
    for col in ("variant", "luck share", "interval", "same game in every stream"):
        table.add_column(col)
    for v in result["variants"]:
        ci = v.get("ci")
        table.add_row(
            escape(v["label"]),
            f"{v['luck']:.2f}" if result["readable"] else "withheld",
            f"[{ci[0]:.2f}, {ci[1]:.2f}]" if ci else "-",
            f"{v['identical_streams']:.0%}",
        )
    out.print(table)
    for d in result["differences"]:
        out.print(
            f"{escape(d['label'])} vs {escape(d['versus'])}: {d['difference']:+.2f} "
            f"[{d['ci'][0]:+.2f}, {d['ci'][1]:+.2f}], p = {d['p_holm']:.3g} (Holm)"
        )
    out.print(f"records and luck.json in {target}")


@lab_app.command()
def ladder(
    game: Annotated[str, typer.Argument(help="The game: polis or spqrisiko")],
    levels: Annotated[
        str,
        typer.Option(
            help="Bot levels, weakest first (levels that separate: random, beginner, mcts:easy (one ply, the "
            "greedy bot), a search); every pair meets on the same deals"
        ),
    ] = "random,beginner,mcts:easy,mcts:normal",
    games: Annotated[
        int, typer.Option(help="Games per pair of levels and variant (both seat rotations)")
    ] = 40,
    seed: Seed = 1,
    option: Option = None,
    board: Board = None,
    players: Players = None,
    jobs: Jobs = 1,
    resamples: Annotated[int, typer.Option(help="Bootstrap resamples of the deals")] = 1000,
    out_dir: Out = None,
    as_json: AsJson = False,
    lang: Lang = "en",
) -> None:
    """The skill range of each rule variant: a ladder of bot levels plays a round robin under every variant on
    the same deals; the Elo spread of the ladder (top level minus bottom) with a bootstrap interval over deals,
    and its paired change between variants (Holm). No figure when the ladder does not separate. Each game is
    kept in --out as it ends: run a stopped ladder again to resume it."""
    from hegemon.lab.ladder import run_skill

    lang = _lang(lang)
    names = [b.strip() for b in levels.split(",") if b.strip()]
    if not 1 <= resamples <= 100_000:
        fail("--resamples must be between 1 and 100000")
    # the games are kept in the output folder as they end: a stopped ladder, run again, resumes
    from hegemon.games import get_game

    try:
        game_name = get_game(game).name
    except HegemonError as e:
        fail(str(e))
        return
    target = out_dir or Path("lab") / f"{game_name}-ladder"
    with _progress(False) as prog:
        task = prog.add_task(f"{game} ladder", total=None, rate="")
        try:
            result = run_skill(
                game,
                names,
                games,
                seed,
                option or [],
                board,
                players,
                jobs,
                resamples,
                on_progress=lambda n, total: prog.update(task, total=total, completed=n),
                store=target,
            )
        except HegemonError as e:
            fail(str(e))
            return
    target.mkdir(parents=True, exist_ok=True)
    (target / "ladder.json").write_text(json.dumps(result, indent=1, default=str), encoding="utf-8")
    if as_json:
        print(json.dumps(result, default=str))
        return
    it = lang == "it"
    t = Table(
        title=f"{result['game']}: "
        + ("Elo dei livelli" if it else "Elo of the levels")
        + f" ({result['games_per_pair']} "
        + ("partite a coppia" if it else "games a pair")
        + ")"
    )
    t.add_column("variante" if it else "variant", overflow="fold")
    for name in names:
        t.add_column(escape(name), justify="right")
    t.add_column("ampiezza di abilità" if it else "skill range", justify="right")
    for v in result["variants"]:
        sr = v["skill_range"]
        t.add_row(
            escape(v["label"]),
            *(f"{lv['elo']:.0f} [{lv['low']:.0f}, {lv['high']:.0f}]" for lv in v["levels"]),
            "–" if sr is None else f"{sr['elo']:.0f} [{sr['low']:.0f}, {sr['high']:.0f}]",
        )
    out.print(t)
    for d in result["differences"]:
        out.print(
            f"{escape(d['label'])} vs {escape(d['versus'])}: {d['diff']:+.0f} Elo "
            f"[{d['low']:+.0f}, {d['high']:+.0f}], p = {d['p_value']:.3g} "
            f"({result['multiple_testing']}-adjusted {d['p_adjusted']:.3g})"
        )
    for w in result["warnings_it" if it else "warnings"]:
        out.print(f"[yellow]![/yellow] {escape(w)}", soft_wrap=True)
    out.print(f"ladder.json: {escape(str(target / 'ladder.json'))}")


@lab_app.command()
def study(
    name: Annotated[
        str,
        typer.Argument(
            help="polis-sieges (the four siege rules on both Polis boards) or "
            "spqrisiko-rules (house rules v1.2 against the 2005 rules)"
        ),
    ],
    out_dir: Annotated[
        Path | None, typer.Option("--out", help="Where the runs and the page go (default: docs/lab-NAME)")
    ] = None,
    games: Annotated[
        int | None, typer.Option(help="Comparison games a variant (default: the study's)")
    ] = None,
    bots: Annotated[str | None, typer.Option(help="The comparison's bot, on every seat")] = None,
    luck_bots: Annotated[str | None, typer.Option(help="The luck share's bots")] = None,
    levels: Annotated[str | None, typer.Option(help="The skill ladder, weakest first")] = None,
    ladder_games: Annotated[
        int | None, typer.Option(help="Ladder games a pair of levels and variant")
    ] = None,
    luck_settings: Annotated[int | None, typer.Option(help="Luck settings a variant")] = None,
    luck_streams: Annotated[int | None, typer.Option(help="Chance streams a luck setting")] = None,
    seed: Annotated[int | None, typer.Option(help="The study's seed")] = None,
    jobs: Jobs = 1,
    page_only: Annotated[bool, typer.Option(help="Only rewrite the page from the stored runs")] = False,
) -> None:
    """A checked-in answer, one command: the comparison, the luck share and the skill range of a study's variants
    on each of its boards, and a page with the findings first (English and Italian), the command, the bots, the
    games and the CPU time. Stages already stored under --out are reused (resume)."""
    from hegemon.lab import study as st

    try:
        base = st.get_study(name)
    except HegemonError as e:
        fail(str(e))
        return
    target = out_dir or Path("docs") / f"lab-{base.name}"
    if page_only:
        if not (target / "study.json").exists():
            fail(f"no stored study in {target}")
        out.print(f"page: {escape(str(st.rewrite_page(target)))}")
        return
    kw = {
        "games": games,
        "bots": bots,
        "luck_bots": luck_bots,
        "levels": levels,
        "ladder_games": ladder_games,
        "luck_settings": luck_settings,
        "luck_streams": luck_streams,
        "seed": seed,
    }
    chosen = st.with_overrides(base, **kw)
    try:
        st.run_study(
            chosen,
            target,
            jobs,
            on_stage=lambda s: err.print(escape(s)),
            command=st.command_line(chosen, target, jobs, **kw),
        )
    except HegemonError as e:
        fail(str(e))
        return
    out.print(f"page: {escape(str(target / 'README.md'))}")
