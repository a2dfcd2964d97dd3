"""Set-up [R 3]: the order of play (chance), then the initial provinces, chosen in turn or dealt at random
(chance), with the neutral groups; with 4 players Italia is neutral first [R 3.4]."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from hegemon.core.actions import Action
from hegemon.games.spqrisiko import actions as A
from hegemon.games.spqrisiko import phase as PH
from hegemon.games.spqrisiko.records import DEAL
from hegemon.games.spqrisiko.rules import turn
from hegemon.games.spqrisiko.rules.index import set_owner
from hegemon.games.spqrisiko.rules.tables import act
from hegemon.games.spqrisiko.scoring import FREE, NEUTRAL

if TYPE_CHECKING:
    from hegemon.games.spqrisiko.state import SpqrState


def legal_claim(st: SpqrState, me: int) -> list[Action]:
    row = st.acts.claim if st.phase == PH.SETUP_CLAIM else st.acts.claim_neutral
    owner = st.owner
    return [row[p] for p in range(len(owner)) if owner[p] == FREE]


def apply_order(st: SpqrState, a: A.Order) -> None:
    st.order = list(a.seats)
    b = st.board
    if st.n == 4 and "italia" in b.province_index and st.neutral_groups:
        p = b.province_index["italia"]
        set_owner(st, p, NEUTRAL)
        st.armies[p] = 3
        st.neutral_groups -= 1
    free = st.owner.count(FREE) - st.neutral_groups
    for p in range(st.n):
        st.slots[p] = free // st.n
    if st.opts.random_deal:
        st.chance = DEAL
        st.phase = PH.SETUP_DEAL
    else:
        st.chance = None
        st.turn = 0
        st.phase = PH.SETUP_CLAIM


def apply_deal(st: SpqrState, a: A.Deal) -> None:
    p = st.board.province_index[a.province]
    o = a.owner
    set_owner(st, p, o)
    if o == NEUTRAL:
        st.armies[p] = 3
        st.neutral_groups -= 1
    else:
        st.armies[p] = 2
        st.slots[o] -= 1
    if FREE not in st.owner:
        st.chance = None
        start_game(st)


def apply_claim(st: SpqrState, a: A.Claim) -> None:
    p = st.board.province_index[a.province]
    set_owner(st, p, st.order[st.turn])
    st.armies[p] = 2
    if st.neutral_groups and FREE in st.owner:
        st.phase = PH.SETUP_NEUTRAL
    else:
        _next_placer(st)


def apply_claim_neutral(st: SpqrState, a: A.ClaimNeutral) -> None:
    p = st.board.province_index[a.province]
    set_owner(st, p, NEUTRAL)
    st.armies[p] = 3
    st.neutral_groups -= 1
    _next_placer(st)


def _next_placer(st: SpqrState) -> None:
    if FREE not in st.owner:
        start_game(st)
        return
    st.turn = (st.turn + 1) % st.n
    st.phase = PH.SETUP_CLAIM


def start_game(st: SpqrState) -> None:
    st.turn = 0
    st.round = 1
    turn.begin_turn(st)


def deal_outcomes(st: SpqrState) -> list[tuple[Action, float]]:
    """Chance: the next free province (board order) to a player or the neutrals, in proportion to the
    places still due."""
    prov = st.owner.index(FREE)
    weights = [(p, st.slots[p]) for p in range(st.n) if st.slots[p] > 0]
    if st.neutral_groups:
        weights.append((NEUTRAL, st.neutral_groups))
    total = sum(w for _, w in weights)
    pid = st.board.province_ids[prov]
    return [(act(A.Deal, pid, o), w / total) for o, w in weights]


def sample_deal(st: SpqrState, rng: random.Random) -> Action:
    """`weighted_choice(deal_outcomes(st), rng)` without building the outcomes (one `random()` call, the same
    sums in the same order, so the same outcome)."""
    prov = st.owner.index(FREE)
    slots = st.slots
    total = sum(w for w in slots if w > 0) + st.neutral_groups
    r = rng.random()
    acc = 0.0
    last = NEUTRAL
    for o in range(st.n):
        w = slots[o]
        if w > 0:
            last = o
            acc += w / total
            if r < acc:
                return act(A.Deal, st.board.province_ids[prov], o)
    if st.neutral_groups:
        last = NEUTRAL
        acc += st.neutral_groups / total
        if r < acc:
            return act(A.Deal, st.board.province_ids[prov], NEUTRAL)
    return act(A.Deal, st.board.province_ids[prov], last)
