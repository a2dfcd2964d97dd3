"""The conformance kit (`hegemon.testing`) on S.P.Q.RisiKo!, for each rule set and player count: S.P.Q.RisiKo!
supplies its hidden-information perturbation (a card of another player's hand swapped with the deck's)."""

from __future__ import annotations

from typing import Any

import pytest

from hegemon import testing
from hegemon.core.game import State
from hegemon.games import get_game

GAME = get_game("spqrisiko")
CONFIGS: list[dict[str, Any]] = [
    {"rules": rules, "players": n, "random_deal": True, "max_rounds": 40}
    for rules in ("house-1.2", "official")
    for n in (3, 4, 5)
] + [{"rules": "house-1.2", "players": 3, "random_deal": False, "max_rounds": 30}]
IDS = ["-".join(f"{k}={v}" for k, v in c.items()) for c in CONFIGS]


def perturb(state: State, player: int) -> State | None:
    """Another state that differs from `state` only in what `player` cannot see: a card of another
    player's hand swapped with a card of a different symbol in the deck (counts unchanged)."""
    s: Any = state.clone()
    for other in range(s.n):
        if other == player:
            continue
        hand = s.hands[other]
        for i in range(4):
            for j in range(4):
                if i != j and hand[i] > 0 and s.deck[j] > 0:
                    hand[i] -= 1
                    hand[j] += 1
                    s.deck[i] += 1
                    s.deck[j] -= 1
                    return s  # type: ignore[no-any-return]  # s is the clone, typed Any to reach its hands
    return None


def test_declared() -> None:
    testing.check_declared(GAME, CONFIGS)


@pytest.mark.parametrize("raw", CONFIGS, ids=IDS)
def test_random_playouts(raw: dict[str, Any]) -> None:
    testing.check_playouts(GAME, raw, 3)


@pytest.mark.parametrize("raw", CONFIGS[:2], ids=IDS[:2])
def test_clone_and_codec(raw: dict[str, Any]) -> None:
    testing.check_clone_and_codec(GAME, raw)


@pytest.mark.parametrize("raw", CONFIGS, ids=IDS)
def test_replay(raw: dict[str, Any]) -> None:
    testing.check_replay(GAME, raw)


@pytest.mark.parametrize("raw", CONFIGS[:3], ids=IDS[:3])
def test_hidden_information(raw: dict[str, Any]) -> None:
    testing.check_hidden_information(GAME, raw, perturb)


@pytest.mark.parametrize("raw", CONFIGS, ids=IDS)
def test_views_together(raw: dict[str, Any]) -> None:
    testing.check_views_together(GAME, raw)


@pytest.mark.parametrize("raw", CONFIGS, ids=IDS)
def test_refusals(raw: dict[str, Any]) -> None:
    testing.check_refusals(GAME, raw)


def test_phase_refusals() -> None:
    testing.check_phase_refusals(GAME, CONFIGS[0])
