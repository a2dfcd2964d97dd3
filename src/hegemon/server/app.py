"""The web table: `create_app` wires the REST API (`routes`), the websockets (`ws`), the bot runner and the
expiry sweep (`service`), the typed errors (`errors`) and the client's pages (`pages`) around one `TableManager`;
`run` serves it with uvicorn (`hegemon serve`), its settings from `settings`."""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from sqlalchemy import make_url

from hegemon.server import glossary, ws
from hegemon.server.assets import Assets
from hegemon.server.bots import Thinkers
from hegemon.server.cluster import LEASE_EVERY, Cluster
from hegemon.server.errors import error_handlers, only_typed_errors
from hegemon.server.guard import (
    Guard,
    MessageBudget,
    Network,
    client_address,
    firm_websocket_protocol,
    parse_proxies,
    proxies_from_env,
    timed_http_protocol,
)
from hegemon.server.odds import Odds
from hegemon.server.ops import Metrics, Observe, Readiness, configure_logging, listen
from hegemon.server.ops import router as ops_router
from hegemon.server.pages import WEB, mount_static, pages_router
from hegemon.server.protocol import ERROR_CODES
from hegemon.server.routes import games_router, tables_router
from hegemon.server.service import Service
from hegemon.server.settings import (
    SEND_TIMEOUT,
    Expiry,
    OddsLimits,
    ReadLimits,
    Settings,
    TableLimits,
    WsLimits,
)
from hegemon.server.storage import SHUTDOWN_GRACE, GroupCommit, LoopCommit, MemoryStorage, SqlStorage, Storage
from hegemon.server.tables import TableManager

log = logging.getLogger("hegemon.server")


def default_db_url() -> str:
    import platformdirs

    d = Path(platformdirs.user_data_dir("hegemon"))
    d.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{d / 'hegemon.db'}"


def create_app(
    db_url: str | None = None,
    bot_delay: float = 0.8,
    *,
    manager: TableManager | None = None,
    board_dir: str | Path | None = None,
    trusted_proxies: list[Network] | None = None,
    ws_send_timeout: float = SEND_TIMEOUT,
    lease_every: float = LEASE_EVERY,
    guard: dict[str, Any] | None = None,
    thinkers: Thinkers | None = None,
    expiry: Expiry | None = None,
    metrics_token: str | None = None,
    reads: ReadLimits | None = None,
    odds_limits: OddsLimits | None = None,
    public_url: str | None = None,
    table_limits: TableLimits | None = None,
    ws_limits: WsLimits | None = None,
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
    for. `ws_limits`: what websockets may cost (default: `WsLimits()`: refused messages per address,
    spectators)."""
    mgr = manager if manager is not None else new_manager(db_url, board_dir, table_limits)
    thinkers = thinkers if thinkers is not None else Thinkers()
    sockets = ws_limits if ws_limits is not None else WsLimits()
    messages = MessageBudget(sockets.messages, sockets.burst, sockets.cooloff)
    metrics = Metrics(mgr, thinkers)
    srv = Service(
        mgr, cluster=cluster_for(mgr, lease_every), bot_delay=bot_delay, thinkers=thinkers,
        expiry=expiry if expiry is not None else Expiry(), reads=reads if reads is not None else ReadLimits(),
        odds=Odds(odds_limits), readiness=Readiness(mgr), base=public_base(public_url),
    )  # fmt: skip
    app = FastAPI(
        title="hegemon web table",
        version="1",
        description="Play S.P.Q.RisiKo! and Polis with friends and against bots. Errors are typed: "
        f"{', '.join(ERROR_CODES)} (ErrorBody; each route lists its statuses).",
        lifespan=srv.lifespan,
        docs_url=None,  # served by pages.py from the package's own copy of Swagger UI (the CSP allows no CDN)
        redoc_url=None,
    )
    app.state.manager = mgr
    app.state.metrics = metrics
    app.state.budget = srv.budget
    app.state.odds = srv.odds
    app.state.service = srv
    proxies = trusted_proxies if trusted_proxies is not None else proxies_from_env()
    app.add_middleware(
        Guard, trusted_proxies=proxies, on_refuse=metrics.refuse, messages=messages, **(guard or {})
    )

    def refuse_upgrade(scope: dict[str, Any]) -> bool:
        """A cooled-off flooding address's handshake, refused by the HTTP protocol itself (`hegemon serve`)."""
        if messages.banned_for(client_address(scope, list(proxies))) is None:
            return False
        metrics.refuse("rate_limit")
        return True

    app.state.refuse_upgrade = refuse_upgrade
    app.add_middleware(Observe, metrics=metrics)  # outermost: sees the Guard's refusals too
    error_handlers(app, metrics)
    app.include_router(games_router())
    app.include_router(tables_router(srv))
    sockets_router = ws.router(
        mgr, ws_send_timeout, srv.have, on_refuse=metrics.refuse, limits=sockets, messages=messages
    )
    app.state.spectators = sockets_router.spectators  # type: ignore[attr-defined]  # set on the router by ws.py

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = only_typed_errors(
                get_openapi(
                    title=app.title, version=app.version, description=app.description, routes=app.routes
                )
            )
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to shape the document
    app.include_router(sockets_router)
    app.include_router(ops_router(metrics, srv.readiness, srv.read_limit, metrics_token))
    app.include_router(glossary.router())
    assets = Assets(WEB)  # the client's files, compressed and cached (assets.py)
    app.include_router(pages_router(assets))
    mount_static(app, assets)
    return app


def new_manager(db_url: str | None, board_dir: str | Path | None, limits: TableLimits | None) -> TableManager:
    """The tables of a new application: in memory (`db_url` None) or stored (uploaded boards beside a SQLite
    file unless `board_dir` says where)."""
    storage: Storage = durable_storage(db_url) if db_url else MemoryStorage()
    if board_dir is None and db_url and db_url.startswith("sqlite:///"):
        board_dir = Path(make_url(db_url).database or ".").resolve().parent / "boards"
    return TableManager(storage, board_dir=board_dir, limits=limits)


def cluster_for(mgr: TableManager, lease_every: float) -> Cluster | None:
    """Several processes may serve a PostgreSQL database (`hegemon.server.cluster`); None otherwise."""
    inner = getattr(mgr.storage, "inner", None)
    if isinstance(inner, SqlStorage) and inner.engine.dialect.name == "postgresql":
        return Cluster(mgr, inner, lease_every=lease_every)
    return None


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
        log.info(
            "hegemon web table on http://%s:%d",
            shown_host,
            port,
            extra={"url": f"http://{shown_host}:{port}", "database": shown},
        )
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
        http=timed_http_protocol(limits.request_timeout, app.state.refuse_upgrade),
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
