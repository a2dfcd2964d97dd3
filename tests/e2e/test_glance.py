"""End-to-end: the table reads at a glance for everyone (issue 28 items 3, 5, 7, 8). Every button's text keeps a
contrast of at least 4.5:1 with what is drawn behind it (WCAG 2 AA, computed from the rendered colours), on the
lobby and at both games' tables."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import DOCS, Server
from .test_browser import create_table, polis_to_action_phase, wait_turn

pytestmark = pytest.mark.e2e

# every visible, enabled button: its text colour against the first opaque background behind it (translucent
# layers blended in), as WCAG 2 computes the contrast ratio of relative luminances
CONTRAST = """
(sel) => {
  const rgba = (s) => { const m = s.match(/[\\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
  const over = (top, under) => { const a = top[3]; return [0, 1, 2].map((k) => top[k] * a + under[k] * (1 - a)).concat([1]); };
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const behind = (el) => {
    const layers = [];
    for (let n = el; n; n = n.parentElement) {
      const c = rgba(getComputedStyle(n).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    let bg = [255, 255, 255, 1];
    for (const c of layers.reverse()) bg = over(c, bg);
    return bg;
  };
  const out = [];
  for (const b of document.querySelectorAll(sel)) {
    if (b.disabled || !b.getClientRects().length || getComputedStyle(b).visibility === "hidden") continue;
    const bg = behind(b);
    const fg = over(rgba(getComputedStyle(b).color), bg);
    const [l1, l2] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    out.push({ text: (b.textContent || b.getAttribute("aria-label") || b.className).trim().slice(0, 50),
               cls: b.className, ratio: (l1 + 0.05) / (l2 + 0.05) });
  }
  return out;
}
"""

# the classes a table's action button can take: a button that gives up a polis or ends the game is `warn`
VARIANTS = """
() => {
  const b = document.querySelector("#actions button.act") || document.querySelector("#actions button");
  for (const cls of ["act warn", "act primary warn", "act primary", "act on"]) {
    const c = b.cloneNode(true); c.className = cls; c.dataset.variant = "1"; b.parentElement.append(c);
  }
}
"""


def low_contrast(page: Page) -> list[dict[str, object]]:
    found = page.evaluate(CONTRAST, "button, a.button, label.button")
    assert len(found) >= 3, found
    return [b for b in found if float(b["ratio"]) < 4.5]  # type: ignore[arg-type]


@pytest.mark.parametrize("game", ["polis", "spqrisiko"])
def test_every_button_has_a_contrast_of_at_least_4_5(page: Page, server: Server, game: str) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#createbtn")
    page.eval_on_selector_all("details", "ds => ds.forEach((d) => { d.open = true; })")
    assert low_contrast(page) == []
    create_table(page, server, game)
    assert low_contrast(page) == []  # the card of the table just created
    page.click("#go")
    page.wait_for_selector("#map")
    assert wait_turn(page)
    if game == "polis":
        polis_to_action_phase(page)
    page.eval_on_selector_all("details", "ds => ds.forEach((d) => { d.open = true; })")
    page.evaluate(VARIANTS)
    assert page.locator("button[data-variant]").count() == 4
    assert low_contrast(page) == []
    page.screenshot(path=str(DOCS / f"glance-contrast-{game}.png"))


# every visible control a person taps: its height and its text size
TARGETS = """
(sel) => [...document.querySelectorAll(sel)].filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== "hidden")
  .map((e) => ({ what: (e.id || e.className || e.tagName) + ": " + (e.textContent || e.value || "").trim().slice(0, 30),
                 h: e.getBoundingClientRect().height, font: parseFloat(getComputedStyle(e).fontSize) }))
"""
CONTROLS = ("button:not(.replaydice), a.button, label.button, select, input[type=text], input[type=number], "
            "input[type=url], textarea")  # fmt: skip


def small_targets(page: Page, within: str) -> list[dict[str, object]]:
    found = page.evaluate(TARGETS, ", ".join(f"{within} {c.strip()}" for c in CONTROLS.split(",")))
    assert found, within
    return [c for c in found if float(c["h"]) < 43.5 or float(c["font"]) < 16]  # type: ignore[arg-type]


def phone(browser: Browser, lang: str) -> Page:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                              locale="it-IT" if lang == "it" else "en-US")  # fmt: skip
    ctx.add_init_script(f"localStorage.setItem('hegemon.lang', '{lang}')")
    return ctx.new_page()


@pytest.mark.parametrize("game", ["polis", "spqrisiko"])
def test_phone_controls_44px_16px_say_tap(browser: Browser, server: Server, game: str) -> None:
    lang = "it" if game == "polis" else "en"
    page = phone(browser, lang)
    assert page.evaluate("matchMedia('(hover: none) and (pointer: coarse)').matches")
    page.goto(server.url + "/")
    page.wait_for_selector("#createbtn")
    page.select_option("#game", game)
    page.eval_on_selector_all("details", "ds => ds.forEach((d) => { d.open = true; })")
    assert small_targets(page, "#lobby") == []
    page.screenshot(path=str(DOCS / f"glance-phone-lobby-{lang}.png"), full_page=True)
    page.click("#createbtn")
    page.wait_for_selector("#go")
    page.click("#go")
    page.wait_for_selector("#map")
    assert wait_turn(page)
    if game == "polis":
        polis_to_action_phase(page)
    page.eval_on_selector_all("#side details", "ds => ds.forEach((d) => { d.open = true; })")
    assert small_targets(page, "header.top") == []
    assert small_targets(page, "#side") == []
    # a touch screen is tapped, not clicked, and has no keys to press
    text = page.inner_text("body")
    for word in ("Click", "click", "Clicca", "clicca", "Keys:", "Tasti:"):
        assert word not in text, word
    expect(page.locator("#now")).to_contain_text(re.compile("tocca" if lang == "it" else "tap", re.I))
    page.screenshot(path=str(DOCS / f"glance-phone-{game}-{lang}.png"))
    page.context.close()
