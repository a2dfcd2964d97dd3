"""What one action changed on the table, in public facts only (the log's "what it changed": conquests, units
lost in a battle, VP scored and from what, eliminations, a new round). Read from the public position before and
after the action, never from a hand or the deck: every seat and spectator may see all of it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hegemon.core.roles import NewsRole
from hegemon.games.spqrisiko.records import BattleKind
from hegemon.games.spqrisiko.scoring import FREE, NEUTRAL

if TYPE_CHECKING:
    from hegemon.core.actions import Action
    from hegemon.games.spqrisiko.state import SpqrState

Facts = tuple[Any, ...]
_NO_LOSS = ("build", "disband")  # legionaries turned into a trireme and back: said by the action itself


def _who(o: int) -> int | str:
    return "neutral" if o == NEUTRAL else o


def facts(state: SpqrState) -> Facts:
    """The public facts `changes` compares: owners, each side's legionaries and triremes, VP by source,
    eliminations, the round."""
    n = state.n
    legs = [0] * (n + 1)  # the last one: the neutrals
    for o, a in zip(state.owner, state.armies, strict=True):
        if o == NEUTRAL:
            legs[n] += a
        elif 0 <= o < n:
            legs[o] += a
    bt = state.battle
    if bt is not None and bt.kind == BattleKind.SEA and state.order:
        legs[state.order[state.turn]] += (
            bt.alive
        )  # legionaries at sea in a sea attack: not lost until they fall
    return (
        tuple(state.owner),
        tuple(legs),
        tuple(sum(t) for t in state.triremes),
        tuple(state.vp),
        tuple(tuple(sorted(s.items())) for s in state.vp_sources),
        tuple(state.eliminated),
        state.round,
    )


def changes(before: Facts, after: Facts, action: Action) -> list[dict[str, Any]]:
    """What changed from `before` to `after` (both `facts`), JSON-ready, in a fixed order."""
    owners0, legs0, tri0, vp0, src0, out0, round0 = before
    owners1, legs1, tri1, vp1, src1, out1, round1 = after
    out: list[dict[str, Any]] = []
    for p, (o0, o1) in enumerate(zip(owners0, owners1, strict=True)):
        if o0 != o1 and o0 != FREE and o1 != FREE:  # a claim in the set-up is not a conquest
            out.append({"k": "conquest", "place": p, "from": _who(o0), "to": _who(o1)})
    if getattr(action, "kind", "") not in _NO_LOSS:
        n = len(tri0)
        for p in range(n + 1):
            lost_l = legs0[p] - legs1[p]
            lost_t = tri0[p] - tri1[p] if p < n else 0
            # legionaries that moved into a conquered province are not lost: only a fall of the side's total is
            if lost_l > 0 or lost_t > 0:
                out.append({"k": "lost", "who": "neutral" if p == n else p, "legionaries": max(0, lost_l),
                            "triremes": max(0, lost_t)})  # fmt: skip
    for p, (a, b) in enumerate(zip(vp0, vp1, strict=True)):
        if a != b:
            s0, s1 = dict(src0[p]), dict(src1[p])
            by = {k: s1.get(k, 0) - s0.get(k, 0) for k in s1 if s1.get(k, 0) != s0.get(k, 0)}
            out.append({"k": "vp", "who": p, "n": b - a, "total": b, "sources": by})
    for p, (a, b) in enumerate(zip(out0, out1, strict=True)):
        if b and not a:
            out.append({"k": "eliminated", "who": p})
    if round1 != round0 and round1 >= 1:  # round 0 is the set-up
        out.append({"k": "round", "n": round1})
    return out


def news(state: SpqrState, before: Facts, action: Action) -> list[dict[str, Any]]:
    """`changes` from `before` to the position `state` is in now, with the province ids of its board."""
    after = facts(state)
    out = changes(before, after, action)
    ids = state.board.province_ids
    for c in out:
        if c["k"] == "conquest" and isinstance(c["place"], int):
            c["place"] = ids[c["place"]]
    return out


NEWS = NewsRole(facts=facts, news=news)
"""The news role (`Roles.news`)."""
