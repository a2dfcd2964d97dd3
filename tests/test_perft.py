"""Perft counts (tests/perft/<game>.json, regenerate with `python scripts/make_perft.py`): from fixed seeded
positions, the number of action sequences to a fixed depth, chance outcomes enumerated as branches, is
recomputed and must match the checked-in numbers exactly."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from hegemon.core.record import state_digest
from hegemon.games import game_names, get_game
from hegemon.testing import ConformanceError, check_perft, children, divide, perft

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("make_perft", ROOT / "scripts" / "make_perft.py")
assert spec is not None and spec.loader is not None
make_perft = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_perft)


def test_every_game_has_a_perft_file() -> None:
    assert set(make_perft.POSITIONS) == set(game_names())
    for name in game_names():
        assert (ROOT / "tests" / "perft" / f"{name}.json").is_file()


@pytest.mark.parametrize("name", sorted(make_perft.POSITIONS))
def test_perft_counts_are_reproduced(name: str) -> None:
    text = (ROOT / "tests" / "perft" / f"{name}.json").read_text(encoding="utf-8")
    expected = json.loads(text)
    assert expected["game"] == name and expected["version"] == get_game(name).version
    rows = expected["positions"]
    assert len(rows) == len(make_perft.POSITIONS[name]) >= 5
    for row, (raw, seed, steps, depth) in zip(rows, make_perft.POSITIONS[name], strict=True):
        assert (row["options"], row["seed"], row["advance"]) == (raw, seed, steps)
        state = make_perft.position(name, raw, seed, steps)
        before = state_digest(state)
        assert before == row["digest"], f"{name} seed {seed}: the position itself changed"
        assert state.phase_name() == row["phase"]
        assert len(row["counts"]) == depth
        check_perft(state, row["counts"], f"{name} seed {seed} after {steps} steps: ")
        assert state_digest(state) == before, "counting changed the position"
    assert make_perft.render(expected) == text


def test_perft_counts_each_chance_outcome_and_each_legal_action_as_a_branch() -> None:
    state = make_perft.position("spqrisiko", {"rules": "official", "players": 4, "random_deal": True}, 3, 54)
    outcomes = state.chance_outcomes()
    assert len(outcomes) > 1 and perft(state, 1) == len(outcomes)
    assert perft(state, 0) == 1
    total = 0
    for action, _ in outcomes:
        child = state.clone()
        child.apply(action)
        total += len(children(child)) or 1
    assert perft(state, 2) == total


def test_a_perft_mismatch_names_the_depth_and_prints_the_divide() -> None:
    """As python-chess: a wrong count shows each first action with its own count, which sum to the total."""
    state = make_perft.position("polis", {"siege": "classic"}, 5, 12)
    real = [perft(state, d) for d in (1, 2)]
    rows = divide(state, 2)
    assert len(rows) == len(children(state)) and sum(n for _, n in rows) == real[1]
    with pytest.raises(ConformanceError) as e:
        check_perft(state, [real[0], real[1] + 1], "here: ")
    text = str(e.value)
    assert text.startswith(f"here: perft(2) = {real[1]}, expected {real[1] + 1}")
    assert all(f"  {action}: {n}" in text for action, n in rows)
    check_perft(state, real)  # the right counts pass
