"""End-to-end, a rule refusal travels as data: the engine's reason id and arguments reach the browser unchanged
in the server's illegal_action error, and the page says it in Italian from its dictionary (`why.<id>`), its
action kinds translated too, with no English left in it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, WebSocket, expect

from .conftest import Server
from .test_teach import SOCKETS, new_table, open_table

pytestmark = pytest.mark.e2e

IT = json.loads(
    (Path(__file__).resolve().parents[2] / "src" / "hegemon" / "web" / "i18n" / "it.json").read_text()
)


def test_a_refusal_reaches_the_browser_as_id_and_args_and_is_said_in_italian(
    browser: Browser, server: Server
) -> None:
    ctx = browser.new_context(viewport={"width": 1400, "height": 900}, locale="it-IT")
    page = ctx.new_page()
    page.add_init_script(SOCKETS)
    errors: list[dict[str, Any]] = []

    def listen(ws: WebSocket) -> None:
        def frame(payload: str | bytes) -> None:
            msg = json.loads(payload)
            if msg.get("type") == "error":
                errors.append(msg)

        ws.on("framereceived", frame)

    page.on("websocket", listen)
    table, token = new_table(server, "spqrisiko", {"random_deal": True})
    open_table(page, server, table, token, "it")
    page.wait_for_function("() => document.body.dataset.myturn === '1'", timeout=30_000)
    # a land attack during the reinforcements: refused, the reason naming the phase it belongs to
    sent = {"type": "attack", "source": "italia", "target": "gallia_cisalpina"}
    page.evaluate(
        "a => window.__sockets.at(-1).send(JSON.stringify({version: Number(document.body.dataset.version), action: a}))",
        sent,
    )
    expect(page.locator("#errortext a.ruletag")).to_be_visible()  # the rule tag came with it, as a link
    assert errors, "no error frame reached the page"
    e = errors[-1]
    assert e["code"] == "illegal_action" and e["detail"] == "kind_elsewhere", e
    args = e["args"]
    assert args["kind"] == "attack" and isinstance(args["kinds"], list) and args["kinds"], args
    assert e["reason"].startswith("attack belongs to land attacks"), e["reason"]
    said = page.inner_text("#errortext")
    assert said.startswith("Non consentito:"), said
    assert IT["kind.spqrisiko.attack"] in said, said
    for kind in args["kinds"]:  # the legal kinds, each in Italian
        assert IT[f"kind.spqrisiko.{kind}"] in said, (kind, said)
    assert "belongs" not in said and "you may" not in said, said
    ctx.close()
