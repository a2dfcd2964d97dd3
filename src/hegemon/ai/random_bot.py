"""The uniform random bot: every legal action equally likely, from its own seeded generator."""

from __future__ import annotations

import random

from hegemon.ai.base import register
from hegemon.core.actions import Action
from hegemon.core.game import PlayerId, State


class RandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, player: PlayerId) -> Action:
        actions = state.legal_actions()
        return actions[int(self.rng.random() * len(actions))]


register("random", lambda arg, seed: RandomBot(seed))
