"""Development actions (§5.1-§5.4): create hoplites, galleys, merchants; start a project."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hegemon.games.polis.actions import CreateGalleys, CreateHoplites, CreateMerchants, intern
from hegemon.games.polis.board import SILVER
from hegemon.games.polis.rules import flow
from hegemon.games.polis.rules.common import T_GALLEYS, T_HOPLITES, T_MERCHANTS, T_PROJECT
from hegemon.games.polis.rules.tables import CACHE_LIMIT

_B_HOPLITES, _B_GALLEYS, _B_MERCHANTS, _B_PROJECT = (
    1 << T_HOPLITES,
    1 << T_GALLEYS,
    1 << T_MERCHANTS,
    1 << T_PROJECT,
)

if TYPE_CHECKING:
    from hegemon.games.polis.state import PolisState


def _menu(cls: Any, name: str, kmax: int, have_main: int, have_silver: int) -> tuple[Any, ...]:
    """Every (count, silver) split of 1..kmax units: count − silver of the main resource, silver of silver."""
    return tuple(
        intern(cls, name, k, sil)
        for k in range(1, kmax + 1)
        for sil in range(max(0, k - have_main), min(k, have_silver) + 1)
    )


def _pick(
    st: PolisState, token: int, cls: Any, q: int, kmax: int, have_main: int, have_silver: int,
) -> tuple[Any, ...]:  # fmt: skip
    """The menu of polis `q` for 1..kmax units of `token` (kmax ≥ 1), from the board's flat tables."""
    tb = st.tables
    side = tb.menu_side
    hm = have_main if have_main < kmax else kmax
    hs = have_silver if have_silver < kmax else kmax
    if kmax < side:
        table = tb.unit_menus[token][q]
        i = (kmax * side + hm) * side + hs
        menu = table[i]
        if menu is None:
            menu = table[i] = _menu(cls, st.board.polis_ids[q], kmax, have_main, have_silver)
        return menu
    key = (token, q, kmax, hm, hs)  # beyond the board's largest population (never on a valid board)
    got = tb.units_menu.get(key)
    if got is None:
        if len(tb.units_menu) > CACHE_LIMIT:
            tb.units_menu.clear()
        got = tb.units_menu[key] = _menu(cls, st.board.polis_ids[q], kmax, have_main, have_silver)
    return got


def legal(st: PolisState, out: list[Any], used: int, own: tuple[int, ...], extra: bool) -> None:
    """Actions 1-4 for the side to move (`used`: the bitmask of the action types already taken this turn), in
    one pass over the own poleis: each can give its cubes above the minimum population as units, at most the
    stacking limit where they go (merchants: the supply left), paid with the unit's resource and/or silver, and
    at most what leaves the extra resource (§4.4)."""
    b = st.board
    s = st.active
    res = st.res[s]
    total = res[0] + res[1] + res[2] + res[3] + res[4] + res[5]
    xcap = total - b.extra_cost if extra else 1 << 30
    silver = res[SILVER]
    hop_res, gal_res, mer_res = b.unit_res
    # per unit kind: what it may cost at most (resource + silver, extra resource), 0 when not available
    hop_main = res[hop_res]
    hop_cap = 0 if used & _B_HOPLITES else min(hop_main + silver, xcap)
    gal_main = res[gal_res]
    gal_cap = 0 if used & _B_GALLEYS else min(gal_main + silver, xcap)
    mer_main = res[mer_res]
    left = b.max_merchants - st.merchants[s]
    mer_cap = 0 if used & _B_MERCHANTS or left <= 0 else min(mer_main + silver, xcap, left)
    if hop_cap > 0 or gal_cap > 0 or mer_cap > 0:
        lim = b.round_limit[st.round]
        pops = st.pop
        mn = b.min_pop
        units = st.units[s]
        terr = b.p_terr
        sea = b.p_galley_sea
        com = b.p_commercial
        gal_out: list[Any] = []
        mer_out: list[Any] = []
        tb = st.tables
        side = tb.menu_side  # menus by (units, main resource, silver) at (k * side + main) * side + silver
        hop_rows, gal_rows, mer_rows = (
            tb.unit_menus[T_HOPLITES],
            tb.unit_menus[T_GALLEYS],
            tb.unit_menus[T_MERCHANTS],
        )
        for q in own:
            spare = pops[q] - mn
            if spare < 1:
                continue
            if hop_cap > 0:
                k = lim - units[terr[q]]
                if spare < k:
                    k = spare
                if hop_cap < k:
                    k = hop_cap
                if k > 0:
                    menu = (
                        hop_rows[q][(k * side + (hop_main if hop_main < k else k)) * side + (silver if silver < k else k)]
                        if k < side else None
                    )  # fmt: skip
                    out.extend(menu or _pick(st, T_HOPLITES, CreateHoplites, q, k, hop_main, silver))
            if gal_cap > 0 and sea[q] >= 0:
                k = lim - units[sea[q]]
                if spare < k:
                    k = spare
                if gal_cap < k:
                    k = gal_cap
                if k > 0:
                    menu = (
                        gal_rows[q][(k * side + (gal_main if gal_main < k else k)) * side + (silver if silver < k else k)]
                        if k < side else None
                    )  # fmt: skip
                    gal_out.extend(menu or _pick(st, T_GALLEYS, CreateGalleys, q, k, gal_main, silver))
            if mer_cap > 0 and com[q]:
                k = spare if spare < mer_cap else mer_cap
                if k > 0:
                    menu = (
                        mer_rows[q][(k * side + (mer_main if mer_main < k else k)) * side + (silver if silver < k else k)]
                        if k < side else None
                    )  # fmt: skip
                    mer_out.extend(menu or _pick(st, T_MERCHANTS, CreateMerchants, q, k, mer_main, silver))
        out.extend(gal_out)
        out.extend(mer_out)
    if not used & _B_PROJECT and st.offer:
        tb = st.tables
        filled_all = st.slots
        for p in st.offer:
            cost, cost_sum = tb.project_cost[p]
            if (
                res[0] < cost[0] or res[1] < cost[1] or res[2] < cost[2] or res[3] < cost[3]
                or res[4] < cost[4] or res[5] < cost[5]
            ):  # fmt: skip
                continue
            if extra and total - cost_sum < b.extra_cost:
                continue
            sym_slots = tb.symbol_slots[b.pr_symbol[p]]
            acts = tb.start_project[p]
            for q in own:
                idx = sym_slots[q]
                if idx:
                    filled = filled_all[q]
                    for i in idx:
                        if filled[i] < 0:
                            out.append(acts[q])
                            break


def apply_create(st: PolisState, token: int, polis: str, count: int, silver: int) -> None:
    """§5.1-§5.3: cubes leave the polis; hoplites to its territory, galleys to its sea, merchants to port."""
    b = st.board
    s = st.active
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
        st.merchants[s] += count
        st.merchants_in_port[s] += count
    flow.finish_action(st)


def apply_project(st: PolisState, project: str, polis: str) -> None:
    """§5.4: pay the exact cost; the tile goes on a free slot of its symbol, under construction."""
    b = st.board
    s = st.active
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
