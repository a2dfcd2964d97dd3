"""The measures the lab records beside the result, fed every action of a game. Each game names its own
class (its lab role's `measures`, `hegemon.core.roles.LabRole`, in the game's folder)."""

from __future__ import annotations

from typing import Any

from hegemon.core.actions import Action
from hegemon.core.roles import GameMeasures
from hegemon.games import get_game


class Measures:
    """Base: `before(state, action)` is called before each action is applied, `after(state, action, token)`
    after it with what `before` returned; `result(state)` gives a JSON-ready dict."""

    def before(self, state: Any, action: Action) -> Any:
        return None

    def after(self, state: Any, action: Action, token: Any) -> None:
        """Measures that only look at the final state record nothing per action."""
        return None

    def result(self, state: Any) -> dict[str, Any]:
        return {}


def measures_for(game: str) -> GameMeasures:
    """The measures of a game by name (a bare `Measures` for a game without its own)."""
    g = get_game(game)
    lab = g.roles.lab()
    return Measures() if lab is None else lab.measures()
