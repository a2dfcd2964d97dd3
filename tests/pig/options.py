"""Secret Pig's options."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from hegemon.core.errors import ConfigError
from hegemon.core.options import BoardOptions, option


@dataclass(frozen=True)
class PigOptions(BoardOptions):
    PRESET_FIELD: ClassVar[str | None] = None
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {}

    players: int = option(2, "Number of players.", minimum=2, maximum=3, help_it="Numero di giocatori.")
    target: int = option(
        20,
        "Points that end the game when banked.",
        minimum=10,
        maximum=100,
        help_it="Punti che chiudono la partita.",
    )
    max_turns: int = option(
        40,
        "Turns after which the game ends anyway.",
        minimum=4,
        maximum=200,
        help_it="Turni dopo i quali la partita finisce comunque.",
    )
    board: str | None = option(None, "The board (Pig has only the default one).", help_it="Il tabellone.")

    def validate(self) -> None:
        if self.board not in (None, "default"):
            raise ConfigError("board", f"Pig has no board {self.board!r}")
