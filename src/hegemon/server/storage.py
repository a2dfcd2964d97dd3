"""Durable storage of tables: one row per table and one append-only row per accepted action (SQLAlchemy 2
Core; SQLite in WAL mode by default, PostgreSQL by URL). Every write is committed before the caller
broadcasts, so an acknowledged action survives a crash. `MemoryStorage` keeps nothing (tests, benchmarks)."""

from __future__ import annotations

import abc
import asyncio
import contextlib
import json
import queue
import sys
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    Connection,
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
    make_url,
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

secrets_t = Table(
    "table_secrets",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("salt", String(64), nullable=False),
)
"""Per-table salt of the chance draws (never sent to a client): even whoever chose the seed cannot foresee a
die or a card."""

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
    salt: str = ""


class Storage(Protocol):
    def create_table(self, t: StoredTable) -> None: ...
    def append_action(self, table_id: str, idx: int, action: dict[str, Any], actor: int, note: str) -> None: ...
    def update_table(self, table_id: str, *, seats: list[dict[str, Any]] | None = None, status: str | None = None) -> None: ...
    def after_commit(self, callback: Callable[[], None]) -> None: ...
    def load_all(self) -> list[StoredTable]: ...
    def close(self) -> None: ...


class MemoryStorage:
    """Keeps nothing: tables live as long as the process."""

    def create_table(self, t: StoredTable) -> None:
        """Nothing to store: in memory the table manager already holds every table."""
        return None

    def append_action(self, table_id: str, idx: int, action: dict[str, Any], actor: int, note: str) -> None:
        """Nothing to store: the in-memory table already holds its action log."""
        return None

    def update_table(self, table_id: str, *, seats: list[dict[str, Any]] | None = None, status: str | None = None) -> None:
        """Nothing to store: the in-memory table already holds its seats and status."""
        return None

    def after_commit(self, callback: Callable[[], None]) -> None:
        callback()

    def load_all(self) -> list[StoredTable]:
        return []

    def close(self) -> None:
        """Nothing to close: no connection is held."""
        return None


SYNC_LEVELS = ("full", "normal")


def _sqlite_pragmas(sync: str) -> Callable[[Any, Any], None]:
    def on_connect(dbapi_conn: Any, _record: Any) -> None:
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        # FULL (default): the WAL is synced to disk at every commit, so an acknowledged action survives a power
        # cut too. NORMAL: it survives a crash of the server process, not of the machine.
        cur.execute(f"PRAGMA synchronous={sync.upper()}")
        cur.execute("PRAGMA busy_timeout=5000")
        cur.close()

    return on_connect


Write = tuple[str, Any]
"""A pending write: ("table", StoredTable) | ("action", row dict) | ("update", (table_id, values))."""


class SqlStorage:
    """Tables and actions in a SQL database. Each call is one transaction, committed before it returns;
    `write_batch` commits many writes in one transaction (used by `GroupCommit`)."""

    def __init__(self, url: str) -> None:
        """`url`: any SQLAlchemy URL; SQLite accepts `?synchronous=full|normal` (default full)."""
        self.url = url
        u = make_url(url)
        self.sync = str(u.query.get("synchronous", "full")).lower()
        if self.sync not in SYNC_LEVELS:
            raise ValueError(f"synchronous must be one of {', '.join(SYNC_LEVELS)}, not {self.sync!r}")
        u = u.difference_update_query(["synchronous"])
        if u.drivername == "postgresql":  # the driver this project installs (the `postgres` extra): psycopg 3
            u = u.set(drivername="postgresql+psycopg")
        args = {"check_same_thread": False} if u.get_backend_name() == "sqlite" else {}
        self.engine: Engine = create_engine(u, connect_args=args)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas(self.sync))
        metadata.create_all(self.engine)
        self._conn: Connection | None = None
        # the action insert, compiled once for this database: rows go to the driver as they are (the per-move
        # write is the hot path; SQLAlchemy's statement cache would still build a cache key per execution)
        compiled = insert(actions_t).compile(dialect=self.engine.dialect)
        self._insert_sql = str(compiled)
        self._insert_keys = tuple(compiled.positiontup or ()) if compiled.positional else None

    @property
    def conn(self) -> Connection:
        if self._conn is None:
            self._conn = self.engine.connect()
        return self._conn

    def write_batch(self, writes: list[Write]) -> None:
        """Every write in order, in one transaction (one commit, one sync of the log)."""
        conn = self.conn
        with conn.begin():
            rows: list[dict[str, Any]] = []
            for kind, data in writes:
                if kind == "action":
                    rows.append(data)
                    continue
                if rows:
                    self._insert_actions(conn, rows)
                    rows = []
                if kind == "table":
                    t = data
                    conn.execute(
                        insert(tables_t).values(
                            id=t.id, game=t.game, game_version=t.game_version, options=t.options, seed=t.seed,
                            seats=t.seats, created=t.created, turn_timer=t.turn_timer, status=t.status,
                        )
                    )  # fmt: skip
                    conn.execute(insert(secrets_t).values(table_id=t.id, salt=t.salt))
                elif kind == "update":
                    tid, values = data
                    conn.execute(update(tables_t).where(tables_t.c.id == tid).values(**values))
            if rows:
                self._insert_actions(conn, rows)

    def _insert_actions(self, conn: Connection, rows: list[dict[str, Any]]) -> None:
        keys = self._insert_keys
        params: Any = rows if keys is None else [tuple(r[k] for k in keys) for r in rows]
        conn.exec_driver_sql(self._insert_sql, params if len(params) > 1 else params[0])

    def create_table(self, t: StoredTable) -> None:
        self.write_batch([("table", t)])

    def append_action(self, table_id: str, idx: int, action: dict[str, Any], actor: int, note: str) -> None:
        self.write_batch([("action", _row(table_id, idx, action, actor, note))])

    def update_table(self, table_id: str, *, seats: list[dict[str, Any]] | None = None, status: str | None = None) -> None:
        values = _values(seats, status)
        if values:
            self.write_batch([("update", (table_id, values))])

    def after_commit(self, callback: Callable[[], None]) -> None:
        callback()

    def load_all(self) -> list[StoredTable]:
        out: dict[str, StoredTable] = {}
        with self.engine.connect() as conn:
            for r in conn.execute(select(tables_t).order_by(tables_t.c.created)):
                out[r.id] = StoredTable(
                    r.id, r.game, r.game_version, dict(r.options), int(r.seed), list(r.seats), r.created,
                    r.turn_timer, r.status,
                )  # fmt: skip
            for tid, salt in conn.execute(select(secrets_t.c.table_id, secrets_t.c.salt)):
                if tid in out:
                    out[tid].salt = salt
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
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self.engine.dispose()


def _row(table_id: str, idx: int, action: dict[str, Any], actor: int, note: str) -> dict[str, Any]:
    return {"table_id": table_id, "idx": idx, "action": json.dumps(action), "actor": actor, "note": note}


def _values(seats: list[dict[str, Any]] | None, status: str | None) -> dict[str, Any]:
    values: dict[str, Any] = {}
    if seats is not None:
        values["seats"] = seats
    if status is not None:
        values["status"] = status
    return values


class QueuedWrites(abc.ABC):
    """Writes queued for a commit strategy (`_put`), acknowledged through `after_commit` callbacks once
    committed; subclasses decide where and when the commit happens. `failed` holds the error of a failed commit:
    nothing is acknowledged after it and the table manager accepts no more actions."""

    def __init__(self, inner: SqlStorage) -> None:
        self.inner = inner
        self.loop: asyncio.AbstractEventLoop | None = None
        self.failed: BaseException | None = None

    @abc.abstractmethod
    def _put(self, item: tuple[str, Any]) -> None:
        """Queue one write or callback for the next commit."""

    def create_table(self, t: StoredTable) -> None:
        self._put(("table", t))

    def append_action(self, table_id: str, idx: int, action: dict[str, Any], actor: int, note: str) -> None:
        self._put(("action", _row(table_id, idx, action, actor, note)))

    def update_table(self, table_id: str, *, seats: list[dict[str, Any]] | None = None, status: str | None = None) -> None:
        values = _values(seats, status)
        if values:
            self._put(("update", (table_id, values)))

    def after_commit(self, callback: Callable[[], None]) -> None:
        """Run `callback` on the event loop once every write queued before it is committed (writes queued
        before `start` are committed when the strategy starts)."""
        self._put(("callback", callback))

    def load_all(self) -> list[StoredTable]:
        return self.inner.load_all()

    def _commit(self, batch: list[tuple[str, Any]]) -> bool:
        """Commit the writes of `batch` in one transaction; False (and `failed` set, the error printed) if the
        commit failed."""
        writes = [x for x in batch if x[0] != "callback"]
        if writes:
            try:
                self.inner.write_batch(writes)
            except Exception as e:  # nothing is acknowledged after a failed write: say so and stop
                self.failed = e
                traceback.print_exc()
                print("hegemon: the database write failed; no further action is accepted", file=sys.stderr)
                return False
        return True


class GroupCommit(QueuedWrites):
    """Durable writes off the event loop (for databases behind a network, e.g. PostgreSQL): one writer thread
    commits everything queued so far in one transaction, then runs the `after_commit` callbacks queued before
    that point on the event loop. Nobody hears of an action before its commit (callbacks are the broadcasts),
    and many tables share one commit. Reading (`load_all`) happens at start-up, before the writer starts."""

    def __init__(self, inner: SqlStorage) -> None:
        super().__init__(inner)
        self.queue: queue.SimpleQueue[tuple[str, Any] | None] = queue.SimpleQueue()
        self.thread: threading.Thread | None = None

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.thread = threading.Thread(target=self._run, name="hegemon-writer", daemon=True)
        self.thread.start()

    def _put(self, item: tuple[str, Any]) -> None:
        self.queue.put(item)

    def _run(self) -> None:
        while True:
            item = self.queue.get()
            batch = [item]
            with contextlib.suppress(queue.Empty):
                while len(batch) < 5000:
                    batch.append(self.queue.get_nowait())
            stop = any(x is None for x in batch)
            items = [x for x in batch if x is not None]
            if not self._commit(items):
                return
            assert self.loop is not None
            for kind, cb in items:
                if kind == "callback":
                    self.loop.call_soon_threadsafe(cb)
            if stop:
                return

    def close(self) -> None:
        if self.thread is not None:
            self.queue.put(None)
            self.thread.join(timeout=30)
            self.thread = None
        self.inner.close()


class LoopCommit(QueuedWrites):
    """Durable writes on the event loop (for SQLite): everything queued during one turn of the loop is
    committed in one transaction at the end of that turn (`call_soon`), then the `after_commit` callbacks
    queued with it run. No thread hand-off, so a lone move pays only its own sync, and many tables still share
    one sync of the log."""

    def __init__(self, inner: SqlStorage) -> None:
        super().__init__(inner)
        self.pending: list[tuple[str, Any]] = []
        self._scheduled = False

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._schedule()

    def _put(self, item: tuple[str, Any]) -> None:
        self.pending.append(item)
        self._schedule()

    def _schedule(self) -> None:
        if not self._scheduled and self.loop is not None and self.pending:
            self._scheduled = True
            self.loop.call_soon(self.flush)

    def flush(self) -> None:
        """Commit everything pending, then run the callbacks queued with it."""
        self._scheduled = False
        batch, self.pending = self.pending, []
        if self.failed is not None or not self._commit(batch):
            return
        for kind, cb in batch:
            if kind == "callback":
                cb()

    def close(self) -> None:
        self.flush()
        self.inner.close()
