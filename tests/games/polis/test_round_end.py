"""End of the round in order (polis.md §8; seed 002 "End of the Round", "Preparations"), the end of the game
and the final score (§9; seed 002 "End of Game Conditions", "Final Score")."""

from __future__ import annotations

from hegemon.core.game import TERMINAL, Termination
from hegemon.games.polis import actions as A
from hegemon.games.polis import scoring
from hegemon.games.polis.rules.common import GROWTH, PHOROS, SUPPLY

from .fixtures import ATHENS, SPARTA, Q, T, do, scenario

RICH = {"wheat": 30}


def _end_round(st):
    """Both sides pass (first player first)."""
    do(st, A.Pass(), A.Pass())


def _skip_choices(st):
    while st.phase in (GROWTH, PHOROS):
        do(st, A.EndGrowth() if st.phase == GROWTH else A.Phoros(0))


def test_supply_worked_example_of_section_8_2():
    """Sparta: 9 cubes (Sparti 5, Gythion 2, Pylios 2), 6 wheat, 2 PP."""
    st = scenario(to_move=SPARTA, pp=(5, 2), res={SPARTA: {"wheat": 6}, ATHENS: RICH}, pop={"sparti": 5})
    _end_round(st)
    assert st.phase == SUPPLY and st.active == SPARTA
    assert set(st.legal_actions()) == {A.ReleasePolis("gythion"), A.ReleasePolis("pylios")}  # 3 > 2 PP
    do(st, A.ReleasePolis("pylios"))
    assert st.owner[Q(st, "pylios")] == -1 and st.pop[Q(st, "pylios")] == 0
    assert set(st.legal_actions()) == {A.PaySupply(), A.ReleasePolis("gythion")}
    twin = st.clone()
    do(st, A.PaySupply())  # 6 wheat + 1 PP
    assert st.res[SPARTA][4] == 0 and st.pp[SPARTA] == 1
    do(twin, A.ReleasePolis("gythion"))  # 5 cubes ≤ 6 wheat: no more releases
    assert twin.legal_actions() == [A.PaySupply()]
    do(twin, A.PaySupply())
    assert twin.res[SPARTA][4] == 1 and twin.pp[SPARTA] == 2


def test_supply_with_enough_wheat_is_automatic_and_storage_halves_rounding_up():
    st = scenario(
        to_move=ATHENS, res={ATHENS: {"wheat": 13, "oil": 5, "wine": 4, "metal": 7}, SPARTA: {"wheat": 8}}
    )
    _end_round(st)
    _skip_choices(st)
    # Athens: 13 − 8 = 5 wheat → 3; oil 5 → 3; wine 4 → 2; metal kept
    assert st.res[ATHENS][4] == 3 and st.res[ATHENS][3] == 3 and st.res[ATHENS][2] == 2
    assert st.res[ATHENS][0] == 7


def test_capital_that_cannot_be_fed_ends_the_game_after_both_supplies():
    """§9.1 case 1 (R60): the side loses; the other side's supply is still completed."""
    st = scenario(to_move=SPARTA, pp=(0, 3), res={ATHENS: {"wheat": 3}, SPARTA: {"wheat": 20}})
    _end_round(st)
    assert st.current_player() == TERMINAL and st.end_reason == "starved"
    assert st.res[SPARTA][4] == 20 - 8  # Sparta's supply was paid
    out = st.outcome()
    assert out.termination == Termination.ELIMINATION and out.winner == SPARTA


def test_growth_limits_then_megalopolis():
    """§8.3: optional, wheat 1:1, ≤ maximum growth per polis, ≤ maximum population; §8.4 +1 PP per polis above
    base population."""
    st = scenario(to_move=ATHENS, pp=(3, 3), res={ATHENS: RICH, SPARTA: RICH})
    _end_round(st)
    assert st.phase == GROWTH and st.active == ATHENS
    assert {a.polis for a in st.legal_actions() if isinstance(a, A.Grow)} == {"athinae", "chalkis", "chios"}
    for _ in range(3):
        do(st, A.Grow("athinae"))
    assert A.Grow("athinae") not in st.legal_actions()  # maximum growth 3
    do(st, A.Grow("chios"))
    assert A.Grow("chalkis") not in st.legal_actions()  # board order: Chalkis comes before Chios
    do(st, A.EndGrowth())
    assert st.active == SPARTA and st.phase == GROWTH
    do(st, A.EndGrowth())
    # Athinae 7 > 4 and Chios 3 > 2: +2 PP
    assert st.pp[ATHENS] == 3 + 2 and st.pp[SPARTA] == 3
    assert st.res[ATHENS][4] == (30 - 8 - 4 + 1) // 2


def test_phoros_exchanges_prestige_for_silver_and_zero_prestige_is_ostracism():
    """§8.6 and §9.1 case 2."""
    st = scenario(to_move=ATHENS, pp=(3, 3), res={ATHENS: RICH, SPARTA: RICH})
    _end_round(st)
    while st.phase == GROWTH:
        do(st, A.EndGrowth())
    assert st.phase == PHOROS and st.active == ATHENS
    assert [a.amount for a in st.legal_actions()] == [0, 1, 2, 3]
    do(st, A.Phoros(3))
    assert st.res[ATHENS][5] == 3 and st.pp[ATHENS] == 0
    do(st, A.Phoros(1))
    assert st.current_player() == TERMINAL and st.end_reason == "ostracism"
    out = st.outcome()
    assert out.termination == Termination.PRESTIGE and out.winner == SPARTA


def test_preparations_for_the_next_round():
    """§8.8: round marker, discs off, merchants home, new offer, new event, first player."""
    st = scenario(to_move=ATHENS, pp=(3, 3), res={ATHENS: RICH, SPARTA: RICH})
    do(st, A.Collect("attika"), A.Trade("persia", False), A.MarketRoll(2))
    do(st, A.Pass(), A.Pass())
    _skip_choices(st)
    assert st.round == 1 and st.phase_name() == "project draw"
    assert not any(st.exhausted) and st.shiploads_taken == [0] * 5 and st.merchants_in_port == [1, 1]
    assert st.offer == [] and len(st.chance_outcomes()) == 14 - 3
    for p in [a.project for a, _ in st.chance_outcomes()][:3]:
        do(st, A.DrawProject(p))
    assert len(st.chance_outcomes()) == 12  # round 4 pile
    do(st, A.DrawEvent("no_event_4a"))
    # Athens has more prestige (collected in Attika for free, no PP spent) — equal here: the previous
    # second player (Sparta) starts
    assert st.pp[ATHENS] == st.pp[SPARTA] and st.current_player() == SPARTA


def test_projects_pay_immediate_prestige_to_the_owner_at_round_end_and_posterity_at_the_end():
    st = scenario(
        to_move=ATHENS,
        pp=(3, 3),
        res={ATHENS: {"wood": 2, "metal": 1, "silver": 1, "wheat": 30}, SPARTA: RICH},
    )
    do(st, A.StartProject("stoa", "chalkis"), A.Pass())
    do(st, A.Pass())
    assert st.pp[ATHENS] == 3 + 1  # Stoa: immediate 1
    assert scoring.posterity(st, ATHENS) == 2


def test_final_round_score_and_tie_breaks():
    """§9.2: cubes + prestige + posterity; ties (R61): prestige with posterity, cubes, poleis, draw."""
    st = scenario(rnd="5b", to_move=ATHENS, pp=(5, 5), res={ATHENS: RICH, SPARTA: RICH})
    _end_round(st)
    _skip_choices(st)
    assert st.current_player() == TERMINAL and st.end_reason == "final"
    out = st.outcome()
    assert out.termination == Termination.END_OF_ROUNDS
    assert out.scores == (13.0, 13.0) and out.winners == (0, 1)  # identical in every tie-break
    st2 = scenario(rnd="5b", to_move=ATHENS, pp=(6, 5), res={ATHENS: RICH, SPARTA: RICH}, pop={"athinae": 3})
    _end_round(st2)
    _skip_choices(st2)
    out = st2.outcome()
    assert out.scores == (13.0, 13.0) and out.winner == ATHENS  # more prestige wins the tie
    assert out.ranking == ((ATHENS,), (SPARTA,))


def test_view_and_outcome_on_terminal_states():
    st = scenario(rnd="5b", to_move=ATHENS, pp=(5, 5), res={ATHENS: RICH, SPARTA: RICH})
    _end_round(st)
    _skip_choices(st)
    v = st.view(ATHENS)
    assert v["current_player"] == "terminal" and "legal_actions" not in v
    assert v["outcome"]["termination"] == "end_of_rounds"
    assert st.legal_actions() == [] and st.is_terminal()
    assert T(st, "attika") >= 0
