"""Why the side on turn cannot take an action it might look for (the web table says it instead of "nothing you
can do here"): each offered project it cannot start, and at each place of the map the unit creations, sieges
and collections it cannot make there now, each with a reason code and its numbers. Read from the public
position and the side's own resources only; it never decides legality (`legal_actions` does), it only explains
the actions that are not among them, during the action phase of the side's own turn.

Reason codes: different (an action of that type was taken this turn, §4.3), extra (after the opponent has
passed each action costs one extra resource too, §4.4), cost (resources missing: `missing`), slot (no own polis
with a free slot of the project's symbol), cubes (the polis keeps its last cube: `cubes`), stack (the round's
stacking limit is reached where the units would go: `limit`), no_port, merchants (all merchants built),
hoplites (a siege needs F own hoplites there: `need`, `have`), control (a dice siege needs more hoplites there
than the opponent), prestige (`need`, `have`), pool (no population cube left to hold the polis taken), passed
(no new diceless siege once the opponent has passed), discs (a neutral polis the opponent is besieging), collected
(the box is used up this round), opponent (the opponent controls the territory)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hegemon.games.polis.board import RESOURCES, SILVER
from hegemon.games.polis.options import DICELESS_SACRIFICE, SACRIFICE
from hegemon.games.polis.rules import common
from hegemon.games.polis.rules.common import (
    ACTION,
    T_COLLECT,
    T_GALLEYS,
    T_HOPLITES,
    T_MERCHANTS,
    T_PROJECT,
    T_SIEGE,
    T_SIEGE_START,
)

if TYPE_CHECKING:
    from hegemon.core.actions import Action
    from hegemon.games.polis.state import PolisState

SIEGE_KINDS = ("besiege", "start_siege", "continue_siege")


def _project(st: PolisState, p: int, used: set[int], extra: bool, own: list[int]) -> dict[str, Any]:
    b = st.board
    s = st.active
    res = st.res[s]
    cost = b.pr_cost[p]
    out: dict[str, Any] = {"cost": {RESOURCES[r]: n for r, n in enumerate(cost) if n}}
    if T_PROJECT in used:
        out["why"] = "different"
        return out
    missing = {RESOURCES[r]: n - res[r] for r, n in enumerate(cost) if res[r] < n}
    if missing:
        out.update(why="cost", missing=missing)
        return out
    if extra and sum(res) - sum(cost) < b.extra_cost:
        out["why"] = "extra"
        return out
    sym = b.pr_symbol[p]
    if not any(st.slots[q][i] < 0 for q in own for i in st.tables.symbol_slots[sym][q]):
        out.update(why="slot", symbol=b.symbol_ids[sym])
        return out
    out["why"] = "other"
    return out


def _units(st: PolisState, q: int, token: int, used: set[int], extra: bool) -> dict[str, Any] | None:
    """Why no unit of `token` can be created at own polis `q` (None: this polis never makes that unit)."""
    b = st.board
    s = st.active
    kind = {T_HOPLITES: "create_hoplites", T_GALLEYS: "create_galleys", T_MERCHANTS: "create_merchants"}[
        token
    ]
    if token == T_GALLEYS and b.p_galley_sea[q] < 0:
        return None
    if token == T_MERCHANTS and not b.p_commercial[q]:
        return None
    out: dict[str, Any] = {"kind": kind}
    res = st.res[s]
    main = b.unit_res[token - T_HOPLITES]
    if token in used:
        out["why"] = "different"
    elif token == T_MERCHANTS and st.merchants[s] >= b.max_merchants:
        out.update(why="merchants", n=b.max_merchants)
    elif st.pop[q] - b.min_pop < 1:
        out.update(why="cubes", cubes=st.pop[q])
    elif token != T_MERCHANTS and (
        st.units[s][b.p_terr[q] if token == T_HOPLITES else b.p_galley_sea[q]] >= b.round_limit[st.round]
    ):
        out.update(why="stack", limit=b.round_limit[st.round])
    elif res[main] + res[SILVER] < 1:
        out.update(why="cost", missing={RESOURCES[main]: 1})
    elif extra and sum(res) < 1 + b.extra_cost:
        out["why"] = "extra"
    else:
        out["why"] = "other"
    return out


def _siege(st: PolisState, q: int, used: set[int], extra: bool) -> dict[str, Any]:
    b = st.board
    s = st.active
    o = 1 - s
    t = b.p_terr[q]
    f = b.p_fort[q]
    diceless = st.siege_rule > SACRIFICE
    mine = st.discs[s][q]
    kind = "besiege" if not diceless else "continue_siege" if mine else "start_siege"
    out: dict[str, Any] = {"kind": kind, "polis": b.polis_ids[q]}
    targeted = {tq for tok, tq in st.tokens if tok in (T_SIEGE, T_SIEGE_START)}
    started = any(tok == T_SIEGE_START for tok, _ in st.tokens)
    have = st.units[s][t]
    if have < f:
        out.update(why="hoplites", need=f, have=have)
    elif (T_SIEGE in used) if not diceless else (q in targeted or (kind == "start_siege" and started)):
        out["why"] = "different"
    elif not diceless and st.pp[s] < b.military_pp:
        out.update(why="prestige", need=b.military_pp, have=st.pp[s])
    elif kind == "start_siege" and st.passed[o]:
        out["why"] = "passed"
    elif kind == "start_siege" and st.siege_rule == DICELESS_SACRIFICE and st.pp[s] < 1:
        out.update(why="prestige", need=1, have=st.pp[s])
    elif kind == "start_siege" and st.owner[q] < 0 and st.discs[o][q]:
        out["why"] = "discs"
    elif not diceless and st.units[o][t] >= have:
        out["why"] = "control"
    elif common.pool(st, s) < b.min_pop:
        out["why"] = "pool"
    elif extra and sum(st.res[s]) < b.extra_cost:
        out["why"] = "extra"
    else:
        out["why"] = "other"
    return out


def _collect(st: PolisState, t: int, used: set[int], extra: bool) -> dict[str, Any]:
    b = st.board
    s = st.active
    out: dict[str, Any] = {"kind": "collect", "territory": b.terr_ids[t]}
    need = b.home_collect_pp if t == b.home[s] else b.military_pp
    if T_COLLECT in used:
        out["why"] = "different"
    elif st.exhausted[t]:
        out["why"] = "collected"
    elif st.units[1 - s][t] > st.units[s][t]:
        out["why"] = "opponent"
    elif st.pp[s] < need:
        out.update(why="prestige", need=need, have=st.pp[s])
    elif extra and sum(st.res[s]) < b.extra_cost:
        out["why"] = "extra"
    else:
        out["why"] = "other"
    return out


def blocked(st: PolisState, legal: list[Action]) -> dict[str, Any] | None:
    """The reasons (module text) for the side on turn, given its `legal` actions; None outside its action
    phase. {"projects": {project: {why, cost, …}}, "places": {polis or territory: [{kind, why, …}]}}."""
    if st.phase != ACTION or st.active not in (0, 1):
        return None
    b = st.board
    s = st.active
    used = {tok for tok, _ in st.tokens}
    if T_SIEGE_START in used:
        used.add(T_SIEGE)
    extra = bool(st.passed[1 - s] and b.extra_cost)
    own = [q for q in range(b.n_poleis) if st.owner[q] == s]
    can = {(a.kind, getattr(a, "polis", None) or getattr(a, "territory", None)) for a in legal}
    started = {getattr(a, "project", None) for a in legal if a.kind == "start_project"}
    projects = {
        b.project_ids[p]: _project(st, p, used, extra, own)
        for p in st.offer
        if b.project_ids[p] not in started
    }
    places: dict[str, list[dict[str, Any]]] = {}
    for q in own:
        for token in (T_HOPLITES, T_GALLEYS, T_MERCHANTS):
            why = _units(st, q, token, used, extra)
            if why is not None and (why["kind"], b.polis_ids[q]) not in can:
                places.setdefault(b.polis_ids[q], []).append(why)
    for q in range(b.n_poleis):
        if st.owner[q] == s or b.p_capital[q] or st.units[s][b.p_terr[q]] < 1:
            continue
        if any((k, b.polis_ids[q]) in can for k in SIEGE_KINDS):
            continue
        places.setdefault(b.polis_ids[q], []).append(_siege(st, q, used, extra))
    for t in sorted({b.p_terr[q] for q in own}):
        if st.units[s][t] >= 1 and ("collect", b.terr_ids[t]) not in can:
            places.setdefault(b.terr_ids[t], []).append(_collect(st, t, used, extra))
    return {"projects": projects, "places": places}
