"""The bot interface and the registry of bot specs ("random", later "greedy", "mcts:hard"…)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from hegemon.core.actions import Action
from hegemon.core.errors import ConfigError, HegemonError
from hegemon.core.game import PlayerId, State


@runtime_checkable
class Bot(Protocol):
    """A player program. `choose` is called only when it is `player`'s turn; it returns one of
    `state.legal_actions()`. A bot must use only what `state.view(player)` shows (search bots sample the
    hidden parts), so it plays fair against people."""

    name: str

    def choose(self, state: State, player: PlayerId) -> Action: ...


class NoDecisionError(HegemonError):
    """A bot was asked to choose where `player` has nothing to decide (a chance node, the end of the game,
    another player's turn)."""

    code = "no_decision"


def decision(state: State, player: PlayerId) -> list[Action]:
    """`player`'s legal actions in `state`; NoDecisionError when it is not `player`'s decision."""
    actions = state.legal_actions() if state.current_player() == player else []
    if not actions:
        raise NoDecisionError(
            f"player {player} has no decision to make here (to move: {state.current_player()})"
        )
    return actions


BotFactory = Callable[[str, int], Bot]
_REGISTRY: dict[str, BotFactory] = {}


def register(name: str, factory: BotFactory) -> None:
    """Add a bot kind; `factory(argument, seed)` builds it ("mcts:hard" → argument "hard")."""
    _REGISTRY[name] = factory


def bot_names() -> list[str]:
    return sorted(_REGISTRY)


def make_bot(spec: str, seed: int = 0) -> Bot:
    """Build a bot from a spec like "random" or "mcts:hard" (ConfigError for an unknown kind). The kind's name is
    read in any case; its argument is passed as written (an external bot's URL keeps its case)."""
    kind, _, arg = spec.strip().partition(":")
    kind = kind.strip().lower()
    if kind not in _REGISTRY:
        raise ConfigError("bot", f"unknown bot {spec!r}; known bots: {', '.join(bot_names())}")
    return _REGISTRY[kind](arg, seed)
