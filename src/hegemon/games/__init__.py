"""The game registry: every game by its name, imported lazily."""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
from collections.abc import Callable, Iterator
from types import ModuleType

from hegemon.core.errors import ConfigError
from hegemon.core.game import Game
from hegemon.core.roles import check_roles

_GAMES = {
    "spqrisiko": "hegemon.games.spqrisiko.game",
    "polis": "hegemon.games.polis.game",
}
_SHIPPED = frozenset(_GAMES)
_CONTRACT = frozenset(Game.__annotations__) | {k for k in vars(Game) if not k.startswith("_")}
"""The members of the `Game` protocol (its attributes and methods)."""


def register_game(name: str, module: str) -> Game:
    """Register the game that `module` (a module path, e.g. "myplugin.game") defines as `GAME`, under `name`
    (lower case, not yet taken): a game that lives outside this package, such as the tests' toy game. Its
    package's `cli`, `odds` and `oddscmd` modules are found as a shipped game's are. ConfigError for a taken
    name, a module whose `GAME` is named otherwise, lacks a member of the `Game` contract or a required role, or
    declares a role that does not load as its type (`hegemon.core.roles.check_roles`: every role is loaded
    now, so that a broken plug-in fails here rather than at its first table); nothing is registered then."""
    key = name.strip().lower()
    if key != name or not key.isidentifier():
        raise ConfigError("game", f"a game's name is a lower-case identifier, not {name!r}")
    if key in _GAMES:
        raise ConfigError("game", f"a game named {key!r} is already registered")
    game: object = importlib.import_module(module).GAME
    missing = sorted(_CONTRACT - set(dir(game)))
    if missing:
        raise ConfigError(
            "game", f"{module}.GAME lacks {', '.join(missing)} of the game contract (hegemon.core.game.Game)"
        )
    assert isinstance(game, Game)  # every member is there (the protocol's own check, at run time)
    if game.name != key:
        raise ConfigError("game", f"{module}.GAME is named {game.name!r}, not {key!r}")
    check_roles(key, game.roles)
    _GAMES[key] = module
    return game


def unregister_game(name: str) -> None:
    """Forget a game `register_game` added (the shipped games stay: ConfigError)."""
    if name in _SHIPPED or name not in _GAMES:
        raise ConfigError("game", f"{name!r} is not a registered plug-in game")
    del _GAMES[name]


@contextlib.contextmanager
def registered_game(name: str, module: str) -> Iterator[Game]:
    """`register_game` for the duration of a `with` block (a test's fixture), unregistered after it."""
    game = register_game(name, module)
    try:
        yield game
    finally:
        unregister_game(name)


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


def game_of(state: object) -> Game:
    """The registered game whose package defines `state`'s class (ConfigError for any other object)."""
    module = type(state).__module__
    for name, path in _GAMES.items():
        if module.startswith(path.rpartition(".")[0] + "."):
            return get_game(name)
    raise ConfigError("game", f"no registered game defines {module}.{type(state).__name__}")


def game_cli_modules() -> list[ModuleType]:
    """Each game's terminal commands: the `cli` module of its package, when it has one (such a module imports
    nothing of the engine at import time, so the `hegemon` command starts fast)."""
    found = []
    for name in game_names():
        module = _GAMES[name].rpartition(".")[0] + ".cli"
        if importlib.util.find_spec(module) is not None:
            found.append(importlib.import_module(module))
    return found


def game_odds_modules() -> list[str]:
    """The name of each game's `odds` module, when it has one (where its `position_odds_job` computes: the web
    table's odds workers import them when they start, so that no question pays for the import)."""
    found = []
    for name in game_names():
        module = _GAMES[name].rpartition(".")[0] + ".odds"
        if importlib.util.find_spec(module) is not None:
            found.append(module)
    return found


def fast_odds_command(name: str) -> Callable[[list[str]], bool] | None:
    """The `fast(args) -> bool` of the game's `oddscmd` module, when it has one: it answers a plain
    `hegemon odds NAME ...` before the typer application loads and returns False for anything it leaves to
    typer. None for an unknown game or a game without one (nothing of the engine is imported to find out)."""
    path = _GAMES.get(name.strip().lower())
    if path is None:
        return None
    module = path.rpartition(".")[0] + ".oddscmd"
    if importlib.util.find_spec(module) is None:
        return None
    fast: Callable[[list[str]], bool] = importlib.import_module(module).fast  # an `oddscmd` module defines it
    return fast
