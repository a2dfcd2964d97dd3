"""The web table: `create_app` wires the REST API, the websockets, the bot runner and the static client
around one `TableManager`; `run` serves it with uvicorn (`hegemon serve`)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import sys
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import orjson
from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy import make_url
from starlette.exceptions import HTTPException as StarletteHTTPException

from hegemon.games import game_names, get_game
from hegemon.server import glossary, ws
from hegemon.server.assets import Assets
from hegemon.server.bots import BotRunner, Thinkers, durable
from hegemon.server.cluster import LEASE_EVERY, Cluster
from hegemon.server.guard import (
    Guard,
    MessageBudget,
    Network,
    WorkBudget,
    firm_websocket_protocol,
    parse_proxies,
    proxies_from_env,
    timed_http_protocol,
)
from hegemon.server.odds import Odds, TooMany, position_job
from hegemon.server.ops import (
    Metrics,
    Observe,
    Readiness,
    configure_logging,
    listen,
    refusal_kind,
)
from hegemon.server.ops import router as ops_router
from hegemon.server.protocol import (
    ERROR_CODES,
    HTTP_STATUS,
    ActionAccepted,
    ActionRequest,
    CreatedTable,
    CreateTable,
    CreatorRequest,
    GamesList,
    Joined,
    JoinRequest,
    ServerError,
    TableDetail,
    TableSummary,
    TakeSeat,
    error_responses,
)
from hegemon.server.settings import Expiry, OddsLimits, ReadLimits, Settings, TableLimits
from hegemon.server.storage import SHUTDOWN_GRACE, GroupCommit, LoopCommit, MemoryStorage, SqlStorage, Storage
from hegemon.server.tables import (
    MAX_REPLAY_LOG,
    REPLAY_LOG,
    Table,
    TableManager,
    UploadedBoard,
    check_board,
    web_bots,
)
from hegemon.server.ws import RateLimit

WEB = Path(__file__).resolve().parent.parent / "web"
log = logging.getLogger("hegemon.server")
READS_PER_SECOND = 20.0
READS_BURST = 60.0
"""Records and replays per client address: READS_PER_SECOND after a burst of READS_BURST (their own limit; the
other reads spend the client's `ReadLimits` budget)."""
ERRORS = error_responses()
"""Every typed error a table route may answer (its body, its codes by HTTP status): `protocol.ERRORS`."""


def only_typed_errors(schema: dict[str, Any]) -> dict[str, Any]:
    """The OpenAPI document as the server answers: every error is an ErrorBody in JSON (also on a route whose own
    answer is text), and no FastAPI stock 422 `HTTPValidationError`: a request that fails validation is answered
    400 `bad_request` (detail `invalid`), never that, so no route says it may be."""
    body = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
    for ops in schema.get("paths", {}).values():
        for op in ops.values():
            for status, r in op.get("responses", {}).items():
                if not status.startswith("2") and "/ErrorBody" in str(r.get("content", "")):
                    r["content"] = body  # an error is JSON whatever the route's own answer is (a record: NDJSON)
            r422 = op.get("responses", {}).get("422", {})
            if "HTTPValidationError" in str(r422.get("content", "")):
                del op["responses"]["422"]
                op["responses"].setdefault("400", {"description": error_responses(400)[400]["description"], "content": body})
    comps = schema.get("components", {}).get("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        if name in comps and f"/{name}\"" not in orjson.dumps(schema["paths"]).decode():
            del comps[name]
    return schema


def _swagger_ui() -> Path | None:
    try:
        from swagger_ui_bundle import swagger_ui_path
    except ImportError:
        return None
    return Path(swagger_ui_path)


SWAGGER_UI = _swagger_ui()
"""Swagger UI's files, from the pinned swagger-ui-bundle-v2 package: /docs needs no CDN."""
DOCS_HTML = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>hegemon web table — API</title>
<link rel="icon" href="/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/static/js/apidocs.js"></script>
</body>
</html>
"""
DOCS_FALLBACK = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>hegemon web table — API</title>
</head><body><p>Swagger UI is not installed here (pip install swagger-ui-bundle-v2). The API is described in
<a href="/openapi.json">/openapi.json</a>.</p></body></html>
"""


class SafeJSON(JSONResponse):
    """A JSON response written as ASCII: any text, even one that is not valid Unicode, can be sent."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode()


def default_db_url() -> str:
    import platformdirs

    d = Path(platformdirs.user_data_dir("hegemon"))
    d.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{d / 'hegemon.db'}"


def create_app(  # noqa: C901 (issue 29: the server split along its seams takes it apart)
    db_url: str | None = None,
    bot_delay: float = 0.8,
    *,
    manager: TableManager | None = None,
    board_dir: str | Path | None = None,
    trusted_proxies: list[Network] | None = None,
    ws_send_timeout: float = ws.SEND_TIMEOUT,
    lease_every: float = LEASE_EVERY,
    guard: dict[str, Any] | None = None,
    thinkers: Thinkers | None = None,
    expiry: Expiry | None = None,
    metrics_token: str | None = None,
    reads: ReadLimits | None = None,
    odds_limits: OddsLimits | None = None,
    public_url: str | None = None,
    table_limits: TableLimits | None = None,
    ws_limits: ws.WsLimits | None = None,
) -> FastAPI:
    """The application. `db_url` None: tables in memory only (tests); "sqlite:///path" or a PostgreSQL URL:
    durable tables, rebuilt from their actions at start-up. `trusted_proxies`: the addresses whose
    X-Forwarded-For is believed (default: HEGEMON_TRUSTED_PROXIES, else none); `guard`: other settings of the
    `Guard` middleware (e.g. `writes`, `creates` rate limits). On PostgreSQL any number of
    processes may serve the same database (`hegemon.server.cluster`): tables load when first asked for, and bots
    run in the process holding the table's lease (swept every `lease_every` seconds). `thinkers`: where and how
    much bots think (default: `Thinkers()`); `expiry`: when ended and abandoned tables are removed (default:
    `Expiry()`); `metrics_token`: the bearer token /metrics asks for (None: it answers only direct
    connections from this machine; see `hegemon.server.ops`); `reads`: each client's budget of read work
    (default: `ReadLimits()`); `odds_limits`: how odds are computed (default: `OddsLimits()`, see
    `hegemon.server.odds`); `public_url`: the server's address as players reach it (`public_base`), from
    which the links it hands out are made; without it they are relative (`/t/ID#seat=…`) and the web client puts
    its page's own origin before them: a request's Host header never makes a link. `table_limits`: how many live
    tables, when unwatched tables pause and ended ones leave memory (default `TableLimits()`; a given `manager`
    keeps its own). Ended tables are not loaded at start-up: each is read back from the database when asked
    for. `ws_limits`: what websockets may cost (default: `ws.WsLimits()`: refused messages per address,
    spectators)."""
    base = public_base(public_url)
    ended = expiry if expiry is not None else Expiry()
    thinkers = thinkers if thinkers is not None else Thinkers()
    read = reads if reads is not None else ReadLimits()
    budget = WorkBudget(read.work, read.burst, read.floor)
    sockets = ws_limits if ws_limits is not None else ws.WsLimits()
    messages = MessageBudget(sockets.messages, sockets.burst, sockets.cooloff)
    odds_service = Odds(odds_limits)
    unknown: OrderedDict[str, float] = OrderedDict()  # table ids the database did not have, and when
    if manager is None:
        storage: Storage = durable_storage(db_url) if db_url else MemoryStorage()
        if board_dir is None and db_url and db_url.startswith("sqlite:///"):
            board_dir = Path(make_url(db_url).database or ".").resolve().parent / "boards"
        manager = TableManager(storage, board_dir=board_dir, limits=table_limits)
    mgr = manager
    runner: BotRunner | None = None
    inner = getattr(mgr.storage, "inner", None)
    cluster = (
        Cluster(mgr, inner, lease_every=lease_every)
        if isinstance(inner, SqlStorage) and inner.engine.dialect.name == "postgresql"
        else None
    )

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        nonlocal runner
        if cluster is None:
            mgr.load()  # one process: every live table at start-up (several: each when first asked for)
        # what start-up built lives as long as the process: out of the collector's way (a full collection
        # would walk it every time)
        gc.collect()
        gc.freeze()
        if isinstance(mgr.storage, (GroupCommit, LoopCommit)):
            mgr.storage.start(asyncio.get_running_loop())
        runner = BotRunner(mgr, bot_delay, thinkers)
        if cluster is not None:
            cluster.run_bots = runner.watch
            cluster.stop_bots = runner.forget
            await cluster.start()
        for t in list(mgr.tables.values()):
            runner.watch(t)
        sweeper = asyncio.create_task(sweep(), name="expiry")
        try:
            yield
        finally:
            sweeper.cancel()
            with contextlib.suppress(BaseException):
                await sweeper
            if cluster is not None:
                await cluster.stop()
            await runner.stop()
            readiness.close()
            odds_service.close()
            mgr.storage.close()

    every = ended.interval()
    if mgr.limits.keep_ended:
        every = min(every, max(1.0, mgr.limits.keep_ended / 2))

    async def sweep() -> None:
        """Now and then: remove expired tables (see `Expiry`), in memory and in the database, and take ended ones
        out of memory (`TableManager.unload`)."""
        while True:
            await asyncio.sleep(every)
            mgr.unload()
            if mgr.unavailable() is None:
                gone = mgr.expire(ended.finished_after, ended.idle_after)
                stored = getattr(mgr.storage, "ended_before", None)
                if ended.finished_after and stored is not None:
                    with contextlib.suppress(Exception):  # the database is away: next time
                        old = await asyncio.to_thread(stored, time.time() - ended.finished_after)
                        mgr.expire_stored(old)
                        gone += [tid for tid in old if tid not in gone]
                if gone:
                    log.info("removed %d expired table(s): %s", len(gone), ", ".join(gone[:50]))

    app = FastAPI(
        title="hegemon web table",
        version="1",
        description="Play S.P.Q.RisiKo! and Polis with friends and against bots. Errors are typed: "
        f"{', '.join(ERROR_CODES)} (ErrorBody; each route lists its statuses).",
        lifespan=lifespan,
        docs_url=None,  # served below from the package's own copy of Swagger UI (the CSP allows no CDN)
        redoc_url=None,
    )
    app.state.manager = mgr
    metrics = Metrics(mgr, thinkers)
    readiness = Readiness(mgr)
    app.state.metrics = metrics
    app.state.budget = budget
    app.state.odds = odds_service
    app.add_middleware(
        Guard,
        trusted_proxies=trusted_proxies if trusted_proxies is not None else proxies_from_env(),
        on_refuse=metrics.refuse,
        messages=messages,
        **(guard or {}),
    )
    app.add_middleware(Observe, metrics=metrics)  # outermost: sees the Guard's refusals too

    def watch(t: Table) -> None:
        if cluster is not None:
            cluster.want(t)
        elif runner is not None:
            runner.watch(t)

    loading: dict[str, asyncio.Future[Table | None]] = {}

    async def load_stored(table_id: str) -> Table | None:
        """One process: an ended table read back from the database and rebuilt in a worker thread."""
        pending = loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        loading[table_id] = fut
        try:
            def build() -> Table | None:
                st = mgr.storage.load_one(table_id)
                return None if st is None else mgr.build(st)

            table = await asyncio.to_thread(build)
            t = mgr.tables.get(table_id)  # made meanwhile by another path
            if t is None and table is not None:
                mgr.adopt(table)
                t = table
            fut.set_result(t)
            return t
        except BaseException as e:
            fut.set_exception(e)
            fut.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            loading.pop(table_id, None)

    async def have(table_id: str, who: str | None = None) -> None:
        """Bring the table into memory if it is not there (several processes: any table this process has not
        loaded yet; one: an ended table that left memory), charging the database's and the rebuild's time to
        the reader `who`, and mark it watched (`TableManager.touch`). An id the database did not have is not
        asked about again for `ReadLimits.unknown_for` seconds (a negative cache, at most
        `ReadLimits.unknown_ids` ids)."""
        t = mgr.tables.get(table_id)
        if t is not None:
            mgr.touch(t)
            return
        if (cluster is None and not mgr.lazy) or len(table_id) > 32:
            return
        now = time.monotonic()
        seen = unknown.get(table_id)
        if seen is not None and now - seen < read.unknown_for:
            return
        t0 = time.perf_counter()
        found = await (cluster.fetch(table_id) if cluster is not None else load_stored(table_id))
        if found is not None:
            mgr.touch(found)
        if who is not None:
            budget.charge(who, time.perf_counter() - t0, floor=False)
        if found is None:
            unknown[table_id] = now
            unknown.move_to_end(table_id)
            while len(unknown) > read.unknown_ids:
                unknown.popitem(last=False)
        else:
            unknown.pop(table_id, None)

    def reader(request: Request) -> str:
        """The client's address, once it may read (else 429: its budget of read work is spent)."""
        who = request.client.host if request.client else "?"
        wait = budget.refused(who)
        if wait is not None:
            raise TooMany(wait)
        return who

    @contextlib.contextmanager
    def work(who: str) -> Iterator[None]:
        """Charge the event loop's time of the block (no await in it) to the reader `who`."""
        t0 = time.thread_time()
        try:
            yield
        finally:
            budget.charge(who, time.thread_time() - t0)

    @app.exception_handler(ServerError)
    async def server_error(_req: Request, e: ServerError) -> JSONResponse:
        metrics.refuse(refusal_kind(e.code, e.detail))
        status = getattr(e, "status", None) or HTTP_STATUS[e.code]
        headers = None
        retry = getattr(e, "retry_after", None)
        if retry is not None:
            headers = {"Retry-After": str(max(1, min(3600, int(retry + 0.999))))}
        elif status == 503 and e.detail in ("odds_busy", "odds_timeout"):
            headers = {"Retry-After": "1"}
        return SafeJSON(e.to_json(), status_code=status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(_req: Request, e: RequestValidationError) -> JSONResponse:
        metrics.refuse("bad_request")
        errs = e.errors()
        where = ".".join(str(x) for x in errs[0].get("loc", ())) if errs else "request"
        msg = errs[0].get("msg", "invalid") if errs else "invalid"
        return SafeJSON(
            {"type": "error", "code": "bad_request", "message": f"{where}: {msg}", "detail": "invalid",
             "args": {"where": where[:80], "msg": str(msg)[:200]}},
            status_code=400,
        )  # fmt: skip

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_req: Request, e: StarletteHTTPException) -> JSONResponse:
        code = "unknown_table" if e.status_code == 404 else "bad_request"
        metrics.refuse({404: "not_found", 429: "rate_limit"}.get(e.status_code, "bad_request"))
        return SafeJSON({"type": "error", "code": code, "message": str(e.detail)}, status_code=e.status_code)

    # ------------------------------------------------------------------ REST

    @app.get("/api/games", response_model=GamesList, tags=["games"])
    async def games() -> dict[str, Any]:
        """The games, their options (with one-line help in English and Italian) and the bots."""
        out = []
        for name in game_names():
            g = get_game(name)
            out.append(
                {
                    "name": name,
                    "title": g.title,
                    "min_players": g.min_players,
                    "max_players": g.max_players,
                    "options": [o for o in g.describe_options() if o["name"] != "board"],
                    "preset_field": g.options_type.PRESET_FIELD,
                    "presets": g.options_type.PRESETS,
                    "boards": list(g.shipped_boards()),
                }
            )
        return {"games": out, "bots": web_bots()}

    def links(t: Table) -> dict[str, Any]:
        seats = []
        for s in t.seats:
            d: dict[str, Any] = s.public()
            if s.kind == "human" and s.open:
                d["url"] = f"{base}/t/{t.id}"  # joined from the lobby or the table page: no private token
            elif s.kind == "human":
                d["token"] = s.token
                d["url"] = f"{base}/t/{t.id}#seat={s.token}"
            seats.append(d)
        return {
            "id": t.id,
            "game": t.name,
            "seats": seats,
            "spectator_url": f"{base}/t/{t.id}",
            "version": t.version,
            "status": t.status,
        }

    board_checks = asyncio.Semaphore(1)

    @app.post("/api/tables", response_model=CreatedTable, status_code=201, responses=ERRORS, tags=["tables"])
    async def create_table(req: CreateTable, request: Request) -> dict[str, Any]:
        """Create a table; returns one private link (token) per open seat and a spectator link. A client has at
        most `TableLimits.max_tables_per_client` tables going (429 `too_many_tables`), the server at most
        `TableLimits.max_tables` (503 `server_full`)."""
        owner = request.client.host if request.client else "?"
        mgr.check_room(owner)  # before an upload is parsed
        board: UploadedBoard | None = None
        if req.board_data is not None and mgr.board_dir is not None:
            # parsing and validating a board file is bounded (under a second) but not instant: off the event
            # loop, one at a time, so a burst of uploads queues instead of taking every core from the tables
            async with board_checks:
                board = await asyncio.to_thread(check_board, req.game, req.board_data)
        t = mgr.create(req, board, owner)
        unknown.pop(t.id, None)
        watch(t)
        await durable(mgr, t)
        return links(t) | {"creator_token": t.creator}

    @app.post("/api/tables/{table_id}/stop", response_model=ActionAccepted, responses=ERRORS, tags=["tables"])
    async def stop_table(table_id: str, req: CreatorRequest) -> dict[str, Any]:
        """The creator stops the table (creator token from the creation): no more moves, bots stop; it stays
        readable until it expires or is deleted."""
        await have(table_id)
        t = mgr.get(table_id)
        mgr.stop(t, req.creator_token)
        await durable(mgr, t)
        return {"version": min(t.durable, t.version), "status": t.status}

    @app.post("/api/tables/{table_id}/delete", status_code=204, responses=ERRORS, tags=["tables"])
    async def delete_table(table_id: str, req: CreatorRequest) -> Response:
        """The creator deletes the table (creator token from the creation), from memory and from the database."""
        await have(table_id)
        t = mgr.get(table_id)
        mgr.delete(t, req.creator_token)
        await durable(mgr)
        return Response(status_code=204)

    @app.get("/api/tables", response_model=list[TableSummary], responses=error_responses(429, 503), tags=["tables"])
    async def list_tables(request: Request) -> list[dict[str, Any]]:
        """Open and running tables, newest first (finished ones too, for their replays); not the lessons (one
        person's "Learn to play" tables)."""
        who = reader(request)
        if cluster is not None:
            t0 = time.perf_counter()
            await cluster.fetch_recent(200)
            budget.charge(who, time.perf_counter() - t0, floor=False)
        with work(who):
            return mgr.listing()  # never one not stored

    @app.get("/api/tables/{table_id}", response_model=TableDetail, responses=ERRORS, tags=["tables"])
    async def table_detail(
        table_id: str, request: Request, token: str | None = Query(None, max_length=100)
    ) -> dict[str, Any]:
        """The table's view (public, or the seat's with its token), version, status and outcome."""
        who = reader(request)
        await have(table_id, who)
        with work(who):
            t = mgr.get(table_id)
            seat = mgr.seat_of(t, token) if token else None
            return mgr.detail(t, seat)

    @app.post("/api/tables/{table_id}/join", response_model=Joined, responses=ERRORS, tags=["tables"])
    async def join(table_id: str, req: JoinRequest) -> dict[str, Any]:
        """Take the first free seat that is open to anyone; the token is minted now and only this answer has
        it. Private seats are taken through their link (`/seat`)."""
        await have(table_id)
        t = mgr.get(table_id)
        s = mgr.join(t, req.name)
        watch(t)
        await durable(mgr, t)
        return {"seat": s.index, "token": s.token, "url": f"{base}/t/{t.id}#seat={s.token}"}

    @app.post("/api/tables/{table_id}/seat", response_model=Joined, responses=ERRORS, tags=["tables"])
    async def take_seat(table_id: str, req: TakeSeat) -> dict[str, Any]:
        """Take the private seat whose link holds `token`, under `name` (a seat already taken keeps its name)."""
        await have(table_id)
        t = mgr.get(table_id)
        s = mgr.take(t, req.token, req.name)
        watch(t)
        await durable(mgr, t)
        return {"seat": s.index, "token": s.token, "url": f"{base}/t/{t.id}#seat={s.token}"}

    @app.post(
        "/api/tables/{table_id}/actions", response_model=ActionAccepted, responses=ERRORS, tags=["tables"]
    )
    async def act(table_id: str, req: ActionRequest) -> dict[str, Any]:
        """Play an action for the seat holding `token`, on the position of `version`."""
        await have(table_id)
        v = mgr.submit(table_id, req.token, req.version, req.action, req.undos)
        t = mgr.get(table_id)
        watch(t)
        await durable(mgr, t)
        return {"version": v, "status": t.status}

    read_buckets: dict[str, RateLimit] = {}

    def read_limit(request: Request) -> None:
        """Costly reads (records, replays) per client address: READS_PER_SECOND, after a burst of READS_BURST."""
        host = request.client.host if request.client else "?"
        b = read_buckets.get(host)
        if b is None:
            if len(read_buckets) > 10_000:
                read_buckets.clear()
            b = read_buckets[host] = RateLimit(READS_PER_SECOND, READS_BURST)
        if not b.allow():
            raise TooMany(1.0 / READS_PER_SECOND)

    @app.get(
        "/api/tables/{table_id}/record",
        response_class=PlainTextResponse,
        responses={**ERRORS, 200: {"content": {"application/x-ndjson": {}}}},
        tags=["tables"],
    )
    async def record(
        table_id: str, request: Request, token: str | None = Query(None, max_length=100)
    ) -> PlainTextResponse:
        """The game record as one JSON line (`hegemon replay --verify` accepts it once the game is over; while
        it runs, hidden parts are withheld: each action as the token's seat, or a spectator, saw it). Encoded a
        chunk at a time between turns of the event loop, and kept: a record is encoded once."""
        read_limit(request)
        await have(table_id)
        t = mgr.get(table_id)
        seat = mgr.seat_of(t, token) if token else None
        while not mgr.record_prepare(t, seat):
            await asyncio.sleep(0)
        return PlainTextResponse(mgr.record_line(t, seat) + "\n", media_type="application/x-ndjson")

    @app.get("/api/tables/{table_id}/replay", responses=ERRORS, tags=["tables"])
    async def replay(
        table_id: str,
        request: Request,
        step: int = Query(0, ge=0, le=10**7),
        token: str | None = Query(None, max_length=100),
        seat: int | None = Query(None, ge=0, le=4, description="Point of view in a finished game"),
        log: int = Query(REPLAY_LOG, ge=0, le=MAX_REPLAY_LOG, description="Log lines before the step"),
    ) -> dict[str, Any]:
        """The position after `step` actions, as the token's seat saw it (any seat once the game is over), with
        the `log` log lines just before it (`log_start`: the index of the first)."""
        read_limit(request)
        await have(table_id)
        t = mgr.get(table_id)
        who = mgr.seat_of(t, token) if token else None
        if t.finished and seat is not None and seat < len(t.seats):
            who = seat
        return mgr.replay_view(t, step, who, log)

    @app.get("/api/tables/{table_id}/glossary", responses=ERRORS, tags=["tables"])
    async def table_glossary(table_id: str, request: Request) -> dict[str, Any]:
        """The glossary of this table's board (the tooltips' numbers): a table created with a corrected board
        file has that file's cards, events and projects. Public data only (the board, never a deck's order)."""
        who = reader(request)
        await have(table_id, who)
        with work(who):
            t = mgr.get(table_id)
            return glossary.for_table(t.name, t.game.board_name(t.options), t.state)

    @app.get("/api/tables/{table_id}/odds", responses=ERRORS, tags=["tables"])
    async def odds(
        table_id: str,
        request: Request,
        kind: str = Query("land", max_length=10),
        source: str | None = Query(None, max_length=40),
        target: str | None = Query(None, max_length=40),
        sea: str | None = Query(None, max_length=40),
        opponent: int | None = Query(None, ge=0, le=4),
        declared: int | None = Query(None, ge=1, le=200),
        stop_at: int | None = Query(None, ge=1, le=200),
        polis: str | None = Query(None, max_length=40),
    ) -> Response:
        """The odds of an attack (S.P.Q.RisiKo!) or a siege (Polis) in the table's current position: exact
        fractions, or (`"exact": false`: armies too large for exact arithmetic) floating point. Computed in a
        worker process, never on the event loop (see `hegemon.server.odds`); 503 `odds_busy`/`odds_timeout` when
        the workers are full or a computation overran its time, 429 when the client asks for more than its
        share."""
        who = reader(request)
        await have(table_id, who)
        with work(who):
            t = mgr.get(table_id)
            q = {
                k: str(v)
                for k, v in {
                    "kind": kind, "source": source, "target": target, "sea": sea, "opponent": opponent,
                    "declared": declared, "stop_at": stop_at, "polis": polis,
                }.items()
                if v is not None
            }  # fmt: skip
            job = position_job(t.name, t.state, q)
        body, cpu = await odds_service.answer(job, who)
        budget.charge(who, cpu, floor=False)
        return Response(content=body, media_type="application/json")

    # ------------------------------------------------------------------ websocket and the client

    sockets_router = ws.router(mgr, ws_send_timeout, have, on_refuse=metrics.refuse, limits=sockets, messages=messages)
    app.state.spectators = sockets_router.spectators  # type: ignore[attr-defined]  # set on the router by ws.py
    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = only_typed_errors(
                get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
            )
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to shape the document
    app.include_router(sockets_router)
    app.include_router(ops_router(metrics, readiness, read_limit, metrics_token))
    app.include_router(glossary.router())

    assets = Assets(WEB)  # the client's files, compressed and cached (assets.py)

    @app.get("/", include_in_schema=False)
    async def lobby(request: Request) -> Response:
        return assets.page("index.html", request)

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str, request: Request) -> Response:
        return assets.page("table.html", request)

    @app.get("/rules/{game}", include_in_schema=False)
    async def rules_page(game: str, request: Request) -> Response:
        """The rules of a game for players (`?lang=en|it`, `?table=ID` for that table's options)."""
        if game not in game_names():
            raise ServerError(
                "unknown_table", f"no game {game[:40]!r}; games: {', '.join(game_names())}", detail="no_game"
            )
        return assets.page("rules.html", request)

    @app.get("/r/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str, request: Request) -> Response:
        return assets.page("table.html", request)

    @app.get("/docs", include_in_schema=False)
    async def api_docs() -> HTMLResponse:
        return HTMLResponse(DOCS_HTML if SWAGGER_UI is not None else DOCS_FALLBACK)

    if SWAGGER_UI is not None:
        app.mount("/docs/assets", StaticFiles(directory=SWAGGER_UI), name="swagger-ui")
    app.mount("/static", assets, name="static")
    return app


def public_base(url: str | None) -> str:
    """The prefix of the links the server hands out: `url` (`hegemon serve --public-url`, HEGEMON_PUBLIC_URL),
    an http(s) address with an optional path and nothing else, without its trailing slash; "" (relative links)
    when None or empty. ValueError for anything else."""
    if url is None or url.strip() == "":
        return ""
    from urllib.parse import urlsplit

    try:
        u = urlsplit(url.strip())
        u.port  # noqa: B018  # a port that is not a number raises here
    except ValueError:
        u = None
    if u is None or u.scheme not in ("http", "https") or not u.hostname or u.query or u.fragment or u.username \
            or u.password or any(c.isspace() or ord(c) < 32 for c in url.strip()):  # fmt: skip
        raise ValueError(f"public URL {url[:100]!r}: give the server's address as players reach it, e.g. "
                         "https://play.example.org or https://example.org/hegemon")  # fmt: skip
    return url.strip().rstrip("/")


def durable_storage(db_url: str) -> Storage:
    """SQLite commits on the event loop at the end of each turn of the loop (a local sync is short, and a thread
    hand-off would cost more than it saves); other databases commit in a writer thread, off the loop."""
    inner = SqlStorage(db_url)
    return LoopCommit(inner) if inner.engine.dialect.name == "sqlite" else GroupCommit(inner)


def run(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    bot_delay: float = 0.8,
    trusted_proxies: list[str] | None = None,
    search_workers: int | None = None,
    search_budget: float | None = None,
    expire_finished: float | None = None,
    expire_idle: float | None = None,
    log_level: str | None = None,
    log_format: str | None = None,
    public_url: str | None = None,
) -> None:
    """Serve the web table (the `hegemon serve` command). The arguments given (not None) win over their
    environment variables; every other setting comes from the environment (`settings.Settings`: a bad value is
    a SettingsError naming its variable). `trusted_proxies`: addresses or networks whose X-Forwarded-For is
    believed; `log_level`, `log_format`: see `ops.configure_logging`; `public_url`: the address the links handed
    out start with. The port is bound first: a busy one is a ValueError before anything is printed or the
    database is opened."""
    import uvicorn

    url = db or default_db_url()
    settings = Settings.from_env(
        serve={"log_level": log_level, "log_format": log_format, "search_workers": search_workers,
               "search_budget": search_budget, "public_url": public_url,
               "trusted_proxies": ",".join(trusted_proxies) if trusted_proxies else None},
        expiry={"finished_after": expire_finished, "idle_after": expire_idle},
    )  # fmt: skip
    serve, limits = settings.serve, settings.network
    proxies = parse_proxies(serve.trusted_proxies)
    level, fmt = serve.log_level, serve.log_format
    thinkers = Thinkers(serve.search_workers, serve.search_budget)
    sock = listen(host, port)  # a busy port fails here, before the banner and the database
    # Bots that search think in worker threads (and PostgreSQL commits in a writer thread): a short switch
    # interval hands the GIL back to the event loop at once instead of after up to 5 ms of their work.
    sys.setswitchinterval(0.0002)
    configure_logging(level, fmt)
    try:
        app = create_app(url, bot_delay, trusted_proxies=proxies, ws_send_timeout=limits.ws_send_timeout,
                         thinkers=thinkers, expiry=settings.expiry, metrics_token=serve.metrics_token,
                         reads=settings.reads, odds_limits=settings.odds, public_url=serve.public_url,
                         table_limits=settings.tables, ws_limits=settings.ws)  # fmt: skip
    except BaseException:
        sock.close()
        raise
    shown = make_url(url).render_as_string(hide_password=True)
    shown_host = f"[{host}]" if ":" in host else host
    if fmt == "json":
        log.info("hegemon web table on http://%s:%d", shown_host, port, extra={"url": f"http://{shown_host}:{port}", "database": shown})
    else:
        print(f"hegemon web table on http://{shown_host}:{port}  (database: {shown})", flush=True)
    storage = app.state.manager.storage

    class Server(uvicorn.Server):
        """uvicorn's server, which on SIGTERM or Ctrl-C also tells the storage: writes the database still refuses
        SHUTDOWN_GRACE seconds later are given up and their requests answered 503 (uvicorn waits for them)."""

        def handle_exit(self, sig: int, frame: Any) -> None:
            super().handle_exit(sig, frame)
            stop_soon = getattr(storage, "stop_soon", None)
            if stop_soon is not None:
                stop_soon()

    config = uvicorn.Config(
        app,
        log_config=None,  # configure_logging's handler, format and levels
        log_level=level,
        access_log=False,  # hegemon.access logs each request, with the client the Guard found
        http=timed_http_protocol(limits.request_timeout),
        ws=firm_websocket_protocol(),
        timeout_keep_alive=limits.keep_alive,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,
        ws_ping_interval=limits.ws_ping_interval,
        ws_ping_timeout=limits.ws_ping_timeout,
        proxy_headers=False,  # the Guard middleware reads X-Forwarded-For, from trusted proxies only
        timeout_graceful_shutdown=int(SHUTDOWN_GRACE) + 3,  # then requests still running are cancelled
    )
    Server(config).run(sockets=[sock])
