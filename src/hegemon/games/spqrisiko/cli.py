"""S.P.Q.RisiKo!'s terminal command `hegemon odds spqrisiko` (registered by `hegemon.cli` through
`hegemon.games.game_cli_modules`). Nothing of the engine is imported until the command runs: `hegemon` starts fast."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from hegemon.console import fail, out
from hegemon.core.errors import HegemonError


def odds_spqr(
    attacker: Annotated[
        int | None,
        typer.Argument(
            help="Land: legionaries ON the attacking province (one never rolls). "
            "Sea: legionaries on the source province. Naval: attacking triremes."
        ),
    ] = None,
    defender: Annotated[
        int | None, typer.Argument(help="Legionaries on the defending province (all defend); naval: triremes")
    ] = None,
    rules_: Annotated[str, typer.Option("--rules", help="house-1.2 or official")] = "house-1.2",
    sea: Annotated[bool, typer.Option(help="A declared sea attack, fought to the end [R 12.3]")] = False,
    naval: Annotated[bool, typer.Option(help="A naval combat between triremes [R 11]")] = False,
    declared: Annotated[
        int | None, typer.Option(help="Sea attack: legionaries declared (default: all that may go)")
    ] = None,
    stop_at: Annotated[
        int, typer.Option(help="Land: stop when the attacking province has this many left")
    ] = 1,
    frontier: Annotated[
        bool, typer.Option(help="The source borders another enemy province (2-legionary garrison)")
    ] = False,
    garrison: Annotated[
        str | None,
        typer.Option(help="move_in_first | garrison_stop | garrison_first (default: the rule set's)"),
    ] = None,
    below_defender: Annotated[
        bool, typer.Option(help="Sea attack keeps rolling with fewer dice than the defender (U7)")
    ] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object")] = False,
    table_size: Annotated[
        str | None,
        typer.Option(
            "--table",
            help="The whole win table AxD, e.g. 30x30: attackers 1..A (rows; sea: the "
            "declared force) against defenders 1..D (columns)",
        ),
    ] = None,
    as_csv: Annotated[bool, typer.Option("--csv", help="With --table: print CSV")] = False,
) -> None:
    """Exact odds of a land attack, a declared sea attack or a naval combat. Counts: for a land attack the
    attacker number is the legionaries ON the province (the last one never rolls; with the house garrison
    rule and --frontier the attack needs 3 and stops at 2, with --garrison garrison_first two never roll); for a
    sea attack the declared force rolls, fought to the end."""
    # the options alone (not the engine): an odds query starts fast
    from hegemon.core.options import parse_options
    from hegemon.games.spqrisiko import oddscmd
    from hegemon.games.spqrisiko.options import SpqrOptions

    try:
        raw_opts: dict[str, Any] = {"rules": rules_}
        if garrison is not None:
            raw_opts["garrison"] = garrison
        opts = parse_options(SpqrOptions, raw_opts)
        if table_size is not None:
            _odds_table(
                table_size, opts.garrison, sea, naval, stop_at, frontier, below_defender, as_json, as_csv
            )
            return
    except HegemonError as e:
        fail(str(e))
        return
    if attacker is None or defender is None:
        fail("give the attacker and the defender (or --table AxD)")
        return
    if as_csv:
        fail("--csv prints a --table")
    try:
        data, notes = oddscmd.compute(attacker, defender, rules_, sea, naval, declared, stop_at, frontier, garrison,
                                      below_defender)  # fmt: skip
    except (HegemonError, oddscmd.OddsInputError) as e:
        fail(str(e))
        return
    oddscmd.show(data, notes, sea, naval, as_json)


def _odds_table(
    size: str,
    garrison: str,
    sea: bool,
    naval: bool,
    stop_at: int,
    frontier: bool,
    below_defender: bool,
    as_json: bool,
    as_csv: bool,
) -> None:
    """`hegemon odds spqrisiko --table AxD`: every cell's exact win probability, in one backward sweep."""
    from hegemon.games.spqrisiko import odds as O

    rows_s, sep, cols_s = size.lower().partition("x")
    if not sep or not rows_s.strip().isdigit() or not cols_s.strip().isdigit():
        fail(f"--table expects AxD, e.g. 30x30, got {size!r}")
    rows, cols = int(rows_s), int(cols_s)
    inputs: dict[str, Any]
    kind: O.Kind
    if naval:
        kind = "naval"
        grid = O.win_table(rows, cols, kind="naval")
        inputs = {}
    elif sea:
        kind = "sea"
        grid = O.win_table(rows, cols, kind="sea", continue_below_defender=below_defender)
        inputs = {"continue_below_defender": below_defender}
    else:
        kind = "land"
        keep, floor = O.land_rule(garrison, frontier)
        inputs = {"stop_at": max(stop_at, floor), "keep": keep}
        grid = O.win_table(rows, cols, kind="land", **inputs)
    counts = O.describe_counts(kind, **inputs) if kind == "land" else O.describe_counts(kind)
    if as_csv:
        lines = ["attacker," + ",".join(f"defender {d}" for d in range(1, cols + 1))]
        lines += [f"{a}," + ",".join(repr(float(p)) for p in row) for a, row in enumerate(grid, 1)]
        sys.stdout.write("\n".join(lines) + "\n")
        return
    if as_json:
        print(
            json.dumps(
                {
                    "kind": kind,
                    "counts": counts,
                    "inputs": inputs,
                    "attackers": rows,
                    "defenders": cols,
                    "p_win": [[float(p) for p in row] for row in grid],
                    "fraction": [[f"{p.numerator}/{p.denominator}" for p in row] for row in grid],
                }
            )
        )
        return
    out.print(f"[bold]{kind} win probability[/bold] · {escape(counts)}")
    t = Table(title="rows: attacker, columns: defender")
    t.add_column("A\\D", justify="right", style="bold")
    for d in range(1, cols + 1):
        t.add_column(str(d), justify="right")
    for a, row in enumerate(grid, 1):
        t.add_row(str(a), *(f"{100 * float(p):.0f}" for p in row))
    out.print(t)
    out.print("[dim]percent, rounded; --json or --csv for the exact values[/dim]")


def register_odds(odds_app: typer.Typer) -> None:
    """Add `hegemon odds spqrisiko` to the `odds` command group."""
    odds_app.command("spqrisiko")(odds_spqr)
