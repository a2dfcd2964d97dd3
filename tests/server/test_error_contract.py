"""The error codes are written once (`protocol.ErrorCode`): the codes' statuses, the OpenAPI document (the error
body's enum, the description, each route's responses) and docs/web-table.md agree with it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hegemon.server.app import create_app
from hegemon.server.protocol import ERROR_CODES, ERRORS, HTTP_STATUS, ServerError

DOCS = Path(__file__).resolve().parents[2] / "docs" / "web-table.md"


def schema() -> dict[str, Any]:
    return create_app(None, 0.0).openapi()


def test_every_code_has_one_status_and_meaning() -> None:
    assert ERROR_CODES == tuple(ERRORS) == tuple(HTTP_STATUS)
    assert len(set(ERROR_CODES)) == len(ERROR_CODES) == 8
    assert HTTP_STATUS["unavailable"] == 503 and HTTP_STATUS["illegal_action"] == 422


def test_the_openapi_document_lists_the_codes_of_the_enum() -> None:
    s = schema()
    body = s["components"]["schemas"]["ErrorBody"]["properties"]["code"]
    assert tuple(body["enum"]) == ERROR_CODES
    described = re.search(r"Errors are typed: ([a-z_, ]+)", s["info"]["description"])
    assert described and tuple(described.group(1).strip().split(", ")) == ERROR_CODES
    create = s["paths"]["/api/tables"]["post"]["responses"]
    for code, (status, _) in ERRORS.items():
        assert f"`{code}`" in create[str(status)]["description"], (code, status)
    assert create["503"]["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorBody")


def test_the_docs_list_the_codes_of_the_enum() -> None:
    text = " ".join(DOCS.read_text().split())
    m = re.search(r"Codes \(`server/protocol.py` `ErrorCode`[^:]*\): ((?:`\w+`,? ?)+)", text)
    assert m, "docs/web-table.md lists no codes"
    assert tuple(re.findall(r"`(\w+)`", m.group(1))) == ERROR_CODES


def test_a_code_outside_the_list_is_refused() -> None:
    try:
        ServerError("teapot", "short and stout")
    except AssertionError:
        return
    raise AssertionError("an unknown code was accepted")


def test_every_route_documents_its_typed_errors_and_503() -> None:
    s = schema()
    assert "HTTPValidationError" not in str(s)  # validation failures are 400 bad_request, never FastAPI's 422
    seen = 0
    for path, ops in s["paths"].items():
        for method, op in ops.items():
            where = f"{method.upper()} {path}"
            errors = {st: r for st, r in op["responses"].items() if not st.startswith("2")}
            for st, r in errors.items():  # each error answer is the typed body, its codes named
                assert r["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorBody"), (where, st)
                assert "`" in r["description"], (where, st)
            if path.startswith("/api/tables"):  # the database and the read/write budgets stand behind each
                assert {"429", "503"} <= set(errors), where
                assert "`unavailable`" in errors["503"]["description"], where
            if "{" in path:
                assert "404" in errors, where
            if op.get("parameters") or op.get("requestBody"):
                assert "400" in errors, where
            seen += 1
    assert seen >= 14
