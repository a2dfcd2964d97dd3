"""SIGTERM while the database refuses writes (issue 26 item 9): a real `hegemon serve` on a SQLite file that another
process holds locked. The shutdown is bounded (it waited for the database before, 39 s in a 40 s outage); the move
waiting for its commit is answered 503, never acknowledged, and is not in the file afterwards."""

from __future__ import annotations

import signal
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from hegemon.server.storage import SHUTDOWN_GRACE

from .test_chaos import serve, stored_actions


def test_sigterm_during_an_outage_answers_pending_moves_503_and_exits_in_bounded_time(tmp_path: Path) -> None:
    db = tmp_path / "h.db"
    proc, url = serve(db)
    http = httpx.Client(base_url=url, timeout=60)
    con: sqlite3.Connection | None = None
    try:
        res = http.post("/api/tables", json={"game": "spqrisiko", "players": 3, "seed": 3, "claim": 0,
                                             "seats": [{"human": True}, {"bot": "random"}, {"bot": "random"}]}).json()  # fmt: skip
        tid, tok = res["id"], res["seats"][0]["token"]
        deadline = time.time() + 60
        while True:  # the person's turn (the bots play theirs)
            d = http.get(f"/api/tables/{tid}", params={"token": tok}).json()
            if d["view"].get("legal_actions"):
                break
            assert time.time() < deadline, "never the person's turn"
            time.sleep(0.05)
        before = stored_actions(db, tid)
        assert before == d["version"]

        con = sqlite3.connect(db, timeout=5, isolation_level=None)
        con.execute("BEGIN EXCLUSIVE")  # the outage: every write waits for this lock
        answer: dict[str, Any] = {}

        def move() -> None:
            r = httpx.post(f"{url}/api/tables/{tid}/actions", timeout=60,
                           json={"token": tok, "version": d["version"], "action": d["view"]["legal_actions"][0]})  # fmt: skip
            answer["status"], answer["body"], answer["at"] = r.status_code, r.json(), time.monotonic()

        mover = threading.Thread(target=move)
        mover.start()
        time.sleep(0.5)  # the move is applied in memory, its commit waits for the database
        assert mover.is_alive(), answer
        term = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        mover.join(timeout=30)
        assert not mover.is_alive(), "the waiting move was never answered"
        assert answer["status"] == 503, answer
        assert answer["body"]["code"] == "unavailable"
        assert answer["at"] - term <= SHUTDOWN_GRACE + 3
        proc.wait(timeout=15)
        exited = time.monotonic() - term
        assert exited <= 10, f"shutdown took {exited:.1f} s"
        con.execute("ROLLBACK")
        con.close()
        con = None
        assert stored_actions(db, tid) == before  # never stored, as it was never acknowledged
    finally:
        http.close()
        if con is not None:
            con.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
