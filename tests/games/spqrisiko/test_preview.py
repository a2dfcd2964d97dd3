"""What a card set, building or disbanding a trireme and a bonus cost and bring, before the click."""

from __future__ import annotations

import random

from hegemon.core.game import CHANCE, TERMINAL
from hegemon.games.spqrisiko.game import GAME
from hegemon.games.spqrisiko.preview import PREVIEWED, effects


def test_reinforcement_choices_name_their_cost_and_effect() -> None:
    rng = random.Random(3)
    st = GAME.new_game(None, 1)
    seen: dict[str, dict[str, int]] = {}
    for _ in range(20000):
        cp = st.current_player()
        if cp == TERMINAL:
            break
        if cp == CHANCE:
            st.apply(st.sample_chance(rng))
            continue
        legal = st.legal_actions()
        v = st.view(cp)
        eff = v.get("action_effects")
        if eff is not None:
            assert len(eff) == len(legal)
            for a, e in zip(legal, eff, strict=True):
                assert (e is None) == (a.kind not in PREVIEWED)
                if e is not None:
                    seen.setdefault(a.kind, e)
        st.apply(rng.choice(legal))
    assert seen["build"] == {"legionaries": -3, "triremes": 1}
    assert seen["disband"] == {"legionaries": 2, "triremes": -1}
    # a set: its cards go, its legionaries are counted without the turn's own reinforcements
    assert seen["trade_set"]["cards"] == -3 and seen["trade_set"]["pool"] in (8, 10, 12, 14, 16)


def test_no_effects_when_nothing_is_previewed() -> None:
    st = GAME.new_game(None, 1)
    assert effects(st, []) == []
    assert "action_effects" not in st.view(None)
