"""The web table's storage on a real PostgreSQL server (Debian's package, started by the `postgres` fixture):
tables and actions round-trip, a restart rebuilds every table exactly, and a plain `postgresql://` URL uses the
psycopg 3 driver."""

from __future__ import annotations

import random
import socket
import subprocess
import sys
import time

from hegemon.core.record import state_digest
from hegemon.server.storage import SqlStorage, StoredTable
from hegemon.server.tables import TableManager
from tests.pgserver import PostgresServer
from tests.server.conftest import new_table, play_random


def test_a_plain_postgresql_url_uses_psycopg_3(pg_url: str) -> None:
    plain = pg_url.replace("postgresql+psycopg://", "postgresql://")
    s = SqlStorage(plain)
    try:
        assert s.engine.dialect.name == "postgresql"
        assert s.engine.dialect.driver == "psycopg"
    finally:
        s.close()


def test_tables_and_actions_round_trip(pg_url: str) -> None:
    s = SqlStorage(pg_url)
    try:
        s.create_table(
            StoredTable(
                "abc",
                "spqrisiko",
                1,
                {"players": 3},
                5,
                [{"kind": "human"}],
                1.5,
                30,
                "playing",
                salt="pepper",
            )
        )
        s.append_action("abc", 0, {"kind": "x"}, 0, "")
        s.append_action("abc", 1, {"kind": "y"}, -1, "auto")
        s.update_table("abc", status="finished")
        (t,) = s.load_all()
        assert (t.id, t.status, t.salt, t.turn_timer, t.seed) == ("abc", "finished", "pepper", 30, 5)
        assert t.actions == [({"kind": "x"}, 0, ""), ({"kind": "y"}, -1, "auto")]
    finally:
        s.close()


def test_a_restart_on_postgresql_keeps_every_table_exactly(pg_url: str) -> None:
    m1 = TableManager(SqlStorage(pg_url), salt=lambda: "pepper")
    a = new_table(m1, seed=21)
    b = new_table(m1, game="polis", n=2, seed=22)
    play_random(m1, a, 120, random.Random(1))
    play_random(m1, b, 30, random.Random(2))
    snap = {t.id: (t.version, state_digest(t.state), [s.token for s in t.seats], t.status) for t in (a, b)}
    m1.storage.close()

    m2 = TableManager(SqlStorage(pg_url))
    try:
        assert m2.load() == 2
        for tid, (v, d, toks, status) in snap.items():
            t = m2.get(tid)
            assert (t.version, state_digest(t.state), [s.token for s in t.seats], t.status) == (
                v,
                d,
                toks,
                status,
            )
    finally:
        m2.storage.close()


def test_serve_says_clearly_when_postgresql_cannot_be_reached_or_refuses_the_user(
    postgres: PostgresServer,
) -> None:
    closed = _closed_port()
    cases = {
        f"postgresql://someone:s3cret@127.0.0.1:{closed}/tables": "cannot use the database",
        f"postgresql://nobody:s3cret@127.0.0.1:{postgres.port}/postgres": 'role "nobody" does not exist',
    }
    for url, said in cases.items():
        r = subprocess.run(
            [sys.executable, "-m", "hegemon.cli", "serve", "--port", str(_closed_port()), "--db", url],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        out = " ".join((r.stdout + r.stderr).split())
        assert r.returncode == 2, out
        assert said in out and "Traceback" not in out
        assert "s3cret" not in out  # the password is never printed


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_on_postgresql_creates_its_schema_and_keeps_tables_across_a_restart(pg_url: str) -> None:
    import httpx

    url = pg_url.replace("postgresql+psycopg://", "postgresql://")

    def serve() -> tuple[subprocess.Popen[bytes], str]:
        port = _closed_port()
        proc = subprocess.Popen(
            [sys.executable, "-m", "hegemon.cli", "serve", "--port", str(port), "--db", url, "--bot-delay", "0", "--log-level", "warning"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        base = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                if httpx.get(f"{base}/api/games", timeout=1).status_code == 200:
                    return proc, base
            except httpx.HTTPError:
                time.sleep(0.1)
        proc.kill()
        raise AssertionError(
            "the server did not start: " + (proc.stderr.read().decode() if proc.stderr else "")
        )

    proc, base = serve()
    try:
        r = httpx.post(
            f"{base}/api/tables", json={"game": "polis", "seats": [{"bot": "random"}, {"bot": "random"}]}
        )
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        for _ in range(100):  # the bots play on their own
            if httpx.get(f"{base}/api/tables/{tid}").json()["version"] > 5:
                break
            time.sleep(0.1)
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    proc, base = serve()
    try:
        detail = httpx.get(f"{base}/api/tables/{tid}")
        assert detail.status_code == 200 and detail.json()["version"] > 5
    finally:
        proc.terminate()
        proc.wait(timeout=20)
