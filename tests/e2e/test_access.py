"""End-to-end: everyone can play (issue 28 items 7 and 9). A whole S.P.Q.RisiKo! reinforcement phase played with
the keyboard alone, the focus kept on the map after each move; every place of both maps named for a screen reader
with its owner and its units, in English and Italian; and the small things a new player tripped on: the rules'
contents numbered once, no key hints on a touch screen, a finished game's score not called "if the game ended
now", the round in a replay, a bot's level without brackets in brackets."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import DOCS, Server
from .test_browser import play_rest, version, wait_turn

pytestmark = pytest.mark.e2e

FOCUS = """() => { const a = document.activeElement;
  return { tag: a.tagName, id: a.id || "", map: !!a.closest("#map"), label: a.getAttribute("aria-label") || "" }; }"""


def seat_table(server: Server, body: dict[str, Any]) -> tuple[str, str]:
    r = httpx.post(f"{server.url}/api/tables", json={**body, "claim": 0})
    r.raise_for_status()
    d = r.json()
    return d["id"], d["seats"][0]["token"]


def spqr_table(server: Server, bots: str = "random") -> tuple[str, str]:
    """The lesson's table (a fixed seed and no secret salt: the same deal and dice every time): you are red and
    hold Italia, with 4 legionaries to place and Cisalpina to attack."""
    return seat_table(server, {"game": "spqrisiko", "players": 3, "seed": 20051, "tutorial": True,
                               "options": {"random_deal": True, "vp_target": 10},
                               "seats": [{"human": True, "name": "Ada"}, {"bot": bots}, {"bot": bots}]})  # fmt: skip


def state(server: Server, tid: str, token: str) -> dict[str, Any]:
    d: dict[str, Any] = httpx.get(f"{server.url}/api/tables/{tid}", params={"token": token}).json()
    return d


def armies(d: dict[str, Any]) -> dict[str, int]:
    return {p["id"]: p["armies"] for p in d["view"]["provinces"] if p["owner"] == 0}


def test_keyboard_only_a_whole_reinforcement_phase(page: Page, server: Server) -> None:
    """Tab reaches the map, the arrows go from one of your provinces to another, Enter places one legionary, a
    digit places that many, D ends the phase: only keyboard events, the focus stays on the map after each move,
    and the phase is played in a handful of presses (issue 28: each legionary cost ~11 through "All legal
    actions", and the focus dropped to the page after each)."""
    tid, token = spqr_table(server)
    page.goto(f"{server.url}/t/{tid}#seat={token}")
    page.wait_for_selector("#map")
    assert wait_turn(page)
    expect(page.locator("body")).to_have_attribute("data-phase", "reinforcements: place")
    before = state(server, tid, token)
    pool = before["view"]["pool"]
    assert pool >= 3, pool
    # the legionaries per click: a named group of toggle buttons, 1 pressed
    per = page.get_by_role("group", name="Per click")
    expect(per.get_by_role("button", name="1", exact=True)).to_have_attribute("aria-pressed", "true")
    expect(per.get_by_role("button", name="all")).to_have_attribute("aria-pressed", "false")
    presses = 0

    def press(key: str) -> dict[str, Any]:
        nonlocal presses
        page.keyboard.press(key)
        presses += 1
        f: dict[str, Any] = page.evaluate(FOCUS)
        return f

    # Tab: the page's header, then the map (one stop: a province you can reinforce)
    f = {}
    for _ in range(8):
        f = press("Tab")
        if f["map"]:
            break
    assert f["map"], f
    first = f["id"][2:]
    assert first in armies(before), f  # one of yours: a province that can be reinforced
    assert re.fullmatch(rf".+, Red \(you\), {armies(before)[first]} legionar(y|ies)(, .+)?", f["label"]), f
    # Enter: one legionary there; the focus stays on that province, whose name says the new count
    v = version(page)
    f = press("Enter")
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=v)
    page.wait_for_function(
        "([id, n]) => document.getElementById('a-' + id).dataset.armies === String(n)",
        arg=[first, armies(before)[first] + 1],
    )
    f = page.evaluate(FOCUS)
    assert f["map"] and f["id"] == f"a-{first}", f
    assert f"{armies(before)[first] + 1} legionaries" in f["label"], f
    # an arrow: another of your provinces (only the places you can choose now, while there are some)
    f = press("ArrowRight")
    second = f["id"][2:]
    assert second != first and second in armies(before), f
    # a digit: that many legionaries (the rest of the pool) on it; the phase then moves on by itself
    rest = pool - 1
    while rest > 0:
        k = min(9, rest)
        target = armies(state(server, tid, token))[second] + k
        press(str(k))
        page.wait_for_function(
            "([id, n]) => document.getElementById('a-' + id).dataset.armies === String(n)",
            arg=[second, target],
        )
        rest -= k
    page.wait_for_function("() => document.body.dataset.phase !== 'reinforcements: place'")
    f = page.evaluate(FOCUS)
    assert f["map"] and f["id"] == f"a-{second}", f  # still on the map: never dropped to the page
    after = state(server, tid, token)
    assert sum(armies(after).values()) - sum(armies(before).values()) == pool
    assert armies(after)[first] == armies(before)[first] + 1
    assert armies(after)[second] == armies(before)[second] + pool - 1
    assert after["view"]["phase"] != "reinforcements: place"
    # D (from the map) ends the next phase too: the focus still on the map
    v = version(page)
    phase = page.get_attribute("body", "data-phase")
    f = press("d")
    page.wait_for_function("([v, p]) => Number(document.body.dataset.version) > v && document.body.dataset.phase !== p",
                           arg=[v, phase])  # fmt: skip
    assert page.evaluate(FOCUS)["map"]
    assert presses <= 12, presses  # Tab ×3 or so, Enter, an arrow, a digit, D
    page.screenshot(path=str(DOCS / "access-keyboard-spqrisiko.png"))


def test_keyboard_attack_the_choice_that_follows_takes_the_focus(page: Page, server: Server) -> None:
    """In the attacks phase: Enter on your province, an arrow to a province it can attack, Enter: the odds and
    the attack buttons come up and the first of them has the focus; Escape gives up the choice."""
    tid, token = spqr_table(server)
    page.goto(f"{server.url}/t/{tid}#seat={token}")
    page.wait_for_selector("#map")
    assert wait_turn(page)
    page.locator("#map .area.clickable").first.focus()
    # the whole pool with one digit, then end phases with D until the land attacks
    pool = state(server, tid, token)["view"]["pool"]
    page.keyboard.press(str(min(9, pool)))
    page.wait_for_function("() => document.body.dataset.phase !== 'reinforcements: place'")
    while page.get_attribute("body", "data-phase") != "land attacks":
        v = version(page)
        page.keyboard.press("d")
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=v)
    assert page.evaluate(FOCUS)["map"]
    page.keyboard.press("Home")  # the first of the provinces an attack can start from
    f = page.evaluate(FOCUS)
    assert f["map"], f
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    f = page.evaluate(FOCUS)
    target = f["id"]
    expect(page.locator(f"#{target}")).to_have_class(re.compile(r"\bclickable\b"))
    assert "Red (you)" not in f["label"], f  # a province it can attack: someone else's
    page.keyboard.press("Enter")
    page.wait_for_selector("#autoattack")
    expect(page.locator("#autoattack")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator("#autoattack")).to_have_count(0)


def test_map_places_named_with_owner_and_count_in_both_languages(browser: Browser, server: Server) -> None:
    """Each province and sea is a button named with its owner and its units, the drawn labels hidden (no run-on
    list of names and numbers); the names follow the language."""
    tid, token = spqr_table(server, bots="mcts:easy")
    ctx = browser.new_context(viewport={"width": 1400, "height": 900}, locale="en-US")
    page = ctx.new_page()
    page.goto(f"{server.url}/t/{tid}#seat={token}")
    page.wait_for_selector("#map")
    page.wait_for_function("() => Number(document.body.dataset.version) > 0")
    d = state(server, tid, token)
    mine = next(p for p in d["view"]["provinces"] if p["owner"] == 0)
    theirs = next(p for p in d["view"]["provinces"] if p["owner"] == 1)
    neutral = next(p for p in d["view"]["provinces"] if p["owner"] == "neutral")
    names = {
        p["id"]: page.locator(f"#a-{p['id']} title").text_content() or "" for p in (mine, theirs, neutral)
    }
    expect(page.locator("#map")).to_have_attribute("role", "group")
    expect(page.locator("#map")).to_have_attribute("aria-label", re.compile("arrow keys"))

    # the counts may change while the bots play: a name that says the count the map shows now
    def named(p: dict[str, Any], owner: str, legion: str) -> None:
        el = page.locator(f"#a-{p['id']}")
        count = int(el.get_attribute("data-armies") or 0)
        expect(el).to_have_attribute("aria-label", re.compile(
            rf"^{re.escape(names[p['id']])}, {re.escape(owner)}, {count} {legion}"))  # fmt: skip

    named(mine, "Red (you)", "legionar")
    named(theirs, "Blue (easy)", "legionar")
    named(neutral, "neutral", "legionar")
    expect(
        page.get_by_role("button", name=re.compile(rf"^{re.escape(names[mine['id']])}, Red \(you\), "))
    ).to_have_count(1)
    expect(page.locator("#a-tyrrenum")).to_have_attribute("aria-label", re.compile(r"^Tyrrenum, sea, "))
    # the drawn names and numbers are not read out as well: the map's accessible tree is its places, nothing else
    snap = page.locator("#map").aria_snapshot()
    lines = [x.strip() for x in snap.splitlines()[1:]]
    assert lines and all(x.startswith("- button ") or x.startswith("- 'button ") for x in lines), lines[:5]
    assert len(lines) == page.locator("#map .area").count()
    # Italian
    page.click("#lang")
    named(mine, "Rosso (tu)", "legionar[io]")
    named(theirs, "Blu (facile)", "legionar[io]")
    expect(page.locator("#map")).to_have_attribute("aria-label", re.compile("frecce"))
    expect(page.locator("#a-tyrrenum")).to_have_attribute("aria-label", re.compile(r"^Tyrrenum, mare, "))
    ctx.close()


def test_polis_places_named_and_the_keyboard_shows_a_places_actions(page: Page, server: Server) -> None:
    """Polis: each polis named with its owner, population and fortification, each territory with whose units
    stand there; Enter on a place shows its actions and the focus goes to the first of them. The bot's seat is
    "Sparta (easy)" (a named level by its name), not "Sparta (search (easy))"."""
    tid, token = seat_table(server, {"game": "polis", "players": 2, "seats": [{"human": True, "name": "Ada"},
                                                                             {"bot": "mcts:easy"}]})  # fmt: skip
    page.goto(f"{server.url}/t/{tid}#seat={token}")
    page.wait_for_selector("#map")
    page.wait_for_function("() => Number(document.body.dataset.version) > 0")
    expect(page.locator("#p-athinae")).to_have_attribute(
        "aria-label", re.compile(r"^Athinae, Athens \(you\), population \d+, fortification \d+"))  # fmt: skip
    expect(page.locator("#p-sparti")).to_have_attribute(
        "aria-label", re.compile(r"^Sparti, Sparta \(easy\), population \d+, fortification \d+"))  # fmt: skip
    expect(page.locator("#p-korinthos")).to_have_attribute(
        "aria-label", re.compile(r"^Korinthos, neutral, fortification \d+")
    )
    expect(page.locator("#a-attika")).to_have_attribute(
        "aria-label", re.compile(r"^Attika, Athens \(you\): \d+ hoplites?")
    )
    expect(page.locator("#players")).to_contain_text("Sparta (easy)")
    assert (
        "((" not in page.locator("#players").inner_text()
        and "))" not in page.locator("#players").inner_text()
    )
    # play to the action phase by keyboard where a place is asked for, else with the first control
    assert wait_turn(page)
    deadline = time.time() + 60
    while page.get_attribute("body", "data-phase") != "action" and time.time() < deadline:
        v = version(page)
        page.locator("#actions button.act, #actions button.count-btn").first.click()
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=v)
        assert wait_turn(page)
    page.locator("#map [role=button][aria-disabled=false]").first.focus()
    page.keyboard.press("Enter")
    f = page.evaluate(FOCUS)
    assert f["tag"] in ("BUTTON", "INPUT") and not f["map"], f  # the first of the place's actions
    expect(page.locator("#actions #here")).to_be_visible()


def test_rules_contents_are_numbered_once(page: Page, server: Server) -> None:
    """The S.P.Q.RisiKo! rules number their phases in the titles ("1. Scoring…"): the contents add no number of
    their own ("2. 1. Scoring…")."""
    page.goto(f"{server.url}/rules/spqrisiko?lang=en")
    toc = page.locator("nav.rules-nav .rules-toc")
    expect(toc.locator("li").first).to_be_visible()
    items = toc.locator("li")
    assert items.count() >= 8
    numbered = [x for x in items.all_inner_texts() if re.match(r"\d+\. ", x)]
    assert numbered, items.all_inner_texts()  # the titles carry the rules' own numbers…
    styles = page.eval_on_selector_all(
        "nav.rules-nav .rules-toc li", "ls => ls.map((l) => getComputedStyle(l).listStyleType)"
    )
    assert not any(s in ("decimal", "decimal-leading-zero") for s in styles), styles  # …and only those


def test_touch_screen_no_key_hints(browser: Browser, server: Server) -> None:
    """A phone has no keys: the "End phase" button says no "(D)" and no key line is shown; a laptop's does."""
    tid, token = spqr_table(server)
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, locale="it-IT"
    )
    phone = ctx.new_page()
    phone.goto(f"{server.url}/t/{tid}#seat={token}")
    phone.wait_for_selector("#map")
    assert wait_turn(phone)
    phone.locator("#actions [data-per=all]").click()
    phone.locator("#map .area.clickable").first.dispatch_event("click")
    phone.wait_for_selector("#done")
    expect(phone.locator("#done")).to_have_text("Termina la fase")
    expect(phone.locator("#keys")).to_have_text("")
    expect(phone.locator("#map")).to_have_attribute("aria-label", "Mappa delle province e dei mari")
    ctx.close()
    laptop = browser.new_context(viewport={"width": 1400, "height": 900}, locale="en-US")
    page = laptop.new_page()
    page.goto(f"{server.url}/t/{tid}#seat={token}")
    page.wait_for_selector("#done")
    expect(page.locator("#done")).to_have_text("End phase (D)")
    expect(page.locator("#keys")).to_contain_text("Enter")
    laptop.close()


def finished_polis(server: Server) -> str:
    r = httpx.post(f"{server.url}/api/tables", json={"game": "polis", "players": 2, "seed": 1,
                                                      "seats": [{"bot": "random"}, {"bot": "random"}]})  # fmt: skip
    tid = str(r.json()["id"])
    deadline = time.time() + 60
    while (
        time.time() < deadline and httpx.get(f"{server.url}/api/tables/{tid}").json()["status"] != "finished"
    ):
        time.sleep(0.2)
    return tid


def test_a_finished_games_score_is_the_final_score(page: Page, server: Server) -> None:
    """A finished Polis game's side panel says the final score, not "Score if the game ended now"."""
    tid = finished_polis(server)
    page.goto(f"{server.url}/t/{tid}")
    page.wait_for_selector("#gameover")
    expect(page.locator("#players .score").first).to_contain_text("Final score")
    assert "if the game ended now" not in page.locator("#players").inner_text()


def test_a_replay_says_the_round(page: Page, server: Server) -> None:
    """A replay's header says the round beside the phase, as the table's does."""
    tid = finished_polis(server)
    page.goto(f"{server.url}/r/{tid}")
    page.wait_for_selector("#replaybar")
    page.click("#rlast")
    page.wait_for_function("() => Number(document.body.dataset.step) > 3")
    expect(page.locator("#status")).to_contain_text(re.compile(r"^Round \d+\b.* · Phase: "))


def test_a_finished_spqrisiko_game_has_no_next_scoring(page: Page, server: Server) -> None:
    """S.P.Q.RisiKo!'s "Next scoring for you" is for a game that goes on: a finished game shows none."""
    tid, token = seat_table(server, {"game": "spqrisiko", "players": 3, "seed": 3,
                                     "options": {"random_deal": True, "max_rounds": 1, "vp_target": None},
                                     "seats": [{"human": True, "name": "Ada"}, {"bot": "random"}, {"bot": "random"}]})  # fmt: skip

    def choose(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        return next((a for a in legal if a["type"] in ("done", "forgo")), legal[0])

    play_rest(server, tid, token, choose, lambda d: d["status"] == "finished")
    page.goto(f"{server.url}/t/{tid}#seat={token}")
    page.wait_for_selector("#gameover")
    expect(page.locator("table.scores").first).to_be_visible()
    expect(page.locator("#preview")).to_have_count(0)


def test_the_lobby_lists_a_tables_seats_apart(page: Page, server: Server) -> None:
    """The lobby's list keeps a table's seats apart with a dot (a bot's name may have a comma of its own, "search,
    400"), each bot by its level's name."""
    tid, _ = seat_table(server, {"game": "spqrisiko", "players": 3,
                                 "seats": [{"human": True, "name": "Ada"}, {"bot": "mcts:easy"}, {"bot": "mcts:easy"}]})  # fmt: skip
    page.goto(server.url + "/")
    row = page.locator(f"#alltables tr[data-table='{tid}'] td.seatlist")
    expect(row).to_have_text("Ada · bot: easy · bot: easy")


def test_a_move_from_all_legal_actions_keeps_the_focus_off_the_page(page: Page, server: Server) -> None:
    """A move played from the "All legal actions" list (closed again by the redraw) leaves the focus on the map,
    where the next legionary is placed, not on the page."""
    tid, token = spqr_table(server)
    page.goto(f"{server.url}/t/{tid}#seat={token}")
    page.wait_for_selector("#map")
    assert wait_turn(page)
    page.locator("details.all summary").focus()
    page.keyboard.press("Enter")  # opens the list
    page.keyboard.press("Tab")
    f = page.evaluate(FOCUS)
    assert f["tag"] == "BUTTON", f
    v = version(page)
    page.keyboard.press("Enter")
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=v)
    page.wait_for_function(
        "() => document.activeElement !== document.body && document.activeElement.closest('#map')"
    )


def test_the_set_up_is_not_called_round_0(page: Page, server: Server) -> None:
    """Before the first round (choosing provinces) the header says the phase, not "Round 0"."""
    tid, token = seat_table(server, {"game": "spqrisiko", "players": 3,
                                     "seats": [{"human": True, "name": "Ada"}, {"bot": "random"}, {"bot": "random"}]})  # fmt: skip
    page.goto(f"{server.url}/t/{tid}#seat={token}")
    page.wait_for_selector("#map")
    assert wait_turn(page)
    expect(page.locator("body")).to_have_attribute("data-phase", re.compile("^setup"))
    expect(page.locator("#status")).to_contain_text("Phase: set-up")
    expect(page.locator("#status")).not_to_contain_text("Round")
