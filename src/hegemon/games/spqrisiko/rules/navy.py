"""The navy at sea: naval movement [R 9] and naval combat [R 11] (a roll with no loss ends it [R 11.6], ties
remove nobody [R 11.5], the attacker never rolls fewer dice than the defender [R 10.13])."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hegemon.core.actions import Action
from hegemon.games.spqrisiko import actions as A
from hegemon.games.spqrisiko import phase as PH
from hegemon.games.spqrisiko.combat import resolve
from hegemon.games.spqrisiko.phase import Phase
from hegemon.games.spqrisiko.records import B_NAVAL, Battle
from hegemon.games.spqrisiko.rules.index import sea_changed

if TYPE_CHECKING:
    from hegemon.games.spqrisiko.state import SpqrState


# ------------------------------------------------------------------------------------ naval movement [R 9]


def legal_naval_move(st: SpqrState, me: int) -> list[Action]:
    out: list[Action] = []
    if not st.moved_group:
        t = st.acts
        mine = st.triremes[me]
        arrived = st.arrived if st.opts.naval_move == "per_trireme" else None
        for s, k in enumerate(mine):
            if k <= 0:
                continue
            if arrived is not None:
                k -= arrived[s]
                if k <= 0:
                    continue
            for _, moves in t.naval_moves(s, k):
                out.extend(moves[:k])
    out.append(A.DONE)
    return out


def has_naval_move(st: SpqrState, me: int) -> bool:
    if st.moved_group:
        return False
    links = st.board.sea_links
    mine = st.triremes[me]
    if st.opts.naval_move == "per_trireme":
        arrived = st.arrived
        for s, k in enumerate(mine):
            if k > arrived[s] and links[s]:
                return True
        return False
    for s, k in enumerate(mine):
        if k > 0 and links[s]:
            return True
    return False


def apply_naval_move(st: SpqrState, a: A.NavalMove) -> Phase:
    me = st.order[st.turn]
    sidx = st.board.sea_index
    s, t = sidx[a.source], sidx[a.dest]
    c = a.count
    st.triremes[me][s] -= c
    st.triremes[me][t] += c
    st.arrived[t] += c
    sea_changed(st, s)
    sea_changed(st, t)
    if st.opts.naval_move == "single_group":
        st.moved_group = True
    return PH.NAVAL_MOVE


# ------------------------------------------------------------------------------------- naval combat [R 11]


def legal_naval_combat(st: SpqrState, me: int) -> list[Action]:
    out: list[Action] = []
    t = st.acts
    tri = st.triremes
    mine_row = tri[me]
    fought = st.naval_fought
    for s in t.seas:
        mine = mine_row[s]
        if not mine or fought[s]:
            continue
        md = mine if mine < 3 else 3
        for o in range(st.n):
            theirs = tri[o][s]
            if o != me and theirs and md >= (theirs if theirs < 3 else 3):
                out.append(t.naval_attack[s][o])
    out.append(A.DONE)
    return out


def has_naval_combat(st: SpqrState, me: int) -> bool:
    tri = st.triremes
    mine_row = tri[me]
    fought = st.naval_fought
    for s in range(len(mine_row)):
        mine = mine_row[s]
        if not mine or fought[s]:
            continue
        md = mine if mine < 3 else 3
        for o in range(st.n):
            theirs = tri[o][s]
            if o != me and theirs and md >= (theirs if theirs < 3 else 3):
                return True
    return False


def apply_naval_attack(st: SpqrState, a: A.NavalAttack) -> None:
    s = st.board.sea_index[a.sea]
    st.naval_fought[s] = True
    st.battle = Battle(B_NAVAL, s, -1, a.opponent)
    st.phase = PH.NAVAL_BATTLE


def naval_dice_range(st: SpqrState, bt: Battle) -> tuple[int, int]:
    """(defender's dice, attacker's most dice) of the next roll of the naval combat `bt`."""
    me = st.order[st.turn]
    sea = bt.source
    return min(3, st.triremes[bt.opponent][sea]), min(3, st.triremes[me][sea])


def apply_naval_roll(st: SpqrState, bt: Battle, att: tuple[int, ...], dfn: tuple[int, ...]) -> bool:
    """Apply one roll of the naval combat; True when the combat is over."""
    me = st.order[st.turn]
    sea, opp = bt.source, bt.opponent
    al, dl = resolve(att, dfn, naval=True)
    st.triremes[me][sea] -= al
    st.triremes[opp][sea] -= dl
    if al or dl:
        sea_changed(st, sea)
    if al + dl == 0 or st.triremes[opp][sea] == 0:
        return True  # [R 11.6]: a roll without losses ends the combat
    lo, hi = naval_dice_range(st, bt)
    return hi < lo or hi == 0
