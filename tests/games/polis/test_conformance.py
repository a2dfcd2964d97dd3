"""The conformance kit (`hegemon.testing`) on Polis, for each siege rule: Polis supplies its hidden-information
perturbation, a nudge that keeps both sides solvent (random play then reaches battles and late rounds, where the
hidden hands matter) and its per-step invariants."""

from __future__ import annotations

from typing import Any

import pytest

from hegemon import testing
from hegemon.core.game import State
from hegemon.games import get_game

GAME = get_game("polis")
CONFIGS: list[dict[str, Any]] = [
    {"siege": siege} for siege in ("classic", "sacrifice", "diceless", "diceless_sacrifice")
]
IDS = [c["siege"] for c in CONFIGS]


def perturb(state: State, player: int) -> State | None:
    """Another Polis state differing only in what `player` cannot see: during a battle, one combat card of
    the opponent's hand exchanged with a card of another kind from the deck (counts unchanged)."""
    src: Any = state
    if src.battle_at < 0:
        return None
    s: Any = state.clone()
    hand = s.hands[1 - player]
    for i in range(len(hand)):
        for j in range(len(hand)):
            if i != j and hand[i] and s.deck[j]:
                hand[i] -= 1
                hand[j] += 1
                s.deck[i] += 1
                s.deck[j] -= 1
                return s  # type: ignore[no-any-return]  # s is the clone, typed Any to reach its hands
    return None


def rich(state: State) -> None:
    """Keep both sides solvent at the start of each turn (test coverage only)."""
    s: Any = state
    if s.phase_name() != "action" or s.n_actions != 0:
        return
    for side in (0, 1):
        s.res[side] = [max(x, 6) for x in s.res[side]]
        s.pp[side] = max(s.pp[side], 6)


def invariants(state: State) -> None:
    """Resources, prestige and units never go negative."""
    s: Any = state
    for side in (0, 1):
        assert min(s.res[side]) >= 0 and s.pp[side] >= 0 and min(s.units[side]) >= 0, f"side {side} negative"


SUITE = testing.Suite(
    GAME,
    CONFIGS,
    perturb,
    playout_seeds=12,  # Polis games are short
    nudge=rich,
    nudge_options={"max_turns_per_round": 20},
    invariants=invariants,
)


def test_declared() -> None:
    testing.check_declared(GAME, CONFIGS)


@pytest.mark.parametrize("raw", CONFIGS, ids=IDS)
def test_random_playouts(raw: dict[str, Any]) -> None:
    testing.check_playouts(GAME, raw, SUITE.playout_seeds, invariants=invariants)


@pytest.mark.parametrize("raw", CONFIGS, ids=IDS)
def test_nudged_playouts(raw: dict[str, Any]) -> None:
    testing.check_playouts(
        GAME, SUITE.options(raw, True), SUITE.nudged_playout_seeds, nudge=rich, invariants=invariants
    )


@pytest.mark.parametrize("raw", CONFIGS, ids=IDS)
def test_clone_and_codec(raw: dict[str, Any]) -> None:
    testing.check_clone_and_codec(GAME, SUITE.options(raw, True), nudge=rich)


@pytest.mark.parametrize("raw", CONFIGS, ids=IDS)
def test_replay(raw: dict[str, Any]) -> None:
    testing.check_replay(GAME, raw)


@pytest.mark.parametrize("raw", CONFIGS, ids=IDS)
def test_hidden_information(raw: dict[str, Any]) -> None:
    testing.check_hidden_information(GAME, SUITE.options(raw, True), perturb, nudge=rich)


@pytest.mark.parametrize("raw", CONFIGS, ids=IDS)
def test_views_together(raw: dict[str, Any]) -> None:
    testing.check_views_together(GAME, raw)


@pytest.mark.parametrize("raw", CONFIGS, ids=IDS)
def test_refusals(raw: dict[str, Any]) -> None:
    testing.check_refusals(GAME, raw)


def test_phase_refusals() -> None:
    testing.check_phase_refusals(GAME, CONFIGS[0])
