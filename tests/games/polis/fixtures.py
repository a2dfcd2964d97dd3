"""Small readable helpers that build Polis positions for scenario tests."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hegemon.core.play import play
from hegemon.games.polis import actions as A
from hegemon.games.polis.board import RES, SIDE
from hegemon.games.polis.game import GAME
from hegemon.games.polis.rules.common import ACTION
from hegemon.games.polis.state import PolisState

ATHENS, SPARTA = 0, 1
ROUND = {"3": 0, "4": 1, "5a": 2, "5b": 3}


def fresh(
    siege: str = "classic",
    projects: tuple[str, ...] = ("parthenon", "stoa", "odeion"),
    event: str = "no_event_3a",
    **opts: Any,
) -> PolisState:
    """A new game with a chosen project offer and round-3 event, at the first player's first action."""
    st = GAME.new_game({"siege": siege, **opts})
    for p in projects:
        play(st, A.DrawProject(p))
    play(st, A.DrawEvent(event))
    return st


def T(st: PolisState, territory: str) -> int:
    return st.board.terr_index[territory]


def Q(st: PolisState, polis: str) -> int:
    return st.board.polis_index[polis]


def scenario(
    siege: str = "classic",
    *,
    rnd: str = "3",
    to_move: int = ATHENS,
    pp: tuple[int, int] | None = None,
    res: Mapping[int, Mapping[str, int]] | None = None,
    units: Mapping[tuple[int, str], int] | None = None,
    clear_units: bool = False,
    owners: Mapping[str, int] | None = None,
    pop: Mapping[str, int] | None = None,
    **opts: Any,
) -> PolisState:
    """A position at the start of `to_move`'s turn: round `rnd`, prestige `pp`, resources `res[side]`,
    units {(side, territory): n} (optionally clearing the setup units), owners {polis: side or -1} and
    populations {polis: cubes}."""
    st = fresh(siege, **opts)
    st.round = ROUND[rnd]
    if pp is not None:
        st.pp = list(pp)
    for side, r in (res or {}).items():
        for name, v in r.items():
            st.res[side][RES[name]] = v
    if clear_units:
        st.units = [[0] * st.board.n_terr, [0] * st.board.n_terr]
    for (side, terr), n in (units or {}).items():
        st.units[side][T(st, terr)] = n
    for polis, side in (owners or {}).items():
        q = Q(st, polis)
        st.owner[q] = side
        st.pop[q] = st.board.p_base[q] if side >= 0 else 0
    for polis, n in (pop or {}).items():
        st.pop[Q(st, polis)] = n
    st.active = to_move
    st.first = to_move
    st.phase = ACTION
    st.passed = [False, False]
    st.n_actions = 0
    st.tokens = []
    st.turns = 0
    return st


def legal_kinds(st: PolisState) -> set[str]:
    return {a.kind for a in st.legal_actions()}


def do(st: PolisState, *actions: A.Action) -> PolisState:
    """Play actions with the checked `play` (IllegalActionError if one is not legal)."""
    for a in actions:
        play(st, a)
    return st


def hoplites(st: PolisState, side: int, territory: str) -> int:
    return st.units[side][T(st, territory)]


def side(name: str) -> int:
    return SIDE[name]
