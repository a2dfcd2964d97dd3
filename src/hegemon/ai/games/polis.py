"""What the bots know about Polis: a position evaluation (the final score — population, prestige and
posterity — plus units, resources, merchants, sieges within reach, the wheat the next supply needs and the
ostracism danger of an empty prestige track), the determinization of the opponent's combat cards, and
defaults for the sub-choices of a move."""

from __future__ import annotations

import math
import random
from typing import Any

from hegemon.core.actions import Action
from hegemon.core.game import PlayerId
from hegemon.games.polis import scoring
from hegemon.games.polis.board import SILVER, WHEAT
from hegemon.games.polis.rules import common

W_UNIT = 0.55
W_RESOURCE = 0.18
W_SILVER = 0.3
W_MERCHANT = 0.35
W_SIEGE = 0.35  # per fortification point of a polis the side could besiege now
W_DISC = 0.6  # per siege disc already placed (diceless rules)
W_HUNGER = 1.0  # per population cube the stored wheat cannot feed
W_STARVE = 4.0  # the capital could not be fed even with every prestige point (§9.1 case 1)
SCALE = 5.0


def strength(st: Any, s: int) -> float:
    """Side `s`'s strength in score points."""
    b = st.b
    o = 1 - s
    res = st.res[s]
    pop = common.population(st, s)
    v = float(scoring.score(st, s))
    v += W_UNIT * sum(st.units[s])
    v += W_RESOURCE * (sum(res) - res[SILVER]) + W_SILVER * res[SILVER]
    v += W_MERCHANT * st.merch_total[s]
    us, them = st.units[s], st.units[o]
    for q in range(b.n_poleis):
        if st.owner[q] != s and not b.p_capital[q]:
            t = b.p_terr[q]
            if us[t] >= b.p_fort[q] and us[t] > them[t]:
                v += W_SIEGE * b.p_fort[q]
            d = st.discs[s][q]
            if d:
                v += W_DISC * d
    short = pop - res[WHEAT]
    if short > 0:
        v -= W_HUNGER * short
        if st.pop[b.capital[s]] > res[WHEAT] + st.pp[s]:
            v -= W_STARVE
    pp = st.pp[s]
    if pp <= 0:
        v -= 6.0
    elif pp == 1:
        v -= 1.5
    return v


def evaluate(st: Any) -> list[float]:
    """[Athens, Sparta] values in [0, 1] summing to 1: the result at the end, else a logistic of the
    difference of strengths."""
    if st.phase == common.OVER:
        w = st.outcome().winners
        return [1.0 / len(w) if p in w else 0.0 for p in (0, 1)]
    d = strength(st, 0) - strength(st, 1)
    v = 1.0 / (1.0 + math.exp(-d / SCALE))
    return [v, 1.0 - v]


def determinize(st: Any, player: PlayerId, rng: random.Random) -> Any:
    """A copy where the opponent's combat cards are dealt again from the cards `player` has not seen (the
    deck plus that hand — only their total per kind is used), keeping the hand's size. Everything else in
    Polis is public or has no order in the state (project stack, event piles are drawn as chance)."""
    c = st.clone()
    if player not in (0, 1) or st.bt < 0:
        return c
    o = 1 - player
    k = len(st.deck)
    unseen = [st.deck[i] + st.hands[o][i] for i in range(k)]
    size = sum(st.hands[o])
    cards = [i for i in range(k) for _ in range(unseen[i])]
    rng.shuffle(cards)
    hand = [0] * k
    for i in cards[:size]:
        hand[i] += 1
    deck = [0] * k
    for i in cards[size:]:
        deck[i] += 1
    c.hands[o] = hand
    c.deck = deck
    return c


def auto_action(st: Any, player: PlayerId) -> Action | None:
    """Defaults for the sub-choices of a move the greedy bot has started: bring every unit the move may take,
    then end it."""
    if st.phase == common.MOVE:
        actions = st.legal_actions()
        steps = [a for a in actions if a.kind == "move_from"]
        if steps:
            return max(steps, key=lambda a: a.count)
        return actions[-1]
    return None


# search settings for this game, measured against greedy (see ai/README.md): plain expansion beats widening
# here; with the default prior weight and exploration the search spent nearly all its visits on the prior's
# first action (about greedy's move), a stronger fading prior with more exploration looks at the runners-up
# (mcts:hard vs greedy 56% -> 75% on the same 80 deals)
MCTS_DEFAULTS = {"inner_prior": False, "widen": False, "exploration": 0.5, "prior_weight": 3.0}
