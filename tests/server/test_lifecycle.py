"""A table's creator can stop or delete it, and ended or abandoned tables expire (issue 11 item 6): the creator
token comes only with the creation, is checked in constant time, and removal reaches the database."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hegemon.server.app import create_app
from hegemon.server.settings import Expiry
from hegemon.server.storage import SqlStorage
from hegemon.server.tables import TableManager
from tests.server.conftest import new_table


def test_the_creator_stops_and_deletes_a_table_and_nobody_else_can(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'h.db'}"
    with TestClient(create_app(url, 0.0)) as c:
        res = c.post("/api/tables", json={"game": "spqrisiko", "players": 3, "seats": [{"bot": "random"}] * 3,
                                          "seed": 2, "options": {"vp_target": 1000}}).json()  # fmt: skip
        tid, creator = res["id"], res["creator_token"]
        assert (
            creator
            and creator not in c.get(f"/api/tables/{tid}").text
            and creator not in c.get("/api/tables").text
        )
        for bad in ("forged", res["seats"][0].get("token") or "x"):
            r = c.post(f"/api/tables/{tid}/stop", json={"creator_token": bad})
            assert r.status_code == 403 and r.json()["code"] == "unauthorized"
        r = c.post(f"/api/tables/{tid}/stop", json={"creator_token": creator})
        assert r.status_code == 200 and r.json()["status"] == "stopped"
        v = c.get(f"/api/tables/{tid}").json()["version"]
        time.sleep(0.3)
        d = c.get(f"/api/tables/{tid}").json()
        assert d["status"] == "stopped" and d["version"] == v  # the bots stopped
        assert c.post(f"/api/tables/{tid}/delete", json={"creator_token": "forged"}).status_code == 403
        assert c.post(f"/api/tables/{tid}/delete", json={"creator_token": creator}).status_code == 204
        assert c.get(f"/api/tables/{tid}").status_code == 404
    assert all(t.id != tid for t in SqlStorage(url).load_all())


def test_a_stopped_table_refuses_moves_and_stays_stopped_after_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'h.db'}"
    with TestClient(create_app(url, 0.0)) as c:
        res = c.post("/api/tables", json={"game": "polis", "seed": 1, "seats": [{"human": True}, {"human": True}],
                                          "claim": 0}).json()  # fmt: skip
        tid = res["id"]
        assert (
            c.post(f"/api/tables/{tid}/stop", json={"creator_token": res["creator_token"]}).status_code == 200
        )
        tok = next(s["token"] for s in res["seats"] if s.get("token"))
        d = c.get(f"/api/tables/{tid}", params={"token": tok}).json()
        r = c.post(
            f"/api/tables/{tid}/actions",
            json={"token": tok, "version": d["version"], "action": {"kind": "x"}},
        )
        assert r.status_code == 409 and r.json()["code"] == "game_over"
    with TestClient(create_app(url, 0.0)) as c:
        assert c.get(f"/api/tables/{tid}").json()["status"] == "stopped"


def test_ended_and_abandoned_tables_expire_from_memory_and_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'h.db'}"
    storage = SqlStorage(url)
    m = TableManager(storage)
    ended, idle, watched, fresh = (new_table(m, seed=i) for i in range(4))
    m.stop(ended, ended.creator)
    now = time.time()
    for t in (ended, idle, watched):
        t.last_active = now - 100
    ended.ended = now - 100
    m.connect(watched, None, lambda: None)
    watched.last_active = now - 100
    assert m.expire(None, None, now) == []
    gone = m.expire(50, 50, now)
    assert sorted(gone) == sorted([ended.id, idle.id])
    assert set(m.tables) == {watched.id, fresh.id}
    assert {t.id for t in SqlStorage(url).load_all()} == {watched.id, fresh.id}
    storage.close()


def test_expiry_settings_from_options_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEGEMON_EXPIRE_FINISHED", "3600")
    monkeypatch.setenv("HEGEMON_EXPIRE_IDLE", "0")
    e = Expiry.from_env()
    assert e.finished_after == 3600 and e.idle_after is None
    assert Expiry.from_env(finished_after=10).finished_after == 10
    monkeypatch.setenv("HEGEMON_EXPIRE_IDLE", "soon")
    with pytest.raises(ValueError, match="HEGEMON_EXPIRE_IDLE"):
        Expiry.from_env()
