"""The proxenos (§5.10-§5.12): move it bribing opponent units, redeem it, instigate a civil war."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hegemon.games.polis.board import SILVER, bits
from hegemon.games.polis.rules import common, flow
from hegemon.games.polis.rules.common import T_CIVIL_WAR, T_PROXENOS, T_REDEEM
from hegemon.games.polis.rules.tables import CACHE_LIMIT, counts_key, unit_masks

_B_PROXENOS, _B_REDEEM, _B_CIVIL_WAR = 1 << T_PROXENOS, 1 << T_REDEEM, 1 << T_CIVIL_WAR

if TYPE_CHECKING:
    from hegemon.games.polis.state import PolisState


def bribe_costs(st: PolisState, s: int, src: int, cap: int | None = None) -> list[int]:
    """Cheapest bribe from territory `src` to every territory: opponent units in every territory entered,
    the destination included, the start not (§5.10, R43). Dial's algorithm over the map (small integer
    weights); with `cap`, costs above it are not explored (they stay "infinite")."""
    b = st.board
    k = b.bribe_per_unit
    w = st.units[1 - s] if k == 1 else [k * u for u in st.units[1 - s]]
    inf = 1 << 30
    dist = [inf] * b.n_terr
    dist[src] = 0
    adj = b.adj
    buckets: list[list[int]] = [[src]]
    c = 0
    while c < len(buckets):
        for u in buckets[c]:  # zero-weight steps append to this very bucket
            if dist[u] != c:
                continue
            for v in adj[u]:
                nd = c + w[v]
                if nd < dist[v] and (cap is None or nd <= cap):
                    dist[v] = nd
                    while len(buckets) <= nd:
                        buckets.append([])
                    buckets[nd].append(v)
        c += 1
    return dist


_ALL = 1 << 30  # a cost above every bribe


def _levels(st: PolisState, s: int, src: int, cap: int, theirs: int = -1) -> tuple[tuple[int, int], ...]:
    """The cheapest-bribe search from `src` over bitmasks (Dial's buckets of territory sets; a cost level
    spreads through every opponent-free territory at once): (cost, territories reached at that cost or less)
    for each cost level up to `cap` at least, cached by the start and the opponent's units with the cost
    explored (the search stops above `cap`: the usual question is what the side's silver reaches)."""
    tb = st.tables
    w = st.units[1 - s]
    key = (src, counts_key(tb, w))
    got = tb.bribes.get(key)
    if got is not None and got[0] >= cap:
        return got[1]
    k = st.board.bribe_per_unit
    heavy = 0 if not k else theirs if theirs >= 0 else unit_masks(tb, st.units[s], w)[2]
    zero = tb.all_mask & ~heavy
    a0, a1, a2, a3 = tb.adj_union4  # byte tables of the whole adjacency (boards of at most 32 territories)
    done = 0
    buckets = {0: tb.bit[src]}
    levels = []
    explored = _ALL
    while buckets:
        c = min(buckets)
        if c > cap:
            explored = cap
            break
        m = buckets.pop(c) & ~done
        if not m:
            continue
        f = m
        while f:  # cost-free steps: every opponent-free neighbour joins this level
            f = (a0[f & 255] | a1[f >> 8 & 255] | a2[f >> 16 & 255] | a3[f >> 24]) & zero & ~done & ~m
            m |= f
        done |= m
        levels.append((c, done))
        nxt = (a0[m & 255] | a1[m >> 8 & 255] | a2[m >> 16 & 255] | a3[m >> 24]) & heavy & ~done
        while nxt:
            low = nxt & -nxt
            nxt ^= low
            cv = c + k * w[low.bit_length() - 1]
            buckets[cv] = buckets.get(cv, 0) | low
    if len(tb.bribes) > CACHE_LIMIT:
        tb.bribes.clear()
    found = tuple(levels)
    tb.bribes[key] = (explored, found)
    return found


def _free_reach(st: PolisState, s: int, src: int, theirs: int = -1) -> int:
    """The territories a bribe of 0 reaches (the first level of `_levels`): they depend only on where the
    opponent has units (`theirs`, when the caller has it), so they are cached by that pattern."""
    tb = st.tables
    if not st.board.bribe_per_unit:
        heavy = 0
    elif theirs >= 0:
        heavy = theirs
    else:
        heavy = unit_masks(tb, st.units[s], st.units[1 - s])[2]
    key = heavy << 6 | src  # an int key: cheaper to build and hash than a tuple (src < 32)
    got = tb.free_reach.get(key)
    if got is None:
        zero = tb.all_mask & ~heavy
        a0, a1, a2, a3 = tb.adj_union4
        m = f = tb.bit[src]
        while f:
            f = (a0[f & 255] | a1[f >> 8 & 255] | a2[f >> 16 & 255] | a3[f >> 24]) & zero & ~m
            m |= f
        if len(tb.free_reach) > CACHE_LIMIT:
            tb.free_reach.clear()
        got = tb.free_reach[key] = m
    return got


def bribe_reach(
    st: PolisState, s: int, src: int, cap: int | None = None, target: int = -1, theirs: int = -1,
) -> int:  # fmt: skip
    """The same answers as `bribe_costs`, from the cached levels: the bitmask of the territories whose cheapest
    bribe is at most `cap`, or, with `target` ≥ 0, that territory's cheapest bribe (-1 if above `cap`)."""
    reach = 0
    for c, cum in _levels(st, s, src, _ALL if cap is None else cap, theirs):
        if cap is not None and c > cap:
            break
        if target >= 0 and cum >> target & 1:
            return c
        reach = cum
    return -1 if target >= 0 else reach


def civil_war_cost(st: PolisState, s: int, q: int) -> int:
    """2 × base population (neutral) or 3 × current population (opponent's), in silver (§5.12)."""
    b = st.board
    return b.cw_neutral * b.p_base[q] if st.owner[q] < 0 else b.cw_opponent * st.pop[q]


def legal(st: PolisState, out: list[Any], used: int, extra: bool, theirs: int) -> None:
    """Actions 10-12 for the side to move; `used`: the bitmask of the action types taken this turn; `theirs`:
    the territories with opponent units."""
    b = st.board
    s = st.active
    silver = st.res[s][SILVER]
    total = sum(st.res[s])
    here = st.proxenos[s]
    captured = st.proxenos_captured[s]
    if not used & _B_PROXENOS and not captured:
        cap = min(silver, total - b.extra_cost) if extra else silver
        src = b.p_terr[here]
        reach = _free_reach(st, s, src, theirs) if cap == 0 else bribe_reach(st, s, src, cap, -1, theirs)
        if reach:
            tb = st.tables
            key = reach << 7 | here  # (reach, here) as an int (here < 64)
            menu = tb.prox_menu.get(key)
            if menu is None:
                if len(tb.prox_menu) > CACHE_LIMIT:
                    tb.prox_menu.clear()
                acts = tb.move_proxenos
                pm = 0  # the poleis of the territories reached, but the one the proxenos stands on
                tp = tb.terr_poleis_mask
                for t in bits(reach):
                    pm |= tp[t]
                menu = tb.prox_menu[key] = tuple(acts[q] for q in bits(pm & ~(1 << here)))
            out.extend(menu)
    if (
        not used & _B_REDEEM
        and (captured or here != b.capital[s])
        and silver >= b.redeem_silver
        and (not extra or total - b.redeem_silver >= b.extra_cost)
    ):
        out.append(st.tables.redeem)
    if not used & _B_CIVIL_WAR and not captured and st.owner[here] != s and not b.p_capital[here]:
        c = civil_war_cost(st, s, here)
        if silver >= c and (not extra or total - c >= b.extra_cost) and common.pool(st, s) >= b.min_pop:
            out.append(st.tables.civil_war[here])


def apply_move(st: PolisState, polis: str) -> None:
    b = st.board
    s = st.active
    q = b.polis_index[polis]
    flow.begin_action(st, T_PROXENOS)
    src, dest = b.p_terr[st.proxenos[s]], b.p_terr[q]
    if not _free_reach(st, s, src) >> dest & 1:  # a free move (the usual case) needs no cheapest-bribe search
        st.res[s][SILVER] -= bribe_reach(st, s, src, st.res[s][SILVER], dest)  # legal: within the silver
    st.proxenos[s] = q
    flow.finish_action(st)


def apply_redeem(st: PolisState) -> None:
    """2 silver (`redeem_silver`) to the opponent; the proxenos stands on the own capital, free (§5.11)."""
    s = st.active
    flow.begin_action(st, T_REDEEM)
    st.res[s][SILVER] -= st.board.redeem_silver
    common.gain(st, 1 - s, SILVER, st.board.redeem_silver)
    st.proxenos[s] = st.board.capital[s]
    st.proxenos_captured[s] = False
    flow.finish_action(st)


def apply_civil_war(st: PolisState, polis: str) -> None:
    """The polis joins with its population; prestige = population bribed, not silver spent (§5.12)."""
    b = st.board
    s = st.active
    q = b.polis_index[polis]
    flow.begin_action(st, T_CIVIL_WAR)
    bribed = b.p_base[q] if st.owner[q] < 0 else st.pop[q]
    st.res[s][SILVER] -= civil_war_cost(st, s, q)
    common.take_polis(st, s, q)
    st.pp[s] += bribed
    flow.finish_action(st)
