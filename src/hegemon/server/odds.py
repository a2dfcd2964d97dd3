"""Exact odds of an attack or a siege in a table's current position, for the client to show before the player
commits. Each game computes them (`Game.position_odds`: S.P.Q.RisiKo! land attacks, sea attacks and naval
combats, Polis sieges); the numbers are read from the position, so the client cannot ask about anything else."""

from __future__ import annotations

from typing import Any

from hegemon.core.errors import HegemonError
from hegemon.games import get_game
from hegemon.server.protocol import ServerError


def position_odds(game: str, state: Any, seat: int | None, q: dict[str, str]) -> dict[str, Any]:
    """Odds of the attack described by the query `q` in `state` for the player on turn."""
    try:
        return get_game(game).position_odds(state, q)
    except (KeyError, ValueError, IndexError, HegemonError) as e:
        raise ServerError("bad_request", f"cannot compute these odds: {e}") from None
