"""Per-game measures the lab records beside the result, one class per game, fed every action of a game.

S.P.Q.RisiKo!: victory points by source, eliminations, naval moves, naval battles and sea attacks, and by round the provinces, seas controlled and VP
of every player. Polis: sieges attempted / succeeded / forced, prestige and hoplites spent on sieges,
and by round each side's population and prestige."""

from __future__ import annotations

from typing import Any

from hegemon.core.actions import Action


class Measures:
    """Base: `before(state, action)` is called before each action is applied, `after(state, action, token)`
    after it with what `before` returned; `result(state)` gives a JSON-ready dict."""

    def before(self, state: Any, action: Action) -> Any:
        return None

    def after(self, state: Any, action: Action, token: Any) -> None:
        """Measures that only look at the final state record nothing per action."""
        return None

    def result(self, state: Any) -> dict[str, Any]:
        return {}


SPQR_NAVAL = {"sea_attack": "sea_attacks", "naval_attack": "naval_attacks", "naval_move": "naval_moves"}


class SpqrMeasures(Measures):
    SOURCES = ("empire", "provinces", "seas", "power_centres")

    def __init__(self) -> None:
        self.vp_sources: dict[str, float] = dict.fromkeys(self.SOURCES, 0.0)
        self.curves: dict[str, list[list[int]]] = {"provinces": [], "seas": [], "vp": []}
        self.first_player: int | None = None
        self.last_round = 0
        self.naval: dict[str, int] = {"sea_attacks": 0, "naval_attacks": 0, "naval_moves": 0}

    def before(self, state: Any, action: Action) -> Any:
        return state.turns

    def _snapshot(self, st: Any) -> None:
        from hegemon.games.spqrisiko.scoring import sea_controller

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

    def after(self, state: Any, action: Action, token: Any) -> None:
        naval = SPQR_NAVAL.get(action.kind)
        if naval is not None:
            self.naval[naval] += 1
        if action.kind == "order":
            self.first_player = state.order[0]
        if state.turns != token:  # a turn began: its scoring is in vp_last [R 5.6]
            for k, v in state.vp_last.items():
                self.vp_sources[k] = self.vp_sources.get(k, 0.0) + v
        if state.round != self.last_round:
            self.last_round = state.round
            if state.round >= 2:  # the position at the end of every full round
                self._snapshot(state)

    def result(self, state: Any) -> dict[str, Any]:
        self._snapshot(state)
        return {
            "first_player": self.first_player,
            "rounds": state.round,
            "turns": state.turns,
            "eliminations": sum(state.eliminated),
            **{f"vp_{k}": v for k, v in self.vp_sources.items()},
            **self.naval,
            "curves": self.curves,
        }


POLIS_SIEGE_KINDS = frozenset(
    ("besiege", "siege_roll", "start_siege", "continue_siege", "force_siege", "stop_forcing", "garrison")
)


class PolisMeasures(Measures):
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

    def before(self, state: Any, action: Action) -> Any:
        kind = action.kind
        if self.first_player is None and state.current_player() >= 0:
            self.first_player = state.current_player()
        if kind not in POLIS_SIEGE_KINDS:
            return None
        if kind in ("besiege", "start_siege", "continue_siege"):
            self.mover = state.cur
        s = self.mover
        return (list(state.owner), sum(state.units[s]) if s >= 0 else 0)

    def _snapshot(self, st: Any) -> None:
        from hegemon.games.polis.rules import common

        self.curves["population"].append([common.population(st, 0), common.population(st, 1)])
        self.curves["prestige"].append(list(st.pp))

    def after(self, state: Any, action: Action, token: Any) -> None:
        kind = action.kind
        if token is not None:
            from hegemon.games.polis.options import DICELESS, DICELESS_SACRIFICE

            owners, units = token
            s = self.mover
            if kind == "besiege":
                self.attempted += 1
                self.siege_actions += 1
                self.pp_spent += 1
            elif kind == "start_siege":
                self.attempted += 1
                self.siege_actions += 1
                if state.siege_mode == DICELESS_SACRIFICE:  # 1 PP to start
                    self.pp_spent += 1
            elif kind == "continue_siege":
                self.siege_actions += 1
            elif kind == "force_siege":
                if self.last_kind != "force_siege":  # diceless_sacrifice forces disc by disc: one siege forced
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
            if state.siege_mode == DICELESS:  # diceless: a capture pays F - 1 PP, the F reward less the 1-PP charge
                self.pp_spent += taken
        self.last_kind = kind
        if state.round != self.last_round and state.phase != 19:
            self.last_round = state.round
            self._snapshot(state)

    def result(self, state: Any) -> dict[str, Any]:
        self._snapshot(state)
        return {
            "first_player": self.first_player,
            "rounds": state.round + 1,
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
        }


def measures_for(game: str) -> Measures:
    """The measures of a game by name (a bare `Measures` for a game without its own)."""
    if game == "spqrisiko":
        return SpqrMeasures()
    if game == "polis":
        return PolisMeasures()
    return Measures()
