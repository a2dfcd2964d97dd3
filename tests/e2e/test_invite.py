"""Inviting friends (issue 12 item 8) in Chromium, three people in three browser contexts: the creator's waiting
screen shows each free seat's link with a copy button; a friend opening a private link gives a name and takes
that seat; a stranger finds the table in the lobby's list of open seats, gives a name and joins; the game starts
and everybody sees everybody's name."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import DOCS, Server
from .test_browser import create_table

pytestmark = pytest.mark.e2e


def test_invite_friends_by_link_and_from_the_lobby(browser: Browser, server: Server) -> None:
    contexts = [
        browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US") for _ in range(3)
    ]
    contexts[0].grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    pa, pb, pc = (c.new_page() for c in contexts)
    errors: list[str] = []
    for p in (pa, pb, pc):
        p.on("pageerror", lambda e: errors.append(str(e)))
    create_table(pa, server, "spqrisiko", players=3, seats={1: "human", 2: "open"}, name="Ada")
    # the lobby shows the private link of seat 2 (with a copy button) and the table's link for the open seat
    expect(pa.locator("#links li.invite[data-seat='1'] button.copy")).to_be_visible()
    expect(pa.locator("#links li.invite[data-seat='table']")).to_be_visible()
    assert pa.locator("#links input.link[data-seat='2']").count() == 0  # the open seat has no private link
    pa.click("#go")
    # the waiting screen: who is seated, the private link with its copy button, the open seat
    pa.wait_for_selector("#waiting")
    expect(pa.locator("#waiting h2")).to_contain_text("1 of 3")
    link = pa.locator("#waiting input.link[data-seat='1']").input_value()
    assert re.search(r"/t/\w+#seat=[\w-]+$", link), link
    pa.click("#waiting button.copy[data-seat='1']")
    expect(pa.locator("#waiting button.copy[data-seat='1']")).to_have_text("Copied")
    assert pa.evaluate("navigator.clipboard.readText()") == link
    expect(pa.locator("#waiting li.invite.open[data-seat='2']")).to_contain_text("open to anyone")
    pa.screenshot(path=str(DOCS / "invite-waiting.png"))
    tid = pa.url.rsplit("/", 1)[-1]

    # a friend opens the private link: a name first, then the seat
    pb.goto(link)
    pb.wait_for_selector("#takeseat")
    expect(pb.locator("#takeseat")).to_contain_text("invited")
    pb.fill("#joinname", "Bea")
    pb.screenshot(path=str(DOCS / "invite-name.png"))
    pb.click("#takeseatbtn")
    pb.wait_for_function("() => document.body.dataset.seat === '1'")
    expect(pa.locator("#waiting h2")).to_contain_text("2 of 3")
    # taking the seat gave the friend a token of their own: the link's (which the creator has) holds nothing
    friend = pb.evaluate(f"localStorage.getItem('hegemon.seat.{tid}')")
    assert friend and friend not in link, (friend, link)

    # a stranger finds the table among the seats open to anyone, and joins under a name
    pc.goto(server.url + "/")
    row = pc.locator(f"#joinable tr[data-table='{tid}']")
    expect(row).to_be_visible()
    expect(row).to_contain_text("open seat")
    row.locator("button.join").click()
    pc.wait_for_selector("#joinseat")
    pc.fill("#joinname", "Cy")
    pc.click("#joinseatbtn")
    pc.wait_for_function("() => document.body.dataset.seat === '2'")

    for p in (pa, pb, pc):
        p.wait_for_function("() => document.body.dataset.status === 'playing'")
        expect(p.locator("#players")).to_contain_text("Ada")
        expect(p.locator("#players")).to_contain_text("Bea")
        expect(p.locator("#players")).to_contain_text("Cy")
    assert pa.get_attribute("body", "data-seat") == "0"
    assert pa.locator("#waiting").count() == 0
    # whoever opens the link again (the creator kept it) only watches: no name form, no seat, no hand
    watcher = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US")
    contexts.append(watcher)
    pd = watcher.new_page()
    pd.on("pageerror", lambda e: errors.append(str(e)))
    pd.goto(link)
    pd.wait_for_function(
        "() => document.body.dataset.status === 'playing' && document.body.dataset.seat === ''"
    )
    assert pd.locator("#takeseat").count() == 0
    assert pd.evaluate(f"localStorage.getItem('hegemon.seat.{tid}')") is None
    assert pb.get_attribute("body", "data-seat") == "1"  # the friend keeps the seat
    # the table is no longer offered in the lobby
    pc.goto(server.url + "/")
    pc.wait_for_selector("#alltables")
    assert pc.locator(f"#joinable tr[data-table='{tid}']").count() == 0
    for c in contexts:
        c.close()
    assert not errors, errors


def test_api_docs_render_under_the_content_security_policy(page: Page, server: Server) -> None:
    """/docs in Chromium: Swagger UI renders every endpoint, with no request to another origin and no
    Content-Security-Policy refusal (issue 11 item 12)."""
    console: list[str] = []
    hosts: set[str] = set()
    page.on("console", lambda m: console.append(m.text))
    page.on("request", lambda r: hosts.add(r.url.split("/")[2]))
    page.goto(server.url + "/docs")
    page.wait_for_selector(".opblock-summary-path", timeout=20_000)
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert any("/api/tables/{table_id}/join" in p.replace("\u200b", "") for p in paths), paths
    assert hosts == {server.url.split("/")[2]}, hosts
    assert not [m for m in console if "Content Security Policy" in m or "Refused" in m], console
