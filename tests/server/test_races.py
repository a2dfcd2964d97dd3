"""Races between two server processes on one real PostgreSQL database (issue 26 item 2), and between a bot that
is thinking and its table's creator stopping or deleting it (item 5), on SQLite and PostgreSQL.

The two "processes" of the seat race are two table managers in this test process, each with its own storage
(writer thread, connections) and its own `Cluster` (listener thread, leases) on the same database: the same
code as two `hegemon serve` processes, but their joins can be queued in the same turn of the event loop, so the
race happens every time instead of when the timing allows."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, insert, select

from hegemon.server import bots
from hegemon.server.app import create_app
from hegemon.server.bots import BotRunner, Thinkers, durable
from hegemon.server.cluster import Cluster
from hegemon.server.protocol import CreateTable, ServerError
from hegemon.server.storage import (
    GroupCommit,
    SqlStorage,
    StoredTable,
    actions_t,
    owners_t,
    secrets_t,
    tables_t,
)
from hegemon.server.table import Table
from hegemon.server.tables import TableManager
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

        inner.write_batch = counted  # type: ignore[method-assign]  # the test counts the storage's writes

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
        if (t.version, t.durable, [s.to_json() for s in t.seats], t.status) != (
            version,
            version,
            seats,
            status,
        ):
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
                ta = a.manager.create(
                    CreateTable(game="polis", seed=seed, seats=[{"human": True, "open": True}] * 2)
                )  # type: ignore[list-item]  # seats as JSON, as a client sends them
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
                    assert isinstance(r, str) or (
                        isinstance(r, ServerError) and r.code in ("bad_request", "stale_version")
                    ), r
                tokens = [r for r in got if isinstance(r, str)]
                assert len(tokens) == 2  # the winners
                assert (
                    sum(isinstance(r, ServerError) and r.code == "stale_version" for r in got) == 2
                )  # a real race
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


# ---------------------------------------------------------------------------------------------- item 5


class Gate:
    """A spy on the search (`bots.think`, in a thread with `Thinkers(processes=False)`): the real search runs, but
    only once the test opens the gate, so a bot is surely thinking when the test stops or deletes its table. It
    records the game of every position searched."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.entered = threading.Event()
        self.open = threading.Event()
        self.games: list[str] = []
        real = bots.think

        def think(bot: Any, state: Any, seat: int, budget: float | None) -> Any:
            self.games.append(type(state).__module__.split(".")[2])
            self.entered.set()
            self.open.wait(20)
            return real(bot, state, seat, budget)

        monkeypatch.setattr(bots, "think", think)


def rows(url: str, tid: str) -> dict[str, int]:
    """How many rows of table `tid` each database table holds (a separate connection)."""
    reader = SqlStorage(url)
    try:
        with reader.engine.connect() as conn:
            return {
                tab.name: conn.execute(
                    select(func.count())
                    .select_from(tab)
                    .where((tab.c.id if tab is tables_t else tab.c.table_id) == tid)
                ).scalar_one()
                for tab in (tables_t, actions_t, secrets_t, owners_t)
            }
    finally:
        reader.close()


def bot_table(c: TestClient, game: str) -> dict[str, Any]:
    body: dict[str, Any] = {"game": "polis", "seed": 3, "seats": [{"bot": "mcts:normal"}] * 2}
    if game == "spqrisiko":
        body = {
            "game": game,
            "players": 3,
            "seed": 2,
            "seats": [{"bot": "mcts:normal"}] * 3,
            "options": {"vp_target": 1000},
        }
    r = c.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def test_nothing_is_stored_after_a_stop_or_a_delete_even_while_a_bot_thinks(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = Gate(monkeypatch)
    thinkers = Thinkers(search_workers=1, search_budget=1.0, processes=False)
    with TestClient(create_app(db_url, 0.0, thinkers=thinkers)) as c:
        x = bot_table(c, "spqrisiko")
        assert gate.entered.wait(30)  # a bot of table x is thinking (the only search worker)
        y = bot_table(c, "polis")
        deadline = time.monotonic() + 30
        while thinkers.waiting < 1:  # the first search of table y waits for the worker
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert (
            c.post(f"/api/tables/{y['id']}/delete", json={"creator_token": y["creator_token"]}).status_code
            == 204
        )
        r = c.post(f"/api/tables/{x['id']}/stop", json={"creator_token": x["creator_token"]})
        assert r.status_code == 200 and r.json()["status"] == "stopped", r.text
        assert thinkers.waiting == 0  # the queued search left the queue
        acknowledged = r.json()["version"]
        assert rows(db_url, x["id"])["actions"] == acknowledged
        gate.open.set()  # the search under way ends now: its move must not be played
        time.sleep(0.5)
        assert c.get(f"/api/tables/{x['id']}").json()["version"] == acknowledged
    assert rows(db_url, x["id"])["actions"] == acknowledged  # nothing stored after the stop was acknowledged
    assert rows(db_url, y["id"]) == {
        "tables": 0,
        "actions": 0,
        "table_secrets": 0,
        "table_owners": 0,
    }  # no orphans
    assert gate.games == ["spqrisiko"]  # table y's queued search never ran


def test_a_move_is_never_stored_once_another_process_stopped_or_deleted_its_table(pg_url: str) -> None:
    mine, other = SqlStorage(pg_url), SqlStorage(pg_url)
    try:
        for i, how in enumerate(("stop", "delete")):
            tid = f"t{i}"
            mine.create_table(
                StoredTable(tid, "polis", 1, {}, 5, [{"kind": "bot"}] * 2, 1.0, None, "playing")
            )
            mine.append_action(tid, 0, {"kind": "x"}, 0, "")
            if how == "stop":
                other.update_table(tid, status="stopped")
            else:
                other.delete_table(tid)
            with pytest.raises(Exception, match="TableClosed"):  # refused as a conflict: the table catches up
                mine.append_action(tid, 1, {"kind": "y"}, 1, "")
            assert rows(pg_url, tid)["actions"] == (1 if how == "stop" else 0)
        # a delete waits for a transaction of another process that is storing a move, then takes its rows too
        mine.create_table(StoredTable("t2", "polis", 1, {}, 5, [{"kind": "bot"}] * 2, 1.0, None, "playing"))
        row = {"table_id": "t2", "idx": 0, "action": "{}", "actor": 0, "note": ""}
        with mine.engine.begin() as conn:
            SqlStorage._lock_tables(conn, [("action", row)])
            conn.execute(insert(actions_t).values(**row))
            deleting = threading.Thread(target=other.delete_table, args=("t2",))
            deleting.start()
            time.sleep(0.3)
            assert deleting.is_alive()  # waits for the move's transaction
        deleting.join(10)
        assert rows(pg_url, "t2") == {"tables": 0, "actions": 0, "table_secrets": 0, "table_owners": 0}
    finally:
        mine.close()
        other.close()


def test_a_stop_through_one_process_stops_a_bot_thinking_in_the_other(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = Gate(monkeypatch)

    async def main() -> tuple[int, int, str]:
        procs = [Process(pg_url), Process(pg_url)]
        runners = []
        for p in procs:  # each runs the bots of the tables whose lease it takes
            runner = BotRunner(p.manager, 0.0, Thinkers(search_workers=1, search_budget=1.0, processes=False))
            p.cluster.run_bots, p.cluster.stop_bots = runner.watch, runner.forget
            runners.append(runner)
            await p.start()
        try:
            req = CreateTable(game="polis", seed=4, seats=[{"bot": "mcts:normal"}] * 2)  # type: ignore[list-item]  # seats as JSON, as a client sends them
            made = procs[0].manager.create(req)
            procs[0].cluster.want(made)
            await durable(procs[0].manager, made)
            for p in procs:
                await p.cluster.fetch(made.id)
            deadline = time.monotonic() + 30
            while not gate.entered.is_set():  # the process holding the lease runs the bots: one is thinking
                assert time.monotonic() < deadline
                await asyncio.sleep(0.01)
            thinking, other = procs if procs[0].cluster.holds(made.id) else procs[::-1]
            assert thinking.cluster.holds(made.id) and not other.cluster.holds(made.id)
            t = other.manager.get(made.id)
            other.manager.stop(t, made.creator)  # through the other process
            await durable(other.manager, t)
            acknowledged = t.version
            gate.open.set()  # the decision under way ends now
            await asyncio.sleep(0.5)
            return acknowledged, as_stored(pg_url, made.id)[0], thinking.manager.get(made.id).status
        finally:
            for runner in runners:
                await runner.stop()
            for p in procs:
                await p.stop()

    acknowledged, stored, status = in_thread(main())
    assert stored == acknowledged and status == "stopped"
