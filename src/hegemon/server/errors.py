"""How the web table answers a refusal: every `ServerError` (and FastAPI's validation and HTTP errors) as a
typed JSON body with its HTTP status (`error_handlers`), written as ASCII (`SafeJSON`); and the OpenAPI document
shaped to say exactly that (`only_typed_errors`)."""

from __future__ import annotations

import json
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from hegemon.server.ops import Metrics, refusal_kind
from hegemon.server.protocol import HTTP_STATUS, ServerError, error_responses


class SafeJSON(JSONResponse):
    """A JSON response written as ASCII: any text, even one that is not valid Unicode, can be sent."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode()


def only_typed_errors(schema: dict[str, Any]) -> dict[str, Any]:
    """The OpenAPI document as the server answers: every error is an ErrorBody in JSON (also on a route whose own
    answer is text), and no FastAPI stock 422 `HTTPValidationError`: a request that fails validation is answered
    400 `bad_request` (detail `invalid`), never that, so no route says it may be."""
    body = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
    for ops in schema.get("paths", {}).values():
        for op in ops.values():
            for status, r in op.get("responses", {}).items():
                if not status.startswith("2") and "/ErrorBody" in str(r.get("content", "")):
                    r["content"] = (
                        body  # an error is JSON whatever the route's own answer is (a record: NDJSON)
                    )
            r422 = op.get("responses", {}).get("422", {})
            if "HTTPValidationError" in str(r422.get("content", "")):
                del op["responses"]["422"]
                op["responses"].setdefault(
                    "400", {"description": error_responses(400)[400]["description"], "content": body}
                )
    comps = schema.get("components", {}).get("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        if name in comps and f'/{name}"' not in orjson.dumps(schema["paths"]).decode():
            del comps[name]
    return schema


def error_handlers(app: FastAPI, metrics: Metrics) -> None:
    """Answer every refusal as a typed error body, counted in the metrics."""

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
