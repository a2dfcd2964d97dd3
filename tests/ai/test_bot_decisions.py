"""A bot asked to choose always gets a clear answer: one of the legal actions, or NoDecisionError where the
player has nothing to decide. (Once `MctsBot.choose` raised `min() arg is an empty sequence` on a Polis
position: the root's candidates came only from a sampled determinization's legal actions, so a sample
offering none left the root empty. The candidates now come from the real position.)"""

from __future__ import annotations

import random
from typing import Any

import pytest

from hegemon.ai import GreedyBot, MctsBot, make_bot
from hegemon.ai.base import NoDecisionError
from hegemon.ai.games import polis as polis_know
from hegemon.core.game import CHANCE, TERMINAL
from hegemon.core.play import sample_chance
from hegemon.games import get_game

RULES = ("classic", "sacrifice", "diceless", "diceless_sacrifice")


def first_chance_node(rule: str = "classic") -> Any:
    g = get_game("polis")
    st = g.new_game(g.parse_options({"siege": rule}), 5)
    assert st.current_player() == CHANCE  # a game begins by drawing projects
    return st


def first_decision(rule: str, seed: int) -> Any:
    g = get_game("polis")
    st = g.new_game(g.parse_options({"siege": rule}), seed)
    rng = random.Random(seed)
    while st.current_player() == CHANCE:
        st.apply(sample_chance(st, rng))
    return st


@pytest.mark.parametrize("spec", ["greedy", "mcts:10"])
def test_no_decision_is_a_clear_error(spec: str) -> None:
    st = first_chance_node()
    bot = make_bot(spec, 1)
    with pytest.raises(NoDecisionError, match="no decision"):
        bot.choose(st, 0)
    d = first_decision("classic", 5)
    other = 1 - d.current_player()
    with pytest.raises(NoDecisionError, match=f"player {other}"):
        bot.choose(d, other)


def test_mcts_root_never_empty_when_the_sample_offers_no_action(monkeypatch: pytest.MonkeyPatch) -> None:
    """A determinization whose legal actions are empty (here: every sample is a chance node) used to leave
    `min()` nothing to rank; the root now ranks the real position's actions and the search still answers."""
    st = first_decision("diceless_sacrifice", 7)
    p = st.current_player()
    chance = first_chance_node("diceless_sacrifice")
    monkeypatch.setattr(polis_know, "determinize", lambda state, player, rng: chance.clone())
    a = MctsBot(3, iterations=20, time_limit=None).choose(st, p)
    assert a in st.legal_actions()
    g = GreedyBot(3).choose(st, p)
    assert g in st.legal_actions()


@pytest.mark.parametrize("rule", RULES)
def test_mcts_answers_every_decision_of_whole_games(rule: str) -> None:
    """Whole games under each siege rule (mcts against greedy, with random moves mixed in to reach odd
    positions: battles, forcing, garrisons, the extra resource after a pass): every answer is legal."""
    g = get_game("polis")
    for seed in (1, 2):
        st = g.new_game(g.parse_options({"siege": rule}), seed)
        rng = random.Random(seed)
        bots = [MctsBot(seed, iterations=4, time_limit=None), GreedyBot(seed)]
        phases = set()
        for _ in range(6000):
            p = st.current_player()
            if p == TERMINAL:
                break
            if p == CHANCE:
                st.apply(sample_chance(st, rng))
                continue
            legal = st.legal_actions()
            a = rng.choice(legal) if rng.random() < 0.3 else bots[p].choose(st, p)
            assert a in legal
            phases.add(st.phase_name())
            st.apply(a)
        assert st.current_player() == TERMINAL
        assert {"action", "move"} <= phases
