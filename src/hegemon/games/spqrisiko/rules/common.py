"""Helpers shared by every part of the rules: who is an enemy, the frontier garrison, elimination protection,
sea control, the competitors in the VP comparisons, and the end of the game."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from hegemon.core.game import Outcome, Termination
from hegemon.games.spqrisiko.phase import Phase
from hegemon.games.spqrisiko.scoring import NEUTRAL

if TYPE_CHECKING:
    from hegemon.games.spqrisiko.state import SpqrState


def borders_enemy(st: SpqrState, p: int, me: int, ignore: int = -1) -> bool:
    """Whether province p borders (by land, U6) an enemy province other than `ignore` [R 14.2]."""
    owner = st.owner
    nie = st.opts.neutral_is_enemy
    if owner[p] == me:  # the index counts p's enemy neighbours already
        c = st.ne[p]
        if c and ignore >= 0 and ignore in st.board.land[p]:
            o = owner[ignore]
            if (o >= 0 and o != me) or (o == NEUTRAL and nie):
                c -= 1
        return c > 0
    for q in st.board.land[p]:
        if q != ignore:
            o = owner[q]
            if (o >= 0 and o != me) or (o == NEUTRAL and nie):
                return True
    return False


def frontier_garrison(frontier: bool) -> int:
    """Legionaries that must stay in a province after a voluntary move: 1, or 2 when it borders an enemy
    province (`frontier`) [R 14.1], [R 14.2]."""
    return 2 if frontier else 1


def garrison(st: SpqrState, p: int, me: int, ignore: int = -1) -> int:
    """Legionaries that must stay in p after a voluntary move [R 14.1], [R 14.2]."""
    return frontier_garrison(borders_enemy(st, p, me, ignore))


def attack_keep(st: SpqrState, source: int, target: int, me: int) -> int:
    """Legionaries of `source` that may not roll against `target`: 1 [R 14.1]; under `garrison_first`
    (house-strict) 2 when the source borders another enemy province, so the frontier garrison survives
    the move-in."""
    if st.opts.garrison == "garrison_first":
        return garrison(st, source, me, ignore=target)
    return 1


def attack_floor(st: SpqrState, source: int, target: int, me: int) -> int:
    """The attack from `source` on `target` stops when the source is down to this many legionaries: the
    dice's keep, except under `garrison_stop` (house-1.2) 2 when the source borders another enemy province,
    so that it can still move in 1 and leave its frontier garrison of 2 [R 14.2]."""
    g = st.opts.garrison
    if g == "move_in_first":
        return 1
    return garrison(st, source, me, ignore=target)


def protected(st: SpqrState, target: int) -> bool:
    """U9: before the first elimination round a player's only province cannot be attacked [R 18.4]."""
    o = st.owner[target]
    if o < 0 or st.round >= st.opts.first_elimination_round:
        return False
    return len(st.provs[o]) <= 1


def defender_dice(st: SpqrState, p: int) -> int:
    a = st.armies[p]
    return a if a < 3 else 3


def competitors(st: SpqrState) -> list[int]:
    """The parties compared at scoring: players still in the game, plus the neutrals when they compete (U5)."""
    comp = [p for p in range(st.n) if not st.eliminated[p]]
    if st.opts.neutrals_compete:
        comp.append(NEUTRAL)
    return comp


def finish(st: SpqrState, why: Termination, winners: tuple[int, ...] | None) -> None:
    """End the game. Without `winners` (U10): most VP among the players still in the game, ties shared;
    eliminated players rank below."""
    st.phase = Phase.OVER
    st.chance = None
    vp = [float(v) for v in st.vp]
    if winners is None:
        keys = [(not st.eliminated[p], v) for p, v in enumerate(vp)]
        groups = sorted(set(keys), reverse=True)
        ranking = tuple(tuple(p for p in range(st.n) if keys[p] == k) for k in groups)
        st.terminal = Outcome(why, tuple(vp), ranking[0], ranking)
        return
    rest = Outcome.by_scores(why, [v if p not in winners else -math.inf for p, v in enumerate(vp)])
    ranking = (winners, *(g for g in rest.ranking if g[0] not in winners))
    st.terminal = Outcome(why, tuple(vp), winners, ranking)


def move_after_battle(st: SpqrState, count: int) -> None:
    """Move `count` legionaries from the battle's source into its target and close the battle (a move-in or a move)."""
    bt = st.battle
    assert bt is not None
    st.armies[bt.source] -= count
    st.armies[bt.target] += count
    st.battle = None
