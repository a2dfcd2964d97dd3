"""The lab's Polis measures (`MEASURES`, named by the game's `modules["measures"]`): sieges attempted /
succeeded / forced, prestige and hoplites spent on sieges, and by round each side's population and prestige."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hegemon.core.actions import Action
from hegemon.core.roles import LabRole, StudySpec
from hegemon.games.polis.options import DICELESS, DICELESS_SACRIFICE
from hegemon.games.polis.rules import common
from hegemon.games.polis.scoring import breakdown, score

if TYPE_CHECKING:
    from hegemon.games.polis.state import PolisState

SIEGE_KINDS = frozenset(
    ("besiege", "siege_roll", "start_siege", "continue_siege", "force_siege", "stop_forcing", "garrison")
)


class PolisMeasures:
    """Fed every action of a game by the lab (`before`, `after`, `result`; see `hegemon.lab.measures`)."""

    def __init__(self) -> None:
        self.attempted = 0
        self.siege_actions = 0
        self.succeeded = 0
        self.by_side = [0, 0]
        self.forced = 0
        self.pp_spent = 0
        self.hoplites_spent = 0
        self.garrisoned = 0
        self.first_player: int | None = None
        self.curves: dict[str, list[list[int]]] = {"population": [], "prestige": []}
        self.last_round = 0
        self.mover = -1
        self.last_kind = ""

    def before(self, state: PolisState, action: Action) -> Any:
        kind = action.kind
        if self.first_player is None and state.current_player() >= 0:
            self.first_player = state.current_player()
        if kind not in SIEGE_KINDS:
            return None
        if kind in ("besiege", "start_siege", "continue_siege"):
            self.mover = state.active
        s = self.mover
        return (list(state.owner), sum(state.units[s]) if s >= 0 else 0)

    def _snapshot(self, st: PolisState) -> None:
        self.curves["population"].append([common.population(st, 0), common.population(st, 1)])
        self.curves["prestige"].append(list(st.pp))

    def after(self, state: PolisState, action: Action, token: Any) -> None:
        kind = action.kind
        if token is not None:
            owners, units = token
            s = self.mover
            if kind == "besiege":
                self.attempted += 1
                self.siege_actions += 1
                self.pp_spent += 1
            elif kind == "start_siege":
                self.attempted += 1
                self.siege_actions += 1
                if state.siege_rule == DICELESS_SACRIFICE:  # 1 PP to start
                    self.pp_spent += 1
            elif kind == "continue_siege":
                self.siege_actions += 1
            elif kind == "force_siege":
                if (
                    self.last_kind != "force_siege"
                ):  # diceless_sacrifice forces disc by disc: one siege forced
                    self.forced += 1
                self.pp_spent += 1
            lost = units - sum(state.units[s])
            if kind == "garrison":
                self.garrisoned += max(0, lost)
            elif lost > 0:
                self.hoplites_spent += lost
            taken = sum(1 for q, o in enumerate(state.owner) if o == s and owners[q] != s)
            self.succeeded += taken
            if s >= 0:
                self.by_side[s] += taken
            if (
                state.siege_rule == DICELESS
            ):  # diceless: a capture pays F - 1 PP, the F reward less the 1-PP charge
                self.pp_spent += taken
        self.last_kind = kind
        if state.round != self.last_round and state.phase != common.OVER:
            self.last_round = state.round
            self._snapshot(state)

    def result(self, state: PolisState) -> dict[str, Any]:
        self._snapshot(state)
        return {
            "first_player": self.first_player,
            "rounds": state.round + 1,  # the state counts rounds from 0
            "turns": None,
            "sieges_attempted": self.attempted,
            "siege_actions": self.siege_actions,
            "sieges_succeeded": self.succeeded,
            "sieges_succeeded_by_side": self.by_side,
            "sieges_forced": self.forced,
            "pp_on_sieges": self.pp_spent,
            "hoplites_on_sieges": self.hoplites_spent,
            "hoplites_garrisoned": self.garrisoned,
            "end_reason": state.end_reason,
            "curves": self.curves,
            # each side's final score by its parts (population + prestige + posterity, §9.2)
            "score_components": [
                {k: v for k, v in breakdown(state, s).items() if k != "total"} for s in range(2)
            ],
        }


MEASURES = PolisMeasures


def lead_scores(state: PolisState) -> list[int]:
    """The lab's lead signal (`hegemon.lab.design`): each side's score now, as at the end (§9.2: population +
    prestige + posterity)."""
    return [score(state, 0), score(state, 1)]


# the lab's words for this game, each as (English, Italian): its measures (means per game), its option values,
# the measures each option switch is about (zero in some variant: the comparison cannot show its effect) and
# its end reasons
# the bots `hegemon lab compare` plays when none are named: one bot on every side, so a rule's effect is not
# swamped by a gap between bots (about 0.3 CPU-s a game with the compiled engine: 100 games a variant in under a minute on 2 cores)
LAB_BOTS = "mcts:normal,mcts:normal"

NAMES: dict[str, tuple[str, str]] = {
    "sieges_attempted": ("sieges attempted per game", "assedi tentati per partita"),
    "siege_actions": ("siege actions per game", "azioni d'assedio per partita"),
    "sieges_succeeded": ("sieges taken per game", "assedi riusciti per partita"),
    "sieges_forced": ("sieges forced per game", "assedi forzati per partita"),
    "pp_on_sieges": ("prestige spent on sieges per game", "prestigio speso negli assedi per partita"),
    "hoplites_on_sieges": ("hoplites lost in sieges per game", "opliti persi negli assedi per partita"),
    "hoplites_garrisoned": (
        "hoplites left as garrison per game",
        "opliti lasciati di guarnigione per partita",
    ),
}
VALUE_NAMES: dict[str, tuple[str, str]] = {
    "classic": ("Classic", "Classico"),
    "sacrifice": ("Sacrifice", "Sacrificio"),
    "diceless": ("Diceless", "Senza dadi"),
    "diceless_sacrifice": ("Diceless Sacrifice", "Sacrificio senza dadi"),
}
SWITCH_MEASURES: dict[str, tuple[str, ...]] = {
    "siege": ("sieges_succeeded", "sieges_attempted"),
}
REASON_NAMES: dict[str, tuple[str, str]] = {
    "starved": ("a capital starved", "capitale affamata"),
    "ostracism": ("ostracism", "ostracismo"),
}


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
            name="polis-sieges",
            title=(
                "Polis: the four siege rules on both boards",
                "Polis: le quattro regole d'assedio su entrambe le mappe",
            ),
            question=(
                "Does each siege rule change the length of the game, the sieges, the balance between Athens "
                "and Sparta, the luck share and the skill range?",
                "Ogni regola d'assedio cambia la durata della partita, gli assedi, l'equilibrio tra Atene e "
                "Sparta, la quota di fortuna e l'ampiezza di abilità?",
            ),
            option="siege=classic,sacrifice,diceless,diceless_sacrifice",
            boards=("default", "balanced"),
            # the tree search at 40 iterations (`mcts:easy` until session 21, `mcts:normal` since: the checked-in
            # page's bot and stored games): the strongest practical bot for 8,500 games on two cores (0.1 CPU s a
            # game; mcts:hard, the tree over full playouts, about 15 CPU s a game)
            bots="mcts:40",
            luck_bots="mcts:40",
            levels="random,beginner,greedy,mcts:40",
            headline_seat=1,  # Sparta
            length_unit=("rounds", "round"),
            key_measure="sieges_succeeded",
        ),
    ),
)
"""The lab role (`Roles.lab`)."""
