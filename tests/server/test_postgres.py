"""The web table's storage on a real PostgreSQL server (Debian's package, started by the `postgres` fixture):
tables and actions round-trip, a restart rebuilds every table exactly, and a plain `postgresql://` URL uses the
psycopg 3 driver."""

from __future__ import annotations

import random

from hegemon.core.record import state_digest
from hegemon.server.storage import SqlStorage, StoredTable
from hegemon.server.tables import TableManager
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
        s.create_table(StoredTable("abc", "spqrisiko", 1, {"players": 3}, 5, [{"kind": "human"}], 1.5, 30, "playing", salt="pepper"))
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
            assert (t.version, state_digest(t.state), [s.token for s in t.seats], t.status) == (v, d, toks, status)
    finally:
        m2.storage.close()
