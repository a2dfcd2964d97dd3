"""A lesson table (CreateTable.tutorial, the lobby's "Learn to play") tells the same story every time: with its
seed and no secret salt, its dice and its bots repeat; every other table keeps a secret salt (issue 12 item 9)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from hegemon.ai.random_bot import RandomBot
from hegemon.server.app import create_app
from hegemon.server.protocol import CreateTable
from hegemon.server.tables import TUTORIAL_SALT, Table, TableManager


def lesson(m: TableManager, **kw: Any) -> Table:
    body = {"game": "spqrisiko", "players": 3, "seed": 20051, "options": {"random_deal": True}, "claim": 0,
            "seats": [{"human": True}, {"bot": "random"}, {"bot": "random"}], **kw}  # fmt: skip
    return m.create(CreateTable.model_validate(body))


def test_a_lesson_repeats_its_story_and_a_real_table_does_not() -> None:
    m = TableManager()
    a, b = lesson(m, tutorial=True), lesson(m, tutorial=True)
    assert a.salt == b.salt == TUTORIAL_SALT
    # the deal and the set-up drawn so far are the same, and so are the bots' choices
    assert a.version > 0 and a.state.to_json() == b.state.to_json()
    ra, rb = m.bot_for(a, 1), m.bot_for(b, 1)
    assert isinstance(ra, RandomBot) and isinstance(rb, RandomBot)
    assert ra.rng.getstate() == rb.rng.getstate()
    c, d = lesson(m), lesson(m)
    assert c.salt != d.salt and TUTORIAL_SALT not in (c.salt, d.salt)
    rc, rd = m.bot_for(c, 1), m.bot_for(d, 1)
    assert isinstance(rc, RandomBot) and isinstance(rd, RandomBot) and rc.rng.getstate() != rd.rng.getstate()
    assert lesson(m, tutorial=True, seed=None).salt != TUTORIAL_SALT  # no seed: no lesson


def test_lessons_are_not_listed_in_the_lobby(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'h.db'}", bot_delay=0)) as c:
        body = {"game": "polis", "seed": 4780, "seats": [{"human": True}, {"bot": "random"}], "claim": 0}
        lesson_id = c.post("/api/tables", json={**body, "tutorial": True}).json()["id"]
        real_id = c.post("/api/tables", json=body).json()["id"]
        listed = {t["id"] for t in c.get("/api/tables").json()}
        assert real_id in listed and lesson_id not in listed
        assert c.get(f"/api/tables/{lesson_id}").status_code == 200  # its own link still opens it
