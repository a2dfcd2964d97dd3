"""The conformance kit (`hegemon.testing`) itself: every registered game's test suite runs all of it, and it is
importable without pytest (a game outside this repository calls it from any test runner)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from hegemon import testing
from hegemon.games import game_names

TESTS = Path(__file__).resolve().parent.parent
CHECKS = {name for name in testing.__all__ if name.startswith("check_") and name != "check_all"} - {
    "check_perft"
}


@pytest.mark.parametrize("name", game_names())
def test_every_game_suite_calls_every_check(name: str) -> None:
    path = TESTS / "games" / name / "test_conformance.py"
    assert path.is_file(), f"{name} has no conformance suite"
    called = {
        node.attr
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "testing"
    }
    assert called >= CHECKS, f"{name} skips {sorted(CHECKS - called)}"


def test_the_kit_imports_without_pytest() -> None:
    code = "import sys; sys.modules['pytest'] = None; import hegemon.testing; print(len(hegemon.testing.__all__))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) == len(testing.__all__) > 10
