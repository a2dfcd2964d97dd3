"""Per-game knowledge for the bots, one module per game (the game names it: `modules["ai"]`), each with the
same three functions:

- `evaluate(state) -> list[float]`: every player's value of the position in [0, 1] (a win-probability-like
  estimate; terminal states give the real result), computed only from what every player sees plus nothing
  hidden — so a bot can call it on its own determinization;
- `determinize(state, player, rng) -> State`: a copy of `state` whose hidden parts (other players' hands, the
  deck's composition) are resampled consistently with `state.view(player)`; it reads the hidden parts only
  through totals that `player` can see, so two states that look the same to `player` give the same copy for
  the same `rng`;
- `auto_action(state, player) -> Action | None`: a cheap default for the sub-choices of a compound action
  (dice to roll, legionaries to move in) that the greedy bot resolves before it evaluates (None: a real choice).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from hegemon.core.game import game_module
from hegemon.games import game_of

_CACHE: dict[type, ModuleType] = {}


def knowledge(state: Any) -> ModuleType:
    """The per-game module for a state (by the state's class: the game that defines it), imported once;
    ConfigError for a state no game defines or a game without bot knowledge."""
    cls = type(state)
    mod = _CACHE.get(cls)
    if mod is None:
        mod = _CACHE[cls] = game_module(game_of(state), "ai")
    return mod
