"""The rules pages: both games in English and Italian, every rule tag a refusal can cite has its paragraph (an
anchor) in both languages, the page is served at /rules/<game> and its texts from /static/rules/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hegemon.server.app import create_app

SRC = Path(__file__).resolve().parents[2] / "src" / "hegemon"
RULES = SRC / "web" / "rules"
TAG = re.compile(r"R \d+(?:\.\d+)*|§\d+(?:\.\d+)*")


def cited(game: str) -> set[str]:
    """Every tag explain.py can return: quoted tags, tags in brackets, and `rule + ".1"` sub-tags."""
    text = (SRC / "games" / game / "explain.py").read_text()
    tags = set(re.findall(r'"(R \d+(?:\.\d+)*|§\d+(?:\.\d+)*)"', text))
    tags |= set(re.findall(r"\[(R \d+(?:\.\d+)*|§\d+(?:\.\d+)*)\]", text))
    for base, sub in re.findall(r'rule = "(R \d+)" if .*? else "(R \d+)"', text):
        tags |= {base + ".1", sub + ".1"}
    return tags


def anchors(game: str, lang: str) -> set[str]:
    out: set[str] = set()
    for line in (RULES / f"{game}.{lang}.md").read_text().splitlines():
        m = re.match(r"#{2,3} .*\{([^}]*)\}\s*$", line)
        if m:
            out |= set(TAG.findall(m.group(1)))
    return out


@pytest.mark.parametrize("game", ["spqrisiko", "polis"])
def test_every_cited_rule_has_its_paragraph_in_both_languages(game: str) -> None:
    tags = cited(game)
    assert len(tags) > 15
    en, it = anchors(game, "en"), anchors(game, "it")
    assert en == it
    assert not tags - en, sorted(tags - en)


@pytest.mark.parametrize("game", ["spqrisiko", "polis"])
def test_the_pages_are_for_players(game: str) -> None:
    for lang in ("en", "it"):
        text = (RULES / f"{game}.{lang}.md").read_text()
        assert not re.search(
            r"\bU\d+\b|\.md\b|\bthe user'?s\b|ATTESTED|RECONSTRUCTED|\b[a-z]+_[a-z_]+\b", text
        )
        headings = [ln for ln in text.splitlines() if ln.startswith("## ")]
        assert len(headings) >= 9


def test_order_of_a_turn() -> None:
    """S.P.Q.RisiKo! in the order a turn is played; Polis covers its parts in the order of a round."""
    sp = (RULES / "spqrisiko.en.md").read_text()
    order = ["Set-up", "Scoring", "Reinforcements", "Card sets", "Power centres", "Navy", "Naval movement",
             "Naval combat", "Sea attacks", "Land attacks", "Strategic move", "Drawing a card", "Elimination"]  # fmt: skip
    pos = [sp.index(f" {w}") for w in order]
    assert pos == sorted(pos)
    po = (RULES / "polis.en.md").read_text()
    order = ["two different actions", "Move hoplites", "Battles", "combat cards", "Sieges", "Trade", "Start a project",
             "event", "End of the round", "End of the game"]  # fmt: skip
    assert all(w in po for w in order)


def test_served() -> None:
    with TestClient(create_app(None)) as c:
        for game in ("spqrisiko", "polis"):
            r = c.get(f"/rules/{game}?lang=it")
            assert r.status_code == 200 and "rules-page.js" in r.text
            assert "script-src 'self'" in r.headers["content-security-policy"]
            for lang in ("en", "it"):
                assert c.get(f"/static/rules/{game}.{lang}.md").status_code == 200
        r = c.get("/rules/chess")
        assert r.status_code == 404 and r.json()["code"] == "unknown_table"
