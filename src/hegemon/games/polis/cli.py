"""Polis's terminal command `hegemon odds polis-siege` (registered by `hegemon.cli` through
`hegemon.games.game_cli_modules`). Nothing of the engine is imported until the command runs: `hegemon` starts fast."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from hegemon.console import err, fail, out
from hegemon.core.errors import HegemonError


def odds_polis(
    fortification: Annotated[int, typer.Option(help="The polis's fortification")],
    hoplites: Annotated[int, typer.Option(help="The besieger's hoplites in the territory")],
    siege: Annotated[
        str, typer.Option(help="classic | sacrifice | diceless | diceless_sacrifice")
    ] = "classic",
    prestige: Annotated[
        int | None,
        typer.Option(
            help="The besieger's PP before the siege action (default: enough never to stop the siege)"
        ),
    ] = None,
    neutral: Annotated[bool, typer.Option(help="The polis is neutral (else the opponent's)")] = True,
    population: Annotated[int | None, typer.Option(help="The polis's population (opponent's polis)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object")] = False,
) -> None:
    """Exact siege odds and costs for Polis under each siege rule."""
    from hegemon.games.polis.odds import siege_odds

    try:
        data = siege_odds(fortification, hoplites, siege, prestige, neutral=neutral, population=population)
    except HegemonError as e:
        fail(str(e))
        return
    if as_json:
        print(json.dumps(data))
        return
    shown_pp = f"{data['prestige']} PP (assumed)" if data.get("prestige_assumed") else f"{prestige} PP"
    if data.get("prestige_assumed"):
        err.print(
            f"[yellow]note:[/yellow] no --prestige given: assuming {data['prestige']} PP, enough that prestige never "
            "stops the siege; pass --prestige N for the besieger's real prestige"
        )
    table = Table(
        title=f"Polis siege · {siege} · fortification {fortification}, {hoplites} hoplites, {shown_pp}"
    )
    table.add_column("measure", style="bold cyan")
    table.add_column("value")
    subtables: list[tuple[str, list[dict[str, Any]]]] = []
    for key, value in data.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            subtables.append((key, value))
            continue
        if isinstance(value, dict) and "decimal" in value:
            shown = f"{value['decimal']:.4g} ({value['fraction']})"
        elif isinstance(value, (list, dict)):
            shown = json.dumps(value)
        else:
            shown = str(value)
        table.add_row(key.replace("_", " "), escape(shown))
    out.print(table)
    for key, rows in subtables:
        sub = Table(title=key.replace("_", " "))
        cols = list(rows[0])
        for c in cols:
            sub.add_column(c.replace("_", " "))
        for r in rows:
            sub.add_row(*(escape(str(r.get(c, ""))) for c in cols))
        out.print(sub)


def register_odds(odds_app: typer.Typer) -> None:
    """Add `hegemon odds polis-siege` to the `odds` command group."""
    odds_app.command("polis-siege")(odds_polis)
