"""The client's JavaScript unit tests (tests/js/*.test.mjs: click logic, texts, plurals, refusal reasons) run by
`node --test tests/js/` as shipped (no bundler, no npm), with the TAP report. A failing one fails here with
node's report."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")


def test_the_javascript_unit_tests_pass() -> None:
    assert NODE, "node is needed to run tests/js (make install-test installs it)"
    files = sorted((ROOT / "tests" / "js").glob("*.test.mjs"))
    assert len(files) >= 4, files
    # the tests ask the engines for real positions (tests/js/positions.py) with this Python and this checkout
    path = os.pathsep.join(p for p in (str(ROOT / "src"), os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "PYTHON": sys.executable, "PYTHONPATH": path, "NO_COLOR": "1"}
    out = subprocess.run(
        [NODE, "--test", "--test-reporter=tap", "tests/js/"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    report = out.stdout + out.stderr
    assert out.returncode == 0, report
    passed = re.search(r"^# pass (\d+)$", report, re.M)
    failed = re.search(r"^# fail (\d+)$", report, re.M)
    assert passed and failed, report
    # every file ran (a file that cannot even load counts as one failed test, not as none)
    assert int(failed.group(1)) == 0 and int(passed.group(1)) >= 40, report
    assert not re.search(r"^# (skipped|todo|cancelled) [1-9]", report, re.M), report
