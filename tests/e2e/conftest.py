"""A real `hegemon serve` on a free loopback port with its own SQLite file, and Debian's Chromium driven by
Playwright. Both are started once per test session."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync"]  # fmt: skip
# screenshots go to a scratch directory, so a test run leaves the checkout clean; to refresh the ones in docs/:
# HEGEMON_SCREENSHOTS=docs python -m pytest tests/e2e
ROOT = Path(__file__).resolve().parents[2]
DOCS = (
    ROOT / os.environ["HEGEMON_SCREENSHOTS"]
    if os.environ.get("HEGEMON_SCREENSHOTS")
    else Path(tempfile.mkdtemp(prefix="hegemon-shots-"))
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, db: Path, bot_delay: float = 0.02) -> None:
        self.db = db
        self.bot_delay = bot_delay
        self.proc: subprocess.Popen[bytes] | None = None
        self.port = 0
        self.log_path = db.with_name("server.log")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, same_port: bool = False) -> None:
        if not (same_port and self.port):
            self.port = free_port()
        cmd = [sys.executable, "-m", "hegemon.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port),
               "--db", f"sqlite:///{self.db}", "--bot-delay", str(self.bot_delay)]  # fmt: skip
        # the log goes to a file: a pipe nobody reads fills up and then blocks the server at its next log line
        with self.log_path.open("ab") as log:
            # every test plays from 127.0.0.1: the live-table cap per client address would refuse the 21st table
            env = {**os.environ, "HEGEMON_MAX_TABLES_PER_CLIENT": "100000"}
            self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log, env=env)
        deadline = time.time() + 90  # a loaded CI machine can be slow to start it (and to reload every table)
        while time.time() < deadline:
            try:
                if httpx.get(f"{self.url}/api/games", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            self.proc = None


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("e2e") / "hegemon.db")
    srv.start()
    yield srv
    srv.stop()
    # a bot that fails falls back to a random legal move and the table goes on: the games still look right,
    # so the log is where such a failure shows (a compiled class the search workers could not unpickle)
    failed = [line for line in srv.log().splitlines() if "playing a random legal move" in line]
    assert not failed, "\n".join(failed[:5])


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    ctx = browser.new_context(viewport={"width": 1400, "height": 900}, locale="en-US")
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    ctx.close()
    assert not errors, errors
