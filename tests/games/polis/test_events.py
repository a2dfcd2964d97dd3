"""Event cards (polis.md §10; effect vocabulary §10.2, R62)."""

from __future__ import annotations

from hegemon.games.polis import actions as A
from hegemon.games.polis.rules.common import EVENT_REMOVE

from .fixtures import ATHENS, SPARTA, Q, T, do, fresh


def test_holy_war_places_hoplites_from_the_pool():
    st = fresh(event="holy_war")
    assert st.units[SPARTA][T(st, "thessalia")] == 1 and st.units[ATHENS][T(st, "boiotia")] == 1


def test_place_units_respects_the_stacking_limit():
    """R37/R62: an event places only as many units as fit."""
    st = GAME_with_units_then_event({(SPARTA, "thessalia"): 3}, "holy_war")
    assert st.units[SPARTA][T(st, "thessalia")] == 3  # already at the round-3 limit: not placed
    assert st.units[ATHENS][T(st, "boiotia")] == 1


def GAME_with_units_then_event(units, event):
    from hegemon.games.polis.game import GAME

    st = GAME.new_game()
    for (side, terr), n in units.items():
        st.units[side][st.board.terr_index[terr]] = n
    for p in ("parthenon", "stoa", "odeion"):
        do(st, A.DrawProject(p))
    do(st, A.DrawEvent(event))
    return st


def test_philopersians_lets_each_side_choose_the_unit_it_removes():
    st = GAME_with_units_then_event({}, "philopersians")
    assert st.phase == EVENT_REMOVE and st.active == SPARTA
    assert {a.territory for a in st.legal_actions()} == {"lakedaemon", "ionion_pelagos", "myrtoon_pelagos"}
    do(st, A.RemoveUnit("ionion_pelagos"))
    assert st.pp[SPARTA] == 4 and st.phase == EVENT_REMOVE and st.active == ATHENS
    do(st, A.RemoveUnit("ionia"))
    assert st.units[ATHENS][T(st, "ionia")] == 1 and st.pp == [4, 4]
    assert st.phase_name() == "action" and st.current_player() == SPARTA  # tie in round 3: Sparta


def test_polis_population_only_for_owned_poleis_and_within_limits():
    from hegemon.games.polis.game import GAME
    from hegemon.games.polis.rules import events

    st = GAME.new_game()
    for p in ("parthenon", "stoa", "odeion"):
        do(st, A.DrawProject(p))
    st.round = 3
    st.event = st.board.event_index["carthaginian_invasion_of_sikelia"]
    st.event_step = 0
    st.owner[Q(st, "gela")] = SPARTA
    st.pop[Q(st, "gela")] = 1
    events.run(st)
    assert st.pop[Q(st, "gela")] == 1  # never below 1
    assert st.owner[Q(st, "syrakousai")] == -1 and st.pop[Q(st, "syrakousai")] == 0
    assert st.market_closed[st.board.market_index["karchedon"]]


def test_xerxes_closes_persia_for_the_round():
    st = fresh(event="xerxes_is_assassinated")
    assert st.market_closed[st.board.market_index["persia"]]
    st.active = ATHENS
    assert "persia" not in {a.market for a in st.legal_actions() if isinstance(a, A.Trade)}


def test_event_draw_probabilities_are_uniform_over_the_pile():
    from hegemon.games.polis.game import GAME

    st = GAME.new_game()
    for p in ("parthenon", "stoa", "odeion"):
        do(st, A.DrawProject(p))
    outs = st.chance_outcomes()
    assert len(outs) == 8 and all(abs(p - 1 / 8) < 1e-12 for _, p in outs)
