"""The Polis evaluation can value the projects a side can start (issue 13: mcts:normal lost as Athens at the
final count, building too few projects for lack of silver; the weight `project` is off in both shipped sets, as
measured in docs/experiments/ai-search-history.md, so these tests use a set with it at 1.0), on hand-built positions: the best project of
the offer whose cost the side holds is worth its prestige less its cost, the silver that completes a cost is
worth that much, the option goes with a pass, and starting the project is worth more than passing it by."""

from __future__ import annotations

from typing import Any

import pytest

from hegemon.ai.games import polis as know
from hegemon.games.polis.board import RESOURCES, SILVER, WHEAT
from tests.ai.test_polis_sieges import action_phase

WITH = know.Weights(project=1.0)


def offer_one(st: Any, project: str, resources: dict[str, int]) -> tuple[int, int]:
    """The offer holds only `project`; the side to move holds exactly `resources` (wheat enough to eat), a
    free slot of the project's symbol at its capital; the opponent none of its cost. Returns (side, project)."""
    b = st.board
    s = st.active
    p = b.project_index[project]
    st.offer = [p]
    st.res[s] = [resources.get(r, 0) for r in RESOURCES]
    st.res[s][WHEAT] = 30
    st.res[1 - s] = [0, 0, 0, 0, 30, 0]
    cap = b.capital[s]
    st.slots[cap] = tuple(-1 for _ in b.p_slots[cap])
    assert b.pr_symbol[p] in b.p_slots[cap]
    st.pp[s] = 5
    return s, p


@pytest.mark.parametrize("rule", ["classic", "diceless_sacrifice"])
def test_a_project_the_side_can_start_is_worth_its_prestige_less_its_cost(rule: str) -> None:
    st = action_phase(rule)
    s, p = offer_one(st, "festival_of_dionysos", {"wine": 3, "silver": 1})
    b = st.board
    expected = b.pr_immediate[p] + b.pr_posterity[p] - 3 * know.W_RESOURCE - know.W_SILVER  # 2 + 1 − 0.84
    assert know.project_option(st, s) == pytest.approx(expected)
    assert know.project_option(st, 1 - s) == 0.0  # the opponent holds none of its cost
    short = st.clone()
    short.res[s][SILVER] = 0
    assert know.project_option(short, s) == 0.0  # one silver short: nothing can be started now
    full = st.clone()
    cap = b.capital[s]
    full.slots[cap] = tuple(p if x == b.pr_symbol[p] else -1 for x in b.p_slots[cap])
    for q in range(b.n_poleis):  # every own theatre slot taken
        if full.owner[q] == s and q != cap:
            full.slots[q] = tuple(p for _ in b.p_slots[q])
    assert know.project_option(full, s) == 0.0
    gone = st.clone()
    gone.offer = []
    assert know.project_option(gone, s) == 0.0


def test_the_silver_that_completes_a_cost_is_worth_the_project() -> None:
    st = action_phase("classic")
    s, _ = offer_one(st, "festival_of_dionysos", {"wine": 3, "silver": 1})
    short = st.clone()
    short.res[s][SILVER] = 0
    gain = know.strength(st, s, WITH) - know.strength(short, s, WITH)
    assert gain > 1.5  # against 0.3 for a silver that buys nothing
    extra = st.clone()
    extra.res[s][SILVER] = 2
    assert know.strength(extra, s, WITH) - know.strength(st, s, WITH) == pytest.approx(know.W_SILVER)
    # the shipped sets leave the option out: there the silver is worth its weight only
    assert know.strength(st, s) - know.strength(short, s) == pytest.approx(know.W_SILVER)


def test_a_pass_gives_the_option_up() -> None:
    st = action_phase("classic")
    s, _ = offer_one(st, "festival_of_dionysos", {"wine": 3, "silver": 1})
    passed = st.clone()
    passed.passed[s] = True
    assert know.project_option(passed, s) == 0.0
    assert know.project_option(st, s) > 2.0
    assert know.strength(st, s, WITH) - know.strength(passed, s, WITH) > 2.0


def test_starting_the_project_beats_passing_it_by() -> None:
    st = action_phase("classic")
    s, p = offer_one(st, "festival_of_dionysos", {"wine": 3, "silver": 1})
    legal = st.legal_actions()
    start = next(a for a in legal if a.kind == "start_project")
    after_pass = st.clone()
    after_pass.apply(next(a for a in legal if a.kind == "pass"))
    after_start = st.clone()
    after_start.apply(start)
    assert after_start.offer == []  # taken from the offer: the opponent cannot start it
    assert p in after_start.started
    # starting it banks its posterity at once (its prestige comes at the round's end); passing loses it
    assert know.strength(after_start, s, WITH) - know.strength(after_pass, s, WITH) > 0.1
    assert know.evaluate(after_start, WITH)[s] > know.evaluate(after_pass, WITH)[s]
