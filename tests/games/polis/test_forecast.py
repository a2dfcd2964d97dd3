"""The end-of-round forecast shown during the action phase (polis.md §8.1-§8.5): hand-built positions with known
answers, each checked against what the end of the round then really does."""

from __future__ import annotations

from hegemon.games.polis import actions as A
from hegemon.games.polis.forecast import forecast, side_forecast
from hegemon.games.polis.rules.common import SUPPLY, population

from .fixtures import ATHENS, SPARTA, Q, do, scenario


def test_enough_wheat_pays_in_full_and_storage_halves_what_is_left() -> None:
    st = scenario(pp=(4, 4), res={ATHENS: {"wheat": 20, "wine": 5, "oil": 1}})
    need = population(st, ATHENS)
    f = side_forecast(st, ATHENS)
    assert (f["need"], f["wheat"], f["short"], f["pay"]) == (need, 20, 0, "wheat")
    assert f["storage"]["wheat"] == [20 - need, (20 - need + 1) // 2]
    assert f["storage"]["wine"] == [5, 3]
    assert "oil" not in f["storage"]  # 1 stays 1


def test_a_shortfall_within_the_prestige_is_paid_in_prestige_and_says_what_is_left() -> None:
    """§8.2 example: Sparta 9 cubes (Sparti 5, Gythion 2, Pylios 2), 6 wheat, 5 PP: 3 short, 2 PP left."""
    st = scenario(to_move=SPARTA, pp=(5, 5), res={SPARTA: {"wheat": 6}}, pop={"sparti": 5})
    f = side_forecast(st, SPARTA)
    assert (f["need"], f["short"], f["pay"], f["prestige_after"]) == (9, 3, "prestige", 2)
    assert "wheat" not in f["storage"]  # the supply eats it all


def test_a_shortfall_beyond_the_prestige_means_releasing_poleis() -> None:
    """The same with 2 PP (the rules' example): 3 short > 2 PP, the capital alone (5) is fed by 6 wheat."""
    st = scenario(to_move=SPARTA, pp=(5, 2), res={SPARTA: {"wheat": 6}}, pop={"sparti": 5})
    f = side_forecast(st, SPARTA)
    assert (f["short"], f["pay"], f["capital_need"]) == (3, "release", 5)
    # what the end of the round then asks: no payment in prestige, only releases (§8.2 example)
    while st.phase != SUPPLY:
        do(st, A.Pass())
    assert {a.kind for a in st.legal_actions()} == {"release_polis"}


def test_a_capital_that_cannot_be_fed_is_starvation() -> None:
    st = scenario(to_move=SPARTA, pp=(5, 1), res={SPARTA: {"wheat": 2}}, pop={"sparti": 5})
    f = side_forecast(st, SPARTA)
    assert f["pay"] == "starve" and f["capital_need"] == 5


def test_projects_under_construction_pay_before_the_supply() -> None:
    """A project started now pays its immediate prestige at the end of the round: counted before the supply."""
    rich = {"metal": 9, "wood": 9, "wine": 9, "oil": 9, "wheat": 0, "silver": 9}
    st = scenario(pp=(2, 5), res={ATHENS: rich})
    start = next(a for a in st.legal_actions() if a.kind == "start_project")
    do(st, start)
    b = st.board
    p = b.project_index[start.project]
    f = side_forecast(st, ATHENS)
    assert f["projects"] == [{"project": start.project, "polis": start.polis, "prestige": b.pr_immediate[p]}]
    assert f["prestige"] == 2 + b.pr_immediate[p]
    assert side_forecast(st, SPARTA)["projects"] == []


def test_megalopolis_counts_poleis_above_their_base() -> None:
    st = scenario(pop={"athinae": 8})
    b = st.board
    assert b.p_base[Q(st, "athinae")] < 8
    assert side_forecast(st, ATHENS)["megalopolis"] == b.mega_pp


def test_no_forecast_once_the_end_of_the_round_has_begun() -> None:
    st = scenario(to_move=SPARTA, pp=(5, 2), res={SPARTA: {"wheat": 6}}, pop={"sparti": 5})
    assert set(forecast(st) or {}) == {"athens", "sparta"}
    while st.phase != SUPPLY:
        do(st, A.Pass())
    assert forecast(st) is None
