"""Several `hegemon serve` processes on one real PostgreSQL database (issue 16): a move made through one process
reaches a websocket on the other at once, concurrent moves never fork a table (one is refused as stale), the
bots of a table move to another process when theirs is killed with `kill -9`, and play survives a restart of
PostgreSQL itself. Every server here is a real process started with the `hegemon serve` command."""

from __future__ import annotations

import concurrent.futures
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from hegemon.core.record import GameRecord, verify
from hegemon.games import get_game
from tests.pgserver import PostgresServer


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Serve:
    """One `hegemon serve` process on the test database."""

    def __init__(self, db: str, bot_delay: float = 0.05) -> None:
        self.port = _port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "hegemon.cli", "serve", "--port", str(self.port), "--db", db,
             "--bot-delay", str(bot_delay), "--log-level", "warning"],  # no access log filling the unread pipe
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                if httpx.get(f"{self.url}/api/games", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop()
        raise AssertionError("the server did not start")

    def get(self, path: str) -> Any:
        r = httpx.get(self.url + path, timeout=30)
        assert r.status_code == 200, r.text
        return r.json()

    def post(self, path: str, body: dict[str, Any]) -> httpx.Response:
        return httpx.post(self.url + path, json=body, timeout=60)

    def kill(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@pytest.fixture
def db(pg_url: str) -> str:
    return pg_url.replace("postgresql+psycopg://", "postgresql://")


@pytest.fixture
def servers(db: str) -> Iterator[list[Serve]]:
    started: list[Serve] = []
    yield started
    for s in started:
        s.stop()


def processes(db: str, servers: list[Serve], n: int) -> list[Serve]:
    """`n` server processes on the database `db` (stopped by the `servers` fixture)."""
    for _ in range(n):
        servers.append(Serve(db))
    return servers[-n:]


def seated_table(made_on: Serve, seated_through: Serve) -> tuple[dict[str, Any], str]:
    """A two-person Polis table made on one process, both seats taken through their links on another (each
    seat's token in `created` is then the one its taking minted: the link's holds nothing any more)."""
    created = people_table(made_on)
    tid = created["id"]
    for seat in created["seats"]:
        r = seated_through.post(f"/api/tables/{tid}/seat", {"token": seat["token"], "name": "P"})
        assert r.status_code == 200, r.text
        seat["token"] = r.json()["token"]
    return created, tid


def people_table(srv: Serve) -> dict[str, Any]:
    """A Polis table of two people (both seats' links), made on `srv`."""
    r = srv.post("/api/tables", {"game": "polis", "seed": 5, "seats": [{"human": True}, {"human": True}]})
    assert r.status_code == 201, r.text
    return dict(r.json())


def seat_on_turn(srv: Serve, created: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """(token, detail) of the seat that must act now, read through `srv` (a process may take a moment to catch
    up with another's last commit)."""

    def find() -> tuple[str, dict[str, Any]] | None:
        for seat in created["seats"]:
            d = srv.get(f"/api/tables/{created['id']}?token={seat['token']}")
            if d["view"].get("legal_actions"):
                return seat["token"], d
        return None

    found: tuple[str, dict[str, Any]] = wait_for(find)
    return found


def wait_for(check: Any, seconds: float = 30.0) -> Any:
    deadline = time.time() + seconds
    while time.time() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_a_move_through_one_process_reaches_a_websocket_on_the_other(db: str, servers: list[Serve]) -> None:
    a, b = processes(db, servers, 2)
    created, tid = seated_table(a, b)  # each person takes their seat through their link, on process B
    with connect(f"ws://127.0.0.1:{a.port}/ws/tables/{tid}", open_timeout=20) as ws:
        first = json.loads(ws.recv(timeout=20))
        start = first["version"]
        token, detail = seat_on_turn(b, created)
        r = b.post(f"/api/tables/{tid}/actions", {"token": token, "version": detail["version"],
                                                  "action": detail["view"]["legal_actions"][0]})  # fmt: skip
        assert r.status_code == 200, r.text
        moved = r.json()["version"]
        assert moved > start
        deadline = time.time() + 10
        seen = start
        while seen < moved and time.time() < deadline:
            msg = json.loads(ws.recv(timeout=10))
            if msg.get("type") == "state":
                seen = msg["version"]
        assert seen == moved  # process A pushed process B's move to its own client
    assert a.get(f"/api/tables/{tid}")["version"] == moved


def test_concurrent_moves_through_two_processes_never_fork_a_table(db: str, servers: list[Serve]) -> None:
    a, b = processes(db, servers, 2)
    created, tid = seated_table(a, a)
    for _ in range(3):
        token, detail = seat_on_turn(a, created)
        wait_for(lambda v=detail["version"]: b.get(f"/api/tables/{tid}")["version"] == v)
        legal = detail["view"]["legal_actions"]
        body = {"token": token, "version": detail["version"]}
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            fa = pool.submit(a.post, f"/api/tables/{tid}/actions", body | {"action": legal[0]})
            fb = pool.submit(b.post, f"/api/tables/{tid}/actions", body | {"action": legal[-1]})
            ra, rb = fa.result(), fb.result()
        codes = sorted([ra.status_code, rb.status_code])
        assert codes == [200, 409], (ra.text, rb.text)
        refused, accepted = (ra, rb) if ra.status_code == 409 else (rb, ra)
        # the refusal names the race; when the winning move ended the game (pass, pass, then an upkeep that ends
        # it by elimination: about one deal in a hundred) the refusal may say what the table now is, over
        finished = accepted.json()["status"] == "finished"
        assert refused.json()["code"] in (("stale_version", "game_over") if finished else ("stale_version",))
        winner = accepted.json()["version"]
        # both processes end on the same version and the same position: one history, no fork
        wait_for(
            lambda w=winner: (
                a.get(f"/api/tables/{tid}")["version"] == w == b.get(f"/api/tables/{tid}")["version"]
            )
        )
        assert a.get(f"/api/tables/{tid}")["view"] == b.get(f"/api/tables/{tid}")["view"]
        if finished:
            break
    ra_rec = httpx.get(
        f"{a.url}/api/tables/{tid}/record?token={created['seats'][0]['token']}", timeout=30
    ).text
    rb_rec = httpx.get(
        f"{b.url}/api/tables/{tid}/record?token={created['seats'][0]['token']}", timeout=30
    ).text
    assert json.loads(ra_rec)["actions"] == json.loads(rb_rec)["actions"]


def test_the_bots_move_to_another_process_when_theirs_is_killed(db: str, servers: list[Serve]) -> None:
    a = Serve(db, bot_delay=0.5)  # slow enough that the game is still on when B has started
    servers.append(a)
    r = a.post("/api/tables", {"game": "spqrisiko", "seed": 11, "seats": [{"bot": "random"}] * 3})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    wait_for(lambda: a.get(f"/api/tables/{tid}")["version"] >= 3)  # A runs the bots
    b = Serve(db, bot_delay=0.0)
    servers.append(b)
    assert b.get(f"/api/tables/{tid}")["status"] == "playing"
    a.kill()  # kill -9: no goodbye, its database connections just drop
    at_kill = b.get(f"/api/tables/{tid}")["version"]
    done = wait_for(lambda: (d := b.get(f"/api/tables/{tid}"))["status"] == "finished" and d, seconds=240)
    assert done["version"] > at_kill and done["outcome"] is not None
    # the finished record replays to the same end: nothing acknowledged was lost or played twice
    rec = GameRecord.from_line(httpx.get(f"{b.url}/api/tables/{tid}/record", timeout=30).text.strip())
    assert verify(get_game("spqrisiko"), rec) == []


def test_play_survives_a_postgresql_restart(db: str, servers: list[Serve], postgres: PostgresServer) -> None:
    (a,) = processes(db, servers, 1)
    created, tid = seated_table(a, a)

    def move() -> httpx.Response:
        token, detail = seat_on_turn(a, created)
        return a.post(f"/api/tables/{tid}/actions", {"token": token, "version": detail["version"],
                                                     "action": detail["view"]["legal_actions"][0]})  # fmt: skip

    assert move().status_code == 200
    before = a.get(f"/api/tables/{tid}")["version"]
    postgres.stop()
    try:
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            waiting = pool.submit(move)  # stored as soon as the database is back: acknowledged only then
            time.sleep(2.5)
            assert not waiting.done()
            honest = move()  # meanwhile the server says what is going on instead of hanging
            assert honest.status_code == 503 and honest.json()["code"] == "unavailable", honest.text
            postgres.start()
            r = waiting.result(timeout=60)
    finally:
        if not _running(postgres):
            postgres.start()
    assert r.status_code == 200, r.text
    after = wait_for(lambda: move().status_code == 200 and a.get(f"/api/tables/{tid}")["version"])
    assert after > r.json()["version"] > before
    a.stop()
    again = Serve(db)
    servers.append(again)
    assert again.get(f"/api/tables/{tid}")["version"] == after  # nothing acknowledged was lost


def _running(pg: PostgresServer) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", pg.port), timeout=1):
            return True
    except OSError:
        return False


def test_seats_taken_at_once_through_two_processes_are_both_kept(db: str, servers: list[Serve]) -> None:
    a, b = processes(db, servers, 2)
    for _ in range(3):
        created = people_table(a)
        tid = created["id"]
        b.get(f"/api/tables/{tid}")  # both processes hold the table before the seats are taken
        s0, s1 = created["seats"]
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            fa = pool.submit(a.post, f"/api/tables/{tid}/seat", {"token": s0["token"], "name": "Ada"})
            fb = pool.submit(b.post, f"/api/tables/{tid}/seat", {"token": s1["token"], "name": "Bo"})
            ra, rb = fa.result(), fb.result()
        # a claim that lost the race is refused as stale (never silently dropped); taken again, it holds
        for r, srv, seat, name in ((ra, a, s0, "Ada"), (rb, b, s1, "Bo")):
            if r.status_code != 200:
                assert r.status_code == 409 and r.json()["code"] == "stale_version", r.text
                wait_for(lambda srv=srv, seat=seat, name=name, tid=tid: srv.post(
                    f"/api/tables/{tid}/seat", {"token": seat["token"], "name": name}).status_code == 200)  # fmt: skip
        for srv in (a, b):
            d = wait_for(
                lambda srv=srv, tid=tid: (d := srv.get(f"/api/tables/{tid}"))["status"] == "playing" and d
            )
            assert [s["name"] for s in d["seats"]] == ["Ada", "Bo"]
            assert all(s["claimed"] for s in d["seats"])


def test_a_table_stopped_or_deleted_through_one_process_is_so_on_the_other(
    db: str, servers: list[Serve]
) -> None:
    a, b = processes(db, servers, 2)
    created, tid = seated_table(a, a)
    token, detail = seat_on_turn(b, created)  # B holds the table too
    assert b.post(f"/api/tables/{tid}/stop", {"creator_token": created["creator_token"]}).status_code == 200
    wait_for(lambda: a.get(f"/api/tables/{tid}")["status"] == "stopped")
    r = a.post(f"/api/tables/{tid}/actions", {"token": token, "version": detail["version"],
                                              "action": detail["view"]["legal_actions"][0]})  # fmt: skip
    assert r.status_code == 409 and r.json()["code"] == "game_over", r.text
    assert a.post(f"/api/tables/{tid}/delete", {"creator_token": created["creator_token"]}).status_code == 204
    wait_for(lambda: httpx.get(f"{b.url}/api/tables/{tid}", timeout=30).status_code == 404)
