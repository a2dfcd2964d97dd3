"""Operating the web table: health (`/healthz`: the process answers; `/readyz`: the database answers and its
schema is this version's), Prometheus metrics (`/metrics`, through the `prometheus_client` library), the
structured access log, the log format of `hegemon serve --log-level/--log-format`, and the listening socket,
bound before anything is printed so that a busy port is a clear error at once.

`/metrics` says how busy the server is and how its database fares, nothing about any player; still, it is not
for the public: without HEGEMON_METRICS_TOKEN it answers only direct connections from the machine itself
(loopback, no proxy header), with it only requests bearing `Authorization: Bearer <token>`. `/readyz` and
`/metrics` share the per-address read rate limit of the replays; `/healthz` costs no more than a static page."""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import errno
import ipaddress
import logging
import logging.handlers
import os
import queue
import secrets
import socket
import sys
import time
from collections import Counter as Tally
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import IO, TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CollectorRegistry, Counter, Histogram, ProcessCollector, disable_created_metrics
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.metrics_core import CounterMetricFamily, GaugeMetricFamily, InfoMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy import text

from hegemon.server.protocol import ERROR_CODES
from hegemon.server.settings import LOG_FORMATS, LOG_LEVELS
from hegemon.server.storage import SqlStorage

if TYPE_CHECKING:
    from hegemon.server.bots import Thinkers
    from hegemon.server.tables import TableManager

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

access_log = logging.getLogger("hegemon.access")
log = logging.getLogger("hegemon.server")

METRICS_TOKEN_ENV = "HEGEMON_METRICS_TOKEN"
MIN_TOKEN = 16
"""Shortest metrics token accepted (characters): a token is a secret, not a password to remember."""
READY_CACHE = 1.0
"""Seconds one readiness answer is reused: however often /readyz is asked, the database is asked at most once
a second."""
READY_TIMEOUT = 5.0
"""Seconds the database may take to answer the readiness query before /readyz says it is unreachable."""
REFUSAL_KINDS = (*ERROR_CODES, "rate_limit", "too_large", "too_many_sockets", "not_found")
"""The `kind` label of hegemon_refusals_total: an error code, or one of the front door's own refusals."""
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
TABLE_STATUSES = ("waiting", "playing", "finished", "stopped")
FORWARDING_HEADERS = (b"x-forwarded-for", b"forwarded", b"x-real-ip")


def refusal_kind(code: str, detail: str | None = None) -> str:
    """The metrics kind of a refusal: the rate limits and oversized bodies apart, else its error code."""
    if detail in ("rate_limit", "too_large"):
        return detail
    return code if code in REFUSAL_KINDS else "bad_request"


# ------------------------------------------------------------------ metrics


class Metrics:
    """One application's metrics, in a registry of its own (several applications may live in one process)."""

    def __init__(self, manager: TableManager, thinkers: Thinkers | None) -> None:
        disable_created_metrics()  # no *_created series: half the lines, and Prometheus does not need them
        self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter(
            "hegemon_http_requests", "HTTP requests answered, by route (its template, not the path), method and "
            "status; websocket connections count as method WEBSOCKET, status 101 when accepted",
            ["route", "method", "status"], registry=self.registry,
        )  # fmt: skip
        self.duration = Histogram(
            "hegemon_http_request_duration_seconds", "Time to answer an HTTP request, by route",
            ["route"], registry=self.registry,
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
        )  # fmt: skip
        self.refusals = Counter(
            "hegemon_refusals", "Requests and websocket messages refused, by kind (an error code such as "
            "illegal_action or stale_version, or rate_limit, too_large, too_many_sockets, not_found)",
            ["kind"], registry=self.registry,
        )  # fmt: skip
        for k in REFUSAL_KINDS:
            self.refusals.labels(k)
        ProcessCollector(registry=self.registry)
        self.registry.register(_Live(manager, thinkers))

    def refuse(self, kind: str) -> None:
        self.refusals.labels(kind if kind in REFUSAL_KINDS else "bad_request").inc()

    def render(self) -> bytes:
        return generate_latest(self.registry)


class _Live(Collector):
    """What the server holds now, read when scraped (a pass over the tables in memory)."""

    def __init__(self, manager: TableManager, thinkers: Thinkers | None) -> None:
        self.manager = manager
        self.thinkers = thinkers

    def describe(self) -> Iterable[Metric]:
        return []  # no fixed description: collected on each scrape only

    def collect(self) -> Iterable[Metric]:
        m = self.manager
        tables = list(m.tables.values())
        by_status = Tally(t.status for t in tables)
        live = GaugeMetricFamily(
            "hegemon_tables_live", "Tables in this process's memory, by status", labels=["status"]
        )
        for s in TABLE_STATUSES:
            live.add_metric([s], by_status.get(s, 0))
        yield live
        yield CounterMetricFamily(
            "hegemon_log_records_dropped", "Log records dropped because the log's writer fell behind",
            value=DroppingQueueHandler.dropped,
        )  # fmt: skip
        yield GaugeMetricFamily(
            "hegemon_websocket_connections", "Open websocket connections (seats and spectators)",
            value=sum(c.people for t in tables for c in t.connections),
        )  # fmt: skip
        th = self.thinkers
        yield GaugeMetricFamily(
            "hegemon_search_queue_length", "Bot decisions waiting for a search worker (--search-workers)",
            value=th.waiting if th is not None else 0,
        )  # fmt: skip
        yield GaugeMetricFamily(
            "hegemon_searches_running", "Bot searches thinking now", value=th.running if th is not None else 0
        )
        inner = getattr(m.storage, "inner", None)
        stored = inner.actions_stored if isinstance(inner, SqlStorage) else 0
        yield CounterMetricFamily(
            "hegemon_actions_stored", "Actions this process committed to the database", value=stored
        )
        backend = inner.engine.dialect.name if isinstance(inner, SqlStorage) else "memory"
        yield InfoMetricFamily(
            "hegemon_storage", "The database this process stores tables in", value={"backend": backend}
        )
        yield GaugeMetricFamily(
            "hegemon_storage_up", "1 while the database takes writes; 0 while it refuses them (moves are refused "
            "with `unavailable` until it is back)", value=0 if m.unavailable() is not None else 1,
        )  # fmt: skip


def route_of(scope: Scope) -> str:
    """The route template that answered (bounded: never the raw path a client chose)."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    return str(path) if path else "other"


def _printable(s: str, limit: int = 200) -> str:
    s = s[:limit]
    return s if s.isprintable() else "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in s)


class Observe:
    """The outermost middleware: counts every HTTP request and websocket connection by route and status, and
    writes one access-log line each (`hegemon.access`, INFO; the query string is never logged: it may hold a
    seat's token). The client address is the one the Guard found (behind trusted proxies: the real client)."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500
        sent = 0

        async def observed(message: Message) -> None:
            nonlocal status, sent
            t = message["type"]
            if t == "http.response.start":
                status = int(message["status"])
            elif t == "http.response.body":
                sent += len(message.get("body", b""))
            elif t == "websocket.accept":
                status = 101
            elif t == "websocket.close" and status != 101:
                status = 403
            elif t == "websocket.http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, observed)
        finally:
            took = time.perf_counter() - start
            route = route_of(scope)
            method = "WEBSOCKET" if kind == "websocket" else str(scope.get("method", "?")).upper()
            if method not in METHODS and method != "WEBSOCKET":
                method = "other"
            self.metrics.requests.labels(route, method, str(status)).inc()
            if kind == "http":
                self.metrics.duration.labels(route).observe(took)
            if access_log.isEnabledFor(logging.INFO):
                client = scope.get("client")
                who = str(client[0]) if client else "-"
                path = _printable(str(scope.get("path", "")))
                agent = ""
                for k, v in scope.get("headers", ()):
                    if k == b"user-agent":
                        agent = _printable(v.decode("latin-1"), 120)
                        break
                access_log.info(
                    '%s "%s %s" %d %.1f ms', who, method, path, status, took * 1000,
                    extra={"client": who, "method": method, "path": path, "route": route, "status": status,
                           "duration_ms": round(took * 1000, 2), "bytes": sent, "user_agent": agent},
                )  # fmt: skip


# ------------------------------------------------------------------ readiness


class Readiness:
    """Whether this process can serve: the database answers, its schema is the one this version migrates to,
    and writes are not being refused. Asked in a thread of its own (never on the event loop), at most once per
    READY_CACHE seconds, one question at a time: a database that hangs holds one thread, not one per probe."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        inner = getattr(manager.storage, "inner", manager.storage)
        self.storage = inner if isinstance(inner, SqlStorage) else None
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None
        self._pending: concurrent.futures.Future[str | None] | None = None
        self._answer: tuple[bool, dict[str, Any]] | None = None
        self._at = 0.0
        self._said: str | None = None

    def _revision(self) -> str | None:
        assert self.storage is not None
        with self.storage.engine.connect() as conn:
            v = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
            return None if v is None else str(v)

    async def check(self) -> tuple[bool, dict[str, Any]]:
        now = time.monotonic()
        if self._answer is not None and now - self._at < READY_CACHE:
            return self._answer
        answer = await self._ask()
        self._answer, self._at = answer, time.monotonic()
        why = None if answer[0] else str(answer[1].get("reason"))
        if why != self._said:
            if why is None:
                log.info("ready: the database answers and its schema is current")
            else:
                log.warning("not ready: %s", answer[1].get("message"))
            self._said = why
        return answer

    async def _ask(self) -> tuple[bool, dict[str, Any]]:
        from hegemon.server.migrate import head

        down = self.manager.unavailable()
        if self.storage is None:
            backend = "memory"
        else:
            backend = self.storage.engine.dialect.name
            if self._pool is None:
                self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="hegemon-ready")
            if self._pending is None or self._pending.done():
                self._pending = self._pool.submit(self._revision)
            try:
                rev = await asyncio.wait_for(asyncio.wrap_future(self._pending), READY_TIMEOUT)
            except TimeoutError:
                return _not_ready(
                    backend, "database_unreachable", f"the database did not answer within {READY_TIMEOUT:g} s"
                )
            except Exception as e:  # unreachable, refused, no such table: said without the driver's details
                log.debug("readiness query failed", exc_info=True)
                orig = getattr(e, "orig", None)
                first = str(orig if orig is not None else e).strip().splitlines()
                return _not_ready(backend, "database_unreachable", "the database cannot be queried: "
                                         + (first[0][:200] if first else type(e).__name__), public="the database cannot be queried")  # fmt: skip
            want = head()
            if rev != want:
                return _not_ready(backend, "schema_mismatch", f"the database schema is at {rev}, this version of "
                                         f"hegemon needs {want} (restart to migrate, or run the same version)")  # fmt: skip
        if down is not None:
            return _not_ready(backend, "writes_refused", f"the database refuses writes ({down})",
                                     public="the database refuses writes")  # fmt: skip
        return True, {"status": "ready", "database": backend}

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def _not_ready(
    backend: str, reason: str, message: str, public: str | None = None
) -> tuple[bool, dict[str, Any]]:
    """A 503 answer: `reason` is a fixed word; the full message goes to the log, the body gets `public` (the
    driver's words may name internal hosts)."""
    return False, {"status": "not_ready", "database": backend, "reason": reason, "message": message,
                   "public": public or message}  # fmt: skip


# ------------------------------------------------------------------ the routes


def metrics_token(env: MutableMapping[str, str] | None = None) -> str | None:
    """HEGEMON_METRICS_TOKEN, checked: at least MIN_TOKEN characters, printable, no spaces."""
    raw = (os.environ if env is None else env).get(METRICS_TOKEN_ENV)
    if raw is None or raw.strip() == "":
        return None
    tok = raw.strip()
    if len(tok) < MIN_TOKEN or not tok.isprintable() or any(c.isspace() for c in tok):
        raise ValueError(f"{METRICS_TOKEN_ENV} must be at least {MIN_TOKEN} printable characters without spaces "
                         "(e.g. the output of: python3 -c 'import secrets; print(secrets.token_urlsafe(32))')")  # fmt: skip
    return tok


def _local(request: Request) -> bool:
    """A direct connection from this machine: loopback peer and no proxy's forwarding header (behind a proxy on
    this machine every client would otherwise look local)."""
    if any(k in FORWARDING_HEADERS for k, _ in request.scope.get("headers", ())):
        return False
    host = request.client.host if request.client else ""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def router(
    metrics: Metrics, readiness: Readiness, limit: Callable[[Request], None], token: str | None
) -> APIRouter:
    """/healthz, /readyz and /metrics (see the module text)."""
    r = APIRouter(include_in_schema=False)
    expected = f"Bearer {token}".encode() if token else None

    @r.api_route("/healthz", methods=["GET", "HEAD"])
    async def healthz() -> Response:
        """The process is alive and its event loop answers."""
        return JSONResponse({"status": "ok"}, headers={"cache-control": "no-store"})

    @r.api_route("/readyz", methods=["GET", "HEAD"])
    async def readyz(request: Request) -> Response:
        """200 when the database answers with this version's schema and takes writes; 503 otherwise."""
        limit(request)
        ok, body = await readiness.check()
        if not ok:
            body = {k: v for k, v in body.items() if k != "message"} | {"message": body["public"]}
            body.pop("public", None)
        return JSONResponse(body, status_code=200 if ok else 503, headers={"cache-control": "no-store"})

    @r.get("/metrics")
    async def prometheus(request: Request) -> Response:
        """The metrics in Prometheus' text format, for this machine or the token's bearer only."""
        limit(request)
        if expected is not None:
            given = request.headers.get("authorization", "").encode("latin-1", "replace")
            allowed = secrets.compare_digest(given, expected)
        else:
            allowed = _local(request)
        if not allowed:
            metrics.refuse("unauthorized")
            why = (
                "a valid 'Authorization: Bearer' token"
                if expected
                else f"a direct connection from this machine ({METRICS_TOKEN_ENV} unset)"
            )
            return JSONResponse({"type": "error", "code": "unauthorized", "message": f"/metrics needs {why}"},
                                status_code=403)  # fmt: skip
        return Response(
            metrics.render(), media_type=CONTENT_TYPE_LATEST, headers={"cache-control": "no-store"}
        )

    return r


# ------------------------------------------------------------------ logs


def _json_formatter() -> logging.Formatter:
    try:
        from pythonjsonlogger.json import JsonFormatter
    except ImportError:  # python-json-logger 3.0
        from pythonjsonlogger.jsonlogger import JsonFormatter  # type: ignore[attr-defined]  # 3.0 re-exports it implicitly
    return JsonFormatter(
        "%(levelname)s %(name)s %(message)s",
        rename_fields={"levelname": "level", "name": "logger"},
        timestamp="time",
    )


def _plain(record: logging.LogRecord) -> bool:
    """Drop uvicorn's copy of its message with terminal colours (a JSON log would carry both)."""
    record.__dict__.pop("color_message", None)
    return True


class DroppingQueueHandler(logging.handlers.QueueHandler):
    """A QueueHandler whose full queue drops the record (and counts it) instead of waiting: the event loop never
    waits on a log destination that stopped reading (a full pipe, a stalled journal)."""

    dropped = 0

    def enqueue(self, record: logging.LogRecord) -> None:
        try:
            self.queue.put_nowait(record)
        except queue.Full:
            DroppingQueueHandler.dropped += 1


class _Listener(logging.handlers.QueueListener):
    def enqueue_sentinel(self) -> None:
        # the queue may be full (the reason records were dropped): wait a little for the writer to make room
        with contextlib.suppress(queue.Full):
            self.queue.put(self._sentinel, timeout=5)  # type: ignore[attr-defined]  # typeshed omits _sentinel


_listener: logging.handlers.QueueListener | None = None
LOG_QUEUE = 10_000  # records waiting for the writer thread; beyond, new records are dropped (and counted)


def _stop_listener() -> None:
    global _listener
    if _listener is not None:
        _listener.stop()
        _listener = None


def configure_logging(
    level: str = "info", fmt: str = "text", stream: IO[str] | None = None, capacity: int = LOG_QUEUE
) -> None:
    """One handler on the root logger: text (`time level logger: message`) or one JSON object a line (fields
    time, level, logger, message, and for the access log client, method, path, route, status, duration_ms,
    bytes, user_agent). hegemon's and uvicorn's loggers at `level`; other libraries warnings and above."""
    level, fmt = level.lower(), fmt.lower()
    if level not in LOG_LEVELS:
        raise ValueError(f"log level {level!r}: choose one of {', '.join(LOG_LEVELS)}")
    if fmt not in LOG_FORMATS:
        raise ValueError(f"log format {fmt!r}: choose one of {', '.join(LOG_FORMATS)}")
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.addFilter(_plain)
    if fmt == "json":
        handler.setFormatter(_json_formatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    global _listener
    _stop_listener()
    # records are formatted and written by one thread: a caller (the event loop) only puts them on a queue
    q: queue.Queue[logging.LogRecord] = queue.Queue(maxsize=capacity)
    _listener = _Listener(q, handler, respect_handler_level=True)
    _listener.start()
    root = logging.getLogger()
    for h in list(root.handlers):
        root.removeHandler(h)
    root.addHandler(DroppingQueueHandler(q))
    n = logging.getLevelName(level.upper())
    root.setLevel(max(n, logging.WARNING))
    for name in ("hegemon", "uvicorn", "uvicorn.error"):
        logging.getLogger(name).setLevel(n)
    logging.getLogger("uvicorn.access").setLevel(
        logging.WARNING
    )  # hegemon.access says it, with the real client


atexit.register(_stop_listener)  # the writer thread flushes what is queued before the process ends


# ------------------------------------------------------------------ the listening socket


def listen(host: str, port: int) -> socket.socket:
    """The server's listening socket, bound now: a busy port, a port below 1024 without the right, or an
    address this machine does not have is a ValueError naming it, before anything is printed or loaded."""
    if not 0 < port < 65536:
        raise ValueError(f"port {port}: give a number between 1 and 65535")
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise ValueError(f"cannot listen on {where}: {e.strerror}") from None
    family, kind, proto, _, addr = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(2048)
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise ValueError(f"cannot listen on {where}: the port is in use by another program (another "
                             "hegemon serve?); stop it or choose another port with --port") from None  # fmt: skip
        if e.errno == errno.EACCES:
            raise ValueError(f"cannot listen on {where}: permission denied (ports below 1024 need privileges; "
                             "use a port above 1024 behind a reverse proxy)") from None  # fmt: skip
        raise ValueError(f"cannot listen on {where}: {e.strerror or e}") from None
    sock.set_inheritable(True)
    return sock
