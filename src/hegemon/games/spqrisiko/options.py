"""S.P.Q.RisiKo! options: the rule set (`house-1.2` default, `official`), its four switches (spqrisiko.md A.1)
and every open point of B 6 that is a choice (A.2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from hegemon.core.errors import ConfigError
from hegemon.core.options import Options, option

RULE_SETS = ("house-1.2", "official")

HOUSE = {
    "neutrals": "total_27",
    "naval_move": "per_trireme",
    "garrison": "garrison_first",
    "first_elimination_round": 4,
}
OFFICIAL = {
    "neutrals": "per_unused_colour",
    "naval_move": "single_group",
    "garrison": "move_in_first",
    "first_elimination_round": 5,
}


@dataclass(frozen=True, slots=True)
class SpqrOptions(Options):
    """Every option of a S.P.Q.RisiKo! game. `rules` sets the four switches; each may be overridden."""

    PRESET_FIELD: ClassVar[str | None] = "rules"
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {"house-1.2": HOUSE, "official": OFFICIAL}

    rules: str = option(
        "house-1.2",
        "Rule set: the user's house rules v1.2 or the 2005 published rules",
        choices=RULE_SETS,
        help_it="Regolamento: regole della casa v1.2 o regolamento ufficiale 2005",
    )
    players: int = option(
        4, "Number of players", minimum=3, maximum=5, help_it="Numero di giocatori"
    )
    neutrals: str = option(
        HOUSE["neutrals"],
        "Neutral pool: 27 legionaries per unused colour (official) or 27 in total (house)",
        choices=("per_unused_colour", "total_27"),
        help_it="Neutrali: 27 legionari per colore non usato (ufficiale) o 27 in totale (casa)",
    )
    naval_move: str = option(
        HOUSE["naval_move"],
        "Naval movement: one group move per turn (official) or each trireme moves once (house)",
        choices=("single_group", "per_trireme"),
        help_it="Movimento navale: un solo spostamento di gruppo (ufficiale) o uno per trireme (casa)",
    )
    garrison: str = option(
        HOUSE["garrison"],
        "After a conquest: move in at least the dice of the last roll first (official), "
        "or the 2-legionary frontier garrison wins (house)",
        choices=("move_in_first", "garrison_first"),
        help_it="Dopo la conquista: prima lo spostamento minimo (ufficiale) o prima la guarnigione di 2 (casa)",
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
        "Card sets a player may trade per turn (U3; none: no limit)",
        minimum=1,
        maximum=10,
        help_it="Tris di carte giocabili per turno (nessuno: senza limite)",
    )
    trireme_disbands_per_turn: int | None = option(
        None,
        "Triremes a player may turn into 2 legionaries per turn (U4; none: no limit)",
        minimum=0,
        maximum=100,
        help_it="Triremi convertibili in 2 legionari per turno (nessuno: senza limite)",
    )
    power_centres: int = option(
        12,
        "Power centres available (U1/U14: 12 arena pieces; more cannot be built)",
        minimum=0,
        maximum=45,
        help_it="Centri di potere disponibili (12 arene)",
    )
    neutrals_compete: bool = option(
        False,
        "Neutral armies take part in the empire/provinces/seas comparisons (U5)",
        help_it="I neutrali partecipano ai confronti per impero/province/mari",
    )
    neutral_is_enemy: bool = option(
        True,
        "Neutral provinces count as enemies for the 2-legionary frontier garrison (U6)",
        help_it="Le province neutrali contano come nemiche per la guarnigione di confine",
    )
    sea_attack_below_defender: bool = option(
        True,
        "A sea attack keeps rolling to the end even when the survivors roll fewer dice than the defender (U7)",
        help_it="L'attacco via mare continua a oltranza anche con meno dadi del difensore",
    )
    trireme_garrison: int = option(
        1,
        "Legionaries that must stay in a province that builds a trireme (U19: 1; 2 = frontier rule)",
        minimum=1,
        maximum=2,
        help_it="Legionari che restano in una provincia che costruisce una trireme",
    )
    board: str | None = option(
        None,
        "Path of a corrected board TOML file (none: the shipped board)",
        help_it="Percorso di un file TOML di mappa corretto (nessuno: la mappa inclusa)",
    )

    def validate(self) -> None:
        if self.vp_target is None and self.max_rounds is None:
            raise ConfigError("vp_target", "a game needs a VP target or a round limit (max_rounds)")
