"""The incremental index (rules/index.py) agrees at every step with the position it summarises: provinces per
party, enemy neighbours, largest empires, sea control and the turn's scoring, recomputed from scratch."""

from __future__ import annotations

import random

import pytest

from hegemon.core import CHANCE, TERMINAL, sample_chance
from hegemon.games import get_game
from hegemon.games.spqrisiko.rules import index
from hegemon.games.spqrisiko.rules.common import competitors
from hegemon.games.spqrisiko.scoring import empire_sizes, next_scores, score_turn
from hegemon.games.spqrisiko.state import SpqrState

GAME = get_game("spqrisiko")


def check(st: SpqrState) -> None:
    fresh = st.clone()
    fresh.reindex()
    assert st.provs == fresh.provs
    assert st.ne == fresh.ne
    assert st.sea_ctrl == fresh.sea_ctrl
    assert st.seas_held == fresh.seas_held
    assert index.empire_sizes(st) == empire_sizes(st.board, st.owner)
    comp = competitors(st)
    alive = [p for p in range(st.n) if not st.eliminated[p]]
    sizes = empire_sizes(st.board, st.owner)
    expected = next_scores(st.board, st.owner, st.triremes, st.power_centre, alive, comp, sizes)
    assert index.next_scores(st, alive, comp) == expected
    assert index.next_vp(st, alive, comp) == {p: sum(v.values()) for p, v in expected.items()}
    for who in range(st.n):
        assert index.score(st, who, comp) == score_turn(
            st.board, st.owner, st.triremes, st.power_centre, who, comp
        )


@pytest.mark.parametrize(
    "raw",
    [
        {"rules": "house-1.2", "players": 4, "random_deal": True},
        {"rules": "official", "players": 3, "neutral_is_enemy": False, "neutrals_compete": True},
        {"rules": "house-1.2", "players": 5, "naval_move": "per_trireme", "garrison": "garrison_first"},
    ],
)
def test_index_matches_the_position_at_every_step(raw: dict) -> None:
    opts = GAME.parse_options({**raw, "max_rounds": 40})
    for seed in range(3):
        st = GAME.new_game(opts, seed)
        assert isinstance(st, SpqrState)
        rng = random.Random(seed)
        steps = 0
        while st.current_player() != TERMINAL:
            if steps % 3 == 0:
                check(st)
            if st.current_player() == CHANCE:
                st.apply(sample_chance(st, rng))
            else:
                legal = st.legal_actions()
                st.apply(legal[rng.randrange(len(legal))])
            steps += 1
        check(st)
        assert steps > 300
