"""Polis options: the siege rule (the user's variants, seeds-en.md §1), a corrected board file, and every
engine choice polis.md leaves open (§4.9's round safeguard)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from hegemon.core.errors import ConfigError
from hegemon.core.options import Options, option

SIEGE_RULES = ("classic", "sacrifice", "diceless", "diceless_sacrifice")
CLASSIC, SACRIFICE, DICELESS, DICELESS_SACRIFICE = range(4)


@dataclass(frozen=True, slots=True)
class PolisOptions(Options):
    """Every option of a Polis game. `siege` picks one of the four siege rules (default: the d4 rule)."""

    PRESET_FIELD: ClassVar[str | None] = None

    siege: str = option(
        "classic",
        "Siege rule: classic d4, sacrifice (force after a failed roll), diceless, diceless_sacrifice",
        choices=SIEGE_RULES,
        help_it="Regola d'assedio: classica (d4), sacrifice, diceless, diceless_sacrifice",
    )
    board: str | None = option(
        None,
        "Path of a corrected board data file (TOML, same format and validation as the shipped one)",
        help_it="Percorso di un file di dati del tabellone corretto (TOML)",
    )
    max_turns_per_round: int = option(
        60,
        "Engine safeguard (polis.md §4.9, not a rule): after this many turns in a round both sides are "
        "treated as having passed; 0 = no limit",
        minimum=0,
        maximum=10_000,
        help_it="Salvaguardia del motore: dopo tanti turni in un round entrambi passano; 0 = nessun limite",
    )

    @property
    def siege_code(self) -> int:
        return SIEGE_RULES.index(self.siege)

    def validate(self) -> None:
        if self.siege not in SIEGE_RULES:
            raise ConfigError("siege", f"{self.siege!r} is not one of {', '.join(SIEGE_RULES)}")
        if self.board is not None:
            from hegemon.core.errors import RulesDataError
            from hegemon.games.polis.board import load_board

            try:
                load_board(self.board)
            except RulesDataError as e:
                raise ConfigError("board", str(e)) from None
