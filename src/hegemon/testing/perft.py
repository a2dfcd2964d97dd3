"""Perft: the number of action sequences to a depth from a position, every chance outcome one branch (nothing is
sampled), a finished game one leaf; with a per-move divide printed on a mismatch, as python-chess does."""

from __future__ import annotations

from collections.abc import Sequence

from hegemon.core.actions import Action
from hegemon.core.game import CHANCE, TERMINAL, State
from hegemon.testing.conformance import ConformanceError


def children(state: State) -> list[Action]:
    """Every branch from `state`: each chance outcome, or each legal action; none once the game is over."""
    player = state.current_player()
    if player == TERMINAL:
        return []
    if player == CHANCE:
        return [a for a, _ in state.chance_outcomes()]
    return state.legal_actions()


def perft(state: State, depth: int) -> int:
    """The number of action sequences of length `depth` from `state` (a finished game ends a sequence early)."""
    if depth == 0:
        return 1
    branches = children(state)
    if not branches:
        return 1
    if depth == 1:
        return len(branches)
    total = 0
    for action in branches:
        child = state.clone()
        child.apply(action)
        total += perft(child, depth - 1)
    return total


def divide(state: State, depth: int) -> list[tuple[str, int]]:
    """Perft split by the first action: (the action as text, sequences of length `depth` that begin with it)."""
    rows = []
    for action in children(state):
        child = state.clone()
        child.apply(action)
        rows.append((str(action), perft(child, depth - 1)))
    return rows


def check_perft(state: State, counts: Sequence[int], where: str = "") -> None:
    """`perft(state, d)` equals `counts[d - 1]` for every depth; on the first mismatch ConformanceError names the
    depth and lists the divide one level up (each first action with its count), so that the action whose
    subtree changed can be followed down."""
    for depth, want in enumerate(counts, start=1):
        got = perft(state, depth)
        if got != want:
            lines = "\n".join(f"  {text}: {n}" for text, n in divide(state, depth))
            raise ConformanceError(
                f"{where}perft({depth}) = {got}, expected {want} ({state.phase_name()}); divide:\n{lines}"
            )
