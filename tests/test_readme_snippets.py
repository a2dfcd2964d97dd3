"""Every Python snippet in the project's Markdown (```python blocks of README.md, the package READMEs and docs/)
runs as written, each in a fresh interpreter: a README that shows code shows code that works (issue 29)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def snippets() -> list[tuple[str, str]]:
    files = subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True, check=True)
    out = []
    for name in files.stdout.split():
        if name.startswith("docs/experiments/"):
            continue  # the history of experiments: code as it was then
        text = (ROOT / name).read_text(encoding="utf-8")
        for i, m in enumerate(BLOCK.finditer(text)):
            out.append((f"{name}#{i + 1}", m.group(1)))
    return out


SNIPPETS = snippets()


def test_there_are_snippets() -> None:
    assert len(SNIPPETS) >= 2, SNIPPETS


@pytest.mark.parametrize(("where", "code"), SNIPPETS, ids=[w for w, _ in SNIPPETS])
def test_snippet_runs(where: str, code: str) -> None:
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, f"{where} fails:\n{r.stderr[-3000:]}"
