"""Generate the drawn maps of the web table once: `python scripts/make_maps.py` writes
`src/hegemon/web/maps/{spqrisiko,polis}.json` (SVG path data per province / territory / sea area, label
positions, the land outline), which are committed and shipped; nothing is fetched at run time.

Shapes: Voronoi cells of the board's lat/lon positions, land regions clipped by the real coastlines of
`global-land-mask` (a 1 km land/sea raster shipped inside that package), sea regions clipped to the water,
each cell bounded to a radius around its point so that land far from every province stays unclaimed.
Needs the `maps` extra (shapely, global-land-mask)."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import numpy as np
import shapely
import shapely.prepared
from global_land_mask import globe
from shapely.geometry import LineString, MultiPoint, Point, Polygon, box
from shapely.ops import unary_union

OUT = Path(__file__).resolve().parent.parent / "src" / "hegemon" / "web" / "maps"


class Proj:
    """Equirectangular projection scaled by the cosine of the central latitude, into a `width`-wide box."""

    def __init__(self, lon0: float, lon1: float, lat0: float, lat1: float, width: float = 1000.0) -> None:
        self.lon0, self.lat1 = lon0, lat1
        self.c = math.cos(math.radians((lat0 + lat1) / 2))
        self.k = width / ((lon1 - lon0) * self.c)
        self.w = width
        self.h = (lat1 - lat0) * self.k

    def xy(self, lat: float, lon: float) -> tuple[float, float]:
        return (lon - self.lon0) * self.c * self.k, (self.lat1 - lat) * self.k


def land_polygon(lon0: float, lon1: float, lat0: float, lat1: float, step: float) -> Any:
    """The land of the box as (lon, lat) polygons, from the raster by row runs, merged and simplified."""
    lats = np.arange(lat0, lat1, step) + step / 2
    lons = np.arange(lon0, lon1, step) + step / 2
    grid_lon, grid_lat = np.meshgrid(lons, lats)
    mask = globe.is_land(grid_lat, grid_lon)
    boxes = []
    for i, la in enumerate(lats):
        row = mask[i]
        j = 0
        n = len(row)
        while j < n:
            if row[j]:
                k = j
                while k < n and row[k]:
                    k += 1
                boxes.append(box(lon0 + j * step, la - step / 2, lon0 + k * step, la + step / 2))
                j = k
            else:
                j += 1
    land = unary_union(boxes)
    return land.buffer(step * 0.3).buffer(-step * 0.3).simplify(step * 0.6)


def to_path(geom: Any, proj: Proj) -> str:
    """SVG path data of a (multi)polygon in lon/lat."""
    parts = []
    polys = (
        [geom]
        if isinstance(geom, Polygon)
        else [g for g in getattr(geom, "geoms", []) if isinstance(g, Polygon)]
    )
    for poly in polys:
        for ring in [poly.exterior, *poly.interiors]:
            pts = [proj.xy(lat, lon) for lon, lat in ring.coords]
            if len(pts) < 3:
                continue
            parts.append("M" + "L".join(f"{x:.1f},{y:.1f}" for x, y in pts[:-1]) + "Z")
    return "".join(parts)


def cells(
    points: list[tuple[str, float, float]],
    region: Any,
    frame: Any,
    radius: float,
    island: float,
    radii: dict[str, float] | None = None,
    band: Any = None,
    offshore: dict[str, float] | None = None,
) -> dict[str, Any]:
    """Voronoi cell of each (id, lat, lon) clipped to `region` (plus a small disc so islands always show),
    bounded to `radius` degrees around the point and, if given, to `band` (the coastal land: an inland edge
    that follows the coast reads as a border, a circle's arc across open land does not). `offshore`: {id:
    degrees}: that region keeps no island farther than this from its own coast (the Kyklades are drawn as land
    of the sea area Kyklades, not as part of Attika); such islands stay unclaimed land."""
    mp = MultiPoint([(lon, lat) for _, lat, lon in points])
    vor = shapely.voronoi_polygons(mp, extend_to=frame)
    out: dict[str, Any] = {}
    stray: list[tuple[str, Any]] = []  # pieces cut off from their point by the sea
    for pid, lat, lon in points:
        pt = Point(lon, lat)
        cell = next(g for g in vor.geoms if g.covers(pt))
        bound = pt.buffer((radii or {}).get(pid, radius))
        area = region.intersection(cell).intersection(bound)
        if band is not None:
            area = area.intersection(band.union(pt.buffer(island)))
        area = _polygons(area)
        # an island too small for the raster gets a small disc (added to the drawn land too, see `build`)
        if area.is_empty or area.distance(pt) > island * 0.5:
            area = unary_union([area, pt.buffer(island).intersection(cell)])
        pieces = list(area.geoms) if area.geom_type == "MultiPolygon" else [area]
        home = min(pieces, key=lambda g: g.distance(pt))
        keep = [home]
        for g in pieces:
            if g is home:
                continue
            if g.area < island * island * 0.05:
                continue  # a crumb of coastline
            stray.append((pid, g))
        out[pid] = unary_union(keep)
    # a piece across the sea from its point (Calabria in the cell of Sicily's point, the heel of Apulia in
    # Epirus's) belongs to the region it touches on land; a true island touching nobody stays with its point
    for pid, g in stray:
        touch = {o: out[o].intersection(g.buffer(1e-6)).length for o in out if o != pid}
        best = max(touch, key=lambda o: touch[o], default=None)
        if best is not None and touch[best] > 0:
            out[best] = out[best].union(g)
        elif offshore and pid in offshore and g.distance(out[pid]) > offshore[pid]:
            continue  # an island off that region's coast: unclaimed land
        else:
            out[pid] = out[pid].union(g)
    return out


def _polygons(area: Any) -> Any:
    """The polygonal part of an intersection result."""
    if area.geom_type == "GeometryCollection":
        return unary_union([g for g in area.geoms if g.geom_type in ("Polygon", "MultiPolygon")])
    return area


def label(geom: Any, lat: float, lon: float, proj: Proj) -> tuple[float, float]:
    pt = Point(lon, lat)
    if not geom.contains(pt):
        pt = geom.representative_point()
    x, y = proj.xy(pt.y, pt.x)
    return round(x, 1), round(y, 1)


def shift(geom: Any, src: tuple[float, float], dst: tuple[float, float], scale: float) -> Any:
    """Move a lon/lat geometry from its place (top-left corner `src`) to an inset at `dst`, scaled."""
    return shapely.transform(
        geom,
        lambda xy: np.column_stack(
            ((xy[:, 0] - src[0]) * scale + dst[0], (xy[:, 1] - src[1]) * scale + dst[1])
        ),
    )


def build(
    name: str,
    lands: list[tuple[str, str, float, float]],
    seas: list[tuple[str, str, float, float]],
    bounds: tuple[float, float, float, float],
    step: float,
    radius: float,
    sea_radius: float,
    island: float,
    radii: dict[str, float] | None = None,
    inset: dict[str, Any] | None = None,
    coast: float | None = None,
    straits: list[list[tuple[float, float]]] | None = None,
    offshore: dict[str, float] | None = None,
) -> dict[str, Any]:
    """The map of one board. `inset`: {"ids": [...], "bounds": (lon0, lon1, lat0, lat1), "at": (lon, lat),
    "scale": k} draws those land regions from their own frame in a box placed at `at` (a far-off island).
    `coast`: land regions reach at most this many degrees inland from the sea. `straits`: (lon, lat) lines
    cut as water. `offshore`: see `cells`."""
    lon0, lon1, lat0, lat1 = bounds
    proj = Proj(lon0, lon1, lat0, lat1)
    frame = box(lon0, lat0, lon1, lat1)
    land = land_polygon(lon0, lon1, lat0, lat1, step).intersection(frame)
    if straits:
        # a strait narrower than the raster (Messina, the Bosporus, the Dardanelles) is water all the same: the
        # land on each side belongs to its own region (Calabria to Italia, Byzantium to Thracia)
        land = land.difference(unary_union([LineString(line).buffer(step * 0.6) for line in straits]))
    water = frame.difference(land)
    far = set(inset["ids"]) if inset else set()
    main_lands = [x for x in lands if x[0] not in far]
    band = None
    if coast is not None:
        # the frame's edges are not a coast: measure from the water inside the map only
        band = water.buffer(coast).intersection(land)
    lcells = cells(
        [(i, la, lo) for i, _, la, lo in main_lands], land, frame, radius, island, radii, band, offshore
    )
    # the discs of islands too small for the raster are land too: every region lies on the drawn land
    land = land.union(unary_union(list(lcells.values()))).intersection(frame)
    extra: dict[str, tuple[Any, float, float]] = {}
    inset_box = None
    if inset:
        a0, a1, b0, b1 = inset["bounds"]
        sub = land_polygon(a0, a1, b0, b1, step)
        sub_frame = box(a0, b0, a1, b1)
        far_lands = [x for x in lands if x[0] in far]
        sub_cells = cells([(i, la, lo) for i, _, la, lo in far_lands], sub, sub_frame, radius, island, radii)
        k, at = inset["scale"], inset["at"]
        src = (a0, b1)
        for pid, _, la, lo in far_lands:
            pt = shift(Point(lo, la), src, at, k)
            extra[pid] = (shift(sub_cells[pid], src, at, k), pt.y, pt.x)
        inset_box = shift(sub_frame, src, at, k)
        land = land.difference(inset_box).union(
            shift(sub.intersection(sub_frame), src, at, k).union(
                unary_union([g for g, _, _ in extra.values()])
            )
        )
        lcells.update({pid: g for pid, (g, _, _) in extra.items()})
    claimed = unary_union(list(lcells.values()))
    if inset_box is not None:
        claimed = claimed.union(inset_box)
    scells = cells(
        [(i, la, lo) for i, _, la, lo in seas], water.difference(claimed), frame, sea_radius, island
    )
    out: dict[str, Any] = {
        "game": name,
        "width": round(proj.w, 1),
        "height": round(proj.h, 1),
        # lon0, lon1, lat0, lat1 of the drawing (x grows with lon, y with -lat; see Proj)
        "bounds": [lon0, lon1, lat0, lat1],
        "land": to_path(land, proj),
        "provinces": [],
        "seas": [],
    }
    if inset_box is not None:
        out["inset"] = to_path(inset_box, proj)
    for pid, pname, lat, lon in lands:
        g = lcells[pid]
        if pid in extra:
            lat, lon = extra[pid][1], extra[pid][2]
        x, y = label(g, lat, lon, proj)
        out["provinces"].append({"id": pid, "name": pname, "d": to_path(g, proj), "x": x, "y": y})
    for sid, sname, lat, lon in seas:
        g = scells[sid]
        x, y = proj.xy(lat, lon)
        x = min(max(x, 55.0), proj.w - 55.0)  # keep the label inside the map
        out["seas"].append(
            {"id": sid, "name": sname, "d": to_path(g, proj), "x": round(x, 1), "y": round(y, 1)}
        )
    # the drawn regions in map pixels, for `layout` (dropped before writing)
    px = {pid: to_px(g, proj) for pid, g in {**lcells, **scells}.items()}
    out["_px"] = px
    out["_proj"] = proj
    return out


def to_px(geom: Any, proj: Proj) -> Any:
    """A lon/lat geometry in map pixels."""
    return shapely.transform(geom, lambda xy: np.array([proj.xy(lat, lon) for lon, lat in xy]))


# ------------------------------------------------------------------ where the labels and stacks go

CHAR = {9.0: 5.5, 10.0: 5.9, 7.0: 4.3}  # average width of a character at a font size (DejaVu Sans), px


def text_box(x: float, y: float, text: str, size: float) -> Any:
    """The box of a centred text whose baseline is at y."""
    w = len(text) * CHAR[size] + 4
    return box(x - w / 2, y - size * 0.95, x + w / 2, y + size * 0.3)


class Placer:
    """Greedy placement of boxes (labels, discs, stacks) inside their regions, none over another: each goes to
    the free spot nearest to where it would like to be."""

    def __init__(self) -> None:
        self.taken: list[Any] = []
        self.tier = 0  # how good the last place was: 0 best

    def free(self, b: Any) -> bool:
        return not any(b.intersects(t) for t in self.taken)

    def place(
        self,
        region: Any,
        want: tuple[float, float],
        make: Any,
        step: float = 2.5,
        reach: float = 90.0,
        core: Any = None,
        dry: bool = False,
    ) -> tuple[float, float]:
        """The point nearest `want` where `make(x, y)` (a box) lies inside `region` and on nothing placed;
        failing that, where its `core(x, y)` (the disc or the middle) lies inside the region and the box on
        nothing placed; failing that, with its centre inside and the box at most 8 px out, on nothing placed;
        failing that, beside the region (at most 16 px out: the name of a tiny island), on nothing placed;
        failing that, the nearest spot inside the region."""
        wx, wy = want
        cands = []
        n = int(reach / step)
        for i in range(-n, n + 1):
            for j in range(-n, n + 1):
                x, y = wx + i * step, wy + j * step
                cands.append(((x - wx) ** 2 + (y - wy) ** 2, x, y))
        cands.sort()
        inside = shapely.prepared.prep(region)
        near = shapely.prepared.prep(region.buffer(8))
        beside = shapely.prepared.prep(region.buffer(16))
        tiers: list[tuple[float, float, Any] | None] = [None, None, None, None, None]
        for _, x, y in cands:
            b = make(x, y)
            whole = inside.contains(b)
            part = whole or inside.contains(core(x, y) if core else Point(x, y))
            if not part:
                # at the edge of a crowded region: its centre just inside, over nothing else
                if tiers[2] is None and inside.contains(Point(x, y)) and near.contains(b) and self.free(b):
                    tiers[2] = (x, y, b)
                # an island smaller than its name: the name beside it, over nothing else
                elif tiers[3] is None and beside.contains(b) and self.free(b):
                    tiers[3] = (x, y, b)
                continue
            free = self.free(b)
            if whole and free:
                tiers[0] = (x, y, b)
                break
            if free and tiers[1] is None:
                tiers[1] = (x, y, b)
            if tiers[4] is None:
                tiers[4] = (x, y, b)
        self.tier = next((k for k, c in enumerate(tiers) if c is not None), len(tiers))
        best = tiers[self.tier] if self.tier < len(tiers) else None
        if best is None:
            best = (wx, wy, make(wx, wy))
        x, y, b = best
        if self.tier >= 3 and not dry and os.environ.get("MAPS_DEBUG"):
            print("crowded:", want, self.tier)
        if not dry:
            self.taken.append(b)
        return round(x, 1), round(y, 1)


def layout_spqr(out: dict[str, Any]) -> None:
    """S.P.Q.RisiKo!: each province's name and its army disc (with the power-centre star) inside it; each
    sea's name and its fleets inside it; nothing over anything else. Sets lx/ly (label baseline centre) and
    ux/uy (army or fleet centre)."""
    px = out["_px"]
    pl = Placer()
    for pr in sorted(out["provinces"], key=lambda p: px[p["id"]].area):
        g = px[pr["id"]]
        pr["ux"], pr["uy"] = pl.place(
            g, (pr["x"], pr["y"] + 3), lambda x, y: box(x - 9, y - 9, x + 13, y + 9)
        )
        pr["lx"], pr["ly"] = pl.place(
            g,
            (pr["ux"], pr["uy"] - 12),
            lambda x, y, n=pr["name"]: text_box(x, y, n, 9.0),
            core=lambda x, y: Point(x, y - 3),
        )
    for sea in out["seas"]:
        g = px[sea["id"]].buffer(4)
        sea["ux"], sea["uy"] = pl.place(
            g, (sea["x"], sea["y"]), lambda x, y: box(x - 33, y - 8, x + 33, y + 8)
        )
        sea["lx"], sea["ly"] = pl.place(
            g,
            (sea["ux"], sea["uy"] - 12),
            lambda x, y, n=sea["name"]: text_box(x, y, n, 10.0),
            core=lambda x, y: Point(x, y - 3),
        )


def polis_box(x: float, y: float, name: str) -> Any:
    """A polis disc (up to F4), its fortification and siege marks, and its name below."""
    half = max(15.0, len(name) * CHAR[7.0] / 2 + 1)
    return box(x - half, y - 10, x + half, y + 21)


def layout_polis(out: dict[str, Any], places: dict[str, tuple[float, float]]) -> None:
    """Polis: each territory's stack of hoplites (both sides side by side, or one above the other: uv), each
    polis disc near its town (inside its territory), each territory's name, each sea's name and galleys;
    nothing over anything else. Sets poleis[].x/y, lx/ly, ux/uy and uv."""
    px = out["_px"]
    names = out["names"]
    pl = Placer()
    by_terr: dict[str, list[dict[str, Any]]] = {}
    for q in out["poleis"]:
        by_terr.setdefault(q["territory"], []).append(q)
    terr = {p["id"]: p for p in out["provinces"]}
    stack = lambda x, y: box(x - 23, y - 8, x + 23, y + 8)  # noqa: E731
    tall = lambda x, y: box(x - 12, y - 16, x + 12, y + 16)  # noqa: E731
    # stacks first (a stack must sit inside its territory), then the poleis near their towns, then the names
    # (a name may reach over the coast)
    for pr in sorted(out["provinces"], key=lambda p: px[p["id"]].area):
        g, want = px[pr["id"]], (pr["x"], pr["y"] + 4)
        core = lambda x, y: box(x - 12, y - 6, x + 12, y + 6)  # noqa: E731
        pl.place(g, want, stack, core=core, dry=True)
        if pl.tier > 1:
            # no room for the two sides side by side: one above the other (the client reads "uv")
            pr["uv"] = 1
            pr["ux"], pr["uy"] = pl.place(g, want, tall, core=core)
        else:
            pr["ux"], pr["uy"] = pl.place(g, want, stack, core=core)
    for tid in sorted(by_terr, key=lambda t: px[t].area):
        for q in by_terr[tid]:
            want = places.get(q["id"], (terr[tid]["x"], terr[tid]["y"]))
            q["x"], q["y"] = pl.place(
                px[tid].buffer(3),
                want,
                lambda x, y, n=names[q["id"]]: polis_box(x, y, n),
                step=2.0,
                core=lambda x, y: Point(x, y).buffer(6),
            )
    for pr in sorted(out["provinces"], key=lambda p: px[p["id"]].area):
        pr["lx"], pr["ly"] = pl.place(
            px[pr["id"]].buffer(2),
            (pr["ux"], pr["uy"] - 13),
            lambda x, y, n=pr["name"]: text_box(x, y, n, 9.0),
            core=lambda x, y: Point(x, y - 3),
        )
    for sea in out["seas"]:
        g = px[sea["id"]]
        want = (sea["x"], sea["y"] - 10)
        core = lambda x, y: Point(x, y - 3)  # noqa: E731
        pl.place(g, want, lambda x, y, n=sea["name"]: text_box(x, y, n, 10.0), core=core, dry=True)
        size = 10.0
        if pl.tier >= 3:
            size = 7.0  # a narrow gulf among names and poleis: its name smaller (the client reads "ls")
            sea["ls"] = 7
        sea["lx"], sea["ly"] = pl.place(
            g, want, lambda x, y, n=sea["name"], k=size: text_box(x, y, n, k), core=core, reach=140.0
        )
        sea["ux"], sea["uy"] = pl.place(g, (sea["lx"], sea["ly"] + 14), stack)


def main() -> None:
    from hegemon.games.polis.board import load_board as polis_board
    from hegemon.games.spqrisiko.board import load_board as spqr_board

    OUT.mkdir(parents=True, exist_ok=True)
    b = spqr_board(None)
    lands = [(b.province_ids[i], b.province_names[i], *b.province_pos[i]) for i in range(b.n_provinces)]
    seas = [(b.sea_ids[i], b.sea_names[i], *b.sea_pos[i]) for i in range(b.n_seas)]
    straits = [
        [(15.70, 38.36), (15.67, 38.24), (15.61, 38.12), (15.60, 37.95)],  # Messina
        [(29.14, 41.30), (29.06, 41.12), (28.99, 40.96)],  # Bosporus
        [(26.12, 39.96), (26.40, 40.12), (26.74, 40.44)],  # Dardanelles
    ]
    spqr = build("spqrisiko", lands, seas, (-12.0, 46.0, 25.0, 57.0), 0.1, 4.2, 7.0, 0.35, straits=straits)
    spqr["names"] = dict(zip(b.province_ids, b.province_names, strict=True)) | dict(
        zip(b.sea_ids, b.sea_names, strict=True)
    )
    layout_spqr(spqr)
    for k in ("_px", "_proj"):
        spqr.pop(k)
    (OUT / "spqrisiko.json").write_text(json.dumps(spqr, separators=(",", ":")))
    pb = polis_board(None)
    terr = pb.raw["territories"]
    plands = [(t["id"], t["name"], t["lat"], t["lon"]) for t in terr if t["kind"] == "land"]
    pseas = [(t["id"], t["name"], t["lat"], t["lon"]) for t in terr if t["kind"] != "land"]
    polis = build(
        "polis",
        plands,
        pseas,
        (16.6, 28.4, 35.7, 41.5),
        0.03,
        1.6,
        2.6,
        0.12,
        {"sikelia": 2.2, "kerkyra": 0.3},
        {"ids": ["sikelia"], "bounds": (12.3, 15.8, 36.5, 38.4), "at": (16.75, 41.35), "scale": 0.75},
        coast=0.55,
        offshore={"attika": 0.2},  # the Kyklades (their own sea area on the board), not Attika's land
    )
    names: dict[str, str] = {}
    for ids, nm in (
        (pb.terr_ids, pb.terr_names), (pb.polis_ids, pb.polis_names), (pb.market_ids, pb.market_names),
        (pb.project_ids, pb.project_names), (pb.event_ids, pb.event_names),
    ):  # fmt: skip
        names.update(zip(ids, nm, strict=True))
    polis["names"] = names
    polis["poleis"] = [
        {"id": pb.polis_ids[q], "territory": pb.terr_ids[pb.p_terr[q]]} for q in range(pb.n_poleis)
    ]
    proj = polis["_proj"]
    inset_terr = {"sikelia"}
    towns = {
        q["id"]: proj.xy(q["lat"], q["lon"]) for q in pb.raw["poleis"] if q["territory"] not in inset_terr
    }
    layout_polis(polis, towns)
    for k in ("_px", "_proj"):
        polis.pop(k)
    (OUT / "polis.json").write_text(json.dumps(polis, separators=(",", ":")))
    for f in ("spqrisiko.json", "polis.json"):
        print(f, (OUT / f).stat().st_size, "bytes")


if __name__ == "__main__":
    main()
