"""End-to-end: the table reads at a glance for everyone (issue 28 items 3, 5, 7, 8). Every button's text keeps a
contrast of at least 4.5:1 with what is drawn behind it (WCAG 2 AA, computed from the rendered colours), on the
lobby and at both games' tables."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

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
