"""Races between two server processes on one real PostgreSQL database (issue 26 item 2), and between a bot that
is thinking and its table's creator stopping or deleting it (item 5), on SQLite and PostgreSQL.

The two "processes" of the seat race are two table managers in this test process, each with its own storage
(writer thread, connections) and its own `Cluster` (listener thread, leases) on the same database: the same
code as two `hegemon serve` processes, but their joins can be queued in the same turn of the event loop, so the
race happens every time instead of when the timing allows."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from hegemon.server.bots import durable
from hegemon.server.cluster import Cluster
from hegemon.server.protocol import CreateTable, ServerError
from hegemon.server.storage import GroupCommit, SqlStorage
from hegemon.server.tables import Table, TableManager
from tests.server.test_storage import in_thread


class Process:
    """One server process's table manager, storage and cluster membership (its bots are not run)."""

    def __init__(self, url: str) -> None:
        self.storage = GroupCommit(SqlStorage(url))
        self.manager = TableManager(self.storage)
        self.cluster = Cluster(self.manager, self.storage.inner, lease_every=0.2)
        self.writes = 0
        inner = self.storage.inner
        write_batch = inner.write_batch

        def counted(writes: Any, busy_ms: int | None = None) -> None:  # a spy: the real write runs
            self.writes += 1
            write_batch(writes, busy_ms)

        inner.write_batch = counted  # type: ignore[method-assign]

    async def start(self) -> None:
        self.storage.start(asyncio.get_running_loop())
        await self.cluster.start()

    async def stop(self) -> None:
        await self.cluster.stop()
        await asyncio.to_thread(self.storage.close)


def as_stored(url: str, tid: str) -> tuple[int, list[dict[str, Any]], str]:
    """(version, seats, status) of a table as a third connection reads it from the database."""
    reader = SqlStorage(url)
    try:
        st = reader.load_one(tid)
        assert st is not None
        return len(st.actions), st.seats, st.status
    finally:
        reader.close()


def in_sync(url: str, tables: list[tuple[TableManager, Table]], tokens: list[str]) -> bool:
    """Whether every process shows the table as stored (version, seats, status) and takes every token."""
    version, seats, status = as_stored(url, tables[0][1].id)
    for m, t in tables:
        if (t.version, t.durable, [s.to_json() for s in t.seats], t.status) != (version, version, seats, status):
            return False
        try:
            if sorted(m.seat_of(t, tok) for tok in tokens) != list(range(len(tokens))):
                return False
        except ServerError:
            return False
    return True


def test_a_seat_race_between_two_processes_leaves_both_on_the_stored_seats(pg_url: str) -> None:
    async def main() -> list[tuple[int, int, float, int]]:
        a, b = Process(pg_url), Process(pg_url)
        await a.start()
        await b.start()
        out = []
        try:
            for seed in range(3):
                ta = a.manager.create(CreateTable(game="polis", seed=seed, seats=[{"human": True, "open": True}] * 2))  # type: ignore[list-item]
                await durable(a.manager, ta)
                tb = await b.cluster.fetch(ta.id)
                assert tb is not None
                # ten joins at once, five through each process, on a table with two open seats (each as the
                # web handler does it: the join, then the wait for its commit)
                async def join(m: TableManager, t: Table, name: str) -> str:
                    s = m.join(t, name)
                    await durable(m, t)
                    return s.token

                got = await asyncio.gather(
                    *(join(p.manager, t, f"P{i}") for i in range(5) for p, t in ((a, ta), (b, tb))),
                    return_exceptions=True,
                )
                for r in got:  # refused: no seat left as this process saw it, or the other process was first
                    assert isinstance(r, str) or (isinstance(r, ServerError) and r.code in ("bad_request", "stale_version")), r
                tokens = [r for r in got if isinstance(r, str)]
                assert len(tokens) == 2  # the winners
                assert sum(isinstance(r, ServerError) and r.code == "stale_version" for r in got) == 2  # a real race
                t0 = time.monotonic()
                while not in_sync(pg_url, [(a.manager, ta), (b.manager, tb)], tokens):
                    assert time.monotonic() - t0 < 1.0, (ta.seats, tb.seats, ta.version, tb.version,
                                                         as_stored(pg_url, ta.id))  # fmt: skip
                    await asyncio.sleep(0.02)
                settled = time.monotonic() - t0
                writes = a.writes + b.writes
                await asyncio.sleep(0.5)  # settled: nobody retries a refused write
                assert in_sync(pg_url, [(a.manager, ta), (b.manager, tb)], tokens)
                out.append((ta.version, tb.version, settled, a.writes + b.writes - writes))
        finally:
            await a.stop()
            await b.stop()
        return out

    for va, vb, _settled, retries in in_thread(main()):
        assert va == vb > 0  # both play on from the same stored start
        assert retries == 0
