"""Secret Pig's roles (one module for all four it has: text, bots, lab, encoder; `ROLES` in tests.pig.game loads
them)."""

from __future__ import annotations

import random
from typing import Any

from hegemon.core.actions import Action
from hegemon.core.roles import BotRole, EncoderRole, LabRole, TextRole
from tests.pig.game import BONUSES, Face, Hold, PigState, Roll

# ---------------------------------------------------------------- text: the terminal


def render(state: PigState, player: int | None) -> str:
    lines = [f"Secret Pig, turn {state.turns + 1}, {state.phase_name()}"]
    for p in range(state.n):
        bonus = state.bonus[p] if p < len(state.bonus) and (p == player or state.ended) else "?"
        lines.append(f"  player {p + 1}: {state.banked[p]} banked, bonus {bonus}")
    lines.append(f"  on the table: {state.turn_total} after {state.rolls} roll(s)")
    return "\n".join(lines)


def render_map(state: PigState) -> str:
    return " | ".join(f"P{p + 1} {'#' * b}" for p, b in enumerate(state.banked))


def action_odds(state: PigState, action: Action) -> str | None:
    return "1 in 6 to lose the turn's points" if isinstance(action, Roll) else None


TEXT = TextRole(render=render, render_map=render_map, action_odds=action_odds)


# ---------------------------------------------------------------- ai: what bots know


def evaluate(state: PigState) -> list[float]:
    """Each player's share of the banked points (plus the turn's for the mover); the real result at the end."""
    out = state.outcome()
    if out is not None:
        return [1.0 if p in out.winners else 0.0 for p in range(state.n)]
    points = [b + 1.0 for b in state.banked]
    if state.current_player() >= 0:
        points[state.player] += state.turn_total
    total = sum(points)
    return [x / total for x in points]


def determinize(state: PigState, player: int, rng: random.Random) -> PigState:
    """Other players' bonuses drawn anew."""
    copy = state.clone()
    copy.bonus = [b if p == player else int(rng.choice(BONUSES)) for p, b in enumerate(state.bonus)]
    return copy


def auto_action(state: PigState, player: int) -> Action | None:
    return None


BOTS = BotRole(evaluate=evaluate, determinize=determinize, auto_action=auto_action)


# ---------------------------------------------------------------- measures: the lab


class PigMeasures:
    def __init__(self) -> None:
        self.busts = 0

    def before(self, state: PigState, action: Action) -> Any:
        return None

    def after(self, state: PigState, action: Action, token: Any) -> None:
        if isinstance(action, Face) and action.value == 1:
            self.busts += 1

    def result(self, state: PigState) -> dict[str, Any]:
        return {"busts": self.busts}


LAB = LabRole(
    measures=PigMeasures,
    names={"busts": ("turns lost to a 1 per game", "turni persi con un 1 per partita")},
    switch_measures={"target": ("busts",)},
    bots="greedy,greedy",
)


# ---------------------------------------------------------------- encoder: reinforcement learning


class PigFeatures:
    def __init__(self, state: PigState) -> None:
        self.actions: list[Action] = [Roll(), Hold()]
        self.layout = [("banked", state.n), ("turn", 2), ("bonus", 1)]

    def features(self, state: PigState, seat: int) -> list[float]:
        order = [(seat + k) % state.n for k in range(state.n)]
        own = state.bonus[seat] if seat < len(state.bonus) else 0
        return [state.banked[p] / 100 for p in order] + [state.turn_total / 100, state.rolls / 5, own / 2]


def make_encoder(state: PigState) -> PigFeatures:
    return PigFeatures(state)


ENCODER = EncoderRole(make_encoder=make_encoder)
