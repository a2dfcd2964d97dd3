"""`hegemon odds spqrisiko A D` answered before typer loads (hegemon/__main__.py): the same output as the typer
command for every plain query, and everything else handed to typer unchanged."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from hegemon.cli import app

QUERIES = [
    ["9", "10"],
    ["9", "10", "--json"],
    ["9", "10", "--rules", "official", "--json"],
    ["9", "10", "--sea", "--declared", "6", "--stop-at", "2"],
    ["4", "3", "--frontier", "--garrison=garrison_first", "--json"],
    ["5", "4", "--naval"],
    ["7", "3", "--sea", "--no-below-defender", "--json"],
]


def fast(args: list[str], probe: bool = False) -> subprocess.CompletedProcess[str]:
    """`python -m hegemon odds spqrisiko ARGS`; with `probe`, also print whether typer was imported."""
    code = "import sys\nfrom hegemon.__main__ import main\nsys.argv = ['hegemon', *sys.argv[1:]]\n"
    code += (
        "try:\n    main()\nfinally:\n    print('typer' in sys.modules, file=sys.stderr)\n"
        if probe
        else "main()\n"
    )
    return subprocess.run([sys.executable, "-c", code, "odds", "spqrisiko", *args],
                          capture_output=True, text=True, timeout=120, env={**os.environ, "COLUMNS": "120"})  # fmt: skip


@pytest.mark.parametrize("args", QUERIES, ids=" ".join)
def test_a_plain_query_prints_what_the_typer_command_prints_without_loading_typer(args: list[str]) -> None:
    done = fast(args, probe=True)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().splitlines()[-1] == "False"  # typer never imported
    typer_run = CliRunner().invoke(app, ["odds", "spqrisiko", *args], env={"COLUMNS": "120"})
    assert typer_run.exit_code == 0
    assert done.stdout == typer_run.stdout


@pytest.mark.parametrize(
    ("args", "code", "says"),
    [
        (["9", "10", "--sea", "--declared", "9"], 2, "--declared must be from 1 to 8"),
        (["4", "3", "--garrison", "both"], 2, "garrison"),
        (["4"], 2, "give the attacker and the defender"),
        (["--table", "3x2", "--csv"], 0, "attacker,defender 1,defender 2"),
        (["9", "10", "--bogus"], 2, "No such option"),
        (["--help"], 0, "Exact odds of a land attack"),
    ],
)
def test_anything_else_goes_to_the_typer_command(args: list[str], code: int, says: str) -> None:
    done = fast(args, probe=True)
    assert done.returncode == code
    assert says in done.stdout + done.stderr
    assert done.stderr.strip().splitlines()[-1] == "True"  # handled by typer
