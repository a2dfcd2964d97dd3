"""Durable storage of tables: one row per table and one append-only row per accepted action (SQLAlchemy 2
Core; SQLite in WAL mode by default, PostgreSQL by URL). Every write is committed before the caller
broadcasts, so an acknowledged action survives a crash. `MemoryStorage` keeps nothing (tests, benchmarks)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import secrets
import threading
import time
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
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    func,
    insert,
    make_url,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError, NoSuchModuleError, OperationalError

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
    Column("seats_version", Integer, nullable=False, server_default="0"),
    Column("ended", Float, nullable=True),  # wall clock of the end (finished or stopped; migration 0004)
    Column("undo", String(8), nullable=False, server_default="off"),  # off | agree | always (migration 0005)
    Index("tables_status", "status"),
)
ENDED = ("finished", "stopped")
"""The statuses of a table that ended: such tables are loaded only when asked for, and expire from the database."""

secrets_t = Table(
    "table_secrets",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("salt", String(64), nullable=False),
)
"""Per-table salt of the chance draws (never sent to a client): even whoever chose the seed cannot foresee a
die or a card."""

owners_t = Table(
    "table_owners",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("creator", String(64), nullable=False),
)
"""The creator token of a table (given only to whoever created it): it may stop or delete the table. A table
of its own (migration 0002)."""

actions_t = Table(
    "actions",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("action", Text, nullable=False),
    Column("actor", Integer, nullable=False),
    Column("note", String(32), nullable=False, default=""),
)
"""A row of note "undo" is an undo (migration-free: its action is {"undo": first}, the first log index it takes
back); the rows it takes back stay stored, so versions in the database only ever grow."""

chat_t = Table(
    "table_chat",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
    Index("table_chat_table", "table_id", "id"),
)
"""The table chat: what the seated players typed (migration 0005). A global id orders the lines (two processes
never pick the same one); each insert trims its table to the newest `keep` lines."""


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
    creator: str = ""
    seats_version: int = 0
    ended: float | None = None
    undo: str = "off"
    chat: list[dict[str, Any]] = field(default_factory=list)
    """The newest chat lines, oldest first: {"id", "seat", "name", "text", "at"}."""


class Storage(Protocol):
    def create_table(self, t: StoredTable) -> None: ...
    def append_chat(self, table_id: str, line: dict[str, Any], keep: int) -> None: ...
    def append_action(
        self, table_id: str, idx: int, action: dict[str, Any], actor: int, note: str
    ) -> None: ...
    def update_table(
        self,
        table_id: str,
        *,
        seats: list[dict[str, Any]] | None = None,
        status: str | None = None,
        seats_version: int | None = None,
        ended: float | None = None,
    ) -> None: ...
    def delete_table(self, table_id: str) -> None: ...
    def after_commit(
        self,
        callback: Callable[[], None],
        table: str | None = None,
        on_fail: Callable[[str], None] | None = None,
    ) -> None: ...
    def load_all(self) -> list[StoredTable]: ...
    def load_live(self) -> list[StoredTable]: ...
    def load_one(self, table_id: str) -> StoredTable | None: ...
    def close(self) -> None: ...


class MemoryStorage:
    """Keeps nothing: tables live as long as the process."""

    def create_table(self, t: StoredTable) -> None:
        """Nothing to store: in memory the table manager already holds every table."""
        return None

    def append_action(self, table_id: str, idx: int, action: dict[str, Any], actor: int, note: str) -> None:
        """Nothing to store: the in-memory table already holds its action log."""
        return None

    def append_chat(self, table_id: str, line: dict[str, Any], keep: int) -> None:
        """Nothing to store: the in-memory table already holds its chat."""
        return None

    def update_table(
        self,
        table_id: str,
        *,
        seats: list[dict[str, Any]] | None = None,
        status: str | None = None,
        seats_version: int | None = None,
        ended: float | None = None,
    ) -> None:
        """Nothing to store: the in-memory table already holds its seats and status."""
        return None

    def delete_table(self, table_id: str) -> None:
        """Nothing to delete: the table manager drops the table from memory."""
        return None

    def after_commit(
        self,
        callback: Callable[[], None],
        table: str | None = None,
        on_fail: Callable[[str], None] | None = None,
    ) -> None:
        callback()

    def load_all(self) -> list[StoredTable]:
        return []

    def load_live(self) -> list[StoredTable]:
        return []

    def load_one(self, table_id: str) -> StoredTable | None:
        """Nothing stored: a table not in memory does not exist."""
        return None

    def close(self) -> None:
        """Nothing to close: no connection is held."""
        return None


SYNC_LEVELS = ("full", "normal")


def _sqlite_pragmas(sync: str) -> Callable[[Any, Any], None]:
    """WAL, the sync level, and a busy timeout for readers (the committing connection sets its own: 0 on the
    event loop, short in the writer thread, which retries with backoff)."""

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
"""A pending write: ("table", StoredTable) | ("action", row dict) | ("update", (table_id, values)) |
("delete", table_id) | ("chat", (row dict, keep, the line in memory: it gets its id))."""

TRANSIENT = (OperationalError,)
"""Errors worth retrying: the database is locked, busy, unreachable, out of space. Any other error of a write
(a broken constraint) will not heal by waiting."""


SHUTDOWN_GRACE = 5.0
"""Seconds a shutting-down server (SIGTERM) still retries writes the database refuses (`QueuedWrites.stop_soon`);
then the requests waiting on them are answered 503."""


CHANNEL = "hegemon_tables"
"""The PostgreSQL notification channel: every commit that touches a table sends "<origin> <table id>" on it, so
the other server processes catch up (see `hegemon.server.cluster`)."""
StoredAction = tuple[dict[str, Any], int, str]
"""An action as stored: (action JSON, actor, note)."""
CONFLICT = "another server process changed this table first"
"""The reason given when a write is refused because another process changed the table meanwhile: its (table,
version) is taken, its seats changed, or it was stopped or deleted. The table catches up from the database."""

SEATS_EXPECT = "_seats_version"
"""Key of an update's values: the seats version the new seats were made on (not a column)."""


class SeatsChanged(Exception):
    """Another process changed a table's seats since this process read them."""


class TableClosed(Exception):
    """Another process stopped or deleted a table this process still stores moves of."""


CONNECT_TIMEOUT = 10
"""Seconds to wait for a PostgreSQL server to answer a new connection."""


class DatabaseUnavailable(RuntimeError):
    """The database cannot be reached, refuses the credentials, or has no driver here (said at start-up, with
    the URL shown without its password)."""


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
        args: dict[str, Any] = {"check_same_thread": False} if u.get_backend_name() == "sqlite" else {}
        if u.get_backend_name() == "postgresql":
            args["connect_timeout"] = CONNECT_TIMEOUT
        shown = u.render_as_string(hide_password=True)
        try:
            self.engine: Engine = create_engine(u, connect_args=args, pool_pre_ping=True)
        except (ModuleNotFoundError, NoSuchModuleError) as e:
            extra = (
                " (install it with: pip install 'hegemon[postgres]')" if "postgres" in u.drivername else ""
            )
            raise DatabaseUnavailable(f"no driver for the database {shown}: {e}{extra}") from None
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas(self.sync))
        from hegemon.server.migrate import migrate

        try:
            migrate(self.engine)
        except OperationalError as e:
            self.engine.dispose()
            reason = str(e.orig).strip().splitlines()[0] if e.orig is not None else str(e)
            raise DatabaseUnavailable(f"cannot use the database {shown}: {reason}") from None
        self._conn: Connection | None = None
        self._busy_ms: int | None = None
        self.actions_stored = 0
        """Actions this object has committed (the metrics' hegemon_actions_stored_total)."""
        self.origin = secrets.token_hex(6)
        """This process's name in the notifications it sends (it ignores its own)."""
        self.notify = self.engine.dialect.name == "postgresql"
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

    def reset(self) -> None:
        """Drop the committing connection (after an error: the next write opens a fresh one)."""
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()
            self._conn = None
            self._busy_ms = None

    def write_batch(self, writes: list[Write], busy_ms: int | None = None) -> None:
        """Every write in order, in one transaction (one commit, one sync of the log). `busy_ms`: how long
        SQLite waits for a lock held by another connection before it gives up (None: as connected)."""
        conn = self.conn
        if busy_ms is not None and busy_ms != self._busy_ms and self.engine.dialect.name == "sqlite":
            conn.exec_driver_sql(f"PRAGMA busy_timeout={int(busy_ms)}")
            conn.commit()
            self._busy_ms = busy_ms
        stored = 0
        with conn.begin():
            if self.notify:
                self._lock_tables(conn, writes)
            rows: list[dict[str, Any]] = []
            for kind, data in writes:
                if kind == "action":
                    rows.append(data)
                    stored += 1
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
                            undo=t.undo,
                        )
                    )  # fmt: skip
                    conn.execute(insert(secrets_t).values(table_id=t.id, salt=t.salt))
                    if t.creator:
                        conn.execute(insert(owners_t).values(table_id=t.id, creator=t.creator))
                elif kind == "delete":  # the table's row first: a writer holding its lock finishes before
                    for tab in (tables_t, actions_t, secrets_t, owners_t, chat_t):
                        col = tab.c.id if tab is tables_t else tab.c.table_id
                        conn.execute(delete(tab).where(col == data))
                elif kind == "chat":
                    self._insert_chat(conn, *data)
                elif kind == "update":
                    tid, values = data
                    values = dict(values)
                    expect = values.pop(SEATS_EXPECT, None)
                    q = update(tables_t).where(tables_t.c.id == tid)
                    if expect is not None:  # the seats as this process knew them: not changed meanwhile
                        q = q.where(tables_t.c.seats_version == expect)
                        values["seats_version"] = expect + 1
                    if conn.execute(q.values(**values)).rowcount == 0 and expect is not None:
                        raise IntegrityError("UPDATE tables SET seats", None, SeatsChanged(tid))
            if rows:
                self._insert_actions(conn, rows)
            if self.notify:  # delivered to the other processes when (and only if) this transaction commits
                for tid in dict.fromkeys(str(_table_of(w)) for w in writes):
                    conn.exec_driver_sql("SELECT pg_notify(%s, %s)", (CHANNEL, f"{self.origin} {tid}"))
        self.actions_stored += stored  # committed (one thread commits at a time: the loop or the writer)

    @staticmethod
    def _lock_tables(conn: Connection, writes: list[Write]) -> None:
        """PostgreSQL, several processes: lock the rows of the tables this transaction writes to (in id order, so
        two transactions never wait on each other), and refuse (`TableClosed`, as a conflict) the moves of a table
        that another process stopped or deleted: once a stop or a delete is committed, nothing more of the table
        is. The lock makes a stop or a delete wait for a transaction under way, or that transaction wait for it."""
        made = {str(data.id) for kind, data in writes if kind == "table"}
        touched = sorted({str(_table_of(w)) for w in writes} - made)
        if not touched:
            return
        q = (
            select(tables_t.c.id, tables_t.c.status)
            .where(tables_t.c.id.in_(touched))
            .order_by(tables_t.c.id)
            .with_for_update(key_share=True)  # FOR NO KEY UPDATE
        )
        status = {tid: st for tid, st in conn.execute(q)}
        for tid in {data["table_id"] for kind, data in writes if kind == "action"} - made:
            if status.get(tid, "deleted") in ("stopped", "deleted"):
                raise IntegrityError("INSERT INTO actions", None, TableClosed(tid))

    @staticmethod
    def _insert_chat(conn: Connection, row: dict[str, Any], keep: int, line: dict[str, Any]) -> None:
        """One chat line (`line`, in memory, gets its id), then its table trimmed to its newest `keep` lines (a
        bounded cost per line)."""
        line["id"] = int(conn.execute(insert(chat_t).values(**row).returning(chat_t.c.id)).scalar_one())
        tid = row["table_id"]
        newest = select(chat_t.c.id).where(chat_t.c.table_id == tid).order_by(chat_t.c.id.desc()).limit(keep)
        oldest_kept = select(func.min(newest.subquery().c.id)).scalar_subquery()
        conn.execute(delete(chat_t).where(chat_t.c.table_id == tid, chat_t.c.id < oldest_kept))

    def _insert_actions(self, conn: Connection, rows: list[dict[str, Any]]) -> None:
        keys = self._insert_keys
        params: Any = rows if keys is None else [tuple(r[k] for k in keys) for r in rows]
        conn.exec_driver_sql(self._insert_sql, params if len(params) > 1 else params[0])

    def create_table(self, t: StoredTable) -> None:
        self.write_batch([("table", t)])

    def append_action(self, table_id: str, idx: int, action: dict[str, Any], actor: int, note: str) -> None:
        self.write_batch([("action", _row(table_id, idx, action, actor, note))])

    def append_chat(self, table_id: str, line: dict[str, Any], keep: int) -> None:
        self.write_batch([("chat", (_chat_row(table_id, line), keep, line))])

    def update_table(
        self,
        table_id: str,
        *,
        seats: list[dict[str, Any]] | None = None,
        status: str | None = None,
        seats_version: int | None = None,
        ended: float | None = None,
    ) -> None:
        """Store a table's seats (made on stored seats version `seats_version`: refused as a conflict if
        another process changed them since) and/or its status (and when it `ended`)."""
        values = _values(seats, status, seats_version, ended)
        if values:
            self.write_batch([("update", (table_id, values))])

    def delete_table(self, table_id: str) -> None:
        self.write_batch([("delete", table_id)])

    def after_commit(
        self,
        callback: Callable[[], None],
        table: str | None = None,
        on_fail: Callable[[str], None] | None = None,
    ) -> None:
        callback()

    def load_all(self) -> list[StoredTable]:
        return self.load()

    def load_live(self) -> list[StoredTable]:
        """Every table that has not ended (neither finished nor stopped), with its actions: what a server
        starting up must have in memory (ended ones are loaded when asked for, `load_one`)."""
        return self.load(live=True)

    def load_one(self, table_id: str) -> StoredTable | None:
        """One stored table with its actions (None: no such table)."""
        found = self.load(table_id)
        return found[0] if found else None

    def load(self, table_id: str | None = None, *, live: bool = False) -> list[StoredTable]:
        """Every stored table (`live`: those not ended), or the one with `table_id`, with their actions in
        order."""
        out: dict[str, StoredTable] = {}
        live_ids = select(tables_t.c.id).where(tables_t.c.status.not_in(ENDED))

        def only(col: Any, q: Any) -> Any:
            if live:
                q = q.where(col.in_(live_ids))
            return q if table_id is None else q.where(col == table_id)

        with self.engine.connect() as conn:
            for r in conn.execute(only(tables_t.c.id, select(tables_t).order_by(tables_t.c.created))):
                out[r.id] = StoredTable(
                    r.id, r.game, r.game_version, dict(r.options), int(r.seed), list(r.seats), r.created,
                    r.turn_timer, r.status, seats_version=r.seats_version, ended=r.ended, undo=r.undo or "off",
                )  # fmt: skip
            for line in conn.execute(only(chat_t.c.table_id, select(chat_t).order_by(chat_t.c.id))):
                if line.table_id in out:
                    out[line.table_id].chat.append(_chat_line(line))
            for tid, salt in conn.execute(
                only(secrets_t.c.table_id, select(secrets_t.c.table_id, secrets_t.c.salt))
            ):
                if tid in out:
                    out[tid].salt = salt
            q = select(owners_t.c.table_id, owners_t.c.creator)
            for tid, creator in conn.execute(only(owners_t.c.table_id, q)):
                if tid in out:
                    out[tid].creator = creator
            rows = conn.execute(
                only(actions_t.c.table_id, select(
                    actions_t.c.table_id, actions_t.c.idx, actions_t.c.action, actions_t.c.actor, actions_t.c.note
                ).order_by(actions_t.c.table_id, actions_t.c.idx))
            )  # fmt: skip
            for tid, idx, action, actor, note in rows:
                t = out.get(tid)
                if t is not None and idx == len(t.actions):
                    t.actions.append((json.loads(action), actor, note or ""))
        return list(out.values())

    def load_since(
        self, table_id: str, start: int, chat_after: int = 0
    ) -> tuple[list[dict[str, Any]], int, str, list[StoredAction], list[dict[str, Any]]] | None:
        """A table's seats, their version, its status, its actions from index `start` on and its chat lines of id
        above `chat_after`, as stored now (None: deleted)."""
        with self.engine.connect() as conn:
            q = select(tables_t.c.seats, tables_t.c.seats_version, tables_t.c.status).where(
                tables_t.c.id == table_id
            )
            row = conn.execute(q).first()
            if row is None:
                return None
            later = (
                select(actions_t.c.idx, actions_t.c.action, actions_t.c.actor, actions_t.c.note)
                .where(actions_t.c.table_id == table_id, actions_t.c.idx >= start)
                .order_by(actions_t.c.idx)
            )
            actions: list[StoredAction] = []
            for idx, action, actor, note in conn.execute(later):
                if idx != start + len(actions):
                    break
                actions.append((json.loads(action), actor, note or ""))
            q = (
                select(chat_t)
                .where(chat_t.c.table_id == table_id, chat_t.c.id > chat_after)
                .order_by(chat_t.c.id)
            )
            chat = [_chat_line(r) for r in conn.execute(q)]
        return list(row.seats), int(row.seats_version), str(row.status), actions, chat

    def ended_before(self, when: float, limit: int = 500) -> list[str]:
        """The ids of up to `limit` tables that ended (finished or stopped) before wall clock `when`."""
        q = (
            select(tables_t.c.id)
            .where(tables_t.c.status.in_(ENDED), tables_t.c.ended < when)
            .order_by(tables_t.c.ended)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(q)]

    def recent_ended(self, limit: int, hide_salt: str = "") -> list[tuple[StoredTable, int]]:
        """The newest `limit` ended tables (without their actions; none whose salt is `hide_salt`) and how many
        actions each has: what the lobby lists of them without rebuilding them."""
        q = (
            select(tables_t, secrets_t.c.salt)
            .join(secrets_t, secrets_t.c.table_id == tables_t.c.id)
            .where(tables_t.c.status.in_(ENDED), secrets_t.c.salt != hide_salt)
            .order_by(tables_t.c.created.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            rows = [
                StoredTable(r.id, r.game, r.game_version, dict(r.options), int(r.seed), list(r.seats), r.created,
                            r.turn_timer, r.status, seats_version=r.seats_version, ended=r.ended)
                for r in conn.execute(q)
            ]  # fmt: skip
            counts: dict[str, int] = {}
            if rows:
                n = select(actions_t.c.table_id, func.count()).where(
                    actions_t.c.table_id.in_([r.id for r in rows])
                )
                counts = {tid: int(c) for tid, c in conn.execute(n.group_by(actions_t.c.table_id))}
        return [(r, counts.get(r.id, 0)) for r in rows]

    def recent_ids(self, limit: int) -> list[str]:
        """The ids of the newest `limit` tables."""
        q = select(tables_t.c.id).order_by(tables_t.c.created.desc()).limit(limit)
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(q)]

    def unfinished(self) -> list[tuple[str, list[dict[str, Any]], int | None]]:
        """(id, seats, turn timer) of every table still played (neither finished nor stopped): those whose bots or
        timers need a process."""
        q = select(tables_t.c.id, tables_t.c.seats, tables_t.c.turn_timer).where(
            tables_t.c.status.not_in(("finished", "stopped"))
        )
        with self.engine.connect() as conn:
            return [(r.id, list(r.seats), r.turn_timer) for r in conn.execute(q)]

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self.engine.dispose()


def _row(table_id: str, idx: int, action: dict[str, Any], actor: int, note: str) -> dict[str, Any]:
    return {"table_id": table_id, "idx": idx, "action": json.dumps(action), "actor": actor, "note": note}


def _chat_row(table_id: str, line: dict[str, Any]) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "seat": line["seat"],
        "name": line["name"],
        "text": line["text"],
        "at": line["at"],
    }


def _chat_line(r: Any) -> dict[str, Any]:
    return {"id": int(r.id), "seat": int(r.seat), "name": r.name, "text": r.text, "at": float(r.at)}


def _values(
    seats: list[dict[str, Any]] | None,
    status: str | None,
    seats_version: int | None = None,
    ended: float | None = None,
) -> dict[str, Any]:
    values: dict[str, Any] = {}
    if seats is not None:
        values["seats"] = seats
        if seats_version is not None:
            values[SEATS_EXPECT] = seats_version
    if status is not None:
        values["status"] = status
    if ended is not None:
        values["ended"] = ended
    return values


log = logging.getLogger("hegemon.server.storage")


@dataclass(slots=True)
class Ack:
    """A callback queued among the writes: `callback` runs on the event loop once every write queued before it
    is committed; if a write of `table` before it could not be stored at all, `on_fail(reason)` runs instead."""

    callback: Callable[[], None]
    table: str | None = None
    on_fail: Callable[[str], None] | None = None
    reason: str = "the database refused this table's write"


_WRITES = ("table", "action", "update", "delete", "chat")
Item = tuple[str, Any]
"""A write (see `Write`), ("ack", Ack), or ("resume", table_id): the table manager has rolled that table back,
so its writes are stored again."""


def _table_of(item: Item) -> str | None:
    kind, data = item
    if kind == "table":
        return str(data.id)
    if kind == "action":
        return str(data["table_id"])
    if kind == "update":
        return str(data[0])
    if kind in ("delete", "resume"):
        return str(data)
    if kind == "chat":
        return str(data[0]["table_id"])
    if kind == "ack":
        table: str | None = data.table
        return table
    return None


class QueuedWrites:
    """Durable writes queued and committed in groups; nobody hears of a write before its commit (the `after_commit`
    callbacks are the broadcasts and the acknowledgements).

    Where the commit happens: with `on_loop` (SQLite) everything queued during one turn of the event loop is
    committed in one transaction at the end of that turn, on the loop, without waiting for any lock (no thread
    hand-off, so a lone move pays only its own sync). Otherwise (PostgreSQL), and whenever a commit on the loop
    fails, a writer thread commits: it retries with backoff (0.02 s doubling to `max_backoff`) for as long as
    the database refuses, keeping the order of the writes, and hands the commits back to the loop once it has
    caught up. While the writer retries, `down` says why (after `announce_after` seconds): the table manager
    then refuses new actions with a typed `unavailable` and tells the connections; `listeners` hear every change
    of `down` (None: the database is back). Nothing is lost or acknowledged early.

    A write the database refuses for good (not a lock or an outage: a broken constraint) is dropped with the
    writes of its table queued after it, and `on_lost(table_id, reason)` runs on the loop: the table manager
    rolls that table back to what is stored, then queues ("resume", table_id)."""

    def __init__(
        self, inner: SqlStorage, *, on_loop: bool, announce_after: float = 1.0, max_backoff: float = 2.0
    ) -> None:
        self.inner = inner
        self.on_loop = on_loop
        self.announce_after = announce_after
        self.max_backoff = max_backoff
        self.loop: asyncio.AbstractEventLoop | None = None
        self.down: str | None = None
        self.listeners: list[Callable[[str | None], None]] = []
        self.on_lost: Callable[[str, str], None] | None = None
        self.pending: list[Item] = []
        self._scheduled = False
        self._cv = threading.Condition()
        self._backlog: list[list[Item]] = []
        self._slow = not on_loop  # True: the writer thread commits (the loop does not touch the connection)
        self._busy = False  # the writer thread holds a batch
        self._lost: dict[
            str, str
        ] = {}  # tables whose writes are dropped until they resume, and why (writer thread)
        self._closing = False
        self._give_up_at: float | None = None  # shutting down: writes still refused then are given up
        self._gave_up = False
        self.thread: threading.Thread | None = None

    # ------------------------------------------------------------------ the Storage interface

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.thread = threading.Thread(target=self._run, name="hegemon-writer", daemon=True)
        self.thread.start()
        self._schedule()

    def create_table(self, t: StoredTable) -> None:
        self._put(("table", t))

    def append_action(self, table_id: str, idx: int, action: dict[str, Any], actor: int, note: str) -> None:
        self._put(("action", _row(table_id, idx, action, actor, note)))

    def append_chat(self, table_id: str, line: dict[str, Any], keep: int) -> None:
        self._put(("chat", (_chat_row(table_id, line), keep, line)))

    def update_table(
        self,
        table_id: str,
        *,
        seats: list[dict[str, Any]] | None = None,
        status: str | None = None,
        seats_version: int | None = None,
        ended: float | None = None,
    ) -> None:
        """Store a table's seats (made on stored seats version `seats_version`: refused as a conflict if
        another process changed them since) and/or its status (and when it `ended`)."""
        values = _values(seats, status, seats_version, ended)
        if values:
            self._put(("update", (table_id, values)))

    def delete_table(self, table_id: str) -> None:
        self._put(("delete", table_id))

    def resume(self, table_id: str) -> None:
        """Store `table_id`'s writes again (queued after its rollback)."""
        self._put(("resume", table_id))

    def after_commit(
        self,
        callback: Callable[[], None],
        table: str | None = None,
        on_fail: Callable[[str], None] | None = None,
    ) -> None:
        """Run `callback` on the event loop once every write queued before it is committed (writes queued
        before `start` are committed when the strategy starts); `on_fail(reason)` instead if a write of `table`
        queued before it was refused for good."""
        self._put(("ack", Ack(callback, table, on_fail)))

    def load_all(self) -> list[StoredTable]:
        return self.inner.load_all()

    def load_live(self) -> list[StoredTable]:
        return self.inner.load_live()

    def load_one(self, table_id: str) -> StoredTable | None:
        """One stored table (read on a connection of its own: call it from a worker thread)."""
        return self.inner.load_one(table_id)

    def ended_before(self, when: float, limit: int = 500) -> list[str]:
        return self.inner.ended_before(when, limit)

    def recent_ended(self, limit: int, hide_salt: str = "") -> list[tuple[StoredTable, int]]:
        return self.inner.recent_ended(limit, hide_salt)

    def stop_soon(self, grace: float = SHUTDOWN_GRACE) -> None:
        """The server is shutting down (SIGTERM): writes the database still refuses `grace` seconds from now are
        given up, and the requests waiting on them answered `unavailable` (503), never acknowledged. Safe to call
        from a signal handler (it only sets a deadline the writer thread reads)."""
        if self._give_up_at is None:
            self._give_up_at = time.monotonic() + max(0.0, grace)

    def close(self, timeout: float = 10.0) -> None:
        """Commit what is pending (waiting up to `timeout` seconds for a database that refuses), then stop."""
        if self.pending:
            batch, self.pending = self.pending, []
            with self._cv:
                self._backlog.append(batch)
                self._slow = True
                self._cv.notify_all()
        with self._cv:
            self._closing = True
            self._cv.notify_all()
        if self.thread is not None:
            self.thread.join(timeout=timeout + 1)
            if self.thread.is_alive():
                log.error(
                    "the database refused writes until shutdown: the last unacknowledged writes are not stored"
                )
            self.thread = None
        elif self._backlog:  # never started: commit here
            for batch in self._backlog:
                self._commit_retrying([x for x in batch if x[0] in _WRITES], timeout)
        self.inner.close()

    # ------------------------------------------------------------------ on the event loop

    def _put(self, item: Item) -> None:
        self.pending.append(item)
        self._schedule()

    def _schedule(self) -> None:
        if not self._scheduled and self.loop is not None and self.pending:
            self._scheduled = True
            self.loop.call_soon(self.flush)

    def flush(self) -> None:
        """Commit everything pending (or hand it to the writer thread), then run the callbacks queued with it."""
        self._scheduled = False
        batch, self.pending = self.pending, []
        if not batch:
            return
        with self._cv:
            if self._slow or self.thread is None:
                self._backlog.append(batch)
                self._cv.notify_all()
                return
        writes = [x for x in batch if x[0] in _WRITES]
        if writes:
            try:
                self.inner.write_batch(writes, busy_ms=0)
            except (
                Exception
            ) as e:  # locked, or worse: the writer thread takes over, retries and keeps the order
                log.warning(
                    "a database write failed on the event loop (%s); retrying in the writer thread", _why(e)
                )
                self.inner.reset()
                with self._cv:
                    self._slow = True
                    self._backlog.append(batch)
                    self._cv.notify_all()
                return
        self._acknowledge(batch)

    @staticmethod
    def _acknowledge(batch: list[Item]) -> None:
        for kind, data in batch:
            if kind == "ack":
                data.callback()
            elif kind == "fail" and data.on_fail is not None:
                data.on_fail(data.reason)

    def _announce(self, down: str | None) -> None:
        if down == self.down:
            return
        self.down = down
        for f in list(self.listeners):
            f(down)

    def _lost_table(self, table_id: str, reason: str) -> None:
        if self.on_lost is not None:
            self.on_lost(table_id, reason)

    # ------------------------------------------------------------------ the writer thread

    def _call(self, f: Callable[..., None], *args: Any) -> None:
        if self.loop is not None and not self.loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                self.loop.call_soon_threadsafe(f, *args)

    def _run(self) -> None:
        while True:
            with self._cv:
                while not self._backlog and not self._closing:
                    self._cv.wait()
                if not self._backlog:
                    return
                batches, self._backlog = self._backlog, []
                self._busy = True
            try:
                self._commit_batches(batches)
            finally:
                with self._cv:
                    self._busy = False
                    if self.on_loop and not self._backlog and not self._lost:
                        self._slow = False  # caught up: the loop commits again

    def _commit_batches(self, batches: list[list[Item]]) -> None:
        kept: list[Item] = []
        for it in (x for b in batches for x in b):
            kind, data = it
            tid = _table_of(it)
            if kind == "resume":
                self._lost.pop(str(data), None)
            elif (
                tid in self._lost
            ):  # refused for good: skipped until it resumes (later writes built on those)
                it = (
                    ("fail", dataclasses.replace(data, reason=self._lost[tid]))
                    if kind == "ack"
                    else ("skip", data)
                )
            kept.append(it)
        writes = [x for x in kept if x[0] in _WRITES]
        error = self._commit_retrying(writes) if writes else None
        if error is not None:
            # refused for good: store table by table, so only the table at fault loses its unacknowledged writes
            lost: dict[str, str] = {}
            for tid in dict.fromkeys(_table_of(w) for w in writes):
                group = [w for w in writes if _table_of(w) == tid]
                err = self._commit_retrying(group)
                if err is not None and tid is not None:
                    why = CONFLICT if isinstance(err, IntegrityError) else _why(err)
                    if why == CONFLICT:
                        log.info("table %s: %s; it catches up", tid, CONFLICT)
                    else:
                        log.error("the database refused the writes of table %s for good (%s); the table goes back "
                                  "to its last stored version", tid, why)  # fmt: skip
                    self._lost[tid] = why
                    lost[tid] = why
                    self._call(self._lost_table, tid, why)
            kept = [
                ("fail", dataclasses.replace(d, reason=lost[d.table]))
                if k == "ack" and d.table in lost
                else (k, d)
                for k, d in kept
            ]
        self._call(self._acknowledge, kept)

    def _commit_retrying(self, writes: list[Write], give_up: float | None = None) -> BaseException | None:
        """Commit `writes`, retrying while the database is locked or unreachable; None once committed, the
        error if the database refused them for good (or still refused after `give_up` seconds while closing)."""
        delay = 0.02
        since: float | None = None
        announced = False
        while True:
            if self._gave_up:  # shutting down, and the database refused past the deadline: no more tries
                return DatabaseUnavailable("the server is shutting down and the database refuses writes")
            try:
                self.inner.write_batch(writes, busy_ms=100)
            except TRANSIENT as e:
                self.inner.reset()
                now = time.monotonic()
                if since is None:
                    since = now
                    log.warning("database write refused (%s); retrying with backoff", _why(e))
                if not announced and now - since >= self.announce_after:
                    announced = True
                    log.error("the database has refused writes for %.1f s (%s): actions are refused until it is "
                              "back; nothing acknowledged is lost", now - since, _why(e))  # fmt: skip
                    self._call(self._announce, _why(e))
                if (give_up is not None or self._closing) and now - since > (give_up or 10.0):
                    return e
                deadline = self._give_up_at
                if deadline is not None and now >= deadline:
                    log.error("shutting down while the database refuses writes (%s): the writes not stored are "
                              "given up, none of them was acknowledged", _why(e))  # fmt: skip
                    self._gave_up = True
                    return e
                time.sleep(min(delay, deadline - now) if deadline is not None else delay)
                delay = min(delay * 2, self.max_backoff)
                continue
            except Exception as e:
                self.inner.reset()
                return e
            if since is not None:
                log.warning("database writes work again after %.1f s", time.monotonic() - since)
                if announced:
                    self._call(self._announce, None)
            return None


def _why(e: BaseException) -> str:
    """A one-line reason (the driver's message, without SQLAlchemy's statement dump)."""
    orig = getattr(e, "orig", None)
    return str(orig if orig is not None else e).splitlines()[0][:200]


class GroupCommit(QueuedWrites):
    """Every commit in the writer thread (databases behind a network, e.g. PostgreSQL)."""

    def __init__(self, inner: SqlStorage, **kw: Any) -> None:
        super().__init__(inner, on_loop=False, **kw)


class LoopCommit(QueuedWrites):
    """Commits on the event loop at the end of each turn, the writer thread only while the database refuses
    (SQLite)."""

    def __init__(self, inner: SqlStorage, **kw: Any) -> None:
        super().__init__(inner, on_loop=True, **kw)
