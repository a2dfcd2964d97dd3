"""Driving a state: the checked `play`, seeded chance sampling and random playouts."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable

from hegemon.core.actions import Action
from hegemon.core.errors import IllegalActionError, Refusal
from hegemon.core.game import CHANCE, TERMINAL, State, chance_sampler, refusal_explainer


def play(state: State, action: Action) -> None:
    """Apply `action` after checking it is legal now; raise IllegalActionError naming phase and player."""
    player = state.current_player()
    if player == TERMINAL:
        raise IllegalActionError("the game is over", phase="game over", player=None)
    legal = state.chance_outcomes() if player == CHANCE else None
    if legal is not None:
        if not any(a == action for a, _ in legal):
            raise IllegalActionError(
                f"{action} is not a possible chance outcome in phase {state.phase_name()}",
                phase=state.phase_name(),
                player=player,
            )
    elif action not in state.legal_actions():
        why = why_illegal(state, action)
        where = f"[{why.rule}] " if why.rule else ""
        raise IllegalActionError(
            f"{action} is not legal for player {player} in phase {state.phase_name()}: {where}{why.text}",
            phase=state.phase_name(),
            player=player,
            refusal=why,
        )
    state.apply(action)


def why_illegal(state: State, action: Action) -> Refusal:
    """Why an action that is not legal now is refused: the game's own `explain_illegal` when it has one, else
    what kinds of action are legal instead (reason id `legal_now`)."""
    explainer = refusal_explainer(state)
    if explainer is not None:
        return explainer.explain_illegal(action)
    kinds = sorted({a.kind for a in state.legal_actions()})
    return Refusal("", "legal_now", "legal now: " + (", ".join(kinds) or "nothing"), {"kinds": kinds})


def sample_chance(state: State, rng: random.Random) -> Action:
    """Draw a chance outcome with `rng`: the state's own fast sampler if it has one, else by probability."""
    sampler = chance_sampler(state)
    if sampler is not None:
        return sampler.sample_chance(rng)
    return weighted_choice(state.chance_outcomes(), rng)


def weighted_choice(outcomes: list[tuple[Action, float]], rng: random.Random) -> Action:
    """One outcome of `[(action, probability)]` drawn with `rng` (one `random()` call)."""
    r = rng.random()
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if r < acc:
            return action
    return outcomes[-1][0]


def derive_seed(*parts: object) -> int:
    """A 63-bit seed derived deterministically from any parts (sweep, cell, replica, seat…)."""
    digest = hashlib.sha256(repr(parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


Policy = Callable[[State], Action]


def playout(
    state: State,
    rng: random.Random,
    policy: Policy | None = None,
    max_actions: int | None = None,
    on_action: Callable[[State, Action], None] | None = None,
) -> int:
    """Play `state` to the end (or `max_actions`), chance by `rng`, decisions by `policy` (uniform random
    by default). Uses the fast unchecked `apply`. Returns the number of atomic actions applied."""
    n = 0
    # the state's methods and the generator's draw looked up once (the loop runs ~1,000 times a game)
    current, legal, apply, draw = state.current_player, state.legal_actions, state.apply, rng.random
    own = chance_sampler(state)
    sampler = own.sample_chance if own is not None else None
    while True:
        player = current()
        if player == TERMINAL or (max_actions is not None and n >= max_actions):
            return n
        if player == CHANCE:
            action = sampler(rng) if sampler is not None else weighted_choice(state.chance_outcomes(), rng)
        elif policy is None:
            actions = legal()
            action = actions[int(draw() * len(actions))]
        else:
            action = policy(state)
        if on_action is not None:
            on_action(state, action)
        apply(action)
        n += 1
