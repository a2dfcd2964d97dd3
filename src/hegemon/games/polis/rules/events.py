"""Event cards (§10): one drawn at the start of each round from the round's pile and resolved at once, effect
by effect in the listed order (§10.2, R62); `remove_units` lets the side choose which units go. `flow` draws the
card, pauses for those choices and starts the round's play afterwards."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hegemon.games.polis.actions import DrawEvent, RemoveUnit, intern
from hegemon.games.polis.board import PRESTIGE
from hegemon.games.polis.pending import Removal
from hegemon.games.polis.rules import common

if TYPE_CHECKING:
    from hegemon.games.polis.state import PolisState


def pile_of(st: PolisState) -> list[int]:
    return st.piles[st.board.round_pile[st.round]]


def outcomes(st: PolisState) -> list[tuple[Any, float]]:
    pile = pile_of(st)
    p = 1.0 / len(pile)
    ids = st.board.event_ids
    return [(intern(DrawEvent, ids[e]), p) for e in pile]


def reveal(st: PolisState, e: int) -> None:
    """Event `e` (-1: none) becomes the round's event; its effects are still to resolve."""
    st.event = e
    st.event_step = 0
    st.event_first = -1


def _removable(st: PolisState, side: int, hop: bool, gal: bool) -> list[int]:
    b = st.board
    u = st.units[side]
    return [t for t in range(b.n_terr) if u[t] and ((hop and b.is_land[t]) or (gal and not b.is_land[t]))]


def run(st: PolisState) -> int:
    """Resolve the remaining effects of the current event: -1 when all are done, or the side that must choose
    the units an effect removes (the effect then waits in a `Removal` record)."""
    b = st.board
    effects = b.ev_effects[st.event] if st.event >= 0 else ()
    while st.event_step < len(effects):
        eff = effects[st.event_step]
        typ = eff[0]
        if typ == "gain" or typ == "lose":
            _, side, r, amount = eff
            if typ == "lose":
                amount = -amount
            if r == PRESTIGE:
                st.pp[side] = max(0, st.pp[side] + amount)
            elif amount > 0:
                common.gain(st, side, r, amount)
            else:
                st.res[side][r] = max(0, st.res[side][r] + amount)
        elif typ == "place_units":
            _, side, t, count = eff
            lim = common.limit(st)
            for _ in range(count):
                if st.units[side][t] < lim and common.pool(st, side) > 0:
                    st.units[side][t] += 1
        elif typ == "remove_units":
            _, side, hop, gal, count = eff
            where = _removable(st, side, hop, gal)
            total = sum(st.units[side][t] for t in where)
            if total <= count:
                for t in where:
                    st.units[side][t] = 0
                common.siege_check_exchange(st)
            else:
                st.pending = Removal(side, hop, gal, count)
                return int(side)
        elif typ == "close_market":
            st.market_closed[eff[1]] = True
        elif typ == "exhaust_tribute":
            st.exhausted[eff[1]] = True
        elif typ == "first_player":
            st.event_first = eff[1]
        elif typ == "polis_population":
            _, q, delta = eff
            o = st.owner[q]
            if o >= 0:
                new = max(b.min_pop, min(b.p_max[q], st.pop[q] + delta))
                if new > st.pop[q]:
                    new = min(new, st.pop[q] + common.pool(st, o))
                st.pop[q] = new
        elif typ == "market_shift":
            _, tracks, steps = eff
            for tr in tracks:
                st.market_markers[tr] = max(1, min(b.track_positions, st.market_markers[tr] + steps))
        st.event_step += 1
    common.siege_check(st)
    return -1


def removal(st: PolisState) -> Removal:
    rm = st.pending
    assert isinstance(rm, Removal)  # EVENT_REMOVE always has its record
    return rm


def legal_remove(st: PolisState, out: list[Any]) -> None:
    rm = removal(st)
    for t in _removable(st, rm.side, rm.hoplites, rm.galleys):
        out.append(intern(RemoveUnit, st.board.terr_ids[t]))


def apply_remove(st: PolisState, territory: str) -> bool:
    """One unit of the side goes; True when the effect is complete (the event then resumes)."""
    rm = removal(st)
    st.units[rm.side][st.board.terr_index[territory]] -= 1
    common.siege_check_exchange(st)
    if rm.left > 1:
        st.pending = Removal(rm.side, rm.hoplites, rm.galleys, rm.left - 1)
        return False
    st.pending = None
    st.event_step += 1
    return True
