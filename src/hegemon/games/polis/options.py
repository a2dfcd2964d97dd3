"""Polis options: the siege rule (the base d4 rule or one of three variants, seeds-en.md §1), a corrected
board file, and the engine's round safeguard (polis.md §4.9). The help texts are for players: no rule-file
ids, no value ids (a test scans them)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import ClassVar

from hegemon.core.errors import ConfigError
from hegemon.core.options import BoardOptions, option

SIEGE_RULES = ("classic", "sacrifice", "diceless", "diceless_sacrifice")


class SiegeRule(IntEnum):
    """The four siege rules (seeds-en.md §1), in the order of `SIEGE_RULES`; ordered: the diceless rules
    compare above SACRIFICE."""

    CLASSIC = 0
    SACRIFICE = 1
    DICELESS = 2
    DICELESS_SACRIFICE = 3


CLASSIC, SACRIFICE, DICELESS, DICELESS_SACRIFICE = SiegeRule


@dataclass(frozen=True, slots=True)
class PolisOptions(BoardOptions):
    """Every option of a Polis game. `siege` picks one of the four siege rules (default: the d4 rule)."""

    PRESET_FIELD: ClassVar[str | None] = None

    siege: str = option(
        "classic",
        "How a polis is taken by siege: with a die roll (classic), a roll you may force with hoplites "
        "(sacrifice), or turn by turn without dice (diceless, diceless with sacrifice)",
        choices=SIEGE_RULES,
        help_it="Come si conquista una polis assediandola: con un tiro di dado (classica), un tiro che puoi "
        "forzare sacrificando opliti (con sacrificio), o turno dopo turno senza dadi (senza dadi, senza dadi "
        "con sacrificio)",
        choice_help={
            "classic": (
                "Classic: pay 1 prestige and roll a four-sided die; at least the polis's fortification takes it, "
                "otherwise you lose a hoplite — quick but a gamble against strong cities.",
                "Classica: paghi 1 prestigio e tiri un dado a quattro facce; almeno la fortificazione della polis "
                "e la prendi, altrimenti perdi un oplita: rapida ma un azzardo contro le città forti.",
            ),
            "sacrifice": (
                "Sacrifice: as classic, but after a failed roll you may pay 1 more prestige and sacrifice hoplites "
                "to make up the difference — you can buy certainty with men.",
                "Con sacrificio: come la classica, ma dopo un tiro fallito puoi pagare 1 altro prestigio e "
                "sacrificare opliti per colmare la differenza: compri la certezza con gli uomini.",
            ),
            "diceless": (
                "Diceless: no dice; each siege action adds a marker and the city falls when the markers equal "
                "its fortification, which costs 1 prestige and gives its fortification in prestige — strong "
                "cities take longer, and a battle there can break the siege.",
                "Senza dadi: niente dadi; ogni azione d'assedio aggiunge un segnalino e la città cade quando i "
                "segnalini eguagliano la fortificazione: le città forti richiedono più tempo e una battaglia può "
                "rompere l'assedio; prenderla costa 1 prestigio e ne dà quanto la sua fortificazione.",
            ),
            "diceless_sacrifice": (
                "Diceless with sacrifice: prestige up front — starting costs 1, the city gives its fortification; "
                "each extra marker costs 1 prestige and 1 hoplite (and a cube of an opponent's city); markers stay "
                "between rounds.",
                "Senza dadi con sacrificio: prestigio subito — iniziare costa 1, la città dà la sua fortificazione; "
                "ogni segnalino in più costa 1 prestigio e 1 oplita (e un cubo di una città avversaria); i "
                "segnalini restano tra i round.",
            ),
        },
    )
    board: str | None = option(
        None,
        "A corrected board file (TOML, same format and checks as the board that comes with the game), or "
        "`balanced`: the board shipped with reconstructed values changed so that both sides win about equally often",
        help_it="Un file del tabellone corretto (TOML, stesso formato e controlli del tabellone incluso), oppure "
        "`balanced`: il tabellone incluso con valori ricostruiti cambiati perché i due schieramenti vincano circa "
        "altrettanto spesso",
    )
    max_turns_per_round: int = option(
        60,
        "A safeguard, not a rule of the game: after this many turns in one round both sides are treated "
        "as having passed, so a round always ends; 0 = no limit",
        minimum=0,
        maximum=10_000,
        help_it="Una salvaguardia, non una regola del gioco: dopo tanti turni in un round entrambi passano, così "
        "il round finisce sempre; 0 = nessun limite",
    )

    @property
    def siege_code(self) -> SiegeRule:
        return SiegeRule(SIEGE_RULES.index(self.siege))

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
