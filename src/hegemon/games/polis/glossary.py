"""What each event, project and combat card does, with its numbers, for the client's tooltips
(`GET /api/games/polis/glossary`). Read from the shipped board file (the same data the engine loads), so a
tooltip never disagrees with the rules engine; the client words it in English or Italian."""

from __future__ import annotations

import functools
import tomllib
from importlib import resources
from typing import Any


@functools.cache
def glossary() -> dict[str, Any]:
    """The glossary of the shipped board (computed once)."""
    raw = tomllib.loads(
        (resources.files("hegemon.games.polis") / "data" / "board.toml").read_text(encoding="utf-8")
    )
    return glossary_of(raw)


def board_glossary(board: Any) -> dict[str, Any]:
    """The glossary of a board the engine loaded (a corrected board file: its own numbers)."""
    return glossary_of(board.raw)


def glossary_of(raw: dict[str, Any]) -> dict[str, Any]:
    """The glossary of a board file's data (validated by the board loader)."""
    game = "polis"
    names: dict[str, str] = {}
    for table in ("territories", "poleis", "markets"):
        for e in raw.get(table, []):
            names[e["id"]] = e.get("name", e["id"])
    formations = {
        f["id"]: {"land": f["land_name"], "sea": f["sea_name"], "values": []}
        for f in raw["combat_formations"]
    }
    for c in raw["combat_cards"]:
        formations[c["formation"]]["values"].append(int(c["prestige"]))
    for f in formations.values():
        f["values"].sort()
    return {
        "game": game,
        "names": names,
        "events": {
            e["id"]: {"name": e["name"], "pile": e["pile"], "effects": e.get("effects", [])} for e in raw["events"]
        },
        "projects": {
            p["id"]: {
                "name": p["name"], "symbol": p["symbol"], "cost": p["cost"],
                "immediate": p["immediate_prestige"], "posterity": p["posterity_prestige"],
            }
            for p in raw["projects"]
        },
        "formations": formations,
    }  # fmt: skip
