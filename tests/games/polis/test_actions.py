"""The twelve actions (polis.md §5, seed 002 "Development/Military/Political Actions"), each with its
conditions, costs and effects; the worked examples of §5.8, §5.9 and §5.12."""

from __future__ import annotations

from hegemon.games.polis import actions as A
from hegemon.games.polis.rules import common
from hegemon.games.polis.rules.proxenos import bribe_costs

from .fixtures import ATHENS, SPARTA, Q, T, do, hoplites, legal_kinds, scenario


# ------------------------------------------------------------------ §5.1-5.3 creation
def test_create_hoplites_limits_and_mixed_payment():
    """§5.1: one polis; k ≤ cubes − 1; metal or silver per hoplite; stacking limit."""
    st = scenario(rnd="5a", to_move=ATHENS, clear_units=True, res={ATHENS: {"metal": 1, "silver": 2}})
    made = {
        (a.count, a.silver)
        for a in st.legal_actions()
        if isinstance(a, A.CreateHoplites) and a.polis == "athinae"
    }
    assert made == {(1, 0), (1, 1), (2, 1), (2, 2), (3, 2)}  # ≤ 3 = 4 cubes − 1, ≤ 3 metal+silver
    do(st, A.CreateHoplites("athinae", 3, 2))
    assert st.pop[Q(st, "athinae")] == 1 and hoplites(st, ATHENS, "attika") == 3
    assert st.res[ATHENS][0] == 0 and st.res[ATHENS][5] == 0
    st = scenario(to_move=ATHENS)  # round 3: Attika already holds 3 hoplites
    assert not [a for a in st.legal_actions() if isinstance(a, A.CreateHoplites) and a.polis == "athinae"]


def test_create_galleys_go_to_the_galley_sea_and_inland_poleis_build_none():
    st = scenario(to_move=SPARTA)
    gal = {a.polis for a in st.legal_actions() if isinstance(a, A.CreateGalleys)}
    assert gal == {"pylios", "gythion"}  # Sparti has no arrow (inland)
    st2 = scenario(to_move=SPARTA)
    st2.units[SPARTA][T(st2, "myrtoon_pelagos")] = 3
    assert "gythion" not in {a.polis for a in st2.legal_actions() if isinstance(a, A.CreateGalleys)}


def test_create_merchants_only_in_commercial_poleis_and_at_most_six():
    st = scenario(to_move=SPARTA, res={SPARTA: {"wood": 9}})
    assert {a.polis for a in st.legal_actions() if isinstance(a, A.CreateMerchants)} == {"gythion"}
    do(st, A.CreateMerchants("gythion", 1, 0))
    assert st.merchants_in_port[SPARTA] == 2 and st.pop[Q(st, "gythion")] == 1
    assert common.pool(st, SPARTA) == 45 - 7 - 6  # the merchant is a ship: its cube went to the pool
    st.merchants[SPARTA] = 6
    st.n_actions = 0
    st.tokens = []
    st.pop[Q(st, "gythion")] = 3
    assert "create_merchants" not in legal_kinds(st)


def test_start_project_exact_cost_on_a_free_slot_of_its_symbol():
    """§5.4 (R40): no silver substitution; one project per slot; paid immediate prestige at round end."""
    st = scenario(to_move=ATHENS, res={ATHENS: {"silver": 4, "wood": 1, "oil": 1}})
    opts = {(a.project, a.polis) for a in st.legal_actions() if isinstance(a, A.StartProject)}
    assert ("parthenon", "athinae") in opts and ("parthenon", "chalkis") not in opts  # Chalkis: agora only
    do(st, A.StartProject("parthenon", "athinae"))
    assert st.res[ATHENS][5] == 0 and st.offer == [
        st.board.project_index["stoa"],
        st.board.project_index["odeion"],
    ]
    assert st.slots[Q(st, "athinae")][0] == st.board.project_index["parthenon"]
    st.res[ATHENS][4] = 0
    st2 = scenario(to_move=ATHENS, res={ATHENS: {"silver": 3, "wood": 1, "oil": 1}})
    assert "start_project" not in legal_kinds(st2)


# ------------------------------------------------------------------ §5.5-5.6 movement
def test_move_hoplites_costs_one_pp_and_respects_blocking_and_stacking():
    """§4.6/§5.5: one destination; blocking by opponent-controlled territories passed through (R34)."""
    st = scenario(
        rnd="4",
        to_move=ATHENS,
        pp=(3, 3),
        clear_units=True,
        units={(ATHENS, "attika"): 3, (SPARTA, "megaris"): 1, (SPARTA, "boiotia"): 1},
    )
    dests = {a.to for a in st.legal_actions() if isinstance(a, A.MoveHoplites)}
    # Megaris and Boiotia are Spartan-controlled: the destination may be entered, not passed through; by sea
    # (Saronikos, Kyklades…) every coastal land territory is reachable.
    assert "megaris" in dests and "boiotia" in dests and "arkadia" not in dests
    assert "korinthia" in dests  # by sea through the Saronikos Kolpos
    st.units[SPARTA][T(st, "saronikos_kolpos")] = 1
    st.units[SPARTA][T(st, "kyklades")] = 1
    dests = {a.to for a in st.legal_actions() if isinstance(a, A.MoveHoplites)}
    assert dests == {"megaris", "boiotia"}  # both seas blocked, both land exits controlled
    do(st, A.MoveHoplites("boiotia"))
    assert st.pp[ATHENS] == 2
    assert [a.count for a in st.legal_actions() if isinstance(a, A.MoveFrom)] == [1, 2, 3]
    do(st, A.MoveFrom("attika", 3))
    assert st.legal_actions() == [A.EndMove()]
    do(st, A.EndMove())
    assert hoplites(st, ATHENS, "boiotia") == 3 and hoplites(st, ATHENS, "attika") == 0


def test_move_from_several_sources_in_board_order():
    st = scenario(
        rnd="4",
        to_move=ATHENS,
        clear_units=True,
        units={(ATHENS, "attika"): 2, (ATHENS, "euboia"): 2, (ATHENS, "thessalia"): 1},
    )
    do(st, A.MoveHoplites("boiotia"), A.MoveFrom("euboia", 2))
    rest = [a for a in st.legal_actions() if isinstance(a, A.MoveFrom)]
    assert {a.source for a in rest} == {"thessalia"}  # Attika comes before Euboia in board order
    assert [a.count for a in rest] == [1]
    do(st, A.MoveFrom("thessalia", 1), A.EndMove())
    assert hoplites(st, ATHENS, "boiotia") == 3


def test_move_galleys_only_through_seas():
    st = scenario(rnd="4", to_move=SPARTA, pp=(3, 3))
    dests = {a.to for a in st.legal_actions() if isinstance(a, A.MoveGalleys)}
    # Kyklades is Athenian (2 v 0): it may be entered but not passed through, so the Aegean beyond it
    # (Noties Sporades, Aigaion Pelagos) is out of reach; land is never a galley destination.
    assert "kyklades" in dests and "noties_sporades" not in dests and "aigaion_pelagos" not in dests
    assert not any(st.board.is_land[st.board.terr_index[d]] for d in dests)
    assert "ionion_pelagos" in dests and "sikelikon_pelagos" in dests


# ------------------------------------------------------------------ §5.8 collection
def test_collection_worked_example_of_section_5_8():
    """Round 3, Sparta, 3 hoplites in Lakedaemon, free in the home region: +2 wheat, +1 metal."""
    st = scenario(to_move=SPARTA, pp=(3, 3))
    do(st, A.Collect("lakedaemon"))
    assert st.res[SPARTA][4] == 2 and st.res[SPARTA][0] == 5 and st.pp[SPARTA] == 3
    assert st.exhausted[T(st, "lakedaemon")]


def test_collection_outside_home_costs_pp_and_needs_a_polis_and_no_enemy_control():
    st = scenario(to_move=ATHENS, pp=(3, 3))
    do(st, A.Collect("ionia"))  # Chios, 2 hoplites: wine, silver
    assert st.pp[ATHENS] == 2 and st.res[ATHENS][2] == 5 and st.res[ATHENS][5] == 1
    st = scenario(to_move=ATHENS, pp=(3, 3), units={(SPARTA, "ionia"): 3})
    assert A.Collect("ionia") not in st.legal_actions()  # controlled by the opponent (R41)
    st = scenario(to_move=ATHENS, pp=(3, 3), units={(ATHENS, "boiotia"): 3})
    assert A.Collect("boiotia") not in st.legal_actions()  # no own polis there
    st.exhausted[T(st, "attika")] = True
    assert A.Collect("attika") not in st.legal_actions()  # exhausted this round, for both sides


# ------------------------------------------------------------------ §5.9 trade
def test_trade_worked_example_of_section_5_9_goods_exchange():
    st = scenario(to_move=ATHENS)
    do(st, A.Trade("thraki", False))
    assert st.res[ATHENS][2] == 3 and st.res[ATHENS][4] == 4 + 3 and st.merchants_in_port[ATHENS] == 0
    assert [a.roll for a, p in st.chance_outcomes()] == [1, 2, 3, 4]
    do(st, A.MarketRoll(3))
    assert st.market_markers[st.board.track_of[2]] == 5 and st.board.track_cost[5 - 1] == 2
    assert st.shiploads_taken[st.board.market_index["thraki"]] == 1


def test_trade_worked_example_of_section_5_9_purchase():
    st = scenario(to_move=ATHENS, res={ATHENS: {"silver": 2}})
    do(st, A.Trade("thraki", True))
    assert st.res[ATHENS][5] == 0 and st.res[ATHENS][4] == 7
    probs = {a.roll: p for a, p in st.chance_outcomes()}
    assert probs == {1: 1 / 16, 2: 3 / 16, 3: 5 / 16, 4: 7 / 16}  # the higher of two d4
    do(st, A.MarketRoll(4))
    assert st.market_markers[st.board.track_of[2]] == 1  # 2 − 4, stopped at 1


def test_trade_needs_a_free_route_an_open_market_and_a_merchant():
    st = scenario(to_move=ATHENS)
    markets = {a.market for a in st.legal_actions() if isinstance(a, A.Trade)}
    assert markets == {"persia", "aigyptos", "thraki"}  # Illyria, Karchedon: Myrtoon is Spartan
    st.market_closed[st.board.market_index["persia"]] = True
    st.units[SPARTA][T(st, "aigaion_pelagos")] = 1
    markets = {a.market for a in st.legal_actions() if isinstance(a, A.Trade)}
    assert markets == {"aigyptos"}
    st.merchants_in_port[ATHENS] = 0
    assert "trade" not in legal_kinds(st)


def test_shiploads_are_taken_leftmost_first():
    """R21: the second merchant gets shipload 2."""
    st = scenario(to_move=SPARTA, res={SPARTA: {"wood": 5}})
    st.merchants_in_port[SPARTA] = st.merchants[SPARTA] = 2
    do(st, A.Trade("aigyptos", False), A.MarketRoll(1))  # shipload 1: wood → 3 wheat
    assert st.res[SPARTA][4] == 3
    do(st, A.MoveProxenos("gythion"))
    do(st, A.Pass())  # Athens
    do(st, A.Trade("aigyptos", False), A.MarketRoll(1), A.PayExtra("wine"))  # shipload 2: oil → 3 wheat
    assert st.res[SPARTA][3] == 4 - 1 and st.res[SPARTA][4] == 6


# ------------------------------------------------------------------ §5.10-5.12 proxenos
def test_proxenos_bribes_opponent_units_on_the_cheapest_way():
    """§5.10 (R43): opponent units in every territory entered, the destination included, start excluded."""
    st = scenario(to_move=SPARTA, res={SPARTA: {"silver": 0}})
    costs = bribe_costs(st, SPARTA, T(st, "lakedaemon"))
    assert costs[T(st, "attika")] == 3  # Athens' 3 hoplites in Attika
    assert costs[T(st, "ionia")] == 2 + 0  # by the Aigaion (no galleys) into Ionia (2 hoplites)
    dests = {a.polis for a in st.legal_actions() if isinstance(a, A.MoveProxenos)}
    assert "athinae" not in dests and "chios" not in dests and "korinthos" in dests
    st.res[SPARTA][5] = 3
    do(st, A.MoveProxenos("athinae"))
    assert st.res[SPARTA][5] == 0 and st.proxenos[SPARTA] == Q(st, "athinae")


def test_redeem_proxenos_pays_two_silver_to_the_opponent():
    st = scenario(to_move=SPARTA)
    st.proxenos[SPARTA] = Q(st, "megara")
    st.proxenos_captured[SPARTA] = True
    assert "move_proxenos" not in legal_kinds(st) and "civil_war" not in legal_kinds(st)
    do(st, A.RedeemProxenos())
    assert st.res[SPARTA][5] == 2 and st.res[ATHENS][5] == 2
    assert st.proxenos[SPARTA] == Q(st, "sparti") and not st.proxenos_captured[SPARTA]


def test_civil_war_worked_examples_of_section_5_12():
    """Neutral Pydna (base 2): 4 silver, joins with 2 cubes, +2 PP; Athenian Chalkis with 3: 9 silver, +3."""
    st = scenario(to_move=SPARTA, res={SPARTA: {"silver": 4}})
    st.proxenos[SPARTA] = Q(st, "pydna")
    do(st, A.CivilWar("pydna"))
    assert st.owner[Q(st, "pydna")] == SPARTA and st.pop[Q(st, "pydna")] == 2
    assert st.res[SPARTA][5] == 0 and st.pp[SPARTA] == 5
    st = scenario(to_move=SPARTA, res={SPARTA: {"silver": 9}}, pop={"chalkis": 3})
    st.proxenos[SPARTA] = Q(st, "chalkis")
    st.proxenos[ATHENS] = Q(st, "chalkis")
    do(st, A.CivilWar("chalkis"))
    assert st.owner[Q(st, "chalkis")] == SPARTA and st.pop[Q(st, "chalkis")] == 3
    assert st.res[SPARTA][5] == 0 and st.pp[SPARTA] == 6
    assert st.proxenos_captured[ATHENS]  # Athens' proxenos stood on Chalkis: captured
    st = scenario(to_move=SPARTA, res={SPARTA: {"silver": 8}}, pop={"chalkis": 3})
    st.proxenos[SPARTA] = Q(st, "chalkis")
    assert "civil_war" not in legal_kinds(st)
    st.proxenos[SPARTA] = Q(st, "athinae")
    st.res[SPARTA][5] = 99
    assert "civil_war" not in legal_kinds(st)  # capitals cannot be bribed (R13)
