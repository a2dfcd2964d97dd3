"""The greedy bot: one ply with the per-game evaluation. Each legal action is tried on a determinization of
the position (the bot never reads hidden cards); chance that follows is sampled a few times and the bot's
own sub-choices (dice, move-in counts) are resolved by the game's defaults before the evaluation."""

from __future__ import annotations

import random

from hegemon.ai.base import decision, register
from hegemon.ai.games import knowledge
from hegemon.ai.mcts import EVALUATIONS, named_evaluation
from hegemon.ai.search import one_ply_values
from hegemon.core.actions import Action
from hegemon.core.errors import ConfigError
from hegemon.core.game import PlayerId, State


class GreedyBot:
    """Picks the action with the best evaluation one ply ahead (chance averaged over `samples` draws)."""

    name = "greedy"

    def __init__(self, seed: int = 0, samples: int = 4, evaluation: str | None = None) -> None:
        self.rng = random.Random(seed)
        self.samples = samples
        # an evaluation of the game's by name (`greedy:eval=learned`), else its own
        self.evaluation = evaluation

    def action_values(self, state: State, player: PlayerId) -> list[tuple[Action, float]]:
        """Every legal action with its estimated value for `player`."""
        know = knowledge(state)
        base = know.determinize(state, player, self.rng)
        evaluate = None if self.evaluation is None else named_evaluation(know, self.evaluation)(player)
        return one_ply_values(base, player, know, self.rng, self.samples, evaluate=evaluate)

    def choose(self, state: State, player: PlayerId) -> Action:
        actions = decision(state, player)
        if len(actions) == 1:
            return actions[0]
        legal = set(actions)
        values = [(a, v) for a, v in self.action_values(state, player) if a in legal] or [
            (a, 0.0) for a in actions
        ]
        top = max(v for _, v in values)
        best = [a for a, v in values if v >= top - 1e-12]
        return best[int(self.rng.random() * len(best))]


def _factory(arg: str, seed: int) -> GreedyBot:
    """`greedy[:samples=N][:eval=NAME]`."""
    samples, evaluation = 4, None
    for part in arg.strip().split(":"):
        key, sep, value = part.strip().partition("=")
        if not key:
            continue
        if key.lower() == "samples" and sep:
            try:
                samples = max(1, int(value))
            except ValueError:
                raise ConfigError("bot", f"greedy:samples=N needs a whole number, got {arg!r}") from None
        elif key.lower() == "eval" and sep and value in EVALUATIONS:
            evaluation = value
        else:
            raise ConfigError(
                "bot",
                f"greedy takes no strength (got {arg!r}); use greedy, greedy:samples=N or greedy:eval="
                + " or greedy:eval=".join(EVALUATIONS),
            )
    return GreedyBot(seed, samples=samples, evaluation=evaluation)


register("greedy", _factory)
