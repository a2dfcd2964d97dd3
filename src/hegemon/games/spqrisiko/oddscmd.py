"""What `hegemon odds spqrisiko A D` computes and prints, without typer: the typer command (`cli.py`) and the
fast path of `hegemon` (`hegemon.__main__`, which answers a plain odds query before typer loads) share it, so
both print the same. rich is imported only to print a table; `--json` needs neither."""

from __future__ import annotations

import json
from typing import Any

from hegemon.core.errors import HegemonError


class OddsInputError(ValueError):
    """A query the command refuses (the message is shown to the user as is)."""


def compute(
    attacker: int,
    defender: int,
    rules: str,
    sea: bool,
    naval: bool,
    declared: int | None,
    stop_at: int,
    frontier: bool,
    garrison: str | None,
    below_defender: bool,
) -> tuple[dict[str, Any], list[str]]:
    """(the odds as JSON data, notes) of one land attack, declared sea attack or naval combat. Raises
    `OddsInputError` for a bad query and `HegemonError` for bad options or counts."""
    from hegemon.core.options import (
        parse_options,  # the options alone (not the engine): the query starts fast
    )
    from hegemon.games.spqrisiko import odds as O
    from hegemon.games.spqrisiko.options import SpqrOptions
    from hegemon.games.spqrisiko.rules.common import frontier_garrison

    raw_opts: dict[str, Any] = {"rules": rules}
    if garrison is not None:
        raw_opts["garrison"] = garrison
    opts = parse_options(SpqrOptions, raw_opts)
    notes: list[str] = []
    if naval:
        res = O.naval_combat(attacker, defender)
    elif sea:
        keep = frontier_garrison(frontier)  # the engine's own rule for what a declared sea attack leaves
        force = declared if declared is not None else attacker - keep
        if force < 1 or force > attacker - keep:
            raise OddsInputError(
                f"--declared must be from 1 to {attacker - keep} (the province keeps {keep}) [R 12.3], [R 14.3]"
            )
        res = O.sea_attack(force, defender, continue_below_defender=below_defender)
        if stop_at != 1:
            notes.append("sea attacks are fought to the end [R 12.3]: --stop-at does not apply")
    else:
        keep, floor = O.land_rule(opts.garrison, frontier)
        res = O.land_battle(attacker, defender, stop_at=max(stop_at, floor), keep=keep)
    data = res.to_json()
    data["rules"] = rules
    data["notes"] = notes
    return data, notes


def show(data: dict[str, Any], notes: list[str], sea: bool, naval: bool, as_json: bool) -> None:
    """Print the odds: one JSON object, or a headline, the table of final outcomes and the summary."""
    if as_json:
        print(json.dumps(data))
        return
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    out = Console(soft_wrap=True)
    kind = "naval combat" if naval else ("sea attack" if sea else "land attack")
    out.print(f"[bold]{kind}[/bold] · {escape(data.get('counts', ''))}")
    table = Table(title="final outcomes")
    table.add_column("attacker left", justify="right")
    table.add_column("defender left", justify="right")
    table.add_column("probability", justify="right")
    table.add_column("exact", justify="right")
    for row in data["outcomes"]:
        table.add_row(
            str(row["attacker_left"]), str(row["defender_left"]), f"{row['probability']:.4%}", row["fraction"]
        )
    out.print(table)
    out.print(
        f"attacker wins: [bold]{data['p_win']['decimal']:.4%}[/bold] ({data['p_win']['fraction']})  ·  "
        f"expected losses: attacker {data['expected_attacker_losses']['decimal']:.3f}, "
        f"defender {data['expected_defender_losses']['decimal']:.3f}"
    )
    for n_ in notes:
        out.print(f"[yellow]note:[/yellow] {escape(n_)}")


# the options the fast path understands: flags, and options taking a value (with the value's parser)
_FLAGS = {"--sea": "sea", "--naval": "naval", "--frontier": "frontier", "--json": "as_json",
          "--below-defender": "below_defender"}  # fmt: skip
_VALUES = {"--rules": "rules", "--garrison": "garrison", "--declared": "declared", "--stop-at": "stop_at"}


def fast(args: list[str]) -> bool:
    """Answer `hegemon odds spqrisiko <args>` if it is a plain query (two counts and the options above, each
    once); False for anything else — help, a table, an unknown option, a bad value or a refused query — which
    the typer command then handles (and reports) as always."""
    kw: dict[str, Any] = {"rules": "house-1.2", "sea": False, "naval": False, "declared": None, "stop_at": 1,
                          "frontier": False, "garrison": None, "below_defender": True, "as_json": False}  # fmt: skip
    counts: list[int] = []
    seen: set[str] = set()
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a.isdigit() and a.isascii():
            counts.append(int(a))
            continue
        name, eq, value = a.partition("=")
        if name in seen:
            return False
        seen.add(name)
        if name in _FLAGS and not eq:
            kw[_FLAGS[name]] = True
        elif name == "--no-below-defender" and not eq:
            kw["below_defender"] = False
        elif name in _VALUES:
            if not eq:
                if i >= len(args):
                    return False
                value = args[i]
                i += 1
            key = _VALUES[name]
            if key in ("declared", "stop_at"):
                if not (value.isdigit() and value.isascii()):
                    return False
                kw[key] = int(value)
            else:
                kw[key] = value
        else:
            return False
    if len(counts) != 2 or ("--below-defender" in seen and "--no-below-defender" in seen):
        return False
    as_json = kw.pop("as_json")
    try:
        data, notes = compute(counts[0], counts[1], **kw)
    except (HegemonError, OddsInputError):
        return False
    show(data, notes, kw["sea"], kw["naval"], as_json)
    return True
