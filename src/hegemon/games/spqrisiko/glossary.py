"""What each card and power centre does, with its numbers, for the client's tooltips
(`GET /api/games/spqrisiko/glossary`). Read from the shipped board file (the same data the engine loads), so a
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
        (resources.files("hegemon.games.spqrisiko") / "data" / "board.toml").read_text(encoding="utf-8")
    )
    cards = {k: int(v) for k, v in raw.get("cards", {}).items()}
    return glossary_of(cards, int(raw.get("pieces", {}).get("power_centres", 12)))


def board_glossary(board: Any) -> dict[str, Any]:
    """The glossary of a board the engine loaded (a corrected board file: its own numbers)."""
    from hegemon.games.spqrisiko.board import SYMBOLS

    return glossary_of(dict(zip(SYMBOLS, board.deck, strict=True)), board.power_centres)


def glossary_of(cards: dict[str, int], power_centres: int) -> dict[str, Any]:
    game = "spqrisiko"
    return {
        "game": game,
        "cards": cards,
        "set_alike": 8,
        "set_different": 10,
        "bonus": {"legionary": {}, "banner": {"legionaries": 2}, "trireme": {"triremes": 1}, "arena": {"power_centres": 1}},
        "power_centres": power_centres,
        "power_centre": {"vp": 1, "legionaries": 1},
    }  # fmt: skip
