"""The conformance suite over all four siege rules (DESIGN.md "Tests we want"): random playouts to the end,
legal actions never empty before the end, chance probabilities sum to 1, clone independence, JSON round trips,
same seed ⇒ same game (run_game + replay + state_digest), views leak nothing hidden, every game ends within
`max_actions`."""

from __future__ import annotations

import json
import random

import pytest

from hegemon.core.game import CHANCE, TERMINAL
from hegemon.core.play import derive_seed, sample_chance
from hegemon.core.record import GameRecord, replay, run_game, state_digest, verify
from hegemon.games import get_game
from hegemon.games.polis.game import GAME
from hegemon.games.polis.options import SIEGE_RULES
from hegemon.games.polis.state import PolisState


def perturb(state: PolisState, player: int) -> PolisState | None:
    """Another state differing from `state` only in what `player` cannot see: one card of the opponent's
    hand exchanged with a card of another kind from the deck."""
    if state.bt < 0:
        return None
    s = state.clone()
    hand = s.hands[1 - player]
    for i in range(len(hand)):
        for j in range(len(hand)):
            if i != j and hand[i] and s.deck[j]:
                hand[i] -= 1
                hand[j] += 1
                s.deck[i] += 1
                s.deck[j] -= 1
                return s
    return None


def _rich(state: PolisState) -> None:
    """Keep both sides solvent so that random play reaches battles and late rounds (test coverage only)."""
    for s in (0, 1):
        state.res[s] = [max(x, 6) for x in state.res[s]]
        state.pp[s] = max(state.pp[s], 6)


def _agent(seed: int, i: int):
    rng = random.Random(derive_seed(seed, "bot", i))

    def choose(state, player):
        legal = state.legal_actions()
        return legal[int(rng.random() * len(legal))]

    return choose


def test_registered_and_declared():
    g = get_game("polis")
    assert g is GAME and g.name == "polis" and isinstance(g.version, int)
    assert g.min_players == g.max_players == 2 and g.options_type.__name__ == "PolisOptions"


@pytest.mark.parametrize("siege", SIEGE_RULES)
@pytest.mark.parametrize("rich", [False, True], ids=["plain", "rich"])
def test_random_playouts_reach_the_end_with_sound_nodes(siege, rich):
    opts = GAME.parse_options({"siege": siege, "max_turns_per_round": 16 if rich else 60})
    bound = GAME.max_actions(opts)
    for seed in range(4 if rich else 12):
        rng = random.Random(seed)
        st = GAME.new_game(opts, seed)
        steps = 0
        while st.current_player() != TERMINAL:
            assert steps < bound
            p = st.current_player()
            if p == CHANCE:
                outs = st.chance_outcomes()
                assert outs and abs(sum(x for _, x in outs) - 1.0) < 1e-9 and all(x > 0 for _, x in outs)
                assert st.legal_actions() == []
                a = sample_chance(st, rng)
                assert a in [o for o, _ in outs]
            else:
                if rich and st.phase_name() == "action" and st.n_actions == 0:
                    _rich(st)
                legal = st.legal_actions()
                assert legal, f"no legal action in {st.phase_name()}"
                assert len(set(legal)) == len(legal)
                assert st.chance_outcomes() == []
                a = legal[int(rng.random() * len(legal))]
            st.apply(a)
            steps += 1
            for s in (0, 1):
                assert min(st.res[s]) >= 0 and st.pp[s] >= 0 and min(st.units[s]) >= 0
        out = st.outcome()
        assert out is not None and out.winners and set(out.winners) == set(out.ranking[0])


@pytest.mark.parametrize("siege", SIEGE_RULES)
def test_clone_independence_and_json_round_trip(siege):
    st = GAME.new_game({"siege": siege, "max_turns_per_round": 20})
    rng = random.Random(7)
    n = 0
    while st.current_player() != TERMINAL and n < 1500:
        p = st.current_player()
        if st.phase_name() == "action" and st.n_actions == 0:
            _rich(st)
        acts = [a for a, _ in st.chance_outcomes()] if p == CHANCE else st.legal_actions()
        for a in acts[:60]:
            assert GAME.decode_action(json.loads(json.dumps(a.to_json()))) == a
            assert str(a)
        if n % 13 == 0:
            before = state_digest(st)
            twin = st.clone()
            assert state_digest(twin) == before
            twin.apply(sample_chance(twin, rng) if p == CHANCE else acts[-1])
            assert state_digest(st) == before
        st.apply(sample_chance(st, rng) if p == CHANCE else acts[int(rng.random() * len(acts))])
        n += 1


@pytest.mark.parametrize("siege", SIEGE_RULES)
def test_same_seed_same_game_and_replay(siege):
    opts = GAME.parse_options({"siege": siege})
    s1, r1 = run_game(GAME, opts, 11, [_agent(11, 0), _agent(11, 1)])
    s2, r2 = run_game(GAME, opts, 11, [_agent(11, 0), _agent(11, 1)])
    assert r1.to_line() == r2.to_line() and state_digest(s1) == state_digest(s2)
    assert s1.is_terminal() and len(r1.actions) <= GAME.max_actions(opts)
    _, r3 = run_game(GAME, opts, 12, [_agent(12, 0), _agent(12, 1)])
    assert r3.to_line() != r1.to_line()
    again = GameRecord.from_line(r1.to_line())
    assert state_digest(replay(GAME, again)) == state_digest(s1)
    assert verify(GAME, again) == []


@pytest.mark.parametrize("siege", SIEGE_RULES)
def test_views_leak_no_hidden_information(siege):
    compared = 0
    for seed in range(6):
        st = GAME.new_game({"siege": siege, "max_turns_per_round": 20})
        rng = random.Random(seed)
        n = 0
        while st.current_player() != TERMINAL and n < 6000:
            if st.phase_name() == "action" and st.n_actions == 0:
                _rich(st)
            if st.bt >= 0 and n % 3 == 0:
                for p in (0, 1):
                    other = perturb(st, p)
                    if other is None:
                        continue
                    assert json.dumps(st.view(p), sort_keys=True) == json.dumps(other.view(p), sort_keys=True)
                    assert json.dumps(st.view(None), sort_keys=True) == json.dumps(other.view(None),
                                                                                  sort_keys=True)
                    assert state_digest(st) != state_digest(other)
                    compared += 1
            p = st.current_player()
            if p == CHANCE:
                a = sample_chance(st, rng)
                for viewer in (None, 0, 1):
                    seen = a.visible_to(viewer)
                    if seen != a:
                        assert "?" in json.dumps(seen.to_json())
            else:
                legal = st.legal_actions()
                v = st.view(p)
                assert v["legal_actions"] == [x.to_json() for x in legal]
                assert "legal_actions" not in st.view(1 - p)
                a = legal[int(rng.random() * len(legal))]
            st.apply(a)
            n += 1
    assert compared > 0
