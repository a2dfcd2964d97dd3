"""Create and fill hegemon's own virtual environment: what `make run` and `make test` do first.

Standard library only, so that any Python >= 3.11 can run it, a distribution's own included (PEP 668: Debian's
`python3` refuses `pip install` outside a virtual environment; this script never installs into it).

    python3 scripts/setup_env.py [--venv .venv] [--lock requirements/run.lock]

Stages, each announced on one line:
1. the virtual environment (created once; if the interpreter lacks `ensurepip`, as a Debian without the
   python3-venv package does, it is created without pip and pip is bootstrapped from its wheel on PyPI);
2. the pinned dependencies of the lockfile (only when that lockfile changed since the last install);
3. hegemon itself, editable, with its rules engine compiled by mypyc (only when the package metadata changed or
   the compiled engine no longer matches the sources; progress and elapsed time are printed while it compiles).
A repeated run with nothing changed checks a few digests and returns in well under a second.
The record of what was installed is `<venv>/hegemon-setup.json`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MIN_PYTHON = (3, 11)
COMPILE_ESTIMATE = "about 2 to 4 minutes on two cores, once"


def say(msg: str) -> None:
    print(f"hegemon setup: {msg}", flush=True)


def digest(*paths: Path) -> str:
    h = hashlib.sha256()
    for p in paths:
        h.update(p.name.encode())
        h.update(p.read_bytes() if p.exists() else b"")
    return h.hexdigest()[:16]


def venv_python(env: Path) -> Path:
    return env / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def runs(python: Path) -> bool:
    try:
        out = subprocess.run(
            [str(python), "-c", "import sys; print(sys.version_info >= (3, 11))"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    except OSError:
        return False
    return out.returncode == 0 and out.stdout.strip() == "True"


def has_pip(python: Path) -> bool:
    return subprocess.run([str(python), "-m", "pip", "--version"], capture_output=True).returncode == 0


def bootstrap_pip(python: Path) -> None:
    """pip from its wheel on the package index (a wheel is importable as is: `python pip.whl/pip install`)."""
    index = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple").rstrip("/")
    json_url = index.removesuffix("/simple") + "/pypi/pip/json"
    say(f"this Python has no ensurepip (Debian: package python3-venv); fetching pip from {json_url}")
    with urllib.request.urlopen(json_url, timeout=60) as r:
        meta = json.load(r)
    wheel = next(u for u in meta["urls"] if u["filename"].endswith("-py3-none-any.whl"))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / wheel["filename"]
        with urllib.request.urlopen(wheel["url"], timeout=120) as r:
            data = r.read()
        if hashlib.sha256(data).hexdigest() != wheel["digests"]["sha256"]:
            raise SystemExit("hegemon setup: the downloaded pip wheel does not match its published digest")
        path.write_bytes(data)
        subprocess.run([str(python), f"{path}/pip", "install", "-q", "--no-index", str(path)], check=True)


def make_venv(env: Path) -> Path:
    python = venv_python(env)
    if python.exists() and runs(python) and has_pip(python):
        return python
    if sys.version_info < MIN_PYTHON:
        raise SystemExit(
            f"hegemon setup: hegemon needs Python >= 3.11; {sys.executable} is {sys.version.split()[0]}. "
            "Run with a newer one: make PYTHON=python3.12 run"
        )
    if env.exists():
        say(f"{env} exists but does not work with this Python: recreating it")
        shutil.rmtree(env)
    say(
        f"[1/3] creating the virtual environment {env} with Python {sys.version.split()[0]} ({sys.executable})"
    )
    try:
        venv.EnvBuilder(with_pip=True, upgrade_deps=False).create(env)
    except (subprocess.CalledProcessError, OSError):
        shutil.rmtree(env, ignore_errors=True)
        venv.EnvBuilder(with_pip=False).create(env)
    if not has_pip(python):
        bootstrap_pip(python)
    return python


class Ticker:
    """Prints the elapsed time every `every` seconds while a long step runs."""

    def __init__(self, what: str, every: float = 20.0) -> None:
        self.what, self.every, self.t0 = what, every, time.monotonic()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            say(f"    ... {self.what}: {time.monotonic() - self.t0:.0f} s so far")

    def __enter__(self) -> Ticker:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()


def pip(python: Path, *args: str, show: tuple[str, ...] = ()) -> None:
    """Run pip in the venv; print only the lines that start with one of `show` (all output when pip fails)."""
    cmd = [str(python), "-m", "pip", "--disable-pip-version-check", *args]
    env = dict(os.environ, PIP_REQUIRE_VIRTUALENV="1", PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT
    )
    assert proc.stdout is not None
    kept: list[str] = []
    for line in proc.stdout:
        kept.append(line)
        if show and line.lstrip().startswith(show):
            print("    " + line.strip(), flush=True)
    if proc.wait() != 0:
        sys.stdout.write("".join(kept[-60:]))
        raise SystemExit(f"hegemon setup: `pip {' '.join(args)}` failed (exit {proc.returncode})")


def engine_current(python: Path) -> bool:
    """True when hegemon is importable from the venv and its compiled engine matches the sources (or the
    user asked for pure Python)."""
    code = (
        "import sys, pathlib; sys.path.insert(0, 'src/hegemon'); import _native; "
        "import importlib.util as u; ok = u.find_spec('hegemon') is not None; "
        "print(ok and (_native.pure_requested() or _native.reusable(pathlib.Path('src'))))"
    )
    out = subprocess.run([str(python), "-c", code], capture_output=True, text=True, cwd=ROOT)
    return out.returncode == 0 and out.stdout.strip() == "True"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--venv", default=".venv", help="the virtual environment's folder (default .venv)")
    ap.add_argument("--lock", default="requirements/run.lock", help="the lockfile to install")
    args = ap.parse_args()
    env = (ROOT / args.venv).resolve()
    lock = (ROOT / args.lock).resolve()
    t0 = time.monotonic()

    python = make_venv(env)
    record_path = env / "hegemon-setup.json"
    try:
        record = json.loads(record_path.read_text())
    except (OSError, ValueError):
        record = {}
    locks: dict[str, str] = record.get("locks", {})

    def save() -> None:
        record["locks"] = locks
        record_path.write_text(json.dumps(record, indent=1))

    if locks.get(lock.name) != digest(lock):
        n = sum(1 for ln in lock.read_text().splitlines() if ln and not ln.startswith((" ", "#")))
        say(
            f"[2/3] installing {n} pinned packages from {lock.relative_to(ROOT)} (a minute or two the first time)"
        )
        with Ticker("installing packages"):
            pip(
                python,
                "install",
                "--progress-bar",
                "off",
                "-r",
                str(lock),
                show=("Downloading", "Successfully installed"),
            )
        locks[lock.name] = digest(lock)
        save()

    package = digest(ROOT / "pyproject.toml", ROOT / "setup.py", ROOT / "src/hegemon/_native.py")
    if record.get("package") != package or not engine_current(python):
        pure = os.environ.get("HEGEMON_PURE", "") not in ("", "0")
        what = (
            "pure Python (HEGEMON_PURE is set)"
            if pure
            else f"compiling its rules engine with mypyc, {COMPILE_ESTIMATE}"
        )
        say(f"[3/3] installing hegemon (editable) and {what}")
        with Ticker("building hegemon"):
            pip(python, "install", "--no-deps", "-v", "-e", ".", show=("hegemon build:",))
        record["package"] = package
        save()
    took = time.monotonic() - t0
    say(f"ready: {env.relative_to(ROOT) if env.is_relative_to(ROOT) else env} ({took:.1f} s)")


if __name__ == "__main__":
    main()
