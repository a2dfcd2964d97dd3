"""The one entry point: `hegemon serve | backup | restore | play | selfplay | replay | odds | rules`."""

from __future__ import annotations

import contextlib
import importlib
import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.cells import cell_len
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from hegemon.console import err, fail, out
from hegemon.core.actions import Action
from hegemon.core.errors import HegemonError
from hegemon.core.game import CHANCE, TERMINAL, Game, State
from hegemon.core.play import derive_seed, play, sample_chance
from hegemon.core.record import GameRecord, read_records, run_game, state_digest, verify
from hegemon.core.roles import TextRole
from hegemon.games import game_cli_modules, game_names, get_game
from hegemon.lab.cli import lab_app

if TYPE_CHECKING:  # imported where used: `hegemon --help` and the odds start fast
    from fractions import Fraction

    from rich.progress import Progress

app = typer.Typer(
    help="hegemon — play and study Polis: Fight for the Hegemony and S.P.Q.RisiKo!",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
odds_app = typer.Typer(help="Exact odds of battles and sieges.", no_args_is_help=True)
app.add_typer(odds_app, name="odds")
app.add_typer(lab_app, name="lab")


def make_bot(spec: str, seed: int) -> Any:
    """A bot from its spec (`hegemon.ai`, imported on first use: the commands that need no bot start fast)."""
    from hegemon.ai import make_bot as make

    return make(spec, seed)


def parse_kv(pairs: list[str]) -> dict[str, str]:
    result: dict[str, str] = {}
    for item in pairs:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            fail(f"--option expects key=value, got {item!r}")
        result[key.strip().replace("-", "_")] = value.strip()
    return result


def game_options(game: Game, players: int | None, options: list[str], **named: Any) -> Any:
    raw: dict[str, Any] = parse_kv(options)
    for k, v in named.items():
        if v is not None:
            raw[k] = v
    if players is not None:
        raw["players"] = players
    return game.parse_options(raw)


def text_module(game: Game) -> TextRole:
    """The game's terminal rendering (`render`, `render_map` and `action_odds`)."""
    return game.roles.text()


def named_options(game: Game, **named: Any) -> dict[str, Any]:
    """The named CLI options (`--rules`, `--siege`, `--board`…) that `game` has; the others do not apply to it."""
    fields = {o["name"] for o in game.describe_options()}
    return {k: v for k, v in named.items() if k in fields}


def seat_label(game: Game, seat: int) -> str:
    """A seat as the terminal names it: its side where seats are sides (Polis: Athens, Sparta), else P1, P2…"""
    sides = game.side_names
    return sides[seat][0] if 0 <= seat < len(sides) else f"P{seat + 1}"


def frac(p: Fraction) -> dict[str, Any]:
    return {"decimal": float(p), "fraction": f"{p.numerator}/{p.denominator}"}


# --------------------------------------------------------------------------- rules


@app.command()
def rules(
    game: Annotated[str, typer.Argument(help=f"The game: {', '.join(game_names())}")],
    reconstructed: Annotated[bool, typer.Option(help="Polis: list every reconstructed board value")] = False,
    board: Annotated[
        str | None, typer.Option(help="Polis: a corrected board file, or `balanced`, to check and list")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object")] = False,
) -> None:
    """The rule sets, their options and the defaults."""
    try:
        g = get_game(game)
        if board is not None:
            g.parse_options({"board": board})  # loads and validates the file (ConfigError names the entry)
        if reconstructed:
            boards = g.roles.boards()
            if boards is None or boards.reconstructed_values is None:
                fail(f"{g.name} has no reconstructed values: its board is sourced")
            rebuilt = boards.reconstructed_values(boards.load_board(board))
            if as_json:
                print(json.dumps({"game": g.name, "reconstructed": rebuilt}))
                return
            table = Table(title=f"{g.name}: reconstructed values (correct them with --board PATH)")
            keys = list(rebuilt[0].keys()) if rebuilt else []
            for k in keys:
                table.add_column(k)
            for v in rebuilt:
                table.add_row(*(escape(str(v.get(k, ""))) for k in keys))
            out.print(table)
            return
        described: list[dict[str, Any]] = g.describe_options()
        presets = g.options_type.PRESETS
    except HegemonError as e:
        fail(str(e))
        return
    shipped = list(g.shipped_boards())
    if as_json:
        shown: dict[str, Any] = {
            "game": g.name,
            "options": described,
            "rule_sets": presets,
            "boards": shipped,
        }
        if board is not None:
            shown["board"] = {"path": board, "valid": True}
        print(json.dumps(shown, default=str))
        return
    table = Table(title=f"{g.title} — options (set with --option name=value)")
    table.add_column("option", style="bold cyan")
    table.add_column("default")
    table.add_column("values")
    table.add_column("what it does")
    for d in described:
        values = " | ".join(map(str, d["choices"])) if d["choices"] else d["type"]
        if d["min"] is not None or d["max"] is not None:
            values += f" {d['min']}..{d['max']}"
        if d["nullable"]:
            values += " | none"
        table.add_row(d["name"], escape(str(d["default"])), escape(values), escape(d["help"]))
    out.print(table)
    if presets:
        pt = Table(title="rule sets (the `rules` option sets these switches)")
        names = list(presets)
        keys = sorted({k for p in presets.values() for k in p})
        pt.add_column("switch", style="bold cyan")
        for n in names:
            pt.add_column(n)
        for k in keys:
            pt.add_row(k, *(str(presets[n].get(k, "")) for n in names))
        out.print(pt)
    if len(shipped) > 1:
        out.print("boards that come with the game (--board NAME): " + ", ".join(shipped))
    if board is not None:
        out.print(f"board {escape(board)}: loaded and valid")


# --------------------------------------------------------------------------- play


def group_actions(actions: list[Action]) -> list[tuple[str, list[tuple[int, Action]]]]:
    groups: dict[str, list[tuple[int, Action]]] = {}
    for i, a in enumerate(actions, 1):
        groups.setdefault(a.kind, []).append((i, a))
    return list(groups.items())


_ODDS_NOTE = re.compile(r"\s*\[win [^\]]*\]$")
"""The odds a menu shows after an attack (`[win 61.2%]`): typed with the action, it is ignored."""
_REPEAT = re.compile(r"(.*\S)\s+x(\d+)$")
AMBIGUOUS_SHOWN = 12
"""Actions an ambiguous text lists by number (the rest are counted)."""


def typed(text: str) -> str:
    """A text as matched against the menu: case, leading and trailing spaces and runs of spaces ignored (a
    Polis move step is shown indented, `  2 from attika`, and typed `2 from attika`)."""
    return " ".join(text.split()).casefold()


def parse_choice(text: str, actions: list[Action], game: Game) -> tuple[Action, int]:
    """A number (optionally `N xK` to repeat K times), an action's text as the menu shows it or the start of
    it (spaces and case do not matter; the menu's `[win …]` note may be typed or left out), or its JSON."""
    text = " ".join(text.split())
    if text.startswith("{"):
        m = _REPEAT.fullmatch(text)
        body, repeat = (m[1], max(1, int(m[2]))) if m and m[1].endswith("}") else (text, 1)
        try:
            obj = json.loads(body)
        except json.JSONDecodeError:
            raise HegemonError("that is not valid JSON") from None
        return game.decode_action(obj), repeat
    numbered = list(enumerate(actions, 1))
    key = typed(_ODDS_NOTE.sub("", text))
    exact = [(i, a) for i, a in numbered if typed(str(a)) == key]
    repeat = 1
    m = _REPEAT.fullmatch(text)
    if not exact and m:  # `N xK` or `<text> xK` (an action whose own text ends so is matched whole first)
        text, repeat = m[1], max(1, int(m[2]))
        key = typed(_ODDS_NOTE.sub("", text))
        exact = [(i, a) for i, a in numbered if typed(str(a)) == key]
    if text.isdigit():
        k = int(text)
        if 1 <= k <= len(actions):
            return actions[k - 1], repeat
        raise HegemonError(f"choose a number from 1 to {len(actions)}")
    if not key:
        raise HegemonError("type an action's number or its text")
    matches = exact or [(i, a) for i, a in numbered if typed(str(a)).startswith(key)]
    if len(matches) == 1:
        return matches[0][1], repeat
    if matches:
        shown = ", ".join(str(i) for i, _ in matches[:AMBIGUOUS_SHOWN])
        more = f" and {len(matches) - AMBIGUOUS_SHOWN} more" if len(matches) > AMBIGUOUS_SHOWN else ""
        how = "read" if exact else "start with"
        raise HegemonError(
            f"{len(matches)} actions {how} {text!r} (numbers {shown}{more}): type more, or its number"
        )
    raise HegemonError(f"no legal action matches {text!r}; type its number")


@app.command("play")
def play_cmd(
    game: Annotated[str, typer.Argument(help=f"The game: {', '.join(game_names())}")],
    seats: Annotated[str, typer.Option(help="Comma-separated seats: human or a bot (random…)")] = "",
    players: Annotated[int | None, typer.Option(help="Number of players (S.P.Q.RisiKo!: 3-5)")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the dice, draws and bots")] = 0,
    rules_: Annotated[str | None, typer.Option("--rules", help="S.P.Q.RisiKo! rule set")] = None,
    siege: Annotated[str | None, typer.Option(help="Polis siege rule")] = None,
    board: Annotated[
        str | None,
        typer.Option(help="A corrected board data file, or a shipped board's name (Polis: `balanced`)"),
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Any option as name=value")
    ] = None,
    record: Annotated[
        Path | None, typer.Option(help="Append the finished game's record to this JSONL file")
    ] = None,
) -> None:
    """Play in the terminal: humans and bots at one table. Type an action's number (`N x3` repeats it),
    its text, `board` for the full board, `help`, or `quit`."""
    try:
        g = get_game(game)
        named = named_options(g, board=board, rules=rules_, siege=siege)
        opts = game_options(g, players, option or [], **named)
        n = g.players(opts)
        written = (
            [s.strip() for s in seats.split(",") if s.strip()] if seats else ["human"] + ["random"] * (n - 1)
        )
        seat_list = [
            "human" if s.lower() == "human" else s for s in written
        ]  # a bot's spec keeps its case (a URL)
        if len(seat_list) != n:
            fail(f"--seats names {len(seat_list)} seats but the game has {n} players")
        bots = {i: make_bot(s, derive_seed(seed, "bot", i)) for i, s in enumerate(seat_list) if s != "human"}
    except HegemonError as e:
        fail(str(e))
        return
    txt = text_module(g)
    state = g.new_game(opts, seed)
    import random

    rng = random.Random(derive_seed("chance", seed))
    history: list[dict[str, Any]] = []
    log: list[str] = []
    humans = [i for i, s in enumerate(seat_list) if s == "human"]
    viewer = humans[0] if len(humans) == 1 else None
    seats_seen: dict[int, list[str]] = {}  # each human's last board, to print only what changed
    pending: dict[int, tuple[Action, int]] = {}  # a human's `N xK` repeat still to play
    with line_editing():
        while state.current_player() != TERMINAL:
            p = state.current_player()
            if p != CHANCE:
                for other in [k for k in pending if k != p]:
                    del pending[other]  # another player decides: a repeat never outlives its player's run
            if p == CHANCE:
                action = sample_chance(state, rng)
                log.append(str(action.visible_to(viewer)))
            elif p in bots:
                try:
                    action = bots[p].choose(state, p)
                except HegemonError as e:  # an external bot that cannot be reached: one line, not a traceback
                    fail(f"{seat_label(g, p)}: {e}", code=1)
                log.append(f"{seat_label(g, p)}: {action}")
            else:
                chosen = human_turn(g, state, p, txt, log, seats_seen, pending)
                if chosen is None:
                    out.print("[yellow]game abandoned[/yellow]")
                    raise typer.Exit(1)
                action = chosen
                log.append(f"{seat_label(g, p)}: {action}")
            state.apply(action)
            history.append(action.to_json())
    for line in log[-30:]:
        out.print(f"  [dim]{escape(line)}[/dim]")
    out.print(txt.render(state, viewer))
    if record is not None:
        final = state.outcome()
        rec = GameRecord(
            g.name,
            g.version,
            opts.to_json(),
            seed,
            history,
            seat_list,
            outcome=final.to_json() if final else None,
            digest=state_digest(state),
        )
        with record.open("a", encoding="utf-8") as fh:
            fh.write(rec.to_line() + "\n")


HISTORY_LINES = 1000
"""Lines of the prompt's history kept between games (`history_file()`)."""


def history_file() -> Path:
    """Where the prompt's history is kept: `play-history` in the user's data directory (the web table's SQLite
    file is there too)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("hegemon")) / "play-history"


@contextlib.contextmanager
def line_editing() -> Iterator[None]:
    """At an interactive prompt: line editing (arrows, Home/End, Ctrl-R…) through readline, and the history of
    the last HISTORY_LINES lines typed, read from `history_file()` and written back when the game ends. Nothing
    when stdin is not a terminal (a script, a pipe) or Python has no readline."""
    if not sys.stdin.isatty():
        yield
        return
    try:
        import readline
    except ImportError:  # a Python built without it
        yield
        return
    path = history_file()
    readline.set_history_length(HISTORY_LINES)
    with contextlib.suppress(OSError):
        readline.read_history_file(path)
    try:
        yield
    finally:
        with contextlib.suppress(OSError):  # a read-only home: the game was still played
            path.parent.mkdir(parents=True, exist_ok=True)
            readline.write_history_file(path)


def menu_lines(kind: str, items: list[tuple[int, str]], width: int) -> list[Text]:
    """One action kind's menu as lines of at most `width` cells, broken only between items (or, for an item
    longer than a line, between its words): a terminal never wraps a menu mid-word."""
    width = max(width, 20)
    lines: list[Text] = []
    cur = Text.assemble((kind, "bold"), ":")
    for i, label in items:
        item = Text.assemble((str(i), "cyan"), " ", label)
        if cur.cell_len + 3 + item.cell_len <= width:
            cur.append("   ")
            cur.append_text(item)
            continue
        lines.append(cur)
        cur = Text("  ")
        words = [(str(i), "cyan"), *((w, "") for w in label.split(" "))]
        for k, (w, style) in enumerate(words):  # a long item: break between its words
            if k and cur.cell_len + 1 + cell_len(w) > width:
                lines.append(cur)
                cur = Text("    ")
            elif k:
                cur.append(" ")
            cur.append(w, style=style or None)
    lines.append(cur)
    return lines


def board_changes(before: list[str] | None, now: list[str]) -> list[str]:
    """The lines of the board that changed since `before` (all of it the first time; the title line always),
    each under the heading line (one ending with ':') it belongs to."""
    if before is None:
        return now
    old = set(before)
    shown = now[:1]
    heading = None
    for line in now[1:]:
        if line.rstrip().endswith(":"):
            heading = line
        if line not in old:
            if heading is not None and heading != line and heading not in shown:
                shown.append(heading)
            shown.append(line)
    return shown


def human_turn(
    g: Game,
    state: State,
    p: int,
    txt: Any,
    log: list[str],
    seen: dict[int, list[str]] | None = None,
    pending: dict[int, tuple[Action, int]] | None = None,
) -> Action | None:
    """One decision of the human in seat `p`: what happened since, what changed on the board, the menu."""
    seen = {} if seen is None else seen
    pending = {} if pending is None else pending
    for line in log[-15:]:
        out.print(f"  [dim]{escape(line)}[/dim]")
    log.clear()
    out.rule(f"{seat_label(g, p)} — {state.phase_name()}")
    board = txt.render(state, p).splitlines()
    changed = board_changes(seen.get(p), board)
    seen[p] = board
    out.print("\n".join(changed))
    if len(changed) < len(board):
        out.print("[dim](only what changed; `status` shows the whole position)[/dim]")
    actions = state.legal_actions()
    if p in pending:
        action, left = pending.pop(p)
        if action in actions:
            if left > 1:
                pending[p] = (action, left - 1)
            out.print(
                f"[cyan]repeat:[/cyan] {escape(str(action))}" + (f" ({left - 1} more)" if left > 1 else "")
            )
            show_odds(txt, state, action)
            return action
        if any(a.kind == action.kind for a in actions):  # its kind is offered, it is not: it cannot come back
            out.print(f"[dim]repeat ended: {escape(str(action))} is no longer possible[/dim]")
        else:  # another step comes first (e.g. the dice of the attack): wait for it
            pending[p] = (action, left)
            out.print(f"[dim]repeat waiting: {escape(str(action))} ({left} more; `cancel` stops it)[/dim]")
    show_menu = True
    while True:
        for kind, items in group_actions(actions) if show_menu else []:
            labels = []
            for i, a in items:
                label = str(a)
                said = txt.action_odds(state, a)  # the game's text module knows which actions have odds
                if said and " win " in said:
                    label += f" [win {said.split(' win ')[1].split(' ')[0]}]"
                labels.append((i, label))
            for row in menu_lines(kind, labels, out.width):
                out.print(row)
        show_menu = True
        try:
            text = input(f"{seat_label(g, p)}> ")
        except EOFError:
            return None
        cmd = text.strip().lower()
        if cmd in ("q", "quit", "exit"):
            return None
        if cmd in ("", "help", "?"):
            out.print("\n".join(HELP), markup=False)
            show_menu = False
            continue
        if cmd == "board":
            out.print(txt.render_map(state))
            continue
        if cmd == "status":
            out.print("\n".join(board))
            continue
        if cmd == "cancel":
            pending.pop(p, None)
            out.print("no repeat waiting now")
            continue
        try:
            action, repeat = parse_choice(text, actions, g)
            trial = state.clone()
            play(trial, action)
        except HegemonError as e:
            out.print(f"[red]{escape(str(e))}[/red]")
            continue
        if repeat > 1:
            pending[p] = (action, repeat - 1)
        show_odds(txt, state, action)
        return action


HELP = (
    "  N          play action number N (an attack shows its odds in the menu and before it is made)",
    "  N xK       play it K times (also `<text> xK`, e.g. `attack italia -> cisalpina x2`)",
    "  text       an action by its text or the start of it; or its JSON",
    "  board      every territory with its units and neighbours",
    "  status     the whole position (after an action only what changed is shown)",
    "  cancel     cancel a repeat still waiting",
    "  quit       leave the game",
)


def show_odds(txt: Any, state: State, action: Action) -> None:
    """An attack's exact odds, printed before it is made (the game's text module knows its odds)."""
    line = txt.action_odds(state, action)
    if line:
        out.print(f"[yellow]odds:[/yellow] {escape(line)}")


# --------------------------------------------------------------------------- selfplay


def progress() -> Progress:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeRemainingColumn(),
        console=err,
        transient=True,
    )


@app.command()
def selfplay(
    game: Annotated[str, typer.Argument(help=f"The game: {', '.join(game_names())}")],
    games: Annotated[int, typer.Option(help="How many games")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses seed+i")] = 0,
    bots: Annotated[
        str, typer.Option(help="Comma-separated bots, one per seat (one name = every seat)")
    ] = "random",
    players: Annotated[int | None, typer.Option(help="Number of players (S.P.Q.RisiKo!: 3-5)")] = None,
    rules_: Annotated[str | None, typer.Option("--rules", help="S.P.Q.RisiKo! rule set")] = None,
    siege: Annotated[str | None, typer.Option(help="Polis siege rule")] = None,
    board: Annotated[
        str | None,
        typer.Option(help="A corrected board data file, or a shipped board's name (Polis: `balanced`)"),
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Any option as name=value")
    ] = None,
    jsonl: Annotated[
        Path | None, typer.Option(help="Write every game's record to this JSON-lines file")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON summary object")] = False,
) -> None:
    """Bots play N seeded games; a summary table, and optional JSONL records that replay exactly."""
    try:
        g = get_game(game)
        named = named_options(g, board=board, rules=rules_, siege=siege)
        raw_opts = parse_kv(option or [])
        for key, value in g.selfplay_defaults.items():
            raw_opts.setdefault(key, value if isinstance(value, str) else json.dumps(value))
        opts = game_options(g, players, [f"{k}={v}" for k, v in raw_opts.items()], **named)
        n = g.players(opts)
        specs = [s.strip() for s in bots.split(",") if s.strip()]
        if len(specs) == 1:
            specs = specs * n
        if len(specs) != n:
            fail(f"--bots names {len(specs)} bots but the game has {n} players")
        for s in specs:
            make_bot(s, 0)
        if games < 1:
            fail("--games must be at least 1")
    except HegemonError as e:
        fail(str(e))
        return
    fh = jsonl.open("w", encoding="utf-8") if jsonl else None
    wins = [0.0] * n
    lengths: list[int] = []
    rounds: list[int] = []
    decisions: list[int] = []
    actions_count: list[int] = []
    terminations: dict[str, int] = {}
    capped = 0
    chosen = [0]

    def count(st: Any, action: Any) -> None:
        """Decisions: the actions a player chose (chance draws are not decisions)."""
        if st.current_player() >= 0:
            chosen[0] += 1

    import statistics
    import time

    t0 = time.perf_counter()
    failure: str | None = None
    with progress() as prog:
        task = prog.add_task(f"{g.name} self-play", total=games, rate="")
        for i in range(games):
            gseed = seed + i
            agents = [make_bot(s, derive_seed(gseed, "bot", k)) for k, s in enumerate(specs)]
            chosen[0] = 0
            try:
                state, rec = run_game(
                    g, opts, gseed, [a.choose for a in agents], seats=specs, on_action=count
                )
            except HegemonError as e:  # an external bot that cannot be reached: one line, not a traceback
                failure = f"game {i + 1} (seed {gseed}): {e}"
                break
            rec.meta = {"index": i + 1}
            if fh:
                fh.write(rec.to_line() + "\n")
            res = state.outcome()
            played_rounds, played_turns = g.game_length(state)
            rounds.append(played_rounds)
            if played_turns is not None:
                lengths.append(played_turns)
            decisions.append(chosen[0])
            actions_count.append(len(rec.actions))
            if res is None:
                capped += 1
                terminations["action_limit"] = terminations.get("action_limit", 0) + 1
            else:
                terminations[res.termination.value] = terminations.get(res.termination.value, 0) + 1
                # a cap cut the game short: the round limit (S.P.Q.RisiKo!'s max_rounds); the end of Polis's
                # last round is the game's normal end, not a cap
                if res.termination.value in ("round_limit", "action_limit"):
                    capped += 1
                for w in res.winners:
                    wins[w] += 1 / len(res.winners)
            dt = time.perf_counter() - t0
            prog.update(task, advance=1, rate=f"{(i + 1) / dt:.1f} games/s")
    if fh:
        fh.close()
    if failure is not None:
        kept = f"; the {len(rounds)} games before it are in {jsonl}" if jsonl and rounds else ""
        fail(failure + kept, code=1)
    elapsed = time.perf_counter() - t0
    summary = {
        "game": g.name,
        "games": games,
        "seed": seed,
        "bots": specs,
        "options": opts.to_json(),
        "wins_per_seat": wins,
        "win_rate_per_seat": [w / games for w in wins],
        "mean_rounds": statistics.fmean(rounds),
        "median_rounds": statistics.median(rounds),
        "mean_decisions": statistics.fmean(decisions),
        "mean_turns": statistics.fmean(lengths) if lengths else None,
        "median_turns": statistics.median(lengths) if lengths else None,
        "mean_actions": statistics.fmean(actions_count),
        "capped_games": capped,
        "terminations": terminations,
        "seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed, 2),
        "jsonl": str(jsonl) if jsonl else None,
    }
    if as_json:
        print(json.dumps(summary))
        return
    table = Table(title=f"{g.name}: {games} games, seeds {seed}..{seed + games - 1}")
    table.add_column("seat")
    table.add_column("bot")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    for k in range(n):
        table.add_row(seat_label(g, k), specs[k], f"{wins[k]:g}", f"{wins[k] / games:.1%}")
    out.print(table)
    turns = (
        f"turns: mean {summary['mean_turns']:.1f}, median {summary['median_turns']:g}  ·  "
        if summary["mean_turns"] is not None
        else ""
    )
    out.print(
        f"rounds: mean {summary['mean_rounds']:.1f}, median {summary['median_rounds']:g}  ·  {turns}"
        f"decisions: mean {summary['mean_decisions']:.0f}  ·  atomic actions: mean {summary['mean_actions']:.0f}"
        f"  ·  games cut short by a cap: {capped}  ·  {summary['games_per_second']} games/s"
    )
    out.print("endings: " + ", ".join(f"{k} {v}" for k, v in sorted(terminations.items())))


# --------------------------------------------------------------------------- replay


@app.command("replay")
def replay_cmd(
    path: Annotated[Path, typer.Argument(help="A JSON-lines file of game records")],
    game_no: Annotated[int | None, typer.Option("--game", help="Which record (1 = the first line)")] = None,
    verify_all: Annotated[
        bool, typer.Option("--verify", help="Re-run every record; exit 1 on any mismatch")
    ] = False,
    seat: Annotated[int | None, typer.Option(help="Show the game as this seat (1-based) saw it")] = None,
    step: Annotated[
        bool | None, typer.Option(help="Wait for Enter after each turn (default: when a terminal)")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object")] = False,
) -> None:
    """Step through a recorded game turn by turn, or verify that every record replays exactly."""
    try:
        records = list(read_records(path))
    except HegemonError as e:
        fail(str(e))
        return
    if not records:
        fail(f"{path} holds no records")
    if verify_all:
        bad: list[dict[str, Any]] = []
        with progress() as prog:
            task = prog.add_task("verifying", total=len(records), rate="")
            for i, rec in enumerate(records, 1):
                try:
                    problems = verify(get_game(rec.game), rec)
                except HegemonError as e:
                    problems = [str(e)]
                if problems:
                    bad.append({"game": i, "problems": problems})
                prog.update(task, advance=1)
        if as_json:
            print(json.dumps({"records": len(records), "mismatches": bad, "ok": not bad}))
        else:
            for b_ in bad:
                err.print(
                    f"[red]game {b_['game']}[/red]: " + "; ".join(escape(str(x)) for x in b_["problems"])
                )
            out.print(f"{len(records) - len(bad)}/{len(records)} records verify")
        raise typer.Exit(1 if bad else 0)
    k = game_no or 1
    if not 1 <= k <= len(records):
        fail(f"--game must be from 1 to {len(records)}")
    rec = records[k - 1]
    try:
        g = get_game(rec.game)
        state = g.new_game(g.parse_options(rec.options), rec.seed)
        actions = [g.decode_action(a) for a in rec.actions]
    except HegemonError as e:
        fail(str(e))
        return
    viewer = seat - 1 if seat else None
    txt = text_module(g)
    interactive = sys.stdin.isatty() if step is None else step
    turn_lines: list[str] = []
    last_turn = g.turn_count(state)
    out.print(
        f"[bold]game {k}[/bold] · {rec.game} · seed {rec.seed} · seats {', '.join(rec.seats)} · {len(actions)} actions"
    )
    for i, a in enumerate(actions):
        try:
            who = state.current_player()
            play(state, a)
        except HegemonError as e:
            fail(f"action {i}: {e}", code=1)
            return
        turn_lines.append(
            ("chance: " if who == CHANCE else f"{seat_label(g, who)}: ") + str(a.visible_to(viewer))
        )
        now = g.turn_count(state)
        if now != last_turn or state.current_player() == TERMINAL:
            last_turn = now
            if not as_json:
                out.rule(f"after {i + 1} actions")
                for line in turn_lines:
                    out.print(f"  [dim]{escape(line)}[/dim]")
                out.print(txt.render(state, viewer))
                if interactive:
                    try:
                        if input("[Enter] next turn, q quits > ").strip().lower() == "q":
                            return
                    except EOFError:
                        interactive = False
            turn_lines = []
    res = state.outcome()
    if as_json:
        print(json.dumps({"game": k, "actions": len(actions), "outcome": res.to_json() if res else None}))


# --------------------------------------------------------------------------- odds


for _module in game_cli_modules():  # each game's own `hegemon odds …` command
    _module.register_odds(odds_app)


# --------------------------------------------------------------------------- serve


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port")] = 8000,
    db: Annotated[
        str | None, typer.Option(help="Database URL (default: SQLite in the user data directory)")
    ] = None,
    bot_delay: Annotated[float, typer.Option(help="Seconds between bot moves (0 for scripts)")] = 0.8,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            help="Address or network of a reverse proxy whose X-Forwarded-For is believed (repeatable; "
            "default: $HEGEMON_TRUSTED_PROXIES, else none)"
        ),
    ] = None,
    search_workers: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=64,
            help="Searches (mcts bots) thinking at once over all tables (default: $HEGEMON_SEARCH_WORKERS, "
            "else CPUs - 1)",
        ),
    ] = None,
    search_budget: Annotated[
        float | None,
        typer.Option(
            min=0,
            help="Seconds one search bot decision may take at most (0: the bot's own; default: "
            "$HEGEMON_SEARCH_BUDGET, else 5)",
        ),
    ] = None,
    expire_finished: Annotated[
        float | None,
        typer.Option(
            min=0,
            help="Seconds after which a finished or stopped table is removed (0: never; default: "
            "$HEGEMON_EXPIRE_FINISHED, else 7 days)",
        ),
    ] = None,
    expire_idle: Annotated[
        float | None,
        typer.Option(
            min=0,
            help="Seconds without a move or anyone connected after which a table is removed (0: never; "
            "default: $HEGEMON_EXPIRE_IDLE, else 3 days)",
        ),
    ] = None,
    log_level: Annotated[
        str | None,
        typer.Option(
            help="debug, info (each request in the access log), warning or error (default: $HEGEMON_LOG_LEVEL, else "
            "info)"
        ),
    ] = None,
    log_format: Annotated[
        str | None,
        typer.Option(
            help="text, or json: one JSON object a line, for a log collector (default: $HEGEMON_LOG_FORMAT, else "
            "text)"
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="The server's address as players reach it (e.g. https://play.example.org): the seats' links start "
            "with it (default: $HEGEMON_PUBLIC_URL, else links relative to the page that shows them)"
        ),
    ] = None,
) -> None:
    """Run the web table: lobby, tables, bots, replays (limits and timeouts: docs/web-table.md)."""
    try:
        server = importlib.import_module("hegemon.server.app")
    except ModuleNotFoundError:
        fail("the web server is not part of this build yet: play in the terminal with `hegemon play`")
        return
    run: Callable[..., None] = server.run
    try:
        run(host=host, port=port, db=db, bot_delay=bot_delay, trusted_proxies=trusted_proxy or None,
            search_workers=search_workers, search_budget=search_budget, expire_finished=expire_finished,
            expire_idle=expire_idle, log_level=log_level, log_format=log_format,
            public_url=public_url)  # fmt: skip
    except (
        ValueError,
        importlib.import_module("hegemon.server.storage").DatabaseUnavailable,
    ) as e:  # a bad option, a busy port, no database
        fail(str(e))


@app.command()
def backup(
    dest: Annotated[Path, typer.Argument(help="The backup file to write (e.g. hegemon-$(date +%F).db)")],
    db: Annotated[
        str | None, typer.Option(help="Database URL (default: the SQLite file `hegemon serve` uses)")
    ] = None,
    force: Annotated[bool, typer.Option(help="Replace DEST if it exists")] = False,
) -> None:
    """Copy the SQLite database safely while the server runs (SQLite's online backup API), with the uploaded
    board files beside it in DEST.boards/. PostgreSQL: use pg_dump (docs/web-table.md)."""
    from hegemon.server.app import default_db_url
    from hegemon.server.backup import backup as copy

    try:
        c = copy(db or default_db_url(), dest, overwrite=force)
    except (ValueError, OSError) as e:
        fail(str(e))
    boards = f", {c.boards} board file(s) in {c.path.name}.boards/" if c.boards else ""
    out.print(f"backed up {c.tables} table(s), {c.actions} action(s) (schema {c.revision}, {c.size:,} bytes) "
              f"to {c.path}{boards}", markup=False, highlight=False)  # fmt: skip


@app.command()
def restore(
    source: Annotated[Path, typer.Argument(help="A file written by `hegemon backup`")],
    db: Annotated[
        str | None,
        typer.Option(help="Database URL to restore into (default: the SQLite file `hegemon serve` uses)"),
    ] = None,
    force: Annotated[
        bool, typer.Option(help="Replace the database if it exists (stop the server first)")
    ] = False,
) -> None:
    """Put a backup back: checks it, copies it into the database (and its board files into the board directory).
    Stop the server first, restore, start it again: the tables resume where the backup left them."""
    from hegemon.server.app import default_db_url
    from hegemon.server.backup import restore as put_back

    try:
        c = put_back(source, db or default_db_url(), overwrite=force)
    except (ValueError, OSError) as e:
        fail(str(e))
    boards = f" and {c.boards} board file(s)" if c.boards else ""
    out.print(f"restored {c.tables} table(s), {c.actions} action(s) (schema {c.revision}){boards} into {c.path}; "
              "start the server to resume them", markup=False, highlight=False)  # fmt: skip


def main() -> None:
    app()


if __name__ == "__main__":
    main()
