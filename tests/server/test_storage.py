"""Durable storage in a real SQLite file: the two commit strategies of the server (`LoopCommit` on the event
loop for SQLite, `GroupCommit` in a writer thread for other databases) commit before any callback runs, batch
what is queued together into one transaction, retry off the loop while the database refuses, and never
acknowledge a write that is not stored."""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
import sqlite3
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest

from hegemon.server.app import durable_storage
from hegemon.server.protocol import ServerError
from hegemon.server.storage import GroupCommit, LoopCommit, SqlStorage, StoredTable, Write
from hegemon.server.tables import TableManager
from tests.server.conftest import new_table, play_random


class CountingStorage(SqlStorage):
    """A real SQLite storage that also remembers the size of every transaction it committed."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.batches: list[int] = []

    def write_batch(self, writes: list[Write], busy_ms: int | None = None) -> None:
        super().write_batch(writes, busy_ms)
        self.batches.append(len(writes))


def in_thread(coro: Coroutine[Any, Any, Any]) -> Any:
    """Run `coro` on a fresh event loop in a thread (an e2e worker may already run Playwright's loop)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def stored(url: str, table_id: str) -> int:
    """How many actions of `table_id` a separate connection reads from the file."""
    reader = SqlStorage(url)
    try:
        return next((len(t.actions) for t in reader.load_all() if t.id == table_id), -1)
    finally:
        reader.close()


def table_row(tid: str) -> StoredTable:
    return StoredTable(tid, "spqrisiko", 1, {"players": 3}, 5, [], 0.0, None, "playing", salt="s")


@pytest.mark.parametrize("kind", [LoopCommit, GroupCommit])
def test_callbacks_run_only_after_their_writes_are_committed_in_one_transaction(
    tmp_path: Path, kind: type
) -> None:
    url = f"sqlite:///{tmp_path / 'h.db'}"
    inner = CountingStorage(url)
    storage = kind(inner)
    seen: list[int] = []

    async def main() -> None:
        storage.start(asyncio.get_running_loop())
        storage.create_table(table_row("t1"))
        for i in range(5):
            storage.append_action("t1", i, {"kind": "x", "i": i}, 0, "")
        done = asyncio.Event()

        def heard() -> None:
            seen.append(stored(url, "t1"))
            done.set()

        storage.after_commit(heard)
        assert seen == []  # nobody hears of a write before it is committed
        await asyncio.wait_for(done.wait(), 10)

    in_thread(main())
    storage.close()
    assert seen == [5]
    assert sum(inner.batches) == 6
    if kind is LoopCommit:  # queued in one turn of the loop: one transaction, one sync of the log
        assert inner.batches == [6]


def test_loop_commit_flushes_what_is_pending_when_closed(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'h.db'}"
    storage = LoopCommit(SqlStorage(url))

    async def main() -> None:
        storage.start(asyncio.get_running_loop())
        storage.create_table(table_row("t2"))
        storage.append_action("t2", 0, {"kind": "x"}, 0, "")
        storage.close()  # before the loop turned: nothing may be lost

    in_thread(main())
    assert stored(url, "t2") == 1


def test_a_write_refused_for_good_rolls_its_table_back_and_the_server_goes_on(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'h.db'}"
    storage = LoopCommit(SqlStorage(url))
    manager = TableManager(storage)
    heard: list[str] = []

    async def main() -> None:
        storage.start(asyncio.get_running_loop())
        t = new_table(manager, seed=4)
        play_random(manager, t, 3, random.Random(0))
        await asyncio.sleep(0.05)
        version = t.version
        assert stored(url, t.id) == version == t.durable
        storage.append_action(t.id, 0, {"kind": "dup"}, 0, "")  # the same key again: refused for good
        seat = t.state.current_player()
        manager.act(t, seat, t.version, t.view(seat)["legal_actions"][0])  # queued after the refused write
        assert t.version > version
        storage.after_commit(lambda: heard.append("ack"), t.id, lambda why: heard.append("refused"))
        for _ in range(200):
            await asyncio.sleep(0.01)
            if heard:
                break
        # never acknowledged; the table is back at what is stored, and it plays on and stores again
        assert heard == ["refused"] and t.version == version == stored(url, t.id)
        assert storage.down is None
        play_random(manager, t, 5, random.Random(1))
        await asyncio.sleep(0.2)
        assert stored(url, t.id) == t.version == t.durable > version
        assert manager.detail(t)["version"] == t.version

    in_thread(main())
    storage.close()


def test_a_locked_database_pauses_writes_off_the_loop_and_play_resumes_by_itself(tmp_path: Path) -> None:
    """Another process holds the write lock: the loop stays responsive, nothing is acknowledged before it is
    stored, REST shows only the stored version, actions are refused with a typed error while the outage lasts,
    connections are told, and everything resumes by itself (issue 11 item 5)."""
    url = f"sqlite:///{tmp_path / 'h.db'}"
    storage = LoopCommit(SqlStorage(url), announce_after=0.3, max_backoff=0.1)
    manager = TableManager(storage)
    heard: list[int] = []
    told: list[dict[str, Any]] = []

    async def main() -> None:
        storage.start(asyncio.get_running_loop())
        t = new_table(manager, seed=4)
        play_random(manager, t, 3, random.Random(0))
        await asyncio.sleep(0.05)
        conn = manager.connect(t, None, lambda: None)
        before = t.version
        lock = sqlite3.connect(tmp_path / "h.db", timeout=0)
        lock.execute("BEGIN EXCLUSIVE")
        try:
            fresh = new_table(manager, seed=5)  # created while the file is locked: not stored, not listed
            assert not fresh.stored and manager.detail(fresh)["version"] == 0
            seat = t.state.current_player()
            v = manager.act(t, seat, t.version, t.view(seat)["legal_actions"][0])
            storage.after_commit(lambda: heard.append(v), t.id)
            lag = 0.0
            for _ in range(80):  # 0.8 s of a locked database, the loop turning all along
                t0 = time.perf_counter()
                await asyncio.sleep(0.01)
                lag = max(lag, time.perf_counter() - t0 - 0.01)
            assert lag < 0.5  # it froze for the whole busy timeout (5 s) before
            assert heard == [] and stored(url, t.id) == before
            assert manager.detail(t)["version"] == before and t.version == v > before
            assert storage.down is not None and "locked" in storage.down
            with pytest.raises(ServerError) as e:
                manager.act(t, t.state.current_player(), t.version, {"kind": "x"})
            assert e.value.code == "unavailable"
            told.extend(conn.errors)
        finally:
            lock.rollback()
            lock.close()
        for _ in range(1000):
            await asyncio.sleep(0.01)
            if heard and storage.down is None:
                break
        assert heard == [v] and stored(url, t.id) == t.version == t.durable
        told.extend(conn.errors[len(told) :])
        assert fresh.stored and stored(url, fresh.id) == fresh.version
        assert [m["code"] for m in told] == ["storage_down", "storage_ok"]
        play_random(manager, t, 3, random.Random(2))  # accepted again, committed on the loop again
        await asyncio.sleep(0.1)
        assert stored(url, t.id) == t.version and not storage._slow

    in_thread(main())
    storage.close()


def test_the_server_commits_sqlite_on_the_loop_and_other_databases_in_a_thread(tmp_path: Path) -> None:
    s = durable_storage(f"sqlite:///{tmp_path / 'h.db'}")
    try:
        assert isinstance(s, LoopCommit)
    finally:
        s.close()


def test_many_actions_stored_in_one_batch_read_back_in_order(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'h.db'}"
    s = SqlStorage(url)
    s.write_batch([("table", table_row("t3"))] + [("action", {"table_id": "t3", "idx": i, "action": f'{{"i": {i}}}',
                                                              "actor": i % 3, "note": ""}) for i in range(7)])  # fmt: skip
    s.close()
    t = next(t for t in SqlStorage(url).load_all() if t.id == "t3")
    assert [a["i"] for a, _, _ in t.actions] == list(range(7))
    assert [actor for _, actor, _ in t.actions] == [i % 3 for i in range(7)]
