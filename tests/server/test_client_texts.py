"""The client's dictionaries: English and Italian have the same keys, and every action kind, phase and option
of both games has a text (so every log line and label is translated)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hegemon.games import get_game
from hegemon.games.polis.actions import CODEC as POLIS_CODEC
from hegemon.games.polis.rules.common import PHASE_NAMES as POLIS_PHASES
from hegemon.games.spqrisiko.actions import CODEC as SPQR_CODEC
from hegemon.games.spqrisiko.state import PHASE_NAMES as SPQR_PHASES

WEB = Path(__file__).resolve().parents[2] / "src" / "hegemon" / "web"
SOURCE = (WEB / "js" / "i18n.js").read_text()


def keys(block: str) -> dict[str, str]:
    return dict(re.findall(r'"([^"]+)":\s*"((?:[^"\\]|\\.)*)"', block))


EN = keys(SOURCE[SOURCE.index("const en = {") : SOURCE.index("const it = {")])
IT = keys(SOURCE[SOURCE.index("const it = {") : SOURCE.index("export const DICTS")])


def test_both_languages_have_the_same_keys() -> None:
    assert len(EN) > 200
    assert set(EN) == set(IT)
    # translated, not copied (a few words are the same in both languages)
    same = [k for k in EN if EN[k] == IT[k] and not k.startswith(("polisphase.phoros",))]
    assert len(same) < 0.1 * len(EN), same


@pytest.mark.parametrize("game, codec", [("spqrisiko", SPQR_CODEC), ("polis", POLIS_CODEC)])
def test_every_action_kind_has_a_log_line(game: str, codec: object) -> None:
    for kind in codec.classes:  # type: ignore[attr-defined]
        assert f"act.{game}.{kind}" in EN, kind


def test_every_phase_and_option_has_a_label() -> None:
    for p in SPQR_PHASES:
        assert f"phase.{p}" in EN
    for p in POLIS_PHASES:
        assert f"polisphase.{p}" in EN
    for game in ("spqrisiko", "polis"):
        for o in get_game(game).describe_options():  # type: ignore[attr-defined]
            if o["name"] != "board":
                assert f"opt.{o['name']}" in EN, o["name"]
                assert o["help"] and o["help_it"], o["name"]


def test_client_never_writes_html_from_data() -> None:
    for path in (WEB / "js").rglob("*.js"):
        text = path.read_text()
        assert "innerHTML" not in text and "insertAdjacentHTML" not in text and "document.write" not in text, path
