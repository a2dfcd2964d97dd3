"""The game x rule-set matrix every conformance test runs over, and per-game hidden-information perturbations."""

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
                    return s  # type: ignore[no-any-return]
    return None


def _polis_perturb(state: State, player: int) -> State | None:
    """Another Polis state differing only in what `player` cannot see: during a battle, one combat card of
    the opponent's hand exchanged with a card of another kind from the deck (counts unchanged)."""
    from tests.games.polis.test_conformance import perturb

    return perturb(state, player)  # type: ignore[arg-type]


def _polis_rich(state: State) -> None:
    """Keep both Polis sides solvent so that random play reaches battles, where the hidden hands matter."""
    s: Any = state
    if s.phase_name() != "action" or s.n_actions != 0:
        return
    for side in (0, 1):
        s.res[side] = [max(x, 6) for x in s.res[side]]
        s.pp[side] = max(s.pp[side], 6)


PERTURB: dict[str, Callable[[State, int], State | None]] = {"spqrisiko": _spqr_perturb, "polis": _polis_perturb}
# games whose hidden information only appears in positions that uniform-random play rarely reaches get a
# nudge (applied between actions) in the view-leak test
NUDGE: dict[str, Callable[[State], None]] = {"polis": _polis_rich}
