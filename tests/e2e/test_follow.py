"""End-to-end: every turn can be followed (issue 28 item 1). After the bots have played, the "since your turn"
panel says, turn by turn and in words, what each one did and changed (conquests, losses, VP scored and from what;
Polis captures, losses and prestige) and every roll of a battle can be shown again; the log says it too. A siege
under Diceless Sacrifice reads in words, in its side's colour (issue 28 item 3)."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import DOCS, Server

pytestmark = pytest.mark.e2e


def new_table(server: Server, body: dict[str, Any]) -> tuple[str, str]:
    r = httpx.post(f"{server.url}/api/tables", json={**body, "claim": 0}, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["seats"][0]["token"]


def since_lines(server: Server, tid: str, token: str) -> tuple[int, list[dict[str, Any]]]:
    """The table's version and the log lines since seat 0 last chose a move itself, as the seat receives them."""
    d = httpx.get(f"{server.url}/api/tables/{tid}", params={"token": token}).json()
    r = httpx.get(
        f"{server.url}/api/tables/{tid}/replay", params={"token": token, "step": d["version"], "log": 1000}
    )
    lines = r.json()["log"]
    mine = [k for k, ln in enumerate(lines) if ln["actor"] == 0 and not ln["note"]]
    return d["version"], lines[mine[-1] + 1 :] if mine else lines


def segments(lines: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The lines cut into turns as the panel cuts them: a chance line belongs to the turn it happens in."""
    out: list[list[dict[str, Any]]] = []
    for ln in lines:
        if out and (ln["actor"] < 0 or ln["actor"] == out[-1][0]["actor"]):
            out[-1].append(ln)
        else:
            out.append([ln])
    return out


def turn_news(segs: list[list[dict[str, Any]]]) -> list[list[dict[str, Any]]]:
    """Each turn's changes, VP said in the turn of the player who scored them when it follows (scored as a turn
    begins, on the last line of the turn before)."""
    out = [[c for ln in seg for c in ln.get("changes", [])] for seg in segs]
    for k in range(len(segs) - 1):
        nxt = segs[k + 1][0]["actor"]
        move = [c for c in out[k] if c["k"] == "vp" and c["who"] == nxt and segs[k][0]["actor"] != nxt]
        out[k] = [c for c in out[k] if c not in move]
        out[k + 1] = move + out[k + 1]
    return out


def play_until(
    server: Server, tid: str, token: str, choose: Any, until: Any, limit: float = 60
) -> dict[str, Any]:
    """Play seat 0 through the REST API (the bots play the others) until `until(detail)` on its turn."""
    deadline = time.time() + limit
    while time.time() < deadline:
        d = httpx.get(f"{server.url}/api/tables/{tid}", params={"token": token}).json()
        legal = d["view"].get("legal_actions") or []
        if d["status"] != "playing":
            raise AssertionError(f"the game ended first ({d['status']})")
        if not legal:
            time.sleep(0.05)
            continue
        if until(d):
            return d
        httpx.post(f"{server.url}/api/tables/{tid}/actions",
                   json={"token": token, "version": d["version"], "action": choose(d["view"], legal)})  # fmt: skip
    raise AssertionError("the position was not reached")


def open_seat(browser: Browser, server: Server, tid: str, token: str, lang: str, phone: bool = False,
              wait: str = "#since li.turn") -> Page:  # fmt: skip
    if phone:
        ctx = browser.new_context(
            viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="it-IT"
        )
    else:
        ctx = browser.new_context(viewport={"width": 1400, "height": 900}, locale="en-US")
    ctx.add_init_script(f"localStorage.setItem('hegemon.lang', '{lang}')")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/t/{tid}#seat={token}")
    page.wait_for_selector(wait)
    page.errors = errors  # type: ignore[attr-defined]  # the test keeps the page's errors on it
    return page


def spqr_choose(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    done = [a for a in legal if a["type"] == "done"]
    return done[0] if done else legal[0]


def test_spqr_bots_round_leaves_a_complete_summary_with_vp_and_every_roll(
    browser: Browser, server: Server
) -> None:
    def scored(d: dict[str, Any]) -> bool:
        if d["view"]["round"] < 2:
            return False
        _, lines = since_lines(server, tid, token)
        kinds = {c["k"] for ln in lines for c in ln.get("changes", [])}
        rolls = [ln for ln in lines if ln["action"]["type"] == "roll"]
        return "vp" in kinds and len(rolls) >= 2

    for attempt in range(6):
        tid, token = new_table(server, {"game": "spqrisiko", "players": 4, "seed": 40 + attempt,
                                        "seats": [{"human": True, "name": "Ada"}] + [{"bot": "random"}] * 3})  # fmt: skip
        try:
            play_until(server, tid, token, spqr_choose, scored)
            break
        except AssertionError:
            continue
    else:
        raise AssertionError("no bots' round scored VP and rolled twice")
    version, lines = since_lines(server, tid, token)
    page = open_seat(browser, server, tid, token, "en")
    page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=version)
    panel = page.locator("#since")
    expect(panel.locator("#sincetitle")).to_have_text("Since your turn")
    segs = segments(lines)
    turns = panel.locator("li.turn")
    expect(turns).to_have_count(len(segs))
    for seg, changes in zip(segs, turn_news(segs), strict=True):
        turn = panel.locator(f"li.turn[data-from='{seg[0]['i']}']")
        # every VP scored in the turn, by player, with its total
        vp: dict[int, int] = {}
        for c in changes:
            if c["k"] == "vp":
                vp[c["who"]] = vp.get(c["who"], 0) + c["n"]
        news = turn.locator("ul.news li[data-k=vp]")
        expect(news).to_have_count(len(vp))
        for k, n in enumerate(vp.values()):
            expect(news.nth(k)).to_contain_text(f"scores {n} VP")
        # every conquest, with the place, and the losses
        conquests = [c for c in changes if c["k"] == "conquest"]
        expect(turn.locator("ul.news li[data-k=conquest]")).to_have_count(len(conquests))
        if any(c["k"] == "lost" for c in changes):
            expect(turn.locator("ul.news li[data-k=lost]").first).to_contain_text("loses")
    # every roll is there, each can be shown again in the dice tray (not only the last)
    rolls = [ln for ln in lines if ln["action"]["type"] == "roll"]
    buttons = panel.locator("button.replaydice")
    expect(buttons).to_have_count(len(rolls))
    first = rolls[0]["action"]
    for d in panel.locator("details.movelist").all():
        d.evaluate("d => { d.open = true; }")
    buttons.first.click()
    att = page.locator("#dicetray svg.die.att")
    expect(att).to_have_count(len(first["attacker"]))
    assert [int(x.get_attribute("data-value") or 0) for x in att.all()] == first["attacker"]
    expect(page.locator("#dicetray")).to_contain_text("Losses: attacker")
    # the log says it too
    if any(c["k"] == "vp" for ln in lines for c in ln.get("changes", [])):
        expect(page.locator("#log")).to_contain_text("VP (")
    for d in panel.locator("details.movelist").all():  # the turns' summaries, as a player first sees them
        d.evaluate("d => { d.open = false; }")
    page.evaluate("document.getElementById('sincelist').scrollTop = 0")
    page.screenshot(path=str(DOCS / "follow-spqr-since-en.png"))
    assert not page.errors  # type: ignore[attr-defined]  # set by the test's page fixture
    page.context.close()
    # a phone, in Italian: the same turns, in words
    phone = open_seat(browser, server, tid, token, "it", phone=True)
    expect(phone.locator("#sincetitle")).to_have_text("Dal tuo turno")
    expect(phone.locator("#since li.turn")).to_have_count(len(segs))
    expect(phone.locator("#since ul.news li[data-k=vp]").first).to_contain_text("PV")
    phone.locator("#sheethandle").tap()
    phone.locator("#since").scroll_into_view_if_needed()
    phone.wait_for_timeout(300)
    phone.screenshot(path=str(DOCS / "follow-spqr-since-phone-it.png"))
    assert not phone.errors  # type: ignore[attr-defined]  # set by the test's page fixture
    phone.context.close()


def polis_choose(rng: random.Random) -> Any:
    """Besiege whenever possible (and stop forcing, so the markers stay on the map), else any move but passing."""

    def choose(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        for ty in ("start_siege", "continue_siege", "stop_forcing"):
            for a in legal:
                if a["type"] == ty:
                    return a
        other = [a for a in legal if a["type"] != "pass"]
        return rng.choice(other or legal)

    return choose


@pytest.mark.parametrize("lang", ["en", "it"])
def test_polis_captures_losses_and_a_diceless_sacrifice_siege_in_words(
    browser: Browser, server: Server, lang: str
) -> None:
    def news(d: dict[str, Any]) -> bool:
        _, lines = since_lines(server, tid, token)
        return any(c["k"] in ("polis", "lost") for ln in lines for c in ln.get("changes", []))

    def siege(d: dict[str, Any]) -> bool:
        return any(p["siege_discs"] for p in d["view"]["poleis"])

    for attempt in range(12):
        tid, token = new_table(server, {"game": "polis", "seed": 60 + attempt, "options": {"siege": "diceless_sacrifice"},
                                        "seats": [{"human": True, "name": "Ada"}, {"bot": "random"}]})  # fmt: skip
        try:
            play_until(server, tid, token, polis_choose(random.Random(attempt)), news, limit=30)
            break
        except AssertionError:
            continue
    else:
        raise AssertionError("the bot never took a polis nor lost a unit")
    version, lines = since_lines(server, tid, token)
    page = open_seat(browser, server, tid, token, lang)
    page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=version)
    panel = page.locator("#since")
    names = {"athens": "Athens", "sparta": "Sparta", "neutral": "neutral"}
    if lang == "it":
        names = {"athens": "Atene", "sparta": "Sparta", "neutral": "neutrale"}
    changes = [c for ln in lines for c in ln.get("changes", [])]
    for c in changes:
        if c["k"] == "polis":
            expect(panel.locator("ul.news li[data-k=polis]", has_text=names[c["to"]]).first).to_be_visible()
        if c["k"] == "lost":
            unit = {
                "hoplite": "oplit" if lang == "it" else "hoplite",
                "galley": "gale" if lang == "it" else "galley",
            }
            expect(panel.locator("ul.news li[data-k=lost]", has_text=unit[c["unit"]]).first).to_be_visible()
    page.screenshot(path=str(DOCS / f"follow-polis-since-{lang}.png"))
    # play on until a siege is under way (a new table if this game ends first: the bot's moves are random): its
    # progress in words, in its side's colour, on the map and in the panel
    for attempt in range(12):
        try:
            d = play_until(server, tid, token, polis_choose(random.Random(attempt)), siege, limit=30)
            break
        except AssertionError:
            tid, token = new_table(server, {"game": "polis", "seed": 80 + attempt,
                                            "options": {"siege": "diceless_sacrifice"},
                                            "seats": [{"human": True, "name": "Ada"}, {"bot": "random"}]})  # fmt: skip
    else:
        raise AssertionError("no siege was started")
    if tid not in page.url:
        page.context.close()
        page = open_seat(browser, server, tid, token, lang, wait="#sieges li")
    page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=d["version"])
    p = next(p for p in d["view"]["poleis"] if p["siege_discs"])
    side, n = next(iter(p["siege_discs"].items()))
    line = page.locator(f"#sieges li[data-polis='{p['id']}'][data-side='{side}']")
    name = page.evaluate("id => document.querySelector(`#p-${id} .pname`).textContent", p["id"])
    if lang == "en":
        expect(line).to_have_text(f"siege of {name} by {names[side]}: {n} of {p['fortification']} markers; "
                                  "forcing costs 1 prestige + 1 hoplite per marker")  # fmt: skip
    else:
        expect(line).to_have_text(f"assedio di {name} da parte di {names[side]}: {n} su {p['fortification']} segnalini; "
                                  "forzare costa 1 prestigio + 1 oplita per segnalino")  # fmt: skip
    colour = {"athens": "#0072b2", "sparta": "#d55e00"}[side]
    assert line.evaluate("li => li.querySelector('i.dot').style.background") in (colour, _rgb(colour))
    marker = page.locator(f"#p-{p['id']} .discs tspan[data-side='{side}']")
    expect(marker).to_have_text(f"{n}/{p['fortification']}")
    assert marker.get_attribute("fill") == colour
    expect(page.locator(f"#p-{p['id']} > title")).to_contain_text(
        f"{n} {'of' if lang == 'en' else 'su'} {p['fortification']}"
    )
    # and the log says each marker placed
    expect(page.locator("#log")).to_contain_text(f"{name}")
    page.locator("#sieges").scroll_into_view_if_needed()
    page.screenshot(path=str(DOCS / f"follow-polis-siege-{lang}.png"))
    assert not page.errors  # type: ignore[attr-defined]  # set by the test's page fixture
    page.context.close()


def _rgb(hex_colour: str) -> str:
    r, g, b = (int(hex_colour[k : k + 2], 16) for k in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"
