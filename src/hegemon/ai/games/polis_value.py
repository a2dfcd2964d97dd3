"""A learned evaluation of Polis positions (issue 30 item 3): a small neural network fitted to self-play
results, used by the search as `mcts:…:eval=learned`.

The inputs are the hand-written evaluation's verdict (its logit) and its terms for each side, unweighted (`features`: the score, units,
resources, silver, merchants, the league, sieges within reach, diceless sieges in progress, the options to force,
hunger, starvation, a lost round end, the prestige danger, the best project), plus where the game is (the round,
the phase, whose turn, actions taken, who has passed) and the siege rule. Everything is public: the combat cards
in hand are not an input. The network is one hidden layer of tanh units plus a linear part
(`logit = b + skip·z + out·tanh(W z + c)`, `z` the standardised inputs) and gives Athens' chance of winning.

The weights live in `polis_value.json` beside this file, with the seed, the data size and the command that made
them (`scripts/train_polis_value.py`, which reproduces them: tests/ai/test_polis_value.py). Inference is plain
Python (compiled with the engine), a few microseconds a position: no numpy at play time."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hegemon.ai.games import polis as know
from hegemon.core.game import PlayerId
from hegemon.games.polis import scoring
from hegemon.games.polis.board import SILVER, WHEAT
from hegemon.games.polis.options import DICELESS, SACRIFICE
from hegemon.games.polis.rules import common
from hegemon.games.polis.state import PolisState

# the strength's terms, in order (`know.strength` is their weighted sum; scripts/fit_polis.py fits the weights).
# `sign` turns a term into the weight of `Weights` it estimates (the penalties are subtracted in `strength`);
# `None`: a term whose coefficient is 1 in `strength` (a value already in score points)
TERMS: tuple[tuple[str, str | None, float], ...] = (
    ("score", None, 1.0),
    ("units", "unit", 1.0),
    ("resources", "resource", 1.0),
    ("silver", "silver", 1.0),
    ("merchants", "merchant", 1.0),
    ("league", "league", 1.0),
    ("reach", "reach", 1.0),
    ("reach_next", None, 1.0),  # the best siege within reach of the side whose turn comes next
    ("sieges", None, 1.0),  # the diceless sieges in progress (siege_value)
    ("sacrifice", None, 1.0),  # the option to force after a failed roll
    ("short", "hunger", -1.0),
    ("starve", "starve", -1.0),
    ("lost", "lost", -1.0),
    ("pp_none", "pp_none", -1.0),
    ("pp_one", "pp_one", -1.0),
    ("project", "project", 1.0),
    # the danger of the prestige left after the coming supply, beyond the danger of the track now
    ("supply_danger", "supply_danger", -1.0),
)
NAMES: tuple[str, ...] = tuple(t[0] for t in TERMS)
ROUNDS = 5  # round slots of the input (a board with more rounds shares the last slot)
RULES = 4  # classic, sacrifice, diceless, diceless sacrifice

INPUTS: tuple[str, ...] = (
    *(f"athens_{n}" for n in NAMES),
    *(f"sparta_{n}" for n in NAMES),
    *(f"round_{r}" for r in range(ROUNDS)),
    "action_phase",
    "athens_to_move",
    "actions_taken",
    "athens_passed",
    "sparta_passed",
    *(f"rule_{r}" for r in range(RULES)),
    "hand_logit",
)
"""The network's inputs, in order (the weights file names them too, and loading checks they match)."""


def features(st: PolisState, s: int, weights: know.Weights | None = None) -> list[float]:
    """Side `s`'s strength term by term, unweighted (in `TERMS` order): `know.strength(st, s, w)` is the sum of
    these times their weights (tests/ai/test_polis_fit.py checks it). The nested weights (a siege's worth, the
    keep chances) are `weights`' (the search's, `know.SEARCH`, by default)."""
    w = know.SEARCH if weights is None else weights
    b = st.board
    res = st.res[s]
    pop = common.population(st, s)
    f = [0.0] * len(NAMES)
    f[0] = float(scoring.score(st, s))
    f[1] = float(sum(st.units[s]))
    f[2] = float(sum(res) - res[SILVER])
    f[3] = float(res[SILVER])
    f[4] = float(st.merchants[s])
    f[15] = know.project_option(st, s, w)
    diceless = st.siege_rule >= DICELESS
    best = 0.0
    for q in range(b.n_poleis):
        if b.p_capital[q]:
            continue
        if st.owner[q] == s:
            f[5] += 1.0
        elif diceless and st.discs[s][q]:
            f[8] += know.siege_value(st, s, q, w)
        else:
            gain = know.reach_gain(st, s, q, w)
            f[6] += gain
            best = max(best, gain)
    if best > 0 and st.phase == common.ACTION and st.active == s and not st.n_actions and not st.passed[s]:
        f[7] = best
    if st.siege_rule == SACRIFICE:
        f[9] = know.sacrifice_option(st, s, w)
    short = pop - res[WHEAT]
    if short > 0:
        f[10] = float(short)
        if st.pop[b.capital[s]] > res[WHEAT] + st.pp[s]:
            f[11] = 1.0
    lost = know.lost_at_round_end(st, s)
    if lost:
        f[12] = 1.0
    pp = st.pp[s] + know.pending_prestige(st, s)
    if pp <= 0:
        f[13] = 1.0
    elif pp == 1:
        f[14] = 1.0
    if st.phase == common.ACTION and not lost:
        end = know.round_end_prestige(st, s)
        if end <= 0 and st.passed[s] and w.supply_danger:
            f[12] += 1.0
        else:
            f[16] = max(0.0, know.danger(end, w) - know.danger(pp, w))
    return f


def coefficients(w: know.Weights) -> list[float]:
    """The weight of each term of `TERMS` in `know.strength` with the weights `w` (`features` times these is the
    strength: tests/ai/test_polis_fit.py)."""
    out = []
    for name, field, sign in TERMS:
        if field is None:
            out.append(w.reach_mover - w.reach if name == "reach_next" else 1.0)
        else:
            out.append(sign * getattr(w, field))
    return out


def inputs(st: PolisState) -> list[float]:
    """The network's input vector of a position (`INPUTS` order)."""
    x = features(st, 0) + features(st, 1)
    rounds = [0.0] * ROUNDS
    rounds[min(st.round, ROUNDS - 1)] = 1.0
    x += rounds
    action = st.phase == common.ACTION
    x.append(1.0 if action else 0.0)
    x.append(1.0 if action and st.active == 0 else 0.0)
    x.append(float(st.n_actions) if action else 0.0)
    x.append(1.0 if st.passed[0] else 0.0)
    x.append(1.0 if st.passed[1] else 0.0)
    rules = [0.0] * RULES
    rules[min(max(st.siege_rule, 0), RULES - 1)] = 1.0
    x += rules
    # the hand-written evaluation's own verdict (the search's weights, both sides alike): it carries what the
    # rules make certain and self-play rarely shows (a side about to be ostracised or starve)
    w = know.SEARCH
    x.append((know.strength(st, 0, w) - know.strength(st, 1, w)) / w.scale)
    return x


class ValueModel:
    """The fitted network: `logit(x)` of Athens' chance to win from the input vector `x`."""

    def __init__(self, data: dict[str, Any]) -> None:
        names = tuple(data["inputs"])
        if names != INPUTS:
            raise ValueError(f"the value model's inputs {names[:3]}… are not this engine's ({INPUTS[:3]}…)")
        self.mean: list[float] = [float(v) for v in data["mean"]]
        self.inv: list[float] = [1.0 / float(v) for v in data["scale"]]
        self.hidden: list[list[float]] = [[float(v) for v in row] for row in data["hidden"]]
        self.hidden_bias: list[float] = [float(v) for v in data["hidden_bias"]]
        self.out: list[float] = [float(v) for v in data["out"]]
        self.skip: list[float] = [float(v) for v in data["skip"]]
        self.bias: float = float(data["bias"])
        n = len(INPUTS)
        if not (len(self.mean) == len(self.inv) == len(self.skip) == n) or any(
            len(r) != n for r in self.hidden
        ):
            raise ValueError("the value model's weights do not match its inputs")
        if not (len(self.hidden) == len(self.hidden_bias) == len(self.out)):
            raise ValueError("the value model's hidden layer is inconsistent")
        self.meta: dict[str, Any] = dict(data.get("meta", {}))

    def logit(self, x: list[float]) -> float:
        n = len(x)
        mean, inv = self.mean, self.inv
        z = [(x[i] - mean[i]) * inv[i] for i in range(n)]
        t = self.bias
        skip = self.skip
        for i in range(n):
            t += skip[i] * z[i]
        out = self.out
        bias = self.hidden_bias
        for j, row in enumerate(self.hidden):
            a = bias[j]
            for i in range(n):
                a += row[i] * z[i]
            t += out[j] * math.tanh(a)
        return t

    def athens(self, st: PolisState) -> float:
        """Athens' chance of winning `st` (not over) by the model."""
        t = self.logit(inputs(st))
        if t >= 0:
            return 1.0 / (1.0 + math.exp(-t))
        e = math.exp(t)
        return e / (1.0 + e)


WEIGHTS = Path(__file__).with_name("polis_value.json")
_MODEL: list[ValueModel] = []


def model() -> ValueModel:
    """The shipped model, loaded once."""
    if not _MODEL:
        _MODEL.append(ValueModel(json.loads(WEIGHTS.read_text(encoding="utf-8"))))
    return _MODEL[0]


def learned_evaluate(st: PolisState) -> list[float]:
    """[Athens, Sparta] values in [0, 1] summing to 1: the result at the end, else the model's chance."""
    if st.phase == common.OVER:
        return know.evaluate(st)
    v = model().athens(st)
    return [v, 1.0 - v]


def learned_for(player: PlayerId) -> Callable[[Any], list[float]]:
    """The learned evaluation for either side (`BotRole.evaluations["learned"]`)."""
    return learned_evaluate
