"""End-to-end: Debian's Chromium (Playwright) against a real `hegemon serve`. A person plays each game
against bots by clicking the map, reloads and goes on; two people share a table; the end of a game and its
replay; Italian; a phone-sized screen. Screenshots for the README are saved under docs/."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from hegemon.games.spqrisiko.board import load_board as spqr_board

from .conftest import DOCS, Server

pytestmark = pytest.mark.e2e


def version(page: Page) -> int:
    return int(page.get_attribute("body", "data-version") or -1)


def create_table(page: Page, server: Server, game: str, players: int | None = None,
                 seats: dict[int, str] | None = None, name: str | None = None) -> None:  # fmt: skip
    page.goto(server.url + "/")
    page.wait_for_selector("#createbtn")
    page.select_option("#game", game)
    if name is not None:
        page.fill("#name", name)
    if players is not None:
        page.fill("#players", str(players))
        page.dispatch_event("#players", "change")
    for i, value in (seats or {}).items():
        page.select_option(f"#seat-{i}", value)
    page.click("#createbtn")
    page.wait_for_selector("#go")


def polis_to_action_phase(page: Page) -> None:
    """Make the round's event choices (a unit to remove, on some draws) with the first button, until the
    action phase: the draw is secret, so a test cannot pick a seed that avoids them."""
    while page.get_attribute("body", "data-phase") != "action":
        v = version(page)
        page.locator("#actions button.act").first.click()
        wait_moved(page, v)
        assert wait_turn(page)


def wait_turn(page: Page, timeout: float = 30_000) -> bool:
    try:
        page.wait_for_function(
            "() => document.body.dataset.myturn === '1' || document.body.dataset.status === 'finished'",
            timeout=timeout,
        )
    except Exception:
        return False
    return page.get_attribute("body", "data-status") != "finished"


def wait_moved(page: Page, v: int, timeout: float = 30_000) -> None:
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=v, timeout=timeout)


def visible(page: Page, sel: str) -> bool:
    return page.locator(sel).count() > 0 and page.locator(sel).first.is_visible()


def spqr_move(page: Page, attacks: list[int]) -> str:
    """One move of the person at S.P.Q.RisiKo!, made as a player would: clicks on the map and the controls."""
    v = version(page)
    phase = page.get_attribute("body", "data-phase") or ""
    did = ""
    if visible(page, "#confirm"):
        page.click("#confirm")
        did = "confirm"
    elif visible(page, "#actions .count-btn"):
        page.locator("#actions .count-btn").last.click()
        did = "confirm"
    elif visible(page, "#autoroll"):
        page.click("#autoroll")
        did = "autoroll"
    elif phase == "land attacks" and attacks[0] < 2 and page.locator("svg .area.clickable").count():
        page.locator("svg .area.clickable").first.dispatch_event("click")
        page.locator("svg .area.clickable").first.dispatch_event("click")
        page.wait_for_selector("#autoattack")
        assert page.locator("#odds .pwin").count() or page.wait_for_selector("#odds .pwin")
        page.click("#autoattack")
        attacks[0] += 1
        did = "attack"
        wait_moved(page, v)
        # the page rolls by itself until the battle is over: let it finish before the next click
        page.wait_for_function("() => document.body.dataset.phase !== 'land attack: roll'", timeout=60_000)
    elif phase in ("setup: claim", "setup: neutral group", "reinforcements: place", "reinforcements: card bonus") and \
            page.locator("svg .area.clickable").count():  # fmt: skip
        page.locator("svg .area.clickable").first.dispatch_event("click")
        did = "click"
    elif visible(page, "#done"):
        if phase == "land attacks":
            attacks[0] = 0
        page.keyboard.press("d")  # the keyboard shortcut of "end phase"
        did = "done"
    elif visible(page, "#forgo"):
        page.click("#forgo")
        did = "forgo"
    else:
        page.click("details.all summary")
        page.locator("button.legal").first.click()
        did = "legal"
    wait_moved(page, v)
    return did


def polis_move(page: Page) -> str:
    """Click the first highlighted place, then play what is offered: an action button, else the confirm of a
    count choice (its default count), else a count button."""
    v = version(page)
    areas = page.locator("svg .area.clickable")
    if areas.count():
        areas.first.dispatch_event("click")
    page.wait_for_selector("#actions button.act, #actions button.confirm, #actions button.count-btn")
    for css, kind in (("button.act", "act"), ("button.confirm", "count"), ("button.count-btn", "count")):
        btn = page.locator(f"#actions {css}")
        if btn.count():
            btn.first.click()
            if page.locator("#confirm-move").count():  # a move that loses prestige or a polis is asked first
                page.click("#confirm-yes")
            wait_moved(page, v)
            return kind
    raise AssertionError("no control offered on my turn")


def test_lobby_lists_games_options_and_bots(page: Page, server: Server) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#createbtn")
    expect(page.locator("#opt-rules")).to_be_visible()
    expect(page.locator(".opt small.help").first).not_to_be_empty()
    # choosing the published rules sets the defaults of its switches
    page.click("#moreoptions summary")
    expect(page.locator("#opt-garrison")).to_have_value("garrison_stop")
    page.select_option("#opt-rules", "official")
    expect(page.locator("#opt-garrison")).to_have_value("move_in_first")
    expect(page.locator("#opt-first_elimination_round")).to_have_value("5")
    page.select_option("#game", "polis")
    expect(page.locator("#opt-siege")).to_be_visible()
    assert "random" in page.locator("#seat-1").inner_text()
    expect(page.locator("#seat-1")).to_have_value("bot:mcts:easy")  # the default opponent is a real one


def test_spqrisiko_against_bots_by_clicking_the_map(page: Page, server: Server) -> None:
    # random bots (the lobby's default is the easy search bot): the person's clicks carry the game into round 3
    create_table(page, server, "spqrisiko", players=4, seats={i: "bot:random" for i in (1, 2, 3)})
    page.click("#go")
    page.wait_for_selector("#map")
    attacks = [0]
    kinds: set[str] = set()
    moves = 0
    start = time.time()
    while moves < 400 and time.time() - start < 150:
        if not wait_turn(page):
            break
        kinds.add(spqr_move(page, attacks))
        moves += 1
        if int(page.get_attribute("body", "data-round") or 0) >= 3 and "attack" in kinds:
            break
    assert int(page.get_attribute("body", "data-round") or 0) >= 2, "played several turns"
    assert {"click", "done"} <= kinds
    assert page.locator("#log li").count() > 20
    assert page.locator("table.scores tbody tr").count() == 4
    expect(page.locator("#preview")).to_be_visible()
    page.screenshot(path=str(DOCS / "screenshot-spqrisiko.png"))
    # reload: the same seat, the same table, and the game goes on
    v = version(page)
    page.reload()
    page.wait_for_selector("#map")
    page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=v)
    assert page.get_attribute("body", "data-seat") == "0"
    assert page.locator("#log li").count() > 20
    for _ in range(5):
        if not wait_turn(page):
            break
        spqr_move(page, attacks)
    assert version(page) > v


def test_polis_against_a_bot_by_clicking_the_map(page: Page, server: Server) -> None:
    create_table(page, server, "polis")
    page.click("#go")
    page.wait_for_selector("#map")
    moves = 0
    shot = False
    while moves < 40:
        if not wait_turn(page):
            break
        polis_move(page)
        moves += 1
        if moves == 3:
            page.screenshot(path=str(DOCS / "screenshot-polis.png"))
            shot = True
            v = version(page)
            page.reload()
            page.wait_for_selector("#map")
            page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=v)
    assert moves >= 3 and shot
    assert page.locator("#log li").count() >= moves
    expect(page.locator("#players .side")).to_have_count(2)
    expect(page.locator("#players .score")).to_have_count(2)
    assert int(page.locator("#players .score").first.get_attribute("data-total") or -1) >= 0
    if page.get_attribute("body", "data-status") == "finished":
        expect(page.locator("#gameover")).to_be_visible()


def test_two_people_at_one_table(browser: Browser, server: Server) -> None:
    a = browser.new_context(viewport={"width": 1280, "height": 860})
    b = browser.new_context(viewport={"width": 1280, "height": 860})
    pa, pb = a.new_page(), b.new_page()
    create_table(pa, server, "spqrisiko", players=3, seats={1: "human", 2: "bot:random"},
                 name="<img src=x onerror=alert(1)><b>Ada</b>")  # fmt: skip
    link = pa.locator("input.link[data-seat='1']").input_value()
    assert re.search(r"/t/\w+#seat=", link)
    pa.click("#go")
    pa.wait_for_selector("#map")
    pb.goto(link)
    pb.fill("#joinname", "Bea")  # a person opening a seat's link gives a name first
    pb.click("#takeseatbtn")
    pb.wait_for_selector("#map")
    for p in (pa, pb):
        p.wait_for_function("() => document.body.dataset.status === 'playing'")
    assert pa.get_attribute("body", "data-seat") == "0" and pb.get_attribute("body", "data-seat") == "1"
    # the name is shown as text on the other person's screen, never as markup
    expect(pb.locator("#players")).to_contain_text("<img src=x onerror=alert(1)><b>Ada</b>")
    assert pb.locator("#players img, #players b, #log img").count() == 0
    acted = {0: 0, 1: 0}
    start = time.time()
    while time.time() - start < 90:
        for who, p in ((0, pa), (1, pb)):
            if p.get_attribute("body", "data-myturn") == "1":
                v = version(p)
                spqr_move(p, [9])
                acted[who] += 1
                other = pb if p is pa else pa
                other.wait_for_function("v => Number(document.body.dataset.version) > v", arg=v)
        if acted[0] >= 3 and acted[1] >= 3:
            break
        pa.wait_for_timeout(150)
    tid = pa.url.rsplit("/", 1)[-1]
    server_side = httpx.get(f"{server.url}/api/tables/{tid}").json()
    state = {"acted": acted, "versions": (version(pa), version(pb)),
             "myturn": (pa.get_attribute("body", "data-myturn"), pb.get_attribute("body", "data-myturn")),
             "server": (server_side["version"], server_side["view"]["current_player"], server_side["view"]["phase"])}  # fmt: skip
    assert acted[0] >= 3 and acted[1] >= 3, state
    # both see the same table
    pa.wait_for_timeout(300)
    assert abs(version(pa) - version(pb)) <= 3
    a.close()
    b.close()


def test_game_over_ranking_and_replay(page: Page, server: Server) -> None:
    r = httpx.post(f"{server.url}/api/tables", json={
        "game": "spqrisiko", "players": 3, "seats": [{"bot": "random"}] * 3, "seed": 5,
        "options": {"max_rounds": 2, "vp_target": None}})  # fmt: skip
    tid = r.json()["id"]
    deadline = time.time() + 60
    while (
        time.time() < deadline and httpx.get(f"{server.url}/api/tables/{tid}").json()["status"] != "finished"
    ):
        time.sleep(0.2)
    page.goto(f"{server.url}/t/{tid}")
    page.wait_for_selector("#gameover")
    expect(page.locator("ol.ranking li")).not_to_have_count(0)
    expect(page.locator(".winner")).to_contain_text("Winner")
    page.click("#openreplay")
    page.wait_for_selector("#replaybar")
    page.wait_for_function("() => document.body.dataset.step === '0'")
    for _ in range(3):
        page.click("#rnext")
    page.wait_for_function("() => document.body.dataset.step === '3'")
    assert page.locator("#log li").count() == 3
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => document.body.dataset.step === '2'")
    page.click("#rlast")
    steps = httpx.get(f"{server.url}/api/tables/{tid}").json()["version"]
    page.wait_for_function("n => document.body.dataset.step === String(n)", arg=steps)
    # a finished game can be seen by any player: their hand shows
    expect(page.locator("#hand")).to_have_count(0)
    page.select_option("#pov", "1")
    expect(page.locator("#hand")).to_be_visible()


def test_italian_interface_follows_the_browser_and_switches(browser: Browser, server: Server) -> None:
    ctx = browser.new_context(locale="it-IT", viewport={"width": 1280, "height": 860})
    p = ctx.new_page()
    p.goto(server.url + "/")
    expect(p.locator("#createbtn")).to_have_text("Crea il tavolo")
    expect(p.locator(".opt small.help").first).to_contain_text("Regolamento")
    p.click("#createbtn")
    p.click("#go")
    p.wait_for_selector("#map")
    expect(p.locator("#logtitle")).to_have_text("Cronaca")
    p.wait_for_function("() => document.querySelectorAll('#log li').length > 0")
    expect(p.locator("#log")).to_contain_text("ordine di gioco")
    p.click("#lang")
    expect(p.locator("#logtitle")).to_have_text("Log")
    expect(p.locator("#log")).to_contain_text("order of play")
    ctx.close()


def test_rules_page_starts_in_the_browsers_language_and_remembers_a_switch(
    browser: Browser, server: Server
) -> None:
    """The rules page's entry point sets the language before drawing (the dictionaries are JSON modules); the
    language button's choice is kept for the next page."""
    ctx = browser.new_context(locale="it-IT", viewport={"width": 1280, "height": 860})
    p = ctx.new_page()
    p.goto(server.url + "/rules/polis")
    p.wait_for_function("() => document.body.dataset.ready === '1'")
    assert p.evaluate("document.documentElement.lang") == "it"
    expect(p.locator("#lang")).to_have_text(IT["lang.switch"])
    expect(p.locator("#othergame")).to_have_text(IT["rules.other.spqrisiko"])
    p.click("#lang")
    expect(p.locator("#lang")).to_have_text("Italiano")
    assert p.evaluate("document.documentElement.lang") == "en"
    p.goto(server.url + "/")
    expect(p.locator("#createbtn")).to_have_text("Create table")
    assert p.evaluate("document.documentElement.lang") == "en"
    ctx.close()


def test_phone_width(browser: Browser, server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    p = ctx.new_page()
    p.goto(server.url + "/")
    p.wait_for_selector("#createbtn")
    assert p.evaluate("document.documentElement.scrollWidth") <= 392
    p.screenshot(path=str(DOCS / "screenshot-phone-lobby.png"))
    p.click("#createbtn")
    p.click("#go")
    p.wait_for_selector("#map")
    p.wait_for_function("() => document.body.dataset.myturn === '1'")
    assert p.evaluate("document.documentElement.scrollWidth") <= 392
    box = p.locator("#map").bounding_box()
    assert box is not None and box["width"] > 300
    v = version(p)
    # the largest free province (a tap on a small island's box can land on the sea around it)
    areas = p.locator("svg .area.clickable").all()
    sizes = [(b["width"] * b["height"] if (b := a.bounding_box()) else 0.0) for a in areas]
    areas[sizes.index(max(sizes))].tap()
    wait_moved(p, v)
    p.screenshot(path=str(DOCS / "screenshot-phone-table.png"), full_page=True)
    # Polis on a phone: the map pans in its box, the controls are on the first screen, a button shows it whole
    create_table(p, server, "polis")
    p.click("#go")
    p.wait_for_selector("#map")
    p.wait_for_function("() => document.body.dataset.myturn === '1'")
    assert p.evaluate("document.documentElement.scrollWidth") <= 392
    actions = p.locator("#actions").bounding_box()
    assert actions is not None and actions["y"] < 844 - 100, actions
    polis_to_action_phase(p)
    p.locator("#a-attika").dispatch_event("click")
    btn = p.locator(".group[data-type='create_galleys'] button.confirm")
    expect(btn).to_be_visible()
    box = btn.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    zoomed = p.locator("#map").bounding_box()
    assert zoomed is not None and zoomed["width"] > 600  # readable: wider than the screen, it pans
    p.click("#mapzoom")
    p.wait_for_function("() => document.body.classList.contains('fitmap')")
    assert (p.locator("#map").bounding_box() or {"width": 999})["width"] <= 390
    p.screenshot(path=str(DOCS / "screenshot-phone-polis.png"), full_page=True)
    ctx.close()


def test_lobby_screenshot_with_tables(page: Page, server: Server) -> None:
    httpx.post(f"{server.url}/api/tables", json={"game": "polis", "seats": [{"human": True, "name": "Pericles"},
                                                                            {"bot": "greedy"}]})  # fmt: skip
    page.goto(server.url + "/")
    page.wait_for_selector("table.list tr")
    expect(page.locator("table.list tr").first).to_be_visible()
    page.screenshot(path=str(DOCS / "screenshot-lobby.png"), full_page=True)


def test_server_restart_the_page_reconnects_and_the_table_is_intact(page: Page, server: Server) -> None:
    create_table(page, server, "spqrisiko", players=3)
    page.click("#go")
    page.wait_for_selector("#map")
    attacks = [0]
    for _ in range(3):
        assert wait_turn(page)
        spqr_move(page, attacks)
    assert wait_turn(page)
    v = version(page)
    log_lines = page.locator("#log li").count()
    server.stop()
    expect(page.locator("#conn")).to_contain_text("reconnecting", timeout=10_000)
    server.start(same_port=True)
    expect(page.locator("#conn")).to_have_text("", timeout=15_000)
    page.wait_for_function("v => Number(document.body.dataset.version) === v", arg=v)
    assert page.locator("#log li").count() == log_lines
    assert wait_turn(page)
    spqr_move(page, attacks)
    assert version(page) > v


def test_turn_timer_a_bot_plays_the_turn_and_the_log_says_so(page: Page, server: Server) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#createbtn")
    page.fill("#players", "3")
    page.dispatch_event("#players", "change")
    page.click("#moreoptions summary")
    page.fill("#timer", "5")
    page.click("#createbtn")
    page.click("#go")
    page.wait_for_selector("#map")
    assert wait_turn(page)
    expect(page.locator("#timer")).to_contain_text("s left")
    # do nothing: after 5 s a bot plays for us
    expect(page.locator("#log")).to_contain_text("timer: played by a bot", timeout=15_000)


# ------------------------------------------------------------------ count choices, translations, glyphs

I18N = Path(__file__).resolve().parents[2] / "src" / "hegemon" / "web" / "i18n"
IT = json.loads((I18N / "it.json").read_text(encoding="utf-8"))


def test_count_choice_offers_only_the_legal_values_and_works_by_keyboard(page: Page, server: Server) -> None:
    """The shared control: 2-4 counts are buttons; more are a slider over the listed values only (a gap in
    them is skipped), ←/→ change it, Enter plays the action of the value shown."""
    page.goto(server.url + "/")
    page.wait_for_selector("#createbtn")
    result = page.evaluate("""async () => {
      const { countChoice } = await import(new URL("common.js", document.querySelector("script[type=module]").src));
      const picked = [];
      const items = [1, 2, 3, 5, 8, 9].map((n) => ({ value: n, action: { type: "move", count: n } }));
      const root = document.createElement("div");
      root.id = "probe";
      document.body.prepend(root);
      root.append(countChoice({ key: "probe", id: "probe-count", label: "How many", items, confirmText: "OK",
        onPick: (a) => picked.push(a.count) }));
      const few = countChoice({ key: "few", id: "few", items: items.slice(0, 3), onPick: (a) => picked.push(a.count) });
      root.append(few);
      window.__picked = picked;
      return { buttons: few.querySelectorAll("button.count-btn").length, range: root.querySelectorAll("input[type=range]").length };
    }""")
    assert result == {"buttons": 3, "range": 1}
    slider = page.locator("#probe-count")
    expect(page.locator("#probe output.count-value")).to_have_text("9")  # the largest by default
    slider.focus()
    for _ in range(2):
        page.keyboard.press("ArrowLeft")
    expect(page.locator("#probe output.count-value")).to_have_text("5")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#probe output.count-value")).to_have_text("3")  # 4 is not legal: skipped
    page.keyboard.press("Enter")
    page.locator("#probe button.count-btn[data-count='2']").click()
    page.locator("#probe button.step").last.click()
    expect(page.locator("#probe output.count-value")).to_have_text("5")
    page.locator("#probe button.confirm").click()
    assert page.evaluate("window.__picked") == [3, 2, 5]


def play_rest(server: Server, tid: str, token: str, choose: object, until: object, limit: float = 90) -> dict:
    """Play the seat of `token` through the REST API (bots play the others) until `until(detail)`."""
    deadline = time.time() + limit
    while time.time() < deadline:
        d = httpx.get(f"{server.url}/api/tables/{tid}", params={"token": token}).json()
        if until(d):
            return d
        legal = d["view"].get("legal_actions") or []
        if d["status"] != "playing" or not legal:
            time.sleep(0.05)
            continue
        a = choose(d["view"], legal)
        httpx.post(
            f"{server.url}/api/tables/{tid}/actions",
            json={"token": token, "version": d["version"], "action": a},
        )
    raise AssertionError("the position was not reached")


def test_spqrisiko_strategic_move_count_with_the_slider(page: Page, server: Server) -> None:
    def armies(view: dict, pid: str) -> int:
        return next(p["armies"] for p in view["provinces"] if p["id"] == pid)

    def big_fortify(d: dict) -> dict | None:
        legal = d["view"].get("legal_actions") or []
        ok = [a for a in legal if a["type"] == "fortify" and armies(d["view"], a["source"]) >= 7]
        return ok[0] if ok else None

    b = spqr_board(None)

    def mine_next_door(view: dict, pid: str) -> bool:
        owner = {p["id"]: p["owner"] for p in view["provinces"]}
        return any(owner[b.province_ids[n]] == 0 for n in b.land[b.province_index[pid]])

    def choose(view: dict, legal: list[dict]) -> dict:
        re_ = [a for a in legal if a["type"] == "reinforce"]
        if re_:  # everything on one province, one that can move to another of ours
            return max(
                re_,
                key=lambda a: (
                    mine_next_door(view, a["province"]),
                    armies(view, a["province"]),
                    a["province"],
                ),
            )
        for kind in ("done", "forgo"):
            for a in legal:
                if a["type"] == kind:
                    return a
        return legal[0]

    # the person piles every legionary on one province and only ends phases, until a strategic move from it
    # has at least 5 counts (1 to armies - 2; the random bots may get in the way: then a new table)
    for attempt in range(4):
        r = httpx.post(f"{server.url}/api/tables", json={
            "game": "spqrisiko", "players": 3, "seed": 11 + attempt, "claim": 0,
            "seats": [{"human": True, "name": "Ada"}, {"bot": "random"}, {"bot": "random"}]}).json()  # fmt: skip
        tid, token = r["id"], r["seats"][0]["token"]
        try:
            d = play_rest(server, tid, token, choose, big_fortify, limit=40)
            break
        except AssertionError:
            continue
    fort = big_fortify(d)
    assert fort is not None
    page.goto(f"{server.url}/t/{tid}#seat={token}")
    page.wait_for_selector("#map")
    assert wait_turn(page)
    v = version(page)
    page.locator(f"#a-{fort['source']}").dispatch_event("click")
    page.locator(f"#a-{fort['dest']}").dispatch_event("click")
    wait_moved(page, v)
    names = {
        p["id"]: p["name"] for p in httpx.get(f"{server.url}/static/maps/spqrisiko.json").json()["provinces"]
    }
    expect(page.locator("#log li", has_text="Ada strategic move").last).to_contain_text(
        f"{names[fort['source']]} → {names[fort['dest']]}"
    )
    expect(page.locator("#actions p.sel")).to_have_text(f"{names[fort['source']]} → {names[fort['dest']]}")
    expect(page.locator("#count[type=range]")).to_be_visible()  # many counts: a slider, not a row of buttons
    assert page.locator("#actions .count-btn").count() == 0
    v = version(page)
    top = int(page.locator("#actions output.count-value").inner_text())
    page.locator("#count").focus()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#actions output.count-value")).to_have_text(str(top - 2))
    page.keyboard.press("Enter")
    wait_moved(page, v)
    rec = json.loads(
        httpx.get(f"{server.url}/api/tables/{tid}/record", params={"token": token}).text.splitlines()[0]
    )
    # the move right after this fortify is Ada's (the random bots may already have moved after it)
    acts = rec["actions"]
    at = max(i for i, a in enumerate(acts) if a["type"] == "fortify" and a["source"] == fort["source"]
             and a["dest"] == fort["dest"])  # fmt: skip
    assert acts[at + 1] == {"type": "move", "count": top - 2}
    # the line may go on with what the move changed ("— Round 3 begins")
    expect(page.locator("#log li", has_text="Ada moves").last).to_have_text(
        re.compile(rf"^Ada moves {top - 2}( — .*)?$")
    )


def test_polis_counts_in_italian_with_translated_game_terms(browser: Browser, server: Server) -> None:
    ctx = browser.new_context(locale="it-IT", viewport={"width": 1400, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    create_table(page, server, "polis")
    expect(page.locator("label[for='seat-0']")).to_have_text("Atene")
    page.click("#go")
    page.wait_for_selector("#map")
    assert wait_turn(page)
    # the round's event and the log use the Italian card names
    tid = page.url.rsplit("/", 1)[-1]
    event = httpx.get(f"{server.url}/api/tables/{tid}").json()["view"]["event"]
    it_name = IT["event.no_event" if event.startswith("no_event") else f"event.{event}"]
    expect(page.locator("#event")).to_have_text(f"Evento: {it_name}")
    expect(page.locator("#log")).to_contain_text(f"evento: {it_name}")
    # the event may first ask for a choice (a unit to remove): make it, until the action phase
    polis_to_action_phase(page)
    # "Other actions" offers a labelled button, never a raw kind or a log line
    expect(page.locator("#actions button.act[data-type='pass']")).to_have_text(
        re.compile(r"^Passa \(nessun'altra azione in questo round\)")
    )
    # creating galleys: how many (buttons), the price shown, then confirm
    page.locator("#a-attika").dispatch_event("click")
    group = page.locator(".group[data-type='create_galleys']")
    expect(group).to_be_visible()
    group.locator("button.count-btn[data-count='2']").click()
    # the whole cost and effect, computed by the rules: the cubes become galleys, the wood is paid
    expect(group.locator("button.confirm")).to_have_text(
        "Conferma: Crea 2 galee ad Athinae — \u22122 popolazione · +2 galee · \u22122 legno"
    )
    v = version(page)
    group.locator("button.confirm").click()
    wait_moved(page, v)
    expect(page.locator("#log")).to_contain_text("crea 2 galee ad Athinae (2 legno)")
    # a seat with the server's default name is called by its side alone
    expect(page.locator("p.you")).to_have_text(re.compile(r"^Sei (Atene|Sparta)$"))
    page.screenshot(path=str(DOCS / "screenshot-polis-it.png"))
    # nothing on the page is an untranslated id
    text = page.locator("body").inner_text()
    for raw in ("act.polis", "do.polis", "polis.", "_", "event."):
        assert raw not in text, raw
    ctx.close()
    assert not errors, errors
