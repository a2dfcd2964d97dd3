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
from pathlib import Path
from typing import Any

import numpy as np
import shapely
from global_land_mask import globe
from shapely.geometry import MultiPoint, Point, Polygon, box
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
) -> dict[str, Any]:
    """Voronoi cell of each (id, lat, lon) clipped to `region` (plus a small disc so islands always show),
    bounded to `radius` degrees around the point and, if given, to `band` (the coastal land: an inland edge
    that follows the coast reads as a border, a circle's arc across open land does not)."""
    mp = MultiPoint([(lon, lat) for _, lat, lon in points])
    vor = shapely.voronoi_polygons(mp, extend_to=frame)
    out: dict[str, Any] = {}
    for pid, lat, lon in points:
        pt = Point(lon, lat)
        cell = next(g for g in vor.geoms if g.covers(pt))
        area = (
            region.union(pt.buffer(island))
            .intersection(cell)
            .intersection(pt.buffer((radii or {}).get(pid, radius)))
        )
        if band is not None:
            area = area.intersection(band.union(pt.buffer(island)))
        if area.geom_type == "GeometryCollection":
            area = unary_union([g for g in area.geoms if g.geom_type in ("Polygon", "MultiPolygon")])
        # keep the part holding the point (and any other piece of real size)
        if area.geom_type == "MultiPolygon":
            keep = [g for g in area.geoms if g.distance(pt) < island * 2 or g.area > island * island * 4]
            area = unary_union(keep) if keep else area
        out[pid] = area
    return out


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
) -> dict[str, Any]:
    """The map of one board. `inset`: {"ids": [...], "bounds": (lon0, lon1, lat0, lat1), "at": (lon, lat),
    "scale": k} draws those land regions from their own frame in a box placed at `at` (a far-off island).
    `coast`: land regions reach at most this many degrees inland from the sea."""
    lon0, lon1, lat0, lat1 = bounds
    proj = Proj(lon0, lon1, lat0, lat1)
    frame = box(lon0, lat0, lon1, lat1)
    land = land_polygon(lon0, lon1, lat0, lat1, step).intersection(frame)
    water = frame.difference(land)
    far = set(inset["ids"]) if inset else set()
    main_lands = [x for x in lands if x[0] not in far]
    band = None
    if coast is not None:
        # the frame's edges are not a coast: measure from the water inside the map only
        band = water.buffer(coast).intersection(land)
    lcells = cells([(i, la, lo) for i, _, la, lo in main_lands], land, frame, radius, island, radii, band)
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
            shift(sub.intersection(sub_frame), src, at, k).difference(
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
    return out


def main() -> None:
    from hegemon.games.polis.board import load_board as polis_board
    from hegemon.games.spqrisiko.board import load_board as spqr_board

    OUT.mkdir(parents=True, exist_ok=True)
    b = spqr_board(None)
    lands = [(b.province_ids[i], b.province_names[i], *b.province_pos[i]) for i in range(b.n_provinces)]
    seas = [(b.sea_ids[i], b.sea_names[i], *b.sea_pos[i]) for i in range(b.n_seas)]
    spqr = build("spqrisiko", lands, seas, (-12.0, 46.0, 25.0, 57.0), 0.1, 4.2, 7.0, 0.35)
    spqr["names"] = dict(zip(b.province_ids, b.province_names, strict=True)) | dict(
        zip(b.sea_ids, b.sea_names, strict=True)
    )
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
    (OUT / "polis.json").write_text(json.dumps(polis, separators=(",", ":")))
    for f in ("spqrisiko.json", "polis.json"):
        print(f, (OUT / f).stat().st_size, "bytes")


if __name__ == "__main__":
    main()
