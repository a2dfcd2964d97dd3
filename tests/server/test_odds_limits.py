"""Reads with a bounded cost (issue 26 item 1 and item 9's first bullet): the odds of a huge position are
computed in a worker process, in floating point above the exact-arithmetic bound (marked so, and right to
1e-12 against the exact figure), never on the event loop; odds, detail and list reads spend a per-client budget
of read work (429 when it is spent); the odds workers have a time budget, a bounded queue and a per-client
share; on PostgreSQL an unknown table id is asked of the database once, then served from a negative cache."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from functools import partial
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hegemon.games.spqrisiko import odds as O
from hegemon.server.app import create_app
from hegemon.server.odds import Odds, TooMany
from hegemon.server.protocol import ServerError
from hegemon.server.settings import OddsLimits, ReadLimits
from hegemon.server.table import Table
from hegemon.server.tables import TableManager
from tests.helpers import run_async
from tests.server.conftest import new_table, play_random


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(None, 0.0)) as c:
        yield c


def an_attack(m: TableManager, seed: int = 12) -> tuple[Table, dict[str, Any]]:
    """A playing S.P.Q.RisiKo! table of people whose seat on turn may attack, and that attack."""
    t = new_table(m, seed=seed)
    rng = random.Random(seed)
    for _ in range(3000):
        attacks = [a for a in t.view(t.state.current_player())["legal_actions"] if a["type"] == "attack"]
        if attacks:
            return t, attacks[0]
        play_random(m, t, 1, rng)
    raise AssertionError("no attack came up")


def huge(t: Table, attack: dict[str, Any], legionaries: int, triremes: int) -> tuple[str, int]:
    """Make the attack's armies `legionaries` a side, and give the seat on turn and another player `triremes` each
    in one sea: the position the audit built with legal moves (190 v 190, 120 v 120) and more."""
    st: Any = t.state
    b = st.board
    st.armies[b.province_index[attack["source"]]] = legionaries
    st.armies[b.province_index[attack["target"]]] = legionaries
    me = st.order[st.turn]
    other = next(p for p in range(len(st.triremes)) if p != me)
    sea = next(iter(b.sea_index))
    st.triremes[me][b.sea_index[sea]] = triremes
    st.triremes[other][b.sea_index[sea]] = triremes
    return sea, other


def odds(c: TestClient, tid: str, **params: Any) -> Any:
    return c.get(f"/api/tables/{tid}/odds", params=params)


def test_a_moderate_battle_above_the_exact_bound_matches_the_exact_figure(client: TestClient) -> None:
    """60 v 60 legionaries is above the exact bound: the server's floating-point answer (from its worker) equals
    the exact fractions to 1e-12, every outcome, and says it is not exact; 20 v 20 is still exact fractions."""
    m: TableManager = client.app.state.manager  # type: ignore[attr-defined]  # an attribute the protocol or the app's state does not declare
    t, a = an_attack(m)
    huge(t, a, 60, 0)
    assert O.exact_work(60, 60) > O.EXACT_WORK["land"] >= O.exact_work(20, 20)
    r = odds(client, t.id, kind="land", source=a["source"], target=a["target"], stop_at=3)
    assert r.status_code == 200, r.text
    o = r.json()
    keep, stop = o["inputs"]["keep"], o["inputs"]["stop_at"]
    exact = O.land_battle(60, 60, stop_at=stop, keep=keep)
    assert o["exact"] is False and o["p_win"]["fraction"] is None
    assert o["p_win"]["decimal"] == pytest.approx(float(exact.p_win), abs=1e-12)
    assert o["expected_attacker_losses"]["decimal"] == pytest.approx(
        float(exact.expected_attacker_losses), abs=1e-10
    )
    rows = {(x["attacker_left"], x["defender_left"]): x["probability"] for x in o["outcomes"]}
    assert set(rows) == set(exact.distribution)
    assert all(rows[s] == pytest.approx(float(p), abs=1e-12) for s, p in exact.distribution.items())
    # a battle within the bound: exact fractions, as before
    huge(t, a, 20, 0)
    o = odds(client, t.id, kind="land", source=a["source"], target=a["target"]).json()
    assert (
        o["exact"] is True
        and Fraction(o["p_win"]["fraction"])
        == O.land_battle(20, 20, keep=o["inputs"]["keep"], stop_at=o["inputs"]["stop_at"]).p_win
    )


def test_floating_point_agrees_with_exact_fractions_for_every_kind() -> None:
    for kind, f in (("land", O.land_battle), ("sea", O.sea_attack), ("naval", O.naval_combat)):
        for a, d in ((40, 40), (25, 31), (7, 3)):
            e, x = f(a, d), f(a, d, exact=False)
            assert x.exact is False and e.exact is True, kind
            assert x.p_win == pytest.approx(float(e.p_win), abs=1e-12), (kind, a, d)
            assert x.expected_defender_losses == pytest.approx(float(e.expected_defender_losses), abs=1e-10)
            assert set(x.distribution) == set(e.distribution)
    assert (
        O.battle_json("naval", 24, 24)["exact"] is True and O.battle_json("naval", 25, 25)["exact"] is False
    )


@pytest.fixture
def patient_client() -> Iterator[TestClient]:
    """A server whose odds workers may take a minute a computation (the default kills one after 5 s: on a machine
    loaded by other work that limit, not the ordering under test, would decide the answer)."""
    with TestClient(create_app(None, 0.0, odds_limits=OddsLimits(timeout=60.0))) as c:
        yield c


def test_a_huge_position_answers_and_a_person_plays_while_it_is_computed(patient_client: TestClient) -> None:
    """190 v 190 legionaries and 200 v 200 triremes (seconds of exact arithmetic, which ran on the event loop and
    froze the server): the answers come back, marked floating point, and while they are computed a person's
    moves are accepted. Ordering, not timing: moves completed between the odds request going out and its
    answer coming back (none could, when the odds held the event loop)."""
    client = patient_client
    m: TableManager = client.app.state.manager  # type: ignore[attr-defined]  # an attribute the protocol or the app's state does not declare
    t, a = an_attack(m)
    sea, other = huge(t, a, 190, 200)
    other_table = new_table(m, seed=5)  # where the person plays meanwhile
    tokens = {s.index: s.token for s in other_table.seats}
    assert (
        odds(client, t.id, kind="land", source=a["source"], target=a["target"], stop_at=150).status_code
        == 200
    )  # warm
    events: list[str] = []
    lock = threading.Lock()
    answers: list[Any] = []

    def ask() -> None:
        with lock:
            events.append("asked")
        for params in ({"kind": "naval", "sea": sea, "opponent": other},
                       {"kind": "land", "source": a["source"], "target": a["target"]}):  # fmt: skip
            answers.append(odds(client, t.id, **params))
        with lock:
            events.append("answered")

    def move() -> None:
        seat = other_table.state.current_player()
        d = client.get(f"/api/tables/{other_table.id}", params={"token": tokens[seat]}).json()
        action = random.Random(len(events)).choice(d["view"]["legal_actions"])
        r = client.post(f"/api/tables/{other_table.id}/actions",
                        json={"token": tokens[seat], "version": d["version"], "action": action})  # fmt: skip
        assert r.status_code == 200, r.text
        with lock:
            events.append("moved")

    asker = threading.Thread(target=ask)
    asker.start()
    while True:
        with lock:
            if "asked" in events:
                break
    moves = 0
    while asker.is_alive() and moves < 20:
        move()
        moves += 1
    asker.join()
    assert [r.status_code for r in answers] == [200, 200], [r.text for r in answers]
    between = events[events.index("asked") + 1 : events.index("answered")]
    assert between.count("moved") >= 2, events
    naval, land = (r.json() for r in answers)
    assert naval["exact"] is False and land["exact"] is False
    assert naval["inputs"] == {"attacker": 200, "defender": 200} and land["inputs"]["attacker"] == 190
    assert naval["p_win"]["decimal"] == pytest.approx(O.naval_combat(200, 200, exact=False).p_win, abs=1e-12)
    assert sum(x["probability"] for x in land["outcomes"]) == pytest.approx(1.0, abs=1e-9)


def test_odds_and_other_reads_spend_a_per_client_budget() -> None:
    """Each read costs the client at least `floor` seconds of its budget: with a budget of 5 reads, the sixth
    detail, list or odds read is a typed 429 (rate_limit, Retry-After), and a table's record is not held back."""
    reads = ReadLimits(work=0.001, burst=0.05, floor=0.01)
    with TestClient(create_app(None, 0.0, reads=reads)) as c:
        m: TableManager = c.app.state.manager  # type: ignore[attr-defined]  # an attribute the protocol or the app's state does not declare
        t, a = an_attack(m)
        paths = [(f"/api/tables/{t.id}/odds", {"kind": "land", "source": a["source"], "target": a["target"]}),
                 (f"/api/tables/{t.id}", {}), ("/api/tables", {})]  # fmt: skip
        for path, params in paths:
            codes = [c.get(path, params=params).status_code for _ in range(8)]
            assert 429 in codes, (path, codes)
            r = c.get(path, params=params)
            assert (
                r.status_code == 429
                and r.json()["code"] == "bad_request"
                and r.json()["detail"] == "rate_limit"
            )
            assert int(r.headers["retry-after"]) >= 1
            c.app.state.budget.balance.clear()  # type: ignore[attr-defined]  # the next path starts afresh
        assert c.get(f"/api/tables/{t.id}/record").status_code == 200


def test_an_unknown_table_id_is_refused_without_a_read_budget_for_every_one() -> None:
    """Unknown ids cost like any read: a client probing ids is refused once its budget is spent."""
    reads = ReadLimits(work=0.001, burst=0.05, floor=0.01)
    with TestClient(create_app(None, 0.0, reads=reads)) as c:
        codes = [c.get(f"/api/tables/nosuch{i}").status_code for i in range(10)]
        assert codes[0] == 404 and 429 in codes


def run(coro: Any) -> Any:
    return run_async(coro)  # in a thread: a worker that ran Playwright first has a running loop


def naval_job(n: int) -> Any:
    return partial(O.battle_json, "naval", n, n)


def test_the_odds_workers_share_bound_queue_and_kill_an_overrun() -> None:
    """The service on its own, with real worker processes: one client may not run two computations at once
    (429); past workers + queue the server says busy (503 odds_busy); the same question asked twice is computed
    once; a computation past its time budget is killed with its worker (503 odds_timeout) and the next question
    gets a new worker."""

    async def scenario() -> None:
        svc = Odds(OddsLimits(workers=1, queue=0, per_client=1, timeout=30))
        try:
            await svc.answer(naval_job(3), "warm")  # the worker starts (not a computation's time)
            first = asyncio.ensure_future(svc.answer(naval_job(200), "a"))
            same = asyncio.ensure_future(svc.answer(naval_job(200), "b"))
            await asyncio.sleep(0)
            with pytest.raises(TooMany):
                await svc.answer(naval_job(150), "a")  # a's second, while its first is under way
            with pytest.raises(ServerError) as busy:
                await svc.answer(naval_job(151), "c")  # one worker, no queue: busy
            assert busy.value.code == "unavailable" and busy.value.detail == "odds_busy"
            (b1, cpu1), (b2, cpu2) = await first, await same
            assert b1 == b2 and cpu1 > 0 and cpu2 == 0.0 and svc.computed == 2  # warm-up + one
            assert json.loads(b1)["exact"] is False
            assert (await svc.answer(naval_job(200), "a")) == (b1, 0.0)  # kept
        finally:
            svc.close()
        slow = Odds(OddsLimits(workers=1, timeout=30))
        try:
            for n in (2, 3):  # the worker starts and makes its dice tables
                await slow.answer(naval_job(n), "warm")
            slow.limits = replace(slow.limits, timeout=0.05)
            with pytest.raises(ServerError) as late:
                await slow.answer(naval_job(200), "a")  # ~0.25 s of work, 0.05 s allowed
            assert late.value.detail == "odds_timeout" and slow.killed == 1 and slow.pool is None
            slow.limits = replace(slow.limits, timeout=30)
            body, _ = await slow.answer(naval_job(4), "a")  # a new worker answers
            assert json.loads(body)["exact"] is True
        finally:
            slow.close()

    run(scenario())


def test_a_question_that_makes_no_sense_is_a_typed_400(client: TestClient) -> None:
    m: TableManager = client.app.state.manager  # type: ignore[attr-defined]  # an attribute the protocol or the app's state does not declare
    t, a = an_attack(m)
    st: Any = t.state
    st.armies[st.board.province_index[a["source"]]] = 250  # more than any odds are computed for
    r = odds(client, t.id, kind="land", source=a["source"], target=a["target"])
    assert r.status_code == 400 and r.json()["code"] == "bad_request"
    r = odds(client, t.id, kind="naval", sea="atlantis", opponent=1)
    assert r.status_code == 400 and r.json()["code"] == "bad_request"


def test_unknown_ids_come_from_the_negative_cache_on_postgresql(pg_url: str) -> None:
    """Several processes on PostgreSQL load a table when first asked: an id the database does not have is asked
    of it once, then answered 404 from memory (until `unknown_for` passes); a table made since is found."""
    app = create_app(pg_url, 0.0)
    inner = app.state.manager.storage.inner
    asked: list[str] = []
    real = inner.load_one

    def load_one(table_id: str) -> Any:
        asked.append(table_id)
        return real(table_id)

    inner.load_one = load_one
    with TestClient(app) as c:
        for _ in range(5):
            r = c.get("/api/tables/nosuchtable")
            assert r.status_code == 404 and r.json()["detail"] == "no_table"
            assert c.get("/api/tables/nosuchtable/odds", params={"polis": "megara"}).status_code == 404
        assert [x for x in asked if x == "nosuchtable"] == ["nosuchtable"]
        made = c.post("/api/tables", json={"game": "polis", "seed": 1}).json()
        assert c.get(f"/api/tables/{made['id']}").status_code == 200
    app = create_app(pg_url, 0.0, reads=ReadLimits(unknown_for=0))
    inner = app.state.manager.storage.inner
    asked.clear()
    real = inner.load_one
    inner.load_one = load_one
    with TestClient(app) as c:
        for _ in range(3):
            assert c.get("/api/tables/nosuchtable").status_code == 404
    assert [x for x in asked if x == "nosuchtable"] == ["nosuchtable"] * 3
