"""The drawn Polis map (src/hegemon/web/maps/polis.json, made by scripts/make_maps.py): each land territory is
drawn where it is on the board. The Kyklades are the islands of their own sea area, never part of Attika."""

from __future__ import annotations

import json
import re
from pathlib import Path

MAP = Path(__file__).resolve().parents[3] / "src" / "hegemon" / "web" / "maps" / "polis.json"


def _pieces(d: str) -> list[tuple[float, float, float, float]]:
    """The bounding box (x0, y0, x1, y1) of each closed piece of an SVG path."""
    out = []
    for piece in re.split(r"(?=M)", d):
        nums = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", piece)]
        if nums:
            xs, ys = nums[0::2], nums[1::2]
            out.append((min(xs), min(ys), max(xs), max(ys)))
    return out


def test_attika_holds_no_island_of_the_kyklades() -> None:
    m = json.loads(MAP.read_text())
    attika = next(a for a in m["provinces"] if a["id"] == "attika")
    kyklades = next(s for s in m["seas"] if s["id"] == "kyklades")
    mainland = _pieces(attika["d"])[0]
    for x0, _y0, _x1, _y1 in _pieces(attika["d"]):
        # Salamis and Aegina lie off Attika's coast; Andros, Tinos, Syros… lie out in the Kyklades
        assert x0 < mainland[2] + 10, (x0, mainland)
        assert x0 < kyklades["x"] - 40
