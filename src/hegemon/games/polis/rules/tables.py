"""Per-board precomputed tables for the hot paths (issue 15): the interned actions of every polis, territory
and market, adjacency bitmasks, and bounded caches (unit-creation menus, movement destinations by blocking
pattern). Built once per board and shared by every state of it (`state.tables`); they never change a legal action,
only how fast it is found."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from hegemon.core.errors import RulesDataError
from hegemon.games.polis import actions as A
from hegemon.games.polis.actions import intern
from hegemon.games.polis.board import RESOURCES, _union_tables

if TYPE_CHECKING:
    from hegemon.games.polis.board import Board

CACHE_LIMIT = 200_000  # entries of a bounded cache before it is emptied (memory stays small)


def counts_key(tb: Tables, counts: list[int]) -> bytes | tuple[int, ...]:
    """A hashable key of a list of unit counts (bytes when every count fits)."""
    return bytes(counts) if tb.byte_counts else tuple(counts)


@mypyc_attr(
    serializable=True
)  # compiled (mypyc): pickling (search workers) makes the object with __new__ alone
class Tables:
    """Everything derived from the board alone (never from a position)."""

    def __init__(self, b: Board) -> None:
        n = b.n_terr
        self.bit = [1 << t for t in range(n)]
        self.all_mask = (1 << n) - 1
        self.land_mask = sum(1 << t for t in range(n) if b.is_land[t])
        self.sea_mask = self.all_mask & ~self.land_mask
        if n > 32:
            raise RulesDataError(b.path, "territories", f"at most 32 territories are supported, found {n}")
        if b.n_poleis > 64:
            raise RulesDataError(b.path, "poleis", f"at most 64 poleis are supported, found {b.n_poleis}")
        self.adj_union = _union_tables([b.land_adj_mask[t] | b.sea_adj_mask[t] for t in range(n)])
        self.adj_union4 = tuple((self.adj_union + [[0] * 256] * 4)[:4])
        self.land_union4 = tuple((b.land_union + [[0] * 256] * 4)[:4])
        self.sea_union4 = tuple((b.sea_union + [[0] * 256] * 4)[:4])
        self.sea_adj = {1 << t: b.sea_adj_mask[t] for t in range(n)}  # by source bit
        tid, pid = b.terr_ids, b.polis_ids
        self.move_h = [intern(A.MoveHoplites, x) for x in tid]
        self.move_g = [intern(A.MoveGalleys, x) for x in tid]
        self.collect = [intern(A.Collect, x) for x in tid]
        self.remove_unit = [intern(A.RemoveUnit, x) for x in tid]
        self.choose_battle = [intern(A.ChooseBattle, x) for x in tid]
        self.retreat = [intern(A.Retreat, x) for x in tid]
        self.trade = [(intern(A.Trade, m, False), intern(A.Trade, m, True)) for m in b.market_ids]
        self.move_proxenos = [intern(A.MoveProxenos, x) for x in pid]
        self.civil_war = [intern(A.CivilWar, x) for x in pid]
        self.besiege = [intern(A.Besiege, x) for x in pid]
        self.start_siege = [intern(A.StartSiege, x) for x in pid]
        self.continue_siege = [intern(A.ContinueSiege, x) for x in pid]
        self.grow = [intern(A.Grow, x) for x in pid]
        self.release = [intern(A.ReleasePolis, x) for x in pid]
        self.start_project = [[intern(A.StartProject, p, q) for q in pid] for p in b.project_ids]
        self.draw_project = [intern(A.DrawProject, p) for p in b.project_ids]
        self.draw_event = [intern(A.DrawEvent, e) for e in b.event_ids]
        self.draw_card = [[intern(A.DrawCard, side, k.name) for k in b.card_kinds] for side in (0, 1)]
        self.pay_extra = [intern(A.PayExtra, r) for r in RESOURCES]
        top = max([*b.round_limit, 1]) * 2 + 2
        self.move_from = [[intern(A.MoveFrom, x, c) for c in range(top + 1)] for x in tid]
        self.redeem = intern(A.RedeemProxenos)
        self.end_move = intern(A.EndMove)
        # poleis by index: (territory, fortification)
        self.sieges = [(q, b.p_terr[q], b.p_fort[q]) for q in range(b.n_poleis)]
        self.project_cost = [(b.pr_cost[p], sum(b.pr_cost[p])) for p in range(len(b.project_ids))]
        # sieges: the poleis that are not capitals, (polis, territory, fortification), by polis
        self.siege_targets = [(q, b.p_terr[q], b.p_fort[q]) for q in range(b.n_poleis) if not b.p_capital[q]]
        self.terr_poleis_mask = [sum(1 << q for q in b.terr_poleis[t]) for t in range(n)]
        # trade: the seas of each side's route to each market, as bitmasks
        self.route_mask = [[sum(1 << x for x in r) for r in b.routes[s]] for s in (0, 1)]
        # projects: for each symbol and polis, the indices of the polis's slots of that symbol
        n_sym = max([*b.pr_symbol, *(x for sl in b.p_slots for x in sl), 0]) + 1
        self.symbol_slots = [
            [tuple(i for i, x in enumerate(b.p_slots[q]) if x == sym) for q in range(b.n_poleis)]
            for sym in range(n_sym)
        ]
        self.units_menu: dict[tuple[int, ...], tuple[Any, ...]] = {}
        # unit-creation menus by token, polis and (units, main resource, silver) as one index (see development)
        self.menu_side = max([*b.p_max, *b.p_base, 1]) + 1
        self.unit_menus: list[list[list[tuple[Any, ...] | None]]] = [
            [[None] * self.menu_side**3 for _ in range(b.n_poleis)] if token else [] for token in range(4)
        ]
        self.dests: dict[int, int] = {}
        self.views: dict[bytes | tuple[int, ...], UnitView] = {}
        # (side, *owners) -> the side's poleis, the bitmask of their territories
        self.own: dict[tuple[int, ...], tuple[tuple[int, ...], int]] = {}
        self.bribes: dict[tuple[int, bytes | tuple[int, ...]], tuple[int, tuple[tuple[int, int], ...]]] = {}
        self.byte_counts = b.cubes < 256  # unit counts fit in bytes (fast cache keys)
        # unit counts below 128 (a side has `cubes` in all): the byte-lane constants of `unit_view`
        self.lanes: tuple[int, int, int, bytes] | None = None
        if b.cubes < 128:
            self.lanes = (
                int.from_bytes(b"\x80" * n, "little"),
                int.from_bytes(b"\x7f" * n, "little"),
                n,
                bytes.maketrans(b"\x00\x80", b"01"),
            )
        self.free_reach: dict[int, int] = {}
        self.full: dict[tuple[bytes | tuple[int, ...], int], int] = {}
        self.move_menu: dict[tuple[bool, int], tuple[Any, ...]] = {}
        self.prox_menu: dict[int, tuple[Any, ...]] = {}  # (reach, here): at most 2**n × poleis


def tables(b: Board) -> Tables:
    """The tables of board `b` (built on first use, then kept with the board)."""
    t: Tables | None = b.cache.get("tables")
    if t is None:
        t = b.cache["tables"] = Tables(b)
    return t


@mypyc_attr(
    serializable=True
)  # compiled (mypyc): pickled with the board's tables (search workers), made with __new__ alone
class UnitView:
    """What the rules derive from the unit counts alone — a side's units `us` against the opponent's `them` —
    cached per count pattern (`unit_view`): the bitmasks of the territories the opponent does not control
    (§4.6), with own units, with opponent units; and, computed on first use, the poleis within siege reach,
    the movement menus for a stacking limit, the battle territories (§6.1)."""

    __slots__ = ("open", "mine", "theirs", "in_reach", "move_limit", "hop_menu", "gal_menu", "battles")

    def __init__(self, om: int, mine: int, theirs: int) -> None:
        self.open = om
        self.mine = mine
        self.theirs = theirs
        self.in_reach: tuple[tuple[int, int, int], ...] | None = None
        self.move_limit = -1
        self.hop_menu: tuple[Any, ...] = ()
        self.gal_menu: tuple[Any, ...] = ()
        self.battles: tuple[int, ...] | None = None


def unit_view(tb: Tables, us: list[int], them: list[int]) -> UnitView:
    """The `UnitView` of `us` against `them` (cached by the unit counts). Both sides' views are made together:
    the side to move next usually needs the other one."""
    if tb.byte_counts:
        ku, kt = bytes(us), bytes(them)
        key: bytes | tuple[int, ...] = ku + kt
        got = tb.views.get(key)
        if got is not None:
            return got
        other: bytes | tuple[int, ...] = kt + ku
        if tb.lanes:  # every count below 128: all four masks at once, one byte lane per territory (SWAR)
            hi, lo, n, tr = tb.lanes
            xu, xt = int.from_bytes(ku, "little"), int.from_bytes(kt, "little")
            ours = int((((xu | hi) - xt) & hi).to_bytes(n, "big").translate(tr), 2)  # lane high bit: u >= v
            theirs_open = int((((xt | hi) - xu) & hi).to_bytes(n, "big").translate(tr), 2)
            mine = int(((xu + lo) & hi).to_bytes(n, "big").translate(tr), 2)  # lane high bit: u >= 1
            theirs = int(((xt + lo) & hi).to_bytes(n, "big").translate(tr), 2)
            return _store(tb, key, other, ours, theirs_open, mine, theirs)
    else:
        key = (*us, -1, *them)
        got = tb.views.get(key)
        if got is not None:
            return got
        other = (*them, -1, *us)
    ours = theirs_open = mine = theirs = 0
    bit = 1
    for u, v in zip(us, them, strict=True):
        if v <= u:
            ours |= bit
        if u <= v:
            theirs_open |= bit
        if u:
            mine |= bit
        if v:
            theirs |= bit
        bit <<= 1
    return _store(tb, key, other, ours, theirs_open, mine, theirs)


def _store(
    tb: Tables, key: bytes | tuple[int, ...], other: bytes | tuple[int, ...], ours: int, theirs_open: int,
    mine: int, theirs: int,
) -> UnitView:  # fmt: skip
    views = tb.views
    if len(views) > CACHE_LIMIT:
        views.clear()
    got = views[key] = UnitView(ours, mine, theirs)
    if other != key:
        views[other] = UnitView(theirs_open, theirs, mine)
    return got


def unit_masks(tb: Tables, us: list[int], them: list[int]) -> tuple[int, int, int]:
    """(open, mine, theirs) bitmasks of a side's units `us` against `them`: the territories the opponent does
    not control (§4.6), those with own units, those with opponent units. Cached by the unit counts."""
    v = unit_view(tb, us, them)
    return v.open, v.mine, v.theirs


def full_mask(tb: Tables, us: list[int], lim: int) -> int:
    """Territories where a side's units `us` have reached the stacking limit `lim` (cached by the counts)."""
    key = (counts_key(tb, us), lim)
    got = tb.full.get(key)
    if got is None:
        got = 0
        bit = 1
        for u in us:
            if u >= lim:
                got |= bit
            bit <<= 1
        if len(tb.full) > CACHE_LIMIT:
            tb.full.clear()
        tb.full[key] = got
    return got
