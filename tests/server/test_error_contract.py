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
