"""The terminal's consoles and its one way to fail, shared by `hegemon.cli`, `hegemon.lab.cli` and the games'
own commands (`hegemon odds polis-siege`, `hegemon odds spqrisiko`)."""

from __future__ import annotations

from typing import NoReturn

import typer
from rich.console import Console
from rich.markup import escape

out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print a clear error (never a traceback) and exit non-zero."""
    err.print(f"[bold red]error:[/bold red] {escape(message)}")
    raise typer.Exit(code)
