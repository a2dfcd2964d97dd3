"""What the rules ask of the position again and again, kept up to date as it changes instead of searched for
each time (issue 15): each party's provinces in board order, each province's enemy land neighbours, each
party's largest empire (recomputed only for the parties a conquest touched) and the controller of each sea.

Only `set_owner` and `sea_changed` change these: every rule that changes an owner or a trireme count calls one
of them. Code that writes `owner` or `triremes` directly (a test building a position) calls `reindex` after."""

from __future__ import annotations

from bisect import insort
from typing import TYPE_CHECKING

from hegemon.games.spqrisiko.scoring import NEUTRAL, _top_two, compared_scores, component_size

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
        size = component_size(land, owner, seen, start, o)
        if size > best:
            best = size
    st.empire[o] = best
    st.empire_ok[o] = True
    return best


def empires(st: SpqrState) -> list[int]:
    """Every party's largest empire (`empire`), by party: seats 0..n-1, the neutrals at index -1 (= n). The
    state's own list: read it, never change it."""
    ok = st.empire_ok
    for o in range(-1, st.n):
        if not ok[o]:
            empire(st, o)
    return st.empire


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


def next_scores(st: SpqrState, players: list[int], competitors: list[int]) -> dict[int, dict[str, int]]:
    """`scoring.next_scores` of the position (each of `players`' next scoring), from the index: provinces, seas
    and empires are read, not counted."""
    provs = st.provs
    held = st.seas_held
    pc = st.power_centre
    counts: dict[int, int] = {}
    seas: dict[int, int] = {}
    empires: dict[int, int] = {}
    for c in competitors:
        counts[c] = len(provs[c])
        seas[c] = held[c] if c >= 0 else 0
        empires[c] = empire(st, c)
    top_counts = _top_two(counts)
    top_seas = _top_two(seas)
    top_empires = _top_two(empires)
    out: dict[int, dict[str, int]] = {}
    tops = (top_empires, top_counts, top_seas)
    for who in players:
        pcs = 0
        for p in provs[who]:
            if pc[p]:
                pcs += 1
        out[who] = compared_scores(who, empires, counts, seas, tops, pcs)
    return out


def next_vp(st: SpqrState, players: list[int], competitors: list[int]) -> dict[int, int]:
    """The total of `next_scores` for each of `players` (what a bot's evaluation adds up), without the
    per-source dictionaries."""
    provs = st.provs
    held = st.seas_held
    pc = st.power_centre
    best_c = second_c = best_s = second_s = best_e = second_e = -1
    party_c = party_s = party_e = -2
    member: set[int] = set()
    emp = empires(st)
    for c in competitors:  # the best two of each, as `_top_two` finds them (same order, same ties)
        member.add(c)
        v = len(provs[c])
        if v > best_c:
            best_c, party_c, second_c = v, c, best_c
        elif v > second_c:
            second_c = v
        v = held[c] if c >= 0 else 0
        if v > best_s:
            best_s, party_s, second_s = v, c, best_s
        elif v > second_s:
            second_s = v
        v = emp[c]
        if v > best_e:
            best_e, party_e, second_e = v, c, best_e
        elif v > second_e:
            second_e = v
    out: dict[int, int] = {}
    for who in players:
        total = 0
        for p in provs[who]:
            if pc[p]:
                total += 1
        if who in member:
            mine = emp[who]
            if mine >= 4 and mine > (second_e if party_e == who else best_e):
                total += 1
            if len(provs[who]) > (second_c if party_c == who else best_c):
                total += 1
            mine = held[who]
            if mine > 0 and mine > (second_s if party_s == who else best_s):
                total += 1
        elif best_c < 0:
            total += 1
        out[who] = total
    return out
