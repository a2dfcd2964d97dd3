"""A learned move ranking for Polis (issue 30 item 2): a one-ply chooser fitted to the rollout search's own
choices, for the rollout search's playouts (`rollout:N:eval=ranked`) and the greedy bot (`greedy:eval=ranked`).

The rollout search improves on its playout policy (greedy: the best move by one ply on the hand evaluation);
its strength stops where that policy's does (ai/README.md, "Elo against thinking budget"). This model ranks a
move's outcome by the hand evaluation's terms for the mover and the opponent (`polis_value.features`, with the
weights greedy uses) times fitted weights: the hand evaluation's logit rescaled plus a correction, fitted as a
conditional logit over the candidates the rollout search played out, to the candidate it chose
(`scripts/train_polis_policy.py`, which reproduces the shipped `polis_policy.json`: tests/ai/test_polis_policy.py).

As an evaluation it gives the mover's side a logistic of that score: only the order of a player's moves matters
to a one-ply chooser, and the score is not a chance of winning (the tree search takes it at its leaves as it
takes any named evaluation, but that is not what it was fitted for).
Everything it reads is public (the combat cards in hand are not an input). Plain Python, compiled with the
engine."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hegemon.ai.games import polis as know
from hegemon.ai.games.polis_value import NAMES, coefficients, features
from hegemon.core.game import PlayerId
from hegemon.games.polis.rules import common
from hegemon.games.polis.state import PolisState

INPUTS: tuple[str, ...] = (*(f"own_{n}" for n in NAMES), *(f"other_{n}" for n in NAMES))
"""The model's inputs, in order: the mover's terms, then the opponent's (the weights file names them too)."""


def inputs(st: PolisState, player: PlayerId) -> list[float]:
    """`player`'s input vector of a position (`INPUTS` order): both sides' terms with greedy's weights."""
    return features(st, player, know.DEFAULT) + features(st, 1 - player, know.DEFAULT)


def hand_coefficients() -> list[float]:
    """The hand evaluation's logit for the mover as weights on `INPUTS`: `inputs . these` is
    (strength(mover) - strength(other)) / scale with greedy's weights (`know.evaluate`)."""
    w = know.DEFAULT
    own = [c / w.scale for c in coefficients(w)]
    return own + [-c for c in own]


class RankModel:
    """The fitted weights: `score(st, player)` orders `player`'s moves (higher is better for `player`)."""

    def __init__(self, data: dict[str, Any]) -> None:
        names = tuple(data["inputs"])
        if names != INPUTS:
            raise ValueError(f"the ranking model's inputs {names[:3]}… are not this engine's ({INPUTS[:3]}…)")
        self.weights: list[float] = [float(v) for v in data["weights"]]
        if len(self.weights) != len(INPUTS) or not all(math.isfinite(v) for v in self.weights):
            raise ValueError("the ranking model's weights do not match its inputs")
        self.meta: dict[str, Any] = dict(data.get("meta", {}))

    def score(self, st: PolisState, player: PlayerId) -> float:
        x = inputs(st, player)
        t = 0.0
        w = self.weights
        for i in range(len(x)):
            t += w[i] * x[i]
        return t


WEIGHTS = Path(__file__).with_name("polis_policy.json")
_MODEL: list[RankModel] = []


def model() -> RankModel:
    """The shipped model, loaded once."""
    if not _MODEL:
        _MODEL.append(RankModel(json.loads(WEIGHTS.read_text(encoding="utf-8"))))
    return _MODEL[0]


def ranked_value(st: PolisState, player: PlayerId) -> list[float]:
    """[Athens, Sparta]: the result at the end, else `player`'s side the logistic of the model's score."""
    if st.phase == common.OVER:
        return know.evaluate(st)
    t = model().score(st, player)
    if t >= 0:
        v = 1.0 / (1.0 + math.exp(-t))
    else:
        e = math.exp(t)
        v = e / (1.0 + e)
    return [v, 1.0 - v] if player == 0 else [1.0 - v, v]


def _athens(st: Any) -> list[float]:
    return ranked_value(st, 0)


def _sparta(st: Any) -> list[float]:
    return ranked_value(st, 1)


def ranked_for(player: PlayerId) -> Callable[[Any], list[float]]:
    """The ranking as `player`'s evaluation (`BotRole.evaluations["ranked"]`)."""
    return _athens if player == 0 else _sparta
