"""Friends playing over days (issue 28 items 2 and 6) in Debian's Chromium against a real `hegemon serve`: the
lobby keeps every choice across a change of players, of language and of game; "Create table" puts a card that
says the table is ready in view, with the creator's own seat link; the bots are explained in words; a Polis
newcomer gets the balanced board; the tab's title and icon say whose turn it is; every seat, the creator's
included, reopens from its own link in another browser; the lobby lists the tables this browser holds a seat at."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .conftest import DOCS, Server

pytestmark = pytest.mark.e2e

I18N = Path(__file__).resolve().parents[2] / "src" / "hegemon" / "web" / "i18n"
EN = json.loads((I18N / "en.json").read_text(encoding="utf-8"))
IT = json.loads((I18N / "it.json").read_text(encoding="utf-8"))
LAPTOP = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}


def context(
    browser: Browser, lang: str = "en", phone: bool = False
) -> tuple[BrowserContext, Page, list[str]]:
    ctx = browser.new_context(viewport=PHONE if phone else LAPTOP, locale="it-IT" if lang == "it" else "en-US",
                              is_mobile=phone, has_touch=phone)  # fmt: skip
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return ctx, page, errors


def lobby(page: Page, server: Server) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#createbtn")


def set_players(page: Page, n: int) -> None:
    page.fill("#players", str(n))
    page.dispatch_event("#players", "change")


def created_id(page: Page) -> str:
    page.wait_for_selector("#go")
    tid = page.get_attribute("#links", "data-table")
    assert tid
    return tid


def in_view(page: Page, sel: str) -> bool:
    box = page.locator(sel).bounding_box()
    vh = page.viewport_size["height"] if page.viewport_size else 900
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= vh


def test_the_lobby_keeps_every_choice_and_shows_the_table_it_made(browser: Browser, server: Server) -> None:
    ctx, page, errors = context(browser)
    lobby(page, server)
    # S.P.Q.RisiKo!: the published rules, a VP target, a switch of their own; then another number of players
    page.select_option("#opt-rules", "official")
    page.fill("#opt-vp_target", "12")
    page.click("#moreoptions summary")
    page.select_option("#opt-move_in_minimum", "one")
    page.fill("#timer", "600")
    set_players(page, 3)
    expect(page.locator("#opt-rules")).to_have_value("official")
    expect(page.locator("#opt-rules-choice")).not_to_be_empty()
    expect(page.locator("#opt-vp_target")).to_have_value("12")
    expect(page.locator("#opt-garrison")).to_have_value("move_in_first")  # the rule set's own switch
    expect(page.locator("#opt-move_in_minimum")).to_have_value("one")
    expect(page.locator("#timer")).to_have_value("600")
    expect(page.locator("#seat-2")).to_be_visible()
    assert page.locator("#seat-3").count() == 0
    # the other game and back, and the other language and back: still all there
    page.select_option("#game", "polis")
    expect(page.locator("#board-balanced")).to_be_checked()  # a newcomer's Polis: the even board
    page.select_option("#opt-siege", "diceless")
    page.select_option("#game", "spqrisiko")
    page.click("#lang")
    page.click("#lang")
    expect(page.locator("#opt-rules")).to_have_value("official")
    expect(page.locator("#opt-vp_target")).to_have_value("12")
    expect(page.locator("#players")).to_have_value("3")
    page.click("#createbtn")
    tid = created_id(page)
    d = httpx.get(f"{server.url}/api/tables/{tid}").json()
    assert d["options"]["rules"] == "official" and d["options"]["vp_target"] == 12, d["options"]
    assert d["options"]["move_in_minimum"] == "one" and d["options"]["garrison"] == "move_in_first"
    assert len(d["seats"]) == 3 and d["turn_timer"] == 600
    # the result card: in view, a title in words (not the id), the focus on its button, the creator's own link
    expect(page.locator("#readytitle")).to_have_text(
        EN["lobby.ready"].replace("{game}", "S.P.Q.RisiKo!").replace("{n}", "3")
    )
    assert tid not in page.locator("#readytitle").inner_text()
    assert in_view(page, "#readytitle") and in_view(page, "#go")
    assert page.evaluate("document.activeElement && document.activeElement.id") == "go"
    own = page.locator("#mylink input.link").input_value()
    assert re.search(rf"/t/{tid}#seat=[\w-]+$", own), own
    page.screenshot(path=str(DOCS / "friends-created-laptop.png"))
    # Polis kept its siege rule meanwhile, and plays on the balanced board
    page.select_option("#game", "polis")
    expect(page.locator("#opt-siege")).to_have_value("diceless")
    expect(page.locator("#board-balanced")).to_be_checked()
    page.click("#createbtn")
    page.wait_for_function("id => document.getElementById('links').dataset.table !== id", arg=tid)
    pid = created_id(page)
    d = httpx.get(f"{server.url}/api/tables/{pid}").json()
    assert d["options"]["siege"] == "diceless" and d["board"] == "balanced", d["options"]
    ctx.close()
    assert not errors, errors


@pytest.mark.parametrize("lang, phone", [("en", False), ("it", False), ("it", True), ("en", True)])
def test_the_bots_are_explained_in_words(browser: Browser, server: Server, lang: str, phone: bool) -> None:
    words = EN if lang == "en" else IT
    ctx, page, errors = context(browser, lang, phone)
    lobby(page, server)
    help_ = page.locator("#bothelp")
    expect(help_.locator("summary")).to_have_text(words["lobby.bothelp"])
    help_.locator("summary").click()
    for bot in ("random", "beginner", "mcts:easy", "mcts:normal", "mcts:hard"):
        expect(help_.locator("dl")).to_contain_text(words[f"bothelp.{bot}"])
    # weakest first: the order a newcomer climbs; greedy is easy's bot, listed once (as easy)
    # (each named level by its name alone, as random and beginner)
    assert help_.locator("dt").all_inner_texts() == [
        words["bot.random"],
        words["bot.beginner"],
        *(words[f"level.{n}"] for n in ("easy", "normal", "hard")),
    ]
    expect(page.locator("label[for=board-balanced]")).to_have_count(0)  # S.P.Q.RisiKo! has one board
    width = PHONE["width"] if phone else LAPTOP["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 2
    help_.scroll_into_view_if_needed()
    page.screenshot(path=str(DOCS / f"friends-bothelp-{lang}-{'phone' if phone else 'laptop'}.png"))
    page.select_option("#game", "polis")
    expect(page.locator("label[for=board-balanced]")).to_contain_text(words["lobby.recommended"])
    expect(page.locator("#board-balanced")).to_be_checked()
    ctx.close()
    assert not errors, errors


def play_one(server: Server, tid: str, token: str) -> int:
    """Play a harmless legal action of the seat holding `token` through the API (never one that gives up a polis,
    which can end a game at once); the new version."""
    d = httpx.get(f"{server.url}/api/tables/{tid}", params={"token": token}).json()
    legal = d["view"]["legal_actions"]
    assert legal, d["status"]
    keep = [a for a in legal if a.get("type") not in ("release_polis", "civil_war")]
    calm = [a for a in keep if a.get("type") in ("collect", "trade", "pay_supply")]
    r = httpx.post(f"{server.url}/api/tables/{tid}/actions",
                   json={"token": token, "version": d["version"], "action": (calm or keep or legal)[0]})  # fmt: skip
    assert r.status_code == 200, r.text
    return int(r.json()["version"])


def signal(page: Page) -> tuple[str, str, str]:
    """(the tab's title, the icon's turn mark, the page's own idea of whose turn it is)."""
    return (page.title(), page.get_attribute("link[rel~='icon']", "data-turn") or "",
            page.get_attribute("body", "data-myturn") or "")  # fmt: skip


def test_each_seat_reopens_from_its_own_link_and_the_tab_says_your_turn(
    browser: Browser, server: Server
) -> None:
    made, pa, errs_a = context(browser)
    friend, pb, errs_b = context(browser)
    lobby(pa, server)
    pa.select_option("#game", "polis")
    pa.fill("#name", "Ada")
    pa.select_option("#seat-1", "human")
    pa.click("#createbtn")
    tid = created_id(pa)
    own = pa.locator("#mylink input.link").input_value()
    friend_link = pa.locator("#links input.link[data-seat='1']").input_value()
    assert own != friend_link
    pa.click("#go")
    pa.wait_for_selector("#map")
    # the client's files come from this version's addresses (cached for a year), the map too (assets.py)
    loaded = pa.evaluate("performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)")
    assert any(re.fullmatch(r"/static/v-[0-9a-f]+/maps/polis\.json", x) for x in loaded), loaded
    assert not [x for x in loaded if x.startswith("/static/") and not x.startswith("/static/v-")], loaded
    # waiting for the friend: nobody's turn, the plain title and icon
    title, turn, _ = signal(pa)
    assert not title.startswith("(") and turn == "0", title
    pb.goto(friend_link)
    pb.fill("#joinname", "Bea")
    pb.click("#takeseatbtn")
    for p in (pa, pb):
        p.wait_for_function("() => document.body.dataset.status === 'playing'")
    # every seat shows its own private link to reopen it elsewhere; the friend's is the one its browser holds now
    pb.wait_for_selector("#mylink")
    bea_link = pb.locator("#mylink input.link").input_value()
    assert re.search(rf"/t/{tid}#seat=[\w-]+$", bea_link)
    assert pa.locator("#mylink input.link").input_value() == own
    tokens = {0: own.split("#seat=")[1], 1: bea_link.split("#seat=")[1]}
    seen: set[tuple[int, str]] = set()
    for _ in range(3):  # a few moves: the title and the icon follow whose turn it is, on both screens
        mover = None
        deadline = time.time() + 20
        while mover is None and time.time() < deadline:
            for seat, p in ((0, pa), (1, pb)):
                if signal(p)[2] == "1":
                    mover = seat
            time.sleep(0.05)
        assert mover is not None
        for seat, p in ((0, pa), (1, pb)):
            title, turn, mine = signal(p)
            yours = EN["title.yourturn"]
            if mine == "1":
                assert title == f"({yours}) Polis — hegemon" and turn == "1", (seat, title, turn)
            else:
                assert title == "Polis — hegemon" and turn == "0", (seat, title, turn)
            seen.add((seat, mine))
        if mover == 0:
            pa.screenshot(path=str(DOCS / "friends-yourturn-laptop.png"))
        v = play_one(server, tid, tokens[mover])
        for p in (pa, pb):
            p.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=v)
    assert (0, "0") in seen or (1, "0") in seen
    # the creator's and the friend's links each open their own seat on another device
    for seat, link in ((0, own), (1, bea_link)):
        other, pc, errs_c = context(browser, "it", phone=seat == 1)
        pc.goto(link)
        pc.wait_for_function("s => document.body.dataset.seat === s", arg=str(seat))
        assert "#seat=" not in pc.url  # the token leaves the address bar at once
        expect(pc.locator("#mylink summary")).to_have_text(IT["table.mylink"])
        pc.screenshot(path=str(DOCS / f"friends-reopened-seat{seat}-it-{'phone' if seat else 'laptop'}.png"))
        other.close()
        assert not errs_c, errs_c
    # a spectator has no seat link
    watcher, pw, errs_w = context(browser)
    pw.goto(f"{server.url}/t/{tid}")
    pw.wait_for_function("() => document.body.dataset.status === 'playing'")
    assert pw.locator("#mylink").count() == 0
    assert not pw.title().startswith("(")
    watcher.close()
    made.close()
    friend.close()
    assert not errs_a and not errs_b and not errs_w, (errs_a, errs_b, errs_w)


@pytest.mark.parametrize("lang, phone", [("en", False), ("it", True)])
def test_my_tables_lists_the_seats_this_browser_holds(
    browser: Browser, server: Server, lang: str, phone: bool
) -> None:
    words = EN if lang == "en" else IT
    ctx, page, errors = context(browser, lang, phone)
    lobby(page, server)
    expect(page.locator("#mytables")).to_be_hidden()  # a new browser holds no seat
    # a table against a bot, one waiting for a friend, one this browser only watches
    page.select_option("#game", "polis")
    page.click("#createbtn")
    solo = created_id(page)
    page.select_option("#seat-1", "human")
    page.click("#createbtn")
    page.wait_for_function("id => document.getElementById('links').dataset.table !== id", arg=solo)
    waiting = created_id(page)
    body: dict[str, Any] = {"game": "polis", "seats": [{"bot": "random"}, {"bot": "random"}]}
    watched = httpx.post(f"{server.url}/api/tables", json=body).json()["id"]
    page.reload()
    rows = page.locator("#mylist tr")
    expect(page.locator("#mytables h2")).to_have_text(words["lobby.mytables"])
    expect(rows).to_have_count(2)
    expect(page.locator(f"#mylist tr[data-table='{watched}']")).to_have_count(0)
    expect(page.locator(f"#mylist tr[data-table='{waiting}'] .badge.wait")).to_contain_text(
        words["invite.waiting"].replace("{n}", "1").replace("{m}", "2")
    )
    mine = page.locator(f"#mylist tr[data-table='{solo}']")
    expect(mine.locator(".badge")).to_have_text(
        re.compile(f"{re.escape(words['lobby.yourturn'])}|{re.escape(words['lobby.theirturn'])}")
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"] + 2  # type: ignore[index]  # a viewport was set, so it is not None
    page.locator("#mytables").screenshot(
        path=str(DOCS / f"friends-mytables-{lang}-{'phone' if phone else 'laptop'}.png")
    )
    # the row's button opens the seat
    mine.locator("a.button").first.click()
    page.wait_for_function("() => document.body.dataset.seat === '0'")
    assert page.url.endswith(f"/t/{solo}")
    # forgetting a table takes it off this browser's list only
    lobby(page, server)
    page.locator(f"#mylist tr[data-table='{waiting}'] button.forget").click()
    expect(page.locator(f"#mylist tr[data-table='{waiting}']")).to_have_count(0)
    expect(rows).to_have_count(1)
    assert httpx.get(f"{server.url}/api/tables/{waiting}").status_code == 200
    # a table that is gone from the server leaves the list by itself
    page.evaluate("localStorage.setItem('hegemon.seat.nosuchtable', 'x')")
    page.reload()
    expect(rows).to_have_count(1)
    assert page.evaluate("localStorage.getItem('hegemon.seat.nosuchtable')") is None
    ctx.close()
    assert not errors, errors
