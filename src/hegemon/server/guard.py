"""The front door of the web table: one plain ASGI middleware in front of every HTTP request that

- finds the client's address (`X-Forwarded-For` is believed only from the configured trusted proxies, so a
  client cannot dodge its rate limit by inventing addresses);
- rate-limits writes per client address;
- holds every request body to `max_body` bytes *while it streams in* (a chunked upload without a
  Content-Length is cut off at the limit, never read in full), and refuses a body that is not strict JSON
  (a lone surrogate, nesting deeper than MAX_JSON_DEPTH) with a typed `bad_request` before the application
  parses it;
- adds the security headers (Content-Security-Policy and friends) to every response;
- holds each client address to MAX_SOCKETS open websockets, and refuses websockets from an address that was
  just disconnected for flooding (`MessageBudget`, shared with ws.py, which spends it)."""

from __future__ import annotations

import contextlib
import functools
import ipaddress
import json
import os
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

from hegemon.server.protocol import ServerError, parse_client_json

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 300 * 1024
"""Largest request body (a board file is at most 256 KB of TOML, escaped in JSON)."""
MAX_SOCKETS = 64
"""Open websockets per client address (a family behind one router plays several tables at once; a script
opening thousands is refused)."""
TRUSTED_PROXIES_ENV = "HEGEMON_TRUSTED_PROXIES"
CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; "
    "connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_proxies(spec: str | Iterable[str] | None) -> list[Network]:
    """Trusted proxy addresses or networks from "10.0.0.1, 192.168.0.0/16, ::1" (or a list of them). An
    unreadable entry is a ValueError naming it: a typo must not silently trust nobody (or everybody)."""
    if spec is None:
        return []
    parts = spec.split(",") if isinstance(spec, str) else list(spec)
    out: list[Network] = []
    for p in parts:
        p = p.strip()
        if not p:
            continue
        try:
            out.append(ipaddress.ip_network(p, strict=False))
        except ValueError:
            raise ValueError(f"trusted proxy {p!r} is not an IP address or network") from None
    return out


def proxies_from_env() -> list[Network]:
    return parse_proxies(os.environ.get(TRUSTED_PROXIES_ENV))


@functools.lru_cache(maxsize=4096)
def _ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """`host` as an address (None: not one); parsed once per address (every request and handshake asks)."""
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def _trusted(host: str, proxies: list[Network]) -> bool:
    addr = _ip(host)
    return addr is not None and any(addr in n for n in proxies)


def client_address(scope: Scope, proxies: list[Network]) -> str:
    """The address of whoever sent the request. The peer of the connection, unless the peer is a trusted
    proxy: then the right-most address of X-Forwarded-For that is not itself a trusted proxy (every address
    left of that one was written by the client and proves nothing)."""
    client = scope.get("client")
    peer = str(client[0]) if client else "?"
    if not proxies or not _trusted(peer, proxies):
        return peer
    hops: list[str] = []
    for name, value in scope.get("headers", ()):
        if name == b"x-forwarded-for":
            hops.extend(h.strip() for h in value.decode("latin-1").split(","))
    for hop in reversed(hops):
        if hop and not _trusted(hop, proxies):
            return hop[:64]
    return peer


class TokenBucket:
    """`burst` at once, `rate` per second after that (time from `clock`)."""

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.t = now

    def allow(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.t) * self.rate)
        self.t = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class WorkBudget:
    """Each client's budget of read work, in seconds of the server's time: `rate` seconds per second, up to
    `burst` banked (a new client starts with `burst`). A read is let in while the client's balance is above
    zero and charged afterwards what it cost (at least `floor`, the framework's own share of a request), so a
    client that spends its balance is refused until it has earned some back (`refused` says how long). Time
    comes from `clock`; at most `max_clients` balances are kept (a full budget is forgotten first)."""

    def __init__(
        self,
        rate: float,
        burst: float,
        floor: float = 0.002,
        clock: Callable[[], float] | None = None,
        max_clients: int = 10_000,
    ) -> None:
        import time

        self.rate = rate
        self.burst = burst
        self.floor = floor
        self.clock = clock or time.monotonic
        self.max_clients = max_clients
        self.balance: dict[str, tuple[float, float]] = {}  # client: (seconds banked, when)

    def _now(self, who: str) -> float:
        now = self.clock()
        left, t = self.balance.get(who, (self.burst, now))
        return min(self.burst, left + (now - t) * self.rate)

    def refused(self, who: str) -> float | None:
        """None when `who` may read now, else the seconds until it may."""
        left = self._now(who)
        if left > 0:
            return None
        return (self.floor - left) / self.rate if self.rate > 0 else 3600.0

    def charge(self, who: str, seconds: float, floor: bool = True) -> None:
        """Take `seconds` of work (at least `floor`, unless told otherwise: more work for a read already charged)
        from `who`'s balance."""
        left = self._now(who) - (max(self.floor, seconds) if floor else max(0.0, seconds))
        if who not in self.balance and len(self.balance) >= self.max_clients:
            now = self.clock()
            for k, (b, t) in list(
                self.balance.items()
            ):  # forget the clients that have their whole budget back
                if b + (now - t) * self.rate >= self.burst:
                    del self.balance[k]
            if len(self.balance) >= self.max_clients:
                self.balance.clear()
        self.balance[who] = (left, self.clock())


class MessageBudget:
    """Refused websocket messages per client address, across all of its connections: `rate` a second after a burst
    of `burst` (one bucket per address, however many sockets it opens; accepted moves are bounded by the games). A connection that keeps sending once its
    address's budget is spent is an offender (ws.py closes it, code 4029, and calls `ban`): its address may open no
    websocket for `cooloff` seconds. At most `max_clients` addresses are kept (full buckets are forgotten first)."""

    def __init__(
        self,
        rate: float,
        burst: float,
        cooloff: float,
        clock: Callable[[], float] | None = None,
        max_clients: int = 10_000,
    ) -> None:
        import time

        self.rate = rate
        self.burst = burst
        self.cooloff = cooloff
        self.clock = clock or time.monotonic
        self.max_clients = max_clients
        self.buckets: dict[str, TokenBucket] = {}
        self.banned: dict[str, float] = {}  # address: until when

    def available(self, who: str) -> bool:
        """Whether `who` has budget left (nothing taken)."""
        b = self.buckets.get(who)
        return b is None or b.tokens + (self.clock() - b.t) * b.rate >= 1

    def allow(self, who: str) -> bool:
        """Take one message from `who`'s budget; False (nothing taken) when it is spent."""
        now = self.clock()
        b = self.buckets.get(who)
        if b is None:
            if len(self.buckets) >= self.max_clients:
                for k, old in list(
                    self.buckets.items()
                ):  # forget the addresses that have their whole budget back
                    if old.tokens + (now - old.t) * old.rate >= old.burst:
                        del self.buckets[k]
                if len(self.buckets) >= self.max_clients:
                    self.buckets.clear()
            b = self.buckets[who] = TokenBucket(self.rate, self.burst, now)
        return b.allow(now)

    def ban(self, who: str) -> None:
        now = self.clock()
        if len(self.banned) >= self.max_clients:
            self.banned = {k: v for k, v in self.banned.items() if v > now}
            if len(self.banned) >= self.max_clients:
                self.banned.clear()
        self.banned[who] = now + self.cooloff

    def banned_for(self, who: str) -> float | None:
        """Seconds `who` must still wait before it may open a websocket, or None."""
        until = self.banned.get(who)
        if until is None:
            return None
        left = until - self.clock()
        if left <= 0:
            del self.banned[who]
            return None
        return left


class Guard:
    """The middleware (see the module text). `creates`: (per second, burst) of new tables per client address;
    `writes`: the same for every other POST."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_body: int = MAX_BODY,
        trusted_proxies: list[Network] | None = None,
        writes: tuple[float, float] = (50.0, 100.0),
        creates: tuple[float, float] = (2.0, 120.0),
        max_sockets: int = MAX_SOCKETS,
        messages: MessageBudget | None = None,
        clock: Callable[[], float] | None = None,
        on_refuse: Callable[[str], None] | None = None,
    ) -> None:
        """`on_refuse(kind)`: told of each refusal (rate_limit, too_large, too_many_sockets, bad_request);
        `messages`: the websockets' message budget, whose banned addresses may open no websocket."""
        import time

        self.app = app
        self.max_body = max_body
        self.proxies = list(trusted_proxies or [])
        self.writes = writes
        self.creates = creates
        self.clock = clock or time.monotonic
        self.buckets: dict[tuple[str, bool], TokenBucket] = {}
        self.max_sockets = max_sockets
        self.sockets: dict[str, int] = {}
        self.messages = messages
        self.on_refuse = on_refuse or (lambda _kind: None)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        who = client_address(scope, self.proxies)
        client = scope.get("client")
        if not client or client[0] != who:
            scope["client"] = (who, 0)
        if scope["type"] == "websocket":
            if self.sockets.get(who, 0) >= self.max_sockets:
                self.on_refuse("too_many_sockets")
                await send(
                    {"type": "websocket.close", "code": 1008, "reason": "too many connections"}
                )  # a 403
                return
            if self.messages is not None and self.messages.banned_for(who) is not None:
                self.on_refuse("rate_limit")
                await send(
                    {"type": "websocket.close", "code": 1008, "reason": "flooding: try again later"}
                )  # a 403
                return
            self.sockets[who] = self.sockets.get(who, 0) + 1
            try:
                await self.app(scope, receive, send)
            finally:
                self.sockets[who] -= 1
                if not self.sockets[who]:
                    del self.sockets[who]
            return
        send = self._with_headers(send)
        if scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        if not self._allowed(who, scope["path"] == "/api/tables" and scope["method"] == "POST"):
            self.on_refuse("rate_limit")
            await _error(send, 429, "too many requests: slow down", "rate_limit")
            return
        length = _header(scope, b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            self.on_refuse("too_large")
            await _error(send, 400, f"request too large (at most {self.max_body} bytes)", "too_large")
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > self.max_body:
                self.on_refuse("too_large")
                await _error(send, 400, f"request too large (at most {self.max_body} bytes)", "too_large")
                return
            if not message.get("more_body", False):
                break
        if body:
            try:
                parse_client_json(bytes(body))
            except ServerError as e:
                self.on_refuse("bad_request")
                await _error(send, 400, e.message, e.detail)
                return
        await self.app(scope, _replay(bytes(body), receive), send)

    def _allowed(self, who: str, creating: bool) -> bool:
        key = (who, creating)
        b = self.buckets.get(key)
        if b is None:
            if len(self.buckets) > 10_000:
                self.buckets.clear()
            rate, burst = self.creates if creating else self.writes
            b = self.buckets[key] = TokenBucket(rate, burst, self.clock())
        return b.allow(self.clock())

    @staticmethod
    def _with_headers(send: Send) -> Send:
        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    h for h in message.get("headers", ()) if h[0].lower() not in dict(SECURITY_HEADERS)
                ]
                message["headers"] = headers + SECURITY_HEADERS
            await send(message)

        return wrapped


def _header(scope: Scope, name: bytes) -> str | None:
    for k, v in scope.get("headers", ()):
        if k == name:
            return str(v.decode("latin-1"))
    return None


def _replay(body: bytes, receive: Receive) -> Receive:
    """A `receive` that hands the application the body already read, then waits on the connection."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _error(send: Send, status: int, message: str, detail: str | None = None) -> None:
    err: dict[str, str] = {"type": "error", "code": "bad_request", "message": message}
    if detail:
        err["detail"] = detail  # the client says it in its language (err.<detail>)
    body = json.dumps(err).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


REFUSED_UPGRADE = (
    b"HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: 25\r\n"
    b"connection: close\r\n\r\nflooding: try again later"
)


def timed_http_protocol(
    request_timeout: float, refuse_upgrade: Callable[[dict[str, Any]], bool] | None = None
) -> type[Any]:
    """uvicorn's HTTP protocol (httptools) with a request deadline: from the connection (or the first byte of
    a new request on a kept-alive one) to the end of the request's body, at most `request_timeout` seconds,
    else 408 and the connection is closed. uvicorn itself only times out idle kept-alive connections, so a
    client sending half a request could otherwise hold a connection for ever.

    `refuse_upgrade(scope)`: whether a websocket handshake is refused at once (a cooled-off flooding address):
    a plain 403 before any websocket machinery or middleware runs, so that an address hammering the server
    with reconnections costs it an HTTP parse per attempt, not a handshake."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class TimedHttpToolsProtocol(HttpToolsProtocol):
        _deadline: Any = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()

        def on_message_complete(self) -> None:
            self._disarm()
            super().on_message_complete()

        def handle_websocket_upgrade(self) -> None:
            self._disarm()
            if refuse_upgrade is not None and refuse_upgrade(dict(self.scope)):
                self.connections.discard(self)
                self.transport.write(REFUSED_UPGRADE)
                self.transport.close()
                return
            super().handle_websocket_upgrade()

        def _arm(self) -> None:
            if self._deadline is None:
                self._deadline = self.loop.call_later(request_timeout, self._expire)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expire(self) -> None:
            self._deadline = None
            if self.transport.is_closing():
                return
            if self.cycle is None or not self.cycle.response_started:
                self.transport.write(
                    b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                )
            self.transport.close()

    return TimedHttpToolsProtocol


DROP_EXTENSION = "hegemon.drop"
"""The scope extension under which `firm_websocket_protocol` offers `drop(code, reason)`: the connection is closed
now, from outside its handler (a close frame is sent, nothing more is read or parsed, the transport is aborted
after the grace if the client does not take it): what every websocket of a flooding address gets."""

WS_RECEIVE_BUFFER = 16 * 1024
"""The kernel's receive buffer of a websocket's socket (bytes; Linux doubles it): what a client can have sent
that the server has not asked for yet. A sender past its budget fills it and then waits on TCP, so one read
hands the server at most a few hundred small frames to parse instead of asyncio's 256 KiB."""


def firm_websocket_protocol(grace: float = 2.0, receive_buffer: int = WS_RECEIVE_BUFFER) -> type[Any]:
    """uvicorn's websocket protocol, but a connection that is being closed is really gone `grace` seconds
    later: after a missed ping, a close the client never answers, or the end of the handler, the transport
    is aborted (uvicorn only asks it to close, which waits for ever to flush data a client never reads).
    Each connection also offers the application a way to drop it at once (`scope["extensions"][DROP_EXTENSION]`)
    and reads through a small kernel buffer (`receive_buffer`)."""
    import socket

    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

    class FirmWebSocketProtocol(WebSocketsSansIOProtocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.close_timeout = grace
            self.dropping = False

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            sock = transport.get_extra_info("socket")
            if sock is not None and receive_buffer:
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)
            if scope is not None:
                scope["extensions"][DROP_EXTENSION] = self._drop

        def keepalive_timeout(self) -> None:
            super().keepalive_timeout()
            self._abort_later()

        async def run_asgi(self) -> None:
            try:
                await super().run_asgi()
            finally:
                self._abort_later()

        def _abort_later(self) -> None:
            self.loop.call_later(grace, self._abort)

        def _abort(self) -> None:
            if not self.disconnected:
                self.transport.abort()

        def data_received(self, data: bytes) -> None:
            if self.dropping:  # dropped: what it still sends is thrown away unparsed
                return
            super().data_received(data)

        def _drop(self, code: int, reason: str = "") -> None:
            if self.disconnected or self.transport.is_closing() or self.dropping:
                return
            self.dropping = True
            if not self.close_sent:
                self.close_sent = True
                with contextlib.suppress(Exception):
                    self.conn.send_close(code, reason)
                    self.transport.write(b"".join(self.conn.data_to_send()))
            # reading goes on (into the void) so that no reset overtakes the close frame; the transport is aborted
            # after the grace (a client that has read the close frame has its code by then), not closed when the
            # handler ends (uvicorn leaves a transport with a close timer to it)
            if self.close_timer is None:
                self.close_timer = self.loop.call_later(grace, self._abort)

    return FirmWebSocketProtocol
