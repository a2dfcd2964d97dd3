"""The end of round's steps taken without a choice (§8: supply paid in full, no growth possible, storage halved,
no phoros, projects completed, megalopolis) are recorded for the table to announce (issue 12 item 5): the view's
`round_end` says what happened, to whom, with the numbers."""

from __future__ import annotations

from hegemon.games.polis import actions as A
from hegemon.games.polis.rules.common import GROWTH, PHOROS

from .fixtures import ATHENS, SPARTA, do, scenario


def test_the_automatic_steps_of_an_end_of_round_are_reported_with_their_numbers():
    st = scenario(to_move=ATHENS, pp=(3, 0), res={ATHENS: {"wheat": 8, "oil": 5, "wine": 4, "metal": 7},
                                                  SPARTA: {"wheat": 20}})  # fmt: skip
    assert st.view(None)["round_end"] is None  # no end of round yet
    do(st, A.Pass(), A.Pass())
    # both supplies were paid by themselves; Athens has no wheat left to grow; Sparta chooses its growth
    rep = st.view(None)["round_end"]
    assert rep["round_number"] == 1
    assert rep["steps"] == [
        {"step": "supply", "side": "athens", "wheat": 8},
        {"step": "supply", "side": "sparta", "wheat": 8},
        {"step": "no_growth", "side": "athens", "why": "wheat"},
    ]
    twin = st.clone()
    while st.phase in (GROWTH, PHOROS):
        do(st, A.EndGrowth() if st.phase == GROWTH else A.Phoros(0))
    steps = st.view(None)["round_end"]["steps"]
    assert {"step": "storage", "side": "athens", "halved": {"oil": [5, 3], "wine": [4, 2]}} in steps
    assert {
        "step": "storage",
        "side": "sparta",
        "halved": {"oil": [4, 2], "wine": [4, 2], "wheat": [12, 6]},
    } in steps
    assert steps[-1] == {"step": "no_phoros", "side": "sparta"}  # Sparta has no prestige: no phoros to choose
    assert len(twin.view(None)["round_end"]["steps"]) == 3  # a clone keeps its own report
    assert "round_notes" not in st.to_json()  # a report, not part of the position (digests unchanged)


def test_a_completed_project_and_a_megalopolis_are_reported():
    st = scenario(to_move=ATHENS, pp=(3, 3), res={ATHENS: {"wheat": 30}, SPARTA: {"wheat": 30}})
    b = st.board
    athinae = b.polis_index["athinae"]
    st.pop[athinae] = (
        b.p_base[athinae] + 1
    )  # above its base population: a megalopolis at the end of the round
    p = b.project_ids.index("parthenon")
    st.slots[athinae] = (p, *st.slots[athinae][1:])
    st.started = [p]
    do(st, A.Pass(), A.Pass())
    while st.phase in (GROWTH, PHOROS):
        do(st, A.EndGrowth() if st.phase == GROWTH else A.Phoros(0))
    steps = st.view(None)["round_end"]["steps"]
    assert steps[0] == {
        "step": "project",
        "side": "athens",
        "project": "parthenon",
        "prestige": b.pr_immediate[p],
    }
    assert {"step": "megalopolis", "side": "athens", "poleis": 1, "prestige": b.mega_pp} in steps
