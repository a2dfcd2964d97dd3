"""Friends playing over days (issue 28 item 4) in Debian's Chromium against a real `hegemon serve`: the table chat
between two browsers (a line of markup shows as typed, nothing runs), its refusals (too long, too fast), never
shown to a spectator; the undo of one's own last action, with the friend's agreement, and refused once a die
was rolled; the "your turn" notification while the tab is hidden (never for a spectator)."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from hegemon.server.tables import UNDO_ASK_EVERY

from .conftest import DOCS, Server

pytestmark = pytest.mark.e2e

I18N = Path(__file__).resolve().parents[2] / "src" / "hegemon" / "web" / "i18n"
EN = json.loads((I18N / "en.json").read_text(encoding="utf-8"))
IT = json.loads((I18N / "it.json").read_text(encoding="utf-8"))
LAPTOP = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}
INJECTION = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> ciao **bold**'

SPY = """
window.__notes = [];
window.__hidden = false;
Object.defineProperty(document, "hidden", { configurable: true, get: () => window.__hidden });
class SpyNotification {
  constructor(title, opts) { window.__notes.push({ title, body: (opts || {}).body }); }
  close() {}
  static get permission() { return "granted"; }
  static requestPermission() { return Promise.resolve("granted"); }
}
window.Notification = SpyNotification;
"""


def context(
    browser: Browser, lang: str = "en", phone: bool = False, spy: bool = False
) -> tuple[BrowserContext, Page, list[str]]:
    ctx = browser.new_context(viewport=PHONE if phone else LAPTOP, locale="it-IT" if lang == "it" else "en-US",
                              is_mobile=phone, has_touch=phone, permissions=["notifications"])  # fmt: skip
    if spy:
        ctx.add_init_script(SPY)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return ctx, page, errors


def friends_table(
    server: Server, game: str = "polis", undo: str = "agree", n: int = 2, seed: int = 4
) -> tuple[str, list[str]]:
    """A table of `n` people, every seat taken through its link: its id and each seat's token."""
    r = httpx.post(f"{server.url}/api/tables", json={
        "game": game, "seed": seed, "claim": 0, "undo": undo,
        "seats": [{"human": True, "name": "Ada"}] + [{"human": True} for _ in range(n - 1)]})  # fmt: skip
    assert r.status_code == 201, r.text
    res = r.json()
    tokens = [res["seats"][0]["token"]]
    for i, name in zip(range(1, n), ("Bea", "Cy", "Dan"), strict=False):
        t = httpx.post(
            f"{server.url}/api/tables/{res['id']}/seat",
            json={"token": res["seats"][i]["token"], "name": name},
        )
        tokens.append(t.json()["token"])
    return res["id"], tokens


def open_seat(page: Page, server: Server, tid: str, token: str | None) -> None:
    page.goto(f"{server.url}/t/{tid}" + (f"#seat={token}" if token else ""))
    page.wait_for_function("() => document.body.dataset.status === 'playing'")


def detail(server: Server, tid: str, token: str) -> dict[str, Any]:
    return dict(httpx.get(f"{server.url}/api/tables/{tid}", params={"token": token}).json())


def act(server: Server, tid: str, token: str, pick: Any = None) -> int:
    d = detail(server, tid, token)
    legal = d["view"]["legal_actions"]
    assert legal, d["status"]
    keep = [a for a in legal if a.get("type") not in ("release_polis", "civil_war")] or legal
    a = pick(keep) if pick is not None else keep[0]
    r = httpx.post(
        f"{server.url}/api/tables/{tid}/actions", json={"token": token, "version": d["version"], "action": a}
    )
    assert r.status_code == 200, r.text
    return int(r.json()["version"])


def current(server: Server, tid: str) -> int:
    return int(httpx.get(f"{server.url}/api/tables/{tid}").json()["view"]["current_player"])


def chat(page: Page, text: str) -> None:
    page.fill("#chatinput", text)
    page.press("#chatinput", "Enter")


def test_chat_between_two_friends_shows_markup_as_text_and_no_spectator_reads_it(
    browser: Browser, server: Server
) -> None:
    tid, tokens = friends_table(server)
    ca, pa, errs_a = context(browser)
    cb, pb, errs_b = context(browser, "it", phone=True)
    cs, ps, errs_s = context(browser)
    open_seat(pa, server, tid, tokens[0])
    open_seat(pb, server, tid, tokens[1])
    open_seat(ps, server, tid, None)
    expect(pa.locator("#chat")).to_be_visible()
    expect(ps.locator("#chat")).to_be_hidden()  # a spectator has no chat
    chat(pa, INJECTION)
    # the friend, on a phone in Italian: the folded chat says there is a new line
    expect(pb.locator("#chatsummary")).to_contain_text(IT["chat.title"])
    expect(pb.locator("#chatsummary")).to_contain_text("1 nuovo")
    pb.click("#chatsummary")
    line = pb.locator("#chatlog li .chattext").last
    expect(line).to_have_text(INJECTION)
    assert pb.locator("#chatlog img, #chatlog script").count() == 0
    assert pb.evaluate("window.__pwned") is None and pa.evaluate("window.__pwned") is None
    chat(pb, "Va bene, tocca a te")
    expect(pa.locator("#chatlog li .chattext").last).to_have_text("Va bene, tocca a te")
    pa.locator("#chat").scroll_into_view_if_needed()
    pa.screenshot(path=str(DOCS / "social-chat-en.png"))
    pb.screenshot(path=str(DOCS / "social-chat-phone-it.png"))
    # too long (past the input's own limit, as a hostile page could send it): refused, with the limit in words
    pa.evaluate("(n) => { document.getElementById('chatinput').value = 'x'.repeat(n); }", 301)
    pa.press("#chatinput", "Enter")
    expect(pa.locator("#chaterror")).to_have_text(EN["err.chat_too_long"].replace("{max}", "300"))
    # too fast: more than 5 lines at once (typed as fast as a script can): the rest refused, in words
    pa.evaluate("""() => {
        const input = document.getElementById("chatinput");
        const form = document.getElementById("chatform");
        for (let i = 0; i < 7; i++) { input.value = `line ${i}`; form.requestSubmit(); }
    }""")
    expect(pa.locator("#chaterror")).to_contain_text("Too many messages")
    expect(pa.locator("#chaterror")).to_be_visible()
    time.sleep(0.5)
    sent = [x for x in pb.locator("#chatlog li .chattext").all_inner_texts() if x.startswith("line ")]
    assert 1 <= len(sent) <= 5 and "line 6" not in sent, sent
    # the spectator never received any of it
    assert INJECTION not in ps.content() and "line 0" not in ps.content()
    assert ps.locator("#chatlog li").count() == 0
    # the history comes back with the page
    pb.reload()
    pb.wait_for_function("() => document.body.dataset.status === 'playing'")
    pb.click("#chatsummary")
    expect(pb.locator("#chatlog li .chattext").first).to_have_text(INJECTION)
    for c in (ca, cb, cs):
        c.close()
    assert not errs_a and not errs_b and not errs_s, (errs_a, errs_b, errs_s)


def test_undo_with_the_friends_agreement_then_refused_after_a_die_roll(
    browser: Browser, server: Server
) -> None:
    tid, tokens = friends_table(server, undo="agree")
    ca, pa, errs_a = context(browser)
    cb, pb, errs_b = context(browser, "it", phone=True)
    open_seat(pa, server, tid, tokens[0])
    open_seat(pb, server, tid, tokens[1])
    mover = current(server, tid)
    page, other = (pa, pb) if mover == 0 else (pb, pa)
    before = int(page.get_attribute("body", "data-version") or 0)
    v = act(server, tid, tokens[mover])
    page.wait_for_function(f"() => Number(document.body.dataset.version) === {v}")
    page.click("#undobtn")
    expect(page.locator("#undostatus")).to_be_visible()
    expect(other.locator("#undoagree")).to_be_visible()
    pa.screenshot(path=str(DOCS / "social-undo-en.png"))  # asking or asked, whichever seat moved first
    pb.screenshot(path=str(DOCS / "social-undo-phone-it.png"))
    other.click("#undoagree")
    for p in (pa, pb):
        p.wait_for_function(f"() => Number(document.body.dataset.version) === {before}")
    assert detail(server, tid, tokens[0])["version"] == before
    # refused by the friend: nothing changes (a seat asks at most once every UNDO_ASK_EVERY seconds)
    time.sleep(UNDO_ASK_EVERY)
    v = act(server, tid, tokens[mover])
    page.wait_for_function(f"() => Number(document.body.dataset.version) === {v}")
    page.click("#undobtn")
    other.click("#undorefuse")
    words = (EN if page is pa else IT)["undo.refused"].replace("{who}", "")
    expect(page.locator("#undonote")).to_contain_text(words)
    expect(page.locator("#undonote")).to_contain_text("Bea" if mover == 0 else "Ada")
    assert detail(server, tid, tokens[0])["version"] == v
    for c in (ca, cb):
        c.close()
    assert not errs_a and not errs_b, (errs_a, errs_b)


def test_undo_is_refused_once_a_die_was_rolled(browser: Browser, server: Server) -> None:
    """S.P.Q.RisiKo!, three friends, undo always allowed: an attack is followed by the dice; the attacker's undo
    is refused with the reason in words."""
    tid, tokens = friends_table(server, game="spqrisiko", undo="always", n=3, seed=2)
    ca, pa, errs = context(browser)
    open_seat(pa, server, tid, tokens[0])
    rng = random.Random(3)
    attack = lambda legal: next((a for a in legal if a.get("type") == "attack"), rng.choice(legal))  # noqa: E731
    deadline = time.time() + 240
    while time.time() < deadline:
        seat = current(server, tid)
        assert seat >= 0
        v = act(server, tid, tokens[seat], attack)
        if seat != 0:
            continue
        pa.wait_for_function(f"() => Number(document.body.dataset.version) >= {v}")
        last = pa.locator("#log li").last
        if "chance" in (last.get_attribute("class") or "") and pa.locator("#undobtn").count():
            break
    else:
        raise AssertionError("no attack followed by a roll")
    pa.click("#undobtn")
    expect(pa.locator("#undonote")).to_have_text(EN["err.undo_chance"])
    assert detail(server, tid, tokens[0])["version"] == v
    pa.screenshot(path=str(DOCS / "social-undo-refused-en.png"))
    ca.close()
    assert not errs, errs


def test_your_turn_notifies_a_hidden_tab_after_the_bell_is_clicked_never_a_spectator(
    browser: Browser, server: Server
) -> None:
    tid, tokens = friends_table(server, undo="off")
    first = current(server, tid)
    me = 1 - first  # the seat whose turn comes next
    ca, pa, errs_a = context(browser, spy=True)
    cs, ps, errs_s = context(browser, spy=True)
    open_seat(pa, server, tid, tokens[me])
    open_seat(ps, server, tid, None)
    expect(ps.locator("#bell")).to_be_hidden()
    pa.click("#bell")
    expect(pa.locator("#bell")).to_have_attribute("aria-pressed", "true")
    assert pa.evaluate("localStorage.getItem('hegemon.notify')") == "1"
    for p in (pa, ps):
        p.evaluate("window.__hidden = true")
    while current(server, tid) == first:
        v = act(server, tid, tokens[first])
    pa.wait_for_function(
        f"() => Number(document.body.dataset.version) >= {v} && document.body.dataset.myturn === '1'"
    )
    pa.wait_for_function("() => window.__notes.length === 1")
    note = pa.evaluate("window.__notes[0]")
    assert note["title"].startswith("Your turn") and note["body"] == EN["notify.body"]
    ps.wait_for_function(f"() => Number(document.body.dataset.version) >= {v}")
    assert ps.evaluate("window.__notes.length") == 0
    # a visible tab is not notified; the sound stays off by default
    assert pa.evaluate("localStorage.getItem('hegemon.sound')") is None
    for c in (ca, cs):
        c.close()
    assert not errs_a and not errs_s, (errs_a, errs_s)


def test_the_lobby_offers_the_undo_setting_and_keeps_it(browser: Browser, server: Server) -> None:
    ctx, page, errors = context(browser, "it")
    page.goto(server.url + "/")
    page.wait_for_selector("#createbtn")
    expect(page.locator("#undo")).to_have_value("agree")  # friends' default
    expect(page.locator("#undohelp")).to_have_text(IT["lobby.undohelp"])
    page.select_option("#undo", "always")
    page.fill("#players", "4")
    page.dispatch_event("#players", "change")
    expect(page.locator("#undo")).to_have_value("always")  # kept across a change of players
    page.click("#createbtn")
    page.wait_for_selector("#go")
    tid = page.get_attribute("#links", "data-table")
    page.click("#go")
    page.wait_for_function("() => document.body.dataset.status === 'playing'")
    assert page.evaluate(f"localStorage.getItem('hegemon.seat.{tid}')")  # the creator is seated
    ws_state = page.evaluate(
        """(id) => new Promise((ok) => {
            const ws = new WebSocket(`ws://${location.host}/ws/tables/${id}`);
            ws.onmessage = (e) => { const m = JSON.parse(e.data); if (m.type === 'state') { ws.close(); ok(m.undo); } };
        })""",
        tid,
    )
    assert ws_state == "always"
    ctx.close()
    assert not errors, errors
