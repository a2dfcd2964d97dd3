"""The proxenos (§5.10-§5.12): move it bribing opponent units, redeem it, instigate a civil war."""

from __future__ import annotations

from typing import Any

from hegemon.games.polis.actions import CivilWar, MoveProxenos, RedeemProxenos, intern
from hegemon.games.polis.board import SILVER
from hegemon.games.polis.rules import common, flow
from hegemon.games.polis.rules.common import T_CIVIL_WAR, T_PROXENOS, T_REDEEM


def bribe_costs(st: Any, s: int, src: int, cap: int | None = None) -> list[int]:
    """Cheapest bribe from territory `src` to every territory: opponent units in every territory entered,
    the destination included, the start not (§5.10, R43). Dial's algorithm over the map (small integer
    weights); with `cap`, costs above it are not explored (they stay "infinite")."""
    b = st.b
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


def civil_war_cost(st: Any, s: int, q: int) -> int:
    """2 × base population (neutral) or 3 × current population (opponent's), in silver (§5.12)."""
    b = st.b
    return b.cw_neutral * b.p_base[q] if st.owner[q] < 0 else b.cw_opponent * st.pop[q]


def legal(st: Any, out: list[Any], used: set[int], extra: bool) -> None:
    b = st.b
    s = st.cur
    silver = st.res[s][SILVER]
    total = sum(st.res[s])
    here = st.prox[s]
    captured = st.prox_cap[s]
    if T_PROXENOS not in used and not captured:
        cap = min(silver, total - b.extra_cost) if extra else silver
        costs = bribe_costs(st, s, b.p_terr[here], cap)
        for q in range(b.n_poleis):
            if q == here:
                continue
            if costs[b.p_terr[q]] <= cap:
                out.append(intern(MoveProxenos, b.polis_ids[q]))
    if (
        T_REDEEM not in used
        and (captured or here != b.capital[s])
        and silver >= b.redeem_silver
        and (not extra or total - b.redeem_silver >= b.extra_cost)
    ):
        out.append(intern(RedeemProxenos))
    if T_CIVIL_WAR not in used and not captured and st.owner[here] != s and not b.p_capital[here]:
        c = civil_war_cost(st, s, here)
        if silver >= c and (not extra or total - c >= b.extra_cost) and common.pool(st, s) >= b.min_pop:
            out.append(intern(CivilWar, b.polis_ids[here]))


def apply_move(st: Any, polis: str) -> None:
    b = st.b
    s = st.cur
    q = b.polis_index[polis]
    flow.begin_action(st, T_PROXENOS)
    st.res[s][SILVER] -= bribe_costs(st, s, b.p_terr[st.prox[s]])[b.p_terr[q]]
    st.prox[s] = q
    flow.finish_action(st)


def apply_redeem(st: Any) -> None:
    """2 silver (`redeem_silver`) to the opponent; the proxenos stands on the own capital, free (§5.11)."""
    s = st.cur
    flow.begin_action(st, T_REDEEM)
    st.res[s][SILVER] -= st.b.redeem_silver
    common.gain(st, 1 - s, SILVER, st.b.redeem_silver)
    st.prox[s] = st.b.capital[s]
    st.prox_cap[s] = False
    flow.finish_action(st)


def apply_civil_war(st: Any, polis: str) -> None:
    """The polis joins with its population; prestige = population bribed, not silver spent (§5.12)."""
    b = st.b
    s = st.cur
    q = b.polis_index[polis]
    flow.begin_action(st, T_CIVIL_WAR)
    bribed = b.p_base[q] if st.owner[q] < 0 else st.pop[q]
    st.res[s][SILVER] -= civil_war_cost(st, s, q)
    common.take_polis(st, s, q)
    st.pp[s] += bribed
    flow.finish_action(st)
