"""Chaos (issue 11 item 5): another process locks the real SQLite file of a running `hegemon serve` for 8 s in
the middle of play. The server stays responsive, acknowledges nothing it has not stored, never shows an unstored
version, tells its clients, resumes by itself when the lock is gone, and after a restart every table is exactly
where it was."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
from websockets.sync.client import connect

LOCK_SECONDS = 8.0


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(db: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = _port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "hegemon.cli", "serve", "--port", str(port), "--db", f"sqlite:///{db}",
         "--bot-delay", "0.02", "--log-level", "warning"],  # no access log: nobody reads the pipe until the end
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            if httpx.get(f"{url}/api/games", timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not start")


def stop(proc: subprocess.Popen[bytes]) -> str:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return (proc.stderr.read() if proc.stderr else b"").decode(errors="replace")


def stored_actions(db: Path, table_id: str) -> int:
    """Actions of `table_id` in the file, read by another connection (WAL: readers pass the writer's lock)."""
    con = sqlite3.connect(db, timeout=5)
    try:
        return int(con.execute("SELECT count(*) FROM actions WHERE table_id = ?", (table_id,)).fetchone()[0])
    finally:
        con.close()


def test_a_database_locked_for_8_seconds_mid_play_loses_nothing_and_play_resumes(tmp_path: Path) -> None:
    db = tmp_path / "chaos.db"
    proc, url = serve(db)
    http = httpx.Client(base_url=url, timeout=60)
    try:
        people = http.post("/api/tables", json={"game": "spqrisiko", "players": 3, "seed": 3,
                                                "seats": [{"human": True}] * 3, "options": {"vp_target": 1000}}).json()  # fmt: skip
        tid = people["id"]
        tokens = []  # taking a seat mints its token: the links' tokens hold nothing afterwards
        for seat in people["seats"]:
            r = http.post(f"/api/tables/{tid}/seat", json={"token": seat["token"], "name": "P"})
            assert r.status_code == 200, r.text
            tokens.append(r.json()["token"])
        bots = http.post("/api/tables", json={"game": "spqrisiko", "players": 3, "seed": 4,
                                              "seats": [{"bot": "random"}] * 3, "options": {"vp_target": 1000}}).json()  # fmt: skip

        acked: list[int] = []  # versions the server acknowledged (200)
        refused: list[str] = []  # typed refusals while the database was locked
        shown: list[tuple[int, int]] = []  # (version shown by REST, actions stored right after)
        told: list[str] = []  # status messages on a websocket
        lags: list[float] = []
        stop_play = threading.Event()
        locked = threading.Event()

        def play() -> None:
            with httpx.Client(base_url=url, timeout=60) as c:
                while not stop_play.is_set():
                    for tok in tokens:
                        d = c.get(f"/api/tables/{tid}", params={"token": tok}).json()
                        if d["view"].get("legal_actions"):
                            break
                    else:
                        time.sleep(0.02)
                        continue
                    if locked.is_set():
                        shown.append((d["version"], stored_actions(db, tid)))
                    body = {"token": tok, "version": d["version"], "action": d["view"]["legal_actions"][0]}
                    r = c.post(f"/api/tables/{tid}/actions", json=body)
                    if r.status_code == 200:
                        acked.append(r.json()["version"])
                    elif r.status_code == 503:
                        assert r.json()["code"] == "unavailable"
                        refused.append(r.json()["message"])
                        time.sleep(0.2)
                    elif r.status_code == 429:  # a quiet machine plays faster than the per-client write limit
                        time.sleep(0.2)
                    else:
                        assert r.json()["code"] == "stale_version", r.text

        def probe() -> None:
            with httpx.Client(base_url=url, timeout=60) as c:
                while not stop_play.is_set():
                    t0 = time.perf_counter()
                    assert c.get("/api/games").status_code == 200
                    if locked.is_set():
                        lags.append(time.perf_counter() - t0)
                    time.sleep(0.1)

        def watch() -> None:
            with connect(f"{url.replace('http', 'ws')}/ws/tables/{tid}", open_timeout=20) as ws:
                while not stop_play.is_set():
                    try:
                        m = json.loads(ws.recv(timeout=0.5))
                    except TimeoutError:
                        continue
                    if m.get("type") == "status":
                        told.append(m["code"])

        threads = [threading.Thread(target=f, daemon=True) for f in (play, probe, watch)]
        for t in threads:
            t.start()
        time.sleep(1.5)
        bot_version = http.get(f"/api/tables/{bots['id']}").json()["version"]
        con = sqlite3.connect(db, timeout=10)
        con.execute("BEGIN EXCLUSIVE")
        # counted once the lock is held: a move acknowledged between an earlier count and the lock is not one made
        # while the database was locked
        before_lock = len(acked)
        locked.set()
        time.sleep(2.0)
        for tok in tokens:  # a move made now is refused, typed, and changes nothing
            d = http.get(f"/api/tables/{tid}", params={"token": tok}).json()
            if d["view"].get("legal_actions"):
                body = {"token": tok, "version": d["version"], "action": d["view"]["legal_actions"][0]}
                r = http.post(f"/api/tables/{tid}/actions", json=body)
                assert r.status_code == 503 and r.json()["code"] == "unavailable"
                refused.append(r.json()["message"])
        time.sleep(LOCK_SECONDS - 2.0)
        acked_while_locked = len(acked)
        con.rollback()
        con.close()
        locked.clear()
        resumed_by = time.time() + 30  # play resumes by itself (the writer's backoff is at most 2 s)
        while len(acked) <= acked_while_locked and time.time() < resumed_by:
            time.sleep(0.1)
        time.sleep(1.0)
        stop_play.set()
        for t in threads:
            t.join(timeout=30)

        assert before_lock > 0 and len(acked) > acked_while_locked  # it played before and after, by itself
        assert acked_while_locked - before_lock <= 1  # at most the move that was in flight when the lock came
        assert refused and "database" in refused[0]  # a typed refusal that says why
        assert lags and max(lags) < 1.0  # the event loop never froze (it froze 5 s before)
        assert all(v <= n for v, n in shown)  # never a version the file did not hold
        assert "storage_down" in told and told[-1] == "storage_ok"
        assert http.get(f"/api/tables/{bots['id']}").json()["version"] > bot_version  # the bots resumed
        final = http.get(f"/api/tables/{tid}").json()
        assert final["version"] == stored_actions(db, tid) >= max(acked)  # everything acknowledged is stored
        bot_final = http.get(f"/api/tables/{bots['id']}")
        assert bot_final.status_code == 200
    finally:
        http.close()
        log = stop(proc)
    assert "refused writes" in log and "work again" in log  # the log says what happened

    proc, url = serve(db)  # after a restart the table is exactly where it was
    try:
        with httpx.Client(base_url=url, timeout=30) as c:
            again = c.get(f"/api/tables/{tid}").json()
            assert again["version"] == final["version"] and again["view"] == final["view"]
            # the bots play on after the restart: count what the file holds first, then ask the server
            bots_stored = stored_actions(db, bots["id"])
            assert c.get(f"/api/tables/{bots['id']}").json()["version"] >= bots_stored
    finally:
        stop(proc)
    assert os.path.exists(db)
