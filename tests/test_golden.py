"""The golden playthroughs of every game (tests/golden/*.jsonl, regenerate with `python scripts/make_golden.py`):
the engine replays every recorded action through the checked `play`, offers exactly the recorded legal actions
(or chance outcomes) at each step, and reaches the recorded state digest after each action and the recorded
outcome at the end."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from hegemon.core.game import CHANCE
from hegemon.core.play import play
from hegemon.core.record import state_digest
from hegemon.games import game_names, get_game

ROOT = Path(__file__).resolve().parent.parent
GOLDEN_DIR = ROOT / "tests" / "golden"
spec = importlib.util.spec_from_file_location("make_golden", ROOT / "scripts" / "make_golden.py")
assert spec is not None and spec.loader is not None
make_golden = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_golden)


def test_every_game_and_file_is_covered() -> None:
    assert {game for game, _, _, _ in make_golden.GOLDEN.values()} == set(game_names())
    assert {p.stem for p in GOLDEN_DIR.glob("*.jsonl")} == set(make_golden.GOLDEN)
    assert not list(GOLDEN_DIR.glob("*.txt")), "a golden file in an old format is left over"


@pytest.mark.parametrize("name", sorted(make_golden.GOLDEN))
def test_engine_reproduces_the_golden_playthrough(name: str) -> None:
    text = (GOLDEN_DIR / f"{name}.jsonl").read_text(encoding="utf-8")
    lines = [json.loads(x) for x in text.splitlines()]
    game_name, raw, count, wanted = make_golden.GOLDEN[name]
    heads = [i for i, x in enumerate(lines) if "game" in x]
    assert len(heads) == count and heads[0] == 0
    for start, end in zip(heads, [*heads[1:], len(lines)], strict=True):
        head, steps, foot = lines[start], lines[start + 1 : end - 1], lines[end - 1]
        game = get_game(game_name)
        assert head["game"] == game_name and head["version"] == game.version and head["options"] == raw
        state = game.new_game(game.parse_options(head["options"]), head["seed"])
        assert len(steps) > 20
        for step in steps:
            where = f"{name} seed {head['seed']} step {step['i']} ({step['text']})"
            assert state.current_player() == step["player"], where
            assert state.phase_name() == step["phase"], where
            action = game.decode_action(step["action"])
            assert str(action) == step["text"], where
            if step["player"] == CHANCE:
                outcomes = state.chance_outcomes()
                assert step["chance"] == {
                    "n": len(outcomes),
                    "p": next(p for a, p in outcomes if a == action),
                    "outcomes": make_golden._outcomes_digest(outcomes),
                }, where
            else:
                assert [make_golden.compact(a) for a in state.legal_actions()] == step["legal"], where
            play(state, action)
            assert state_digest(state) == step["digest"], f"state differs after {where}"
        out = state.outcome()
        assert out is not None and out.to_json() == foot["outcome"] and state_digest(state) == foot["digest"]
    assert wanted <= {x["action"]["type"] for x in lines[1 : heads[1] - 1 if count > 1 else -1]}


def test_generator_reproduces_the_files_byte_for_byte() -> None:
    for name in ("spqrisiko-official-3p", "polis-classic"):
        assert make_golden.golden(name) == (GOLDEN_DIR / f"{name}.jsonl").read_text(encoding="utf-8")
