"""The configuration matrix every conformance test runs over (game x rule set / siege rule x player count), and
the per-game hooks the generic tests call: hidden-information perturbations, a nudge that steers random play
into rarer positions, and per-step state invariants."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hegemon.core.game import State

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    (
        "spqrisiko",
        {"rules": rules, "players": n, "random_deal": True, "max_rounds": 40},
    )
    for rules in ("house-1.2", "official")
    for n in (3, 4, 5)
] + [
    ("spqrisiko", {"rules": "house-1.2", "players": 3, "random_deal": False, "max_rounds": 30}),
] + [("polis", {"siege": siege}) for siege in ("classic", "sacrifice", "diceless", "diceless_sacrifice")]

IDS = [f"{g}-" + "-".join(f"{k}={v}" for k, v in o.items()) for g, o in CONFIGS]

# seeded random playouts per configuration (Polis games are short, so more of them)
PLAYOUT_SEEDS: dict[str, int] = {"spqrisiko": 3, "polis": 12}


def _spqr_perturb(state: State, player: int) -> State | None:
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


def _polis_perturb(state: State, player: int) -> State | None:
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


def _polis_rich(state: State) -> None:
    """Keep both Polis sides solvent so that random play reaches battles and late rounds, where the hidden
    hands matter (test coverage only)."""
    s: Any = state
    if s.phase_name() != "action" or s.n_actions != 0:
        return
    for side in (0, 1):
        s.res[side] = [max(x, 6) for x in s.res[side]]
        s.pp[side] = max(s.pp[side], 6)


def _polis_invariants(state: State) -> None:
    """Resources, prestige and units never go negative."""
    s: Any = state
    for side in (0, 1):
        assert min(s.res[side]) >= 0 and s.pp[side] >= 0 and min(s.units[side]) >= 0, f"side {side} negative"


PERTURB: dict[str, Callable[[State, int], State | None]] = {"spqrisiko": _spqr_perturb, "polis": _polis_perturb}
# games whose rarer positions (battles, late rounds) uniform-random play seldom reaches get a nudge (applied
# between actions) in the "nudged" playouts, the clone test and the view-leak test, with these option overrides
NUDGE: dict[str, Callable[[State], None]] = {"polis": _polis_rich}
NUDGE_OPTIONS: dict[str, dict[str, Any]] = {"polis": {"max_turns_per_round": 20}}
NUDGED_PLAYOUT_SEEDS = 4
INVARIANTS: dict[str, Callable[[State], None]] = {"polis": _polis_invariants}
