"""What the rules ask of the position again and again, kept up to date as it changes instead of searched for
each time (issue 15): each party's provinces in board order, each province's enemy land neighbours, each
party's largest empire (recomputed only for the parties a conquest touched) and the controller of each sea.

Only `set_owner` and `sea_changed` change these: every rule that changes an owner or a trireme count calls one
of them. Code that writes `owner` or `triremes` directly (a test building a position) calls `reindex` after."""

from __future__ import annotations

from bisect import insort
from typing import TYPE_CHECKING

from hegemon.games.spqrisiko.scoring import NEUTRAL

if TYPE_CHECKING:
    from hegemon.games.spqrisiko.state import SpqrState


def reindex(st: SpqrState) -> None:
    """Rebuild every index from `owner` and `triremes`."""
    n = st.n
    owner = st.owner
    land = st.board.land
    nie = st.opts.neutral_is_enemy
    provs: list[list[int]] = [[] for _ in range(n + 1)]  # index -1 (= n): the neutrals
    ne = [0] * len(owner)
    for p, o in enumerate(owner):
        if o >= NEUTRAL:
            provs[o].append(p)
        c = 0
        for q in land[p]:
            oq = owner[q]
            if oq != o and (oq >= 0 or (oq == NEUTRAL and nie)):
                c += 1
        ne[p] = c
    st.provs = provs
    st.ne = ne
    st.empire = [0] * (n + 1)
    st.empire_ok = [False] * (n + 1)
    st.sea_ctrl = [-1] * st.board.n_seas
    st.seas_held = [0] * (n + 1)
    for s in range(st.board.n_seas):
        sea_changed(st, s)


def set_owner(st: SpqrState, p: int, new: int) -> None:
    """Give province p to `new` (a seat or the neutrals), keeping every index up to date."""
    owner = st.owner
    old = owner[p]
    if old == new:
        return
    owner[p] = new
    provs = st.provs
    ok = st.empire_ok
    if old >= NEUTRAL:
        provs[old].remove(p)
        ok[old] = False
    if new >= NEUTRAL:
        insort(provs[new], p)
        ok[new] = False
    nie = st.opts.neutral_is_enemy
    old_enemy = old >= 0 or (old == NEUTRAL and nie)
    new_enemy = new >= 0 or (new == NEUTRAL and nie)
    ne = st.ne
    c = 0
    for q in st.board.land[p]:
        oq = owner[q]
        if oq != new and (oq >= 0 or (oq == NEUTRAL and nie)):
            c += 1
        # p as a neighbour of q: an enemy of q's owner before, after?
        if old_enemy and old != oq:
            ne[q] -= 1
        if new_enemy and new != oq:
            ne[q] += 1
    ne[p] = c


def sea_changed(st: SpqrState, s: int) -> None:
    """Recount who controls sea s (strictly the most triremes [R 5.6.3], [R 15.2]) after a trireme count there
    changed."""
    best, ctrl = 0, -1
    tri = st.triremes
    for p in range(st.n):
        k = tri[p][s]
        if k > best:
            best, ctrl = k, p
        elif k == best and k > 0:
            ctrl = -1
    was = st.sea_ctrl[s]
    if was != ctrl:
        if was >= 0:
            st.seas_held[was] -= 1
        if ctrl >= 0:
            st.seas_held[ctrl] += 1
        st.sea_ctrl[s] = ctrl


def empire(st: SpqrState, o: int) -> int:
    """The size of party o's largest set of land-connected provinces [R 5.6.1] (0 without provinces)."""
    if st.empire_ok[o]:
        return st.empire[o]
    owner = st.owner
    land = st.board.land
    seen = [False] * len(owner)
    best = 0
    for start in st.provs[o]:
        if seen[start]:
            continue
        seen[start] = True
        stack = [start]
        size = 0
        while stack:
            p = stack.pop()
            size += 1
            for q in land[p]:
                if not seen[q] and owner[q] == o:
                    seen[q] = True
                    stack.append(q)
        if size > best:
            best = size
    st.empire[o] = best
    st.empire_ok[o] = True
    return best


def empire_sizes(st: SpqrState) -> dict[int, int]:
    """`scoring.empire_sizes` of the position (every party holding a province), from the index."""
    return {o: empire(st, o) for o in (*range(st.n), NEUTRAL) if st.provs[o]}


def score(st: SpqrState, who: int, competitors: list[int]) -> dict[str, int]:
    """`scoring.score_turn` of the position for `who` (same values, same key order), from the index."""
    provs = st.provs
    member = who in competitors
    others = [c for c in competitors if c != who]
    mine = len(provs[who]) if member else 0
    provinces = 1
    for c in others:
        if mine <= len(provs[c]):
            provinces = 0
            break
    held = st.seas_held
    mine_seas = held[who] if member else 0
    sea_vp = 0
    if mine_seas > 0:
        sea_vp = 1
        for c in others:
            if c >= 0 and mine_seas <= held[c]:
                sea_vp = 0
                break
    emp = 0
    if member:
        mine_empire = empire(st, who)
        if mine_empire >= 4:
            emp = 1
            for c in others:
                if mine_empire <= empire(st, c):
                    emp = 0
                    break
    pc = st.power_centre
    pcs = 0
    for p in provs[who]:
        if pc[p]:
            pcs += 1
    return {"empire": emp, "provinces": provinces, "seas": sea_vp, "power_centres": pcs}
