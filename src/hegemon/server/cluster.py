"""Several `hegemon serve` processes on one PostgreSQL database, serving the same tables.

- **No fork.** Every action is a row keyed by (table, version). Two processes that accept an action for the same
  version of a table both try to store it; the database keeps the first and refuses the second (a unique key),
  whose process rolls that table back, catches up from the database, and answers its client `stale_version`.
- **Pushes across processes.** Every commit that touches a table sends a PostgreSQL notification (`NOTIFY`, on
  `storage.CHANNEL`, delivered only once the commit is done). Each process listens in a thread of its own and
  brings the tables it holds in memory up to date from the database, then wakes their connections: a client
  sees a move at once whichever process took it.
- **Bots and timers in exactly one process per table**, the holder of the table's lease: a PostgreSQL advisory
  lock on a connection of its own. The lock dies with its connection, so when a process dies (even `kill -9`)
  another one takes the lease at its next sweep (every `LEASE_EVERY` seconds) and play goes on.
- **Lazy loading.** A process loads a table from the database when a client asks for it (rebuilt in a worker
  thread), not every table at start-up.
- **The database restarting** costs the listener and the leases their connections: the listener reconnects with
  backoff and re-reads every table it holds (notifications sent meanwhile are lost), the leases are taken again
  at the next sweep; writes are retried by the storage meanwhile (see `QueuedWrites`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import threading
from collections.abc import Callable
from typing import Any

from sqlalchemy import make_url

from hegemon.server.storage import CHANNEL, SqlStorage
from hegemon.server.table import Table
from hegemon.server.tables import TableManager

log = logging.getLogger("hegemon.server.cluster")

LEASE_EVERY = 1.0
"""Seconds between two sweeps for tables whose bots or timers no process runs."""
RECONNECT_MAX = 2.0
"""Longest wait between two attempts to reach the database again (listener and leases)."""


def lease_key(table_id: str) -> int:
    """The advisory-lock key of a table's lease (a signed 64-bit number derived from its id)."""
    return int.from_bytes(
        hashlib.blake2b(f"hegemon-lease:{table_id}".encode(), digest_size=8).digest(), "big", signed=True
    )


def needs_a_runner(seats: list[dict[str, Any]], turn_timer: int | None) -> bool:
    """Whether a table has bots or a turn timer: someone must run them."""
    return bool(turn_timer) or any(s.get("kind") == "bot" for s in seats)


class Cluster:
    """This process's part in a group of server processes sharing one PostgreSQL database (see the module)."""

    def __init__(
        self, manager: TableManager, storage: SqlStorage, *, lease_every: float = LEASE_EVERY
    ) -> None:
        self.manager = manager
        self.storage = storage
        self.lease_every = lease_every
        url = make_url(storage.url)
        self.conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)
        self.leased: set[str] = set()
        manager.shared = True
        queued = manager.storage
        if hasattr(
            queued, "on_lost"
        ):  # a table rolled back after a refused write catches up from the database
            rollback = queued.on_lost

            def lost(table_id: str, reason: str) -> None:
                if rollback is not None:
                    rollback(table_id, reason)
                self.changed(table_id)

            queued.on_lost = lost
        self.run_bots: Callable[[Table], None] = lambda _t: None
        self.stop_bots: Callable[[str], None] = lambda _tid: None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._stopping = threading.Event()
        self._listener: threading.Thread | None = None
        self._lease_conn: Any = None
        self._sweeper: asyncio.Task[None] | None = None
        self._sweep_now = asyncio.Event()
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self._refreshing: dict[str, asyncio.Task[None]] = {}
        self._dirty: set[str] = set()

    # ------------------------------------------------------------------ life

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._listener = threading.Thread(target=self._listen, name="hegemon-listen", daemon=True)
        self._listener.start()
        self._sweeper = asyncio.create_task(self._sweep_loop(), name="hegemon-leases")

    async def stop(self) -> None:
        self._stopping.set()
        self._sweep_now.set()
        if self._sweeper is not None:
            # let a sweep under way in its thread finish: cancelling the task would leave that thread to open a
            # lease connection after the leases were dropped, holding them for the rest of the process's life
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.shield(self._sweeper), 30)
        for task in list(self._refreshing.values()):
            task.cancel()
        await asyncio.to_thread(self._drop_leases)
        if self._listener is not None:
            await asyncio.to_thread(self._listener.join, 5)

    def holds(self, table_id: str) -> bool:
        """Whether this process runs the table's bots and timer."""
        return table_id in self.leased

    def want(self, table: Table) -> None:
        """A table may need its bots run: run them here if this process holds its lease, else sweep soon."""
        if table.id in self.leased:
            self.run_bots(table)
        elif not table.finished:
            self._sweep_now.set()

    # ------------------------------------------------------------------ loading

    async def fetch(self, table_id: str) -> Table | None:
        """The table, from memory or rebuilt from the database in a worker thread (None: no such table)."""
        t = self.manager.tables.get(table_id)
        if t is not None:
            return t
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            table = await asyncio.to_thread(self._build, table_id)
            t = self.manager.tables.get(table_id)  # made or loaded meanwhile by another path
            if t is None and table is not None:
                self.manager.adopt(table)
                t = table
                self.changed(table_id)  # in case it moved on between the read and now
            fut.set_result(t)
            return t
        except BaseException as e:
            fut.set_exception(e)
            raise
        finally:
            self._loading.pop(table_id, None)

    def _build(self, table_id: str) -> Table | None:
        st = self.storage.load_one(table_id)
        return None if st is None else self.manager.build(st)

    async def fetch_recent(self, limit: int) -> None:
        """Load the newest `limit` tables this process has not seen yet (the lobby lists them)."""
        ids = await asyncio.to_thread(self.storage.recent_ids, limit)
        for tid in ids:
            if tid not in self.manager.tables:
                await self.fetch(tid)

    # ------------------------------------------------------------------ other processes' changes

    def changed(self, table_id: str) -> None:
        """Another process committed something of `table_id` (on the event loop): catch up if it is in memory."""
        if table_id not in self.manager.tables:
            return
        if table_id in self._refreshing:
            self._dirty.add(table_id)
            return
        self._refreshing[table_id] = asyncio.ensure_future(self._refresh(table_id))

    async def _refresh(self, table_id: str) -> None:
        try:
            while True:
                self._dirty.discard(table_id)
                t = self.manager.tables.get(table_id)
                if t is None or not t.stored:  # not stored yet: made here, so nobody else has written to it
                    return
                start = t.rows  # stored rows (an undo is a row of its own: rows only grow)
                seen = max((x["id"] for x in t.chat if x.get("id") is not None), default=0)
                got = await asyncio.to_thread(self.storage.load_since, table_id, start, seen)
                t = self.manager.tables.get(table_id)
                if t is None:
                    return
                if got is None and t.stored:  # deleted by another process
                    self.manager.forget(t, "this table was deleted")
                    return
                if got is None:
                    return
                seats, seats_version, status, actions, chat = got
                if not self.manager.catch_up(t, start, seats, seats_version, status, actions, chat):
                    await asyncio.sleep(
                        0.02
                    )  # a write of ours waits for its commit: look again once it is done
                    self._dirty.add(table_id)
                if t.finished and table_id in self.leased:
                    self._sweep_now.set()
                if table_id not in self._dirty:
                    return
        except Exception:
            log.exception("table %s: catching up from the database failed", table_id)
            t = self.manager.tables.get(table_id)
            if (
                t is not None and t.behind and self.loop is not None
            ):  # it takes no move until caught up: retry
                self.loop.call_later(RECONNECT_MAX, self.changed, table_id)
        finally:
            self._refreshing.pop(table_id, None)

    def _listen(self) -> None:
        """The listener thread: LISTEN on the channel, hand every other process's notification to the loop;
        reconnect with backoff when the database goes away, then re-read every table in memory."""
        import psycopg

        delay = 0.05
        while not self._stopping.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True, connect_timeout=5) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    delay = 0.05
                    self._call(self._resync)
                    while not self._stopping.is_set():
                        for n in conn.notifies(timeout=0.5):
                            origin, _, table_id = n.payload.partition(" ")
                            if origin != self.storage.origin:
                                self._call(self.changed, table_id)
            except psycopg.Error as e:
                if self._stopping.is_set():
                    return
                log.warning(
                    "lost the database notifications (%s); reconnecting", str(e).splitlines()[0][:200]
                )
                self._stopping.wait(delay)
                delay = min(delay * 2, RECONNECT_MAX)

    def _resync(self) -> None:
        for tid in list(self.manager.tables):
            self.changed(tid)

    def _call(self, f: Callable[..., None], *args: Any) -> None:
        loop = self.loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(f, *args)

    # ------------------------------------------------------------------ leases

    async def _sweep_loop(self) -> None:
        while not self._stopping.is_set():
            try:
                taken, lost = await asyncio.to_thread(self._sweep)
            except Exception as e:
                log.warning(
                    "lease sweep failed (%s)", str(e).splitlines()[0][:200] if str(e) else type(e).__name__
                )
                taken, lost = [], []
            for tid in lost:
                self.stop_bots(tid)
            for tid in taken:
                if self._stopping.is_set():
                    break
                t = await self.fetch(tid)
                if t is not None and tid in self.leased:
                    self.run_bots(t)
            self._sweep_now.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._sweep_now.wait(), self.lease_every)

    def _sweep(self) -> tuple[list[str], list[str]]:
        """In a worker thread: take the free leases of unfinished tables that need bots or timers, give back those
        of finished ones. Returns (taken, lost): a lost lease connection loses every lease."""
        import psycopg

        lost: list[str] = []
        if self._stopping.is_set():
            return [], lost
        conn = self._lease_conn
        if conn is not None:
            try:
                conn.execute("SELECT 1")
            except psycopg.Error:
                lost = sorted(self.leased)
                self.leased.clear()
                with contextlib.suppress(Exception):
                    conn.close()
                conn = self._lease_conn = None
        if conn is None:
            conn = self._lease_conn = psycopg.connect(self.conninfo, autocommit=True, connect_timeout=5)
        wanted = {tid for tid, seats, timer in self.storage.unfinished() if needs_a_runner(seats, timer)}
        taken: list[str] = []
        for tid in sorted(wanted - self.leased):
            row = conn.execute("SELECT pg_try_advisory_lock(%s)", (lease_key(tid),)).fetchone()
            if row is not None and row[0]:
                self.leased.add(tid)
                taken.append(tid)
        for tid in sorted(self.leased - wanted):
            conn.execute("SELECT pg_advisory_unlock(%s)", (lease_key(tid),))
            self.leased.discard(tid)
        return taken, lost

    def _drop_leases(self) -> None:
        conn, self._lease_conn = self._lease_conn, None
        self.leased.clear()
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()
