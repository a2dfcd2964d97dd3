#!/usr/bin/env python3
"""Regenerate the perft count files (tests/perft/<game>.json), in the manner of python-chess's perft data.

For a few fixed positions per game (a seeded game advanced a fixed number of steps by a seeded random policy
that never picks an action of type "pass" while another is offered), the file records the number of distinct
action sequences of length 1..depth from that position. Chance nodes are enumerated exactly: every outcome of `chance_outcomes()` counts as
one branch, whatever its probability (nothing is sampled). A finished game counts as one sequence (a leaf), as
in chess perft a mated position at depth 0. `tests/test_perft.py` recomputes every count, so a change in what is
legal anywhere near those positions shows up as a different number.

    python scripts/make_perft.py            # rewrite tests/perft/*.json
    python scripts/make_perft.py --check    # exit 1 if the engine no longer reproduces them
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from hegemon.core.game import CHANCE, TERMINAL, State
from hegemon.core.play import derive_seed, sample_chance
from hegemon.core.record import state_digest
from hegemon.games import get_game
from hegemon.testing import perft

OUT = Path(__file__).resolve().parent.parent / "tests" / "perft"

# game -> positions: (options, seed, steps to advance, depth); depths chosen so each game checks in seconds
POSITIONS: dict[str, list[tuple[dict[str, Any], int, int, int]]] = {
    "spqrisiko": [
        ({"rules": "house-1.2", "players": 3, "random_deal": True}, 1, 0, 3),  # order of play
        ({"rules": "official", "players": 4, "random_deal": True}, 3, 54, 3),  # land attack: roll
        ({"rules": "official", "players": 4, "random_deal": True}, 3, 207, 3),  # sea attack: declare
        ({"rules": "official", "players": 4, "random_deal": True}, 3, 294, 3),  # naval combat: roll
        ({"rules": "house-1.2", "players": 5, "random_deal": True}, 4, 294, 3),  # land attack: move in
        ({"rules": "official", "players": 3, "random_deal": False}, 5, 150, 3),  # land attacks
    ],
    "polis": [
        ({"siege": "classic"}, 1, 0, 3),  # project draw
        ({"siege": "classic"}, 5, 12, 3),  # market roll
        ({"siege": "sacrifice"}, 2, 12, 3),  # action
        ({"siege": "sacrifice"}, 6, 63, 3),  # phoros
        ({"siege": "diceless"}, 7, 72, 3),  # garrison
        ({"siege": "diceless"}, 7, 102, 3),  # supply
        ({"siege": "diceless_sacrifice"}, 4, 40, 3),  # move
    ],
}


def position(game_name: str, raw: dict[str, Any], seed: int, steps: int) -> State:
    """The seeded game `seed` advanced `steps` actions by a seeded random policy that passes only when it must
    (chance drawn with the same generator)."""
    game = get_game(game_name)
    state = game.new_game(game.parse_options(raw), seed)
    rng = random.Random(derive_seed("perft", game_name, seed))
    for _ in range(steps):
        player = state.current_player()
        if player == TERMINAL:
            break
        if player == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        legal = state.legal_actions()
        active = [a for a in legal if a.to_json().get("type") != "pass"] or legal
        state.apply(active[rng.randrange(len(active))])
    return state


def counts(game_name: str) -> dict[str, Any]:
    """The perft file of one game."""
    game = get_game(game_name)
    rows = []
    for raw, seed, steps, depth in POSITIONS[game_name]:
        state = position(game_name, raw, seed, steps)
        rows.append(
            {
                "options": raw,
                "seed": seed,
                "advance": steps,
                "phase": state.phase_name(),
                "digest": state_digest(state),
                "counts": [perft(state, d) for d in range(1, depth + 1)],
            }
        )
    return {
        "game": game_name,
        "version": game.version,
        "chance": "every outcome is one branch",
        "positions": rows,
    }


def render(data: dict[str, Any]) -> str:
    head = {k: v for k, v in data.items() if k != "positions"}
    body = ",\n".join("    " + json.dumps(row, sort_keys=True) for row in data["positions"])
    return json.dumps(head, sort_keys=True)[:-1] + ', "positions": [\n' + body + "\n]}\n"


def main() -> int:
    check = "--check" in sys.argv
    bad = 0
    OUT.mkdir(parents=True, exist_ok=True)
    for name in POSITIONS:
        path = OUT / f"{name}.json"
        text = render(counts(name))
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                print(f"{path}: differs")
                bad += 1
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
