"""The Polis board and decks as data: load `data/board.toml` (or a corrected file) once, validate it
(polis.md §2.6) raising `RulesDataError(path, entry, msg)`, and precompute the integer tables the engine uses.

`load_board(path)` is cached per path; `reconstructed_values(board)` lists every reconstructed value with its
Rnn decision (polis.md §11) so a user with the physical game can correct it with `board=PATH`.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mypy_extensions import mypyc_attr

from hegemon.core.boardfile import build, check_count, check_int, read_text
from hegemon.core.boards import BoardRegistry
from hegemon.core.errors import RulesDataError
from hegemon.core.roles import BoardRole

DEFAULT_BOARD = Path(__file__).with_name("data") / "board.toml"
SHIPPED_BOARDS: dict[str, Path] = {
    "default": DEFAULT_BOARD,
    "balanced": DEFAULT_BOARD.with_name("board-balanced.toml"),
}
"""The boards that come with the game, selectable by name (`--board balanced`, `board=balanced`;
`--board default,balanced` compares them in the lab): the default is the reconstruction (the same as no board);
the balanced board changes reconstructed values only, so that Athens and Sparta win about equally often with
the same bot on both sides (README.md, "Balance of the reconstructed board")."""

RESOURCES = ("metal", "wood", "wine", "oil", "wheat", "silver")
RES = {r: i for i, r in enumerate(RESOURCES)}
METAL, WOOD, WINE, OIL, WHEAT, SILVER = range(6)
PRESTIGE = 6  # pseudo-resource index used by event effects
SIDES = ("athens", "sparta")
SIDE = {"athens": 0, "sparta": 1}
ATHENS, SPARTA = 0, 1
NEUTRAL = -1
_ID = re.compile(r"^[a-z][a-z0-9_]*$")

# Which Rnn decision (polis.md §11) a reconstructed field belongs to: (section, field) -> Rnn.
_DECISIONS: dict[tuple[str, str], str] = {
    ("territories", "name"): "R01",
    ("territories", "kind"): "R01",
    ("territories", "adjacent"): "R04",
    ("territories", "tribute_box"): "R15",
    ("territories", "aliases"): "R01",
    ("poleis", "name"): "R06",
    ("poleis", "territory"): "R05",
    ("poleis", "capital"): "R13",
    ("poleis", "fortification"): "R07",
    ("poleis", "base_population"): "R08",
    ("poleis", "max_population"): "R08",
    ("poleis", "max_growth"): "R08",
    ("poleis", "commercial"): "R09",
    ("poleis", "galley_sea"): "R10",
    ("poleis", "project_slots"): "R11",
    ("poleis", "start_owner"): "R12",
    ("sides", "home_region"): "R14",
    ("sides", "trade_port"): "R16",
    ("sides", "battle_initiative"): "R48",
    ("trade_ports", "*"): "R16",
    ("trade_routes", "*"): "R17",
    ("markets", "name"): "R18",
    ("markets", "shiploads"): "R19",
    ("market_values", "*"): "R20",
    ("market_values", "start_position"): "R29",
    ("combat_formations", "*"): "R22",
    ("combat_cards", "*"): "R22",
    ("project_symbols", "*"): "R11",
    ("projects", "*"): "R23",
    ("events", "*"): "R25",
    ("event_piles", "*"): "R24",
    ("rounds", "event_pile"): "R24",
    ("constants", "cubes_per_side"): "R26",
    ("constants", "merchant_ships_per_side"): "R26",
    ("constants", "resource_maximum"): "R27",
    ("constants", "min_polis_population"): "R38",
    ("constants", "battle_hand_size"): "R49",
    ("constants", "first_player_tie_round_3"): "R30",
    ("setup", "*"): "R28",
}
# Every entry of [constants] the engine reads; any other name is refused (it would silently do nothing).
CONSTANTS = (
    "resources", "cubes_per_side", "merchant_ships_per_side", "resource_maximum", "min_polis_population",
    "military_action_prestige", "home_collection_prestige", "extra_resource_after_opponent_passed", "unit_cost",
    "siege_die_sides", "battle_threshold_units", "battle_hand_size", "battle_min_units", "retreat_prestige",
    "bribe_silver_per_enemy_unit", "redeem_silver", "civil_war_neutral_multiplier",
    "civil_war_opponent_multiplier", "project_offer_size", "supply_wheat_per_cube", "growth_wheat_per_cube",
    "megalopolis_prestige_per_polis", "storage_halved", "phoros_prestige_to_silver", "first_player_tie_round_3",
)  # fmt: skip
_SKIP_FIELDS = {"id", "provenance", "field_provenance", "lat", "lon", "aliases"}


# compiled (mypyc): kept a plain class, so a frozen instance unpickles (search workers)
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class CardKind:
    """One kind of combat card: a formation and a prestige value, with how many such cards the deck holds."""

    name: str
    formation: int
    prestige: int
    count: int


# compiled (mypyc): every board is a `board_held.HeldBoard`, an interpreted subclass that can be weakly referenced
@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
@dataclass
class Board:
    """The validated board data plus integer tables. Shared by every state, never copied."""

    path: str
    raw: dict[str, Any]
    # territories
    terr_ids: list[str] = field(default_factory=list)
    terr_names: list[str] = field(default_factory=list)
    terr_index: dict[str, int] = field(default_factory=dict)
    is_land: list[bool] = field(default_factory=list)
    land_adj: list[tuple[int, ...]] = field(default_factory=list)
    sea_adj: list[tuple[int, ...]] = field(default_factory=list)
    adj: list[tuple[int, ...]] = field(default_factory=list)
    land_adj_mask: list[int] = field(default_factory=list)  # bitmasks of the same neighbourhoods
    sea_adj_mask: list[int] = field(default_factory=list)
    land_union: list[list[int]] = field(default_factory=list)  # [byte k][value]: OR of the masks of its bits
    sea_union: list[list[int]] = field(default_factory=list)
    tribute: list[tuple[int, ...]] = field(default_factory=list)
    # poleis
    polis_ids: list[str] = field(default_factory=list)
    polis_names: list[str] = field(default_factory=list)
    polis_index: dict[str, int] = field(default_factory=dict)
    p_terr: list[int] = field(default_factory=list)
    p_capital: list[bool] = field(default_factory=list)
    p_fort: list[int] = field(default_factory=list)
    p_base: list[int] = field(default_factory=list)
    p_max: list[int] = field(default_factory=list)
    p_growth: list[int] = field(default_factory=list)
    p_commercial: list[bool] = field(default_factory=list)
    p_galley_sea: list[int] = field(default_factory=list)
    p_slots: list[tuple[int, ...]] = field(default_factory=list)
    p_start: list[int] = field(default_factory=list)
    terr_poleis: list[tuple[int, ...]] = field(default_factory=list)
    # sides
    capital: list[int] = field(default_factory=list)
    home: list[int] = field(default_factory=list)
    port_sea: list[int] = field(default_factory=list)
    land_initiative: int = SPARTA
    sea_initiative: int = ATHENS
    # markets
    market_ids: list[str] = field(default_factory=list)
    market_names: list[str] = field(default_factory=list)
    market_index: dict[str, int] = field(default_factory=dict)
    shiploads: list[tuple[tuple[int, int, int, int], ...]] = field(
        default_factory=list
    )  # good, gives, amount, price
    routes: list[list[tuple[int, ...]]] = field(default_factory=list)  # [side][market] -> seas
    track_goods: tuple[int, ...] = ()
    track_of: dict[int, int] = field(default_factory=dict)  # resource -> track index
    track_positions: int = 10
    track_cost: tuple[int, ...] = ()
    track_start: tuple[int, ...] = ()
    # combat cards
    formation_ids: list[str] = field(default_factory=list)
    formation_land: list[str] = field(default_factory=list)
    formation_sea: list[str] = field(default_factory=list)
    card_kinds: list[CardKind] = field(default_factory=list)
    card_index: dict[str, int] = field(default_factory=dict)
    deck_size: int = 24
    # projects
    symbol_ids: list[str] = field(default_factory=list)
    project_ids: list[str] = field(default_factory=list)
    project_names: list[str] = field(default_factory=list)
    project_index: dict[str, int] = field(default_factory=dict)
    pr_symbol: list[int] = field(default_factory=list)
    pr_cost: list[tuple[int, ...]] = field(default_factory=list)
    pr_immediate: list[int] = field(default_factory=list)
    pr_posterity: list[int] = field(default_factory=list)
    # events
    event_ids: list[str] = field(default_factory=list)
    event_names: list[str] = field(default_factory=list)
    event_index: dict[str, int] = field(default_factory=dict)
    ev_effects: list[tuple[tuple[Any, ...], ...]] = field(default_factory=list)
    pile_ids: list[str] = field(default_factory=list)
    pile_events: list[tuple[int, ...]] = field(default_factory=list)
    # rounds
    round_names: list[str] = field(default_factory=list)
    round_limit: list[int] = field(default_factory=list)
    round_pile: list[int] = field(default_factory=list)
    # constants
    cubes: int = 45
    max_merchants: int = 6
    hand_size: int = 4
    battle_threshold: int = 8
    battle_min_units: int = 2
    project_offer: int = 3
    first_tie_side: int = SPARTA
    resource_max: int = 0  # 0 = no upper limit (R27)
    min_pop: int = 1  # cubes an owned polis always keeps (R38)
    military_pp: int = 1  # moves, a classic/sacrifice siege, a collection away from home (§4.5)
    home_collect_pp: int = 0  # a collection in the home region (§5.8)
    extra_cost: int = 1  # resources per action after the opponent has passed (§4.4)
    unit_res: tuple[int, int, int] = (
        METAL,
        WOOD,
        WOOD,
    )  # what a hoplite, galley, merchant cost (silver also)
    siege_die: int = 4  # sides of the siege die (§7.1)
    retreat_pp: int = 1  # paid to the opponent (§6.5)
    bribe_per_unit: int = 1  # silver per opponent unit on the proxenos's way (§5.10)
    redeem_silver: int = 2  # paid to the opponent (§5.11)
    cw_neutral: int = 2  # civil war: silver per base population cube of a neutral polis (§5.12)
    cw_opponent: int = 3  # civil war: silver per current cube of an opponent's polis (§5.12)
    supply_wheat: int = 1  # wheat per population cube (§8.2)
    growth_wheat: int = 1  # wheat per grown cube (§8.3)
    mega_pp: int = 1  # prestige per polis above its base population (§8.4)
    storage_halved: tuple[int, ...] = (OIL, WINE, WHEAT)  # halved, rounded up (§8.5)
    phoros_rate: int = 1  # silver per prestige (§8.6)
    # setup
    setup_res: list[tuple[int, ...]] = field(default_factory=list)
    setup_pp: list[int] = field(default_factory=list)
    setup_units: list[dict[int, int]] = field(default_factory=list)
    setup_merchants: list[int] = field(default_factory=list)
    setup_proxenos: list[int] = field(default_factory=list)
    setup_poleis: list[tuple[int, ...]] = field(default_factory=list)
    cache: dict[str, Any] = field(
        default_factory=dict, repr=False, compare=False
    )  # rules.tables, built lazily

    @property
    def n_terr(self) -> int:
        return len(self.terr_ids)

    @property
    def n_poleis(self) -> int:
        return len(self.polis_ids)


MAX_TERRITORIES = 32
"""Territory sets are 32-bit masks (`bits`)."""
MAX_LIST = 64
"""Longest list in an entry (adjacency, tribute box, route, project slots...)."""
MAX_NUMBER = 1_000
"""Default bound of any integer field (counts, costs, prestige, populations)."""


class _Checker:
    def __init__(self, path: str) -> None:
        self.path = path

    def fail(self, entry: str, msg: str) -> RulesDataError:
        return RulesDataError(self.path, entry, msg)

    def get(
        self,
        obj: Any,
        key: str,
        entry: str,
        typ: type | tuple[type, ...] | None = None,
        lo: int = -MAX_NUMBER,
        hi: int = MAX_NUMBER,
    ) -> Any:
        if not isinstance(obj, dict) or key not in obj:
            raise self.fail(entry, f"missing field {key!r}")
        v = obj[key]
        if typ is not None and (not isinstance(v, typ) or (typ is int and isinstance(v, bool))):
            raise self.fail(entry, f"field {key!r} has the wrong type ({type(v).__name__})")
        if typ is int:
            check_int(self.path, f"{entry}.{key}", v, lo, hi)
        if typ is list:
            check_count(self.path, f"{entry}.{key}", len(v), MAX_LIST, "items")
            if not all(isinstance(x, (str, int, float, bool)) for x in v) and key not in (
                "effects",
                "shiploads",
            ):
                raise self.fail(f"{entry}.{key}", "must be a list of plain values")
        return v

    def strs(self, obj: Any, key: str, entry: str) -> list[Any]:
        """A list field whose items are all strings (ids, resources)."""
        v = self.get(obj, key, entry, list)
        for x in v:
            if not isinstance(x, str):
                raise self.fail(f"{entry}.{key}", f"needs a list of strings, has {type(x).__name__}")
        items: list[Any] = v
        return items

    def integer(self, entry: str, v: Any, lo: int = 0, hi: int = MAX_NUMBER) -> int:
        return check_int(self.path, entry, v, lo, hi)


def _entries(ck: _Checker, raw: dict[str, Any], section: str) -> list[dict[str, Any]]:
    v = raw.get(section)
    if not isinstance(v, list) or not all(isinstance(e, dict) for e in v):
        raise ck.fail(section, "missing or not an array of tables")
    return v


def _parse(path: str, raw: dict[str, Any]) -> Board:
    """Validate the board file section by section, in a fixed order (the first fault found is the one reported),
    filling the tables of a new `Board`."""
    from hegemon.games.polis.board_held import HeldBoard  # interpreted: weakly referable (its module text)

    ck = _Checker(path)
    b: Board = HeldBoard(path=path, raw=raw)
    _check_ids(ck, raw)
    _check_provenance(ck, raw)
    _parse_constants(ck, raw, b)
    _parse_territories(ck, raw, b)
    sym_index = _parse_poleis(ck, raw, b)
    ports = _parse_sides(ck, raw, b)
    _parse_markets(ck, raw, b, ports)
    _parse_combat_cards(ck, raw, b)
    _parse_projects(ck, raw, b, sym_index)
    pidx = _parse_events(ck, raw, b)
    _parse_rounds(ck, raw, b, pidx)
    _parse_setup(ck, raw, b)
    return b


_ID_SECTIONS = (
    "sides", "rounds", "event_piles", "territories", "poleis", "trade_ports", "markets", "trade_routes",
    "combat_formations", "combat_cards", "project_symbols", "projects", "events",
)  # fmt: skip
"""The sections whose entries carry an `id`, in the order they are checked."""


def _check_ids(ck: _Checker, raw: dict[str, Any]) -> None:
    """Ids: lower_snake_case and unique across the file (§2.6)."""
    seen: dict[str, str] = {}
    for section in _ID_SECTIONS:
        for i, e in enumerate(_entries(ck, raw, section)):
            eid = ck.get(e, "id", f"{section}[{i}]", str)
            if not _ID.match(eid):
                raise ck.fail(f"{section}.{eid}", "id is not lower_snake_case")
            if eid in seen:
                raise ck.fail(f"{section}.{eid}", f"duplicate id (also in {seen[eid]})")
            seen[eid] = section


def _check_provenance(ck: _Checker, raw: dict[str, Any]) -> None:
    """Every provenance names `reconstructed` or known first-edition or seed source keys."""
    sources = raw.get("sources")
    if not isinstance(sources, dict):
        raise ck.fail("sources", "missing [sources] table")
    known = {k for k, v in sources.items() if isinstance(v, str) and not v.rstrip().endswith("(2nd ed.)")}
    for section, v in raw.items():
        if isinstance(v, list):
            for e in v:
                if isinstance(e, dict):
                    _walk_prov(ck, known, f"{section}.{e.get('id', '?')}", e)
        elif isinstance(v, dict) and section not in ("sources",):
            if "provenance" in v:
                _walk_prov(ck, known, section, v)
            for k, sub in v.items():
                if isinstance(sub, dict) and "provenance" in sub:
                    _walk_prov(ck, known, f"{section}.{k}", sub)


def _walk_prov(ck: _Checker, known: set[str], entry: str, e: dict[str, Any]) -> None:
    _check_prov(ck, known, entry, ck.get(e, "provenance", entry))
    fp = e.get("field_provenance", {})
    if not isinstance(fp, dict):
        raise ck.fail(entry, "field_provenance must be a table")
    for f, p in fp.items():
        _check_prov(ck, known, f"{entry}.{f}", p)


def _check_prov(ck: _Checker, known: set[str], entry: str, prov: Any) -> None:
    if not isinstance(prov, str):
        raise ck.fail(entry, "provenance must be a string")
    p = prov.split(" (")[0].strip()
    if p == "reconstructed":
        return
    if not p.startswith("attested:"):
        raise ck.fail(entry, f"provenance {prov!r} is neither 'reconstructed' nor 'attested:KEY'")
    for key in p[len("attested:") :].split(","):
        if key.strip() not in known:
            raise ck.fail(entry, f"provenance names unknown or second-edition source {key.strip()!r}")


class _Constants:
    """The [constants] table: each entry a table with a `value`, read with a default when absent."""

    def __init__(self, ck: _Checker, consts: Any) -> None:
        self.ck = ck
        self.consts = consts

    def value(self, name: str, default: Any) -> Any:
        e = self.consts.get(name)
        if e is None:
            return default
        if not isinstance(e, dict) or "value" not in e:
            raise self.ck.fail(f"constants.{name}", "expected a table with a 'value' field")
        return e["value"]

    def count(self, name: str, default: int, lo: int = 0, hi: int = 1000) -> int:
        v = self.value(name, default)
        if not isinstance(v, int) or isinstance(v, bool):
            raise self.ck.fail(
                f"constants.{name}", f"value must be a whole number, got {type(v).__name__} {v!r}"
            )
        if not lo <= v <= hi:
            raise self.ck.fail(f"constants.{name}", f"value must be between {lo} and {hi}, got {v}")
        return v


def _parse_constants(ck: _Checker, raw: dict[str, Any], b: Board) -> None:
    consts = raw.get("constants", {})
    resources = ck.get(ck.get(consts, "resources", "constants"), "value", "constants.resources", list)
    if tuple(resources) != RESOURCES:
        raise ck.fail("constants.resources", f"expected {list(RESOURCES)}")
    if not isinstance(consts, dict):
        raise ck.fail("constants", "missing [constants] table")
    for name in consts:
        if name not in CONSTANTS:
            raise ck.fail(
                f"constants.{name}", "unknown constant (the engine reads: " + ", ".join(CONSTANTS) + ")"
            )
    c = _Constants(ck, consts)
    count = c.count
    b.cubes = count("cubes_per_side", 45, 1)
    b.max_merchants = count("merchant_ships_per_side", 6)
    b.hand_size = count("battle_hand_size", 4)
    b.battle_threshold = count("battle_threshold_units", 8, 2)
    b.battle_min_units = count("battle_min_units", 2, 1)
    b.project_offer = count("project_offer_size", 3)
    tie = c.value("first_player_tie_round_3", "sparta")
    if not isinstance(tie, str) or tie not in SIDE:
        raise ck.fail("constants.first_player_tie_round_3", f"unknown side {tie!r}")
    b.first_tie_side = SIDE[tie]
    b.resource_max = count("resource_maximum", 0, 0, 10**6)
    b.min_pop = count("min_polis_population", 1, 1)
    b.military_pp = count("military_action_prestige", 1)
    b.home_collect_pp = count("home_collection_prestige", 0)
    b.extra_cost = count("extra_resource_after_opponent_passed", 1)
    b.siege_die = count("siege_die_sides", 4, 1, 100)
    b.retreat_pp = count("retreat_prestige", 1)
    b.bribe_per_unit = count("bribe_silver_per_enemy_unit", 1)
    b.redeem_silver = count("redeem_silver", 2)
    b.cw_neutral = count("civil_war_neutral_multiplier", 2)
    b.cw_opponent = count("civil_war_opponent_multiplier", 3)
    b.supply_wheat = count("supply_wheat_per_cube", 1)
    b.growth_wheat = count("growth_wheat_per_cube", 1)
    b.mega_pp = count("megalopolis_prestige_per_polis", 1)
    b.phoros_rate = count("phoros_prestige_to_silver", 1)
    b.unit_res = _unit_cost(
        ck, c.value("unit_cost", {"hoplite": "metal", "galley": "wood", "merchant": "wood"})
    )
    b.storage_halved = _storage_halved(ck, c.value("storage_halved", ["oil", "wine", "wheat"]))


def _unit_cost(ck: _Checker, uc: Any) -> tuple[int, int, int]:
    if not isinstance(uc, dict) or set(uc) != {"hoplite", "galley", "merchant"}:
        raise ck.fail("constants.unit_cost", "value must be a table naming hoplite, galley and merchant")
    for unit, r in uc.items():
        if r not in RES or r == "silver":
            raise ck.fail("constants.unit_cost", f"{unit} must cost a resource other than silver, got {r!r}")
    return (RES[uc["hoplite"]], RES[uc["galley"]], RES[uc["merchant"]])


def _storage_halved(ck: _Checker, halved: Any) -> tuple[int, ...]:
    if not isinstance(halved, list) or any(r not in RES for r in halved) or len(set(halved)) != len(halved):
        raise ck.fail(
            "constants.storage_halved", f"value must be a list of distinct resources, got {halved!r}"
        )
    return tuple(RES[r] for r in halved)


def _parse_territories(ck: _Checker, raw: dict[str, Any], b: Board) -> None:
    terrs = _entries(ck, raw, "territories")
    check_count(ck.path, "territories", len(terrs), MAX_TERRITORIES, "territories")
    if not terrs:
        raise ck.fail("territories", "no territories")
    for i, t in enumerate(terrs):
        b.terr_index[t["id"]] = i
        b.terr_ids.append(t["id"])
        b.terr_names.append(ck.get(t, "name", f"territories.{t['id']}", str))
        kind = ck.get(t, "kind", f"territories.{t['id']}", str)
        if kind not in ("land", "sea"):
            raise ck.fail(f"territories.{t['id']}", f"kind must be land or sea, got {kind!r}")
        b.is_land.append(kind == "land")
    _parse_adjacency(ck, b, terrs)
    _check_connected(ck, b)
    if "sikelia" in b.terr_index:
        for j in b.adj[b.terr_index["sikelia"]]:
            if b.is_land[j]:
                raise ck.fail(
                    "territories.sikelia", f"every neighbour of Sikelia must be a sea, not {b.terr_ids[j]}"
                )
    for i, t in enumerate(terrs):
        b.tribute.append(_tribute_box(ck, t, b.is_land[i]))


def _parse_adjacency(ck: _Checker, b: Board, terrs: list[dict[str, Any]]) -> None:
    """Symmetric neighbourhoods, as sorted tuples, land and sea, bitmasks and byte union tables."""
    n = len(terrs)
    adjsets: list[set[int]] = [set() for _ in range(n)]
    for i, t in enumerate(terrs):
        entry = f"territories.{t['id']}"
        for a in ck.strs(t, "adjacent", entry):
            if a not in b.terr_index:
                raise ck.fail(entry, f"adjacent names unknown territory {a!r}")
            j = b.terr_index[a]
            if j == i:
                raise ck.fail(entry, "a territory may not be adjacent to itself")
            adjsets[i].add(j)
    for i in range(n):
        for j in adjsets[i]:
            if i not in adjsets[j]:
                raise ck.fail(
                    f"territories.{b.terr_ids[i]}",
                    f"adjacency is not symmetric: {b.terr_ids[j]} does not list {b.terr_ids[i]}",
                )
    b.adj = [tuple(sorted(s)) for s in adjsets]
    b.land_adj = [tuple(j for j in b.adj[i] if b.is_land[j]) for i in range(n)]
    b.sea_adj = [tuple(j for j in b.adj[i] if not b.is_land[j]) for i in range(n)]
    b.land_adj_mask = [sum(1 << j for j in b.land_adj[i]) for i in range(n)]
    b.sea_adj_mask = [sum(1 << j for j in b.sea_adj[i]) for i in range(n)]
    b.land_union = _union_tables(b.land_adj_mask)
    b.sea_union = _union_tables(b.sea_adj_mask)


def _check_connected(ck: _Checker, b: Board) -> None:
    seen_t = {0}
    dq = deque([0])
    while dq:
        u = dq.popleft()
        for v in b.adj[u]:
            if v not in seen_t:
                seen_t.add(v)
                dq.append(v)
    for i in range(len(b.adj)):
        if i not in seen_t:
            raise ck.fail(
                f"territories.{b.terr_ids[i]}", "territory is not reachable from the rest of the map"
            )


def _tribute_box(ck: _Checker, t: dict[str, Any], land: bool) -> tuple[int, ...]:
    entry = f"territories.{t['id']}"
    if not land:
        if t.get("tribute_box"):
            raise ck.fail(entry, "a sea has no tribute box")
        return ()
    box = ck.strs(t, "tribute_box", entry)
    if not 1 <= len(box) <= 5:
        raise ck.fail(entry, f"tribute box must have 1-5 spaces, has {len(box)}")
    for r in box:
        if r not in RES:
            raise ck.fail(entry, f"tribute box names unknown resource {r!r}")
    return tuple(RES[r] for r in box)


_OWNERS = {"athens": ATHENS, "sparta": SPARTA, "neutral": NEUTRAL}


def _parse_poleis(ck: _Checker, raw: dict[str, Any], b: Board) -> dict[str, int]:
    """The poleis (and the project symbols their slots name); returns the symbol index."""
    symbols = _entries(ck, raw, "project_symbols")
    b.symbol_ids = [s["id"] for s in symbols]
    sym_index = {s: i for i, s in enumerate(b.symbol_ids)}
    poleis = _entries(ck, raw, "poleis")
    if len(poleis) != 18:
        raise ck.fail("poleis", f"there must be 18 poleis, found {len(poleis)}")
    for i, p in enumerate(poleis):
        _parse_polis(ck, b, i, p, sym_index)
    b.terr_poleis = [tuple(q for q in range(len(poleis)) if b.p_terr[q] == t) for t in range(b.n_terr)]
    if b.min_pop > min(b.p_max):
        raise ck.fail("constants.min_polis_population", f"value {b.min_pop} exceeds a polis's max_population")
    cap_fort = min((b.p_fort[q] for q in range(len(poleis)) if b.p_capital[q]), default=4)
    for q in range(len(poleis)):
        if b.p_fort[q] > cap_fort:
            raise ck.fail(f"poleis.{b.polis_ids[q]}", "no polis may be stronger than a capital")
    for name in ("korinthos", "argos"):
        if name in b.polis_index and b.p_fort[b.polis_index[name]] not in (3, 4):
            raise ck.fail(f"poleis.{name}", "fortification must be 3 or 4 (attested: 4P)")
    return sym_index


def _parse_polis(ck: _Checker, b: Board, i: int, p: dict[str, Any], sym_index: dict[str, int]) -> None:
    g = ck.get
    entry = f"poleis.{p['id']}"
    b.polis_index[p["id"]] = i
    b.polis_ids.append(p["id"])
    b.polis_names.append(g(p, "name", entry, str))
    terr = g(p, "territory", entry, str)
    if terr not in b.terr_index or not b.is_land[b.terr_index[terr]]:
        raise ck.fail(entry, f"territory {terr!r} is not a land territory")
    ti = b.terr_index[terr]
    b.p_terr.append(ti)
    b.p_capital.append(bool(g(p, "capital", entry, bool)))
    for key, lst, lo in (
        ("fortification", b.p_fort, 1),
        ("base_population", b.p_base, 1),
        ("max_population", b.p_max, 1),
        ("max_growth", b.p_growth, 0),
    ):
        v = g(p, key, entry, int, 0, 100)
        if v < lo:
            raise ck.fail(entry, f"{key} must be at least {lo}")
        lst.append(v)
    if b.p_max[-1] < b.p_base[-1]:
        raise ck.fail(entry, "max_population is below base_population")
    b.p_commercial.append(bool(g(p, "commercial", entry, bool)))
    b.p_galley_sea.append(_galley_sea(ck, b, entry, g(p, "galley_sea", entry, str), terr, ti))
    slots = ck.strs(p, "project_slots", entry)
    for s in slots:
        if s not in sym_index:
            raise ck.fail(entry, f"project slot names unknown symbol {s!r}")
    b.p_slots.append(tuple(sym_index[s] for s in slots))
    so = g(p, "start_owner", entry, str)
    if so not in _OWNERS:
        raise ck.fail(entry, f"start_owner must be athens, sparta or neutral, got {so!r}")
    b.p_start.append(_OWNERS[so])


def _galley_sea(ck: _Checker, b: Board, entry: str, gs: str, terr: str, ti: int) -> int:
    """The sea where a polis's galleys appear (-1 when its `galley_sea` is empty)."""
    if not gs:
        return -1
    if gs not in b.terr_index:
        raise ck.fail(entry, f"galley_sea names unknown territory {gs!r}")
    gi = b.terr_index[gs]
    if b.is_land[gi] or gi not in b.adj[ti]:
        raise ck.fail(entry, f"galley sea {gs!r} is not a coast of {terr!r}")
    return gi


def _parse_sides(ck: _Checker, raw: dict[str, Any], b: Board) -> dict[str, Any]:
    """The two sides (and the trade ports they name); returns the ports by id."""
    sides = _entries(ck, raw, "sides")
    if [s["id"] for s in sides] != list(SIDES):
        raise ck.fail("sides", "sides must be athens then sparta")
    ports = {p["id"]: p for p in _entries(ck, raw, "trade_ports")}
    for s in sides:
        _parse_side(ck, b, s, ports)
    return ports


def _parse_side(ck: _Checker, b: Board, s: dict[str, Any], ports: dict[str, Any]) -> None:
    g = ck.get
    entry = f"sides.{s['id']}"
    cap = g(s, "capital", entry, str)
    if cap not in b.polis_index or not b.p_capital[b.polis_index[cap]]:
        raise ck.fail(entry, f"capital {cap!r} is not a capital polis")
    b.capital.append(b.polis_index[cap])
    home = g(s, "home_region", entry, str)
    if home not in b.terr_index:
        raise ck.fail(entry, f"home_region names unknown territory {home!r}")
    b.home.append(b.terr_index[home])
    port = g(s, "trade_port", entry, str)
    if port not in ports:
        raise ck.fail(entry, f"trade_port names unknown port {port!r}")
    sea = g(ports[port], "sea", f"trade_ports.{port}", str)
    if sea not in b.terr_index or b.is_land[b.terr_index[sea]]:
        raise ck.fail(f"trade_ports.{port}", f"port sea {sea!r} is not a sea")
    b.port_sea.append(b.terr_index[sea])
    ini = g(s, "battle_initiative", entry, str)
    if ini == "land":
        b.land_initiative = SIDE[s["id"]]
    elif ini == "sea":
        b.sea_initiative = SIDE[s["id"]]
    else:
        raise ck.fail(entry, "battle_initiative must be land or sea")


def _parse_markets(ck: _Checker, raw: dict[str, Any], b: Board, ports: dict[str, Any]) -> None:
    """The markets, the market value tracks and the trade routes."""
    markets = _entries(ck, raw, "markets")
    if len(markets) != 5:
        raise ck.fail("markets", f"there must be 5 markets, found {len(markets)}")
    _parse_market_values(ck, raw, b)
    for i, m in enumerate(markets):
        entry = f"markets.{m['id']}"
        b.market_ids.append(m["id"])
        b.market_names.append(ck.get(m, "name", entry, str))
        b.market_index[m["id"]] = i
        loads = [
            _parse_shipload(ck, b, f"{entry}.shiploads[{j + 1}]", sl)
            for j, sl in enumerate(ck.get(m, "shiploads", entry, list))
        ]
        if not loads:
            raise ck.fail(entry, "a market needs at least one shipload")
        b.shiploads.append(tuple(loads))
    _parse_trade_routes(ck, raw, b, ports, len(markets))


def _parse_market_values(ck: _Checker, raw: dict[str, Any], b: Board) -> None:
    g = ck.get
    mv = raw.get("market_values")
    if not isinstance(mv, dict):
        raise ck.fail("market_values", "missing table")
    goods = ck.strs(mv, "goods", "market_values")
    for r in goods:
        if r not in RES:
            raise ck.fail("market_values", f"unknown good {r!r}")
    b.track_goods = tuple(RES[r] for r in goods)
    b.track_of = {r: i for i, r in enumerate(b.track_goods)}
    b.track_positions = g(mv, "positions", "market_values", int, 1, MAX_LIST)
    b.track_cost = tuple(
        ck.integer(f"market_values.cost_by_position[{i}]", c)
        for i, c in enumerate(g(mv, "cost_by_position", "market_values", list))
    )
    if len(b.track_cost) != b.track_positions:
        raise ck.fail("market_values", "cost_by_position must have one cost per position")
    starts = g(mv, "start_position", "market_values", dict)
    for r in goods:
        if r not in starts:
            raise ck.fail("market_values", f"start position of {r!r} missing or off the track")
        ck.integer(f"market_values.start_position.{r}", starts[r], 1, b.track_positions)
    b.track_start = tuple(int(starts[r]) for r in goods)


def _parse_shipload(ck: _Checker, b: Board, se: str, sl: Any) -> tuple[int, int, int, int]:
    g = ck.get
    good = g(sl, "good", se, str)
    gives = g(sl, "gives", se, str)
    amount = g(sl, "amount", se, int, 0)
    price = g(sl, "purchase_silver", se, int, 0)
    if good not in RES or RES[good] not in b.track_of:
        raise ck.fail(se, f"good {good!r} has no market value track")
    if gives not in ("wheat", "silver"):
        raise ck.fail(se, f"gives must be wheat or silver, got {gives!r}")
    if (gives == "wheat") != (price > 0):
        raise ck.fail(se, "purchase prices exist exactly on wheat shiploads")
    if amount < 1:
        raise ck.fail(se, "amount must be at least 1")
    return (RES[good], RES[gives], amount, price)


def _parse_trade_routes(
    ck: _Checker, raw: dict[str, Any], b: Board, ports: dict[str, Any], n_markets: int
) -> None:
    b.routes = [[() for _ in range(n_markets)] for _ in SIDES]
    port_side = {}
    for pid, p in ports.items():
        side = ck.get(p, "side", f"trade_ports.{pid}", str)
        if side not in SIDE:
            raise ck.fail(f"trade_ports.{pid}", f"unknown side {side!r}")
        port_side[pid] = SIDE[side]
    for r in _entries(ck, raw, "trade_routes"):
        _parse_trade_route(ck, b, r, port_side)
    for si in range(2):
        for mi in range(n_markets):
            if not b.routes[si][mi]:
                raise ck.fail("trade_routes", f"no route from {SIDES[si]} to {b.market_ids[mi]}")


def _parse_trade_route(ck: _Checker, b: Board, r: dict[str, Any], port_side: dict[str, int]) -> None:
    entry = f"trade_routes.{r['id']}"
    port = ck.get(r, "port", entry, str)
    market = ck.get(r, "market", entry, str)
    if port not in port_side:
        raise ck.fail(entry, f"unknown port {port!r}")
    if market not in b.market_index:
        raise ck.fail(entry, f"unknown market {market!r}")
    seas = ck.strs(r, "seas", entry)
    for s in seas:
        if s not in b.terr_index or b.is_land[b.terr_index[s]]:
            raise ck.fail(entry, f"{s!r} is not a sea")
    idx = tuple(b.terr_index[s] for s in seas)
    side = port_side[port]
    if not idx or idx[0] != b.port_sea[side]:
        raise ck.fail(entry, "a route must start at its port's sea")
    for a, c in itertools.pairwise(idx):
        if c not in b.adj[a]:
            raise ck.fail(entry, f"{b.terr_ids[a]} and {b.terr_ids[c]} are not adjacent")
    b.routes[side][b.market_index[market]] = idx


def _parse_combat_cards(ck: _Checker, raw: dict[str, Any], b: Board) -> None:
    g = ck.get
    forms = _entries(ck, raw, "combat_formations")
    b.formation_ids = [f["id"] for f in forms]
    b.formation_land = [g(f, "land_name", f"combat_formations.{f['id']}", str) for f in forms]
    b.formation_sea = [g(f, "sea_name", f"combat_formations.{f['id']}", str) for f in forms]
    fidx = {f: i for i, f in enumerate(b.formation_ids)}
    cards = _entries(ck, raw, "combat_cards")
    if len(cards) != 24:
        raise ck.fail("combat_cards", f"there must be 24 combat cards, found {len(cards)}")
    counts: dict[tuple[int, int], int] = {}
    for card in cards:
        entry = f"combat_cards.{card['id']}"
        form = g(card, "formation", entry, str)
        if form not in fidx:
            raise ck.fail(entry, f"unknown formation {form!r}")
        pv = g(card, "prestige", entry, int, 0)
        if pv < 0:
            raise ck.fail(entry, "prestige must be at least 0")
        counts[(fidx[form], pv)] = counts.get((fidx[form], pv), 0) + 1
    for (fi, pv), cnt in sorted(counts.items()):
        name = f"{b.formation_ids[fi]}:{pv}"
        b.card_index[name] = len(b.card_kinds)
        b.card_kinds.append(CardKind(name, fi, pv, cnt))
    b.deck_size = len(cards)
    if not 2 <= b.hand_size <= b.deck_size // 2:
        raise ck.fail(
            "constants.battle_hand_size", "a hand needs 2 to deck/2 cards (two are played per exchange)"
        )


def _parse_projects(ck: _Checker, raw: dict[str, Any], b: Board, sym_index: dict[str, int]) -> None:
    projects = _entries(ck, raw, "projects")
    if len(projects) != 14:
        raise ck.fail("projects", f"there must be 14 projects, found {len(projects)}")
    for i, p in enumerate(projects):
        entry = f"projects.{p['id']}"
        b.project_ids.append(p["id"])
        b.project_names.append(ck.get(p, "name", entry, str))
        b.project_index[p["id"]] = i
        sym = ck.get(p, "symbol", entry, str)
        if sym not in sym_index:
            raise ck.fail(entry, f"unknown symbol {sym!r}")
        b.pr_symbol.append(sym_index[sym])
        b.pr_cost.append(_project_cost(ck, entry, ck.get(p, "cost", entry, dict)))
        b.pr_immediate.append(ck.get(p, "immediate_prestige", entry, int))
        b.pr_posterity.append(ck.get(p, "posterity_prestige", entry, int))


def _project_cost(ck: _Checker, entry: str, cost: dict[str, Any]) -> tuple[int, ...]:
    vec = [0] * 6
    for r, v in cost.items():
        if r not in RES or not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MAX_NUMBER:
            raise ck.fail(entry, f"bad cost entry {r!r} = {v!r}")
        vec[RES[r]] = v
    return tuple(vec)


def _parse_events(ck: _Checker, raw: dict[str, Any], b: Board) -> dict[str, int]:
    """The events and their piles; returns the pile index."""
    g = ck.get
    piles = _entries(ck, raw, "event_piles")
    b.pile_ids = [p["id"] for p in piles]
    pidx = {p: i for i, p in enumerate(b.pile_ids)}
    events = _entries(ck, raw, "events")
    if len(events) != 40:
        raise ck.fail("events", f"there must be 40 events, found {len(events)}")
    members: list[list[int]] = [[] for _ in piles]
    for i, e in enumerate(events):
        entry = f"events.{e['id']}"
        b.event_ids.append(e["id"])
        b.event_names.append(g(e, "name", entry, str))
        b.event_index[e["id"]] = i
        pile = g(e, "pile", entry, str)
        if pile not in pidx:
            raise ck.fail(entry, f"unknown pile {pile!r}")
        members[pidx[pile]].append(i)
        b.ev_effects.append(tuple(_parse_effect(ck, b, entry, eff) for eff in g(e, "effects", entry, list)))
    for i, p in enumerate(piles):
        size = g(p, "size", f"event_piles.{p['id']}", int, 0)
        if size != len(members[i]):
            raise ck.fail(f"event_piles.{p['id']}", f"size {size} but {len(members[i])} cards")
    b.pile_events = [tuple(m) for m in members]
    return pidx


def _parse_rounds(ck: _Checker, raw: dict[str, Any], b: Board, pidx: dict[str, int]) -> None:
    for r in _entries(ck, raw, "rounds"):
        entry = f"rounds.{r['id']}"
        b.round_names.append(ck.get(r, "name", entry, str))
        b.round_limit.append(ck.get(r, "stacking_limit", entry, int, 1, 100))
        pile = ck.get(r, "event_pile", entry, str)
        if pile not in pidx:
            raise ck.fail(entry, f"unknown pile {pile!r}")
        b.round_pile.append(pidx[pile])
    if not b.round_limit:
        raise ck.fail("rounds", "at least one round is needed")
    check_count(ck.path, "rounds", len(b.round_limit), 10, "rounds")


def _parse_setup(ck: _Checker, raw: dict[str, Any], b: Board) -> None:
    setup = raw.get("setup")
    if not isinstance(setup, dict):
        raise ck.fail("setup", "missing table")
    for side in SIDES:
        _parse_setup_side(ck, b, side, ck.get(setup, side, "setup", dict))


def _parse_setup_side(ck: _Checker, b: Board, side: str, s: dict[str, Any]) -> None:
    g = ck.get
    entry = f"setup.{side}"
    pol = []
    for q in ck.strs(s, "poleis", entry):
        if q not in b.polis_index:
            raise ck.fail(entry, f"unknown polis {q!r}")
        if b.p_start[b.polis_index[q]] != SIDE[side]:
            raise ck.fail(entry, f"{q} does not start as {side}'s")
        pol.append(b.polis_index[q])
    b.setup_poleis.append(tuple(pol))
    resd = g(s, "resources", entry, dict)
    for r, v in resd.items():
        if r not in RES or not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MAX_NUMBER:
            raise ck.fail(f"{entry}.resources", f"bad resource entry {r!r} = {v!r}")
    b.setup_res.append(tuple(resd.get(r, 0) for r in RESOURCES))
    if b.resource_max and max(b.setup_res[-1]) > b.resource_max:
        raise ck.fail(
            f"{entry}.resources", f"a starting resource exceeds resource_maximum ({b.resource_max})"
        )
    b.setup_pp.append(g(s, "prestige", entry, int, 0))
    units: dict[int, int] = {}
    for key, want_land in (("hoplites", True), ("galleys", False)):
        for t, cnt in g(s, key, entry, dict).items():
            units[_setup_unit(ck, b, entry, key, want_land, t, cnt)] = cnt
    b.setup_units.append(units)
    b.setup_merchants.append(g(s, "merchants", entry, int, 0, b.max_merchants))
    px = g(s, "proxenos", entry, str)
    if px not in b.polis_index:
        raise ck.fail(entry, f"proxenos on unknown polis {px!r}")
    b.setup_proxenos.append(b.polis_index[px])


def _setup_unit(ck: _Checker, b: Board, entry: str, key: str, want_land: bool, t: str, cnt: Any) -> int:
    """Check `cnt` starting hoplites or galleys (`key`) in territory `t`; returns its index."""
    ck.integer(f"{entry}.{key}.{t}", cnt, 0)
    if t not in b.terr_index or b.is_land[b.terr_index[t]] != want_land:
        raise ck.fail(entry, f"{key} placed in {t!r}, which is not a {'land' if want_land else 'sea'}")
    if not isinstance(cnt, int) or isinstance(cnt, bool) or cnt < 0:
        raise ck.fail(f"{entry}.{key}.{t}", f"must be a whole number of at least 0, got {cnt!r}")
    if cnt > b.round_limit[0]:
        raise ck.fail(entry, f"{cnt} {key} in {t} exceed the round-3 stacking limit")
    return b.terr_index[t]


def _union_tables(masks: list[int]) -> list[list[int]]:
    """Byte tables: tables[k][v] = OR of masks[8k + i] for every bit i set in v (fast neighbourhood unions)."""
    tables = []
    for k in range((len(masks) + 7) // 8):
        row = [0] * 256
        for v in range(1, 256):
            low = v & -v
            i = 8 * k + low.bit_length() - 1
            row[v] = row[v ^ low] | (masks[i] if i < len(masks) else 0)
        tables.append(row)
    return tables


BITS = [tuple(8 * k + i for i in range(8) if v >> i & 1) for k in range(8) for v in range(256)]


def bits(m: int) -> list[int]:
    """The indices of the set bits of `m` (< 2**64), in increasing order."""
    out: list[int] = []
    k = 0
    while m:
        if m & 255:
            out.extend(BITS[k * 256 + (m & 255)])
        m >>= 8
        k += 1
    return out


def _parse_effect(ck: _Checker, b: Board, entry: str, eff: Any) -> tuple[Any, ...]:
    g = ck.get
    typ = g(eff, "type", entry, str)

    def side() -> int:
        return _side(ck, entry, g(eff, "side", entry, str))

    if typ in ("gain", "lose"):
        r = g(eff, "resource", entry, str)
        if r != "prestige" and r not in RES:
            raise ck.fail(entry, f"unknown resource {r!r}")
        return (typ, side(), PRESTIGE if r == "prestige" else RES[r], g(eff, "amount", entry, int, 0, 100))
    if typ == "place_units":
        unit = g(eff, "unit", entry, str)
        t = g(eff, "territory", entry, str)
        if t not in b.terr_index or unit not in ("hoplite", "galley"):
            raise ck.fail(entry, f"bad place_units {unit!r} in {t!r}")
        if b.is_land[b.terr_index[t]] != (unit == "hoplite"):
            raise ck.fail(entry, f"a {unit} cannot stand in {t}")
        return (typ, side(), b.terr_index[t], g(eff, "count", entry, int, 0, 100))
    if typ == "remove_units":
        kinds = ck.strs(eff, "units", entry)
        if not kinds or any(k not in ("hoplite", "galley") for k in kinds):
            raise ck.fail(entry, f"bad unit kinds {kinds!r}")
        return (typ, side(), "hoplite" in kinds, "galley" in kinds, g(eff, "count", entry, int, 0, 100))
    if typ == "close_market":
        m = g(eff, "market", entry, str)
        if m not in b.market_index:
            raise ck.fail(entry, f"unknown market {m!r}")
        return (typ, b.market_index[m])
    if typ == "exhaust_tribute":
        t = g(eff, "territory", entry, str)
        if t not in b.terr_index or not b.is_land[b.terr_index[t]]:
            raise ck.fail(entry, f"unknown land territory {t!r}")
        return (typ, b.terr_index[t])
    if typ == "first_player":
        return (typ, side())
    if typ == "polis_population":
        q = g(eff, "polis", entry, str)
        if q not in b.polis_index:
            raise ck.fail(entry, f"unknown polis {q!r}")
        return (typ, b.polis_index[q], g(eff, "delta", entry, int, -100, 100))
    if typ == "market_shift":
        goods = ck.strs(eff, "goods", entry)
        for r in goods:
            if r not in RES or RES[r] not in b.track_of:
                raise ck.fail(entry, f"good {r!r} has no track")
        return (typ, tuple(b.track_of[RES[r]] for r in goods), g(eff, "steps", entry, int, -100, 100))
    raise ck.fail(entry, f"unknown effect type {typ!r}")


def _side(ck: _Checker, entry: str, s: str) -> int:
    if s not in SIDE:
        raise ck.fail(entry, f"unknown side {s!r}")
    return SIDE[s]


def board_from_text(text: str, label: str) -> Board:
    """Parse and validate board TOML text within the bounds of `hegemon.core.boardfile` (RulesDataError
    naming `label` and the entry otherwise)."""
    return build(text, label, _parse_guarded)


def _parse_guarded(raw: dict[str, Any], label: str) -> Board:
    try:
        return _parse(label, raw)
    except RulesDataError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
        raise RulesDataError(label, "data", f"malformed data ({type(e).__name__}: {e})") from None


def _load_file(path: Path) -> Board:
    return board_from_text(read_text(path), str(path))


_REGISTRY: BoardRegistry[Board] = BoardRegistry(
    _load_file, {name: functools.partial(_load_file, path) for name, path in SHIPPED_BOARDS.items()}
)
"""The shipped boards by name, accepted uploaded boards by their content-hash name (the server registers them;
options hold the name; held weakly, so boards of deleted tables do not pile up in memory) and board files by
path."""


def register_board(name: str, board: Board) -> None:
    _REGISTRY.register(name, board)


def forget_board(name: str) -> None:
    _REGISTRY.forget(name)


def registered_board(name: str) -> Board | None:
    """The uploaded board registered under `name`, while a table holds it."""
    return _REGISTRY.registered(name)


def load_board(path: str | Path | None = None) -> Board:
    """The shipped board (None), a registered uploaded board by name, an alternative shipped board by name
    (`SHIPPED_BOARDS`: "default", "balanced"), or a board file, validated once per file version (path, mtime,
    size); a board already loaded costs one stat of its path."""
    return _REGISTRY.load(path)


def _decision(section: str, fld: str) -> str:
    return _DECISIONS.get((section, fld)) or _DECISIONS.get((section, "*")) or ""


def reconstructed_values(board: Board) -> list[dict[str, Any]]:
    """Every reconstructed value of the board data: section, entry id, field, value, provenance and Rnn."""
    out: list[dict[str, Any]] = []
    raw = board.raw

    def entry_fields(section: str, eid: str, e: dict[str, Any]) -> None:
        base = e.get("provenance", "")
        fp = e.get("field_provenance", {}) or {}
        for f, v in e.items():
            if f in _SKIP_FIELDS:
                continue
            prov = fp.get(f, base)
            if isinstance(prov, str) and prov.startswith("reconstructed"):
                out.append(
                    {
                        "section": section,
                        "id": eid,
                        "field": f,
                        "value": v,
                        "provenance": prov,
                        "decision": _decision(section, f),
                    }
                )

    for section, v in raw.items():
        if isinstance(v, list):
            for e in v:
                if isinstance(e, dict):
                    entry_fields(section, str(e.get("id", "?")), e)
        elif isinstance(v, dict) and section != "sources":
            if section == "constants":
                for k, sub in v.items():
                    if isinstance(sub, dict) and str(sub.get("provenance", "")).startswith("reconstructed"):
                        out.append(
                            {
                                "section": section,
                                "id": k,
                                "field": "value",
                                "value": sub.get("value"),
                                "provenance": sub["provenance"],
                                "decision": _decision(section, k),
                            }
                        )
                continue
            if "provenance" in v:
                entry_fields(
                    section,
                    section,
                    {k: x for k, x in v.items() if not (isinstance(x, dict) and "provenance" in x)},
                )
            for k, sub in v.items():
                if isinstance(sub, dict) and "provenance" in sub:
                    entry_fields(section, f"{section}.{k}", sub)
    return out


BOARDS = BoardRole(
    load_board=load_board,
    board_from_text=board_from_text,
    register_board=register_board,
    forget_board=forget_board,
    registered_board=registered_board,
    reconstructed_values=reconstructed_values,
)
"""The boards role (`Roles.boards`)."""
