"""The websocket of one seat or spectator: `/ws/tables/{id}?token=…` (no token: spectator). The server pushes
`{"type": "state", version, view, log…}` after every change; the client sends `{"version": n, "action": {…}}`.
A refusal comes back as `{"type": "error", "code": …, "message": …}` and the connection stays usable."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from hegemon.server.protocol import MAX_MESSAGE_BYTES, RATE_BURST, RATE_PER_SECOND, ServerError
from hegemon.server.tables import TableManager


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
    """One outgoing message as JSON text (orjson: the views are the server's largest per-move cost)."""
    return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()


def handle_message(manager: TableManager, table_id: str, token: str | None, text: str | bytes) -> None:
    """Validate one client message and submit it; ServerError on any refusal."""
    if len(text) > MAX_MESSAGE_BYTES:
        raise ServerError("bad_request", f"message larger than {MAX_MESSAGE_BYTES} bytes")
    try:
        msg: Any = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise ServerError("bad_request", "a message must be a JSON object") from None
    if not isinstance(msg, dict) or "action" not in msg or "version" not in msg:
        raise ServerError("bad_request", 'a message is {"version": n, "action": {...}}')
    if token is None:
        raise ServerError("unauthorized", "spectators cannot act")
    manager.submit(table_id, token, msg["version"], msg["action"])


def router(manager: TableManager) -> APIRouter:
    r = APIRouter()

    @r.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str, token: str | None = None) -> None:
        await websocket.accept()
        try:
            table = manager.get(table_id)
            seat = manager.seat_of(table, token) if token else None
        except ServerError as e:
            await websocket.send_json(e.to_json())
            await websocket.close(code=4000 + (4 if e.code == "unknown_table" else 3))
            return
        wake = asyncio.Event()
        conn = manager.connect(table, seat, wake.set)
        wake.set()
        limit = RateLimit(RATE_PER_SECOND * 100, RATE_BURST * 50)  # every message
        refusals = RateLimit()  # refused messages: a client that keeps sending junk is slowed down

        async def sender() -> None:
            while True:
                await wake.wait()
                wake.clear()
                while conn.errors:
                    await websocket.send_text(dumps(conn.errors.pop(0)))
                # only committed positions are sent: a newer one not yet durable comes with its own wake-up
                if table.durable == table.version and (
                    conn.version_sent != table.version or conn.log_sent != len(table.log)
                ):
                    await websocket.send_text(dumps(manager.message(conn)))

        task = asyncio.create_task(sender())
        try:
            while True:
                data = await websocket.receive()
                if data["type"] == "websocket.disconnect":
                    break
                text = data.get("text")
                if text is None:
                    text = data.get("bytes") or b""
                try:
                    if not limit.allow() or not refusals.available():
                        raise ServerError("bad_request", "too many messages: slow down")
                    handle_message(manager, table_id, token if seat is not None else None, text)
                except ServerError as e:
                    if e.code != "stale_version":
                        refusals.allow()
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
