"""Golden transcripts, one per siege rule (regenerate with `python scripts/make_polis_golden.py`): the engine
must replay every recorded action (checked `play`) and reach the recorded state digest after each one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hegemon.core.play import play
from hegemon.core.record import state_digest
from hegemon.games.polis.game import GAME
from hegemon.games.polis.options import SIEGE_RULES

GOLDEN = Path(__file__).with_name("golden")


@pytest.mark.parametrize("siege", SIEGE_RULES)
def test_engine_reproduces_the_golden_transcript(siege):
    lines = [json.loads(x) for x in (GOLDEN / f"{siege}.jsonl").read_text(encoding="utf-8").splitlines()]
    head, steps, foot = lines[0], lines[1:-1], lines[-1]
    assert head["game"] == "polis" and head["version"] == GAME.version and head["options"]["siege"] == siege
    st = GAME.new_game(GAME.parse_options(head["options"]), head["seed"])
    assert len(steps) > 20
    for step in steps:
        assert st.current_player() == step["player"], f"step {step['i']}"
        assert st.phase_name() == step["phase"], f"step {step['i']}"
        action = GAME.decode_action(step["action"])
        assert str(action) == step["text"]
        play(st, action)
        assert state_digest(st) == step["digest"], f"state differs after step {step['i']}: {step['text']}"
    out = st.outcome()
    assert out is not None and out.to_json() == foot["outcome"] and state_digest(st) == foot["digest"]
