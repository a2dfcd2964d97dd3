"""The named levels: what `beginner`, `mcts:easy`, `mcts:normal`, `mcts:hard` and `mcts:expert` are, per game.

A level is a budget and search settings per game (a Polis iteration is about ten times cheaper than a
S.P.Q.RisiKo! one, and the two games reward different settings: ai/README.md, "Levels"). It has two budgets:

- in the lab, benchmarks, `hegemon play` and `selfplay`: **iterations** a move (`LEVELS[..].iterations`), so
  every game reproduces on any machine (the lab clears time caps; elsewhere `seconds` caps a move as well);
- at the web table: **seconds** a move (anytime search: the level searches until its seconds are spent, or it
  has run `TABLE_CAP` times its lab iterations, whichever comes first; the server's `search_budget` caps the
  seconds and `search_workers` the searches at once, as for every search bot). The seconds are the lab
  budget's time on the compiled engine with headroom, so a table bot on a busy server plays about as well as
  its lab figures say, and on a fast one no more than `TABLE_CAP` times its lab budget (no CPU burnt on a
  Polis tree that is already exhausted).

The beginner (`ai/beginner.py`) is one ply with a newcomer's mistakes; `greedy` (one ply, no mistakes) sits
between it and `mcts:easy`. Each level beats the one below it (figures: ai/README.md)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from hegemon.ai import mcts as _mcts
from hegemon.ai.base import register
from hegemon.ai.mcts import MctsBot, parse_settings
from hegemon.core.actions import Action
from hegemon.core.game import PlayerId, State
from hegemon.games import game_of

TABLE_CAP = 2
"""At the table a level stops after this many times its lab iterations even with seconds left."""


@dataclass(frozen=True)
class Level:
    """A search level: iterations a move per game (`"*"`: any other game), seconds a move at the web table,
    and `MctsBot` settings per game."""

    name: str
    iterations: dict[str, int]
    seconds: float
    settings: dict[str, dict[str, Any]] = field(default_factory=dict)

    def budget(self, game: str) -> int:
        return self.iterations.get(game, self.iterations["*"])

    def settings_for(self, game: str) -> dict[str, Any]:
        return dict(self.settings.get(game, {}))


TWO_TURNS = {"horizon_turns": 2}

LEVELS: dict[str, Level] = {
    lv.name: lv
    for lv in (
        Level("easy", {"*": 40}, 0.25),
        Level("normal", {"polis": 640, "*": 400}, 1.0, {"polis": TWO_TURNS}),
        Level("hard", {"polis": 2560, "*": 1600}, 2.5, {"polis": TWO_TURNS}),
    )
}
"""The search levels, weakest first (`mcts:NAME`)."""

LADDER = ("random", "beginner", "greedy", *(f"mcts:{name}" for name in LEVELS))
"""Every named level, weakest first, as bot specs (the lobby's order; `hegemon lab ladder --levels` takes any of them)."""


class LevelBot:
    """A named search level: an `MctsBot` built for the game of the position it is asked about, with the level's
    budget and settings for that game (and any `extra` settings of the spec, which win). One generator for
    the whole game (`rng`), so a seed reproduces the bot's moves, and the server can carry its state between
    worker processes as it does an MctsBot's.

    `time_limit`: seconds a move (the level's; the lab sets None: iterations only). `anytime`: the web table's
    budget, seconds with an iteration cap of `TABLE_CAP` times the level's (module text)."""

    name = "mcts"

    def __init__(self, level: Level, seed: int = 0, extra: dict[str, Any] | None = None) -> None:
        self.level = level
        self.rng = random.Random(seed)
        self.time_limit: float | None = level.seconds
        self.anytime = False
        self.extra = dict(extra or {})
        self.last: MctsBot | None = None

    def bot_for(self, state: State) -> MctsBot:
        """The search this level runs on `state`'s game (sharing this bot's generator)."""
        game = game_of(state).name
        iters = self.level.budget(game)
        if self.anytime:
            iters *= TABLE_CAP
        bot = MctsBot(
            0, iterations=iters, time_limit=self.time_limit, **{**self.level.settings_for(game), **self.extra}
        )
        bot.rng = self.rng
        return bot

    def choose(self, state: State, player: PlayerId) -> Action:
        self.last = self.bot_for(state)
        return self.last.choose(state, player)


def _factory(arg: str, seed: int) -> Any:
    """`mcts:LEVEL[:key=value…]` for a named level, anything else as `mcts` always took (`mcts:N`, `mcts:N@S`)."""
    head, *rest = arg.split(":")
    level = LEVELS.get(head.strip().lower() or "normal")
    if level is None:
        return _mcts._factory(arg, seed)
    return LevelBot(level, seed, parse_settings(rest))


register("mcts", _factory)
