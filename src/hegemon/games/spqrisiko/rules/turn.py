"""A player's turn from start to end: scoring [R 5], the flow through the optional phases (a phase with
nothing to choose is skipped, U: automatic steps), the strategic move [R 15], the card draw [R 17] and the
passage to the next player and round (U10 round limit)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from hegemon.core.actions import Action
from hegemon.core.game import Termination
from hegemon.games.spqrisiko import actions as A
from hegemon.games.spqrisiko import phase as PH
from hegemon.games.spqrisiko.board import SYMBOLS
from hegemon.games.spqrisiko.phase import NEXT_OPTIONAL, Phase
from hegemon.games.spqrisiko.records import B_STRATEGIC, DRAW, Battle
from hegemon.games.spqrisiko.rules import attacks, index, navy, reinforcements
from hegemon.games.spqrisiko.rules.common import competitors, finish, move_after_battle

if TYPE_CHECKING:
    from hegemon.games.spqrisiko.state import SpqrState


def begin_turn(st: SpqrState) -> None:
    me = st.order[st.turn]
    st.turns += 1
    st.pool = 0
    st.sets_traded = 0
    st.bonus_triremes = st.bonus_pcs = 0
    st.disbands = 0
    st.built = False
    st.moved_group = False
    nseas = st.board.n_seas
    nprov = st.board.n_provinces
    st.arrived = [0] * nseas
    st.naval_fought = [False] * nseas
    st.attacked_by_sea = [False] * nprov
    st.sea_conquered = [False] * nprov
    st.conquered = False
    st.battle = None
    # phase 1: scoring [R 5]
    gained = index.score(st, me, competitors(st))
    st.vp_last = gained
    st.vp[me] += sum(gained.values())
    if any(gained.values()):  # a new dict, never one changed in place: clones share these
        src = dict(st.vp_sources[me])
        for k, v in gained.items():
            if v:
                src[k] = src.get(k, 0) + v
        st.vp_sources[me] = src
    target = st.opts.vp_target
    if target is not None and st.vp[me] >= target:
        finish(st, Termination.VP_TARGET, (me,))
        return
    enter(st, PH.CARDS)


# whether an optional phase offers the player anything but Done
_HAS_CHOICE: dict[Phase, Callable[[SpqrState, int], bool]] = {
    PH.CONVERT: reinforcements.has_convert,
    PH.NAVAL_MOVE: navy.has_naval_move,
    PH.NAVAL_COMBAT: navy.has_naval_combat,
    PH.SEA_ATTACK: attacks.has_sea_attack,
    PH.LAND_ATTACK: attacks.has_land_attack,
}


# the phases `enter` and `apply_done` test, as module constants (an enum attribute costs a lookup each time)
_CARDS, _REINFORCE, _CONVERT, _STRATEGIC = PH.CARDS, PH.REINFORCE, PH.CONVERT, PH.STRATEGIC


def enter(st: SpqrState, phase: Phase) -> None:
    """Enter `phase`, skipping forward over every phase in which the player has nothing to choose."""
    if st.terminal is not None:
        return
    me = st.order[st.turn]
    while True:
        st.phase = phase
        if phase == _CARDS:
            if reinforcements.has_cards(st, me):
                return
            phase = _REINFORCE
            reinforcements.reinforcement_pool(st, me)
            continue
        if phase == _REINFORCE:
            if st.pool > 0:
                return
            phase = _CONVERT
            continue
        if phase == _STRATEGIC:
            if not has_strategic(st, me):
                finish_turn(st)
            return
        has = _HAS_CHOICE.get(phase)
        if has is None or has(st, me):
            return
        phase = NEXT_OPTIONAL[phase]


def apply_done(st: SpqrState, a: A.Done) -> Phase | None:
    ph = st.phase
    if ph == _CARDS:
        reinforcements.reinforcement_pool(st, st.order[st.turn])
        return _REINFORCE
    if ph == _STRATEGIC:
        finish_turn(st)
        return None
    return NEXT_OPTIONAL.get(ph)


# ------------------------------------------------------------------------------------ strategic move [R 15]


def _strategic_sources(st: SpqrState, me: int) -> list[int]:
    """Own provinces that can spare a legionary beyond their garrison [R 14.1], [R 14.2] (one to spare at 2
    only without an enemy neighbour, U6)."""
    armies, ne = st.armies, st.ne
    return [s for s in st.provs[me] if armies[s] > 2 or (armies[s] == 2 and not ne[s])]


def legal_strategic(st: SpqrState, me: int) -> list[Action]:
    out: list[Action] = []
    owner = st.owner
    ctrl = st.sea_ctrl
    rows = st.acts.fortify_rows
    for s in _strategic_sources(st, me):
        for q, a, by_land, seas in rows[s]:
            if owner[q] == me:
                if by_land:
                    out.append(a)
                    continue
                for sea in seas:
                    if ctrl[sea] == me:
                        out.append(a)
                        break
    out.append(A.DONE)
    return out


def has_strategic(st: SpqrState, me: int) -> bool:
    owner = st.owner
    ctrl = st.sea_ctrl
    rows = st.acts.fortify_rows
    for s in _strategic_sources(st, me):
        for q, _, by_land, seas in rows[s]:
            if owner[q] == me:
                if by_land:
                    return True
                for sea in seas:
                    if ctrl[sea] == me:
                        return True
    return False


def apply_fortify(st: SpqrState, a: A.Fortify) -> None:
    pidx = st.board.province_index
    me = st.order[st.turn]
    st.battle = Battle(B_STRATEGIC, pidx[a.source], pidx[a.dest], me)
    st.phase = PH.STRATEGIC_COUNT


def legal_strategic_count(st: SpqrState, me: int) -> list[Action]:
    bt = st.battle
    assert bt is not None
    src = bt.source
    hi = st.armies[src] - (2 if st.ne[src] else 1)  # the garrison [R 14.1], [R 14.2]: src is the mover's
    return st.acts.move(1, hi)


def apply_move(st: SpqrState, a: A.Move) -> None:
    move_after_battle(st, a.count)
    finish_turn(st)


# --------------------------------------------------------------------------------- end of turn [R 17]


def finish_turn(st: SpqrState) -> None:
    if st.terminal is not None:
        return
    st.phase = PH.DRAW
    if st.conquered:
        if not any(st.deck) and any(st.discard):  # [R 8.9] reshuffle the discards
            st.deck = st.discard
            st.discard = [0, 0, 0, 0]
        if sum(st.deck):
            st.chance = DRAW
            return
    next_turn(st)


def apply_draw(st: SpqrState, a: A.Draw) -> None:
    i = SYMBOLS.index(a.card)
    st.deck[i] -= 1
    st.hands[st.order[st.turn]][i] += 1
    st.chance = None
    next_turn(st)


def next_turn(st: SpqrState) -> None:
    n = st.n
    t = st.turn
    while True:
        t = (t + 1) % n
        if t == 0:
            st.round += 1
            cap = st.opts.max_rounds
            if cap is not None and st.round > cap:
                st.turn = t
                finish(st, Termination.ROUND_LIMIT, None)
                return
        if not st.eliminated[st.order[t]]:
            break
    st.turn = t
    begin_turn(st)
