"""Helpers shared by the search bots: resolving chance and the default sub-choices after a decision."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

from hegemon.core.actions import Action
from hegemon.core.game import CHANCE, TERMINAL, PlayerId
from hegemon.core.play import sample_chance
from hegemon.core.roles import BotRole


def settle(
    state: Any, know: BotRole, rng: random.Random, player: PlayerId | None = None, limit: int = 400
) -> bool:
    """Advance `state` through chance nodes (sampled with `rng`) and the default sub-choices of
    `know.auto_action` (only `player`'s, or anyone's when None) until a real decision or the end.
    Returns whether any chance outcome was sampled (if not, the result is deterministic)."""
    sampled = False
    for _ in range(limit):
        p = state.current_player()
        if p == TERMINAL:
            break
        if p == CHANCE:
            state.apply(sample_chance(state, rng))
            sampled = True
            continue
        if player is not None and p != player:
            break
        a = know.auto_action(state, p)
        if a is None:
            break
        state.apply(a)
    return sampled


def spread_chance(state: Any, u: float) -> None:
    """Resolve the chance event `state` stands on with the outcome whose cumulative probability first
    exceeds `u` in [0, 1) (a stratified draw: u = (i + 0.5) / n over n samples covers every outcome in
    proportion)."""
    outcomes = state.chance_outcomes()
    acc = 0.0
    for a, pr in outcomes:
        acc += pr
        if u < acc:
            state.apply(a)
            return
    state.apply(outcomes[-1][0])


def one_ply_values(
    state: Any,
    player: PlayerId,
    know: BotRole,
    rng: random.Random,
    samples: int,
    stratified: bool = False,
    evaluate: Callable[[Any], list[float]] | None = None,
    actions: list[Action] | None = None,
) -> list[tuple[Any, float]]:
    """Every legal action of `state` with its one-ply value for `player`: the evaluation after the action
    (`evaluate`, the game's `evaluate` by default), chance that follows sampled up to `samples` times (once
    when nothing random follows); `stratified`: the first chance event after the action drawn evenly over its
    outcomes (sample i at (i + 0.5) / samples), so a d4 with 4 samples is its exact expectation. `actions`:
    `state.legal_actions()` when the caller has them already."""
    value = know.evaluate if evaluate is None else evaluate
    out = []
    for a in state.legal_actions() if actions is None else actions:
        total, k = 0.0, 0
        for i in range(samples):
            c = state.clone()
            c.apply(a)
            spread = stratified and c.current_player() == CHANCE
            if spread:
                spread_chance(c, (i + 0.5) / samples)
            random_part = settle(c, know, rng, player) or spread
            total += value(c)[player]
            k += 1
            if not random_part:
                break
        out.append((a, total / k))
    return out


PLAYOUT_LIMIT: Final = 5000
"""Decisions a playout may take before it is cut and valued by the evaluation (a safety bound: Polis games end
in a few hundred)."""

NOISE_TOP = 3
"""With `noise`, a noisy playout move is drawn from this many of the best moves by one ply."""


def policy(
    state: Any,
    player: PlayerId,
    know: BotRole,
    rng: random.Random,
    noise: int = 0,
    evaluate: Callable[[Any], list[float]] | None = None,
) -> Action:
    """The playouts' move: the only one, the game's default sub-choice, else the best by one ply on the game's
    evaluation (or `evaluate`) with one chance draw (the first of equals: no extra randomness); with `noise`
    (percent), that often one of the `NOISE_TOP` best drawn evenly instead (on the playout's generator)."""
    actions: list[Action] = state.legal_actions()
    if len(actions) == 1:
        return actions[0]
    auto = know.auto_action(state, player)
    if auto is not None:
        return auto
    values = one_ply_values(state, player, know, rng, 1, evaluate=evaluate, actions=actions)
    if noise and rng.random() * 100 < noise:
        order = sorted(range(len(values)), key=lambda i: -values[i][1])
        pick: Action = values[order[rng.randrange(min(NOISE_TOP, len(order)))]][0]
        return pick
    top = max(v for _, v in values)
    best: Action = next(a for a, v in values if v >= top - 1e-12)
    return best
