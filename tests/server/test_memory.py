"""Memory and start-up do not grow with everything ever played (issue 26 item 4): live tables are capped per
client address and in all (typed refusals, nothing created); a table nobody watches pauses (its bots store
nothing more) until someone connects, and expires like an abandoned one; ended tables leave memory and are read
back from the database when asked for (record, replay, detail); start-up replays only the live tables; ended
tables expire from the database without being loaded."""

from __future__ import annotations

import asyncio
import concurrent.futures
import gc
import random
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hegemon.core.record import GameRecord, verify
from hegemon.games import get_game
from hegemon.server.app import create_app, durable_storage
from hegemon.server.bots import BotRunner
from hegemon.server.guard import parse_proxies
from hegemon.server.protocol import CreateTable
from hegemon.server.settings import TableLimits
from hegemon.server.storage import SqlStorage
from hegemon.server.tables import TableManager, TooManyTables
from tests.server.conftest import new_table, play_random

BOTS = {"game": "spqrisiko", "seed": 5, "seats": [{"bot": "random"}] * 3, "options": {"vp_target": 1000}}
QUICK = {"game": "spqrisiko", "seed": 3, "seats": [{"bot": "random"}] * 3, "options": {"vp_target": 1}}
"""A game of random bots that ends after some 70 actions."""


def in_thread(coro: Coroutine[Any, Any, Any]) -> Any:
    """Run `coro` on a fresh event loop in a thread (an e2e worker may already run Playwright's loop)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def stored_actions(url: str, table_id: str) -> int:
    reader = SqlStorage(url)
    try:
        st = reader.load_one(table_id)
        return -1 if st is None else len(st.actions)
    finally:
        reader.close()


def finish(m: TableManager, **kw: Any) -> Any:
    t = new_table(m, seed=3, options={"vp_target": 1}, **kw)
    play_random(m, t, 10_000, random.Random(1))
    assert t.finished
    return t


# ------------------------------------------------------------------ caps on live tables


def test_live_tables_are_capped_per_client_and_in_all_with_typed_refusals(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'h.db'}"
    app = create_app(url, 0.0, table_limits=TableLimits(max_tables=3, max_tables_per_client=2),
                     trusted_proxies=parse_proxies(["127.0.0.1"]))  # fmt: skip
    body = {"game": "polis", "seats": [{"human": True}] * 2, "seed": 1}
    with TestClient(app, client=("127.0.0.1", 5000)) as c:

        def make(who: str) -> Any:
            return c.post("/api/tables", json=body, headers={"X-Forwarded-For": who})

        a = [make("10.0.0.1") for _ in range(2)]
        assert [r.status_code for r in a] == [201, 201]
        r = make("10.0.0.1")
        assert (
            r.status_code == 429
            and r.json()["code"] == "bad_request"
            and r.json()["detail"] == "too_many_tables"
        )
        assert r.json()["args"] == {"limit": 2} and r.headers["Retry-After"]
        assert make("10.0.0.2").status_code == 201  # another client still may
        r = make("10.0.0.3")
        assert (
            r.status_code == 503 and r.json()["code"] == "unavailable" and r.json()["detail"] == "server_full"
        )
        assert len(app.state.manager.tables) == 3  # the refusals created nothing
        # an ended table no longer counts: its client may make another
        first = a[0].json()
        assert (
            c.post(
                f"/api/tables/{first['id']}/stop", json={"creator_token": first["creator_token"]}
            ).status_code
            == 200
        )
        assert make("10.0.0.1").status_code == 201
    reader = SqlStorage(url)
    assert len(reader.load_all()) == 4
    reader.close()


def test_table_limits_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEGEMON_MAX_TABLES", "500")
    monkeypatch.setenv("HEGEMON_MAX_TABLES_PER_CLIENT", "0")
    monkeypatch.setenv("HEGEMON_PAUSE_AFTER", "30")
    lim = TableLimits.from_env()
    assert (lim.max_tables, lim.max_tables_per_client, lim.pause_after) == (500, 0, 30.0)
    m = TableManager(limits=lim)
    for _ in range(25):  # no cap per client
        m.create(CreateTable(game="polis", seats=[{"human": True}] * 2), owner="10.0.0.1")
    monkeypatch.setenv("HEGEMON_MAX_TABLES", "many")
    with pytest.raises(ValueError, match="HEGEMON_MAX_TABLES"):
        TableLimits.from_env()
    monkeypatch.setenv("HEGEMON_MAX_TABLES", "2.5")
    with pytest.raises(ValueError, match="whole number"):
        TableLimits.from_env()


def test_the_cap_counts_the_clients_live_tables_only() -> None:
    m = TableManager(limits=TableLimits(max_tables=0, max_tables_per_client=2))
    req = CreateTable(game="polis", seats=[{"human": True}] * 2)
    a = m.create(req, owner="a")
    m.create(req, owner="a")
    with pytest.raises(TooManyTables) as e:
        m.create(req, owner="a")
    assert e.value.code == "bad_request" and e.value.detail == "too_many_tables"
    assert len(m.tables) == 2
    m.create(req, owner="b")
    m.delete(a, a.creator)
    m.create(req, owner="a")


# ------------------------------------------------------------------ tables nobody watches pause


def test_a_bot_table_nobody_watches_pauses_resumes_on_connect_and_expires(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'h.db'}"
    storage = durable_storage(url)
    m = TableManager(storage, limits=TableLimits(pause_after=0.3))

    async def main() -> None:
        storage.start(asyncio.get_running_loop())  # type: ignore[attr-defined]  # the SQL storage has start; the protocol does not
        runner = BotRunner(m, 0.0)
        t = m.create(CreateTable(**BOTS))
        runner.watch(t)
        await asyncio.sleep(0.1)
        assert t.version > 0  # it plays while it is fresh
        await asyncio.sleep(0.6)  # nobody came: paused
        assert m.paused(t)
        v = t.version
        await asyncio.sleep(0.6)
        assert t.version == v and stored_actions(url, t.id) == v  # nothing more thought or stored
        c = m.connect(t, None, lambda: None)  # a spectator: it plays again
        await asyncio.sleep(0.5)
        assert t.version > v and not m.paused(t)
        m.disconnect(c)
        await asyncio.sleep(0.6)
        v = t.version
        await asyncio.sleep(0.5)
        assert t.version == v  # paused again once its watcher left
        for _ in range(200):  # its last moves reach the database (a loaded machine may write them late)
            if t.durable >= t.version:
                break
            await asyncio.sleep(0.05)
        assert t.durable == v and stored_actions(url, t.id) == v and t.version == v
        # a paused table is idle: it expires like an abandoned one, from memory and from the database
        assert m.expire(None, 3600) == []
        assert m.expire(None, 0.5, now=time.time() + 1) == [t.id]
        assert t.id not in m.tables
        await asyncio.sleep(0.1)
        assert stored_actions(url, t.id) == -1
        await runner.stop()

    in_thread(main())
    storage.close()


def test_a_person_s_turn_timer_waits_while_nobody_watches() -> None:
    async def main() -> None:
        m = TableManager(limits=TableLimits(pause_after=0.2))
        runner = BotRunner(m, 0.0)
        t = m.create(CreateTable(game="polis", seed=2, seats=[{"human": True}, {"bot": "random"}], claim=0,
                                 turn_timer=5))  # fmt: skip
        runner.watch(t)
        while t.state.current_player() != 0 or t.deadline is None:
            await asyncio.sleep(0.01)
        v = t.version
        await asyncio.sleep(0.3)
        assert m.paused(t)
        t.deadline = m.clock() - 1  # its time ran out while nobody was there: nobody plays it
        await asyncio.sleep(0.3)
        assert t.version == v
        m.connect(t, 0, lambda: None)  # the person is back: a full turn again, not an instant timeout
        assert t.deadline is not None and t.deadline > m.clock() + 4
        await runner.stop()

    in_thread(main())


# ------------------------------------------------------------------ ended tables leave memory


def test_an_ended_table_leaves_memory_and_its_record_and_replay_still_serve(db_url: str) -> None:
    app = create_app(db_url, 0.0)
    mgr = app.state.manager
    with TestClient(app) as c:
        made = c.post("/api/tables", json=QUICK).json()
        tid = made["id"]
        deadline = time.time() + 60
        while time.time() < deadline and c.get(f"/api/tables/{tid}").json()["status"] != "finished":
            time.sleep(0.05)
        before = c.get(f"/api/tables/{tid}/record").text
        steps = c.get(f"/api/tables/{tid}/replay", params={"step": 10}).json()
        live = c.post("/api/tables", json=BOTS).json()["id"]
        assert mgr.unload(now=time.time() + 30) == []  # watched a moment ago: it stays a while
        assert mgr.unload(now=time.time() + 3600) == [tid]  # ended and unwatched: out of memory
        assert tid not in mgr.tables and live in mgr.tables
        assert any(
            s["id"] == tid and s["status"] == "finished" for s in c.get("/api/tables").json()
        )  # still listed
        assert c.get(f"/api/tables/{tid}/record").text == before  # read back from the database
        rec = GameRecord.from_line(before)
        assert rec.meta["complete"] and verify(get_game("spqrisiko"), rec) == []
        assert c.get(f"/api/tables/{tid}/replay", params={"step": 10}).json() == steps
        assert c.get(f"/api/tables/{tid}").json()["status"] == "finished"
        assert tid in mgr.tables  # until it is left alone again
        assert c.get("/api/tables/nosuchtable").status_code == 404


def test_at_most_cached_ended_tables_stay_in_memory(tmp_path: Path) -> None:
    m = TableManager(SqlStorage(f"sqlite:///{tmp_path / 'h.db'}"), limits=TableLimits(cached_ended=2))
    ended = [finish(m) for _ in range(4)]
    for i, t in enumerate(ended):
        t.watched = 1000.0 + i
    live = new_table(m, seed=9)
    assert sorted(m.unload()) == sorted(t.id for t in ended[:2])  # the least recently watched
    assert set(m.tables) == {ended[2].id, ended[3].id, live.id}
    assert [s["id"] for s in m.listing()][-2:] == [ended[1].id, ended[0].id]  # the lobby still lists them
    m.storage.close()


def test_nothing_leaves_memory_without_a_database() -> None:
    m = TableManager()
    t = finish(m)
    assert m.unload(now=time.time() + 10**6) == [] and t.id in m.tables


# ------------------------------------------------------------------ start-up and expiry in the database


def test_start_up_replays_only_the_live_tables(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    m1 = TableManager(SqlStorage(db_url))
    done, stopped, live = finish(m1), new_table(m1, seed=4), new_table(m1, seed=5)
    play_random(m1, stopped, 20, random.Random(2))
    play_random(m1, live, 20, random.Random(3))
    m1.stop(stopped, stopped.creator)
    m1.storage.close()

    replayed: list[str] = []
    original = TableManager._replay_stored

    def counting(self: TableManager, table: Any, actions: Any) -> bool:
        replayed.append(table.id)
        return original(self, table, actions)

    monkeypatch.setattr(TableManager, "_replay_stored", counting)
    m2 = TableManager(SqlStorage(db_url))
    assert m2.load() == 1
    assert replayed == [live.id] and set(m2.tables) == {live.id}
    assert m2.get(live.id).version == live.version
    listed = {d["id"]: d for d in m2.listing()}  # the lobby lists the ended ones without rebuilding them
    assert set(listed) == {done.id, stopped.id, live.id} and replayed == [live.id]
    assert (listed[done.id]["status"], listed[done.id]["version"]) == ("finished", done.version)
    assert (
        listed[stopped.id]["status"] == "stopped"
        and listed[stopped.id]["seats"] == m1.summary(stopped)["seats"]
    )
    st = m2.storage.load_one(done.id)  # type: ignore[attr-defined]  # an attribute the protocol or the app's state does not declare
    back = m2.build(st)
    assert back is not None and back.finished and back.version == done.version
    assert back.ended is not None and abs(back.ended - done.ended) < 1  # the end's time is stored
    m2.storage.close()


def test_ended_tables_expire_from_the_database_without_being_loaded(db_url: str) -> None:
    m1 = TableManager(SqlStorage(db_url))
    old, fresh, live = finish(m1), finish(m1), new_table(m1, seed=6)
    m1.storage.update_table(old.id, ended=time.time() - 1000)
    m1.storage.close()
    m2 = TableManager(SqlStorage(db_url))
    m2.load()
    ids = m2.storage.ended_before(time.time() - 500)  # type: ignore[attr-defined]  # an attribute the protocol or the app's state does not declare
    assert ids == [old.id]
    m2.expire_stored(ids)
    reader = SqlStorage(db_url)
    assert {t.id for t in reader.load_all()} == {fresh.id, live.id}
    reader.close()
    m2.storage.close()


def test_start_up_moves_what_it_loaded_out_of_the_collectors_way(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'h.db'}"
    m = TableManager(SqlStorage(url))
    new_table(m, seed=7)
    m.storage.close()
    gc.unfreeze()
    try:
        with TestClient(create_app(url, 0.0)) as c:
            assert c.get("/healthz").status_code == 200
            assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
