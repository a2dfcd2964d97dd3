"""Without the `lab` extra (a core install: `make run`), every lab command says in one line what to install."""

from __future__ import annotations

import subprocess
import sys

HIDE = """
import sys
class Hide:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('scipy', 'statsmodels'):
            raise ModuleNotFoundError(name)
        return None
sys.meta_path.insert(0, Hide())
from hegemon.__main__ import main
sys.argv = ['hegemon', 'lab', 'compare', 'polis', '--games', '2']
main()
"""


def test_lab_without_its_extra_is_one_clear_line() -> None:
    r = subprocess.run([sys.executable, "-c", HIDE], capture_output=True, text=True, timeout=120)
    assert r.returncode != 0
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert any("'lab' extra" in ln and "scipy" in ln and "statsmodels" in ln for ln in lines), r.stderr
    assert "Traceback" not in r.stderr
