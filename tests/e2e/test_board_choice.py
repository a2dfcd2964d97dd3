"""End-to-end: the lobby's "Board" choice for Polis (the reconstructed board, the balanced board, or a corrected
file) in Debian's Chromium against a real `hegemon serve`: a balanced table is created from the lobby and names its
board at the table (header, rules drawer) and in the lobby's list; the default bot seat is the easy search bot; the
form in Italian on a phone fits the screen; S.P.Q.RisiKo! (one board) offers only the upload."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from hegemon.games.polis.board import SHIPPED_BOARDS

from .conftest import DOCS, Server

pytestmark = pytest.mark.e2e

I18N = Path(__file__).resolve().parents[2] / "src" / "hegemon" / "web" / "i18n"
EN = json.loads((I18N / "en.json").read_text(encoding="utf-8"))
IT = json.loads((I18N / "it.json").read_text(encoding="utf-8"))


def polis_form(page: Page, server: Server) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#createbtn")
    page.select_option("#game", "polis")
    page.wait_for_selector("#boardchoice")


def test_a_balanced_polis_table_from_the_lobby_names_its_board(page: Page, server: Server) -> None:
    polis_form(page, server)
    expect(page.locator("#boardchoice legend")).to_have_text(EN["lobby.boardchoice"])
    expect(page.locator("#boardchoice input[type=radio]")).to_have_count(3)
    expect(
        page.locator("#board-balanced")
    ).to_be_checked()  # a newcomer gets the board where both sides can win
    expect(page.locator("label[for=board-balanced]")).to_contain_text(EN["lobby.recommended"])
    expect(page.locator("#boardchoice")).to_contain_text(EN["boardhelp.polis.balanced"])
    expect(page.locator("#boardchoice #boardfile")).to_have_count(1)  # the upload is the third choice
    expect(page.locator("#seat-1")).to_have_value("bot:mcts:easy")  # a real opponent by default
    assert page.locator("#seat-1 option[value='bot:random']").count() == 1  # the random bot stays on the list
    page.click("label[for=board-default]")
    page.click("label[for=board-balanced]")
    expect(page.locator("#board-balanced")).to_be_checked()
    page.screenshot(path=str(DOCS / "screenshot-lobby-board.png"), full_page=True)
    page.click("#createbtn")
    page.wait_for_selector("#go")
    tid = page.get_attribute("#links", "data-table")
    detail = httpx.get(f"{server.url}/api/tables/{tid}").json()
    assert detail["options"]["board"] == "balanced" and detail["board"] == "balanced"
    assert [s.get("bot") for s in detail["seats"]] == [None, "mcts:easy"]
    # the lobby's list says which board the table plays on
    row = page.locator(f"tr[data-table='{tid}']").first
    expect(row.locator("small.boardtag")).to_have_text(EN["board.polis.balanced"])
    page.click("#go")
    page.wait_for_selector("#map")
    expect(page.locator("#boardname")).to_have_text(
        EN["table.board"].replace("{name}", EN["board.polis.balanced"])
    )
    expect(page.locator("#boardname")).to_be_visible()
    assert page.get_attribute("body", "data-board") == "balanced"
    page.click("#rulesbtn")
    box = page.locator("#thistable .rules-board")
    expect(box).to_contain_text(EN["board.polis.balanced"])
    expect(box).to_contain_text(EN["boardhelp.polis.balanced"])
    page.screenshot(path=str(DOCS / "screenshot-polis-balanced-table.png"))
    # the replay viewer names it too
    page.goto(f"{server.url}/r/{tid}")
    page.wait_for_selector("#replaystep")
    expect(page.locator("#boardname")).to_have_text(
        EN["table.board"].replace("{name}", EN["board.polis.balanced"])
    )


def test_a_default_polis_table_says_it_plays_the_reconstructed_board(page: Page, server: Server) -> None:
    polis_form(page, server)
    page.click("label[for=board-default]")
    page.click("#createbtn")
    page.wait_for_selector("#go")
    tid = page.get_attribute("#links", "data-table")
    assert httpx.get(f"{server.url}/api/tables/{tid}").json()["board"] == "default"
    expect(page.locator(f"tr[data-table='{tid}'] small.boardtag").first).to_have_text(
        EN["board.polis.default"]
    )
    page.click("#go")
    page.wait_for_selector("#map")
    expect(page.locator("#boardname")).to_have_text(
        EN["table.board"].replace("{name}", EN["board.polis.default"])
    )


@pytest.mark.parametrize("width, height, name", [(1280, 860, "laptop"), (390, 844, "phone")])
def test_the_board_choice_in_italian_on_a_laptop_and_a_phone(
    browser: Browser, server: Server, width: int, height: int, name: str
) -> None:
    phone = width < 500
    ctx = browser.new_context(
        locale="it-IT", viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone
    )
    p = ctx.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    polis_form(p, server)
    expect(p.locator("#boardchoice legend")).to_have_text(IT["lobby.boardchoice"])
    expect(p.locator("label[for=board-balanced]")).to_contain_text(IT["board.polis.balanced"])
    expect(p.locator("label[for=board-balanced]")).to_contain_text(IT["boardhelp.polis.balanced"])
    expect(p.locator("label[for=board-default]")).to_contain_text(IT["board.polis.default"])
    expect(p.locator("#moreoptions summary")).to_have_text(IT["lobby.options_noboard"])
    assert p.evaluate("document.documentElement.scrollWidth") <= width + 2
    for sel in ("#boardchoice", "#boardfile", "label[for=board-balanced]"):
        box = p.locator(sel).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, (sel, box)
    p.locator("#boardchoice").screenshot(path=str(DOCS / f"screenshot-lobby-board-it-{name}.png"))
    p.screenshot(path=str(DOCS / f"screenshot-lobby-it-{name}.png"), full_page=True)
    # the upload chosen without a file: said in Italian, and nothing is created
    before = len(httpx.get(f"{server.url}/api/tables").json())
    p.click("label[for=board-upload]")
    p.click("#createbtn")
    expect(p.locator("#createerror")).to_contain_text(IT["err.board_data"])
    assert len(httpx.get(f"{server.url}/api/tables").json()) == before
    # the file picker speaks the page's language; choosing a file picks the upload and shows the file's name
    p.click("label[for=board-default]")
    expect(p.locator("#boardfilebtn")).to_have_text(IT["lobby.choosefile"])
    expect(p.locator("#boardfilename")).to_have_text(IT["lobby.nofile"])
    text = SHIPPED_BOARDS["default"].read_text(encoding="utf-8").replace("value = 45", "value = 44", 1)
    p.set_input_files(
        "#boardfile", files=[{"name": "my-board.toml", "mimeType": "text/plain", "buffer": text.encode()}]
    )
    expect(p.locator("#board-upload")).to_be_checked()
    expect(p.locator("#boardfilename")).to_have_text("my-board.toml")
    # a language switch keeps the choice and the file
    p.click("#lang")
    expect(p.locator("#board-upload")).to_be_checked()
    expect(p.locator("#boardchoice legend")).to_have_text(EN["lobby.boardchoice"])
    expect(p.locator("#boardfilebtn")).to_have_text(EN["lobby.choosefile"])
    expect(p.locator("#boardfilename")).to_have_text("my-board.toml")
    p.click("#createbtn")
    p.wait_for_selector("#go")
    tid = p.get_attribute("#links", "data-table")
    detail = httpx.get(f"{server.url}/api/tables/{tid}").json()
    assert detail["board"] == "uploaded" and detail["options"]["board"].endswith(".toml")
    expect(p.locator(f"tr[data-table='{tid}'] small.boardtag").first).to_have_text(EN["board.uploaded"])
    ctx.close()
    assert not errors, errors


def test_spqrisiko_has_one_board_and_offers_only_the_upload(page: Page, server: Server) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#createbtn")
    page.select_option("#game", "spqrisiko")
    expect(page.locator("#boardchoice")).to_have_count(0)
    expect(page.locator("#moreoptions #boardfile")).to_have_count(1)
    expect(page.locator("#moreoptions summary")).to_have_text(EN["lobby.options"])
    expect(page.locator("#seat-1")).to_have_value("bot:mcts:easy")
    expect(page.locator("#seat-2")).to_have_value("bot:mcts:easy")


def test_an_unknown_board_name_is_refused_in_the_players_language(browser: Browser, server: Server) -> None:
    """The refusal a client meets when it names a board the game does not ship (the lobby never sends one, an
    old page or another client may): the server's case, said by the page's dictionaries."""
    ctx = browser.new_context(locale="it-IT")
    p = ctx.new_page()
    p.goto(server.url + "/")
    p.wait_for_selector("#createbtn")
    said = p.evaluate("""async () => {
        // the page's own copy of the module (this version's address, assets.py): its language is the page's
        const { api } = await import(new URL('common.js', document.querySelector('script[type=module]').src));
        try { await api('/api/tables', { method: 'POST', body: { game: 'polis', options: { board: '../board.toml' } } }); }
        catch (e) { return e.message; }
        return 'created';
    }""")
    assert said == IT["err.board_unknown"].replace("{name}", "../board.toml").replace(
        "{boards}", "default, balanced"
    )
    ctx.close()
