"""Durable storage of tables: one row per table and one append-only row per accepted action (SQLAlchemy 2
Core; SQLite in WAL mode by default, PostgreSQL by URL). Every write is committed before the caller
broadcasts, so an acknowledged action survives a crash. `MemoryStorage` keeps nothing (tests, benchmarks)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    Engine,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
    update,
)

metadata = MetaData()

tables_t = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("game_version", Integer, nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("seats", JSON, nullable=False),
    Column("created", Float, nullable=False),
    Column("turn_timer", Integer, nullable=True),
    Column("status", String(16), nullable=False),
)

actions_t = Table(
    "actions",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("action", Text, nullable=False),
    Column("actor", Integer, nullable=False),
    Column("note", String(32), nullable=False, default=""),
)


@dataclass
class StoredTable:
    """A table as stored: its creation data and its actions in order, as (action JSON, actor, note)."""

    id: str
    game: str
    game_version: int
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    created: float
    turn_timer: int | None
    status: str
    actions: list[tuple[dict[str, Any], int, str]] = field(default_factory=list)


class Storage(Protocol):
    def create_table(self, t: StoredTable) -> None: ...
    def append_action(self, table_id: str, idx: int, action: dict[str, Any], actor: int, note: str) -> None: ...
    def update_table(self, table_id: str, *, seats: list[dict[str, Any]] | None = None, status: str | None = None) -> None: ...
    def load_all(self) -> list[StoredTable]: ...
    def close(self) -> None: ...


class MemoryStorage:
    """Keeps nothing: tables live as long as the process."""

    def create_table(self, t: StoredTable) -> None:
        pass

    def append_action(self, table_id: str, idx: int, action: dict[str, Any], actor: int, note: str) -> None:
        pass

    def update_table(self, table_id: str, *, seats: list[dict[str, Any]] | None = None, status: str | None = None) -> None:
        pass

    def load_all(self) -> list[StoredTable]:
        return []

    def close(self) -> None:
        pass


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    # FULL: the WAL is synced at every commit, so an acknowledged action survives a power cut too.
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


class SqlStorage:
    """Tables and actions in a SQL database. One short transaction per write, committed before returning."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: Engine = create_engine(url, future=True)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)
        self._conn = self.engine.connect()
        self._insert_action = insert(actions_t)

    def create_table(self, t: StoredTable) -> None:
        with self._conn.begin():
            self._conn.execute(
                insert(tables_t).values(
                    id=t.id,
                    game=t.game,
                    game_version=t.game_version,
                    options=t.options,
                    seed=t.seed,
                    seats=t.seats,
                    created=t.created,
                    turn_timer=t.turn_timer,
                    status=t.status,
                )
            )

    def append_action(self, table_id: str, idx: int, action: dict[str, Any], actor: int, note: str) -> None:
        with self._conn.begin():
            self._conn.execute(
                self._insert_action,
                {"table_id": table_id, "idx": idx, "action": json.dumps(action), "actor": actor, "note": note},
            )

    def update_table(self, table_id: str, *, seats: list[dict[str, Any]] | None = None, status: str | None = None) -> None:
        values: dict[str, Any] = {}
        if seats is not None:
            values["seats"] = seats
        if status is not None:
            values["status"] = status
        if values:
            with self._conn.begin():
                self._conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(**values))

    def load_all(self) -> list[StoredTable]:
        out: dict[str, StoredTable] = {}
        with self.engine.connect() as conn:
            for r in conn.execute(select(tables_t).order_by(tables_t.c.created)):
                out[r.id] = StoredTable(
                    r.id, r.game, r.game_version, dict(r.options), int(r.seed), list(r.seats), r.created,
                    r.turn_timer, r.status,
                )  # fmt: skip
            rows = conn.execute(
                select(actions_t.c.table_id, actions_t.c.idx, actions_t.c.action, actions_t.c.actor, actions_t.c.note)
                .order_by(actions_t.c.table_id, actions_t.c.idx)
            )
            for tid, idx, action, actor, note in rows:
                t = out.get(tid)
                if t is not None and idx == len(t.actions):
                    t.actions.append((json.loads(action), actor, note or ""))
        return list(out.values())

    def close(self) -> None:
        self._conn.close()
        self.engine.dispose()
