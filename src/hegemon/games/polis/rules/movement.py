"""Military moves (§5.5-§5.6, §4.6): paths with blocking evaluated once at the start of the action; a move is
`MoveHoplites(to)`/`MoveGalleys(to)` then `MoveFrom(source, count)` in board order, then `EndMove()`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hegemon.games.polis.actions import MoveFrom, intern
from hegemon.games.polis.board import bits
from hegemon.games.polis.pending import MoveOrder
from hegemon.games.polis.rules import common, flow
from hegemon.games.polis.rules.common import MOVE, T_MOVE_G, T_MOVE_H
from hegemon.games.polis.rules.tables import CACHE_LIMIT, full_mask, unit_view

_B_MOVE_H, _B_MOVE_G = 1 << T_MOVE_H, 1 << T_MOVE_G

if TYPE_CHECKING:
    from hegemon.games.polis.rules.tables import Tables, UnitView
    from hegemon.games.polis.state import PolisState


def _open_mask(us: list[int], them: list[int]) -> int:
    """Territories not controlled by the opponent (they may be passed through, §4.6)."""
    m = 0
    bit = 1
    for u, v in zip(us, them, strict=True):
        if v <= u:
            m |= bit
        bit <<= 1
    return m


def _union(tables: list[list[int]], m: int) -> int:
    r = 0
    k = 0
    while m:
        r |= tables[k][m & 255]
        m >>= 8
        k += 1
    return r


def _closure(tables: list[list[int]], start: int, passable: int) -> int:
    """Every territory reached from the territories of `start` (bitmask) through `passable` ones."""
    reach = _union(tables, start)
    expanded = start
    frontier = reach & passable & ~expanded
    while frontier:
        expanded |= frontier
        reach |= _union(tables, frontier)
        frontier = reach & passable & ~expanded
    return reach


def _dest_union(st: PolisState, galleys: bool, srcs: int, om: int) -> int:
    """The union of the destinations of every source in the bitmask `srcs` (cached by blocking pattern)."""
    tb = st.tables
    key = (srcs << 32 | om) << 1 | galleys  # (galleys, srcs, om) as an int (at most 32 territories)
    cache = tb.dests
    d = cache.get(key)
    if d is None:
        if not srcs:
            d = 0
        elif srcs & (srcs - 1):  # several sources: the union of each one's (cached) destinations
            d = 0
            for t in bits(srcs):
                d |= _dest_union(st, galleys, 1 << t, om)
        else:
            d = _one_source(st.tables, galleys, srcs, om)
        if len(cache) > CACHE_LIMIT:
            cache.clear()
        cache[key] = d
    return d


def _one_source(tb: Tables, galleys: bool, src: int, om: int) -> int:
    """`hoplite_dests`/`galley_dests` of the source bit `src`, with the byte tables unrolled (≤ 32 territories)."""
    s0, s1, s2, s3 = tb.sea_union4
    if galleys:
        reach = s0[src & 255] | s1[src >> 8 & 255] | s2[src >> 16 & 255] | s3[src >> 24]
        done = src
        f = reach & om & ~done
        while f:
            done |= f
            reach |= s0[f & 255] | s1[f >> 8 & 255] | s2[f >> 16 & 255] | s3[f >> 24]
            f = reach & om & ~done
        return reach & ~src
    l0, l1, l2, l3 = tb.land_union4
    land = l0[src & 255] | l1[src >> 8 & 255] | l2[src >> 16 & 255] | l3[src >> 24]
    done = src
    f = land & om & ~done
    while f:
        done |= f
        land |= l0[f & 255] | l1[f >> 8 & 255] | l2[f >> 16 & 255] | l3[f >> 24]
        f = land & om & ~done
    seas = tb.sea_adj[src] & om
    if seas:
        reach = s0[seas & 255] | s1[seas >> 8 & 255] | s2[seas >> 16 & 255] | s3[seas >> 24]
        done = seas
        f = reach & om & ~done
        while f:
            done |= f
            reach |= s0[f & 255] | s1[f >> 8 & 255] | s2[f >> 16 & 255] | s3[f >> 24]
            f = reach & om & ~done
        seas |= reach & om
        land |= l0[seas & 255] | l1[seas >> 8 & 255] | l2[seas >> 16 & 255] | l3[seas >> 24]
    return land & ~src


def legal(st: PolisState, out: list[Any], used: int, extra: bool, view: UnitView) -> None:
    """Actions 5-6: a destination for each kind of unit not yet moved this turn (`used`: the bitmask of the
    action types taken); the menus are kept in the position's `UnitView` for the round's stacking limit."""
    b = st.board
    s = st.active
    if st.pp[s] < b.military_pp:
        return
    if extra:
        res = st.res[s]
        if res[0] + res[1] + res[2] + res[3] + res[4] + res[5] < b.extra_cost:
            return
    hop = not used & _B_MOVE_H
    gal = not used & _B_MOVE_G
    if not (hop or gal):
        return
    lim = b.round_limit[st.round]
    if view.move_limit != lim:
        _move_menus(st, view, lim)
    if hop:
        out.extend(view.hop_menu)
    if gal:
        out.extend(view.gal_menu)


def _move_menus(st: PolisState, view: UnitView, lim: int) -> None:
    """Both movement menus of the side to move: every destination below the stacking limit `lim` that some
    own unit can reach (§4.1, §4.6)."""
    tb = st.tables
    room = ~full_mask(tb, st.units[st.active], lim)
    menus = tb.move_menu
    om, mine = view.open, view.mine
    dests = _dest_union(st, False, mine & tb.land_mask, om) & room
    menu = menus.get((False, dests))
    if menu is None:
        acts = tb.move_h
        menu = menus[(False, dests)] = tuple(acts[d] for d in bits(dests))
    view.hop_menu = menu
    dests = _dest_union(st, True, mine & tb.sea_mask, om) & room
    menu = menus.get((True, dests))
    if menu is None:
        acts = tb.move_g
        menu = menus[(True, dests)] = tuple(acts[d] for d in bits(dests))
    view.gal_menu = menu
    view.move_limit = lim
    if len(menus) > CACHE_LIMIT:
        menus.clear()


def apply_start(st: PolisState, to: str, galleys: bool) -> None:
    """Pay 1 PP and fix the eligible sources (blocking as the board is now, §4.6)."""
    b = st.board
    d = b.terr_index[to]
    flow.begin_action(st, T_MOVE_G if galleys else T_MOVE_H)
    st.pp[st.active] -= b.military_pp
    s = st.active
    tb = st.tables
    view = unit_view(tb, st.units[s], st.units[1 - s])
    om = view.open
    kind = tb.sea_mask if galleys else tb.land_mask
    # the sources in board order (as `_sources`): own units of the kind that can reach `d`
    srcs = tuple(t for t in bits(view.mine & kind) if _dest_union(st, galleys, 1 << t, om) >> d & 1)
    st.pending = MoveOrder(d, srcs, 0, 0)
    st.phase = MOVE


def order(st: PolisState) -> MoveOrder:
    o = st.pending
    assert isinstance(o, MoveOrder)  # MOVE always has its record
    return o


def legal_steps(st: PolisState, out: list[Any]) -> None:
    o = order(st)
    d, srcs, pos, moved = o.dest, o.sources, o.next_source, o.moved
    us = st.units[st.active]
    room = st.board.round_limit[st.round] - us[d]
    tb = st.tables
    if moved:
        out.append(tb.end_move)
    for i in range(pos, len(srcs)):
        t = srcs[i]
        mf = tb.move_from[t]
        k = us[t] if us[t] < room else room
        if k < 1:
            continue
        if k < len(mf):
            out.extend(mf[1 : k + 1])  # MoveFrom(t, 1..k), interned per board
        else:
            out.extend(intern(MoveFrom, st.board.terr_ids[t], c) for c in range(1, k + 1))


def apply_step(st: PolisState, source: str, count: int) -> None:
    b = st.board
    t = b.terr_index[source]
    o = order(st)
    d = o.dest
    us = st.units[st.active]
    us[t] -= count
    us[d] += count
    st.pending = MoveOrder(d, o.sources, o.sources.index(t) + 1, o.moved + count)
    common.siege_check_exchange(st)  # `diceless` checks "at any moment" (§7.3.6)


def apply_end(st: PolisState) -> None:
    st.pending = None
    flow.finish_action(st)
