"""Sieges under the four siege rules. Sources: polis.md §7.1-§7.3, seeds-en.md §1 (original
`shared/seeds/000_b5ba432b2660e4e8.txt`); every worked example of the siege seed is a test here, checking PP,
hoplites, discs and population after each step."""

from __future__ import annotations

import pytest

from hegemon.core.errors import IllegalActionError
from hegemon.games.polis import actions as A
from hegemon.games.polis.rules.common import DS_FORCE, GARRISON, SACRIFICE_FORCE, SIEGE_ROLL

from .fixtures import ATHENS, SPARTA, Q, do, hoplites, legal_kinds, scenario


def _state_of(st, polis: str, terr: str, side: int = ATHENS):
    q = Q(st, polis)
    return st.pp[side], hoplites(st, side, terr), st.discs[side][q], st.owner[q], st.pop[q]


# ------------------------------------------------------------------ classic (§7.1)
def test_classic_chance_node_is_a_fair_d4():
    st = scenario(units={(ATHENS, "boiotia"): 3}, pp=(5, 3))
    do(st, A.Besiege("thebai"))
    assert st.phase == SIEGE_ROLL
    outs = st.chance_outcomes()
    assert [a.roll for a, _ in outs] == [1, 2, 3, 4]
    assert all(p == 0.25 for _, p in outs)


def test_classic_success_takes_the_polis_with_base_population_and_fortification_pp():
    """§7.1: roll ≥ F takes the polis (neutral: base population) and gives F PP; 1 PP for the action."""
    st = scenario(units={(ATHENS, "boiotia"): 3}, pp=(5, 3))
    do(st, A.Besiege("thebai"), A.SiegeRoll(3))
    assert _state_of(st, "thebai", "boiotia") == (5 - 1 + 3, 3, 0, ATHENS, 3)


def test_classic_failure_loses_a_hoplite_and_a_cube_of_an_opponents_polis():
    """§7.1 / seed 002: roll < F → attacker loses 1 hoplite; an opponent's polis loses 1 cube."""
    st = scenario(units={(ATHENS, "boiotia"): 3}, pp=(5, 3), owners={"thebai": SPARTA}, pop={"thebai": 3})
    do(st, A.Besiege("thebai"), A.SiegeRoll(2))
    assert _state_of(st, "thebai", "boiotia") == (4, 2, 0, SPARTA, 2)
    # the classic rule offers no forcing
    assert st.phase != SACRIFICE_FORCE


def test_classic_failure_never_empties_an_owned_polis():
    st = scenario(units={(ATHENS, "messenia"): 3}, pp=(5, 3), pop={"pylios": 1})
    do(st, A.Besiege("pylios"), A.SiegeRoll(1))
    assert st.pop[Q(st, "pylios")] == 1 and st.owner[Q(st, "pylios")] == SPARTA


def test_classic_requires_control_and_fortification_many_hoplites():
    """§7.1: control of the territory with at least F hoplites."""
    st = scenario(units={(ATHENS, "boiotia"): 3, (SPARTA, "boiotia"): 3}, pp=(5, 3))
    assert A.Besiege("thebai") not in st.legal_actions()  # 3 v 3: nobody controls Boiotia
    st = scenario(units={(ATHENS, "boiotia"): 2}, pp=(5, 3))
    assert A.Besiege("thebai") not in st.legal_actions()  # F 3 needs 3 hoplites
    st = scenario(units={(ATHENS, "boiotia"): 3}, pp=(0, 3))
    assert A.Besiege("thebai") not in st.legal_actions()  # a military action costs 1 PP


def test_capitals_and_own_poleis_cannot_be_besieged():
    """R13 (capitals), §7.1 (neutral or the opponent's)."""
    st = scenario(rnd="4", units={(ATHENS, "lakedaemon"): 4}, clear_units=True, pp=(5, 3))
    names = {a.polis for a in st.legal_actions() if isinstance(a, A.Besiege)}
    assert names == {"gythion"}
    st = scenario(units={(ATHENS, "euboia"): 3}, pp=(5, 3))
    assert A.Besiege("chalkis") not in st.legal_actions()


def test_classic_one_siege_per_turn():
    """§7.3.1: under classic/sacrifice the siege is action 7, so at most one per turn."""
    st = scenario(units={(ATHENS, "boiotia"): 3, (ATHENS, "thessalia"): 1}, pp=(5, 3))
    do(st, A.Besiege("naupaktos"), A.SiegeRoll(1))  # F 1: any roll succeeds
    assert st.owner[Q(st, "naupaktos")] == ATHENS
    assert "besiege" not in legal_kinds(st)


def test_taking_a_polis_captures_the_opponents_proxenos_there():
    """§5.11 (R44): the proxenos on a polis that passes to the opponent is captured."""
    st = scenario(units={(ATHENS, "boiotia"): 3}, pp=(5, 3))
    st.proxenos[SPARTA] = Q(st, "thebai")
    do(st, A.Besiege("thebai"), A.SiegeRoll(4))
    assert st.proxenos_captured[SPARTA]
    assert "move_proxenos" not in {a.kind for a in _sparta_options(st)}


def _sparta_options(st):
    twin = st.clone()
    twin.active = SPARTA
    twin.n_actions = 0
    twin.tokens = []
    return twin.legal_actions()


# ------------------------------------------------------------------ sacrifice (seeds-en.md §1.1)
def test_sacrifice_worked_example_neutral_polis():
    """Seed: F 3, 3 hoplites, d4 = 1 → lose 1 hoplite; force: 1 PP + 2 hoplites, 1 + 2 = 3 takes the city."""
    st = scenario("sacrifice", units={(ATHENS, "boiotia"): 3}, pp=(5, 3))
    do(st, A.Besiege("thebai"))
    assert _state_of(st, "thebai", "boiotia") == (4, 3, 0, -1, 0)
    do(st, A.SiegeRoll(1))
    assert st.phase == SACRIFICE_FORCE
    assert _state_of(st, "thebai", "boiotia") == (4, 2, 0, -1, 0)
    do(st, A.ForceSiege())
    # 1 PP for forcing, 2 hoplites sacrificed (0 left), the city taken with its base population, +3 PP
    assert _state_of(st, "thebai", "boiotia") == (4 - 1 + 3, 0, 0, ATHENS, 3)


def test_sacrifice_worked_example_opponents_polis_loses_a_cube_first():
    """Seed: "the attacker loses 1 hoplite (and the polis, if not neutral, 1 population)", then forces."""
    st = scenario(
        "sacrifice", units={(ATHENS, "boiotia"): 3}, pp=(5, 3), owners={"thebai": SPARTA}, pop={"thebai": 3}
    )
    do(st, A.Besiege("thebai"), A.SiegeRoll(1))
    assert _state_of(st, "thebai", "boiotia") == (4, 2, 0, SPARTA, 2)
    do(st, A.ForceSiege())
    assert _state_of(st, "thebai", "boiotia") == (6, 0, 0, ATHENS, 2)


def test_sacrifice_forcing_is_optional():
    st = scenario("sacrifice", units={(ATHENS, "boiotia"): 3}, pp=(5, 3))
    do(st, A.Besiege("thebai"), A.SiegeRoll(2), A.StopForcing())
    assert _state_of(st, "thebai", "boiotia") == (4, 2, 0, -1, 0)
    assert st.n_actions == 1 and st.phase != SACRIFICE_FORCE


def test_sacrifice_needs_a_pp_and_enough_hoplites_left():
    """§7.3.2: forcing needs ≥ 1 PP after the siege's own PP; and F − roll hoplites after the loss."""
    st = scenario("sacrifice", units={(ATHENS, "boiotia"): 3}, pp=(1, 3))
    do(st, A.Besiege("thebai"), A.SiegeRoll(1))
    assert st.phase != SACRIFICE_FORCE and st.pp[ATHENS] == 0
    st = scenario("sacrifice", rnd="4", units={(ATHENS, "korinthia"): 4}, pp=(5, 3))
    do(st, A.Besiege("korinthos"), A.SiegeRoll(1))  # 3 hoplites left, F − roll = 3: may force
    assert st.phase == SACRIFICE_FORCE
    st = scenario(
        "sacrifice", rnd="4", units={(ATHENS, "korinthia"): 4}, pp=(5, 3), owners={"korinthos": SPARTA}
    )
    do(st, A.Besiege("korinthos"), A.SiegeRoll(1))
    do(st, A.ForceSiege())
    assert hoplites(st, ATHENS, "korinthia") == 0 and st.owner[Q(st, "korinthos")] == ATHENS
    assert st.pop[Q(st, "korinthos")] == 3  # 4 − 1 for the failed roll, current population kept


# ------------------------------------------------------------------ diceless (seeds-en.md §1.2)
def test_diceless_start_and_continue_cost_no_pp_and_success_nets_f_minus_1():
    """Seed: no PP to start or continue; at F discs: lose 1 PP, take the city, gain F PP, discs removed."""
    st = scenario("diceless", units={(ATHENS, "boiotia"): 3}, pp=(0, 3))
    do(st, A.StartSiege("thebai"))
    assert _state_of(st, "thebai", "boiotia") == (0, 3, 1, -1, 0)
    do(st, A.MoveProxenos("chalkis"))  # Athens' second action
    do(st, A.MoveProxenos("gythion"), A.RedeemProxenos())  # Sparta's turn
    do(st, A.ContinueSiege("thebai"))
    assert _state_of(st, "thebai", "boiotia") == (0, 3, 2, -1, 0)
    do(st, A.MoveProxenos("chios"))
    do(st, A.MoveProxenos("gythion"), A.RedeemProxenos())
    do(st, A.ContinueSiege("thebai"))
    # 3 discs = F 3: −1 PP and +3 PP applied together (§7.3.3), so legal at 0 PP
    assert _state_of(st, "thebai", "boiotia") == (2, 3, 0, ATHENS, 3)


def test_diceless_takes_opponents_polis_with_current_population_and_offers_a_garrison():
    """Seed: current population (opponent's); a garrison hoplite only below the base population."""
    st = scenario("diceless", units={(ATHENS, "messenia"): 2}, pp=(3, 3), pop={"pylios": 1})
    st.discs[ATHENS][Q(st, "pylios")] = 1
    do(st, A.ContinueSiege("pylios"))
    assert st.phase == GARRISON
    assert st.owner[Q(st, "pylios")] == ATHENS and st.pop[Q(st, "pylios")] == 1
    assert st.pp[ATHENS] == 3  # PP come after the garrison choice ("infine")
    do(st, A.Garrison(True))
    assert st.pop[Q(st, "pylios")] == 2 and hoplites(st, ATHENS, "messenia") == 1
    assert st.pp[ATHENS] == 3 - 1 + 2
    # at base population there is no garrison choice
    st = scenario("diceless", units={(ATHENS, "messenia"): 2}, pp=(3, 3))
    st.discs[ATHENS][Q(st, "pylios")] = 1
    do(st, A.ContinueSiege("pylios"))
    assert st.phase != GARRISON and st.pop[Q(st, "pylios")] == 2


def test_diceless_requirements():
    """Seed: neutral or opponent's; no siege of a neutral city the opponent besieges; ≥ F hoplites in the
    territory, control not required; after the opponent passed no start, but continuing is allowed."""
    st = scenario("diceless", units={(ATHENS, "boiotia"): 3, (SPARTA, "boiotia"): 3}, pp=(3, 3))
    assert A.StartSiege("thebai") in st.legal_actions()  # no control needed
    st.discs[SPARTA][Q(st, "thebai")] = 1
    assert A.StartSiege("thebai") not in st.legal_actions()
    st = scenario("diceless", units={(ATHENS, "boiotia"): 2}, pp=(3, 3))
    assert A.StartSiege("thebai") not in st.legal_actions()
    st = scenario("diceless", units={(ATHENS, "boiotia"): 3, (ATHENS, "thessalia"): 1}, pp=(3, 3))
    st.discs[ATHENS][Q(st, "thebai")] = 1
    st.passed[SPARTA] = True
    acts = st.legal_actions()
    assert A.ContinueSiege("thebai") in acts and A.StartSiege("naupaktos") not in acts
    do(st, A.ContinueSiege("thebai"))
    assert st.phase_name() == "extra resource"  # every action costs one more resource (§4.4, §7.3.4)


def test_diceless_siege_broken_when_hoplites_fall_below_fortification():
    """Seed: "if at any moment he no longer has enough hoplites … he removes all his siege discs"."""
    st = scenario("diceless", rnd="4", units={(ATHENS, "boiotia"): 3}, pp=(3, 3))
    st.discs[ATHENS][Q(st, "thebai")] = 2
    do(st, A.MoveHoplites("attika"), A.MoveFrom("boiotia", 1), A.EndMove())
    assert st.discs[ATHENS][Q(st, "thebai")] == 0


def test_diceless_discs_removed_at_round_end_but_diceless_sacrifice_discs_stay():
    """Seed §1.2 last line vs §1.3 last line; polis.md §7.3.9."""
    for siege, left in (("diceless", 0), ("diceless_sacrifice", 1)):
        st = scenario(
            siege,
            units={(ATHENS, "boiotia"): 3},
            pp=(3, 3),
            res={ATHENS: {"wheat": 20}, SPARTA: {"wheat": 20}},
        )
        do(st, A.StartSiege("thebai"))
        if st.phase == DS_FORCE:
            do(st, A.StopForcing())
        do(st, A.Pass(), A.Pass())  # Sparta passes: both passed, end of round
        while st.phase_name() in ("growth", "phoros"):
            do(st, st.legal_actions()[0])
        assert st.round == 1
        assert st.discs[ATHENS][Q(st, "thebai")] == left


def test_diceless_two_poleis_in_one_territory_with_the_same_hoplites():
    """Seed: one player may besiege both cities of a territory with the same hoplites, separately;
    §7.3.1: start X + start Y is not allowed in one turn, start X + continue Y is."""
    st = scenario("diceless", rnd="4", units={(ATHENS, "sikelia"): 4}, pp=(3, 3))
    do(st, A.StartSiege("gela"))
    acts = st.legal_actions()
    assert A.StartSiege("syrakousai") not in acts  # start X + start Y
    assert A.ContinueSiege("gela") not in acts  # start X + continue X
    st = scenario("diceless", rnd="4", units={(ATHENS, "sikelia"): 4}, pp=(3, 3))
    st.discs[ATHENS][Q(st, "syrakousai")] = 1
    do(st, A.StartSiege("gela"), A.ContinueSiege("syrakousai"))  # start X + continue Y
    assert st.discs[ATHENS][Q(st, "gela")] == 1 and st.discs[ATHENS][Q(st, "syrakousai")] == 2
    st = scenario("diceless", rnd="4", units={(ATHENS, "sikelia"): 4}, pp=(3, 3))
    st.discs[ATHENS][Q(st, "gela")] = 1
    st.discs[ATHENS][Q(st, "syrakousai")] = 1
    do(st, A.ContinueSiege("gela"))  # continue X + continue Y: Gela (F 2) falls, then Syrakousai
    assert st.owner[Q(st, "gela")] == ATHENS
    do(st, A.ContinueSiege("syrakousai"))
    assert st.discs[ATHENS][Q(st, "syrakousai")] == 2


def test_diceless_both_players_besiege_one_territory_and_the_battle_happens():
    """Seed: two players besieging the two cities of a territory; 8+ units there trigger a battle."""
    st = scenario("diceless", rnd="4", units={(ATHENS, "sikelia"): 4, (SPARTA, "sikelia"): 4}, pp=(3, 3))
    do(st, A.StartSiege("gela"), A.Pass())
    assert st.phase_name() == "card draw" and st.battle_at == st.board.terr_index["sikelia"]


# ------------------------------------------------------------------ diceless_sacrifice (seeds-en.md §1.3)
def test_diceless_sacrifice_worked_example_round_5a_fortification_4_with_5_hoplites():
    """Seed: start (−1 PP, 1 disc); a later turn: continue (2 discs), force (−1 PP, −1 hoplite, 3 discs),
    force (−1 PP, −1 hoplite, 4 discs): won with 3 hoplites left."""
    st = scenario("diceless_sacrifice", rnd="5a", units={(ATHENS, "korinthia"): 5}, pp=(6, 6))
    do(st, A.StartSiege("korinthos"))
    assert _state_of(st, "korinthos", "korinthia") == (5, 5, 1, -1, 0)
    assert st.phase == DS_FORCE
    do(st, A.StopForcing())
    assert _state_of(st, "korinthos", "korinthia") == (5, 5, 1, -1, 0)
    # start X + continue X in the same turn is not allowed
    assert A.ContinueSiege("korinthos") not in st.legal_actions()
    do(st, A.MoveProxenos("chalkis"))  # Athens' second action
    do(st, A.MoveProxenos("gythion"), A.RedeemProxenos())  # Sparta's turn
    do(st, A.ContinueSiege("korinthos"))
    assert _state_of(st, "korinthos", "korinthia") == (5, 5, 2, -1, 0)
    do(st, A.ForceSiege())
    assert _state_of(st, "korinthos", "korinthia") == (4, 4, 3, -1, 0)
    do(st, A.ForceSiege())
    # won: no 1-PP loss (paid at the start), +F = 4 PP, discs removed, base population
    assert _state_of(st, "korinthos", "korinthia") == (3 + 4, 3, 0, ATHENS, 4)


def test_diceless_sacrifice_win_in_the_very_first_action_costs_4_pp_and_3_hoplites():
    """Seed: "force 3 times in a row, 4 PP and 3 hoplites in total"."""
    st = scenario("diceless_sacrifice", rnd="5a", units={(ATHENS, "korinthia"): 5}, pp=(6, 6))
    do(st, A.StartSiege("korinthos"))
    steps = [_state_of(st, "korinthos", "korinthia")]
    for _ in range(3):
        do(st, A.ForceSiege())
        steps.append(_state_of(st, "korinthos", "korinthia"))
    # (PP, hoplites, discs, owner, population) after each step
    assert steps == [(5, 5, 1, -1, 0), (4, 4, 2, -1, 0), (3, 3, 3, -1, 0), (2 + 4, 2, 0, ATHENS, 4)]
    assert st.n_actions == 1 and st.phase_name() == "action"  # all of it was one action
    spent_pp = 6 - (st.pp[ATHENS] - 4)
    assert (spent_pp, 5 - hoplites(st, ATHENS, "korinthia")) == (4, 3)


def test_diceless_sacrifice_forcing_an_opponents_polis_costs_it_a_cube_each_time():
    """Seed: "if the city is the opponent's, its population also drops by 1 for each forced disc"."""
    st = scenario(
        "diceless_sacrifice",
        rnd="5a",
        units={(ATHENS, "korinthia"): 5},
        pp=(6, 6),
        owners={"korinthos": SPARTA},
        pop={"korinthos": 4},
    )
    do(st, A.StartSiege("korinthos"))
    assert st.pop[Q(st, "korinthos")] == 4  # the first disc costs no cube
    do(st, A.ForceSiege())
    assert st.pop[Q(st, "korinthos")] == 3
    do(st, A.ForceSiege(), A.ForceSiege())
    assert st.owner[Q(st, "korinthos")] == ATHENS and st.pop[Q(st, "korinthos")] == 1
    assert st.phase == GARRISON  # 1 < base 4
    do(st, A.Garrison(True))
    assert st.pop[Q(st, "korinthos")] == 2 and hoplites(st, ATHENS, "korinthia") == 1


def test_diceless_sacrifice_hoplites_checked_at_end_of_action_unless_forcing_won():
    """Seed: at the end of an action with too few hoplites the discs are removed — unless forcing has just
    reached the fortification, in which case the siege is won anyway."""
    st = scenario("diceless_sacrifice", rnd="4", units={(ATHENS, "korinthia"): 4}, pp=(6, 6))
    do(st, A.StartSiege("korinthos"), A.ForceSiege())
    assert st.discs[ATHENS][Q(st, "korinthos")] == 2 and hoplites(st, ATHENS, "korinthia") == 3
    do(st, A.StopForcing())
    assert st.discs[ATHENS][Q(st, "korinthos")] == 0  # 3 < F 4 at the end of the action
    st = scenario("diceless_sacrifice", rnd="4", units={(ATHENS, "korinthia"): 4}, pp=(6, 6))
    do(st, A.StartSiege("korinthos"), A.ForceSiege(), A.ForceSiege(), A.ForceSiege())
    assert st.owner[Q(st, "korinthos")] == ATHENS and hoplites(st, ATHENS, "korinthia") == 1


def test_diceless_sacrifice_start_costs_1_pp_continue_is_free_and_needs_hoplites():
    st = scenario("diceless_sacrifice", units={(ATHENS, "boiotia"): 3}, pp=(0, 3))
    assert "start_siege" not in legal_kinds(st)  # 1 PP to start
    st.discs[ATHENS][Q(st, "thebai")] = 1
    do(st, A.ContinueSiege("thebai"))  # continuing is free
    assert st.discs[ATHENS][Q(st, "thebai")] == 2 and st.pp[ATHENS] == 0
    st = scenario("diceless_sacrifice", units={(ATHENS, "boiotia"): 3}, pp=(3, 3))
    do(st, A.StartSiege("thebai"))
    with pytest.raises(IllegalActionError):
        do(st, A.StartSiege("naupaktos"))  # still in the forcing tail of the first action


def test_siege_actions_cost_one_extra_resource_after_the_opponent_passed():
    st = scenario("classic", units={(ATHENS, "boiotia"): 3}, pp=(3, 3), res={ATHENS: {"oil": 1}})
    st.passed[SPARTA] = True
    do(st, A.Besiege("thebai"), A.SiegeRoll(4))
    assert st.phase_name() == "extra resource"
    assert A.PayExtra("oil") in st.legal_actions()


def _empty_pool(st, side: int) -> None:
    """Spend every cube of `side`'s pool on units spread over the map (3 a territory at most)."""
    from hegemon.games.polis.rules import common

    free = common.pool(st, side)
    for t in range(st.board.n_terr):
        if free <= 0:
            break
        add = min(3 - st.units[side][t], free)
        if add > 0:
            st.units[side][t] += add
            free -= add
    assert common.pool(st, side) == 0


@pytest.mark.parametrize("rule", ["diceless", "diceless_sacrifice"])
def test_diceless_empty_pool_refuses_only_the_disc_that_takes_the_polis(rule):
    """N9 (issue 29 item 7): the seed sets no cube condition on a start or continue; only taking the polis
    needs a cube, so with an empty pool the siege may start and go on but not complete."""
    st = scenario(rule, units={(ATHENS, "boiotia"): 3}, pp=(3, 3))
    _empty_pool(st, ATHENS)
    acts = st.legal_actions()
    assert A.StartSiege("thebai") in acts  # F 3: the first disc takes nothing
    st.discs[ATHENS][Q(st, "thebai")] = 2
    assert A.ContinueSiege("thebai") not in st.legal_actions()  # the third disc would take it
    st.discs[ATHENS][Q(st, "thebai")] = 1
    assert A.ContinueSiege("thebai") in st.legal_actions()


def test_diceless_sacrifice_empty_pool_forcing_stops_before_the_completing_disc():
    st = scenario("diceless_sacrifice", units={(ATHENS, "boiotia"): 3}, pp=(3, 3))
    _empty_pool(st, ATHENS)
    st.discs[ATHENS][Q(st, "thebai")] = 1
    do(st, A.ContinueSiege("thebai"))  # the second disc of three takes nothing
    # forcing the third would take the polis, which needs a cube: no forcing offered
    assert st.phase != DS_FORCE and st.discs[ATHENS][Q(st, "thebai")] == 2
    assert st.owner[Q(st, "thebai")] == -1


def test_dice_sieges_still_need_a_cube_up_front():
    st = scenario("classic", units={(ATHENS, "boiotia"): 3}, pp=(3, 3))
    assert A.Besiege("thebai") in st.legal_actions()
    _empty_pool(st, ATHENS)
    assert A.Besiege("thebai") not in st.legal_actions()
