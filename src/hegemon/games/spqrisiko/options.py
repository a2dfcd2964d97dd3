"""S.P.Q.RisiKo! options: the rule set (`house-1.2` default, `official`), its four switches (spqrisiko.md A.1)
and every open point of B 6 that is a choice (A.2). The help texts are for players: no rule-file ids (U3…),
no value ids (a test scans them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from hegemon.core.errors import ConfigError
from hegemon.core.options import BoardOptions, option

RULE_SETS = ("house-1.2", "official")

HOUSE = {
    "neutrals": "total_27",
    "naval_move": "per_trireme",
    "garrison": "garrison_stop",
    "first_elimination_round": 4,
}
OFFICIAL = {
    "neutrals": "per_unused_colour",
    "naval_move": "single_group",
    "garrison": "move_in_first",
    "first_elimination_round": 5,
}


@dataclass(frozen=True, slots=True)
class SpqrOptions(BoardOptions):
    """Every option of a S.P.Q.RisiKo! game. `rules` sets the four switches; each may be overridden."""

    PRESET_FIELD: ClassVar[str | None] = "rules"
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {"house-1.2": HOUSE, "official": OFFICIAL}

    rules: str = option(
        "house-1.2",
        "Rule set: the house rules v1.2 or the published 2005 rules (they differ in four points below)",
        choices=RULE_SETS,
        help_it="Regolamento: regole della casa v1.2 o regolamento pubblicato nel 2005 (differiscono in quattro "
        "punti, qui sotto)",
        choice_help={
            "house-1.2": (
                "House rules v1.2: 27 neutral legionaries in all, each trireme moves once, the 2-legionary "
                "border garrison comes first after a conquest, eliminations from round 4.",
                "Regole della casa v1.2: 27 legionari neutrali in tutto, ogni trireme si muove una volta, dopo "
                "una conquista viene prima la guarnigione di confine di 2 legionari, eliminazioni dal round 4.",
            ),
            "official": (
                "Published 2005 rules: 27 neutrals per unused colour, one group naval move per turn, move in "
                "first after a conquest, eliminations from round 5.",
                "Regolamento 2005: 27 neutrali per colore non usato, un solo spostamento navale di gruppo per "
                "turno, dopo una conquista prima lo spostamento, eliminazioni dal round 5.",
            ),
        },
    )
    players: int = option(4, "Number of players", minimum=3, maximum=5, help_it="Numero di giocatori")
    neutrals: str = option(
        HOUSE["neutrals"],
        "Neutral pool: 27 legionaries per unused colour (official) or 27 in total (house)",
        choices=("per_unused_colour", "total_27"),
        choice_help={
            "per_unused_colour": (
                "27 neutral legionaries per unused colour: with 3 players half the map starts neutral.",
                "27 legionari neutrali per colore non usato: con 3 giocatori metà mappa parte neutrale.",
            ),
            "total_27": (
                "27 neutral legionaries in all: with 3 players each of you starts with 12 provinces.",
                "27 legionari neutrali in tutto: con 3 giocatori ciascuno parte con 12 province.",
            ),
        },
        help_it="Neutrali: 27 legionari per colore non usato (ufficiale) o 27 in totale (casa)",
    )
    naval_move: str = option(
        HOUSE["naval_move"],
        "Naval movement: one group move per turn (official) or each trireme moves once (house)",
        choices=("single_group", "per_trireme"),
        choice_help={
            "single_group": (
                "One naval move per turn: any number of triremes from one sea area to one next to it.",
                "Un solo spostamento navale per turno: quante triremi vuoi da un'area di mare a una vicina.",
            ),
            "per_trireme": (
                "Each trireme may move once per turn to a neighbouring sea area, so fleets can spread or gather.",
                "Ogni trireme può muoversi una volta per turno in un'area vicina, così le flotte si dividono o si "
                "riuniscono.",
            ),
        },
        help_it="Movimento navale: un solo spostamento di gruppo (ufficiale) o uno per trireme (casa)",
    )
    garrison: str = option(
        HOUSE["garrison"],
        "After a conquest: move in at least the dice of the last roll first (official); or leave the "
        "2-legionary frontier garrison: an attack from a frontier province needs 3 and stops at 2 (house), "
        "or rolls at most its legionaries minus 2 (house, strict)",
        choices=("move_in_first", "garrison_stop", "garrison_first"),
        choice_help={
            "move_in_first": (
                "Move in first: after a conquest at least as many legionaries as the last roll's dice must move "
                "in, even if that leaves the border with 1.",
                "Prima lo spostamento: dopo una conquista entrano almeno tanti legionari quanti i dadi dell'ultimo "
                "tiro, anche se il confine resta con 1.",
            ),
            "garrison_stop": (
                "Garrison first: a province that borders another enemy attacks with the usual dice, needs 3 "
                "legionaries and stops at 2, so that 2 stay after moving in.",
                "Prima la guarnigione: una provincia che confina con un altro nemico attacca con i dadi normali, "
                "ne servono 3 e si ferma a 2, così dopo lo spostamento ne restano 2.",
            ),
            "garrison_first": (
                "Garrison first, strict: a province that borders an enemy always keeps 2 legionaries, so attack "
                "with fewer dice when it is short.",
                "Prima la guarnigione, rigorosa: una provincia che confina con un nemico tiene sempre 2 legionari, "
                "quindi attacca con meno dadi quando è sguarnita.",
            ),
        },
        help_it="Dopo la conquista: prima lo spostamento minimo (ufficiale); o la guarnigione di 2: l'attacco da "
        "una provincia di confine ne richiede 3 e si ferma a 2 (casa), o tira al massimo i legionari meno 2 "
        "(casa, rigorosa)",
    )
    move_in_minimum: str = option(
        "last_roll",
        "After a conquest under a house garrison: move in at least the dice of the last roll, as far as the "
        "garrison allows (the published minimum), or at least 1 (an earlier reading)",
        choices=("last_roll", "one"),
        choice_help={
            "last_roll": (
                "Move in at least as many legionaries as the last roll's dice, fewer only where the border "
                "garrison would otherwise be broken.",
                "Entrano almeno tanti legionari quanti i dadi dell'ultimo tiro, meno solo dove altrimenti la "
                "guarnigione di confine resterebbe scoperta.",
            ),
            "one": (
                "Move in at least 1 legionary, whatever the dice of the last roll.",
                "Entra almeno 1 legionario, qualunque sia il numero di dadi dell'ultimo tiro.",
            ),
        },
        help_it="Dopo una conquista con la guarnigione della casa: entrano almeno i dadi dell'ultimo tiro, per "
        "quanto la guarnigione lo consente (il minimo del regolamento), o almeno 1 (una lettura precedente)",
    )
    first_elimination_round: int = option(
        HOUSE["first_elimination_round"],
        "First game round in which a player may be eliminated (official 5, house 4)",
        minimum=1,
        maximum=100,
        help_it="Primo turno di gioco in cui un giocatore può essere eliminato (ufficiale 5, casa 4)",
    )
    vp_target: int | None = option(
        20,
        "Victory points that win at once when reached at scoring (none: play to the round limit)",
        minimum=1,
        maximum=1000,
        help_it="Punti vittoria che danno la vittoria immediata (nessuno: si gioca fino al limite di turni)",
    )
    max_rounds: int | None = option(
        None,
        "Round limit: after this many full rounds the most VP wins (none: no limit)",
        minimum=1,
        maximum=1000,
        help_it="Limite di turni di gioco: poi vince chi ha più PV (nessuno: senza limite)",
    )
    random_deal: bool = option(
        False,
        "Deal the initial provinces at random instead of choosing them in turn",
        help_it="Distribuire le province iniziali a caso invece di sceglierle a turno",
    )
    sets_per_turn: int | None = option(
        1,
        "Card sets a player may trade in one turn (empty: no limit)",
        minimum=1,
        maximum=10,
        help_it="Tris di carte giocabili in un turno (vuoto: senza limite)",
    )
    trireme_disbands_per_turn: int | None = option(
        None,
        "Triremes a player may turn back into 2 legionaries in one turn (empty: no limit)",
        minimum=0,
        maximum=100,
        help_it="Triremi riconvertibili in 2 legionari in un turno (vuoto: senza limite)",
    )
    power_centres: int = option(
        12,
        "Power centres in the box (12 arenas): once all are on the map no more can be built",
        minimum=0,
        maximum=45,
        help_it="Centri di potere nella scatola (12 arene): quando sono tutti sulla mappa non se ne costruiscono "
        "altri",
    )
    neutrals_compete: bool = option(
        False,
        "Neutral armies count when comparing the largest empire, most provinces and most seas for VP",
        help_it="Gli eserciti neutrali contano nei confronti per l'impero più grande, più province e più mari",
    )
    neutral_is_enemy: bool = option(
        True,
        "Neutral provinces count as enemies for the 2-legionary border garrison",
        help_it="Le province neutrali contano come nemiche per la guarnigione di confine di 2 legionari",
    )
    sea_attack_below_defender: bool = option(
        True,
        "A sea attack keeps rolling to the end even when the survivors roll fewer dice than the defender",
        help_it="L'attacco via mare continua a oltranza anche con meno dadi del difensore",
    )
    trireme_garrison: int = option(
        1,
        "Legionaries that must stay in a province that builds a trireme (1; 2 = as the border garrison)",
        minimum=1,
        maximum=2,
        help_it="Legionari che restano in una provincia che costruisce una trireme (1; 2 = come la guarnigione di "
        "confine)",
    )
    board: str | None = option(
        None,
        "A corrected board file (TOML; empty: the board that comes with the game)",
        help_it="Un file della mappa corretto (TOML; vuoto: la mappa inclusa nel gioco)",
    )

    def validate(self) -> None:
        if self.vp_target is None and self.max_rounds is None:
            raise ConfigError("vp_target", "a game needs a VP target or a round limit (max_rounds)")
        if self.board is not None:
            from hegemon.core.errors import RulesDataError
            from hegemon.games.spqrisiko.board import load_board

            try:
                board = load_board(self.board)
            except RulesDataError as e:
                raise ConfigError("board", str(e)) from None
            # the set-up deals every province: the neutral groups first, then the same number to each player
            unused = 5 - self.players
            groups = 0 if unused == 0 else (9 * unused if self.neutrals == "per_unused_colour" else 9)
            free = board.n_provinces - groups
            if free < self.players or free % self.players:
                raise ConfigError(
                    "board",
                    f"its {board.n_provinces} provinces less {groups} neutral groups leave {free}, which "
                    f"{self.players} players cannot share equally (at least one each)",
                )
