"""The PettingZoo environments pass PettingZoo's own API test; seeds reproduce episodes; masks are legal."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test

from hegemon.rl import make_env


@pytest.mark.parametrize(("game", "options"), [("polis", {}), ("spqrisiko", {"players": 3, "max_rounds": 6})])
def test_pettingzoo_api(game: str, options: dict[str, Any]) -> None:
    env = make_env(game, **options)
    api_test(env, num_cycles=300)


def _episode(env: Any, seed: int, steps: int) -> list[tuple[int, float]]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = []
    for _agent in env.agent_iter(steps):
        obs, _reward, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        a = int(rng.choice(legal))
        trace.append((a, float(obs["observation"].sum())))
        env.step(a)
    return trace


@pytest.mark.parametrize("game", ["polis", "spqrisiko"])
def test_seeded_reset_reproduces_and_masks_are_legal(game: str) -> None:
    env = make_env(game)
    a = _episode(env, 5, 400)
    b = _episode(env, 5, 400)
    assert a == b
    st = env.unwrapped.state_
    if not st.is_terminal():
        mask = env.observe(env.agent_selection)["action_mask"]
        legal = set(st.legal_actions())
        assert {env.unwrapped.actions[i] for i in np.flatnonzero(mask)} <= legal


def test_layout_matches_vector_and_hides_cards() -> None:
    env = make_env("spqrisiko", players=3)
    env.reset(seed=1)
    u = env.unwrapped
    obs = env.observe("player_0")["observation"]
    assert sum(n for _, n in u.observation_layout) == obs.shape[0]
    st = u.state_
    st.hands[1] = [2, 1, 0, 0]
    st.hands[0] = [0, 0, 0, 0]
    before = env.observe("player_0")["observation"]
    st.hands[1] = [0, 0, 1, 2]  # another player's symbols change, the count stays: invisible to player 0
    assert (env.observe("player_0")["observation"] == before).all()
    st.hands[0] = [1, 0, 0, 0]  # the observer's own hand is visible
    assert not (env.observe("player_0")["observation"] == before).all()
