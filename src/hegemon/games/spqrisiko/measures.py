"""The lab's S.P.Q.RisiKo! measures (`MEASURES`, named by the game's `modules["measures"]`): victory points by
source, eliminations, naval moves, naval battles and sea attacks, and by round the provinces, seas controlled and
VP of every player."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hegemon.core.actions import Action
from hegemon.core.roles import LabRole, StudySpec
from hegemon.games.spqrisiko.scoring import sea_controller

if TYPE_CHECKING:
    from hegemon.games.spqrisiko.state import SpqrState

FIRST_ROUND = 1
"""Rounds count from 1: a round above it means a full round has ended."""

NAVAL_KINDS = {"sea_attack": "sea_attacks", "naval_attack": "naval_attacks", "naval_move": "naval_moves"}


class SpqrMeasures:
    """Fed every action of a game by the lab (`before`, `after`, `result`; see `hegemon.lab.measures`)."""

    SOURCES = ("empire", "provinces", "seas", "power_centres")

    def __init__(self) -> None:
        self.vp_sources: dict[str, float] = dict.fromkeys(self.SOURCES, 0.0)
        self.curves: dict[str, list[list[int]]] = {"provinces": [], "seas": [], "vp": []}
        self.first_player: int | None = None
        self.last_round = 0
        self.naval: dict[str, int] = {"sea_attacks": 0, "naval_attacks": 0, "naval_moves": 0}

    def before(self, state: SpqrState, action: Action) -> Any:
        return state.turns

    def _snapshot(self, st: SpqrState) -> None:
        n = st.n
        prov = [0] * n
        for o in st.owner:
            if o >= 0:
                prov[o] += 1
        seas = [0] * n
        for s in range(st.board.n_seas):
            c = sea_controller(st.triremes, s)
            if c is not None:
                seas[c] += 1
        self.curves["provinces"].append(prov)
        self.curves["seas"].append(seas)
        self.curves["vp"].append(list(st.vp))

    def after(self, state: SpqrState, action: Action, token: Any) -> None:
        naval = NAVAL_KINDS.get(action.kind)
        if naval is not None:
            self.naval[naval] += 1
        if action.kind == "order":
            self.first_player = state.order[0]
        if state.turns != token:  # a turn began: its scoring is in vp_last [R 5.6]
            for k, v in state.vp_last.items():
                self.vp_sources[k] = self.vp_sources.get(k, 0.0) + v
        if state.round != self.last_round:
            self.last_round = state.round
            if state.round > FIRST_ROUND:  # a round ended: the position at the end of every full round
                self._snapshot(state)

    def result(self, state: SpqrState) -> dict[str, Any]:
        self._snapshot(state)
        return {
            "first_player": self.first_player,
            "rounds": state.round,
            "turns": state.turns,
            "eliminations": sum(state.eliminated),
            **{f"vp_{k}": v for k, v in self.vp_sources.items()},
            **self.naval,
            "curves": self.curves,
            # each seat's VP by source (the final score's parts)
            "score_components": [
                {**dict.fromkeys(self.SOURCES, 0), **state.vp_sources[p]} for p in range(state.n)
            ],
        }


MEASURES = SpqrMeasures


def lead_scores(state: SpqrState) -> list[int]:
    """The lab's lead signal (`hegemon.lab.design`): each seat's victory points now (the final score)."""
    return list(state.vp)


# the lab's words for this game, each as (English, Italian): its measures (means per game), its option values,
# the measures each option switch is about (zero in some variant: the comparison cannot show its effect) and
# its end reasons
# the bots `hegemon lab compare` plays when none are named: one bot on every side, so a rule's effect is not
# swamped by a gap between bots (about 0.4 CPU-s a 4-player game; a search bot on every seat costs 2.4 (mcts:10) to 30 (mcts:40))
LAB_BOTS = "greedy,greedy"

NAMES: dict[str, tuple[str, str]] = {
    "eliminations": ("eliminations per game", "eliminazioni per partita"),
    "vp_empire": ("VP for the largest empire per game", "PV per l'impero più grande per partita"),
    "vp_provinces": ("VP for most provinces per game", "PV per più province per partita"),
    "vp_seas": ("VP for most seas per game", "PV per più mari per partita"),
    "vp_power_centres": ("VP for power centres per game", "PV per i centri di potere per partita"),
    "sea_attacks": ("sea attacks per game", "attacchi dal mare per partita"),
    "naval_attacks": ("naval battles per game", "battaglie navali per partita"),
    "naval_moves": ("naval moves per game", "spostamenti navali per partita"),
}
VALUE_NAMES: dict[str, tuple[str, str]] = {
    "house-1.2": ("House rules 1.2", "Regole della casa 1.2"),
    "official": ("Official rules", "Regolamento ufficiale"),
    "single_group": ("One naval group move per turn", "Un solo spostamento navale di gruppo"),
    "per_trireme": ("Each trireme moves once", "Ogni trireme si muove una volta"),
    "move_in_first": ("Move in first after a conquest", "Prima lo spostamento dopo la conquista"),
    "garrison_stop": (
        "Frontier garrison of 2 (attack stops at 2)",
        "Guarnigione di confine di 2 (l'attacco si ferma a 2)",
    ),
    "garrison_first": (
        "Frontier garrison of 2, strict (fewer dice)",
        "Guarnigione di confine di 2, rigorosa (meno dadi)",
    ),
    "per_unused_colour": ("27 neutrals per unused colour", "27 neutrali per colore non usato"),
    "total_27": ("27 neutrals in all", "27 neutrali in tutto"),
}
SWITCH_MEASURES: dict[str, tuple[str, ...]] = {
    "naval_move": ("naval_moves", "sea_attacks"),
    "sea_attack_below_defender": ("sea_attacks",),
    "trireme_garrison": ("sea_attacks",),
    "trireme_disbands_per_turn": ("naval_moves",),
}
REASON_NAMES: dict[str, tuple[str, str]] = {}


LAB = LabRole(
    measures=MEASURES,
    names=NAMES,
    value_names=VALUE_NAMES,
    switch_measures=SWITCH_MEASURES,
    reason_names=REASON_NAMES,
    bots=LAB_BOTS,
    lead_scores=lead_scores,
    studies=(
        StudySpec(
            name="spqrisiko-rules",
            title=(
                "S.P.Q.RisiKo!: house rules v1.2 against the 2005 rules",
                "S.P.Q.RisiKo!: regole della casa v1.2 contro le regole del 2005",
            ),
            question=(
                "Do the house rules v1.2 change the length of the game, the eliminations, the balance between "
                "the seats, the luck share and the skill range, against the published 2005 rules?",
                "Le regole della casa v1.2 cambiano la durata della partita, le eliminazioni, l'equilibrio tra "
                "i posti, la quota di fortuna e l'ampiezza di abilità, rispetto alle regole pubblicate nel "
                "2005?",
            ),
            option="rules=house-1.2,official",
            players=4,
            bots="mcts:10",
            luck_bots="mcts:10",
            levels="random,beginner,greedy,mcts:40",  # `mcts:easy` until session 20: the checked-in page's bot
            games=1000,
            ladder_games=60,  # 20 a pair left beginner and greedy apart by noise only (house rules)
            luck_settings=60,
            key_measure="eliminations",
        ),
    ),
)
"""The lab role (`Roles.lab`)."""
