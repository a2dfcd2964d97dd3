"""Phases and helpers shared by every rules module: the cube pool (§1, §4.7), control (§4.6), taking a polis
(§4.7, R46) and the diceless siege-disc checks (seeds-en.md §1.2-1.3, polis.md §7.3.6-7.3.8)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hegemon.games.polis.options import DICELESS, DICELESS_SACRIFICE

# the phases (the state's `phase`) are declared in `phase.py`; the rules modules read them here
from hegemon.games.polis.phase import (
    ACTION,
    BATTLE_CHOOSE,
    BATTLE_DRAW,
    CHANCE_PHASES,
    DRAW_EVENT,
    DRAW_PROJECT,
    DS_FORCE,
    EVENT_REMOVE,
    EXTRA,
    GARRISON,
    GROWTH,
    MATCH,
    MOVE,
    OVER,
    PHASE_NAMES,
    PHOROS,
    PLAY,
    RETREAT,
    SACRIFICE_FORCE,
    SIEGE_ROLL,
    SUPPLY,
    TRADE_ROLL,
    Phase,
)

if TYPE_CHECKING:
    from hegemon.games.polis.state import PolisState

# action type tokens of the "two different actions" rule (§4.3; numbers of §4.5)
T_HOPLITES, T_GALLEYS, T_MERCHANTS, T_PROJECT = 1, 2, 3, 4
T_MOVE_H, T_MOVE_G, T_SIEGE, T_COLLECT = 5, 6, 7, 8
T_TRADE, T_PROXENOS, T_REDEEM, T_CIVIL_WAR = 9, 10, 11, 12
T_SIEGE_START = 13  # diceless rules: "start siege" (same action family as 7, §7.3.1)


def pool(st: PolisState, s: int) -> int:
    """Cubes of side `s` that are neither population nor units (§1: 45 in all)."""
    b = st.board
    owner = st.owner
    pop = st.pop
    n = b.cubes - sum(st.units[s])
    for q in range(len(owner)):
        if owner[q] == s:
            n -= pop[q]
    return n


def population(st: PolisState, s: int) -> int:
    """Population cubes on side `s`'s poleis."""
    owner = st.owner
    pop = st.pop
    return sum(pop[q] for q in range(len(owner)) if owner[q] == s)


def limit(st: PolisState) -> int:
    """The round's stacking limit (§4.1)."""
    return int(st.board.round_limit[st.round])


def take_polis(st: PolisState, s: int, q: int) -> None:
    """`q` joins side `s`'s league (§4.7, R46): base population from neutral, current from the opponent
    (capped by the pool); an opponent's proxenos on it is captured (§5.11); own siege discs on it go (§7.3.8)."""
    b = st.board
    o = 1 - s
    prev = st.owner[q]
    need = b.p_base[q] if prev < 0 else st.pop[q]
    mn = b.min_pop
    st.owner[q] = -1  # the old owner's cubes go back to his pool before counting ours
    st.pop[q] = 0
    cubes = min(max(need, mn), pool(st, s))
    st.owner[q] = s
    st.pop[q] = max(cubes, mn)
    if st.proxenos[o] == q:
        st.proxenos_captured[o] = True
    st.discs[s][q] = 0


def gain(st: PolisState, s: int, r: int, n: int) -> None:
    """Side `s` receives `n` of resource `r`, up to the board's `resource_maximum` (0: no limit, R27)."""
    res = st.res[s]
    v = res[r] + n
    cap = st.board.resource_max
    res[r] = cap if cap and v > cap else v


def siege_check(st: PolisState) -> None:
    """Diceless rules: a besieger with fewer hoplites in the territory than the fortification loses his discs
    on that polis; a polis that became his own loses his discs (§7.3.6, §7.3.8)."""
    if st.siege_rule < DICELESS:
        return
    b = st.board
    for s in (0, 1):
        d = st.discs[s]
        if not any(d):  # no siege of this side under way (the usual case)
            continue
        u = st.units[s]
        for q in range(len(d)):
            if d[q] and (u[b.p_terr[q]] < b.p_fort[q] or st.owner[q] == s):
                d[q] = 0


def siege_check_exchange(st: PolisState) -> None:
    """After a battle exchange: only `diceless` checks "at any moment"; diceless_sacrifice checks at the end
    of the battle (§7.3.6)."""
    if st.siege_rule == DICELESS:
        siege_check(st)


__all__ = [
    "ACTION",
    "BATTLE_CHOOSE",
    "BATTLE_DRAW",
    "CHANCE_PHASES",
    "DICELESS",
    "DICELESS_SACRIFICE",
    "DRAW_EVENT",
    "DRAW_PROJECT",
    "DS_FORCE",
    "EVENT_REMOVE",
    "EXTRA",
    "GARRISON",
    "GROWTH",
    "MATCH",
    "MOVE",
    "OVER",
    "PHASE_NAMES",
    "PHOROS",
    "PLAY",
    "RETREAT",
    "SACRIFICE_FORCE",
    "SIEGE_ROLL",
    "SUPPLY",
    "TRADE_ROLL",
    "Phase",
]
