"""Property tests (Hypothesis): invariants of every reachable position under all four siege rules, replay and
clone determinism, and monotonicity of the siege odds."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from hegemon.core.game import CHANCE, TERMINAL
from hegemon.core.record import state_digest
from hegemon.games.polis.game import GAME
from hegemon.games.polis.odds import siege_odds
from hegemon.games.polis.options import SIEGE_RULES
from hegemon.games.polis.rules import common

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _invariants(st) -> None:
    b = st.board
    lim = b.round_limit[st.round]
    for s in (0, 1):
        assert min(st.res[s]) >= 0 and st.pp[s] >= 0
        assert common.pool(st, s) >= 0  # 45 cubes: population + units never exceed them
        assert all(0 <= n <= lim for n in st.units[s])
        assert 0 <= st.merchants_in_port[s] <= st.merchants[s] <= b.max_merchants
        for q in range(b.n_poleis):
            assert 0 <= st.discs[s][q] < b.p_fort[q]  # a completed stack is always resolved
            if st.discs[s][q] and st.siege_rule == 2:
                assert st.units[s][b.p_terr[q]] >= b.p_fort[q]  # diceless: checked at every moment
    for q in range(b.n_poleis):
        if st.owner[q] >= 0:
            assert st.pop[q] >= 1
        else:
            assert st.pop[q] == 0
        assert not (b.p_capital[q] and st.owner[q] < 0)
    assert all(1 <= p <= b.track_positions for p in st.market_markers)
    if st.battle_at >= 0:
        assert sum(st.deck) + sum(st.hands[0]) + sum(st.hands[1]) <= b.deck_size


@SETTINGS
@given(seed=st_.integers(0, 10**6), siege=st_.sampled_from(SIEGE_RULES), rich=st_.booleans())
def test_every_reachable_position_keeps_the_invariants(seed, siege, rich):
    rng = random.Random(seed)
    st = GAME.new_game({"siege": siege, "max_turns_per_round": 12})
    n = 0
    while st.current_player() != TERMINAL and n < 3000:
        if rich and st.phase_name() == "action" and st.n_actions == 0:
            for s in (0, 1):
                st.res[s] = [max(x, 5) for x in st.res[s]]
                st.pp[s] = max(st.pp[s], 5)
        p = st.current_player()
        if p == CHANCE:
            a = st.sample_chance(rng)
        else:
            legal = st.legal_actions()
            a = legal[rng.randrange(len(legal))]
        st.apply(a)
        _invariants(st)
        n += 1


@SETTINGS
@given(seed=st_.integers(0, 10**6), siege=st_.sampled_from(SIEGE_RULES), cut=st_.integers(0, 200))
def test_clone_and_replay_are_deterministic(seed, siege, cut):
    rng = random.Random(seed)
    st = GAME.new_game({"siege": siege})
    log = []
    while st.current_player() != TERMINAL and len(log) < cut:
        p = st.current_player()
        a = st.sample_chance(rng) if p == CHANCE else rng.choice(st.legal_actions())
        st.apply(a)
        log.append(a)
    again = GAME.new_game({"siege": siege})
    for a in log:
        again.apply(GAME.decode_action(a.to_json()))
    assert state_digest(again) == state_digest(st)
    twin = st.clone()
    assert state_digest(twin) == state_digest(st) and twin.legal_actions() == st.legal_actions()


@settings(max_examples=60, deadline=None)
@given(f=st_.integers(1, 4), h=st_.integers(0, 8), p=st_.integers(0, 6))
def test_siege_odds_are_monotone_and_sacrifice_dominates(f, h, p):
    c = Fraction(siege_odds(f, h, "classic", p)["success"]["fraction"])
    s = Fraction(siege_odds(f, h, "sacrifice", p)["success"]["fraction"])
    assert 0 <= c <= s <= 1
    assert Fraction(siege_odds(f, h + 1, "classic", p)["success"]["fraction"]) >= c
    assert Fraction(siege_odds(f, h, "classic", p + 1)["success"]["fraction"]) >= c
    if h >= f and p >= 1:
        assert c >= Fraction(5 - f, 4) if f > 1 else c == 1
    ds = siege_odds(f, h, "diceless_sacrifice", p)
    assert [pl["pp_spent"] + pl["actions"] for pl in ds["plans"]] == [f + 1] * f
