"""What each card, event, project, combat card and power centre does, with its numbers, for the client's
tooltips: `GET /api/games/{game}/glossary`. Each game reads it from its shipped board file (the same data the engine
loads), so a tooltip never disagrees with the rules engine; the client words it in English or Italian."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from hegemon.games import game_names, get_game
from hegemon.server.protocol import ServerError, error_responses


def glossary(game: str) -> dict[str, Any]:
    """The glossary of `game` (each game computes its own once, from its board file)."""
    return get_game(game).glossary()


_BY_BOARD: dict[tuple[str, str], dict[str, Any]] = {}
_MOST = 64


def for_table(game: str, board_name: str | None, state: Any) -> dict[str, Any]:
    """The glossary of a table: the shipped board's, or that of the corrected board file the table was created
    with (read from the board its game plays on), kept per board name (content-addressed: a name is one file)."""
    if board_name is None:
        return glossary(game)
    key = (game, board_name)
    hit = _BY_BOARD.get(key)
    if hit is None:
        hit = get_game(game).glossary(state.board)
        if len(_BY_BOARD) >= _MOST:
            _BY_BOARD.pop(next(iter(_BY_BOARD)))
        _BY_BOARD[key] = hit
    return hit


def router() -> APIRouter:
    r = APIRouter()

    @r.get(
        "/api/games/{game}/glossary",
        tags=["games"],
        responses=error_responses(404),
    )
    async def get_glossary(game: str) -> dict[str, Any]:
        """What each card, event, project, combat card and power centre of the game does, with its numbers."""
        if game not in game_names():
            raise ServerError(
                "unknown_table", f"no game {game[:40]!r}; games: {', '.join(game_names())}", detail="no_game"
            )
        return glossary(game)

    return r
