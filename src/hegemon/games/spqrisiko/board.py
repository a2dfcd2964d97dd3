"""The S.P.Q.RisiKo! board as data: 45 provinces, 12 sea areas, land borders, coasts, sea links and the deck
(spqrisiko.md B 1, B 3). Loaded once, validated at load (RulesDataError names file and entry), shared by states."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from hegemon.core.boardfile import build, check_count, check_int, check_number, read_text
from hegemon.core.boards import BoardRegistry
from hegemon.core.errors import RulesDataError

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
    pid: list[str] = []
    pname, pkind, ppos = [], [], []
    pidx: dict[str, int] = {}
    for i, p in enumerate(provinces):
        entry = f"province[{i}]"
        if not isinstance(p, dict):
            raise _fail(path, entry, "must be a table")
        x = _id(path, f"{entry}.id", p.get("id"))
        if not isinstance(p.get("name"), str):
            raise _fail(path, f"{entry}.name", "needs a string 'name'")
        if x in pidx:
            raise _fail(path, f"province {x!r}", "duplicate id")
        if p.get("kind") not in KINDS:
            raise _fail(path, f"province {x!r}", f"kind must be one of {', '.join(KINDS)}")
        lat = check_number(path, f"province {x!r}.lat", p.get("lat"), -90, 90)
        lon = check_number(path, f"province {x!r}.lon", p.get("lon"), -180, 180)
        pidx[x] = len(pid)
        pid.append(x)
        pname.append(p["name"])
        pkind.append(p["kind"])
        ppos.append((lat, lon))
    sid: list[str] = []
    sname, spos = [], []
    sidx: dict[str, int] = {}
    for i, s in enumerate(seas):
        entry = f"sea[{i}]"
        if not isinstance(s, dict):
            raise _fail(path, entry, "must be a table")
        x = _id(path, f"{entry}.id", s.get("id"))
        if not isinstance(s.get("name"), str):
            raise _fail(path, f"{entry}.name", "needs a string 'name'")
        if x in sidx or x in pidx:
            raise _fail(path, f"sea {x!r}", "duplicate id")
        lat = check_number(path, f"sea {x!r}.lat", s.get("lat"), -90, 90)
        lon = check_number(path, f"sea {x!r}.lon", s.get("lon"), -180, 180)
        sidx[x] = len(sid)
        sid.append(x)
        sname.append(s["name"])
        spos.append((lat, lon))

    def pairs(key: str, left: dict[str, int], right: dict[str, int], most: int) -> list[tuple[int, int]]:
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

    land_pairs = pairs("land", pidx, pidx, MAX_LAND_BORDERS)
    coast_pairs = pairs("coast", pidx, sidx, MAX_COASTS)
    sea_pairs = pairs("sea_links", sidx, sidx, MAX_SEA_LINKS)
    land: list[set[int]] = [set() for _ in pid]
    for a, b in land_pairs:
        land[a].add(b)
        land[b].add(a)
    coasts: list[set[int]] = [set() for _ in pid]
    shores: list[set[int]] = [set() for _ in sid]
    for p, s in coast_pairs:
        coasts[p].add(s)
        shores[s].add(p)
    slinks: list[set[int]] = [set() for _ in sid]
    for a, b in sea_pairs:
        slinks[a].add(b)
        slinks[b].add(a)
    # derived facts (spqrisiko.md B 3.2): islands have no land border, landlocked provinces no coast
    for i, kind in enumerate(pkind):
        if kind == "island" and land[i]:
            raise _fail(path, f"province {pid[i]!r}", "an island cannot have land borders [R 13.6]")
        if kind == "landlocked" and coasts[i]:
            raise _fail(path, f"province {pid[i]!r}", "a landlocked province cannot touch a sea area")
        if kind in ("island", "coastal") and not coasts[i]:
            raise _fail(path, f"province {pid[i]!r}", f"a {kind} province must touch a sea area")
    for s in range(len(sid)):
        if not shores[s]:
            raise _fail(path, f"sea {sid[s]!r}", "a sea area must touch at least one province")
        check_count(path, f"sea {sid[s]!r}", len(shores[s]), MAX_SHORE, "provinces on one sea area")
        if not slinks[s]:
            raise _fail(path, f"sea {sid[s]!r}", "a sea area must link to another sea area")
    for key, count in (
        ("provinces", len(pid)),
        ("sea_areas", len(sid)),
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
    bridges = [tuple(sorted((q, s) for s in coasts[p] for q in shores[s] if q != p)) for p in range(len(pid))]
    return Board(
        path=path,
        province_ids=tuple(pid),
        province_names=tuple(pname),
        province_kinds=tuple(pkind),
        province_pos=tuple(ppos),
        sea_ids=tuple(sid),
        sea_names=tuple(sname),
        sea_pos=tuple(spos),
        land=tuple(tuple(sorted(x)) for x in land),
        coasts=tuple(tuple(sorted(x)) for x in coasts),
        shores=tuple(tuple(sorted(x)) for x in shores),
        sea_links=tuple(tuple(sorted(x)) for x in slinks),
        deck=tuple(deck),
        power_centres=pcs,
        province_index=pidx,
        sea_index=sidx,
        bridges=tuple(bridges),
    )


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


def load_board(path: str | None = None) -> Board:
    """The default board, a registered uploaded board by name, or a validated file (cached by path and version)."""
    return _REGISTRY.load(path)
