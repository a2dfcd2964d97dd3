"""`rules/flow.py` is the only sequencer of a round (issue 14 item 3): no other module moves the round, a turn,
a battle's order or an end-of-round step; they set only the sub-steps inside their own action or battle."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import hegemon.games.polis as polis_pkg
from hegemon.core.game import CHANCE
from hegemon.core.play import sample_chance
from hegemon.games import get_game
from hegemon.games.polis.phase import CHANCE_PHASES, PHASE_NAMES, Phase
from hegemon.games.polis.rules import common

ROOT = Path(polis_pkg.__file__).parent

# the sub-steps each module may enter by itself (inside its own action or battle)
OWN_STEPS = {
    "rules/battle.py": {"BATTLE_DRAW", "RETREAT", "PLAY", "MATCH"},
    "rules/sieges.py": {"SIEGE_ROLL", "SACRIFICE_FORCE", "DS_FORCE", "GARRISON"},
    "rules/economy.py": {"TRADE_ROLL"},
    "rules/movement.py": {"MOVE"},
    "state.py": {"DRAW_PROJECT"},  # the initial value, before flow.begin_round
}
SEQUENCE_FIELDS = {"round", "round_end_stage", "turns", "passed", "turn_ender", "fought", "first"}


def _assignments(tree: ast.AST) -> list[tuple[str, ast.expr | None, int]]:
    """(attribute, value, line) of every assignment to an attribute."""
    out: list[tuple[str, ast.expr | None, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            targets: list[ast.expr] = []
            for t in node.targets:
                targets.extend(t.elts if isinstance(t, ast.Tuple) else [t])
            out += [(t.attr, node.value, node.lineno) for t in targets if isinstance(t, ast.Attribute)]
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Attribute):
            out.append((node.target.attr, node.value, node.lineno))
    return out


def test_only_flow_moves_the_round() -> None:
    files = sorted(ROOT.rglob("*.py"))
    assert any(f.name == "flow.py" for f in files) and len(files) > 10
    wrong = []
    for f in files:
        rel = f.relative_to(ROOT).as_posix()
        if rel == "rules/flow.py":
            continue
        for attr, value, line in _assignments(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(value, ast.Attribute) and value.attr == attr:
                continue  # a copy of the same field (clone)
            if attr == "phase":
                name = value.id if isinstance(value, ast.Name) else ast.dump(value) if value else "?"
                if name not in OWN_STEPS.get(rel, set()):
                    wrong.append(f"{rel}:{line} sets phase {name}")
            elif attr in SEQUENCE_FIELDS and rel != "state.py":  # state.py: the initial values
                wrong.append(f"{rel}:{line} sets {attr}")
    assert not wrong, wrong


def test_flow_enters_every_step_of_the_round() -> None:
    """Every phase that is not a sub-step of an action or a battle is entered in flow.py, and nowhere else."""
    round_steps = {
        "ACTION",
        "EXTRA",
        "BATTLE_CHOOSE",
        "DRAW_PROJECT",
        "DRAW_EVENT",
        "EVENT_REMOVE",
        "SUPPLY",
        "GROWTH",
        "PHOROS",
        "OVER",
    }
    owned = {s for rel, steps in OWN_STEPS.items() if rel != "state.py" for s in steps}
    assert sorted(getattr(common, n) for n in round_steps | owned) == list(range(len(common.PHASE_NAMES)))
    source = (ROOT / "rules" / "flow.py").read_text(encoding="utf-8")
    missing = [n for n in sorted(round_steps) if f"st.phase = {n}" not in source]
    assert not missing, missing


def test_phases_are_an_enum_with_a_table_of_legal_actions() -> None:
    """The phases are declared like S.P.Q.RisiKo!'s (issue 29 item 5): an IntEnum whose values are the record
    format's numbers, one display name each, and a table with the legal actions of every decision phase but the
    action menu; a game's state holds members of the enum while its JSON holds plain numbers."""
    from hegemon.games.polis import state as polis_state

    assert [int(p) for p in Phase] == list(range(len(PHASE_NAMES))) == list(range(20))
    assert (Phase.ACTION, Phase.MOVE, Phase.DRAW_PROJECT, Phase.OVER) == (0, 1, 13, 19)
    assert all(getattr(common, p.name) is p for p in Phase)
    decisions = set(Phase) - CHANCE_PHASES - {Phase.ACTION, Phase.OVER}
    assert set(polis_state._LEGAL) == decisions
    assert [polis_state._LEGAL.get(p) for p in Phase] == polis_state._LEGAL_BY_PHASE
    game = get_game("polis")
    rng = random.Random(7)
    seen = set()
    for seed in range(3):
        st = game.new_game(game.parse_options({"siege": ("classic", "diceless", "sacrifice")[seed]}), seed)
        while not st.is_terminal():
            assert isinstance(st.phase, Phase)
            seen.add(st.phase)
            data = st.to_json()
            assert type(data["phase"]) is int and data["phase"] == st.phase
            if st.current_player() == CHANCE:
                st.apply(sample_chance(st, rng))
            else:
                st.apply(rng.choice(st.legal_actions()))
        assert st.phase is Phase.OVER and st.legal_actions() == []
    assert {Phase.ACTION, Phase.MOVE, Phase.DRAW_PROJECT, Phase.SUPPLY} <= seen
