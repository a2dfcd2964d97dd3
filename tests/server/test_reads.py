"""Costly reads stay cheap (issue 11 item 7): a replay step carries a bounded window of the log, not the whole
log; past positions start from checkpoints made as the game is played; the record is encoded once, a chunk at
a time, and reads are rate-limited per client."""

from __future__ import annotations

import json
import random

import pytest
from fastapi.testclient import TestClient

from hegemon.server.app import create_app
from hegemon.server.service import READS_BURST
from hegemon.server.table import MAX_REPLAY_LOG, REPLAY_EVERY, REPLAY_LOG, Table
from hegemon.server.tables import TableManager
from tests.server.conftest import new_table, play_random


def long_table(m: TableManager, moves: int = 1500) -> Table:
    t = new_table(m, seed=11, options={"vp_target": 1000})
    play_random(m, t, moves, random.Random(5))
    return t


def test_a_replay_step_carries_a_bounded_log_window_and_the_right_position() -> None:
    m = TableManager()
    t = long_table(m)
    n = t.version
    assert n > 1500
    r = m.replay_view(t, 1500, None)
    assert r["steps"] == n and r["step"] == 1500
    assert len(r["log"]) == REPLAY_LOG and r["log_start"] == 1500 - REPLAY_LOG
    assert [e["i"] for e in r["log"]] == list(range(1500 - REPLAY_LOG, 1500))
    assert len(json.dumps(r)) < 100_000  # was the whole log at every step
    assert len(m.replay_view(t, 1500, None, 10**6)["log"]) == MAX_REPLAY_LOG
    assert m.replay_view(t, 3, None)["log_start"] == 0 and len(m.replay_view(t, 3, None)["log"]) == 3
    # the position equals replaying from the start, and comes from a checkpoint made while playing
    assert all(k in t.replay_checkpoints for k in range(REPLAY_EVERY, n + 1, REPLAY_EVERY))
    s = t.game.new_game(t.options, t.seed)
    for e in t.log[:1234]:
        s.apply(e.action)
    assert m.state_at(t, 1234).view(0) == s.view(0)


def test_the_record_line_is_encoded_once_and_equals_the_plain_record() -> None:
    m = TableManager()
    t = long_table(m, 600)
    for seat in (None, 0, 1, 2):  # while the game runs each viewer gets its own record, hidden parts withheld
        steps = 0
        while not m.record_prepare(t, seat, chunk=100):
            steps += 1
        assert steps >= 5  # encoded in chunks (the server yields to the event loop between them)
        assert m.record_line(t, seat) == m.record(t, seat).to_line()
    line0, line1 = m.record_line(t, 0), m.record_line(t, 1)
    assert line0 != line1 and json.loads(line0)["seed"] == 0
    play_random(m, t, 50, random.Random(6))  # more actions: only those are encoded
    assert m.record_line(t, 2) == m.record(t, 2).to_line()


def test_replay_reads_are_rate_limited_per_client(monkeypatch: pytest.MonkeyPatch) -> None:
    import hegemon.server.service as service_module

    monkeypatch.setattr(
        service_module, "READS_PER_SECOND", 1.0
    )  # a slow (loaded) machine must not refill the burst
    with TestClient(create_app(None, 0.0)) as c:
        res = c.post("/api/tables", json={"game": "polis", "seed": 1}).json()
        codes = [
            c.get(f"/api/tables/{res['id']}/replay", params={"step": 0}).status_code
            for _ in range(int(READS_BURST) + 20)
        ]
        assert codes[0] == 200 and 429 in codes
        r = c.get(f"/api/tables/{res['id']}/replay", params={"step": 0})
        assert r.status_code == 429 and r.json()["code"] == "bad_request"
        assert c.get(f"/api/tables/{res['id']}").status_code == 200  # other reads are not held back
