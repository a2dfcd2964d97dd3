"""The lab's S.P.Q.RisiKo! measures (`MEASURES`, named by the game's `modules["measures"]`): victory points by
source, eliminations, naval moves, naval battles and sea attacks, and by round the provinces, seas controlled and
VP of every player."""

from __future__ import annotations

from typing import Any

from hegemon.core.actions import Action
from hegemon.games.spqrisiko.scoring import sea_controller

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

    def before(self, state: Any, action: Action) -> Any:
        return state.turns

    def _snapshot(self, st: Any) -> None:
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


MEASURES = SpqrMeasures
