"""The client's dictionaries: English and Italian have the same keys, and every action kind, phase and option
of both games has a text (so every log line and label is translated)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hegemon.games import get_game
from hegemon.games.polis.actions import CODEC as POLIS_CODEC
from hegemon.games.polis.board import load_board as polis_board
from hegemon.games.polis.rules.common import PHASE_NAMES as POLIS_PHASES
from hegemon.games.spqrisiko.actions import CODEC as SPQR_CODEC
from hegemon.games.spqrisiko.state import PHASE_NAMES as SPQR_PHASES
from hegemon.server.app import create_app
from hegemon.server.tables import web_bots

WEB = Path(__file__).resolve().parents[2] / "src" / "hegemon" / "web"
EN: dict[str, str] = json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8"))
IT: dict[str, str] = json.loads((WEB / "i18n" / "it.json").read_text(encoding="utf-8"))


def test_both_languages_have_the_same_keys() -> None:
    assert len(EN) > 200
    assert set(EN) == set(IT)
    # translated, not copied (a few words are the same in both languages)
    same = [k for k in EN if EN[k] == IT[k] and not k.startswith(("polisphase.phoros",))]
    assert len(same) < 0.1 * len(EN), same


@pytest.mark.parametrize("game, codec", [("spqrisiko", SPQR_CODEC), ("polis", POLIS_CODEC)])
def test_every_action_kind_has_a_log_line(game: str, codec: object) -> None:
    for kind in codec.classes:
        assert f"act.{game}.{kind}" in EN, kind


def test_no_key_is_written_twice() -> None:
    """A JSON object may repeat a key and the last one silently wins: each dictionary writes each key once."""

    def once(pairs: list[tuple[str, object]]) -> dict[str, object]:
        keys = [k for k, _ in pairs]
        twice = sorted({k for k in keys if keys.count(k) > 1})
        assert not twice, twice
        return dict(pairs)

    for lang in ("en", "it"):
        d = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"), object_pairs_hook=once)
        assert all(isinstance(v, str) and v for v in d.values()), lang


def test_every_phase_and_option_has_a_label() -> None:
    for p in SPQR_PHASES:
        assert f"phase.{p}" in EN
    for p in POLIS_PHASES:
        assert f"polisphase.{p}" in EN
    for game in ("spqrisiko", "polis"):
        for o in get_game(game).describe_options():
            if o["name"] != "board":
                assert f"opt.{o['name']}" in EN, o["name"]
                assert o["help"] and o["help_it"], o["name"]


def test_client_never_writes_html_from_data() -> None:
    for path in (WEB / "js").rglob("*.js"):
        text = path.read_text()
        assert (
            "innerHTML" not in text and "insertAdjacentHTML" not in text and "document.write" not in text
        ), path


@pytest.mark.parametrize("game, codec", [("spqrisiko", SPQR_CODEC), ("polis", POLIS_CODEC)])
def test_every_action_kind_has_a_button_label_in_both_languages(game: str, codec: object) -> None:
    """Buttons say what you can do ("Pass"), log lines what someone did ("passes"): both exist for every kind."""
    for kind in codec.classes:
        for d in (EN, IT):
            assert f"do.{game}.{kind}" in d and f"act.{game}.{kind}" in d, kind
    assert EN["do.polis.pass"] != EN["act.polis.pass"]


def test_polis_game_terms_are_translated() -> None:
    """Combat cards (land and sea names), events and projects have Italian names; places are not in here."""
    b = polis_board(None)
    for f in b.formation_ids:
        assert f"card.{f}" in EN and f"card.{f}" in IT and f"card.{f}.sea" in IT, f
        assert EN[f"card.{f}"] != IT[f"card.{f}"]
    for e in b.event_ids:
        key = "event.no_event" if e.startswith("no_event") else f"event.{e}"
        assert key in EN and key in IT, e
    for p in b.project_ids:
        assert f"project.{p}" in EN and f"project.{p}" in IT, p
    translated = [k for k in EN if k.startswith(("event.", "project.")) and EN[k] != IT[k]]
    assert len(translated) > 40


def test_option_choices_and_bots_have_labels() -> None:
    for game in ("spqrisiko", "polis"):
        for o in get_game(game).describe_options():
            for c in o.get("choices") or []:
                assert f"choice.{o['name']}.{c}" in EN and f"choice.{o['name']}.{c}" in IT, (o["name"], c)
    for kind in web_bots():
        name, _, level = kind.partition(":")
        assert f"bot.{name}" in EN and f"bot.{name}" in IT, kind
        if level:
            assert f"level.{level}" in EN and f"level.{level}" in IT, kind


# Typography every font has (DejaVu, Liberation): accents, dashes, dots, arrows, the minus sign.
ALLOWED = set("àèéìòùÀÈÉÌÒÙ·—–…←↑→↓−×") | {"\u2019"}


def test_no_emoji_or_symbol_glyphs_in_the_shipped_client() -> None:
    """Icons are inline SVG: Debian's Chromium has no emoji font and shows such characters as empty boxes."""
    bad = {}
    for path in [
        *WEB.rglob("*.js"),
        *WEB.rglob("*.html"),
        *WEB.rglob("*.css"),
        *(WEB / "i18n").glob("*.json"),
    ]:
        odd = {c for c in path.read_text() if ord(c) > 127 and c not in ALLOWED}
        if odd:
            bad[path.name] = sorted(odd)
    assert not bad, bad


def test_the_dictionaries_are_served_as_json_modules() -> None:
    """i18n.js imports them with `with { type: "json" }`: the browser refuses a JSON module served as anything
    but a JSON type, and an unknown path is a 404."""
    with TestClient(create_app(None)) as c:
        for lang, d in (("en", EN), ("it", IT)):
            r = c.get(f"/static/i18n/{lang}.json")
            assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
            assert r.json() == d
        assert c.get("/static/i18n/xx.json").status_code == 404
