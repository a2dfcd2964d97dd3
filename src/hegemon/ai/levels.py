"""The named levels: what `mcts:easy`, `mcts:normal` and `mcts:hard` are, per game.

A level is a search, its budget and its settings per game (the two games reward different searches: ai/README.md,
"Levels"). The levels are spaced where strength is measured to grow, so that each beats the one below in both
games under every rule (issue 30):

- `easy` is one ply: the greedy bot (`ai/greedy.py`: each move tried, the best by the game's evaluation played;
  no search, as cheap as greedy and thinking where greedy does at the web table);
- `normal` is the tree search (`ai/mcts.py`) at a small budget: 40 iterations at Polis (where it has all its
  strength at its first: docs/experiments/2026-11-28-spqr-levels-and-polis-policies.md), 8 at S.P.Q.RisiKo!
  (halfway up its steep part: 5 iterations are barely above one ply, 56% of 400 games under the 2005 rules, and
  above about 12 the 2005 rules leave too little room below 160);
- `hard` is, at Polis, the tree search over full playouts (`end=1`: normal's tree of the searcher's turn, each
  leaf played out to the end of the game by one ply on the tree search's own evaluation, its tuned weights and
  Athens' own set, and valued by the result), 48 iterations: a search whose strength grows with its budget,
  +219 Elo from 2 to 48 iterations and +128 more at 144 (docs/experiments/2026-11-29e-polis-komi-and-tree-over-playouts.md),
  so its seconds at the table buy strength; at 48 it plays level with the rollout search of sessions 22-30
  (`rollout:8:eval=search`, whose strength stops growing at 2 playouts a candidate) at 1.3 times its CPU
  (docs/experiments/2026-11-30-polis-hard-tree.md); at S.P.Q.RisiKo! the tree search at 160 iterations (past
  its steep part: the search gains almost all its strength below 40).

Until session 21 `easy` was the tree search (Polis 40 iterations, S.P.Q.RisiKo! 5), and `normal` was the
rollout search at 2 playouts a candidate (Polis) or 12 iterations (S.P.Q.RisiKo!): a rung that did not stand
apart from the ones beside it under most Polis siege rules (docs/experiments/2026-11-29-three-levels.md); until
session 31 Polis's `hard` was the rollout search (`rollout:8:eval=search`). A search level has two budgets:

- in the lab, benchmarks, `hegemon play` and `selfplay`: **iterations** (playouts) a move
  (`LEVELS[..].iterations`), so every game reproduces on any machine (the lab clears time caps; elsewhere
  `seconds` caps a move as well);
- at the web table: **seconds** a move (anytime search: the level searches until its seconds are spent, or it
  has run `TABLE_CAP` times its lab budget, whichever comes first; the server's `search_budget` caps the
  seconds and `search_workers` the searches at once, as for every search bot). The seconds are the lab
  budget's time on the compiled engine with headroom, so a table bot on a busy server plays about as well as
  its lab figures say, and on a fast one no more than `TABLE_CAP` times its lab budget.

The beginner (`ai/beginner.py`) is one ply with a newcomer's mistakes, below `easy`. The figures of each level
against the one below: ai/README.md."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from hegemon.ai import greedy as _greedy
from hegemon.ai import mcts as _mcts
from hegemon.ai.base import register
from hegemon.ai.greedy import GreedyBot
from hegemon.ai.mcts import MctsBot, parse_settings
from hegemon.ai.rollout import RolloutBot
from hegemon.core.actions import Action
from hegemon.core.errors import ConfigError
from hegemon.core.game import PlayerId, State
from hegemon.games import game_of

TABLE_CAP = 2
"""At the table a level stops after this many times its lab iterations even with seconds left."""

ROLLOUT_SETTINGS = frozenset(("candidates", "prior_samples", "evaluation"))
"""The settings of a spec (`mcts:hard:candidates=8`) a level's rollout search takes."""


@dataclass(frozen=True)
class Level:
    """A level: the search per game (`"*"`: any other game; `mcts`, the tree search, unless `engines` names
    `rollout`, the rollout search of `ai/rollout.py`, or `greedy`, one ply), its budget a move per game
    (iterations of the tree search, playouts a candidate of the rollout search; 0 for one ply), seconds a move at
    the web table, and the search's settings per game."""

    name: str
    iterations: dict[str, int]
    seconds: float
    settings: dict[str, dict[str, Any]] = field(default_factory=dict)
    engines: dict[str, str] = field(default_factory=dict)

    def budget(self, game: str) -> int:
        return self.iterations.get(game, self.iterations["*"])

    def settings_for(self, game: str) -> dict[str, Any]:
        return dict(self.settings.get(game, {}))

    def engine(self, game: str) -> str:
        return self.engines.get(game, self.engines.get("*", "mcts"))

    @property
    def one_ply(self) -> bool:
        """Whether the level is the greedy bot in every game (then `mcts:NAME` builds a `GreedyBot`)."""
        return set(self.engines) == {"*"} and self.engines["*"] == "greedy"


LEVELS: dict[str, Level] = {
    lv.name: lv
    for lv in (
        Level("easy", {"*": 0}, 0.0, engines={"*": "greedy"}),
        Level("normal", {"spqrisiko": 8, "*": 40}, 0.25),
        Level("hard", {"polis": 48, "*": 160}, 2.5, {"polis": {"to_end": 1}}),
    )
}
"""The search levels, weakest first (`mcts:NAME`)."""

LADDER = ("random", "beginner", *(f"mcts:{name}" for name in LEVELS))
"""Every named level, weakest first, as bot specs (the lobby's order; `hegemon lab ladder --levels` takes any of
them). `greedy` is `mcts:easy`'s bot, so it is not a rung of its own."""


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
        self.last: MctsBot | RolloutBot | GreedyBot | None = None

    def bot_for(self, state: State) -> MctsBot | RolloutBot | GreedyBot:
        """The search this level runs on `state`'s game (sharing this bot's generator)."""
        game = game_of(state).name
        iters = self.level.budget(game)
        if self.anytime:
            iters *= TABLE_CAP
        settings = {**self.level.settings_for(game), **self.extra}
        bot: MctsBot | RolloutBot | GreedyBot
        if self.level.engine(game) == "greedy":
            bot = GreedyBot(0, **settings)
        elif self.level.engine(game) == "rollout":
            other = sorted(set(settings) - ROLLOUT_SETTINGS)
            if other:
                raise ConfigError(
                    "bot",
                    f"mcts:{self.level.name} plays {game} by the rollout search, which has no setting "
                    + ", ".join(other),
                )
            bot = RolloutBot(0, playouts=iters, time_limit=self.time_limit, **settings)
        else:
            bot = MctsBot(0, iterations=iters, time_limit=self.time_limit, **settings)
        bot.rng = self.rng
        return bot

    def choose(self, state: State, player: PlayerId) -> Action:
        self.last = self.bot_for(state)
        return self.last.choose(state, player)


def _factory(arg: str, seed: int) -> Any:
    """`mcts:LEVEL[:key=value…]` for a named level, anything else as `mcts` always took (`mcts:N`, `mcts:N@S`).
    A one-ply level (`easy`) is the greedy bot itself, with greedy's settings (`mcts:easy:samples=2`)."""
    head, *rest = arg.split(":")
    level = LEVELS.get(head.strip().lower() or "normal")
    if level is None:
        return _mcts._factory(arg, seed)
    if level.one_ply:
        return _greedy._factory(":".join(rest), seed)
    return LevelBot(level, seed, parse_settings(rest))


register("mcts", _factory)
