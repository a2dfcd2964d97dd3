"""The S.P.Q.RisiKo! board as data: 45 provinces, 12 sea areas, land borders, coasts, sea links and the deck
(spqrisiko.md B 1, B 3). Loaded once, validated at load (RulesDataError names file and entry), shared by states."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from hegemon.core.boardfile import build, check_count, check_int, check_number, read_text
from hegemon.core.boards import BoardRegistry
from hegemon.core.errors import RulesDataError
from hegemon.core.roles import BoardRole

SYMBOLS = ("legionary", "banner", "trireme", "arena")
"""Card symbols [R 8.3], in the fixed order used for card counts everywhere."""

KINDS = ("coastal", "island", "landlocked")


@dataclass(frozen=True, eq=False)
class Board:
    """Static board data with integer indices; provinces 0..P-1, sea areas 0..S-1."""

    path: str
    province_ids: tuple[str, ...]
    province_names: tuple[str, ...]
    province_kinds: tuple[str, ...]
    province_pos: tuple[tuple[float, float], ...]
    sea_ids: tuple[str, ...]
    sea_names: tuple[str, ...]
    sea_pos: tuple[tuple[float, float], ...]
    land: tuple[tuple[int, ...], ...]  # land neighbours of each province
    coasts: tuple[tuple[int, ...], ...]  # sea areas each province touches
    shores: tuple[tuple[int, ...], ...]  # provinces on each sea area
    sea_links: tuple[tuple[int, ...], ...]  # adjacent sea areas of each sea area
    deck: tuple[int, ...]  # cards per symbol, in SYMBOLS order
    power_centres: int
    province_index: dict[str, int]
    sea_index: dict[str, int]
    bridges: tuple[tuple[tuple[int, int], ...], ...]  # per province: (other province, sea) sharing a sea area

    @property
    def n_provinces(self) -> int:
        return len(self.province_ids)

    @property
    def n_seas(self) -> int:
        return len(self.sea_ids)

    def land_components(self) -> list[list[int]]:
        """Connected components of the land graph (islands are components of one)."""
        seen: set[int] = set()
        comps = []
        for start in range(self.n_provinces):
            if start in seen:
                continue
            comp, stack = [], [start]
            seen.add(start)
            while stack:
                p = stack.pop()
                comp.append(p)
                for q in self.land[p]:
                    if q not in seen:
                        seen.add(q)
                        stack.append(q)
            comps.append(sorted(comp))
        return comps


def _fail(path: str, entry: str, msg: str) -> RulesDataError:
    return RulesDataError(path, entry, msg)


MAX_PROVINCES = 200
MAX_SEAS = 60
MAX_LAND_BORDERS = 1_000
MAX_COASTS = 1_000
MAX_SEA_LINKS = 500
MAX_SHORE = 60
"""Most provinces on one sea area (the shipped board has 8): keeps the derived sea bridges small."""
MAX_CARDS = 500
"""Most cards of one symbol (the shipped deck has 25 legionaries)."""
MAX_POWER_CENTRES = 100
MAX_ID = 60


def _table(data: dict[str, Any], key: str, path: str) -> dict[str, Any]:
    v = data.get(key, {})
    if not isinstance(v, dict):
        raise _fail(path, key, "must be a table")
    return v


def _id(path: str, entry: str, v: Any) -> str:
    if not isinstance(v, str) or not v or len(v) > MAX_ID:
        raise _fail(path, entry, f"needs a string 'id' of 1-{MAX_ID} characters")
    return v


def parse_board(data: dict[str, Any], path: str) -> Board:
    """Build and validate a Board from parsed TOML; every problem names the entry. Every count is bounded
    (the MAX_* above) and every step is linear in the size of the file."""
    provinces = data.get("province")
    seas = data.get("sea")
    graph = data.get("graph")
    meta = _table(data, "meta", path)
    if not isinstance(provinces, list) or not provinces:
        raise _fail(path, "province", "no [[province]] entries")
    if not isinstance(seas, list) or not seas:
        raise _fail(path, "sea", "no [[sea]] entries")
    if not isinstance(graph, dict):
        raise _fail(path, "graph", "missing [graph] table")
    check_count(path, "province", len(provinces), MAX_PROVINCES, "provinces")
    check_count(path, "sea", len(seas), MAX_SEAS, "sea areas")
    pr = _parse_places(path, "province", provinces, {})
    sa = _parse_places(path, "sea", seas, pr.index)
    land_pairs = _pairs(path, graph, "land", pr.index, pr.index, MAX_LAND_BORDERS)
    coast_pairs = _pairs(path, graph, "coast", pr.index, sa.index, MAX_COASTS)
    sea_pairs = _pairs(path, graph, "sea_links", sa.index, sa.index, MAX_SEA_LINKS)
    land = _neighbours(len(pr.ids), land_pairs)
    coasts: list[set[int]] = [set() for _ in pr.ids]
    shores: list[set[int]] = [set() for _ in sa.ids]
    for p, s in coast_pairs:
        coasts[p].add(s)
        shores[s].add(p)
    slinks = _neighbours(len(sa.ids), sea_pairs)
    _check_kinds(path, pr, land, coasts)
    _check_seas(path, sa, shores, slinks)
    for key, count in (
        ("provinces", len(pr.ids)),
        ("sea_areas", len(sa.ids)),
        ("land_borders", len(land_pairs)),
        ("coasts", len(coast_pairs)),
        ("sea_links", len(sea_pairs)),
    ):
        if key in meta and meta[key] != count:
            raise _fail(path, f"meta.{key}", f"declares {meta[key]!r} but the data has {count}")
    cards = _table(data, "cards", path)
    deck = [check_int(path, f"cards.{sym}", cards.get(sym), 0, MAX_CARDS) for sym in SYMBOLS]
    if sum(deck) < 3:
        raise _fail(path, "cards", "the deck needs at least 3 cards")
    pcs = check_int(
        path, "pieces.power_centres", _table(data, "pieces", path).get("power_centres"), 0, MAX_POWER_CENTRES
    )
    # at most MAX_COASTS * MAX_SHORE pairs in all
    bridges = [
        tuple(sorted((q, s) for s in coasts[p] for q in shores[s] if q != p)) for p in range(len(pr.ids))
    ]
    return Board(
        path=path,
        province_ids=tuple(pr.ids),
        province_names=tuple(pr.names),
        province_kinds=tuple(pr.kinds),
        province_pos=tuple(pr.pos),
        sea_ids=tuple(sa.ids),
        sea_names=tuple(sa.names),
        sea_pos=tuple(sa.pos),
        land=tuple(tuple(sorted(x)) for x in land),
        coasts=tuple(tuple(sorted(x)) for x in coasts),
        shores=tuple(tuple(sorted(x)) for x in shores),
        sea_links=tuple(tuple(sorted(x)) for x in slinks),
        deck=tuple(deck),
        power_centres=pcs,
        province_index=pr.index,
        sea_index=sa.index,
        bridges=tuple(bridges),
    )


@dataclass
class _Places:
    """The [[province]] or [[sea]] entries read so far, in file order."""

    ids: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    pos: list[tuple[float, float]] = field(default_factory=list)
    index: dict[str, int] = field(default_factory=dict)


def _parse_places(path: str, section: str, entries: list[Any], taken: dict[str, int]) -> _Places:
    """The entries of [[province]] or [[sea]] (`section`); a sea id may not repeat a province's (`taken`)."""
    out = _Places()
    for i, e in enumerate(entries):
        entry = f"{section}[{i}]"
        if not isinstance(e, dict):
            raise _fail(path, entry, "must be a table")
        x = _id(path, f"{entry}.id", e.get("id"))
        if not isinstance(e.get("name"), str):
            raise _fail(path, f"{entry}.name", "needs a string 'name'")
        if x in out.index or x in taken:
            raise _fail(path, f"{section} {x!r}", "duplicate id")
        if section == "province" and e.get("kind") not in KINDS:
            raise _fail(path, f"province {x!r}", f"kind must be one of {', '.join(KINDS)}")
        lat = check_number(path, f"{section} {x!r}.lat", e.get("lat"), -90, 90)
        lon = check_number(path, f"{section} {x!r}.lon", e.get("lon"), -180, 180)
        out.index[x] = len(out.ids)
        out.ids.append(x)
        out.names.append(e["name"])
        if section == "province":
            out.kinds.append(e["kind"])
        out.pos.append((lat, lon))
    return out


def _pairs(
    path: str, graph: dict[str, Any], key: str, left: dict[str, int], right: dict[str, int], most: int
) -> list[tuple[int, int]]:
    """The index pairs of `graph.key`, each a pair of ids of `left` and `right`, no pair twice."""
    raw = graph.get(key)
    if not isinstance(raw, list):
        raise _fail(path, f"graph.{key}", "missing list")
    check_count(path, f"graph.{key}", len(raw), most, "entries")
    out: list[tuple[int, int]] = []
    seen: set[frozenset[int] | tuple[int, int]] = set()
    for i, pair in enumerate(raw):
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
            raise _fail(path, f"graph.{key}[{i}]", "each entry is a pair of ids")
        a, b = pair
        if a not in left:
            raise _fail(path, f"graph.{key} {a}--{b}", f"unknown id {a!r}")
        if b not in right:
            raise _fail(path, f"graph.{key} {a}--{b}", f"unknown id {b!r}")
        if a == b:
            raise _fail(path, f"graph.{key} {a}--{b}", "an id cannot border itself")
        ia, ib = left[a], right[b]
        k2: frozenset[int] | tuple[int, int] = frozenset((ia, ib)) if left is right else (ia, ib)
        if k2 in seen:
            raise _fail(path, f"graph.{key} {a}--{b}", "listed twice")
        seen.add(k2)
        out.append((ia, ib))
    return out


def _neighbours(n: int, pairs: list[tuple[int, int]]) -> list[set[int]]:
    """The symmetric neighbourhoods of `n` nodes joined by `pairs`."""
    out: list[set[int]] = [set() for _ in range(n)]
    for a, b in pairs:
        out[a].add(b)
        out[b].add(a)
    return out


def _check_kinds(path: str, pr: _Places, land: list[set[int]], coasts: list[set[int]]) -> None:
    """Derived facts (spqrisiko.md B 3.2): islands have no land border, landlocked provinces no coast."""
    for i, kind in enumerate(pr.kinds):
        if kind == "island" and land[i]:
            raise _fail(path, f"province {pr.ids[i]!r}", "an island cannot have land borders [R 13.6]")
        if kind == "landlocked" and coasts[i]:
            raise _fail(path, f"province {pr.ids[i]!r}", "a landlocked province cannot touch a sea area")
        if kind in ("island", "coastal") and not coasts[i]:
            raise _fail(path, f"province {pr.ids[i]!r}", f"a {kind} province must touch a sea area")


def _check_seas(path: str, sa: _Places, shores: list[set[int]], slinks: list[set[int]]) -> None:
    for s in range(len(sa.ids)):
        if not shores[s]:
            raise _fail(path, f"sea {sa.ids[s]!r}", "a sea area must touch at least one province")
        check_count(path, f"sea {sa.ids[s]!r}", len(shores[s]), MAX_SHORE, "provinces on one sea area")
        if not slinks[s]:
            raise _fail(path, f"sea {sa.ids[s]!r}", "a sea area must link to another sea area")


def board_from_text(text: str, label: str) -> Board:
    """Parse and validate board TOML text (an upload): bounded (see `hegemon.core.boardfile`), typed errors."""
    return build(text, label, parse_board)


def load_board_file(path: str | Path) -> Board:
    """Load and validate a board TOML file (RulesDataError naming the file and the entry)."""
    p = str(path)
    return board_from_text(read_text(p), p)


@cache
def default_board() -> Board:
    """The shipped board (spqrisiko-board.toml), loaded once and shared."""
    ref = resources.files("hegemon.games.spqrisiko") / "data" / "board.toml"
    return board_from_text(ref.read_text(encoding="utf-8"), "spqrisiko/data/board.toml")


_REGISTRY: BoardRegistry[Board] = BoardRegistry(load_board_file, {"default": default_board})
"""The shipped board, accepted uploaded boards by their content-hash name (the server registers them; options
hold the name; held weakly, so boards of deleted tables do not pile up in memory) and board files by path."""


def register_board(name: str, board: Board) -> None:
    _REGISTRY.register(name, board)


def forget_board(name: str) -> None:
    _REGISTRY.forget(name)


def registered_board(name: str) -> Board | None:
    """The uploaded board registered under `name`, while a table holds it."""
    return _REGISTRY.registered(name)


def load_board(path: str | Path | None = None) -> Board:
    """The default board, a registered uploaded board by name, or a validated file (cached by path and version)."""
    return _REGISTRY.load(path)


BOARDS = BoardRole(
    load_board=load_board,
    board_from_text=board_from_text,
    register_board=register_board,
    forget_board=forget_board,
    registered_board=registered_board,
)
"""The boards role (`Roles.boards`): every value sourced (no `reconstructed_values`)."""
