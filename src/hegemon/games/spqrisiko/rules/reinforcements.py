"""Reinforcements [R 6]-[R 8]: card sets and their bonus triremes and power centres, land reinforcements
placed one legionary at a time, then the navy (triremes disbanded into legionaries before any is built)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hegemon.core.actions import Action
from hegemon.games.spqrisiko import actions as A
from hegemon.games.spqrisiko import phase as PH
from hegemon.games.spqrisiko.board import SYMBOLS
from hegemon.games.spqrisiko.phase import Phase
from hegemon.games.spqrisiko.rules.index import sea_changed
from hegemon.games.spqrisiko.scoring import land_reinforcements

if TYPE_CHECKING:
    from hegemon.games.spqrisiko.state import SpqrState

BANNER, TRIREME, ARENA = 1, 2, 3


# ---------------------------------------------------------------------------------------------- cards [R 8]


def legal_cards(st: SpqrState, me: int) -> list[Action]:
    h = st.hands[me]
    out = [a for cs, a in st.acts.trade if _holds(h, cs)]
    out.append(A.DONE)
    return out


def has_cards(st: SpqrState, me: int) -> bool:
    """Whether the player may trade a set now (the phase then offers more than Done)."""
    lim = st.opts.sets_per_turn
    if lim is not None and st.sets_traded >= lim:
        return False
    h = st.hands[me]
    if h[0] + h[1] + h[2] + h[3] < 3:  # every set is three cards
        return False
    return any(_holds(h, cs) for cs, _ in st.acts.trade)


def _holds(h: list[int], cs: tuple[int, int, int]) -> bool:
    if cs[0] == cs[1]:
        return h[cs[0]] >= 3
    return bool(h[cs[0]] and h[cs[1]] and h[cs[2]])


def apply_trade(st: SpqrState, a: A.TradeSet) -> Phase:
    me = st.order[st.turn]
    idx = [SYMBOLS.index(c) for c in a.cards]
    h = st.hands[me]
    for i in idx:
        h[i] -= 1
        st.discard[i] += 1
    value = 8 if idx[0] == idx[1] else 10  # [R 8.5], [R 8.6]
    value += 2 * idx.count(BANNER)  # [R 8.7.1]
    st.pool += value
    st.sets_traded += 1
    st.bonus_triremes += idx.count(TRIREME)  # [R 8.7.2]
    st.bonus_pcs += idx.count(ARENA)  # [R 8.7.3]
    return after_bonus(st, me)


def after_bonus(st: SpqrState, me: int) -> Phase:
    """The next bonus to place, or back to the cards; a bonus that cannot be placed is lost [R 8.7.2],
    [R 8.7.3]."""
    while st.bonus_triremes and not bonus_seas(st, me):
        st.bonus_triremes -= 1
    if st.bonus_triremes:
        return PH.CARD_BONUS
    while st.bonus_pcs and not pc_sites(st, me):
        st.bonus_pcs -= 1
    if st.bonus_pcs:
        return PH.CARD_BONUS
    return PH.CARDS


def bonus_seas(st: SpqrState, me: int) -> list[int]:
    seas: set[int] = set()
    coasts = st.board.coasts
    for p in st.provs[me]:
        seas.update(coasts[p])
    return sorted(seas)


def pc_sites(st: SpqrState, me: int) -> list[int]:
    """Where a power centre may be built [R 16.4]: own province, none there, none in a land neighbour."""
    if st.pcs_built >= st.opts.power_centres:
        return []
    pc = st.power_centre
    land = st.board.land
    return [p for p in st.provs[me] if not pc[p] and not any(pc[q] for q in land[p])]


def legal_bonus(st: SpqrState, me: int) -> list[Action]:
    t = st.acts
    if st.bonus_triremes:
        out = [t.place_trireme[s] for s in bonus_seas(st, me)]
    else:
        out = [t.place_pc[p] for p in pc_sites(st, me)]
    out.append(A.FORGO)
    return out


def apply_place_trireme(st: SpqrState, a: A.PlaceTrireme) -> Phase:
    me = st.order[st.turn]
    s = st.board.sea_index[a.sea]
    st.triremes[me][s] += 1
    sea_changed(st, s)
    st.bonus_triremes -= 1
    return after_bonus(st, me)


def apply_place_power_centre(st: SpqrState, a: A.PlacePowerCentre) -> Phase:
    me = st.order[st.turn]
    st.power_centre[st.board.province_index[a.province]] = True
    st.pcs_built += 1
    st.bonus_pcs -= 1
    return after_bonus(st, me)


def apply_forgo(st: SpqrState, a: A.Forgo) -> Phase:
    if st.bonus_triremes:
        st.bonus_triremes -= 1
    else:
        st.bonus_pcs -= 1
    return after_bonus(st, st.order[st.turn])


# --------------------------------------------------------------------------- land reinforcements [R 6]


def reinforcement_pool(st: SpqrState, me: int) -> None:
    """Land reinforcements [R 6.1]-[R 6.5]: the table, plus one legionary in each own power centre."""
    armies = st.armies
    pc = st.power_centre
    mine = st.provs[me]
    for p in mine:
        if pc[p]:
            armies[p] += 1
    st.pool += land_reinforcements(len(mine))


def legal_reinforce(st: SpqrState, me: int) -> list[Action]:
    rows = st.acts.reinforce
    return [rows[p] for p in st.provs[me]]


def apply_reinforce(st: SpqrState, a: A.Reinforce) -> Phase | None:
    st.armies[st.board.province_index[a.province]] += 1
    st.pool -= 1
    return PH.CONVERT if st.pool == 0 else None


# -------------------------------------------------------------------------------------- navy [R 6.6], [R 7]


def _may_disband(st: SpqrState) -> bool:
    lim = st.opts.trireme_disbands_per_turn
    return not st.built and (lim is None or st.disbands < lim)


def legal_convert(st: SpqrState, me: int) -> list[Action]:
    t = st.acts
    out: list[Action] = []
    owner = st.owner
    if _may_disband(st):
        mine = st.triremes[me]
        for s, row in enumerate(t.disband):
            if mine[s]:
                for p, a in row:
                    if owner[p] == me:
                        out.append(a)
    armies = st.armies
    ne = st.ne
    frontier = 2 if st.opts.trireme_garrison == 2 else 1  # a build leaves 3 + the garrison, or 3 + 1 [R 7]
    for p in st.provs[me]:
        builds = t.build[p]
        if builds and armies[p] >= (3 + frontier if ne[p] else 4):
            out.extend(builds)
    out.append(A.DONE)
    return out


def has_convert(st: SpqrState, me: int) -> bool:
    t = st.acts
    owner = st.owner
    if _may_disband(st):
        mine = st.triremes[me]
        for s, row in enumerate(t.disband):
            if mine[s]:
                for p, _ in row:
                    if owner[p] == me:
                        return True
    armies = st.armies
    ne = st.ne
    frontier = 2 if st.opts.trireme_garrison == 2 else 1
    for p in st.provs[me]:
        if armies[p] >= 4 and t.build[p] and armies[p] >= (3 + frontier if ne[p] else 4):
            return True
    return False


def apply_disband(st: SpqrState, a: A.Disband) -> Phase:
    me = st.order[st.turn]
    b = st.board
    s = b.sea_index[a.sea]
    st.triremes[me][s] -= 1
    sea_changed(st, s)
    st.armies[b.province_index[a.province]] += 2
    st.disbands += 1
    return PH.CONVERT


def apply_build(st: SpqrState, a: A.Build) -> Phase:
    me = st.order[st.turn]
    b = st.board
    st.armies[b.province_index[a.province]] -= 3
    s = b.sea_index[a.sea]
    st.triremes[me][s] += 1
    sea_changed(st, s)
    st.built = True
    return PH.CONVERT
