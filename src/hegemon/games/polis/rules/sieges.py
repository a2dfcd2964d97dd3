"""Sieges (action 7) under the four siege rules: `classic` d4 (§7.1), `sacrifice` (force after a failed roll,
seeds-en.md §1.1), `diceless` (discs, seeds-en.md §1.2) and `diceless_sacrifice` (1 PP to start, forcing as
the tail of the action, seeds-en.md §1.3); how they combine with the base rules is polis.md §7.3."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hegemon.games.polis.actions import (
    ForceSiege,
    Garrison,
    SiegeRoll,
    StopForcing,
    intern,
)
from hegemon.games.polis.options import CLASSIC, DICELESS, DICELESS_SACRIFICE, SACRIFICE
from hegemon.games.polis.pending import DiscSiege, SiegeRollDue
from hegemon.games.polis.rules import common, flow
from hegemon.games.polis.rules.common import (
    DS_FORCE,
    GARRISON,
    SACRIFICE_FORCE,
    SIEGE_ROLL,
    T_SIEGE,
    T_SIEGE_START,
)

if TYPE_CHECKING:
    from hegemon.games.polis.rules.tables import UnitView
    from hegemon.games.polis.state import PolisState

D4 = tuple((intern(SiegeRoll, r), 0.25) for r in (1, 2, 3, 4))
_DICE: dict[int, tuple[tuple[Any, float], ...]] = {4: D4}


def dice(sides: int) -> tuple[tuple[Any, float], ...]:
    """The outcomes of the siege die with `sides` sides (the board's `siege_die_sides`, 4: a d4)."""
    d = _DICE.get(sides)
    if d is None:
        d = _DICE[sides] = tuple((intern(SiegeRoll, r), 1.0 / sides) for r in range(1, sides + 1))
    return d


def legal(st: PolisState, out: list[Any], extra: bool, view: UnitView) -> None:
    """Siege actions for the side to move (the caller has checked the general conditions)."""
    b = st.board
    s = st.active
    o = 1 - s
    mode = st.siege_rule
    if extra and sum(st.res[s]) < b.extra_cost:
        return
    if mode <= SACRIFICE and (st.pp[s] < b.military_pp or any(tok == T_SIEGE for tok, _ in st.tokens)):
        return  # one dice siege a turn, for the military cost (§7.1)
    us = st.units[s]
    owner = st.owner
    # poleis with at least F own hoplites in their territory, neutral or the opponent's, not a capital
    reach = view.in_reach
    if reach is None:  # (polis, territory, F) of the poleis other than capitals with F own hoplites there
        reach = view.in_reach = tuple(x for x in st.tables.siege_targets if us[x[1]] >= x[2])
    cands = [x for x in reach if owner[x[0]] != s]
    if not cands:
        return
    has_cube = common.pool(st, s) >= b.min_pop  # a taken polis needs at least one cube (§4.7, R26, R38)
    them = st.units[o]
    if mode <= SACRIFICE:
        if not has_cube:  # a roll may take the polis at once
            return
        acts = st.tables.besiege
        for q, t, _f in cands:
            if us[t] > them[t]:
                out.append(acts[q])
        return
    # diceless rules (seeds-en.md §1.2-1.3; §7.3.1, §7.3.4-7.3.5)
    started = False
    targeted = set()
    for tok, tq in st.tokens:
        if tok in (T_SIEGE, T_SIEGE_START):
            targeted.add(tq)
            started = started or tok == T_SIEGE_START
    may_start = not started and not st.passed[o] and (mode == DICELESS or st.pp[s] >= 1)
    my = st.discs[s]
    their = st.discs[o]
    tb = st.tables
    for q, _t, f in cands:
        if q in targeted:
            continue
        if not has_cube and my[q] + 1 >= f:  # only the disc that completes the stack takes the polis (N9)
            continue
        if my[q]:
            out.append(tb.continue_siege[q])
        elif may_start and not (owner[q] < 0 and their[q]):
            out.append(tb.start_siege[q])


def roll_due(st: PolisState) -> SiegeRollDue:
    due = st.pending
    assert isinstance(due, SiegeRollDue)  # SIEGE_ROLL and SACRIFICE_FORCE always have their record
    return due


def disc_siege(st: PolisState) -> DiscSiege:
    due = st.pending
    assert isinstance(due, DiscSiege)  # DS_FORCE and GARRISON always have their record
    return due


def apply_besiege(st: PolisState, polis: str) -> None:
    """Classic/sacrifice: pay 1 PP (the military cost), then the d4 (a chance node)."""
    q = st.board.polis_index[polis]
    flow.begin_action(st, T_SIEGE, q)
    st.pp[st.active] -= st.board.military_pp
    st.pending = SiegeRollDue(q, 0)
    st.phase = SIEGE_ROLL


def apply_roll(st: PolisState, roll: int) -> None:
    """roll ≥ F: take the polis, +F PP; otherwise lose 1 hoplite and, if the opponent's, 1 cube (§7.1);
    under `sacrifice` the besieger may then force (seeds-en.md §1.1)."""
    b = st.board
    s = st.active
    q = roll_due(st).polis
    f = b.p_fort[q]
    if roll >= f:
        common.take_polis(st, s, q)
        st.pp[s] += f
        st.pending = None
        flow.finish_action(st)
        return
    t = b.p_terr[q]
    st.units[s][t] -= 1
    if st.owner[q] == 1 - s and st.pop[q] > b.min_pop:
        st.pop[q] -= 1
    if st.siege_rule == SACRIFICE and st.pp[s] >= 1 and st.units[s][t] >= f - roll:
        st.pending = SiegeRollDue(q, roll)
        st.phase = SACRIFICE_FORCE
        return
    st.pending = None
    flow.finish_action(st)


def legal_sacrifice(st: PolisState, out: list[Any]) -> None:
    out.append(intern(ForceSiege))
    out.append(intern(StopForcing))


def apply_sacrifice(st: PolisState, force: bool) -> None:
    """Force: pay 1 PP and sacrifice F − roll hoplites; the siege succeeds (+F PP)."""
    b = st.board
    s = st.active
    due = roll_due(st)
    q, roll = due.polis, due.roll
    st.pending = None
    if force:
        f = b.p_fort[q]
        st.pp[s] -= 1
        st.units[s][b.p_terr[q]] -= f - roll
        common.take_polis(st, s, q)
        st.pp[s] += f
    flow.finish_action(st)


def apply_disc(st: PolisState, polis: str, start: bool) -> None:
    """Diceless rules: place a disc (start: diceless_sacrifice pays 1 PP); complete at F discs."""
    b = st.board
    s = st.active
    q = b.polis_index[polis]
    flow.begin_action(st, T_SIEGE_START if start else T_SIEGE, q)
    if start and st.siege_rule == DICELESS_SACRIFICE:
        st.pp[s] -= 1
    st.discs[s][q] += 1
    st.pending = DiscSiege(q)
    if st.discs[s][q] >= b.p_fort[q]:
        _complete(st, s, q)
    elif st.siege_rule == DICELESS_SACRIFICE and _can_force(st, s, q):
        st.phase = DS_FORCE
    else:
        st.pending = None
        flow.finish_action(st)


def _can_force(st: PolisState, s: int, q: int) -> bool:
    b = st.board
    if st.discs[s][q] + 1 >= b.p_fort[q] and common.pool(st, s) < b.min_pop:
        return False  # the completing disc takes the polis, which needs a cube (N9)
    return st.pp[s] >= 1 and st.units[s][b.p_terr[q]] >= 1


def legal_ds_force(st: PolisState, out: list[Any]) -> None:
    out.append(intern(ForceSiege))
    out.append(intern(StopForcing))


def apply_ds_force(st: PolisState, force: bool) -> None:
    """diceless_sacrifice forcing: each extra disc costs 1 PP + 1 hoplite (+1 cube of an opponent's polis)."""
    b = st.board
    s = st.active
    q = disc_siege(st).polis
    if not force:
        st.pending = None
        flow.finish_action(st)  # the end-of-action hoplite check may now remove the discs
        return
    st.pp[s] -= 1
    st.units[s][b.p_terr[q]] -= 1
    if st.owner[q] == 1 - s and st.pop[q] > b.min_pop:
        st.pop[q] -= 1
    st.discs[s][q] += 1
    if st.discs[s][q] >= b.p_fort[q]:
        _complete(st, s, q)  # won even if the hoplites now fall short of F
    elif not _can_force(st, s, q):
        st.pending = None
        flow.finish_action(st)


def _complete(st: PolisState, s: int, q: int) -> None:
    """The stack reached F: take the polis (current/base population), then the garrison choice, then PP."""
    common.take_polis(st, s, q)
    st.discs[s][q] = 0
    if st.pop[q] < st.board.p_base[q] and st.units[s][st.board.p_terr[q]] >= 1:
        st.phase = GARRISON
        return
    _award(st, s, q)


def legal_garrison(st: PolisState, out: list[Any]) -> None:
    out.append(intern(Garrison, True))
    out.append(intern(Garrison, False))


def apply_garrison(st: PolisState, yes: bool) -> None:
    """One hoplite of the territory becomes a cube of the polis (seeds-en.md §1.2)."""
    s = st.active
    q = disc_siege(st).polis
    if yes:
        st.units[s][st.board.p_terr[q]] -= 1
        st.pop[q] += 1
    _award(st, s, q)


def _award(st: PolisState, s: int, q: int) -> None:
    """+F PP; `diceless` also loses 1 PP, applied together (net F − 1, §7.3.3)."""
    f = st.board.p_fort[q]
    st.pp[s] += f - 1 if st.siege_rule == DICELESS else f
    st.pending = None
    flow.finish_action(st)


__all__ = ["CLASSIC", "D4"]
