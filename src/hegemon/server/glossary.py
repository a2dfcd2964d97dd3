"""What each card, event, project, combat card and power centre does, with its numbers, for the client's
tooltips: `GET /api/games/{game}/glossary`. Read from the game's shipped board file (the same data the engine
loads), so a tooltip never disagrees with the rules engine; the client words it in English or Italian."""

from __future__ import annotations

import functools
import tomllib
from importlib import resources
from typing import Any

from fastapi import APIRouter

from hegemon.games import game_names
from hegemon.server.protocol import ErrorBody, ServerError


def _raw(game: str) -> dict[str, Any]:
    ref = resources.files(f"hegemon.games.{game}") / "data" / "board.toml"
    return tomllib.loads(ref.read_text(encoding="utf-8"))


@functools.cache
def glossary(game: str) -> dict[str, Any]:
    """The glossary of `game` (computed once)."""
    raw = _raw(game)
    if game == "spqrisiko":
        cards = raw.get("cards", {})
        return {
            "game": game,
            "cards": {k: int(v) for k, v in cards.items()},
            "set_alike": 8,
            "set_different": 10,
            "bonus": {"legionary": {}, "banner": {"legionaries": 2}, "trireme": {"triremes": 1}, "arena": {"power_centres": 1}},
            "power_centres": int(raw.get("pieces", {}).get("power_centres", 12)),
            "power_centre": {"vp": 1, "legionaries": 1},
        }  # fmt: skip
    names: dict[str, str] = {}
    for table in ("territories", "poleis", "markets"):
        for e in raw.get(table, []):
            names[e["id"]] = e.get("name", e["id"])
    formations = {f["id"]: {"land": f["land_name"], "sea": f["sea_name"], "values": []} for f in raw["combat_formations"]}
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


def router() -> APIRouter:
    r = APIRouter()

    @r.get(
        "/api/games/{game}/glossary",
        tags=["games"],
        responses={404: {"model": ErrorBody, "description": "unknown_table: no such game"}},
    )
    async def get_glossary(game: str) -> dict[str, Any]:
        """What each card, event, project, combat card and power centre of the game does, with its numbers."""
        if game not in game_names():
            raise ServerError("unknown_table", f"no game {game[:40]!r}; games: {', '.join(game_names())}")
        return glossary(game)

    return r
