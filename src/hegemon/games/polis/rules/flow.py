"""Turns (§4.3-§4.4): two different actions or a pass, the extra resource after the opponent has passed,
battle checks after every turn (§6.1), what follows a battle's end (the next battle or turn), and the round
safeguard (§4.9, an option). The start of a round's play (§4.2: first player) is `common.start_round_play`, which
the event resolution calls."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hegemon.games.polis.actions import PayExtra, intern
from hegemon.games.polis.board import RESOURCES
from hegemon.games.polis.pending import ExtraDue
from hegemon.games.polis.rules import battle, common, round_end
from hegemon.games.polis.rules.common import ACTION, BATTLE_CHOOSE, EXTRA

if TYPE_CHECKING:
    from hegemon.games.polis.state import PolisState


def begin_action(st: PolisState, token: int, polis: int = -1) -> None:
    """Count an action of this turn and remember its type (and siege target) for the "different" rule."""
    st.n_actions += 1
    st.tokens.append((token, polis))


def finish_action(st: PolisState) -> None:
    """An action has resolved: diceless disc checks, then the extra resource (§4.4) or the next action."""
    common.siege_check(st)
    if st.passed[1 - st.active] and st.board.extra_cost:
        st.phase = EXTRA
        st.pending = ExtraDue(st.board.extra_cost)
        return
    after_action(st)


def after_action(st: PolisState) -> None:
    if st.n_actions >= 2:
        end_turn(st)
    else:
        st.phase = ACTION


def legal_extra(st: PolisState, out: list[Any]) -> None:
    res = st.res[st.active]
    for i in range(6):
        if res[i] > 0:
            out.append(intern(PayExtra, RESOURCES[i]))


def apply_extra(st: PolisState, resource: str) -> None:
    st.res[st.active][RESOURCES.index(resource)] -= 1
    due = st.pending
    assert isinstance(due, ExtraDue)  # EXTRA always has its record
    if due.left > 1:
        st.pending = ExtraDue(due.left - 1)
        return
    st.pending = None
    after_action(st)


def apply_pass(st: PolisState) -> None:
    st.passed[st.active] = True
    end_turn(st)


def end_turn(st: PolisState) -> None:
    """The turn is over (§4.3): fight the battles it caused (§6.1), then the next turn."""
    st.turns += 1
    st.turn_ender = st.active
    st.fought = []
    next_battle(st)


def next_battle(st: PolisState) -> None:
    """Start the next battle of this turn-end, let the side whose turn ended choose among several, or go on."""
    cands = battle.candidates(st)
    if not cands:
        advance_turn(st)
    elif len(cands) == 1:
        battle.start(st, cands[0])
    else:
        st.active = st.turn_ender
        st.phase = BATTLE_CHOOSE


def retreat(st: PolisState, territory: str) -> None:
    """A retreat ends the battle (§6.5): then the next battle of this turn-end or the next turn."""
    battle.apply_retreat(st, territory)
    next_battle(st)


def match(st: PolisState, first: str, second: str) -> None:
    """The defender's answer (§6.4); when it ends the battle, the next battle of this turn-end or the next turn."""
    if battle.apply_match(st, first, second):
        next_battle(st)


def advance_turn(st: PolisState) -> None:
    """The other side plays next unless he has passed (§4.4); both passed → end of round (§8)."""
    cap = st.options.max_turns_per_round
    if cap and st.turns >= cap:
        st.passed[0] = st.passed[1] = True
        st.capped = True
    if st.passed[0] and st.passed[1]:
        round_end.start(st)
        return
    e = st.turn_ender
    st.active = 1 - e if not st.passed[1 - e] else e
    st.phase = ACTION
    st.n_actions = 0
    st.tokens = []
