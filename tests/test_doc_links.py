"""Every relative link in the project's Markdown points at a file or folder that exists (a moved or removed page
leaves no dead link behind)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\]\(([^)#\s]+)(#[^)]*)?\)")


def test_relative_links_resolve() -> None:
    files = subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True, check=True)
    names = files.stdout.split()
    assert len(names) > 10
    dead = []
    for name in names:
        text = (ROOT / name).read_text(encoding="utf-8")
        for m in LINK.finditer(text):
            link = m.group(1)
            if re.match(r"[a-z][a-z0-9+.-]*:", link):  # http:, https:, mailto:
                continue
            if not ((ROOT / name).parent / link).exists():
                dead.append(f"{name}: {link}")
    assert not dead, dead
