"""The websocket of one seat or spectator: `/ws/tables/{id}?token=…` (no token: spectator). The server pushes
`{"type": "state", version, view, log…}` after every change; the client sends `{"version": n, "action": {…}}`.
A private seat's link token takes the seat: the seat gets a new token, sent to this connection alone as
`{"type": "seat", "seat": i, "token": …}` once stored (the link's token holds nothing any more).
A refusal comes back as `{"type": "error", "code": …, "message": …}` and the connection stays usable."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from hegemon.server.ops import refusal_kind
from hegemon.server.protocol import (
    MAX_MESSAGE_BYTES,
    RATE_BURST,
    RATE_PER_SECOND,
    ServerError,
    parse_client_json,
)
from hegemon.server.tables import TableManager

log = logging.getLogger("hegemon.server")


class RateLimit:
    """A token bucket: `burst` messages at once, `rate` per second after that."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: float = RATE_BURST) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.t = time.monotonic()

    def available(self) -> bool:
        """Whether a token is there now (without taking it)."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.t) * self.rate)
        self.t = now
        return self.tokens >= 1

    def allow(self) -> bool:
        if self.available():
            self.tokens -= 1
            return True
        return False


def dumps(msg: dict[str, Any]) -> str:
    """One outgoing message as JSON text (orjson: the views are the server's largest per-move cost). Text
    that is not valid Unicode (a lone surrogate) cannot come from a client any more, but if it ever reaches
    a message it is sent escaped rather than killing the connection's sender."""
    try:
        return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(msg, ensure_ascii=True, default=str)


def handle_message(manager: TableManager, table_id: str, token: str | None, text: str | bytes) -> None:
    """Validate one client message and submit it; ServerError on any refusal."""
    if len(text) > MAX_MESSAGE_BYTES:
        raise ServerError("bad_request", f"message larger than {MAX_MESSAGE_BYTES} bytes", detail="too_large")
    msg = parse_client_json(text)
    if not isinstance(msg, dict) or "action" not in msg or "version" not in msg:
        raise ServerError("bad_request", 'a message is {"version": n, "action": {...}}', detail="message_form")
    if token is None:
        raise ServerError("unauthorized", "spectators cannot act", detail="spectator")
    manager.submit(table_id, token, msg["version"], msg["action"])


SEND_TIMEOUT = 20.0
"""Seconds one message may take to go out before the connection is dropped (HEGEMON_WS_SEND_TIMEOUT)."""


def router(
    manager: TableManager,
    send_timeout: float = SEND_TIMEOUT,
    load: Callable[[str], Awaitable[None]] | None = None,
    on_refuse: Callable[[str], None] | None = None,
) -> APIRouter:
    """The websocket route; `load(table_id)` brings a table into memory first (several processes: from the
    database); `on_refuse(kind)` hears of every refusal (its metrics kind)."""
    refused = on_refuse or (lambda _kind: None)
    r = APIRouter()

    @r.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str, token: str | None = None) -> None:
        await websocket.accept()
        try:
            if load is not None:
                await load(table_id)
            table = manager.get(table_id)
            seat = manager.seat_of(table, token) if token else None
        except ServerError as e:
            refused(refusal_kind(e.code, e.detail))
            await websocket.send_json(e.to_json())
            await websocket.close(code=4000 + (4 if e.code == "unknown_table" else 3))
            return
        wake = asyncio.Event()
        conn = manager.connect(table, seat, wake.set, token if seat is not None else None)
        wake.set()
        limit = RateLimit(RATE_PER_SECOND * 100, RATE_BURST * 50)  # every message
        refusals = RateLimit()  # refused messages: a client that keeps sending junk is slowed down

        async def send(text: str) -> None:
            # a client that does not read cannot hold the sender (and the message) for longer than this
            await asyncio.wait_for(websocket.send_text(text), send_timeout)

        async def sender() -> None:
            try:
                while True:
                    await wake.wait()
                    wake.clear()
                    while conn.errors:
                        await send(dumps(conn.errors.pop(0)))
                    if not manager.holds(conn):  # the seat was taken with its link elsewhere: nothing more of it
                        await send(dumps(ServerError(
                            "unauthorized", "this seat was taken through its link by someone else",
                            detail="seat_taken").to_json()))  # fmt: skip
                        await asyncio.wait_for(websocket.close(code=4003), 1.0)
                        return
                    # only committed positions are sent: a newer one not yet durable comes with its own wake-up
                    if table.durable == table.version and (
                        conn.version_sent != table.version
                        or conn.log_sent != len(table.log)
                        or conn.seats_sent != table.seats_epoch
                    ):
                        await send(dumps(manager.message(conn)))
            except (TimeoutError, WebSocketDisconnect, RuntimeError, OSError):
                # too slow a reader, or gone: drop the connection (the client reconnects and gets the state;
                # the server's websocket protocol aborts the transport if even the close cannot go out)
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(websocket.close(code=1008), 1.0)

        task = asyncio.create_task(sender())
        try:
            while True:
                recv = asyncio.ensure_future(websocket.receive())
                await asyncio.wait({recv, task}, return_when=asyncio.FIRST_COMPLETED)
                if not recv.done():  # the sender gave up on a client that does not read: let it go
                    recv.cancel()
                    break
                data = recv.result()
                if data["type"] == "websocket.disconnect":
                    break
                text = data.get("text")
                if text is None:
                    text = data.get("bytes") or b""
                try:
                    if not limit.allow() or not refusals.available():
                        raise ServerError("bad_request", "too many messages: slow down", detail="rate_limit")
                    try:
                        handle_message(manager, table_id, conn.token if seat is not None else None, text)
                    except (ServerError, WebSocketDisconnect):
                        raise
                    except Exception:  # a bug must not cost the client its connection: refuse and log it
                        log.exception("unexpected error on a message for table %s", table_id)
                        raise ServerError("bad_request", "this message could not be handled", detail="not_handled") from None
                except ServerError as e:
                    refused(refusal_kind(e.code, e.detail))
                    refusals.allow()  # every refusal, stale_version too: a flood of any kind is slowed down
                    if len(conn.errors) < 50:
                        conn.errors.append(e.to_json())
                    wake.set()
        except WebSocketDisconnect:
            pass
        finally:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
            manager.disconnect(conn)

    return r
