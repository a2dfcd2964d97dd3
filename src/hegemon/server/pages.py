"""The pages of the web client (lobby, table, replay, rules) from its compressed and cached files
(`assets.Assets`), and the API's documentation page (Swagger UI from the package's own copy: the CSP allows no
CDN)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

from hegemon.games import game_names
from hegemon.server.assets import Assets
from hegemon.server.protocol import ServerError

WEB = Path(__file__).resolve().parent.parent / "web"


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


def pages_router(assets: Assets) -> APIRouter:
    app = APIRouter()

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

    return app


def mount_static(app: FastAPI, assets: Assets) -> None:
    """The client's files under /static and Swagger UI's under /docs/assets."""
    if SWAGGER_UI is not None:
        app.mount("/docs/assets", StaticFiles(directory=SWAGGER_UI), name="swagger-ui")
    app.mount("/static", assets, name="static")
