"""The Polis evaluation sees the prestige the coming supply will take (issue 13: the search as Athens lost games
by passing with wheat short of its capital and exactly the prestige to pay for it, ostracised at the round's
end with 0 PP): `round_end_prestige` on hand-built positions, and the `supply_danger` weight that uses it — a
side that has passed with nothing left after the supply is lost, one that has not yet is in danger."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from hegemon.ai.games import polis as know
from hegemon.games.polis.board import WHEAT
from hegemon.games.polis.rules import common
from tests.ai.test_polis_sieges import action_phase

ON = dataclasses.replace(know.SEARCH, supply_danger=1.0)


def lean(st: Any, s: int, capital: int, wheat: int, pp: int) -> Any:
    """Side `s` holds every polis at its base population (no megalopolis), the capital at `capital` cubes,
    `wheat` wheat and `pp` prestige; no project under construction."""
    b = st.board
    for q in range(b.n_poleis):
        if st.owner[q] == s:
            st.pop[q] = b.p_base[q]
    st.pop[b.capital[s]] = capital
    st.res[s][WHEAT] = wheat
    st.pp[s] = pp
    st.started = []
    return st


@pytest.mark.parametrize("rule", ["classic", "sacrifice", "diceless_sacrifice"])
def test_the_supply_takes_what_the_wheat_cannot_pay_for_the_capital(rule: str) -> None:
    st = action_phase(rule)
    b = st.board
    s = st.active
    cap = b.capital[s]
    base = b.p_base[cap]
    lean(st, s, base, wheat=0, pp=5)
    assert know.round_end_prestige(st, s) == 5 - base
    st.res[s][WHEAT] = base - 1
    assert know.round_end_prestige(st, s) == 4
    st.res[s][WHEAT] = base + 10  # the wheat feeds the capital: the track is untouched
    assert know.round_end_prestige(st, s) == 5
    # a polis above its base population brings a megalopolis point
    st.pop[cap] = base + 1
    assert st.pop[cap] <= b.p_max[cap]
    assert know.round_end_prestige(st, s) == 5 + b.mega_pp
    # a project under construction on an own polis pays its immediate prestige at the round's end
    p = next(i for i in range(len(b.pr_immediate)) if b.pr_immediate[i] > 0)
    st.started = [p]
    st.slots[cap] = (p, *st.slots[cap][1:])
    assert know.round_end_prestige(st, s) == 5 + b.mega_pp + b.pr_immediate[p]
    # the project on this side's polis is not the opponent's: its track, fed and lean, is its own
    other = lean(st.clone(), 1 - s, b.p_base[b.capital[1 - s]], wheat=50, pp=3)
    other.started = [p]
    assert know.round_end_prestige(other, 1 - s) == 3


def test_passing_with_the_last_prestige_owed_to_the_supply_is_a_lost_game() -> None:
    st = action_phase("sacrifice")
    b = st.board
    s = st.active
    base = b.p_base[b.capital[s]]
    lean(st, s, base, wheat=base - 2, pp=2)  # the capital eats 2 PP: none left, and no megalopolis to come
    assert know.round_end_prestige(st, s) == 0
    assert not know.lost_at_round_end(st, s)  # the capital does not starve: the old check let it pass
    passed = st.clone()
    passed.passed[s] = True
    assert passed.phase == common.ACTION
    assert know.strength(passed, s, ON) == pytest.approx(know.strength(passed, s, know.SEARCH) - ON.lost)
    # not passed yet: a danger, the empty track's, beyond the two points the side holds now
    assert know.strength(st, s, ON) == pytest.approx(know.strength(st, s, know.SEARCH) - ON.pp_none)
    # one point left after the supply: the one-point danger
    one = st.clone()
    one.pp[s] = 3
    assert know.strength(one, s, ON) == pytest.approx(know.strength(one, s, know.SEARCH) - ON.pp_one)
    # wheat for the capital: no danger, and with the weight off (greedy's set) nothing changes either
    fed = st.clone()
    fed.res[s][WHEAT] = base
    fed.passed[s] = True
    assert know.strength(fed, s, ON) == know.strength(fed, s, know.SEARCH)
    assert know.strength(passed, s, know.DEFAULT) == know.strength(
        passed, s, dataclasses.replace(know.DEFAULT)
    )
    # the evaluation follows: passing into ostracism reads as a near-certain loss for the side
    assert know.evaluate(passed, ON)[s] < know.evaluate(passed, know.SEARCH)[s] * 0.05


def test_a_capital_already_starving_is_not_counted_lost_twice() -> None:
    st = action_phase("classic")
    b = st.board
    s = st.active
    base = b.p_base[b.capital[s]]
    lean(st, s, base, wheat=0, pp=base - 1)  # the capital cannot be fed even with every prestige point
    st.passed[s] = True
    assert know.lost_at_round_end(st, s)
    assert know.strength(st, s, ON) == know.strength(st, s, know.SEARCH)
