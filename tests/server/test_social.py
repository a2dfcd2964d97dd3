"""Playing with friends over days: the table chat (seated players only, bounded, rate-limited, stored) and the
undo of one's own last action while nothing hidden or random was revealed since (stored as a row of its own, so
the database's versions only grow), on a real server and on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from hegemon.core.game import CHANCE
from hegemon.core.record import state_digest
from hegemon.server.app import create_app
from hegemon.server.protocol import CreateTable, ServerError
from hegemon.server.storage import SqlStorage, actions_t, chat_t
from hegemon.server.table import Table
from hegemon.server.tables import CHAT_BURST, CHAT_HISTORY, CHAT_MAX, TableManager
from tests.server.conftest import humans


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(None, 0.0)) as c:
        yield c


def two_seats(c: TestClient, **extra: Any) -> tuple[str, str, str]:
    """A Polis table of two people, the creator in seat 0 and a friend in seat 1 (taken): id and both tokens."""
    r = c.post("/api/tables", json={"game": "polis", "seed": 4, "claim": 0, "seats": [{"human": True, "name": "Ada"},
                                                                                      {"human": True}], **extra})  # fmt: skip
    assert r.status_code == 201, r.text
    res = r.json()
    tid, mine = res["id"], res["seats"][0]["token"]
    friend = c.post(
        f"/api/tables/{tid}/seat", json={"token": res["seats"][1]["token"], "name": "Bea"}
    ).json()["token"]
    return tid, mine, friend


def until(w: Any, kind: str, limit: int = 50) -> dict[str, Any]:
    """The next message of `kind` on a websocket (the ones before it skipped)."""
    for _ in range(limit):
        m = w.receive_json()
        if m["type"] == kind:
            return m
    raise AssertionError(f"no {kind} message")


# ------------------------------------------------------------------ chat


def test_chat_reaches_the_seated_players_as_typed_never_a_spectator_and_survives_a_restart(
    db_url: str,
) -> None:
    line = '<img src=x onerror="alert(1)"> <script>alert(2)</script> ciao'
    with TestClient(create_app(db_url, 0.0)) as c:
        tid, mine, friend = two_seats(c)
        with c.websocket_connect(f"/ws/tables/{tid}?token={mine}") as a, \
                c.websocket_connect(f"/ws/tables/{tid}?token={friend}") as b, \
                c.websocket_connect(f"/ws/tables/{tid}") as spectator:  # fmt: skip
            until(a, "state"), until(b, "state"), until(spectator, "state")
            a.send_json({"type": "chat", "text": line})
            got = until(b, "chat")
            assert [(x["seat"], x["name"], x["text"]) for x in got["lines"]] == [(0, "Ada", line)]
            assert isinstance(got["lines"][0]["id"], int)  # stored before it was sent
            assert until(a, "chat")["lines"][0]["text"] == line  # the writer sees it come back too
            spectator.send_json({"type": "chat", "text": "hello"})
            e = spectator.receive_json()
            assert (e["type"], e["detail"]) == ("error", "not_seated")
            # a move after the chat: the spectator's next messages are the state, never the chat
            d = c.get(f"/api/tables/{tid}", params={"token": mine}).json()
            tok = mine if d["view"]["current_player"] == 0 else friend
            mv = c.get(f"/api/tables/{tid}", params={"token": tok}).json()
            c.post(
                f"/api/tables/{tid}/actions",
                json={"token": tok, "version": mv["version"], "action": mv["view"]["legal_actions"][0]},
            )
            m = spectator.receive_json()
            assert m["type"] == "state" and line not in str(m)
    with (
        TestClient(create_app(db_url, 0.0)) as c,
        c.websocket_connect(f"/ws/tables/{tid}?token={friend}") as b,
    ):
        hist = until(b, "chat")
        assert hist["history"] is True and [x["text"] for x in hist["lines"]] == [line]


def test_chat_refuses_long_empty_and_hurried_lines_and_keeps_none_of_them(client: TestClient) -> None:
    client.app.state.manager.clock = lambda: 1000.0  # type: ignore[attr-defined]  # no refill: the burst is exact
    tid, mine, _ = two_seats(client)
    with client.websocket_connect(f"/ws/tables/{tid}?token={mine}") as a:
        until(a, "state")
        a.send_json({"type": "chat", "text": "x" * (CHAT_MAX + 1)})
        e = until(a, "error")
        assert (e["code"], e["detail"], e["args"]["max"]) == ("bad_request", "chat_too_long", CHAT_MAX)
        for blank in ("", "   ", "\u200b\u200d\u2066", "\x00\x07"):
            a.send_json({"type": "chat", "text": blank})
            assert until(a, "error")["detail"] == "chat_empty"
        a.send_json({"type": "chat", "text": {"not": "text"}})
        assert until(a, "error")["detail"] == "chat_empty"
        for i in range(CHAT_BURST):
            a.send_json({"type": "chat", "text": f"line {i}"})
            assert until(a, "chat")["lines"][0]["text"] == f"line {i}"
        a.send_json({"type": "chat", "text": "one too many"})
        e = until(a, "error")
        assert (e["detail"], e["args"]["burst"]) == ("chat_rate", CHAT_BURST)
    with client.websocket_connect(f"/ws/tables/{tid}?token={mine}") as a:
        hist = until(a, "chat")
        assert [x["text"] for x in hist["lines"]] == [f"line {i}" for i in range(CHAT_BURST)]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_stored_chat_keeps_the_newest_lines_of_each_table(db_url: str) -> None:
    clock = Clock()
    storage = SqlStorage(db_url)
    m = TableManager(storage, clock=clock)
    t = m.create(CreateTable(game="polis", seed=1, seats=humans(2)))
    other = m.create(CreateTable(game="polis", seed=2, seats=humans(2)))
    for s in (*t.seats, *other.seats):
        m.claim(t if s in t.seats else other, s.index)
    m.chat(other, 1, "the other table")
    for i in range(CHAT_HISTORY + 7):
        clock.now += 10  # past the rate limit
        m.chat(t, i % 2, f"line {i}")
    with storage.engine.connect() as conn:
        n = conn.execute(
            select(func.count()).select_from(chat_t).where(chat_t.c.table_id == t.id)
        ).scalar_one()
    assert n == CHAT_HISTORY
    assert [x["text"] for x in t.chat] == [f"line {i}" for i in range(7, CHAT_HISTORY + 7)]
    again = TableManager(SqlStorage(db_url))
    again.load()
    assert [x["text"] for x in again.tables[t.id].chat] == [x["text"] for x in t.chat]
    assert [x["text"] for x in again.tables[other.id].chat] == ["the other table"]
    with pytest.raises(ServerError) as e:
        m.chat(t, 0, "")
    assert e.value.detail == "chat_empty"


def test_only_a_seated_person_chats() -> None:
    m = TableManager()
    t = m.create(CreateTable(game="polis", seed=1, seats=[{"human": True}, {"bot": "random"}]))
    for seat in (0, 1):  # seat 0 not taken yet; seat 1 a bot
        with pytest.raises(ServerError) as e:
            m.chat(t, seat, "hi")
        assert e.value.detail == "not_seated"
    assert t.chat == []


# ------------------------------------------------------------------ undo


def table(m: TableManager, game: str = "polis", undo: str = "always", seed: int = 3, n: int = 2) -> Table:
    t = m.create(CreateTable(game=game, seed=seed, seats=humans(n), undo=undo))  # type: ignore[arg-type]  # undo given as a test parameter string
    for s in t.seats:
        m.claim(t, s.index)
    return t


def move(m: TableManager, t: Table, rng: random.Random) -> int:
    seat = t.state.current_player()
    m.act(t, seat, t.version, rng.choice(t.view(seat)["legal_actions"]))
    return seat


def refusal(f: Any, *args: Any) -> str | None:
    with pytest.raises(ServerError) as e:
        f(*args)
    return e.value.detail


def test_undo_takes_back_a_dice_free_action_durably_and_never_reuses_a_stored_row(db_url: str) -> None:
    storage = SqlStorage(db_url)
    m = TableManager(storage)
    t = table(m)
    rng = random.Random(2)
    for _ in range(3):
        move(m, t, rng)
    before, digest, rows = t.version, state_digest(t.state), t.rows
    seat = move(m, t, rng)
    assert t.log[-1].actor == seat and all(e.actor != CHANCE for e in t.log[before:])
    taken = t.version - before
    assert m.request_undo(t, seat) == "done"
    assert (t.version, state_digest(t.state), t.undos) == (before, digest, 1)
    assert t.rows == rows + taken + 1  # the taken-back rows and the undo row stay stored
    with storage.engine.connect() as conn:
        stored = conn.execute(
            select(func.count()).select_from(actions_t).where(actions_t.c.table_id == t.id)
        ).scalar_one()
    assert stored == t.rows
    # a client that saw the table before the undo is told it is stale, even at the same version
    cur = t.state.current_player()
    tok = t.seats[cur].token
    legal = t.view(cur)["legal_actions"]
    assert refusal(m.submit, t.id, tok, t.version, legal[0], 0) == "stale"
    m.submit(t.id, tok, t.version, legal[0], 1)
    # read back by a fresh process: the same game, the same undo count, and it plays on
    again = TableManager(SqlStorage(db_url))
    again.load()
    u = again.tables[t.id]
    assert (u.version, u.rows, u.undos, state_digest(u.state)) == (
        t.version,
        t.rows,
        1,
        state_digest(t.state),
    )
    assert [e.action for e in u.log] == [e.action for e in t.log]
    move(again, u, rng)


def test_a_second_process_catches_up_with_an_undo_and_cannot_store_over_it(db_url: str) -> None:
    sa, sb = SqlStorage(db_url), SqlStorage(db_url)
    a = TableManager(sa)
    t = table(a)
    rng = random.Random(5)
    for _ in range(2):
        move(a, t, rng)
    b = TableManager(sb)
    b.load()
    tb = b.tables[t.id]
    start = tb.rows
    seat = move(a, t, rng)
    got = sb.load_since(t.id, start)
    assert got is not None and b.catch_up(tb, start, *got)
    assert tb.version == t.version
    a.request_undo(t, seat)
    got = sb.load_since(t.id, tb.rows)
    assert got is not None
    # B still thinks the table is at the undone version: storing a move there is refused by the database
    with pytest.raises(IntegrityError):
        sb.append_action(t.id, tb.rows, {"type": "pass"}, seat, "")
    assert b.catch_up(tb, tb.rows, *got)
    assert (tb.version, tb.rows, tb.undos, state_digest(tb.state)) == (
        t.version,
        t.rows,
        1,
        state_digest(t.state),
    )


def spqr_after(m: TableManager, t: Table, rng: random.Random, want: Any, limit: int = 3000) -> int:
    """Play random moves until `want(t, seat)` holds right after a move by `seat`; that seat."""
    for _ in range(limit):
        seat = move(m, t, rng)
        if want(t, seat):
            return seat
    raise AssertionError("not reached")


def test_undo_is_refused_once_a_die_was_rolled_or_something_hidden_was_shown() -> None:
    # a fixed salt: the dice (and so whether random play reaches a card trade before the game ends) are the same
    # every run; a table's own salt is secret and random
    m = TableManager(salt=lambda: "0" * 32)
    t = table(m, "spqrisiko", n=3, seed=0)
    rng = random.Random(0)
    seat = spqr_after(m, t, rng, lambda t, s: t.log[-1].actor == CHANCE and not any(
        e.actor not in (CHANCE, s) for e in t.log[-3:]))  # fmt: skip
    assert refusal(m.request_undo, t, seat) == "undo_chance"
    seat = spqr_after(m, t, rng, lambda t, s: t.log[-1].action.kind == "trade_set")
    m.clock = lambda: 1e9  # past the request rate
    assert refusal(m.request_undo, t, seat) == "undo_hidden"


def test_undo_off_and_someone_elses_action_are_refused() -> None:
    m = TableManager()
    t = table(m, undo="off")
    seat = move(m, t, random.Random(1))
    assert refusal(m.request_undo, t, seat) == "undo_off"
    t = table(m)
    rng = random.Random(1)
    for _ in range(200):
        seat = move(m, t, rng)
        if t.log[-1].actor == seat:
            break
    m.clock = lambda: 1e9  # past the request rate
    assert refusal(m.request_undo, t, 1 - seat) == "undo_not_yours"
    assert t.undos == 0


def test_undo_needs_every_other_persons_agreement_and_any_move_cancels_the_request() -> None:
    m = TableManager()
    now = [0.0]
    m.clock = lambda: now[0]
    t = table(m, undo="agree")
    rng = random.Random(4)
    seat = move(m, t, rng)
    other = 1 - seat
    v = t.version
    assert m.request_undo(t, seat) == "asked"
    assert t.version == v and m.snapshot(t, None)["undo_request"] == {
        "seat": seat,
        "version": v,
        "agreed": [seat],
    }
    assert m.answer_undo(t, other, False) == "refused"
    assert t.version == v and t.undo_request is None
    now[0] += 5
    assert m.request_undo(t, seat) == "asked"
    assert m.answer_undo(t, other, True) == "done"
    assert t.version == v - 1 and t.undos == 1
    # a request that a move overtakes is gone
    seat = move(m, t, rng)
    now[0] += 5
    assert m.request_undo(t, seat) == "asked"
    if t.state.current_player() == seat:
        move(m, t, rng)
        assert t.undo_request is None
        assert refusal(m.answer_undo, t, 1 - seat, True) == "undo_no_request"
    # bots agree: with no other person the undo is done at once
    m2 = TableManager()
    for seed in range(20):  # a table where the person opens (the bot plays only in a server)
        b = m2.create(
            CreateTable(game="polis", seed=seed, seats=[{"bot": "random"}, {"human": True}], undo="agree")
        )
        m2.claim(b, 1)
        if b.state.current_player() == 1:
            break
    v = b.version
    move(m2, b, random.Random(9))
    assert m2.request_undo(b, 1) == "done" and b.version == v


def test_an_undo_that_another_process_overtook_is_refused_and_takes_nothing_back(db_url: str) -> None:
    """Process B stores a move on the position A wants to undo: A's undo row would take the same row index, so the
    database refuses it; A takes nothing back, catches up from the database and plays on with B's move."""
    from hegemon.server.app import durable_storage
    from tests.server.test_storage import in_thread

    result: dict[str, Any] = {}

    async def main() -> None:
        qa = durable_storage(db_url)
        qa.start(asyncio.get_running_loop())
        a = TableManager(qa)
        a.shared = True  # several processes: a refused write means "catch up"
        t = table(a)
        rng = random.Random(7)
        for _ in range(200):  # a dice-free move whose undo is allowed, committed
            seat = move(a, t, rng)
            for _ in range(300):
                await asyncio.sleep(0.01)
                if t.durable == t.version:
                    break
            try:
                a.undo_span(t, seat)
                break
            except ServerError:
                continue
        sb = SqlStorage(db_url)
        b = TableManager(sb)
        b.load()
        tb = b.tables[t.id]
        move(b, tb, random.Random(8))  # committed at once (plain SqlStorage): row index t.rows is taken
        before = (t.version, state_digest(t.state))
        a.request_undo(t, seat)
        assert t.undoing
        for _ in range(300):
            await asyncio.sleep(0.01)
            if not t.undoing:
                break
        result["after_refusal"] = (t.version, state_digest(t.state), t.undos, t.behind)
        result["before"] = before
        got = qa.inner.load_since(t.id, t.rows, 0)
        assert got is not None
        result["caught_up"] = a.catch_up(t, t.rows, *got)
        result["same"] = [e.action for e in t.log] == [e.action for e in tb.log]
        qa.close()
        sb.close()

    in_thread(main())
    version, digest, undos, behind = result["after_refusal"]
    assert (version, digest) == result["before"] and undos == 0 and behind
    assert result["caught_up"] and result["same"]
