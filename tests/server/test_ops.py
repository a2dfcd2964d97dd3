"""Operating the web table (issue 25 item 4), on a real `hegemon serve` with a real database: /healthz, /readyz
(SQLite and PostgreSQL), /metrics (Prometheus text, for this machine or a token only), the JSON access log,
--log-level, a busy port refused before the URL is printed, and a live backup restored and served."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from websockets.sync.client import connect

from tests.pgserver import PostgresServer

HEGEMON = [sys.executable, "-m", "hegemon.cli"]
TOKEN = "s3cret-metrics-token-0123456789"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Served:
    proc: subprocess.Popen[bytes]
    url: str
    log: Path
    db: str

    def lines(self) -> list[str]:
        return self.log.read_text(encoding="utf-8").splitlines()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def serve(db: str, log: Path, *args: str, env: dict[str, str] | None = None) -> Served:
    port = _free_port()
    e = dict(os.environ) | (env or {})
    for k in ("HEGEMON_TRUSTED_PROXIES", "HEGEMON_METRICS_TOKEN", "HEGEMON_LOG_LEVEL", "HEGEMON_LOG_FORMAT"):
        if k not in (env or {}):
            e.pop(k, None)
    with log.open("wb") as f:
        proc = subprocess.Popen([*HEGEMON, "serve", "--port", str(port), "--db", db, *args],
                                stdout=f, stderr=subprocess.STDOUT, env=e)  # fmt: skip
    s = Served(proc, f"http://127.0.0.1:{port}", log, db)
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            if httpx.get(f"{s.url}/healthz", timeout=2).status_code == 200:
                return s
        except httpx.HTTPError:
            if proc.poll() is not None:
                break
            time.sleep(0.1)
    s.stop()
    raise AssertionError("the server did not start:\n" + log.read_text(errors="replace"))


def metrics(url: str, **headers: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    r = httpx.get(f"{url}/metrics", headers=headers, timeout=10)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain; version=")
    out = {}
    for fam in text_string_to_metric_families(r.text):
        for s in fam.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def bot_table(url: str) -> str:
    r = httpx.post(
        f"{url}/api/tables", json={"game": "polis", "seats": [{"bot": "random"}, {"bot": "random"}]}
    )
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def wait_finished(url: str, tid: str, seconds: float = 60) -> dict[str, Any]:
    deadline = time.time() + seconds
    while time.time() < deadline:
        d = httpx.get(f"{url}/api/tables/{tid}").json()
        if d["status"] == "finished":
            return dict(d)
        time.sleep(0.2)
    raise AssertionError(f"table {tid} did not finish")


def stored_actions(db_file: Path) -> int:
    con = sqlite3.connect(db_file, timeout=5)
    try:
        return int(con.execute("SELECT count(*) FROM actions").fetchone()[0])
    finally:
        con.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    d = tmp_path_factory.mktemp("ops")
    s = serve(f"sqlite:///{d / 'h.db'}", d / "server.log", "--bot-delay", "0", "--log-format", "json")
    try:
        yield s
    finally:
        s.stop()


# ------------------------------------------------------------------ health and readiness


def test_healthz_and_readyz_answer_on_a_healthy_server(server: Served) -> None:
    r = httpx.get(f"{server.url}/healthz")
    assert r.status_code == 200 and r.json() == {"status": "ok"}
    assert r.headers["cache-control"] == "no-store"
    r = httpx.get(f"{server.url}/readyz")
    assert r.status_code == 200 and r.json() == {"status": "ready", "database": "sqlite"}


def test_readyz_is_503_while_the_schema_is_not_this_versions(server: Served) -> None:
    db = Path(server.db.removeprefix("sqlite:///"))
    con = sqlite3.connect(db, timeout=5)
    try:
        (rev,) = con.execute("SELECT version_num FROM alembic_version").fetchone()
        con.execute("UPDATE alembic_version SET version_num = '9999'")
        con.commit()
        time.sleep(1.2)  # past the cached answer
        r = httpx.get(f"{server.url}/readyz")
        assert r.status_code == 503, r.text
        assert r.json()["reason"] == "schema_mismatch" and "9999" in r.json()["message"]
        assert httpx.get(f"{server.url}/healthz").status_code == 200  # alive all the same
    finally:
        con.execute("UPDATE alembic_version SET version_num = ?", (rev,))
        con.commit()
        con.close()
    time.sleep(1.2)
    assert httpx.get(f"{server.url}/readyz").status_code == 200


def test_readyz_on_postgresql_follows_the_database(
    postgres: PostgresServer, pg_url: str, tmp_path: Path
) -> None:
    s = serve(pg_url, tmp_path / "pg.log", "--bot-delay", "0")
    try:
        r = httpx.get(f"{s.url}/readyz")
        assert r.status_code == 200 and r.json() == {"status": "ready", "database": "postgresql"}
        postgres.stop()
        try:
            time.sleep(1.2)
            r = httpx.get(f"{s.url}/readyz", timeout=15)
            assert r.status_code == 503, r.text
            body = r.json()
            assert body["reason"] == "database_unreachable"
            assert (
                "127.0.0.1" not in body["message"] and str(postgres.port) not in body["message"]
            )  # no internals
            assert httpx.get(f"{s.url}/healthz").status_code == 200
        finally:
            postgres.start()
        deadline = time.time() + 20
        while httpx.get(f"{s.url}/readyz", timeout=15).status_code != 200:
            assert time.time() < deadline, "/readyz did not recover after PostgreSQL came back"
            time.sleep(0.3)
        assert any("not ready: the database cannot be queried" in line for line in s.lines()), s.lines()[-5:]
    finally:
        s.stop()


def test_readyz_and_metrics_are_rate_limited_per_client(server: Served) -> None:
    with httpx.Client(base_url=server.url) as c:  # one kept-alive connection: fast enough to drain the bucket
        codes = [c.get("/readyz").status_code for _ in range(200)]
    assert 429 in codes and codes[0] == 200, codes
    time.sleep(3.5)  # the bucket refills (20 a second)
    got = metrics(server.url)
    assert got[("hegemon_refusals_total", (("kind", "rate_limit"),))] >= codes.count(429)
    assert httpx.get(f"{server.url}/healthz").status_code == 200


# ------------------------------------------------------------------ metrics


def test_metrics_count_requests_refusals_tables_actions_and_websockets(server: Served) -> None:
    tid = bot_table(server.url)
    wait_finished(server.url, tid)
    assert httpx.get(f"{server.url}/api/tables/nosuch").status_code == 404
    r = httpx.post(
        f"{server.url}/api/tables/{tid}/actions", json={"token": "x" * 20, "version": 0, "action": {}}
    )
    assert r.status_code in (403, 409), r.text
    with connect(f"ws://127.0.0.1:{server.url.rsplit(':', 1)[1]}/ws/tables/{tid}") as ws:
        ws.recv(timeout=10)
        m = metrics(server.url)
        assert m[("hegemon_websocket_connections", ())] == 1
    m = metrics(server.url)
    req = "hegemon_http_requests_total"
    assert m[(req, (("method", "POST"), ("route", "/api/tables"), ("status", "201")))] >= 1
    assert m[(req, (("method", "GET"), ("route", "/api/tables/{table_id}"), ("status", "404")))] >= 1
    assert m[(req, (("method", "WEBSOCKET"), ("route", "/ws/tables/{table_id}"), ("status", "101")))] >= 1
    assert not any(k[0] == req and ("route", "/api/tables/nosuch") in k[1] for k in m)  # templates, not paths
    assert m[("hegemon_refusals_total", (("kind", "unknown_table"),))] >= 1
    assert (
        m[("hegemon_refusals_total", (("kind", "unauthorized"),))]
        + m[("hegemon_refusals_total", (("kind", "game_over"),))]
        >= 1
    )
    assert m[("hegemon_tables_live", (("status", "finished"),))] >= 1
    # every action the server stored, and only those: the file says how many
    assert m[("hegemon_actions_stored_total", ())] == stored_actions(
        Path(server.db.removeprefix("sqlite:///"))
    )
    assert m[("hegemon_actions_stored_total", ())] > 0
    assert m[("hegemon_storage_up", ())] == 1
    assert m[("hegemon_storage_info", (("backend", "sqlite"),))] == 1
    assert m[("hegemon_search_queue_length", ())] == 0
    assert m[("process_resident_memory_bytes", ())] > 0


def test_metrics_refuse_anyone_behind_a_proxy_without_a_token(server: Served) -> None:
    for h in (
        {"X-Forwarded-For": "203.0.113.9"},
        {"Forwarded": "for=203.0.113.9"},
        {"X-Real-IP": "203.0.113.9"},
    ):
        r = httpx.get(f"{server.url}/metrics", headers=h)
        assert r.status_code == 403 and r.json()["code"] == "unauthorized", r.text
        assert "hegemon_" not in r.text


def test_with_a_token_metrics_need_it_and_log_level_warning_drops_the_access_log(tmp_path: Path) -> None:
    s = serve(f"sqlite:///{tmp_path / 'h.db'}", tmp_path / "t.log", "--log-level", "warning",
              env={"HEGEMON_METRICS_TOKEN": TOKEN})  # fmt: skip
    try:
        assert httpx.get(f"{s.url}/metrics").status_code == 403  # even from this machine
        assert httpx.get(f"{s.url}/metrics", headers={"Authorization": f"Bearer {TOKEN}x"}).status_code == 403
        assert httpx.get(f"{s.url}/metrics", headers={"Authorization": "Bearer"}).status_code == 403
        m = metrics(s.url, Authorization=f"Bearer {TOKEN}")
        assert m[("hegemon_refusals_total", (("kind", "unauthorized"),))] == 3
        assert httpx.get(f"{s.url}/api/tables").status_code == 200
    finally:
        s.stop()
    text = s.log.read_text()
    assert "hegemon.access" not in text and "/api/tables" not in text, text
    assert TOKEN not in text


def test_a_short_metrics_token_is_refused_at_start(tmp_path: Path) -> None:
    r = subprocess.run([*HEGEMON, "serve", "--port", str(_free_port()), "--db", f"sqlite:///{tmp_path / 'h.db'}"],
                       capture_output=True, text=True, timeout=60, env=dict(os.environ) | {"HEGEMON_METRICS_TOKEN": "short"})  # fmt: skip
    assert r.returncode == 2 and "HEGEMON_METRICS_TOKEN" in r.stderr, r.stderr
    assert "hegemon web table on" not in r.stdout


# ------------------------------------------------------------------ logs


def test_the_access_log_is_json_with_the_route_and_never_the_query(server: Served) -> None:
    assert httpx.get(f"{server.url}/api/tables/abc?token=SEAT-SECRET-123").status_code == 404
    deadline = time.time() + 5
    while True:
        records = [json.loads(line) for line in server.lines() if line.strip()]  # every line is JSON
        hits = [
            r for r in records if r.get("logger") == "hegemon.access" and r.get("path") == "/api/tables/abc"
        ]
        if hits or time.time() > deadline:
            break
        time.sleep(0.1)
    assert hits, records[-5:]
    h = hits[-1]
    assert h["status"] == 404 and h["route"] == "/api/tables/{table_id}" and h["method"] == "GET"
    assert h["client"] == "127.0.0.1" and h["level"] == "INFO" and h["duration_ms"] >= 0 and "time" in h
    assert not any("SEAT-SECRET-123" in json.dumps(r) for r in records)
    assert any(
        r.get("logger") == "hegemon.server" and r.get("url") == server.url for r in records
    )  # the banner


# ------------------------------------------------------------------ the port


def test_a_busy_port_fails_at_once_before_the_url_and_the_database(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        db = tmp_path / "never.db"
        r = subprocess.run([*HEGEMON, "serve", "--port", str(port), "--db", f"sqlite:///{db}"],
                           capture_output=True, text=True, timeout=60)  # fmt: skip
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert f"127.0.0.1:{port}" in r.stderr and "in use" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr
    assert "hegemon web table on" not in r.stdout  # no URL that does not work
    assert not db.exists()  # nothing opened or made


# ------------------------------------------------------------------ backup and restore


def test_a_live_backup_restores_and_the_server_serves_its_tables(tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    s = serve(f"sqlite:///{db}", tmp_path / "live.log", "--bot-delay", "0.01")
    try:
        ids = [bot_table(s.url) for _ in range(3)]
        time.sleep(0.5)  # the bots are playing: the backup is taken mid-game
        backup = tmp_path / "backup.db"
        r = subprocess.run([*HEGEMON, "backup", str(backup), "--db", f"sqlite:///{db}"],
                           capture_output=True, text=True, timeout=120)  # fmt: skip
        assert r.returncode == 0, r.stderr
        assert "backed up 3 table(s)" in r.stdout, r.stdout
        again = subprocess.run([*HEGEMON, "backup", str(backup), "--db", f"sqlite:///{db}"],
                               capture_output=True, text=True, timeout=120)  # fmt: skip
        assert again.returncode == 2 and "exists" in again.stderr  # never overwritten unasked
        for t in ids:
            wait_finished(s.url, t)
    finally:
        s.stop()
    con = sqlite3.connect(backup)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one self-contained file
        in_backup = dict(con.execute("SELECT table_id, count(*) FROM actions GROUP BY table_id").fetchall())
    finally:
        con.close()
    assert set(in_backup) <= set(ids) and sum(in_backup.values()) > 0
    assert not Path(str(backup) + ".part").exists()

    restored = tmp_path / "restored" / "hegemon.db"
    r = subprocess.run([*HEGEMON, "restore", str(backup), "--db", f"sqlite:///{restored}"],
                       capture_output=True, text=True, timeout=120)  # fmt: skip
    assert r.returncode == 0 and "restored 3 table(s)" in r.stdout, (r.stdout, r.stderr)
    s2 = serve(
        f"sqlite:///{restored}", tmp_path / "restored.log", "--bot-delay", "60"
    )  # bots wait: look first
    try:
        assert httpx.get(f"{s2.url}/readyz").json()["status"] == "ready"
        listed = {t["id"] for t in httpx.get(f"{s2.url}/api/tables").json()}
        assert listed == set(ids)
        for t in ids:  # each table resumes exactly where the backup left it
            assert httpx.get(f"{s2.url}/api/tables/{t}").json()["version"] == in_backup.get(t, 0)
    finally:
        s2.stop()


def test_restore_refuses_a_file_that_is_not_a_backup_and_a_database_in_place(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    target = tmp_path / "t.db"
    r = subprocess.run([*HEGEMON, "restore", str(junk), "--db", f"sqlite:///{target}"],
                       capture_output=True, text=True, timeout=60)  # fmt: skip
    assert r.returncode == 2 and "not a readable SQLite database" in r.stderr, r.stderr
    assert not target.exists()
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE x (a)").connection.commit()
    r = subprocess.run([*HEGEMON, "restore", str(other), "--db", f"sqlite:///{target}"],
                       capture_output=True, text=True, timeout=60)  # fmt: skip
    assert r.returncode == 2 and "not a hegemon database" in r.stderr, r.stderr
    target.write_bytes(b"precious")
    good = tmp_path / "good.db"
    from hegemon.server.storage import SqlStorage

    SqlStorage(f"sqlite:///{good}").close()  # an empty hegemon database
    r = subprocess.run([*HEGEMON, "restore", str(good), "--db", f"sqlite:///{target}"],
                       capture_output=True, text=True, timeout=60)  # fmt: skip
    assert r.returncode == 2 and "--force" in r.stderr, r.stderr
    assert target.read_bytes() == b"precious"


def test_backup_says_postgresql_has_pg_dump(tmp_path: Path) -> None:
    r = subprocess.run([*HEGEMON, "backup", str(tmp_path / "b.db"), "--db", "postgresql://u@localhost/x"],
                       capture_output=True, text=True, timeout=60)  # fmt: skip
    assert r.returncode == 2 and "pg_dump" in r.stderr, r.stderr


def test_a_log_destination_that_stops_reading_never_blocks_the_caller() -> None:
    """A pipe nobody reads fills after ~64 KB; logging through the queue keeps returning and counts the drops."""
    import logging
    import os
    import threading

    from hegemon.server import ops

    names = ("hegemon", "uvicorn", "uvicorn.error", "uvicorn.access")
    root = logging.getLogger()
    saved = (list(root.handlers), root.level, {n: logging.getLogger(n).level for n in names})
    r, w = os.pipe()
    stream = os.fdopen(w, "w", buffering=1)
    before = ops.DroppingQueueHandler.dropped
    ops.configure_logging("info", "json", stream=stream, capacity=100)
    log = logging.getLogger("hegemon.test")
    done = threading.Event()

    def spam() -> None:
        for i in range(20_000):
            log.info("line %d %s", i, "x" * 200)
        done.set()

    t = threading.Thread(target=spam, daemon=True)
    t.start()
    t.join(timeout=60)
    try:
        assert done.is_set(), "logging blocked on a full pipe"
        assert ops.DroppingQueueHandler.dropped > before
    finally:
        raising, logging.raiseExceptions = logging.raiseExceptions, False  # the broken pipe below is expected
        os.close(r)  # the writer thread's blocked write fails now and it can stop
        ops._stop_listener()
        logging.raiseExceptions = raising
        handlers, level, levels = saved  # this process's logging as it was
        root.handlers[:] = handlers
        root.setLevel(level)
        for n, lv in levels.items():
            logging.getLogger(n).setLevel(lv)
