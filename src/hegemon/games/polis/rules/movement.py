"""Military moves (§5.5-§5.6, §4.6): paths with blocking evaluated once at the start of the action; a move is
`MoveHoplites(to)`/`MoveGalleys(to)` then `MoveFrom(source, count)` in board order, then `EndMove()`."""

from __future__ import annotations

from typing import Any

from hegemon.games.polis.actions import EndMove, MoveFrom, MoveGalleys, MoveHoplites, intern
from hegemon.games.polis.rules import common, flow
from hegemon.games.polis.rules.common import MOVE, T_MOVE_G, T_MOVE_H


def hoplite_dests(b: Any, us: list[int], them: list[int], src: int) -> set[int]:
    """Land territories a hoplite in `src` can reach by a land path or a sea path (§4.6, R34-R36)."""
    out: set[int] = set()
    land_adj = b.land_adj
    seen = {src}
    stack = [src]
    while stack:
        u = stack.pop()
        for v in land_adj[u]:
            if v not in seen:
                seen.add(v)
                out.add(v)
                if them[v] <= us[v]:
                    stack.append(v)
    is_land = b.is_land
    adj = b.adj
    seas: set[int] = set()
    for v in b.sea_adj[src]:
        if them[v] <= us[v]:
            seas.add(v)
            stack.append(v)
    while stack:
        u = stack.pop()
        for v in adj[u]:
            if is_land[v]:
                out.add(v)
            elif v not in seas and them[v] <= us[v]:
                seas.add(v)
                stack.append(v)
    out.discard(src)
    return out


def galley_dests(b: Any, us: list[int], them: list[int], src: int) -> set[int]:
    """Seas a galley in `src` can reach through seas not controlled by the opponent (§4.6)."""
    out: set[int] = set()
    sea_adj = b.sea_adj
    seen = {src}
    stack = [src]
    while stack:
        u = stack.pop()
        for v in sea_adj[u]:
            if v not in seen:
                seen.add(v)
                out.add(v)
                if them[v] <= us[v]:
                    stack.append(v)
    return out


def _sources(st: Any, galleys: bool) -> dict[int, set[int]]:
    b = st.b
    s = st.cur
    us = st.units[s]
    them = st.units[1 - s]
    fn = galley_dests if galleys else hoplite_dests
    want_land = not galleys
    return {t: fn(b, us, them, t) for t in range(b.n_terr) if us[t] and b.is_land[t] == want_land}


def legal(st: Any, out: list[Any], used: set[int], extra: bool) -> None:
    if st.pp[st.cur] < 1 or (extra and sum(st.res[st.cur]) < 1):
        return
    b = st.b
    lim = common.limit(st)
    us = st.units[st.cur]
    for galleys, token, cls in ((False, T_MOVE_H, MoveHoplites), (True, T_MOVE_G, MoveGalleys)):
        if token in used:
            continue
        dests: set[int] = set()
        for ds in _sources(st, galleys).values():
            dests |= ds
        for d in sorted(dests):
            if us[d] < lim:
                out.append(intern(cls, b.terr_ids[d]))


def apply_start(st: Any, to: str, galleys: bool) -> None:
    """Pay 1 PP and fix the eligible sources (blocking as the board is now, §4.6)."""
    b = st.b
    d = b.terr_index[to]
    flow.begin_action(st, T_MOVE_G if galleys else T_MOVE_H)
    st.pp[st.cur] -= 1
    srcs = [t for t, ds in sorted(_sources(st, galleys).items()) if d in ds]
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
