"""What the bots know about S.P.Q.RisiKo!: a position evaluation (victory points, the scoring each player is
about to collect, provinces, legionaries, triremes, cards, exposed frontiers), the determinization of the
hidden cards, and the defaults for the sub-choices of attacks and moves."""

from __future__ import annotations

import math
import random
from typing import Any

from hegemon.core.actions import Action
from hegemon.core.game import PlayerId
from hegemon.core.roles import BotRole
from hegemon.games.spqrisiko import actions as A
from hegemon.games.spqrisiko import state as S
from hegemon.games.spqrisiko.rules import index
from hegemon.games.spqrisiko.rules.common import competitors
from hegemon.games.spqrisiko.state import SpqrState

NEUTRAL = -1

# weights of the strength of a player (in "victory points"); tuned by greedy-vs-random and mirror matches
W_VP = 1.0
W_NEXT = 0.9  # the VP the player scores at its next turn if nothing changes [R 5.6]
W_PROVINCE = 0.22
W_ARMY = 0.05
W_TRIREME = 0.12
W_CARD = 0.1
W_EMPIRE = 0.06
W_EXPOSED = 0.12
TEMPERATURE = 1.6


TERMS: tuple[str, ...] = ("vp", "next", "provinces", "legionaries", "triremes", "cards", "empire", "exposed")
"""The terms of a player's strength (`terms`), in order; `WEIGHTS` weighs them."""

WEIGHTS: tuple[float, ...] = (W_VP, W_NEXT, W_PROVINCE, W_ARMY, W_TRIREME, W_CARD, W_EMPIRE, -W_EXPOSED)


def terms(st: SpqrState) -> list[tuple[float, ...] | None]:
    """The terms of each player's strength (`TERMS`: victory points, the VP of the next scoring, provinces,
    legionaries with the active player's pool, triremes, cards in hand, empire provinces, exposed frontier
    provinces); None for an eliminated player. Provinces, empires, seas and the next scoring come from the
    engine's incremental index (rules/index.py), kept up to date by the rules."""
    n = st.n
    owner = st.owner
    armies = st.armies
    land = st.board.land
    ne = st.ne
    provs = st.provs
    legions = [0] * n
    exposed = [0] * n
    for o in range(n):
        total = 0
        ex = 0
        for p in provs[o]:
            a = armies[p]
            total += a
            if ne[
                p
            ]:  # exposed: a player's neighbour holds more legionaries (only a frontier province can be)
                for q in land[p]:
                    if armies[q] > a:
                        oq = owner[q]
                        if oq >= 0 and oq != o:
                            ex += 1
                            break
        legions[o] = total
        exposed[o] = ex
    tri = st.triremes
    alive = [p for p in range(n) if not st.eliminated[p]]
    # the VP the next scoring would give, by the engine's own rule (neutrals compete when the options say so)
    nxt = index.next_vp(st, alive, competitors(st))
    empire = index.empires(st)
    out: list[tuple[float, ...] | None] = [None] * n
    active = st.order[st.turn] if st.order else -1
    for p in alive:
        out[p] = (
            st.vp[p],
            nxt[p],
            len(provs[p]),
            legions[p] + (st.pool if p == active else 0),
            sum(tri[p]),
            sum(st.hands[p]),
            empire[p],
            exposed[p],
        )
    return out


def strengths(st: SpqrState) -> list[float]:
    """A strength per player (higher is better): its `terms` weighed by `WEIGHTS`; eliminated players get
    -inf."""
    w0, w1, w2, w3, w4, w5, w6, w7 = WEIGHTS
    return [
        -math.inf
        if t is None
        else w0 * t[0] + w1 * t[1] + w2 * t[2] + w3 * t[3] + w4 * t[4] + w5 * t[5] + w6 * t[6] + w7 * t[7]
        for t in terms(st)
    ]


def evaluate(st: SpqrState) -> list[float]:
    """Every player's value in [0, 1], summing to 1: the result at the end, else a softmax of strengths."""
    out = st.terminal
    n = st.n
    if out is not None:
        w = out.winners
        return [1.0 / len(w) if p in w else 0.0 for p in range(n)]
    s = strengths(st)
    top = max(s)
    target = st.opts.vp_target
    # close to the VP target the lead matters more: sharpen the softmax
    temp = TEMPERATURE
    if target is not None:
        temp *= max(0.35, 1.0 - max(st.vp) / (1.5 * target))
    e = [math.exp((x - top) / temp) if x != -math.inf else 0.0 for x in s]
    z = sum(e)
    return [x / z for x in e]


def determinize(st: SpqrState, player: PlayerId, rng: random.Random) -> Any:
    """A copy where the cards `player` cannot see are dealt again: the unseen cards (the deck plus the other
    players' hands — only their total per symbol is used) go to the other players, each keeping its hand's
    size, and the rest form the deck. The discard pile and `player`'s own hand are public to it.

    Each dealt card is drawn without replacement from the per-symbol counts, so the cost grows with the cards
    dealt (the hands), never with the size of the deck (a board may hold hundreds of cards)."""
    c = st.clone()
    n = st.n
    if player is None or not 0 <= player < n:
        return c
    unseen = list(st.deck)
    others = [p for p in range(n) if p != player]
    sizes = []
    for p in others:
        h = st.hands[p]
        sizes.append(sum(h))
        for i in range(4):
            unseen[i] += h[i]
    hands, deck = deal(unseen, sizes, rng)
    for p, hand in zip(others, hands, strict=True):
        c.hands[p] = hand
    c.deck = deck
    return c


def deal(counts: list[int], sizes: list[int], rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """Deal hands of `sizes` cards at random from a pile with `counts` cards of each kind (every deal equally
    likely, as a shuffle would give); returns the hands and what is left. Costs O(sum(sizes) * kinds)."""
    left = list(counts)
    total = sum(left)
    hands = []
    for size in sizes:
        hand = [0] * len(left)
        for _ in range(min(size, total)):
            r = rng.randrange(total)
            i = 0
            while r >= left[i]:
                r -= left[i]
                i += 1
            left[i] -= 1
            hand[i] += 1
            total -= 1
        hands.append(hand)
    return hands, left


def _best_by_eval(st: SpqrState, player: PlayerId, actions: list[Action]) -> Action:
    best, best_v = actions[0], -1.0
    for a in actions:
        c = st.clone()
        c.apply(a)
        v = evaluate(c)[player]
        if v > best_v:
            best, best_v = a, v
    return best


def auto_action(st: SpqrState, player: PlayerId) -> Action | None:
    """Defaults for the sub-choices after the bot picked an attack or a move: keep rolling the most dice
    while the attack still has at least as many legionaries as the defence, declare every legionary that may
    sail, and pick the move-in/move counts by the evaluation."""
    ph = st.phase
    if ph in (S.LAND_BATTLE, S.NAVAL_BATTLE):
        actions = st.legal_actions()
        bt = st.battle
        assert bt is not None  # a battle phase has its battle
        if bt.kind == 0:
            mine = st.triremes[player][bt.source]
            theirs = st.triremes[bt.opponent][bt.source]
        else:
            mine = st.armies[bt.source] - 1
            theirs = st.armies[bt.target]
        rolls = [a for a in actions if a.kind == "roll_dice"]
        if rolls and (mine >= theirs or A.WITHDRAW not in actions):
            return rolls[-1]
        return A.WITHDRAW if A.WITHDRAW in actions else actions[-1]
    if ph == S.DECLARE:
        return st.legal_actions()[-1]
    if ph in (S.MOVE_IN, S.STRATEGIC_COUNT):
        actions = st.legal_actions()
        if len(actions) == 1:
            return actions[0]
        if len(actions) > 6:  # the extremes and a few between are enough for a default
            step = (len(actions) - 1) / 5
            actions = [actions[round(i * step)] for i in range(6)]
        return _best_by_eval(st, player, actions)
    return None


def tree_default(st: SpqrState, player: PlayerId, last: Action | None) -> Action | None:
    """The search's default below its root (with `auto_inner`): the sub-choices of `auto_action`, and in the
    reinforcement phase the rest of the pool where the last legionary went — so a search that places one
    legionary sees what a concentrated army can attack this turn instead of a long chain of single placements."""
    if st.phase == S.REINFORCE and last is not None and last.kind == "reinforce":
        return last
    return auto_action(st, player)


def finish_default(st: SpqrState, player: PlayerId, last: Action | None) -> Action | None:
    """How a search leaf finishes `player`'s turn (with `turn_horizon`): the defaults of `tree_default`, the
    rest of the reinforcements on the most threatened frontier, the land attacks with a clear margin
    (`_sure_attack`), then no more moves — each other phase ended as it comes — so every line of the search
    is valued at the end of the turn."""
    a = tree_default(st, player, last)
    if a is not None:
        return a
    if st.phase == S.LAND_ATTACK:
        a = _sure_attack(st)
        if a is not None:
            return a
    actions = st.legal_actions()
    if A.DONE in actions:
        return A.DONE
    if A.FORGO in actions:
        return A.FORGO
    if st.phase == S.REINFORCE:
        rows = [
            r for r in actions if isinstance(r, A.Reinforce)
        ]  # every action of the phase places a legionary
        return max(rows, key=lambda r: _threat(st, st.board.province_index[r.province]))
    return actions[0] if actions else None


# a leaf's turn goes on attacking on land while some attack has this many more legionaries that may roll
# than the defence (a search that stopped at the first chance to end its turn learnt to hold back)
SURE_MARGIN = 2


def _sure_attack(st: SpqrState) -> Action | None:
    """The land attack with the largest margin of attacking legionaries (all but one) over the defenders,
    if that margin is at least `SURE_MARGIN`; the first such in legal order on a tie."""
    idx = st.board.province_index
    armies = st.armies
    best, margin = None, SURE_MARGIN - 1
    for a in st.legal_actions():
        if isinstance(a, A.Attack):
            m = armies[idx[a.source]] - 1 - armies[idx[a.target]]
            if m > margin:
                best, margin = a, m
    return best


def _threat(st: SpqrState, p: int) -> int:
    """The most legionaries of a neighbouring player's province minus those in province `p`."""
    owner, armies = st.owner, st.armies
    o = owner[p]
    worst = 0
    for q in st.board.land[p]:
        if owner[q] >= 0 and owner[q] != o and armies[q] > worst:
            worst = armies[q]
    return worst - armies[p]


# search settings for this game (measured against greedy, see ai/README.md): a turn is a long chain of the
# mover's own decisions, so the search plans that turn and values every line where the turn ends
# (`turn_horizon`, finished by `finish_default`, which goes on with the clear land attacks); sub-choices
# (dice, counts) take the game's defaults in the tree and at the root (`auto_inner`, `auto_root`);
# expansions follow the one-ply evaluation and nodes widen progressively; exploration and prior weight as
# in Polis
MCTS_DEFAULTS: dict[str, bool | int | float] = {
    "inner_prior": True,
    "widen": True,
    "auto_inner": True,
    "auto_root": True,
    "turn_horizon": True,
    "exploration": 0.5,
    "prior_weight": 3.0,
}


def learned_for(player: PlayerId) -> Any:
    """The learned evaluation (`ai/games/spqr_value.py`, spec `eval=learned`), loaded when first asked for."""
    from hegemon.ai.games import spqr_value

    return spqr_value.learned_for(player)


BOTS = BotRole(
    evaluate=evaluate,
    determinize=determinize,
    auto_action=auto_action,
    tree_default=tree_default,
    finish_default=finish_default,
    mcts_defaults=MCTS_DEFAULTS,
    evaluations={"learned": learned_for},
)
"""The bots role (`Roles.bots`)."""
