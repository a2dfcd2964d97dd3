"""End-to-end: the table on a phone (390×844) and the "latest turns" panel (issue 28, the review of the phone
screenshots). Nothing covers the control a player is about to tap (Polis' sticky goods card sat over the first
action button); the header takes at most two compact rows of 44 px targets; the "since your turn" panel leaves
the map in view and folds away; the latest turns never end on a player's name with nothing of their turn under
it."""

from __future__ import annotations

import time

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import DOCS, Server
from .test_follow import new_table, play_until, spqr_choose
from .test_follow import open_seat as open_follow
from .test_polis_read import at_action, drive, open_seat, two_people

pytestmark = pytest.mark.e2e

# every element at the centre of `sel` (the first match): is it `sel` itself (or inside it), and in the viewport?
UNCOVERED = """(sel) => { const b = document.querySelector(sel); const r = b.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (r.height <= 0 || y < 0 || y > innerHeight || x < 0 || x > innerWidth) return 'out of view at ' + Math.round(y);
  const e = document.elementFromPoint(x, y);
  return e && (e === b || b.contains(e)) ? 'ok' : 'covered by ' + (e ? (e.closest('[id]') || e).id || e.tagName : 'nothing'); }"""


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_place_chosen_on_a_phone_shows_its_first_action_uncovered(
    browser: Browser, server: Server, lang: str
) -> None:
    """Polis: a polis tapped on the map scrolls its actions into the bottom sheet; the first of them stops below
    the sticky goods card (it was drawn under the card's forecast), and the card is still in view."""
    tid, tokens = two_people(server)
    drive(server, tid, tokens, lambda *_: None, at_action)
    page = open_seat(browser, server, tid, tokens[0], lang=lang, phone=True)
    expect(page.locator("#mine #forecast")).to_be_visible()
    page.locator("#p-athinae").dispatch_event("click")
    expect(page.locator("#here")).to_be_visible()
    first = "#here ~ * button:not([disabled])"
    expect(page.locator(first).first).to_be_visible()
    page.wait_for_timeout(400)  # the scroll into view (one animation frame, and the sheet's transition)
    assert page.evaluate(UNCOVERED, first) == "ok"
    assert page.evaluate(UNCOVERED, "#here") == "ok"
    # the card itself: its top edge in view (sticky under the sheet's handle)
    top = page.evaluate("() => document.querySelector('#mine').getBoundingClientRect().top")
    assert 0 <= top < 844
    page.screenshot(path=str(DOCS / f"phone-polis-actions-{lang}.png"))
    assert not page.errors  # type: ignore[attr-defined]  # set by open_seat
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_phone_header_takes_two_compact_rows_of_44px_targets(
    browser: Browser, server: Server, lang: str
) -> None:
    """S.P.Q.RisiKo! (the longest title) and Polis (its board's name): the header was three rows (~153 px) and
    left the map ~240 px; now at most two rows, each button 44 px, the rules and language named in words."""
    tid, tokens = two_people(server)
    drive(server, tid, tokens, lambda *_: None, at_action)
    spqr, token = new_table(server, {"game": "spqrisiko", "players": 3, "seed": 5,
                                     "seats": [{"human": True, "name": "Ada"}, {"bot": "random"}, {"bot": "random"}]})  # fmt: skip
    pages = [open_seat(browser, server, tid, tokens[0], lang=lang, phone=True),
             open_follow(browser, server, spqr, token, lang, phone=True, wait="#map")]  # fmt: skip
    for page in pages:
        expect(page.locator("#bell")).to_be_visible()
        page.wait_for_timeout(200)
        box = page.evaluate("() => document.querySelector('header.top').getBoundingClientRect().height")
        assert box <= 92, box
        for sel in ("#bell", "#soundbtn", "#rulesbtn", "#lang", "header.top a.home"):
            r = page.locator(sel).bounding_box()
            assert r is not None and r["height"] >= 44 and r["width"] >= 44, (sel, r)
            assert page.evaluate(UNCOVERED, sel) == "ok", sel
        # icons only, with their names in words
        expect(page.get_by_role("button", name="Regole" if lang == "it" else "Rules")).to_be_visible()
        expect(page.get_by_role("button", name="English" if lang == "it" else "Italiano")).to_be_visible()
        # the map keeps the room the header gave up
        assert page.evaluate("() => document.getElementById('board').getBoundingClientRect().height") >= 300
        assert not page.errors  # type: ignore[attr-defined]  # set by open_seat
    pages[0].screenshot(path=str(DOCS / f"phone-header-polis-{lang}.png"))
    pages[1].screenshot(path=str(DOCS / f"phone-header-spqr-{lang}.png"))
    for page in pages:
        page.context.close()


def visible_map(page: Page) -> float:
    """The height of the map's box left in view above the bottom sheet."""
    return float(
        page.evaluate("""() => { const b = document.getElementById('board').getBoundingClientRect();
      const s = document.getElementById('side').getBoundingClientRect();
      return Math.max(0, Math.min(b.bottom, s.top, innerHeight) - Math.max(b.top, 0)); }""")
    )


def test_since_your_turn_on_a_phone_leaves_the_map_in_view_and_folds(
    browser: Browser, server: Server
) -> None:
    """After the bots' round: the panel scrolls in its own box, the sheet pulled up to its full height still
    leaves the map ≥ 200 px (it left 13 px); the panel folds by its title, and once read it starts folded when
    the same turns are opened again."""
    tid, token = new_table(server, {"game": "spqrisiko", "players": 4, "seed": 41,
                                    "seats": [{"human": True, "name": "Ada"}] + [{"bot": "random"}] * 3})  # fmt: skip
    play_until(server, tid, token, spqr_choose, lambda d: d["view"]["round"] >= 2)
    page = open_follow(browser, server, tid, token, "en", phone=True)
    expect(page.locator("#sincelist")).to_be_visible()
    assert visible_map(page) >= 250
    page.locator("#sheethandle").tap()
    page.locator("#since").scroll_into_view_if_needed()
    page.wait_for_timeout(400)  # the sheet's transition
    assert visible_map(page) >= 200, visible_map(page)
    assert (
        page.evaluate("() => document.getElementById('sincelist').getBoundingClientRect().height")
        <= 0.4 * 844
    )
    page.screenshot(path=str(DOCS / "phone-since-en.png"))
    # folded and unfolded by its title
    fold = page.locator("#sincefold")
    expect(fold).to_have_attribute("aria-expanded", "true")
    fold.tap()
    expect(page.locator("#sincelist")).to_be_hidden()
    expect(fold).to_have_attribute("aria-expanded", "false")
    fold.tap()
    expect(page.locator("#sincelist")).to_be_visible()
    # read once: the same turns opened again start folded (the map in view), a tap shows them
    page.reload()
    page.wait_for_selector("#since li.turn", state="attached")
    expect(page.locator("#sincefold")).to_have_attribute("aria-expanded", "false")
    expect(page.locator("#sincelist")).to_be_hidden()
    assert visible_map(page) >= 250
    page.locator("#sincefold").tap()
    expect(page.locator("#sincelist")).to_be_visible()
    assert not page.errors  # type: ignore[attr-defined]  # set by open_follow
    page.context.close()


# every turn whose heading is in the list's box has at least a line of what it did in the box too
ALONE = """() => { const ol = document.getElementById('sincelist'); const box = ol.getBoundingClientRect(); const out = [];
  for (const li of ol.children) {
    const head = li.children[0].getBoundingClientRect(), under = li.children[1].getBoundingClientRect();
    if (head.top >= box.bottom - 1 || head.bottom <= box.top) continue;
    if (under.top + 16 > box.bottom) out.push(li.children[0].textContent + ' @' + Math.round(head.bottom - box.top));
  }
  return out; }"""


def test_the_latest_turns_never_end_on_a_heading_alone(browser: Browser, server: Server) -> None:
    """A finished Polis game of two bots, watched on a laptop of any height: the turns' box (30% of the
    window's height) is cut before a turn rather than under its player's name."""
    r = httpx.post(
        f"{server.url}/api/tables",
        json={"game": "polis", "seed": 3, "seats": [{"bot": "random"}] * 2},
        timeout=10,
    )
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    deadline = time.time() + 120
    while httpx.get(f"{server.url}/api/tables/{tid}", timeout=10).json()["status"] != "finished":
        assert time.time() < deadline, "the bots did not finish"
        time.sleep(0.2)
    ctx = browser.new_context(viewport={"width": 1400, "height": 900}, locale="en-US")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/t/{tid}")
    expect(page.locator("#sincetitle")).to_have_text("Latest turns")
    expect(page.locator("#since li.turn").first).to_be_visible()
    alone: dict[int, list[str]] = {}
    for height in range(560, 1000, 8):
        page.set_viewport_size({"width": 1400, "height": height})
        page.evaluate("() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)))")
        found = page.evaluate(ALONE)
        if found:
            alone[height] = found
    assert not alone, alone
    assert not errors, errors
    ctx.close()
