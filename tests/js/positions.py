"""Real positions for the client's unit tests (tests/js/*.test.mjs): the view a seated player receives, with its
legal actions, the first time each phase comes up in seeded random games of both games. Prints JSON
{game: {phase: view}}. Run by the tests themselves (`python tests/js/positions.py`), so they follow the engines."""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from hegemon.core.game import CHANCE, TERMINAL
from hegemon.core.play import play, sample_chance
from hegemon.games import get_game

# S.P.Q.RisiKo! twice: with the claiming of provinces at the start and with a random deal
SETUPS: dict[str, list[dict[str, Any]]] = {"spqrisiko": [{}, {"random_deal": True}], "polis": [{}]}


def positions(game: str, seeds: range = range(1, 6), steps: int = 1500) -> dict[str, dict[str, Any]]:
    g = get_game(game)
    out: dict[str, dict[str, Any]] = {}
    for options in SETUPS[game]:
        for seed in seeds:
            st = g.new_game(options, seed=seed)
            rng = random.Random(seed)
            for _ in range(steps):
                player = st.current_player()
                if player == TERMINAL:
                    break
                if player == CHANCE:
                    play(st, sample_chance(st, rng))
                    continue
                view = st.view(player)
                out.setdefault(str(view["phase"]), view)
                legal = st.legal_actions()
                play(st, legal[rng.randrange(len(legal))])
    return out


if __name__ == "__main__":
    json.dump({game: positions(game) for game in SETUPS}, sys.stdout)
