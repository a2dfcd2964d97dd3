"""The sequencer of a round — the only module that moves the game from one step of the round to the next:
the project offer and the event (§4.2, §10), the start of play (§4.2 step 3), turns of two different actions or
a pass (§4.3-§4.4), the extra resource after the opponent has passed, the battles after every turn (§6.1),
the end-of-round steps in order (§8), the end-of-game check (§9.1) and the next round (§8.8).

The other rules modules resolve one thing and hand back: an action reports its start and end
(`begin_action`/`finish_action`), an event its pauses (`events.run`), an end-of-round step its outcome. They set
only the sub-steps inside their own action or battle (a die to roll, a forcing or garrison choice, card draws);
never the round, a turn, a battle's order or an end-of-round step (tests/games/polis/test_flow.py checks it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hegemon.games.polis.board import RESOURCES
from hegemon.games.polis.pending import ExtraDue
from hegemon.games.polis.rules import battle, common, events, round_end
from hegemon.games.polis.rules.common import (
    ACTION,
    BATTLE_CHOOSE,
    DRAW_EVENT,
    DRAW_PROJECT,
    EVENT_REMOVE,
    EXTRA,
    GROWTH,
    OVER,
    PHOROS,
    SUPPLY,
)

if TYPE_CHECKING:
    from hegemon.games.polis.state import PolisState

# steps of the end of the round (§8), in order; the state's `round_end_stage`
S_SUPPLY_A, S_SUPPLY_B, S_STARVED, S_GROWTH_A, S_GROWTH_B, S_MEGA, S_PHOROS_A, S_PHOROS_B, S_END = range(9)


# ---------------------------------------------------------------------------------------------- start of round
def begin_round(st: PolisState) -> None:
    """§4.2 steps 1-2: the project offer (chance draws), then the event."""
    st.projects_to_draw = min(st.board.project_offer, len(st.stack))
    if st.projects_to_draw:
        st.phase = DRAW_PROJECT
    else:
        _after_projects(st)


def project_drawn(st: PolisState, project: str) -> None:
    p = st.board.project_index[project]
    st.stack.remove(p)
    st.offer.append(p)
    st.projects_to_draw -= 1
    if st.projects_to_draw == 0:
        _after_projects(st)


def _after_projects(st: PolisState) -> None:
    if events.pile_of(st):
        st.phase = DRAW_EVENT
    else:
        events.reveal(st, -1)  # an empty pile (only with a custom board): the round starts without an event
        _resume_event(st)


def event_drawn(st: PolisState, event: str) -> None:
    """§10.2: the round's event, resolved at once effect by effect."""
    e = st.board.event_index[event]
    events.pile_of(st).remove(e)
    events.reveal(st, e)
    _resume_event(st)


def _resume_event(st: PolisState) -> None:
    """Resolve the event's remaining effects; a removal the side chooses pauses it (EVENT_REMOVE)."""
    side = events.run(st)
    if side >= 0:
        st.active = side
        st.phase = EVENT_REMOVE
        return
    start_play(st)


def remove_unit(st: PolisState, territory: str) -> None:
    if events.apply_remove(st, territory):
        _resume_event(st)


def start_play(st: PolisState) -> None:
    """§4.2 step 3: the side with less prestige starts, unless the event names one; ties: R30."""
    b = st.board
    if st.event_first >= 0:
        first = st.event_first
    elif st.pp[0] != st.pp[1]:
        first = 0 if st.pp[0] < st.pp[1] else 1
    elif st.round == 0:
        first = b.first_tie_side
    else:
        first = 1 - st.first
    st.first = first
    st.active = first
    st.phase = ACTION
    st.passed = [False, False]
    st.turns = 0
    st.n_actions = 0
    st.tokens = []
    st.fought = []
    st.turn_ender = first


# ---------------------------------------------------------------------------------------------- turns
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
    _after_action(st)


def _after_action(st: PolisState) -> None:
    if st.n_actions >= 2:
        end_turn(st)
    else:
        st.phase = ACTION


def legal_extra(st: PolisState, out: list[Any]) -> None:
    res = st.res[st.active]
    acts = st.tables.pay_extra
    for i in range(6):
        if res[i] > 0:
            out.append(acts[i])


def apply_extra(st: PolisState, resource: str) -> None:
    st.res[st.active][RESOURCES.index(resource)] -= 1
    due = st.pending
    assert isinstance(due, ExtraDue)  # EXTRA always has its record
    if due.left > 1:
        st.pending = ExtraDue(due.left - 1)
        return
    st.pending = None
    _after_action(st)


def apply_pass(st: PolisState) -> None:
    st.passed[st.active] = True
    end_turn(st)


def end_turn(st: PolisState) -> None:
    """The turn is over (§4.3): fight the battles it caused (§6.1), then the next turn."""
    st.turns += 1
    st.turn_ender = st.active
    st.fought = []
    _next_battle(st)


def _next_battle(st: PolisState) -> None:
    """Start the next battle of this turn-end, let the side whose turn ended choose among several, or go on."""
    cands = battle.candidates(st)
    if not cands:
        _advance_turn(st)
    elif len(cands) == 1:
        battle.start(st, cands[0])
    else:
        st.active = st.turn_ender
        st.phase = BATTLE_CHOOSE


def choose_battle(st: PolisState, territory: str) -> None:
    battle.start(st, st.board.terr_index[territory])


def retreat(st: PolisState, territory: str) -> None:
    """A retreat ends the battle (§6.5): then the next battle of this turn-end or the next turn."""
    battle.apply_retreat(st, territory)
    _next_battle(st)


def match(st: PolisState, first: str, second: str) -> None:
    """The defender's answer (§6.4); when it ends the battle, the next battle of this turn-end or the next turn."""
    if battle.apply_match(st, first, second):
        _next_battle(st)


def _advance_turn(st: PolisState) -> None:
    """The other side plays next unless he has passed (§4.4); both passed → end of round (§8)."""
    cap = st.options.max_turns_per_round
    if cap and st.turns >= cap:
        st.passed[0] = st.passed[1] = True
        st.capped = True
    if st.passed[0] and st.passed[1]:
        _end_round(st)
        return
    e = st.turn_ender
    st.active = 1 - e if not st.passed[1 - e] else e
    st.phase = ACTION
    st.n_actions = 0
    st.tokens = []


# ---------------------------------------------------------------------------------------------- end of round
def _end_round(st: PolisState) -> None:
    """The action phase is over: diceless discs go (§7.3.9), projects complete (§8.1), then the steps."""
    round_end.complete_projects(st)
    st.round_end_stage = S_SUPPLY_A
    proceed(st)


def _side(st: PolisState, second: bool) -> int:
    return 1 - st.first if second else st.first


def proceed(st: PolisState) -> None:
    """Run the end-of-round steps from `round_end_stage` until one needs a choice (first player first, R55) or
    the round or the game ends."""
    while True:
        stage = st.round_end_stage
        if stage in (S_SUPPLY_A, S_SUPPLY_B):
            s = _side(st, stage == S_SUPPLY_B)
            if not round_end.supply(st, s):
                st.active = s
                st.phase = SUPPLY
                return
        elif stage == S_STARVED:
            if st.starved[0] or st.starved[1]:
                _game_over(st, "starved")
                return
        elif stage in (S_GROWTH_A, S_GROWTH_B):
            s = _side(st, stage == S_GROWTH_B)
            round_end.begin_growth(st)
            if round_end.growable(st, s):
                st.active = s
                st.phase = GROWTH
                return
            round_end.no_growth(st, s)
        elif stage == S_MEGA:
            round_end.megalopolis_and_storage(st)
        elif stage in (S_PHOROS_A, S_PHOROS_B):
            s = _side(st, stage == S_PHOROS_B)
            if st.pp[s] > 0:
                st.active = s
                st.phase = PHOROS
                return
            round_end.note(st, "no_phoros", s)  # no prestige: no phoros to choose
        else:
            if st.pp[0] == 0 or st.pp[1] == 0:
                _game_over(st, "ostracism")
            elif st.round == len(st.board.round_limit) - 1:
                _game_over(st, "final")
            else:
                st.round += 1
                round_end.prepare(st)
                begin_round(st)
            return
        st.round_end_stage += 1


def _next_step(st: PolisState) -> None:
    st.round_end_stage += 1
    proceed(st)


def pay_supply(st: PolisState) -> None:
    round_end.apply_pay_supply(st)
    _next_step(st)


def release(st: PolisState, polis: str) -> None:
    round_end.apply_release(st, polis)


def grow(st: PolisState, polis: str) -> None:
    """One growth; the step ends by itself when nothing more can grow."""
    if not round_end.apply_grow(st, polis):
        _next_step(st)


def end_growth(st: PolisState) -> None:
    _next_step(st)


def phoros(st: PolisState, amount: int) -> None:
    round_end.apply_phoros(st, amount)
    _next_step(st)


def _game_over(st: PolisState, why: str) -> None:
    st.end_reason = why
    st.phase = OVER
    st.active = -2
