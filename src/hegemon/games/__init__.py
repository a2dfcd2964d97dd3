"""The game registry: every game by its name, imported lazily."""

from __future__ import annotations

import importlib

from hegemon.core.errors import ConfigError
from hegemon.core.game import Game

_GAMES = {
    "spqrisiko": "hegemon.games.spqrisiko.game",
    "polis": "hegemon.games.polis.game",
}


def game_names() -> list[str]:
    """The names of every registered game."""
    return sorted(_GAMES)


def get_game(name: str) -> Game:
    """The game object registered under `name` (ConfigError naming the known games otherwise)."""
    key = name.strip().lower()
    if key not in _GAMES:
        raise ConfigError("game", f"unknown game {name!r}; known games: {', '.join(game_names())}")
    module = importlib.import_module(_GAMES[key])
    game: Game = module.GAME
    return game
