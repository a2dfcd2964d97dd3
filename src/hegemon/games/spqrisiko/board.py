"""The S.P.Q.RisiKo! board as data: 45 provinces, 12 sea areas, land borders, coasts, sea links and the deck
(spqrisiko.md B 1, B 3). Loaded once, validated at load (RulesDataError names file and entry), shared by states."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

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


def parse_board(data: dict[str, Any], path: str) -> Board:
    """Build and validate a Board from parsed TOML; every problem names the entry."""
    provinces = data.get("province")
    seas = data.get("sea")
    graph = data.get("graph")
    meta = data.get("meta", {})
    if not isinstance(provinces, list) or not provinces:
        raise _fail(path, "province", "no [[province]] entries")
    if not isinstance(seas, list) or not seas:
        raise _fail(path, "sea", "no [[sea]] entries")
    if not isinstance(graph, dict):
        raise _fail(path, "graph", "missing [graph] table")
    pid: list[str] = []
    pname, pkind, ppos = [], [], []
    for i, p in enumerate(provinces):
        entry = f"province[{i}]"
        if not isinstance(p, dict) or not isinstance(p.get("id"), str) or not isinstance(p.get("name"), str):
            raise _fail(path, entry, "needs string 'id' and 'name'")
        if p["id"] in pid:
            raise _fail(path, f"province {p['id']!r}", "duplicate id")
        if p.get("kind") not in KINDS:
            raise _fail(path, f"province {p['id']!r}", f"kind must be one of {', '.join(KINDS)}")
        for k in ("lat", "lon"):
            if not isinstance(p.get(k), (int, float)):
                raise _fail(path, f"province {p['id']!r}", f"missing numeric {k!r}")
        pid.append(p["id"])
        pname.append(p["name"])
        pkind.append(p["kind"])
        ppos.append((float(p["lat"]), float(p["lon"])))
    sid: list[str] = []
    sname, spos = [], []
    for i, s in enumerate(seas):
        entry = f"sea[{i}]"
        if not isinstance(s, dict) or not isinstance(s.get("id"), str) or not isinstance(s.get("name"), str):
            raise _fail(path, entry, "needs string 'id' and 'name'")
        if s["id"] in sid or s["id"] in pid:
            raise _fail(path, f"sea {s['id']!r}", "duplicate id")
        for k in ("lat", "lon"):
            if not isinstance(s.get(k), (int, float)):
                raise _fail(path, f"sea {s['id']!r}", f"missing numeric {k!r}")
        sid.append(s["id"])
        sname.append(s["name"])
        spos.append((float(s["lat"]), float(s["lon"])))
    pidx = {x: i for i, x in enumerate(pid)}
    sidx = {x: i for i, x in enumerate(sid)}

    def pairs(key: str, left: dict[str, int], right: dict[str, int]) -> list[tuple[int, int]]:
        raw = graph.get(key)
        if not isinstance(raw, list):
            raise _fail(path, f"graph.{key}", "missing list")
        out: list[tuple[int, int]] = []
        seen: set[frozenset[int] | tuple[int, int]] = set()
        for pair in raw:
            if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
                raise _fail(path, f"graph.{key} {pair!r}", "each entry is a pair of ids")
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

    land_pairs = pairs("land", pidx, pidx)
    coast_pairs = pairs("coast", pidx, sidx)
    sea_pairs = pairs("sea_links", sidx, sidx)
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
            raise _fail(path, f"meta.{key}", f"declares {meta[key]} but the data has {count}")
    cards = data.get("cards", {})
    deck = []
    for sym in SYMBOLS:
        n = cards.get(sym)
        if not isinstance(n, int) or n < 0:
            raise _fail(path, f"cards.{sym}", "needs a non-negative integer count")
        deck.append(n)
    if sum(deck) < 3:
        raise _fail(path, "cards", "the deck needs at least 3 cards")
    pcs = data.get("pieces", {}).get("power_centres")
    if not isinstance(pcs, int) or pcs < 0:
        raise _fail(path, "pieces.power_centres", "needs a non-negative integer")
    bridges = []
    for p in range(len(pid)):
        bridges.append(
            tuple(sorted((q, s) for s in sorted(coasts[p]) for q in sorted(shores[s]) if q != p))
        )
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


def load_board_file(path: str | Path) -> Board:
    """Load and validate a board TOML file."""
    p = str(path)
    try:
        with open(p, "rb") as fh:
            data = tomllib.load(fh)
    except OSError as e:
        raise RulesDataError(p, "file", f"cannot read ({e.strerror})") from None
    except tomllib.TOMLDecodeError as e:
        raise RulesDataError(p, "file", f"not valid TOML ({e})") from None
    return parse_board(data, p)


@cache
def default_board() -> Board:
    """The shipped board (spqrisiko-board.toml), loaded once and shared."""
    ref = resources.files("hegemon.games.spqrisiko") / "data" / "board.toml"
    data = tomllib.loads(ref.read_text(encoding="utf-8"))
    return parse_board(data, "spqrisiko/data/board.toml")


@cache
def load_board(path: str | None = None) -> Board:
    """The default board, or a validated custom one (cached by path)."""
    return default_board() if path is None else load_board_file(path)
