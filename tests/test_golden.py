"""The golden playthrough transcripts (regenerate with `python scripts/make_golden.py`) still replay exactly."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("make_golden", ROOT / "scripts" / "make_golden.py")
assert spec is not None and spec.loader is not None
make_golden = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_golden)


@pytest.mark.parametrize("name", sorted(make_golden.GOLDEN))
def test_golden_transcript_is_reproduced(name: str) -> None:
    expected = (ROOT / "tests" / "golden" / f"{name}.txt").read_text()
    got = make_golden.transcript(name)
    assert got.splitlines()[-1] == expected.splitlines()[-1], "final state digest changed"
    assert got == expected
