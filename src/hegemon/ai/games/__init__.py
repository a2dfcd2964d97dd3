"""Per-game knowledge for the bots, one module per game, each declaring its `BotRole` (`BOTS`; the game's
`roles.bots` loads it): `evaluate`, `determinize`, `auto_action` and the tree search's optional hooks.

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

from typing import Any

from hegemon.core.roles import BotRole
from hegemon.games import game_of

_CACHE: dict[type, BotRole] = {}


def knowledge(state: Any) -> BotRole:
    """The bots role of a state's game (by the state's class: the game that defines it), loaded once;
    ConfigError for a state no game defines."""
    cls = type(state)
    role = _CACHE.get(cls)
    if role is None:
        role = _CACHE[cls] = game_of(state).roles.bots()
    return role
