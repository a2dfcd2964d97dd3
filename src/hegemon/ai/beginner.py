"""The beginner: a one-ply player that makes a newcomer's mistakes, seeded.

It judges moves as the greedy bot does (one ply with the game's evaluation, on a determinization: it never
reads hidden cards) but plays like someone new to the game:

- it *overlooks* moves: each legal move is seen with probability `1 - miss` (at least one always is), so a
  good move is sometimes simply not noticed;
- it *misjudges* the moves it sees: it picks among them by a softmax over their values, the values scaled to
  [0, 1] among the moves seen and divided by `temperature`, so a move nearly as good as the best is often
  played instead, a bad one rarely;
- and now and then (`blunder`) it plays a move it saw at random.

Not uniform random: it mostly plays sensible moves and loses to greedy by its mistakes. All its randomness
comes from its own generator, so a seed reproduces its games."""

from __future__ import annotations

import math
import random

from hegemon.ai.base import decision, register
from hegemon.ai.games import knowledge
from hegemon.ai.search import one_ply_values
from hegemon.core.actions import Action
from hegemon.core.errors import ConfigError
from hegemon.core.game import PlayerId, State

BEGINNER_DEFAULTS = {"temperature": 0.15, "miss": 0.3, "blunder": 0.05}
"""The shipped beginner (measured against random and greedy: ai/README.md, "Levels")."""


class BeginnerBot:
    """One ply, with overlooked moves, a softmax choice among the rest and occasional blunders (module text)."""

    name = "beginner"

    def __init__(
        self,
        seed: int = 0,
        temperature: float = BEGINNER_DEFAULTS["temperature"],
        miss: float = BEGINNER_DEFAULTS["miss"],
        blunder: float = BEGINNER_DEFAULTS["blunder"],
        samples: int = 1,
    ) -> None:
        if not (temperature > 0 and 0 <= miss < 1 and 0 <= blunder <= 1 and samples >= 1):
            raise ConfigError(
                "bot", "beginner: temperature > 0, 0 <= miss < 1, 0 <= blunder <= 1, samples >= 1"
            )
        self.rng = random.Random(seed)
        self.temperature = temperature
        self.miss = miss
        self.blunder = blunder
        self.samples = samples

    def choose(self, state: State, player: PlayerId) -> Action:
        actions = decision(state, player)
        if len(actions) == 1:
            return actions[0]
        rng = self.rng
        seen = [a for a in actions if rng.random() >= self.miss]
        if not seen:
            seen = [actions[int(rng.random() * len(actions))]]
        if len(seen) == 1:
            return seen[0]
        if rng.random() < self.blunder:
            return seen[int(rng.random() * len(seen))]
        know = knowledge(state)
        base = know.determinize(state, player, rng)
        values = dict(one_ply_values(base, player, know, rng, self.samples))
        vs = [values.get(a, 0.0) for a in seen]
        lo, hi = min(vs), max(vs)
        span = hi - lo
        if span <= 1e-12:
            return seen[int(rng.random() * len(seen))]
        weights = [math.exp((v - hi) / span / self.temperature) for v in vs]
        u = rng.random() * sum(weights)
        acc = 0.0
        for a, w in zip(seen, weights, strict=True):
            acc += w
            if u < acc:
                return a
        return seen[-1]


SPEC_KEYS = {"t": "temperature", "miss": "miss", "blunder": "blunder", "samples": "samples"}


def _factory(arg: str, seed: int) -> BeginnerBot:
    """`beginner`, or `beginner:t=0.2:miss=0.3:blunder=0.05:samples=1` (the lab's knobs)."""
    kwargs: dict[str, float | int] = {}
    for part in (p for p in arg.split(":") if p.strip()):
        key, sep, value = part.strip().lower().partition("=")
        if not sep or key not in SPEC_KEYS:
            raise ConfigError(
                "bot", f"beginner setting {part!r}: use {', '.join(k + '=…' for k in SPEC_KEYS)}"
            )
        try:
            kwargs[SPEC_KEYS[key]] = int(value) if key == "samples" else float(value)
        except ValueError:
            raise ConfigError("bot", f"beginner setting {part!r}: {value!r} is not a number") from None
    if int(kwargs.get("samples", 1)) > 16:
        raise ConfigError("bot", "beginner: samples at most 16")
    return BeginnerBot(seed, **kwargs)  # type: ignore[arg-type]  # kwargs: floats and ints checked above


register("beginner", _factory)
