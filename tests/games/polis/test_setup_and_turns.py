"""Setup (polis.md §3), the start of a round (§4.2), turns of two different actions and passing (§4.3-§4.4),
the round safeguard (§4.9, option `max_turns_per_round`)."""

from __future__ import annotations

import pytest

from hegemon.core.errors import ConfigError, IllegalActionError, InvalidActionError
from hegemon.core.game import CHANCE
from hegemon.games.polis import actions as A
from hegemon.games.polis.game import GAME
from hegemon.games.polis.rules import common

from .fixtures import ATHENS, SPARTA, Q, T, do, fresh, legal_kinds, scenario


def test_setup_of_section_3():
    st = GAME.new_game()
    b = st.board
    assert st.res == [[4, 4, 4, 4, 4, 0], [4, 4, 4, 4, 0, 4]] and st.pp == [3, 3]
    assert {b.polis_ids[q]: st.pop[q] for q in range(b.n_poleis) if st.owner[q] == ATHENS} == {
        "athinae": 4,
        "chalkis": 2,
        "chios": 2,
    }
    assert {b.polis_ids[q]: st.pop[q] for q in range(b.n_poleis) if st.owner[q] == SPARTA} == {
        "sparti": 4,
        "gythion": 2,
        "pylios": 2,
    }
    assert sum(1 for o in st.owner if o < 0) == 12
    assert st.units[ATHENS][T(st, "attika")] == 3 and st.units[ATHENS][T(st, "ionia")] == 2
    assert st.units[ATHENS][T(st, "kyklades")] == 2 and st.units[ATHENS][T(st, "noties_sporades")] == 1
    assert st.units[SPARTA][T(st, "lakedaemon")] == 3
    assert st.units[SPARTA][T(st, "myrtoon_pelagos")] == 2 and st.units[SPARTA][T(st, "ionion_pelagos")] == 1
    assert st.merchants_in_port == [1, 1] and st.proxenos == [Q(st, "athinae"), Q(st, "sparti")]
    assert st.market_markers == [3, 3, 2, 2]  # metal, wood, wine, oil (R29)
    assert common.pool(st, ATHENS) == 45 - 8 - 8 and common.pool(st, SPARTA) == 45 - 8 - 6
    # the first chance nodes: the project offer (14 tiles), then the round-3 event (8 cards)
    assert st.current_player() == CHANCE
    outs = st.chance_outcomes()
    assert len(outs) == 14 and all(abs(p - 1 / 14) < 1e-12 for _, p in outs)
    for p in ("parthenon", "stoa", "odeion"):
        do(st, A.DrawProject(p))
    outs = st.chance_outcomes()
    assert len(outs) == 8 and {a.kind for a, _ in outs} == {"draw_event"}


def test_first_player_sparta_on_equal_prestige_in_round_3():
    """§4.2 / R30: less prestige starts; on a tie in round 3 Sparta."""
    st = fresh(event="no_event_3a")
    assert st.current_player() == SPARTA and st.phase_name() == "action"


def test_leotychidas_ii_makes_athens_start():
    st = fresh(event="leotychidas_ii")
    assert st.current_player() == ATHENS


def test_persian_fleet_destruction_gives_athens_prestige_so_sparta_starts():
    st = fresh(event="persian_fleet_destruction")
    assert st.pp == [4, 3] and st.res[SPARTA][5] == 5 and st.current_player() == SPARTA


def test_two_different_actions_then_the_other_side():
    """§4.3: a turn is two different actions; the same action type is not offered twice."""
    st = scenario(to_move=ATHENS, pp=(5, 5))
    do(st, A.CreateHoplites("chalkis", 1, 0))
    assert "create_hoplites" not in legal_kinds(st)
    assert st.current_player() == ATHENS
    do(st, A.CreateGalleys("athinae", 1, 0))
    assert st.current_player() == SPARTA and st.n_actions == 0


def test_pass_ends_the_turn_and_the_other_side_plays_on_paying_an_extra_resource():
    """§4.4 [GOB]: after one side passed, each action costs one extra resource of the other's choice."""
    st = scenario(to_move=ATHENS, pp=(5, 5))
    do(st, A.Pass())
    assert st.passed == [True, False] and st.current_player() == SPARTA
    before = sum(st.res[SPARTA])
    do(st, A.CreateHoplites("pylios", 1, 0))
    assert st.phase_name() == "extra resource"
    assert {a.resource for a in st.legal_actions()} == {"metal", "wood", "wine", "oil", "silver"}
    do(st, A.PayExtra("wine"))
    assert sum(st.res[SPARTA]) == before - 2 and st.current_player() == SPARTA
    do(st, A.Pass())
    assert st.phase_name() in ("supply", "growth", "phoros", "project draw")  # end of round


def test_an_action_that_cannot_pay_the_extra_resource_is_illegal():
    st = scenario(
        to_move=SPARTA,
        pp=(5, 5),
        res={SPARTA: {"metal": 1, "wood": 0, "wine": 0, "oil": 0, "wheat": 0, "silver": 0}},
    )
    st.passed[ATHENS] = True
    assert not [a for a in st.legal_actions() if isinstance(a, A.CreateHoplites)]
    st.res[SPARTA][2] = 1  # one wine
    assert A.CreateHoplites("pylios", 1, 0) in st.legal_actions()


def test_pass_is_always_legal_and_a_passed_side_takes_no_more_turns():
    st = scenario(to_move=ATHENS)
    assert st.legal_actions()[0] == A.Pass()
    do(st, A.Pass(), A.MoveProxenos("gythion"), A.PayExtra("wine"), A.RedeemProxenos(), A.PayExtra("wine"))
    assert st.current_player() == SPARTA and st.n_actions == 0  # Athens has passed: Sparta plays again


def test_round_safeguard_option():
    """§4.9: an engine option, not a rule: after N turns in a round both sides count as passed."""
    st = scenario(to_move=ATHENS, max_turns_per_round=2)
    do(st, A.MoveProxenos("chalkis"), A.CreateHoplites("chalkis", 1, 0))
    assert st.round == 0 and st.current_player() == SPARTA
    do(st, A.MoveProxenos("gythion"), A.RedeemProxenos())
    assert st.passed == [True, True] and st.phase_name() not in ("action",)
    assert GAME.max_actions(GAME.parse_options({"max_turns_per_round": 0})) == 10**9


def test_options_parse_and_errors():
    o = GAME.parse_options({"siege": "diceless_sacrifice", "max_turns_per_round": "30"})
    assert o.siege == "diceless_sacrifice" and o.max_turns_per_round == 30
    assert GAME.parse_options(None).siege == "classic"
    with pytest.raises(ConfigError, match="siege"):
        GAME.parse_options({"siege": "catapults"})
    with pytest.raises(ConfigError, match="max_turns_per_round"):
        GAME.parse_options({"max_turns_per_round": "many"})
    with pytest.raises(ConfigError, match="nonsense"):
        GAME.parse_options({"nonsense": 1})


def test_decode_rejects_malformed_actions_and_play_rejects_illegal_ones():
    with pytest.raises(InvalidActionError):
        GAME.decode_action({"type": "besiege"})
    with pytest.raises(InvalidActionError):
        GAME.decode_action({"type": "teleport"})
    with pytest.raises(InvalidActionError):
        GAME.decode_action({"type": "create_hoplites", "polis": "athinae", "count": "2", "silver": 0})
    st = scenario(to_move=ATHENS)
    with pytest.raises(IllegalActionError) as e:
        do(st, A.Besiege("argos"))
    assert e.value.phase == "action" and e.value.player == ATHENS
