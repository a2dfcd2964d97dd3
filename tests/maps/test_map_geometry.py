"""The shipped maps (src/hegemon/web/maps/*.json, made by scripts/make_maps.py): every region lies on its own
land (nothing over the sea past a coastline, nothing over a neighbour), known towns fall in the right
province (Calabria in Italia, not Sicilia), and every name, army, stack and polis sits inside its own region."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from shapely.geometry import Point, Polygon
from shapely.ops import unary_union
from shapely.validation import make_valid

MAPS = Path(__file__).resolve().parents[2] / "src" / "hegemon" / "web" / "maps"


def shape(d: str) -> Any:
    """An SVG path of M…L…Z rings (filled even-odd, as the client draws them) as a shapely geometry."""
    g: Any = Polygon()
    for part in re.findall(r"M([^Z]*)Z", d):
        pts = [tuple(map(float, p.split(","))) for p in part.split("L")]
        if len(pts) >= 3:
            g = g.symmetric_difference(make_valid(Polygon(pts)))
    return g


def load(name: str) -> dict[str, Any]:
    return json.loads((MAPS / f"{name}.json").read_text())


def xy(m: dict[str, Any], lat: float, lon: float) -> tuple[float, float]:
    """The map point of a lat/lon (the generator's projection, from the map's bounds)."""
    lon0, lon1, lat0, lat1 = m["bounds"]
    c = math.cos(math.radians((lat0 + lat1) / 2))
    k = m["width"] / ((lon1 - lon0) * c)
    return (lon - lon0) * c * k, (lat1 - lat) * k


@pytest.mark.parametrize("name", ["spqrisiko", "polis"])
def test_every_region_lies_on_its_own_land(name: str) -> None:
    m = load(name)
    land = shape(m["land"])
    regions = {p["id"]: shape(p["d"]) for p in m["provinces"]}
    for pid, g in regions.items():
        assert g.area > 20, pid
        off = g.difference(land.buffer(0.5)).area
        assert off <= 0.005 * g.area, (pid, off, g.area)  # nothing over the sea past a coastline
    ids = sorted(regions)
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            both = regions[a].intersection(regions[b]).area
            assert both <= 0.002 * min(regions[a].area, regions[b].area) + 4, (
                a,
                b,
                both,
            )  # nothing over a neighbour


@pytest.mark.parametrize("name", ["spqrisiko", "polis"])
def test_every_name_and_stack_sits_inside_its_region(name: str) -> None:
    m = load(name)
    for a in m["provinces"] + m["seas"]:
        g = shape(a["d"]).buffer(2)
        if shape(a["d"]).area > 800:
            assert g.contains(Point(a["lx"], a["ly"] - 3)), (a["id"], "label")
        else:  # an island smaller than its name: the name beside it
            assert g.distance(Point(a["lx"], a["ly"] - 3)) < 16, (a["id"], "label")
        assert g.contains(Point(a["ux"], a["uy"])), (a["id"], "stack")
        if a in m["provinces"]:
            assert shape(a["d"]).contains(Point(a["x"], a["y"])), a["id"]


def test_spqrisiko_towns_fall_in_their_provinces() -> None:
    m = load("spqrisiko")
    regions = {p["id"]: shape(p["d"]) for p in m["provinces"]}
    towns = {
        "italia": [
            (39.0, 16.4),
            (38.15, 15.75),
            (40.6, 17.9),
            (40.85, 14.25),
        ],  # Calabria, Reggio, Brindisi, Naples
        "sicilia": [(38.15, 15.45), (38.1, 13.4)],  # Messina, Palermo
        "thracia": [(41.1, 28.8), (40.4, 26.6)],  # Byzantium, Gallipoli
        "bithynia": [(40.9, 29.3)],  # across the Bosporus
        "asia": [(39.95, 26.3)],  # Troy, across the Dardanelles
        "achaia": [(37.5, 22.3)],
        "britannia": [(51.1, 1.3)],
        "belgica": [(50.9, 1.9)],
        "baetica": [(36.2, -5.4)],
        "mauretania": [(35.7, -5.8)],
        "africa": [(36.8, 10.2)],
        "sardinia": [(39.2, 9.1)],
        "corsica": [(42.8, 9.4)],
    }
    for pid, pts in towns.items():
        for lat, lon in pts:
            here = [k for k, g in regions.items() if g.contains(Point(*xy(m, lat, lon)))]
            assert here == [pid], (pid, lat, lon, here)


def test_polis_discs_sit_in_their_territory_and_apart() -> None:
    m = load("polis")
    regions = {p["id"]: shape(p["d"]) for p in m["provinces"]}
    discs = []
    for q in m["poleis"]:
        assert regions[q["territory"]].buffer(3).contains(Point(q["x"], q["y"]).buffer(5)), q["id"]
        discs.append(Point(q["x"], q["y"]).buffer(10))
    # no stack under a polis disc
    stacks = [Point(a["ux"], a["uy"]).buffer(8) for a in m["provinces"] + m["seas"]]
    assert not unary_union(discs).intersection(unary_union(stacks)).area
    for i, a in enumerate(discs):
        for b in discs[i + 1 :]:
            assert not a.intersection(b).area
