"""Option help is written for players: no rule-file ids (U3, §4.9, R 13, polis.md), no "the user's", no raw
value ids (diceless_sacrifice), in English and Italian; every choice of the rule set and siege rule has one
plain sentence in both languages (the lobby shows it under the menu, the rules page for the table)."""

from __future__ import annotations

import re

import pytest

from hegemon.games import get_game

FORBIDDEN = [
    (re.compile(r"\bU\d+\b"), "a rule-file id like U3"),
    (re.compile(r"§"), "a section id like §4.9"),
    (re.compile(r"\bR\s?\d+(\.\d+)*\b"), "a rulebook id like R 13.6"),
    (re.compile(r"\b\w+\.(md|toml|txt)\b"), "a file name"),
    (re.compile(r"user'?s\b|\butente\b", re.I), "the user's"),
    (re.compile(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b"), "a raw value id like diceless_sacrifice"),
    (re.compile(r"\b(?:house-1\.2|seeds?|engine state)\b", re.I), "an internal id"),
]


def texts(game: str) -> list[tuple[str, str]]:
    out = []
    for o in get_game(game).describe_options():
        out.append((f"{o['name']}.help", o["help"]))
        out.append((f"{o['name']}.help_it", o["help_it"]))
        for lang in ("choice_help", "choice_help_it"):
            for value, text in o[lang].items():
                out.append((f"{o['name']}.{lang}.{value}", text))
    return out


def problems(text: str) -> list[str]:
    return [why for rx, why in FORBIDDEN if rx.search(text)]


@pytest.mark.parametrize("game", ["spqrisiko", "polis"])
def test_every_option_help_is_in_players_words(game: str) -> None:
    found = texts(game)
    assert len(found) > 6
    bad = {where: problems(text) for where, text in found if problems(text)}
    assert not bad, bad


def test_the_scan_catches_what_it_must() -> None:
    assert problems("Card sets per turn (U3; none: no limit)")
    assert problems("Engine safeguard (polis.md §4.9)")
    assert problems("the user's house rules")
    assert problems("classic, sacrifice, diceless, diceless_sacrifice")
    assert problems("fails [R 13.6]")
    assert not problems("Rule set: the house rules v1.2 or the published 2005 rules")


@pytest.mark.parametrize("game, option", [("polis", "siege"), ("spqrisiko", "rules")])
def test_each_rule_choice_has_one_plain_sentence_in_both_languages(game: str, option: str) -> None:
    (o,) = [o for o in get_game(game).describe_options() if o["name"] == option]
    assert set(o["choice_help"]) == set(o["choices"]) == set(o["choice_help_it"])
    for value in o["choices"]:
        en, it = o["choice_help"][value], o["choice_help_it"][value]
        assert en != it and en.endswith(".") and it.endswith(".")
        assert en.count(". ") == 0 and len(en) < 260, en  # one sentence
        assert "_" not in en + it
