"""Hypothesis over seeds and options: invariants that hold at every step of any S.P.Q.RisiKo! game."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hegemon.core import CHANCE, TERMINAL, sample_chance
from hegemon.games import get_game
from hegemon.games.spqrisiko.scoring import FREE

GAME = get_game("spqrisiko")

options = st.fixed_dictionaries(
    {
        "rules": st.sampled_from(["house-1.2", "official"]),
        "players": st.integers(3, 5),
        "random_deal": st.booleans(),
        "naval_move": st.sampled_from(["single_group", "per_trireme"]),
        "garrison": st.sampled_from(["move_in_first", "garrison_stop", "garrison_first"]),
        "sets_per_turn": st.sampled_from([1, 2, None]),
        "max_rounds": st.integers(3, 12),
    }
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=options, seed=st.integers(0, 2**32))
def test_invariants_hold_at_every_step(raw: dict, seed: int) -> None:
    state = GAME.new_game(GAME.parse_options(raw), seed)
    rng = random.Random(seed)
    board = state.board
    deck_size = sum(board.deck)
    last_vp = list(state.vp)
    steps = 0
    while state.current_player() != TERMINAL:
        # the 55 cards are always somewhere: deck, discards or hands
        assert sum(state.deck) + sum(state.discard) + sum(map(sum, state.hands)) == deck_size
        assert all(c >= 0 for c in state.deck) and all(c >= 0 for h in state.hands for c in h)
        assert all(t >= 0 for row in state.triremes for t in row)
        # VP never decrease; power centres: at most 12, never two land-adjacent [R 16.4]
        assert all(v >= w for v, w in zip(state.vp, last_vp, strict=True))
        last_vp = list(state.vp)
        pcs = [p for p in range(board.n_provinces) if state.power_centre[p]]
        assert len(pcs) <= state.opts.power_centres
        assert not any(q in pcs for p in pcs for q in board.land[p])
        if state.round >= 1 and state.phase_name() != "land attack: move in":
            # every held province keeps at least one legionary [R 14.1]
            assert all(state.armies[p] >= 1 for p in range(board.n_provinces) if state.owner[p] != FREE)
        # eliminated players hold nothing [R 18]
        for p in range(state.n):
            if state.eliminated[p]:
                assert p not in state.owner and sum(state.triremes[p]) == 0 and sum(state.hands[p]) == 0
        if state.current_player() == CHANCE:
            action = sample_chance(state, rng)
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        state.apply(action)
        steps += 1
    out = state.outcome()
    assert out is not None
    assert state.round <= raw["max_rounds"] + 1
    assert steps <= GAME.max_actions(state.opts)
