"""End-to-end: the table shows what happens. Costs and effects on the buttons before the click, a confirmation
before a move that spends the last prestige, the dice of each roll beside the map, announcements, the reason
the game ended and the final score by source."""

from __future__ import annotations

import re
import time

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import DOCS, Server
from .test_browser import create_table, polis_to_action_phase, version, wait_moved, wait_turn

pytestmark = pytest.mark.e2e


def finished_table(server: Server, body: dict[str, object]) -> str:
    tid = httpx.post(f"{server.url}/api/tables", json=body).json()["id"]
    deadline = time.time() + 90
    while time.time() < deadline:
        if httpx.get(f"{server.url}/api/tables/{tid}").json()["status"] == "finished":
            return str(tid)
        time.sleep(0.2)
    raise AssertionError("the bots did not finish the game")


def test_polis_buttons_name_their_cost_and_the_last_prestige_asks_first(page: Page, server: Server) -> None:
    create_table(page, server, "polis")
    page.click("#go")
    page.wait_for_selector("#map")
    assert wait_turn(page)
    polis_to_action_phase(page)
    # the round is named as the rule book names it (3, 4, 5α, 5β), with the one to come, and the line of what
    # to do now is there
    expect(page.locator("#status")).to_contain_text("Round 3 (stacking 3) · next: round 4")
    expect(page.locator("#now")).to_contain_text("Two actions per turn")
    # every move names its prestige cost before the click (the rules computed it)
    page.click("details.all summary")
    move = page.locator("button.legal", has_text="Move hoplites").first
    expect(move).to_contain_text("\u22121 prestige")
    create = page.locator("button.legal", has_text="Create 1 hoplite").first
    expect(create).to_contain_text("\u22121 population")
    # markets and trade are in view, with their shiploads
    expect(page.locator("#markets li")).to_have_count(5)
    expect(page.locator("#markets")).to_contain_text(re.compile(r"\d+ shiploads? of \d+ left"))
    page.screenshot(path=str(DOCS / "show-polis-costs.png"))
    # military actions cost a prestige each: the one that spends the last is asked first
    asked = False
    for _ in range(120):
        if not wait_turn(page):
            break
        phase = page.get_attribute("body", "data-phase")
        v = version(page)
        if phase == "action":
            page.eval_on_selector("details.all", "d => { d.open = true; }")
            move = page.locator("details.all button.legal", has_text="Move hoplites")
            move = move if move.count() else page.locator("details.all button.legal", has_text="Move galleys")
            if not move.count():
                move = page.locator("details.all button.legal", has_text="Pass")
            move.first.click()
        else:
            for css in ("button.act[data-type=end_move]", "button.confirm", "button.count-btn", "button.act"):
                if page.locator(f"#actions {css}").count():
                    page.locator(f"#actions {css}").first.click()
                    break
        if page.locator("#confirm-move").count():
            text = page.locator("#confirm-move").inner_text()
            if "last prestige" in text:
                asked = True
                break
            page.click("#confirm-yes")  # another warning (a polis given up at the supply): go on
        wait_moved(page, v)
    assert asked, "no move spent the last prestige"
    dlg = page.locator("#confirm-move")
    expect(dlg).to_be_visible()
    expect(dlg).to_contain_text("ostracism")
    page.screenshot(path=str(DOCS / "show-polis-confirm.png"))
    v = version(page)
    page.click("#confirm-no")
    expect(dlg).to_have_count(0)
    page.wait_for_timeout(300)
    assert version(page) == v  # nothing was played
    assert page.get_attribute("body", "data-myturn") == "1"


def test_the_end_screen_says_why_and_the_score_by_source(page: Page, server: Server) -> None:
    tid = finished_table(server, {"game": "spqrisiko", "players": 3, "seats": [{"bot": "random"}] * 3, "seed": 11,
                                  "options": {"max_rounds": 2, "vp_target": None}})  # fmt: skip
    page.goto(f"{server.url}/t/{tid}")
    page.wait_for_selector("#gameover")
    expect(page.locator("#endreason")).to_contain_text("last round was played")
    rows = page.locator("#bysource tbody tr")
    expect(rows).to_have_count(3)
    view = httpx.get(f"{server.url}/api/tables/{tid}").json()["view"]
    for p in view["players"]:
        row = page.locator(f"#bysource tr[data-seat='{p['seat']}'] td.total")
        expect(row).to_have_text(str(p["vp"]))
        assert sum(p["vp_sources"].values()) == p["vp"]
    tid = finished_table(server, {"game": "polis", "seats": [{"bot": "random"}] * 2, "seed": 3})
    page.goto(f"{server.url}/t/{tid}")
    page.wait_for_selector("#gameover")
    view = httpx.get(f"{server.url}/api/tables/{tid}").json()["view"]
    words = {"ostracism": "ostracism", "starved": "starvation", "final": "last round is over"}
    expect(page.locator("#endreason")).to_contain_text(words[view["end_reason"]])
    expect(page.locator("#bysource tbody tr")).to_have_count(2)
    expect(page.locator("#bysource thead")).to_contain_text("posterity")
    page.screenshot(path=str(DOCS / "show-polis-end.png"))


def test_a_battles_dice_show_beside_the_map_without_scrolling(browser: Browser, server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 1400, "height": 900}, locale="en-US")
    page = ctx.new_page()
    tid = httpx.post(f"{server.url}/api/tables", json={
        "game": "spqrisiko", "players": 3, "seats": [{"bot": "random"}] * 3, "seed": 21,
        "options": {"max_rounds": 6, "vp_target": None}}).json()["id"]  # fmt: skip
    page.goto(f"{server.url}/t/{tid}")
    page.wait_for_selector("#map")
    page.wait_for_selector("#dicetray svg.die", timeout=60_000)
    tray = page.locator("#dicetray")
    expect(tray).to_be_visible()
    box = tray.bounding_box()
    assert (
        box is not None
        and box["y"] >= 0
        and box["y"] + box["height"] <= 900
        and box["x"] + box["width"] <= 1400
    )
    assert (
        page.locator("#dicetray svg.die.att").count() >= 1
        and page.locator("#dicetray svg.die.def").count() >= 1
    )
    expect(tray).to_contain_text("Losses: attacker")
    # a conquest or a roll is announced over the map
    page.wait_for_selector("#toasts .toast", timeout=30_000)
    page.screenshot(path=str(DOCS / "show-spqr-dice.png"))
    ctx.close()


OVERLAPS = """() => {
  const svg = document.getElementById("map");
  const inv = svg.getCTM().inverse();
  const box = (el) => {
    const b = el.getBBox();
    const r = inv.multiply(el.getCTM());
    const p = new DOMPoint(b.x, b.y).matrixTransform(r);
    const q = new DOMPoint(b.x + b.width, b.y + b.height).matrixTransform(r);
    return [p.x, p.y, q.x, q.y];
  };
  const items = [];
  for (const el of svg.querySelectorAll("text.plabel, text.sealabel")) items.push(["label:" + el.dataset.label, box(el)]);
  for (const el of svg.querySelectorAll("g.polis")) {
    items.push(["polis:" + el.dataset.id, box(el.querySelector("circle"))]);
    items.push(["pname:" + el.dataset.id, box(el.querySelector(".pname"))]);
  }
  for (const el of svg.querySelectorAll("g.army")) items.push(["army:" + el.dataset.id, box(el.querySelector("circle"))]);
  for (const el of svg.querySelectorAll("g.units > g.stack")) items.push(["stack:" + el.parentNode.dataset.units + el.dataset.side, box(el)]);
  const out = [];
  for (let i = 0; i < items.length; i++) for (let j = i + 1; j < items.length; j++) {
    const [a, A] = items[i];
    const [b, B] = items[j];
    if (a.startsWith("polis:") && b === "pname:" + a.slice(6)) continue;  // a polis and its own name
    const w = Math.min(A[2], B[2]) - Math.max(A[0], B[0]);
    const hh = Math.min(A[3], B[3]) - Math.max(A[1], B[1]);
    if (w > 0.5 && hh > 0.5) out.push([a, b]);
  }
  return [items.length, out];
}"""


@pytest.mark.parametrize("game", ["spqrisiko", "polis"])
def test_labels_discs_and_stacks_never_overlap(page: Page, server: Server, game: str) -> None:
    """Every name, polis disc, army and unit stack of the drawn map, measured as Chromium draws them."""
    body: dict[str, object] = {
        "game": game,
        "seats": [{"bot": "random"}] * (3 if game == "spqrisiko" else 2),
        "seed": 4,
    }
    if game == "spqrisiko":
        body["players"] = 3
    tid = httpx.post(f"{server.url}/api/tables", json=body).json()["id"]
    page.goto(f"{server.url}/t/{tid}")
    page.wait_for_selector("#map")
    if game == "spqrisiko":  # every province holds an army once the set-up is over
        page.wait_for_function(
            "() => [...document.querySelectorAll('#map .army circle')].every((c) => c.style.display !== 'none')",
            timeout=60_000,
        )
    else:
        page.wait_for_function("() => document.querySelectorAll('#map g.stack').length > 0")
    n, overlaps = page.evaluate(OVERLAPS)
    assert n > (90 if game == "spqrisiko" else 60)
    assert overlaps == [], overlaps


def test_phone_map_and_controls_together_in_a_bottom_sheet(browser: Browser, server: Server) -> None:
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="it-IT"
    )
    page = ctx.new_page()
    create_table(page, server, "polis")
    page.click("#go")
    page.wait_for_selector("#map")
    assert wait_turn(page)
    polis_to_action_phase(page)
    # the page itself does not scroll: the map above, the controls below, both on the screen
    assert page.evaluate("document.documentElement.scrollHeight") <= 846
    board = page.locator("#board").bounding_box()
    side = page.locator("#side").bounding_box()
    assert board is not None and side is not None
    assert board["y"] < 200 and board["height"] > 250, board
    assert side["y"] >= board["y"] + board["height"] - 1 and side["y"] + side["height"] <= 845, side
    expect(page.locator("#now")).to_be_in_viewport()
    expect(page.locator("#actions h2")).to_be_in_viewport()
    # a place chosen on the map: its actions come into view in the sheet
    page.locator("#a-attika").dispatch_event("click")
    expect(page.locator("#here")).to_be_in_viewport()
    page.locator("#a-attika").dispatch_event("click")  # and a second click lets it go
    # the handle makes the sheet taller (more controls) and back
    page.locator("#sheethandle").tap()
    page.wait_for_function("() => document.body.classList.contains('sheet-full')")
    page.wait_for_timeout(300)
    taller = page.locator("#side").bounding_box()
    assert taller is not None and taller["height"] > side["height"] + 100
    page.locator("#sheethandle").tap()
    # the map starts on the player's capital (Athens), not on an empty corner
    athinae = page.locator("#p-athinae").bounding_box()
    assert (
        athinae is not None and board["x"] <= athinae["x"] <= board["x"] + board["width"] - athinae["width"]
    ), athinae
    assert board["y"] <= athinae["y"] <= board["y"] + board["height"] - athinae["height"], athinae
    # the whole map: it takes its own height and the sheet fills the rest (no empty band); a tap names the place
    page.click("#mapzoom")
    page.wait_for_function("() => document.body.classList.contains('fitmap')")
    page.wait_for_timeout(300)
    fit_map = page.locator("#map").bounding_box()
    fit_side = page.locator("#side").bounding_box()
    assert fit_map is not None and fit_side is not None
    assert 0 <= fit_side["y"] - (fit_map["y"] + fit_map["height"]) < 24, (fit_map, fit_side)
    assert fit_side["y"] + fit_side["height"] <= 845
    expect(page.locator("#fithint")).to_have_text("Tocca un luogo per leggerne il nome")
    page.locator("#p-sparti circle").tap(force=True)
    expect(page.locator("#tapname")).to_have_text("Sparti")
    page.screenshot(path=str(DOCS / "show-phone-polis-it.png"))
    ctx.close()


# every announcement shown, recorded as it appears (each goes after a few seconds)
TOASTS = """
window.__toasts = [];
new MutationObserver((ms) => { for (const m of ms) for (const n of m.addedNodes) {
  if (n.classList && n.classList.contains("toast")) window.__toasts.push([n.className, n.textContent]);
} }).observe(document, { childList: true, subtree: true });
"""


@pytest.mark.parametrize("lang", ["en", "it"])
def test_polis_end_of_round_steps_taken_without_a_choice_are_announced(
    browser: Browser, server: Server, lang: str
) -> None:
    """Supply paid in full, no growth, storage halved, no phoros…: announced over the map and kept in the side
    panel, with who and how much (issue 12 item 5). The person passes until the round ends."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 900}, locale="en-US")
    ctx.add_init_script(f"localStorage.setItem('hegemon.lang', '{lang}')")
    ctx.add_init_script(TOASTS)
    page = ctx.new_page()
    create_table(page, server, "polis")
    page.click("#go")
    page.wait_for_selector("#map")
    # play on until the end of round has announced a step it took by itself: its panel can open before that (a
    # supply the person pays by hand comes first, the steps taken alone follow it)
    for _ in range(80):
        if page.evaluate("window.__toasts.some(([k]) => k.includes('auto'))") or not wait_turn(page):
            break
        if page.evaluate("document.body.dataset.phase") == "phoros":
            break  # the round's end is under way: its steps taken alone are announced (awaited below), not raced
        v = version(page)
        if page.locator("#confirm-yes").count():
            page.click("#confirm-yes")
        elif page.locator("#actions button[data-type=pass]").count():
            page.click("#actions button[data-type=pass]")
        else:
            page.locator(
                "#actions button.act, #actions button.confirm, #actions button.primary"
            ).first.click()
        if page.locator("#confirm-yes").count():
            page.click("#confirm-yes")
        wait_moved(page, v)
    end = "Fine del round 3" if lang == "it" else "End of round 3"  # the rule book's name of the first round
    page.wait_for_function("() => window.__toasts.some(([k]) => k.includes('auto'))")
    auto = [text for kind, text in page.evaluate("window.__toasts") if "auto" in kind]
    assert all(text.startswith(end) for text in auto), auto
    assert any(("Atene" if lang == "it" else "Athens") in x or "Sparta" in x for x in auto), auto
    panel = page.locator("#roundend")
    expect(panel.locator("summary")).to_contain_text(end)
    tid = page.url.rstrip("/").split("/")[-1]
    rep = httpx.get(f"{server.url}/api/tables/{tid}").json()["view"]["round_end"]
    assert rep["round_number"] == 1 and rep["steps"]
    # the panel names every side the report names, with its numbers
    expect(panel.locator("li")).to_have_count(len({s["side"] for s in rep["steps"]}))
    for s in rep["steps"]:
        if s["step"] == "supply":
            expect(panel.locator(f"li[data-side='{s['side']}']")).to_contain_text(str(s["wheat"]))
    page.screenshot(path=str(DOCS / f"show-polis-roundend-{lang}.png"))
    ctx.close()
