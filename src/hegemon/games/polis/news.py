"""What one action changed on the table, in public facts only (the log's "what it changed": a polis that changed
hands, a siege's markers, units lost, prestige won or spent, a captured proxenos, a new round). Read from the
public position before and after the action, never from a hand or a deck: both sides and spectators may see it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hegemon.core.roles import NewsRole
from hegemon.games.polis.board import SIDES

if TYPE_CHECKING:
    from hegemon.core.actions import Action
    from hegemon.games.polis.state import PolisState

Facts = tuple[Any, ...]


def _side(o: int) -> str:
    return SIDES[o] if o >= 0 else "neutral"


def facts(st: PolisState) -> Facts:
    """The public facts `news` compares: owners, siege markers, prestige, units by territory, captured proxenoi,
    the round."""
    return (
        tuple(st.owner),
        (tuple(st.discs[0]), tuple(st.discs[1])),
        tuple(st.pp),
        (tuple(st.units[0]), tuple(st.units[1])),
        tuple(st.proxenos_captured),
        st.round,
    )


def news(st: PolisState, before: Facts, action: Action) -> list[dict[str, Any]]:
    """What changed from `before` (`facts`) to the position `st` is in now, JSON-ready, in a fixed order."""
    owner0, discs0, pp0, units0, prox0, round0 = before
    owner1, discs1, pp1, units1, prox1, round1 = facts(st)
    b = st.board
    out: list[dict[str, Any]] = []
    for q, (a, c) in enumerate(zip(owner0, owner1, strict=True)):
        if a != c:
            out.append({"k": "polis", "polis": b.polis_ids[q], "from": _side(a), "to": _side(c)})
    for s in (0, 1):
        for q, (a, c) in enumerate(zip(discs0[s], discs1[s], strict=True)):
            if a != c and not (c == 0 and owner1[q] == s and owner0[q] != s):  # taken: said by the polis line
                out.append({"k": "siege", "polis": b.polis_ids[q], "side": SIDES[s], "n": c, "of": b.p_fort[q],
                            "rule": st.options.siege})  # fmt: skip
    for s in (0, 1):
        for land, unit in ((True, "hoplite"), (False, "galley")):
            places = [
                b.terr_ids[t] for t in range(b.n_terr) if b.is_land[t] == land and units1[s][t] < units0[s][t]
            ]
            lost = sum(units0[s][t] - units1[s][t] for t in range(b.n_terr) if b.is_land[t] == land)
            if lost > 0:  # a move changes places, not the total: only a fall of the total is a loss
                out.append({"k": "lost", "side": SIDES[s], "unit": unit, "n": lost, "places": places})
    for s in (0, 1):
        if pp0[s] != pp1[s]:
            out.append({"k": "prestige", "side": SIDES[s], "n": pp1[s] - pp0[s], "total": pp1[s]})
    for s in (0, 1):
        if prox1[s] and not prox0[s]:
            out.append({"k": "proxenos", "side": SIDES[s]})
    if round1 != round0:
        out.append({"k": "round", "n": round1 + 1, "name": st.board.round_names[round1]})
    return out


NEWS = NewsRole(facts=facts, news=news)
"""The news role (`Roles.news`)."""
