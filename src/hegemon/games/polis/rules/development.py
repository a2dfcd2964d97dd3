"""Development actions (§5.1-§5.4): create hoplites, galleys, merchants; start a project."""

from __future__ import annotations

from typing import Any

from hegemon.games.polis.actions import CreateGalleys, CreateHoplites, CreateMerchants, StartProject, intern
from hegemon.games.polis.board import SILVER
from hegemon.games.polis.rules import common, flow
from hegemon.games.polis.rules.common import T_GALLEYS, T_HOPLITES, T_MERCHANTS, T_PROJECT


def _units(st: Any, out: list[Any], cls: Any, own: list[int], room_of: Any, main: int, extra: bool) -> None:
    b = st.b
    s = st.cur
    res = st.res[s]
    have_main = res[main]
    have_silver = res[SILVER]
    total = sum(res)
    mn = b.min_pop
    for q in own:
        pop = st.pop[q]
        if pop <= mn:
            continue
        room = room_of(q)
        kmax = min(pop - mn, room, have_main + have_silver)
        if extra:
            kmax = min(kmax, total - b.extra_cost)
        name = b.polis_ids[q]
        for k in range(1, kmax + 1):
            for sil in range(max(0, k - have_main), min(k, have_silver) + 1):
                out.append(intern(cls, name, k, sil))


def legal(st: Any, out: list[Any], used: set[int], own: list[int], extra: bool) -> None:
    b = st.b
    s = st.cur
    lim = common.limit(st)
    units = st.units[s]
    hop_res, gal_res, mer_res = b.unit_res
    if T_HOPLITES not in used:
        _units(st, out, CreateHoplites, own, lambda q: lim - units[b.p_terr[q]], hop_res, extra)
    if T_GALLEYS not in used:
        gal = [q for q in own if b.p_galley_sea[q] >= 0]
        _units(st, out, CreateGalleys, gal, lambda q: lim - units[b.p_galley_sea[q]], gal_res, extra)
    if T_MERCHANTS not in used:
        com = [q for q in own if b.p_commercial[q]]
        left = b.max_merchants - st.merch_total[s]
        if left > 0:
            _units(st, out, CreateMerchants, com, lambda q: left, mer_res, extra)
    if T_PROJECT not in used and st.offer:
        res = st.res[s]
        total = sum(res)
        for p in st.offer:
            cost = b.pr_cost[p]
            if any(res[i] < cost[i] for i in range(6)):
                continue
            if extra and total - sum(cost) < b.extra_cost:
                continue
            sym = b.pr_symbol[p]
            for q in own:
                slots = b.p_slots[q]
                filled = st.slots[q]
                for i in range(len(slots)):
                    if slots[i] == sym and filled[i] < 0:
                        out.append(intern(StartProject, b.project_ids[p], b.polis_ids[q]))
                        break


def apply_create(st: Any, token: int, polis: str, count: int, silver: int) -> None:
    """§5.1-§5.3: cubes leave the polis; hoplites to its territory, galleys to its sea, merchants to port."""
    b = st.b
    s = st.cur
    q = b.polis_index[polis]
    flow.begin_action(st, token)
    main = b.unit_res[token - T_HOPLITES]
    st.res[s][main] -= count - silver
    st.res[s][SILVER] -= silver
    st.pop[q] -= count
    if token == T_HOPLITES:
        st.units[s][b.p_terr[q]] += count
    elif token == T_GALLEYS:
        st.units[s][b.p_galley_sea[q]] += count
    else:
        st.merch_total[s] += count
        st.merch_port[s] += count
    flow.finish_action(st)


def apply_project(st: Any, project: str, polis: str) -> None:
    """§5.4: pay the exact cost; the tile goes on a free slot of its symbol, under construction."""
    b = st.b
    s = st.cur
    p = b.project_index[project]
    q = b.polis_index[polis]
    flow.begin_action(st, T_PROJECT)
    cost = b.pr_cost[p]
    res = st.res[s]
    for i in range(6):
        res[i] -= cost[i]
    st.offer.remove(p)
    slots = b.p_slots[q]
    filled = list(st.slots[q])
    for i in range(len(slots)):
        if slots[i] == b.pr_symbol[p] and filled[i] < 0:
            filled[i] = p
            break
    st.slots[q] = tuple(filled)
    st.started.append(p)
    flow.finish_action(st)
