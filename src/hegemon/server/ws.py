"""The websocket of one seat or spectator: `/ws/tables/{id}?token=…` (no token: spectator). The server pushes
`{"type": "state", version, view, log…}` after every change; the client sends `{"version": n, "action": {…}}`
(optionally `"undos": n`, the undo count it saw: an action made before an undo it has not seen is refused).
A seated player also sends `{"type": "chat", "text": …}`, `{"type": "undo"}` and `{"type": "undo_answer", "accept":
true|false}`; seated players (never spectators) are pushed `{"type": "chat", "lines": […]}` (the history on
connecting, with `"history": true`) and `{"type": "undo_request", "request": {seat, version, agreed} | null}`.
A private seat's link token takes the seat: the seat gets a new token, sent to this connection alone as
`{"type": "seat", "seat": i, "token": …}` once stored (the link's token holds nothing any more).
A refusal comes back as `{"type": "error", "code": …, "message": …}` and the connection stays usable.

What a client may cost (`WsLimits`, each settable by an environment variable):
- Refused messages are counted per client address across all its connections (`guard.MessageBudget`), and per
  connection (RATE_PER_SECOND); accepted moves are bounded by the game. Past either budget a message is dropped unread and answered at most once a second ("too many messages: slow down"); a connection that
  keeps sending is closed with code 4029 (FLOOD_CLOSE) and its address may open no websocket for a while.
- A table's spectators share one connection to the table (`Feed`): each update is serialised once per version and
  the same text goes to every spectator, at most every `spectator_interval` seconds (a spectator that falls
  behind gets the latest state, never a backlog), woken a few at a time so that a move elsewhere never waits
  behind them. Spectators are capped per table and in all: over a cap the socket gets `unavailable`,
  `detail` `spectators_full`, and is closed with code 4503 (FULL_CLOSE)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, cast

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from hegemon.server.guard import DROP_EXTENSION, MessageBudget, TokenBucket
from hegemon.server.heap import HeapTrim
from hegemon.server.ops import refusal_kind
from hegemon.server.protocol import (
    MAX_MESSAGE_BYTES,
    RATE_BURST,
    RATE_PER_SECOND,
    ServerError,
    parse_client_json,
)
from hegemon.server.settings import SEND_TIMEOUT, WsLimits
from hegemon.server.table import Connection, Table
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
    kind = msg.get("type") if isinstance(msg, dict) else None
    if kind in ("chat", "undo", "undo_answer"):
        if token is None:
            raise ServerError(
                "unauthorized", "only a seated player may chat or ask for an undo", detail="not_seated"
            )
        table = manager.get(table_id)
        seat = manager.seat_of(table, token)
        if kind == "chat":
            manager.chat(table, seat, msg.get("text"))
        elif kind == "undo":
            manager.request_undo(table, seat)
        else:
            manager.answer_undo(table, seat, msg.get("accept"))
        return
    if not isinstance(msg, dict) or "action" not in msg or "version" not in msg:
        raise ServerError(
            "bad_request", 'a message is {"version": n, "action": {...}}', detail="message_form"
        )
    if token is None:
        raise ServerError("unauthorized", "spectators cannot act", detail="spectator")
    manager.submit(table_id, token, msg["version"], msg["action"], msg.get("undos"))


FLOOD_CLOSE = 4029
"""Close code of a connection that kept sending past its address's message budget."""
FULL_CLOSE = 4503
"""Close code of a spectator refused because the table (or the server) has as many spectators as it takes."""
CHUNK = 64
"""Spectators woken (and sent to) per turn of the event loop."""


class Watcher:
    """One spectator's websocket: what it was last sent (`sent`: the table's version, log length, seats epoch
    and whether it was stopped) and its own messages waiting (refusals: dicts; the feed's notices: texts)."""

    __slots__ = ("errors", "feed", "log_sent", "sent", "wake")

    def __init__(self, feed: Feed, wake: Callable[[], None]) -> None:
        self.feed = feed
        self.wake = wake
        self.log_sent = 0
        self.sent: tuple[int, int, int, bool] | None = None
        self.errors: list[dict[str, Any] | str] = []


class Feed:
    """The spectators of one table. They share one `Connection` to the table (its manager wakes it once per
    change, whatever the number of spectators), and each version's update is serialised once for all of them
    (`text_for`; one text more per different starting point of a laggard's log). A round of sending wakes the
    spectators CHUNK at a time, one turn of the event loop each, and the next round comes no sooner than
    `interval` seconds (or three times what the last round took) later: changes meanwhile ride along."""

    def __init__(self, hub: Spectators, table: Table) -> None:
        self.hub = hub
        self.table = table
        self.watchers: dict[Watcher, None] = {}
        self.event = asyncio.Event()
        self.conn: Connection = hub.manager.connect(table, None, self.event.set)
        self.conn.people = 0
        self.conn.version_sent = 0  # -1 again: the table was rolled back (`run`)
        self.key: tuple[int, int, int, bool] | None = None
        self.texts: dict[int, str] = {}  # a log's starting point: the update's text
        self.next_at = 0.0
        self.task = asyncio.create_task(self.run())

    def text_for(self, w: Watcher) -> str | None:
        """The update `w` is due (None: nothing new, or the newest position is not committed yet)."""
        t = self.table
        if t.durable != t.version:
            return None  # the commit wakes the feed again
        key = (t.version, len(t.log), t.seats_epoch, t.stopped)
        if w.sent == key:
            return None
        if key != self.key:
            self.key, self.texts = key, {}
        text = self.texts.get(w.log_sent)
        if text is None:
            m = self.hub.manager
            text = dumps(m.snapshot(t, None, m.log_json(t, None, w.log_sent)))
            if len(self.texts) < 16:
                self.texts[w.log_sent] = text
            self.hub.serialised += 1
        w.sent, w.log_sent = key, key[1]
        return text

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        c = self.conn
        while True:
            await self.event.wait()
            delay = self.next_at - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            self.event.clear()
            if c.version_sent == -1:  # rolled back (manager._rollback): the whole log again
                c.version_sent = 0
                for w in self.watchers:
                    w.log_sent, w.sent = 0, None
            if c.errors:
                texts = [dumps(e) for e in c.errors]
                c.errors.clear()
                for w in self.watchers:
                    if len(w.errors) < 50:
                        w.errors.extend(texts)
            started = loop.time()
            for i, w in enumerate(list(self.watchers)):
                w.wake()
                if i % CHUNK == CHUNK - 1:
                    await asyncio.sleep(0)
            await asyncio.sleep(0)  # the last chunk's sends
            self.next_at = loop.time() + max(self.hub.limits.spectator_interval, 3 * (loop.time() - started))


class Spectators:
    """Every table's `Feed` in this process, and the caps on spectators."""

    def __init__(self, manager: TableManager, limits: WsLimits) -> None:
        self.manager = manager
        self.limits = limits
        self.feeds: dict[Table, Feed] = {}
        self.total = 0
        self.serialised = 0  # spectators' updates serialised so far (tests count them)

    def join(self, table: Table, wake: Callable[[], None]) -> Watcher:
        """A new spectator of `table`; ServerError `unavailable` (`spectators_full`) over a cap."""
        feed = self.feeds.get(table)
        if self.total >= self.limits.spectators or (
            feed is not None and len(feed.watchers) >= self.limits.spectators_per_table
        ):
            raise ServerError("unavailable", "this table has as many spectators as it can take: try again later",
                              detail="spectators_full")  # fmt: skip
        if feed is None:
            feed = self.feeds[table] = Feed(self, table)
        w = Watcher(feed, wake)
        if self.manager.notice is not None:
            w.errors.append(dict(self.manager.notice))
        feed.watchers[w] = None
        feed.conn.people += 1
        self.total += 1
        table.last_active = time.time()
        return w

    def leave(self, w: Watcher) -> None:
        feed = w.feed
        if feed.watchers.pop(w, 0) is None:
            self.total -= 1
            feed.conn.people -= 1
            feed.table.last_active = time.time()
        if not feed.watchers and self.feeds.get(feed.table) is feed:
            del self.feeds[feed.table]
            feed.task.cancel()
            self.manager.disconnect(feed.conn)


def seat_update(manager: TableManager, conn: Connection) -> str | None:
    """The update a seat's connection is due, or None. Only committed positions are sent: a newer one not yet
    durable comes with its own wake-up."""
    table = conn.table
    if table.durable == table.version and (
        conn.version_sent != table.version
        or conn.log_sent != len(table.log)
        or conn.seats_sent != table.seats_epoch
    ):
        return dumps(manager.message(conn))
    return None


def close_code(e: ServerError) -> int:
    """The close code of a connection refused at once: no room for a spectator, no table, or no seat."""
    if e.detail == "spectators_full":
        return FULL_CLOSE
    return 4004 if e.code == "unknown_table" else 4003


class Offenders:
    """The open websockets of each client address, each with its way to be dropped (`guard.DROP_EXTENSION`):
    an address that floods loses all of them at once, not only the socket that went past the limit."""

    def __init__(self) -> None:
        self.drops: dict[str, set[Callable[[int, str], None]]] = {}

    def add(self, who: str, websocket: WebSocket) -> Callable[[int, str], None] | None:
        drop: Callable[[int, str], None] | None = websocket.scope.get("extensions", {}).get(DROP_EXTENSION)
        if drop is not None:
            self.drops.setdefault(who, set()).add(drop)
        return drop

    def remove(self, who: str, drop: Callable[[int, str], None] | None) -> None:
        mine = self.drops.get(who)
        if drop is not None and mine is not None:
            mine.discard(drop)
            if not mine:
                del self.drops[who]

    def cut_off(self, who: str, spare: Callable[[int, str], None] | None = None) -> None:
        """Close every websocket of `who` (but `spare`) now: nothing more it sent on them is read or parsed."""
        for drop in list(self.drops.get(who, ())):
            if drop is not spare:
                drop(FLOOD_CLOSE, "too many messages")


class Throttle:
    """One connection's refused messages past its address's budget: answered at most once a second ("slow
    down"); `kick_after` more (forgiven at a tenth of that a second) and the connection is closed, its address
    banned for the cool-off and its other websockets closed with it."""

    def __init__(self, who: str, budget: MessageBudget, lim: WsLimits, offenders: Offenders,
                 drop: Callable[[int, str], None] | None) -> None:  # fmt: skip
        self.who, self.budget, self.offenders, self.drop = who, budget, offenders, drop
        self.strikes = TokenBucket(lim.kick_after / 10, lim.kick_after, time.monotonic())
        self.told = -1.0  # when this connection was last told to slow down

    def verdict(self) -> str | None:
        """After a message refused for the budget: "banned" (its address was cut off by another of its sockets),
        "kick" (this one went past the limit: its address is banned now), or None (go on; see `tell`)."""
        if self.budget.banned_for(self.who) is not None:
            return "banned"
        if not self.strikes.allow(time.monotonic()):
            self.budget.ban(self.who)
            return "kick"
        return None

    def tell(self) -> bool:
        """Whether to answer "slow down" now (at most once a second)."""
        now = time.monotonic()
        if now - self.told < 1.0:
            return False
        self.told = now
        return True

    async def close(self, websocket: WebSocket, kick: bool) -> None:
        if kick:
            self.offenders.cut_off(self.who, spare=self.drop)
            await close_for_flooding(websocket)
        if self.drop is not None:  # (closed: what it still sends is not parsed)
            self.drop(FLOOD_CLOSE, "too many messages")


async def close_for_flooding(websocket: WebSocket) -> None:
    """Say why, then close with FLOOD_CLOSE (at most a second: a flooder need not read)."""
    with contextlib.suppress(BaseException):
        async with asyncio.timeout(1.0):
            await websocket.send_text(dumps(ServerError(
                "bad_request", "too many messages: this connection is closed", detail="rate_limit").to_json()))  # fmt: skip
            await websocket.close(code=FLOOD_CLOSE)


def router(
    manager: TableManager,
    send_timeout: float = SEND_TIMEOUT,
    load: Callable[[str], Awaitable[None]] | None = None,
    on_refuse: Callable[[str], None] | None = None,
    limits: WsLimits | None = None,
    messages: MessageBudget | None = None,
) -> APIRouter:
    """The websocket route; `load(table_id)` brings a table into memory first (several processes: from the
    database); `on_refuse(kind)` hears of every refusal (its metrics kind); `messages`: the budget of messages per
    client address (shared with the Guard, which refuses banned addresses; default: one from `limits`)."""
    refused = on_refuse or (lambda _kind: None)
    lim = limits or WsLimits()
    budget = messages or MessageBudget(lim.messages, lim.burst, lim.cooloff)
    hub = Spectators(manager, lim)
    offenders = Offenders()
    heap = HeapTrim()  # after a wave of closed websockets, glibc gives their memory back
    r = APIRouter()
    r.spectators = hub  # type: ignore[attr-defined]  # (tests look at it)
    r.heap = heap  # type: ignore[attr-defined]  # (tests look at it)

    @r.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str, token: str | None = None) -> None:
        await websocket.accept()
        wake = asyncio.Event()
        try:
            if load is not None:
                await load(table_id)
            table = manager.get(table_id)
            seat = manager.seat_of(table, token) if token else None
            watcher = hub.join(table, wake.set) if seat is None else None
        except ServerError as e:
            refused(refusal_kind(e.code, e.detail))
            await websocket.send_json(e.to_json())
            await websocket.close(code=close_code(e))
            return
        conn = manager.connect(table, seat, wake.set, token) if seat is not None else None
        errors: list[dict[str, Any] | str] = watcher.errors if watcher is not None else conn.errors  # type: ignore[union-attr,assignment]  # conn is set when watcher is None
        wake.set()
        who = websocket.client.host if websocket.client else "?"
        drop = offenders.add(who, websocket)
        throttle = Throttle(who, budget, lim, offenders, drop)
        refusals = RateLimit()  # refused messages: a client that keeps sending junk is slowed down
        main = asyncio.current_task()
        ending = False  # the handler is ending: the sender is stopped, not given up
        dropped = False  # the sender gave up on the client: the handler ends

        async def send(text: str) -> None:
            # a client that does not read cannot hold the sender (and the message) for longer than this
            async with asyncio.timeout(send_timeout):
                await websocket.send_text(text)

        async def sender() -> None:
            nonlocal dropped
            try:
                while True:
                    await wake.wait()
                    wake.clear()
                    while errors:
                        e = errors.pop(0)
                        await send(e if isinstance(e, str) else dumps(e))
                    if conn is not None and not manager.holds(
                        conn
                    ):  # the seat was taken with its link elsewhere
                        await send(dumps(ServerError(
                            "unauthorized", "this seat was taken through its link by someone else",
                            detail="seat_taken").to_json()))  # fmt: skip
                        await asyncio.wait_for(websocket.close(code=4003), 1.0)
                        return
                    # (without a watcher, the connection is a seat's: `conn` is set)
                    seat_conn = cast(Connection, conn)
                    update = (
                        watcher.feed.text_for(watcher)
                        if watcher is not None
                        else seat_update(manager, seat_conn)
                    )
                    if update is not None:
                        await send(update)
            except (TimeoutError, WebSocketDisconnect, RuntimeError, OSError):
                # too slow a reader, or gone: drop the connection (the client reconnects and gets the state;
                # the server's websocket protocol aborts the transport if even the close cannot go out)
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(websocket.close(code=1008), 1.0)
            finally:
                if not ending and main is not None:  # the handler waits on the client: stop waiting
                    dropped = True
                    main.cancel()

        task = asyncio.create_task(sender())
        n = 0
        try:
            while True:
                data = await websocket.receive()
                if data["type"] == "websocket.disconnect":
                    break
                n += 1
                over = not budget.available(who) or not refusals.available()
                if over or n % 8 == 0:  # a backlog of queued messages never holds the event loop for long
                    await asyncio.sleep(0)
                if over:
                    # over the address's budget (or this connection's refusals): dropped unread, answered at most
                    # once a second; a connection that keeps on is closed and its address cooled off
                    refused("rate_limit")
                    verdict = throttle.verdict()
                    if verdict is not None:
                        if verdict == "kick":
                            log.warning("websocket from %s closed for flooding (table %s)", who, table_id)
                        ending = True
                        task.cancel()
                        await throttle.close(websocket, kick=verdict == "kick")
                        break
                    if throttle.tell():
                        errors.append(
                            ServerError(
                                "bad_request", "too many messages: slow down", detail="rate_limit"
                            ).to_json()
                        )
                        wake.set()
                    continue
                text = data.get("text")
                if text is None:
                    text = data.get("bytes") or b""
                try:
                    try:
                        handle_message(manager, table_id, conn.token if conn is not None else None, text)
                    except (ServerError, WebSocketDisconnect):
                        raise
                    except Exception:  # a bug must not cost the client its connection: refuse and log it
                        log.exception("unexpected error on a message for table %s", table_id)
                        raise ServerError(
                            "bad_request", "this message could not be handled", detail="not_handled"
                        ) from None
                except ServerError as e:
                    refused(refusal_kind(e.code, e.detail))
                    refusals.allow()  # every refusal, stale_version too: a flood of any kind is slowed down
                    budget.allow(
                        who
                    )  # ...and counts for the address, whichever of its connections it came on
                    if len(errors) < 50:
                        errors.append(e.to_json())
                    wake.set()
        except asyncio.CancelledError:
            if not dropped:
                raise
            if main is not None:  # the sender gave up on the client (and cancelled this wait): end normally
                main.uncancel()
        except WebSocketDisconnect:
            pass
        finally:
            ending = True
            task.cancel()
            offenders.remove(who, drop)
            heap.closed()
            with contextlib.suppress(BaseException):
                await task
            if watcher is not None:
                hub.leave(watcher)
            if conn is not None:
                manager.disconnect(conn)

    return r
