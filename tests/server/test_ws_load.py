"""Websocket load on a real server (uvicorn in a thread of the test, real sockets; issue 26 items 3 and 6): a
table's spectators share one serialised update, coalesced, and are capped per table and in all; messages are
budgeted per client address across its connections, a flooding address is cut off (close code 4029) while
another address keeps playing. Counts are kept small (hundreds of sockets); the timings are in
benchmarks/bench_ws_load.py."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import uvicorn
import websockets
from fastapi import FastAPI

from hegemon.server.app import create_app
from hegemon.server.guard import firm_websocket_protocol, parse_proxies
from hegemon.server.settings import WsLimits
from hegemon.server.ws import FLOOD_CLOSE, FULL_CLOSE
from tests.helpers import run_async


@contextlib.contextmanager
def serving(limits: WsLimits, bot_delay: float = 0.05) -> Iterator[tuple[str, FastAPI]]:
    """`create_app` under uvicorn (the protocols `hegemon serve` uses) on a free loopback port, in a thread; every
    client address comes from `X-Forwarded-For` (the loopback is a trusted proxy)."""
    app = create_app(None, bot_delay, trusted_proxies=parse_proxies("127.0.0.1"), ws_limits=limits)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, ws=firm_websocket_protocol(), ws_per_message_deflate=False, ws_max_size=64 * 1024,
                            log_level="warning", lifespan="on")  # fmt: skip
    server = uvicorn.Server(config)
    th = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    th.start()
    deadline = time.time() + 30
    while not server.started:
        assert time.time() < deadline and th.is_alive(), "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        th.join(15)
        sock.close()


def ws_url(url: str, table: str, token: str | None = None) -> str:
    return url.replace("http", "ws") + f"/ws/tables/{table}" + (f"?token={token}" if token else "")


def address(i: int) -> dict[str, str]:
    return {"X-Forwarded-For": f"10.{i // 250}.{i % 250}.1"}


# ------------------------------------------------------------------ item 3: spectators


def test_spectators_share_one_serialised_update_coalesced_and_capped() -> None:
    limits = WsLimits(spectators_per_table=240, spectators=250, spectator_interval=0.25)
    with serving(limits) as (url, app):
        hub = app.state.spectators
        busy = httpx.post(f"{url}/api/tables", json={"game": "spqrisiko", "players": 3, "seats": [{"bot": "random"}] * 3,
                                                     "options": {"vp_target": 1000}, "seed": 5}).json()["id"]  # fmt: skip
        other = httpx.post(
            f"{url}/api/tables", json={"game": "polis", "seats": [{"bot": "random"}] * 2}
        ).json()["id"]

        async def watch(table: str, i: int, seconds: float, got: list[dict[str, Any]]) -> None:
            async with websockets.connect(
                ws_url(url, table), additional_headers=address(i), max_size=2**24
            ) as w:
                end = time.monotonic() + seconds
                while (left := end - time.monotonic()) > 0:
                    with contextlib.suppress(TimeoutError):
                        got.append(json.loads(await asyncio.wait_for(w.recv(), left)))

        async def refused(table: str, i: int) -> tuple[int | None, dict[str, Any]]:
            async with websockets.connect(ws_url(url, table), additional_headers=address(i)) as w:
                first = json.loads(await asyncio.wait_for(w.recv(), 10))
                with contextlib.suppress(websockets.ConnectionClosed):
                    await asyncio.wait_for(w.recv(), 10)
                return w.close_code, first

        async def main() -> None:
            logs: list[list[dict[str, Any]]] = [[] for _ in range(240)]
            watchers = [asyncio.create_task(watch(busy, i, 6.0, logs[i])) for i in range(240)]
            await asyncio.sleep(3.0)  # all of them connected (each address opens at most 64)
            # the table's cap: the 241st spectator is refused, typed, and closed with 4503
            code, first = await refused(busy, 300)
            assert (
                code == FULL_CLOSE and first["code"] == "unavailable" and first["detail"] == "spectators_full"
            )
            # the server's cap: 250 in all
            extra: list[list[dict[str, Any]]] = [[] for _ in range(10)]
            more = [asyncio.create_task(watch(other, 400 + i, 2.0, extra[i])) for i in range(10)]
            await asyncio.sleep(1.0)
            code, first = await refused(other, 500)
            assert code == FULL_CLOSE and first["detail"] == "spectators_full"
            serialised_before = hub.serialised
            await asyncio.gather(*watchers, *more)
            assert all(m and m[0]["type"] == "state" for m in extra)
            received = sum(len(m) for m in logs)
            # every update serialised once for all 240 (a few more for those that joined late or fell behind)
            assert hub.serialised < received / 40, (hub.serialised, received)
            assert hub.serialised - serialised_before < 60
            for got in logs:
                states = [m for m in got if m["type"] == "state"]
                # coalesced: the table plays ~40 actions a second, a spectator gets at most ~4 updates a second
                assert 6 <= len(states) <= 6 * 4 + 4, len(states)
                versions = [m["version"] for m in states]
                assert versions == sorted(set(versions))
                # never a backlog, never a gap: the log lines follow on from one update to the next
                lines = [line["i"] for m in states for line in m["log"]]
                assert lines == list(range(len(lines))) and len(lines) >= states[-1]["version"] // 2
            # the same version looks the same to every spectator
            by_version: dict[int, str] = {}
            for got in logs:
                for m in got[1:]:
                    seen = json.dumps(
                        {k: v for k, v in m.items() if k not in ("log", "seconds_left")}, sort_keys=True
                    )
                    assert by_version.setdefault(m["version"], seen) == seen

        run_async(main())
        # they are all gone: the feeds with them
        deadline = time.time() + 10
        while hub.total and time.time() < deadline:
            time.sleep(0.1)
        assert hub.total == 0 and not hub.feeds


# ------------------------------------------------------------------ item 6: floods


def test_a_flooding_address_is_cut_off_while_another_keeps_playing() -> None:
    limits = WsLimits(messages=50, burst=100, kick_after=50, cooloff=30)
    with serving(limits) as (url, _app):
        mine = httpx.post(f"{url}/api/tables", json={"game": "polis", "seats": [{"human": True}] * 2, "seed": 3},
                          headers=address(1)).json()  # fmt: skip
        target = httpx.post(
            f"{url}/api/tables", json={"game": "polis", "seats": [{"bot": "random"}] * 2}
        ).json()["id"]
        flood_from = {"X-Forwarded-For": "10.66.6.6"}
        junk = json.dumps({"version": 0, "action": {"type": "pass"}})
        outcome: dict[str, Any] = {"sent": 0, "answers": 0, "codes": []}

        async def flood(go: asyncio.Event) -> None:
            async with websockets.connect(ws_url(url, target), additional_headers=flood_from) as w:
                outcome["connected"] = outcome.get("connected", 0) + 1
                await go.wait()

                async def read() -> None:
                    async for m in w:
                        outcome["answers"] += json.loads(m)["type"] == "error"

                reader = asyncio.create_task(read())
                with contextlib.suppress(websockets.ConnectionClosed):
                    for _ in range(5000):
                        await w.send(junk)
                        outcome["sent"] += 1
                        if outcome["sent"] % 20 == 0:
                            await asyncio.sleep(0)
                with contextlib.suppress(websockets.ConnectionClosed, TimeoutError):
                    await asyncio.wait_for(reader, 10)
                outcome["codes"].append(w.close_code)

        async def play(moves: int) -> int:
            """A person's moves at their own table (both seats, from another address); how many were stored."""
            socks = [await websockets.connect(ws_url(url, mine["id"], s["token"]), additional_headers=address(1),
                                              max_size=2**24) for s in mine["seats"]]  # fmt: skip
            last: list[dict[str, Any]] = [{}, {}]

            async def until(i: int, version: int) -> None:
                while last[i].get("version", -1) < version or last[i]["status"] == "waiting":
                    m = json.loads(await asyncio.wait_for(socks[i].recv(), 10))
                    assert m["type"] != "error" or m["code"] != "bad_request", m
                    if m["type"] == "seat":  # the link took its seat: the seat's new token
                        mine["seats"][i]["token"] = m["token"]
                    if m["type"] == "state":
                        last[i] = m

            done = 0
            for _ in range(moves):
                while not last[0] or last[0]["version"] != last[1].get(
                    "version"
                ):  # both seats see the same version
                    v = max(m.get("version", 0) for m in last)
                    await until(0, v)
                    await until(1, v)
                movers = [i for i in (0, 1) if last[i]["view"]["legal_actions"]]
                if not movers:
                    break
                cur = movers[0]
                await socks[cur].send(
                    json.dumps({"version": v, "action": last[cur]["view"]["legal_actions"][0]})
                )
                await until(1 - cur, v + 1)
                done += 1
                await asyncio.sleep(0.02)
            for s in socks:
                await s.close()
            return done

        async def main() -> int:
            go = asyncio.Event()
            flooders = [asyncio.create_task(flood(go)) for _ in range(16)]
            while outcome.get("connected", 0) < 16:  # all of them open before any floods (then it is cut off)
                await asyncio.sleep(0.05)
            go.set()
            played = await play(40)
            await asyncio.gather(*flooders)
            # the address is cooled off: a new websocket from it is refused at the handshake
            with pytest.raises(websockets.InvalidStatus):
                async with websockets.connect(ws_url(url, target), additional_headers=flood_from):
                    pass
            # another address still connects and plays
            return played + await play(3)

        played = run_async(main())
        assert played == 43
        assert outcome["codes"] == [FLOOD_CLOSE] * 16
        # the address's budget (100 at once) spent across its 16 connections, the rest dropped unread: each
        # connection was answered a few times at most (slow down, closed), never one answer a message. (How much
        # each sent before its close depends on the machine's load: at least a few batches, well past the budget.)
        assert outcome["sent"] >= 2 * (limits.burst + limits.kick_after)
        assert outcome["answers"] <= 100 + 16 * 4, outcome  # (state updates of the table not counted)


def test_every_websocket_of_a_flooding_address_is_closed_with_it() -> None:
    """The offender is the address, not the one socket that flooded: its quiet sockets are closed too (code 4029,
    within the grace), so a script cannot keep 63 sockets in reserve to flood in turn."""
    limits = WsLimits(messages=20, burst=40, kick_after=20, cooloff=30)
    with serving(limits) as (url, _app):
        target = httpx.post(
            f"{url}/api/tables", json={"game": "polis", "seats": [{"bot": "random"}] * 2}
        ).json()["id"]
        flood_from = {"X-Forwarded-For": "10.66.6.7"}
        junk = json.dumps({"version": 0, "action": {"type": "pass"}})

        async def main() -> tuple[list[Any], float]:
            quiet = [
                await websockets.connect(ws_url(url, target), additional_headers=flood_from) for _ in range(5)
            ]
            other = await websockets.connect(ws_url(url, target), additional_headers=address(7))
            async with websockets.connect(ws_url(url, target), additional_headers=flood_from) as loud:
                with contextlib.suppress(websockets.ConnectionClosed):
                    for i in range(3000):
                        await loud.send(junk)
                        if i % 20 == 0:
                            await asyncio.sleep(0)
            t0 = time.monotonic()

            async def until_closed(w: Any) -> None:
                with contextlib.suppress(websockets.ConnectionClosed):
                    async for _ in w:
                        pass

            await asyncio.wait_for(asyncio.gather(*(until_closed(w) for w in quiet)), 10)
            waited = time.monotonic() - t0
            assert other.close_code is None  # another address is not touched
            await other.close()
            return [w.close_code for w in quiet], waited

        codes, waited = run_async(main())
        assert codes == [FLOOD_CLOSE] * 5
        assert waited < 5, waited


def test_a_cooled_off_address_is_refused_before_any_websocket_machinery() -> None:
    """`hegemon serve`'s HTTP protocol refuses a banned address's handshake itself (a plain 403): the application
    (its middleware, its websocket route) never sees it, so reconnection storms cost an HTTP parse each."""
    from hegemon.server.guard import timed_http_protocol

    seen: list[str] = []
    refused: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        seen.append(scope["type"])
        if scope["type"] == "websocket":
            await receive()
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": 1000})

    def refuse(scope: dict[str, Any]) -> bool:
        banned = dict(scope["headers"]).get(b"x-forwarded-for") == b"10.66.6.8"
        if banned:
            refused.append(scope["type"])
        return banned

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        app, http=timed_http_protocol(30, refuse), ws=firm_websocket_protocol(), log_level="warning"
    )
    server = uvicorn.Server(config)
    th = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    th.start()
    deadline = time.time() + 30
    while not server.started:
        assert time.time() < deadline and th.is_alive(), "the server did not start"
        time.sleep(0.05)
    try:

        async def main() -> int:
            with pytest.raises(websockets.InvalidStatus) as e:
                async with websockets.connect(
                    f"ws://127.0.0.1:{port}/ws/x", additional_headers={"X-Forwarded-For": "10.66.6.8"}
                ):
                    pass
            async with websockets.connect(
                f"ws://127.0.0.1:{port}/ws/x", additional_headers={"X-Forwarded-For": "10.1.1.1"}
            ) as w:
                with contextlib.suppress(websockets.ConnectionClosed):
                    await w.recv()
            return e.value.response.status_code

        status = run_async(main())
    finally:
        server.should_exit = True
        th.join(15)
        sock.close()
    assert status == 403
    assert refused == ["http"]  # (the HTTP request that asked for the upgrade)
    assert seen == ["websocket"]  # only the other address's handshake reached the application
