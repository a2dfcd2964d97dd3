"""A learned S.P.Q.RisiKo! evaluation (issue 30 item 3): who wins, fitted to self-play results.

The hand evaluation (`spqrisiko.evaluate`) is a softmax over the players of a weighted sum of their strength's
terms (`spqrisiko.TERMS`) at a temperature that falls as the leader nears the VP target. This model has the same
form, a conditional logit (McFadden, 1974): each player's chance of winning is the softmax over the players
still in of `weights . inputs(player)`, where the inputs are the same terms, two of them again scaled by how close
the leader is to the target (so the weights may change as the game ends, as the hand temperature does), and where
the player sits in the turn order from the one moving (the player about to move acts before the others). The
weights are fitted by maximum likelihood on self-play positions labelled with the game's winners
(`scripts/train_spqr_value.py`) and shipped in `spqr_value.json` with the seed, the data size and the command.
Inference is a few dozen multiplications a player: plain Python, no numpy at play time.

The search asks for it by name: `mcts:…:eval=learned` values its leaves with it (`BotRole.evaluations`)."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hegemon.ai.games import spqrisiko as know
from hegemon.core.game import PlayerId
from hegemon.games.spqrisiko.state import SpqrState

WEIGHTS = Path(__file__).with_name("spqr_value.json")
"""The shipped weights."""

SEATS = 4
"""Seat inputs: one for each of the first `SEATS` places in the turn order from the player to move (the last
place, the fifth of five players, is the baseline)."""

INPUTS = (
    *know.TERMS,
    "vp_late",
    "next_late",
    *(f"seat_{k}" for k in range(SEATS)),
)
"""The model's inputs for a player, in order: the strength's terms, victory points and the next scoring's VP
times the leader's progress to the target (`progress`), and its place in the turn order from the player to move
(`seat_0`: the player to move)."""


def progress(st: SpqrState) -> float:
    """How far the leader is to the VP target, 0 to 1 (0 in a game without a target)."""
    target = st.opts.vp_target
    if not target:
        return 0.0
    return min(1.0, max(st.vp) / target)


def inputs(st: SpqrState) -> list[list[float] | None]:
    """Each player's inputs (`INPUTS`); None for an eliminated player."""
    late = progress(st)
    order = st.order
    n_order = len(order)
    out: list[list[float] | None] = []
    for p, t in enumerate(know.terms(st)):
        if t is None:
            out.append(None)
            continue
        seat = (order.index(p) - st.turn) % n_order if p in order else SEATS
        row = [float(x) for x in t]
        row.append(t[0] * late)
        row.append(t[1] * late)
        row.extend(1.0 if seat == k else 0.0 for k in range(SEATS))
        out.append(row)
    return out


def softmax_values(rows: list[list[float] | None], weights: list[float]) -> list[float]:
    """Each player's chance by the conditional logit: softmax of `weights . row` over the players with a row."""
    scores = [None if r is None else sum(w * x for w, x in zip(weights, r, strict=True)) for r in rows]
    top = max(s for s in scores if s is not None)
    e = [0.0 if s is None else math.exp(s - top) for s in scores]
    z = sum(e)
    return [x / z for x in e]


class ValueModel:
    """The fitted weights (one per input) with the file's record of how they were made."""

    def __init__(self, data: dict[str, Any]) -> None:
        if list(data.get("inputs", [])) != list(INPUTS):
            raise ValueError(f"the model's inputs {data.get('inputs')} are not this engine's {list(INPUTS)}")
        weights = [float(w) for w in data["weights"]]
        if len(weights) != len(INPUTS):
            raise ValueError(f"{len(weights)} weights do not match {len(INPUTS)} inputs")
        self.weights = weights
        self.meta: dict[str, Any] = dict(data.get("meta", {}))

    def values(self, st: SpqrState) -> list[float]:
        return softmax_values(inputs(st), self.weights)


_MODEL: list[ValueModel] = []


def model() -> ValueModel:
    """The shipped model, loaded once."""
    if not _MODEL:
        _MODEL.append(ValueModel(json.loads(WEIGHTS.read_text(encoding="utf-8"))))
    return _MODEL[0]


def learned_evaluate(st: SpqrState) -> list[float]:
    """Every player's value in [0, 1], summing to 1: the result at the end, else the model's chances."""
    if st.terminal is not None:
        return know.evaluate(st)
    return model().values(st)


def learned_for(player: PlayerId) -> Callable[[Any], list[float]]:
    """The learned evaluation for any seat (`BotRole.evaluations["learned"]`)."""
    return learned_evaluate
