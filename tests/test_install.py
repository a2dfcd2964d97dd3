"""README's set-up commands on a clean copy of the project (issue 25 item 1): `make run` creates and uses its own
virtual environment, never the Python it was started with, and serves the lobby; `PORT=` and `HOST=` are obeyed;
a repeated `make run` with nothing changed reinstalls nothing.

The throw-away PATH's `python3` behaves like Debian's (PEP 668): it refuses `pip install` outside a virtual
environment, and logs every call so the test can see what was asked of it. The engine is not compiled here
(HEGEMON_PURE=1: the compile is minutes; tests/test_compiled.py covers the compiled build that `make test` made).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow

REFUSING_PYTHON = """#!/bin/sh
# like Debian's python3: no `pip install` outside a virtual environment (PEP 668)
echo "$*" >> "{log}"
case "$*" in
  *"-m pip install"*|*"-m pip uninstall"*)
    echo "error: externally-managed-environment" >&2
    exit 1;;
esac
exec "{real}" "$@"
"""


def _base_python() -> str:
    """An interpreter outside any virtual environment (the venv running the tests has pip installs allowed)."""
    base = Path(sys.base_prefix) / "bin" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
    return str(base if base.exists() else sys.executable)


def _clean_copy(dest: Path) -> None:
    """The working tree's tracked and new (not ignored) files, as a fresh clone would have them."""
    files = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, files):
        src = ROOT / name.decode()
        if src.is_file():
            (dest / name.decode()).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name.decode())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=5) as r:
        return r.status, r.read().decode()


def test_make_run_uses_its_own_venv_and_serves(tmp_path: Path) -> None:
    if shutil.which("make") is None:
        pytest.fail("make is not installed (README's set-up needs it)")
    project = tmp_path / "hegemon"
    _clean_copy(project)
    fakebin = tmp_path / "bin"
    fakebin.mkdir()
    log = tmp_path / "python3.log"
    shim = fakebin / "python3"
    shim.write_text(REFUSING_PYTHON.format(log=log, real=_base_python()))
    shim.chmod(0o755)
    port = _free_port()
    env = {
        "PATH": f"{fakebin}:/usr/local/bin:/usr/bin:/bin",
        "HOME": str(tmp_path / "home"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "HEGEMON_PURE": "1",
        "LANG": "C.UTF-8",
    }
    for key in ("PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_CONFIG_FILE"):
        if key in os.environ:
            env[key] = os.environ[key]
    # share the developer's / CI's pip cache, so the packages come from disk when they can
    env["PIP_CACHE_DIR"] = os.environ.get("PIP_CACHE_DIR", str(Path.home() / ".cache" / "pip"))

    def make_run(out_name: str) -> tuple[subprocess.Popen[bytes], Path]:
        out = tmp_path / out_name
        proc = subprocess.Popen(
            ["make", "run", f"PORT={port}", "HOST=127.0.0.1"],
            cwd=project,
            env=env,
            stdout=out.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        return proc, out

    def wait_for_lobby(proc: subprocess.Popen[bytes], out: Path, limit: float) -> float:
        t0 = time.monotonic()
        while time.monotonic() - t0 < limit:
            if proc.poll() is not None:
                pytest.fail(f"make run exited {proc.returncode}:\n{out.read_text()[-4000:]}")
            try:
                status, body = _get(f"http://127.0.0.1:{port}/")
            except OSError:
                time.sleep(0.5)
                continue
            assert status == 200 and "hegemon" in body.lower()
            return time.monotonic() - t0
        pytest.fail(f"no page within {limit} s:\n{out.read_text()[-4000:]}")

    def stop(proc: subprocess.Popen[bytes]) -> None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()

    proc, out = make_run("first.log")
    try:
        first = wait_for_lobby(proc, out, 420)
    finally:
        stop(proc)
    text = out.read_text()
    assert (project / ".venv" / "bin" / "python").exists(), text
    assert "[1/3] creating the virtual environment" in text and "[2/3] installing" in text, text
    assert "[3/3] installing hegemon" in text, text
    assert f"--port {port}" in text, text
    # the PATH's python3 was asked for nothing but running scripts/setup_env.py (and the venv's creation)
    calls = log.read_text().splitlines()
    assert calls and all("pip install" not in c for c in calls), calls
    # the environment's interpreter is the venv's, not the shim
    cfg = (project / ".venv" / "pyvenv.cfg").read_text()
    assert "home" in cfg

    proc, out = make_run("second.log")
    try:
        second = wait_for_lobby(proc, out, 120)
    finally:
        stop(proc)
    again = out.read_text()
    assert "[1/3]" not in again and "[2/3]" not in again and "[3/3]" not in again, again
    assert "ready: .venv" in again
    print(f"make run from a clean copy: first page after {first:.0f} s; repeated: {second:.1f} s")
