"""Military moves (§5.5-§5.6, §4.6): paths with blocking evaluated once at the start of the action; a move is
`MoveHoplites(to)`/`MoveGalleys(to)` then `MoveFrom(source, count)` in board order, then `EndMove()`."""

from __future__ import annotations

from typing import Any

from hegemon.games.polis.actions import EndMove, MoveFrom, MoveGalleys, MoveHoplites, intern
from hegemon.games.polis.board import bits
from hegemon.games.polis.rules import common, flow
from hegemon.games.polis.rules.common import MOVE, T_MOVE_G, T_MOVE_H


def _open_mask(us: list[int], them: list[int]) -> int:
    """Territories not controlled by the opponent (they may be passed through, §4.6)."""
    m = 0
    for t in range(len(us)):
        if them[t] <= us[t]:
            m |= 1 << t
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


def hoplite_dests(b: Any, us: list[int], them: list[int], src: int, open_mask: int | None = None) -> int:
    """Bitmask of the land territories a hoplite in `src` can reach by a land path or a sea path (§4.6,
    R34-R36): every territory passed through is not controlled by the opponent; start and destination may be."""
    om = _open_mask(us, them) if open_mask is None else open_mask
    land = _closure(b.land_union, 1 << src, om)
    seas = b.sea_adj_mask[src] & om
    if seas:
        seas |= _closure(b.sea_union, seas, om) & om
        land |= _union(b.land_union, seas)
    return land & ~(1 << src)


def galley_dests(b: Any, us: list[int], them: list[int], src: int, open_mask: int | None = None) -> int:
    """Bitmask of the seas a galley in `src` can reach through seas not controlled by the opponent (§4.6)."""
    om = _open_mask(us, them) if open_mask is None else open_mask
    return _closure(b.sea_union, 1 << src, om) & ~(1 << src)


def _sources(st: Any, galleys: bool) -> dict[int, int]:
    b = st.b
    s = st.cur
    us = st.units[s]
    them = st.units[1 - s]
    om = _open_mask(us, them)
    fn = galley_dests if galleys else hoplite_dests
    want_land = not galleys
    is_land = b.is_land
    return {t: fn(b, us, them, t, om) for t in range(b.n_terr) if us[t] and is_land[t] == want_land}


def legal(st: Any, out: list[Any], used: set[int], extra: bool) -> None:
    b = st.b
    if st.pp[st.cur] < b.military_pp or (extra and sum(st.res[st.cur]) < b.extra_cost):
        return
    lim = common.limit(st)
    us = st.units[st.cur]
    for galleys, token, cls in ((False, T_MOVE_H, MoveHoplites), (True, T_MOVE_G, MoveGalleys)):
        if token in used:
            continue
        dests = 0
        for ds in _sources(st, galleys).values():
            dests |= ds
        for d in bits(dests):
            if us[d] < lim:
                out.append(intern(cls, b.terr_ids[d]))


def apply_start(st: Any, to: str, galleys: bool) -> None:
    """Pay 1 PP and fix the eligible sources (blocking as the board is now, §4.6)."""
    b = st.b
    d = b.terr_index[to]
    flow.begin_action(st, T_MOVE_G if galleys else T_MOVE_H)
    st.pp[st.cur] -= b.military_pp
    srcs = [t for t, ds in sorted(_sources(st, galleys).items()) if ds >> d & 1]
    st.pend = [d, tuple(srcs), 0, 0]
    st.phase = MOVE


def legal_steps(st: Any, out: list[Any]) -> None:
    b = st.b
    d, srcs, pos, moved = st.pend
    us = st.units[st.cur]
    room = common.limit(st) - us[d]
    if moved:
        out.append(intern(EndMove))
    for i in range(pos, len(srcs)):
        t = srcs[i]
        name = b.terr_ids[t]
        for c in range(1, min(us[t], room) + 1):
            out.append(intern(MoveFrom, name, c))


def apply_step(st: Any, source: str, count: int) -> None:
    b = st.b
    t = b.terr_index[source]
    d, srcs, _pos, moved = st.pend
    us = st.units[st.cur]
    us[t] -= count
    us[d] += count
    st.pend = [d, srcs, srcs.index(t) + 1, moved + count]
    common.siege_check_exchange(st)  # `diceless` checks "at any moment" (§7.3.6)


def apply_end(st: Any) -> None:
    st.pend = None
    flow.finish_action(st)
