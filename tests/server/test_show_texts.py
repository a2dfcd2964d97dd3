"""The texts of "the table shows what happens" (in the dictionaries web/i18n/<lang>.json): the same keys and
placeholders in English and Italian, translated, and a phase prompt for every phase in which a person chooses."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hegemon.games.polis.rules.common import CHANCE_PHASES as POLIS_CHANCE
from hegemon.games.polis.rules.common import PHASE_NAMES as POLIS_PHASES
from hegemon.games.spqrisiko.state import PHASE_NAMES as SPQR_PHASES

I18N = Path(__file__).resolve().parents[2] / "src" / "hegemon" / "web" / "i18n"
EN: dict[str, str] = json.loads((I18N / "en.json").read_text(encoding="utf-8"))
IT: dict[str, str] = json.loads((I18N / "it.json").read_text(encoding="utf-8"))
# a placeholder: "{name}" or the head of a plural block "{name, plural, ...}"
PLACEHOLDER = r"\{(\w+)(?:\}|, plural,)"


def test_both_languages_have_the_same_keys_and_are_translated() -> None:
    assert len(EN) > 100
    assert set(EN) == set(IT)
    same = [k for k in EN if EN[k] == IT[k] and k not in ("log.times",)]
    assert len(same) < 0.05 * len(EN), same
    # the placeholders are the same in both languages
    for k in EN:
        assert set(re.findall(PLACEHOLDER, EN[k])) == set(re.findall(PLACEHOLDER, IT[k])), k


def test_every_phase_with_a_choice_has_a_prompt() -> None:
    for i, p in enumerate(POLIS_PHASES):
        if i in POLIS_CHANCE or p == "game over":
            continue
        assert f"now.polis.{p}" in EN, p
    for p in SPQR_PHASES:
        if p.startswith("setup: order") or p.startswith("setup: deal") or p in ("card draw", "game over"):
            continue
        assert f"now.spqr.{p}" in EN, p
    # neutral placement and claiming, naval move, naval combat and strategic move each say what they are
    assert (
        "Neutral placement" in EN["now.spqr.setup: neutral group"]
        and "Claiming" in EN["now.spqr.setup: claim"]
    )
    assert (
        len({EN["now.spqr.naval movement"], EN["now.spqr.naval combat"], EN["now.spqr.strategic move"]}) == 3
    )
