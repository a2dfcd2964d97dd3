"""The bots' S.P.Q.RisiKo! knowledge takes the rules from the scoring module (issue 14 item 5): the VP the next
scoring would give is `score_turn` over the engine's competitors, so `neutrals_compete` counts [R 5.6, U5]."""

from __future__ import annotations

import dataclasses
import random

from hegemon.ai.games import spqrisiko as know
from hegemon.core.game import CHANCE
from hegemon.core.play import sample_chance
from hegemon.games import get_game
from hegemon.games.spqrisiko.rules.common import competitors
from hegemon.games.spqrisiko.scoring import NEUTRAL, empire_sizes, next_scores, score_turn
from hegemon.games.spqrisiko.state import SpqrState


def _after_setup(neutrals_compete: bool, seed: int = 1) -> SpqrState:
    """A 3-player official game (18 neutral provinces, 9 each) just after the deal, played by random choices;
    then player 0 takes one neutral province: 10 provinces, the most of any player, fewer than the neutrals."""
    game = get_game("spqrisiko")
    opts = game.parse_options({"players": 3, "rules": "official", "random_deal": True})
    st = game.new_game(dataclasses.replace(opts, neutrals_compete=neutrals_compete), seed)
    rng = random.Random(seed)
    while st.round < 1 or st.phase_name() in ("setup_order", "setup_deal", "setup_claim", "setup_neutral"):
        if st.current_player() == CHANCE:
            st.apply(sample_chance(st, rng))
        else:
            st.apply(rng.choice(st.legal_actions()))
    assert isinstance(st, SpqrState)
    st.owner[st.owner.index(NEUTRAL)] = 0
    st.reindex()  # owner was written directly
    return st


def _next_vp(st: SpqrState, player: int) -> int:
    sizes = empire_sizes(st.board, st.owner)
    return sum(
        score_turn(st.board, st.owner, st.triremes, st.power_centre, player, competitors(st), sizes).values()
    )


def test_strengths_count_neutrals_when_they_compete() -> None:
    """The same position valued with and without competing neutrals differs exactly by the next scoring's VP."""
    plain = _after_setup(False)
    rival = plain.clone()
    rival.opts = dataclasses.replace(plain.opts, neutrals_compete=True)
    assert NEUTRAL in competitors(rival) and NEUTRAL not in competitors(plain)
    a, b = know.strengths(plain), know.strengths(rival)
    for p in range(plain.n):
        gap = _next_vp(plain, p) - _next_vp(rival, p)
        assert abs((a[p] - b[p]) - know.W_NEXT * gap) < 1e-9
    # player 0's "most provinces" VP [R 5.6.2] goes when the 17 neutral provinces compete (U5)
    assert _next_vp(plain, 0) - _next_vp(rival, 0) >= 1
    assert a[0] - b[0] >= know.W_NEXT - 1e-9


def test_next_scores_agrees_with_score_turn_along_random_games() -> None:
    """`next_scores` (every player at once, for the bots) gives exactly `score_turn` of each player [R 5.6], with
    and without competing neutrals, eliminated players included, at every 25th action of random games."""
    game = get_game("spqrisiko")
    checked = 0
    for seed, (rules, players, compete) in enumerate(
        [("official", 3, True), ("house-1.2", 4, False), ("official", 5, True)]
    ):
        opts = game.parse_options({"players": players, "rules": rules, "random_deal": True, "max_rounds": 8})
        st = game.new_game(dataclasses.replace(opts, neutrals_compete=compete), seed)
        assert isinstance(st, SpqrState)
        rng = random.Random(seed)
        step = 0
        while not st.is_terminal():
            if step % 25 == 0:
                b, parties = st.board, competitors(st)
                sizes = empire_sizes(b, st.owner)
                everyone = list(range(st.n))
                got = next_scores(b, st.owner, st.triremes, st.power_centre, everyone, parties, sizes)
                for p in everyone:
                    assert got[p] == score_turn(
                        b, st.owner, st.triremes, st.power_centre, p, parties, sizes
                    ), (seed, step, p)
                    assert got[p] == score_turn(b, st.owner, st.triremes, st.power_centre, p, parties), (
                        seed,
                        step,
                        p,
                    )
                checked += 1
            st.apply(
                sample_chance(st, rng) if st.current_player() == CHANCE else rng.choice(st.legal_actions())
            )
            step += 1
    assert checked > 30
