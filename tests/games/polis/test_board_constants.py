"""Every `[constants]` entry of the Polis board file takes effect (issue 14 item 6): each test writes a board
with one constant changed, plays the rule it governs and sees the change (next to the shipped value), and an
entry the engine does not read, or a string where a number belongs, is refused naming its entry."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hegemon.core.errors import RulesDataError
from hegemon.games.polis import actions as A
from hegemon.games.polis.board import CONSTANTS, DEFAULT_BOARD, RES, load_board
from hegemon.games.polis.rules import common, flow, proxenos
from hegemon.games.polis.rules.common import EXTRA

from .fixtures import ATHENS, SPARTA, Q, T, do, fresh, legal_kinds, scenario


def board_with(tmp_path: Path, **values: str) -> str:
    """A copy of the shipped board with `name = { value = <TOML>, ...}` replaced for every given constant."""
    text = DEFAULT_BOARD.read_text(encoding="utf-8")
    for name, toml in values.items():
        text, n = re.subn(
            rf"^({name} = \{{ value = ).*?(, provenance)", lambda m, v=toml: m.group(1) + v + m.group(2), text,
            count=1, flags=re.M,
        )  # fmt: skip
        assert n == 1, name
    path = tmp_path / f"board-{'-'.join(values)}.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_every_constant_in_the_shipped_file_is_one_the_engine_reads():
    raw = load_board().raw["constants"]
    assert set(raw) == set(CONSTANTS)
    assert "battle_cards_per_attack" not in raw  # fixed by the action format (two cards), not a constant


def test_an_unknown_constant_is_refused_naming_it(tmp_path):
    text = DEFAULT_BOARD.read_text(encoding="utf-8").replace(
        "[constants]\n",
        '[constants]\nbattle_cards_per_attack = { value = 3, provenance = "attested:SEED" }\n',
    )
    path = tmp_path / "b.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesDataError, match=r"constants\.battle_cards_per_attack.*unknown constant"):
        load_board(path)


@pytest.mark.parametrize(
    ("name", "bad", "entry"),
    [
        ("redeem_silver", '"2"', "constants.redeem_silver"),
        ("cubes_per_side", '"forty"', "constants.cubes_per_side"),
        ("military_action_prestige", "1.5", "constants.military_action_prestige"),
        ("siege_die_sides", "0", "constants.siege_die_sides"),
        ("min_polis_population", "99", "constants.min_polis_population"),
        ("unit_cost", '{ hoplite = "silver", galley = "wood", merchant = "wood" }', "constants.unit_cost"),
        ("storage_halved", '["oil", "gold"]', "constants.storage_halved"),
    ],
)
def test_a_bad_constant_value_names_its_entry(tmp_path, name, bad, entry):
    with pytest.raises(RulesDataError) as e:
        load_board(board_with(tmp_path, **{name: bad}))
    assert e.value.entry == entry


def test_a_string_where_a_number_belongs_elsewhere_names_its_entry(tmp_path):
    text = DEFAULT_BOARD.read_text(encoding="utf-8")
    for old, new, entry in (
        ("wheat = 4", 'wheat = "4"', "setup.athens.resources"),
        ("attika = 3,", 'attika = "3",', "setup.athens.hoplites.attika"),
    ):
        assert old in text
        path = tmp_path / "b.toml"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        with pytest.raises(RulesDataError) as e:
            load_board(path)
        assert e.value.entry == entry


# ---------------------------------------------------------------------------------------- the constants
def test_cubes_per_side(tmp_path):
    assert (
        common.pool(fresh(board=board_with(tmp_path, cubes_per_side="50")), ATHENS)
        == common.pool(fresh(), ATHENS) + 5
    )


def test_merchant_ships_per_side(tmp_path):
    def merchants(**opts):
        st = scenario(to_move=ATHENS, res={ATHENS: {"wood": 9}}, **opts)
        return max(a.count for a in st.legal_actions() if isinstance(a, A.CreateMerchants))

    assert merchants() == 3  # athinae's 4 cubes − 1 (six ships, one in use)
    assert merchants(board=board_with(tmp_path, merchant_ships_per_side="2")) == 1


def test_resource_maximum(tmp_path):
    def after_collect(**opts):
        st = scenario(rnd="5a", to_move=ATHENS, pp=(3, 3), units={(ATHENS, "attika"): 5},
                      res={ATHENS: {"oil": 4, "silver": 0}}, **opts)  # fmt: skip
        do(st, A.Collect("attika"))  # oil, silver, wine, oil, silver
        return st.res[ATHENS][RES["oil"]], st.res[ATHENS][RES["silver"]]

    assert after_collect() == (6, 2)
    assert after_collect(board=board_with(tmp_path, resource_maximum="5")) == (5, 2)


def test_min_polis_population(tmp_path):
    def creatable(**opts):
        st = scenario(to_move=ATHENS, res={ATHENS: {"metal": 9}}, clear_units=True, **opts)
        return {
            (a.polis, a.count) for a in st.legal_actions() if isinstance(a, A.CreateHoplites) and not a.silver
        }

    assert ("chalkis", 1) in creatable() and ("athinae", 3) in creatable()
    got = creatable(board=board_with(tmp_path, min_polis_population="2"))
    assert not any(p == "chalkis" for p, _ in got) and ("athinae", 2) in got and ("athinae", 3) not in got


def test_military_action_prestige(tmp_path):
    path = board_with(tmp_path, military_action_prestige="2")
    assert "move_hoplites" in legal_kinds(scenario(to_move=ATHENS, pp=(1, 3)))
    assert "move_hoplites" not in legal_kinds(scenario(to_move=ATHENS, pp=(1, 3), board=path))
    st = do(scenario(to_move=ATHENS, pp=(3, 3), board=path), A.MoveHoplites("megaris"))
    assert st.pp[ATHENS] == 1
    # a collection away from home is a military action too
    st = scenario(to_move=ATHENS, pp=(3, 3), units={(ATHENS, "euboia"): 1}, board=path)
    do(st, A.Collect("euboia"))
    assert st.pp[ATHENS] == 1


def test_home_collection_prestige(tmp_path):
    st = do(scenario(to_move=ATHENS, pp=(3, 3)), A.Collect("attika"))
    assert st.pp[ATHENS] == 3
    st = do(scenario(to_move=ATHENS, pp=(3, 3), board=board_with(tmp_path, home_collection_prestige="1")),
            A.Collect("attika"))  # fmt: skip
    assert st.pp[ATHENS] == 2


def test_extra_resource_after_opponent_passed(tmp_path):
    def after_opponent_passed(**opts):
        st = scenario(to_move=SPARTA, **opts)
        do(st, A.Pass())
        assert st.active == ATHENS
        do(st, A.Collect("attika"))
        return st

    st = after_opponent_passed()
    assert st.phase == EXTRA
    do(st, A.PayExtra("wine"))
    assert st.phase_name() == "action"
    st = after_opponent_passed(board=board_with(tmp_path, extra_resource_after_opponent_passed="2"))
    do(st, A.PayExtra("wine"))
    assert st.phase == EXTRA  # one more to pay
    do(st, A.PayExtra("oil"))
    assert st.phase_name() == "action" and st.res[ATHENS][RES["wine"]] == 4 + 1 - 1
    st = after_opponent_passed(board=board_with(tmp_path, extra_resource_after_opponent_passed="0"))
    assert st.phase_name() == "action"


def test_unit_cost(tmp_path):
    path = board_with(tmp_path, unit_cost='{ hoplite = "wine", galley = "wood", merchant = "wood" }')
    st = scenario(
        to_move=ATHENS, res={ATHENS: {"metal": 0, "wine": 2, "silver": 0}}, clear_units=True, board=path
    )
    do(st, A.CreateHoplites("athinae", 2, 0))
    assert st.res[ATHENS][RES["wine"]] == 0
    st = scenario(to_move=ATHENS, res={ATHENS: {"metal": 0, "wine": 2, "silver": 0}})
    assert "create_hoplites" not in legal_kinds(st)


def test_siege_die_sides(tmp_path):
    def siege(**opts):
        st = scenario(to_move=ATHENS, pp=(3, 3), units={(ATHENS, "megaris"): 3}, **opts)
        return do(st, A.Besiege("megara"))

    assert [p for _, p in siege().chance_outcomes()] == [0.25] * 4
    st = siege(board=board_with(tmp_path, siege_die_sides="6"))
    outs = st.chance_outcomes()
    assert [a.roll for a, _ in outs] == [1, 2, 3, 4, 5, 6] and sum(p for _, p in outs) == pytest.approx(1)
    do(st, A.SiegeRoll(6))
    assert st.owner[Q(st, "megara")] == ATHENS


def _battle_ready(**opts):
    st = scenario(rnd="5a", to_move=ATHENS, pp=(3, 3), clear_units=True, units={(ATHENS, "attika"): 4, (SPARTA, "megaris"): 3,
                  (ATHENS, "megaris"): 1}, **opts)  # fmt: skip
    return do(st, A.MoveHoplites("megaris"), A.MoveFrom("attika", 3), A.EndMove(), A.Pass())


def test_battle_threshold_units(tmp_path):
    assert _battle_ready().phase_name() == "action"  # 7 units: no battle
    assert _battle_ready(board=board_with(tmp_path, battle_threshold_units="7")).phase_name() == "card draw"


def test_battle_hand_size(tmp_path):
    st = _battle_ready(board=board_with(tmp_path, battle_threshold_units="7", battle_hand_size="3"))
    assert len(st.draw_queue) == 6


def test_battle_min_units(tmp_path):
    def after_one_exchange(**opts):
        st = _battle_ready(board=board_with(tmp_path, battle_threshold_units="7", **opts))
        while st.phase_name() == "card draw":
            do(st, st.legal_actions()[0] if st.legal_actions() else st.chance_outcomes()[0][0])
        do(st, A.Stand(), A.Stand())
        do(st, st.legal_actions()[0])  # play
        m = [a for a in st.legal_actions() if isinstance(a, A.Match) and not a.first and not a.second]
        return do(st, m[0])  # no match: the defender loses two hoplites

    assert (
        after_one_exchange().phase_name() == "card draw"
    )  # Athens 2, Sparta 3: both keep ≥ 2, the battle goes on
    assert after_one_exchange(battle_min_units="4").battle_at == -1  # a side is below 4: the battle is over


def test_project_offer_size(tmp_path):
    st = GAME_new(board=board_with(tmp_path, project_offer_size="2"))
    assert st.projects_to_draw == 2 and GAME_new().projects_to_draw == 3


def GAME_new(**opts):
    from hegemon.games.polis.game import GAME

    return GAME.new_game(opts)


def test_first_player_tie_round_3(tmp_path):
    assert fresh().active == SPARTA
    assert fresh(board=board_with(tmp_path, first_player_tie_round_3='"athens"')).active == ATHENS


def test_retreat_prestige(tmp_path):
    def retreat(**opts):
        st = _battle_ready(board=board_with(tmp_path, battle_threshold_units="7", **opts))
        while st.phase_name() == "card draw":
            do(st, st.chance_outcomes()[0][0])
        r = [a for a in st.legal_actions() if isinstance(a, A.Retreat)]
        s = st.active
        do(st, r[0])
        return st.pp[s], st.pp[1 - s]

    assert retreat() == (2, 3)  # Sparta (3 PP) retreats first; Athens paid 1 PP for its move
    assert retreat(retreat_prestige="2") == (1, 4)


def test_bribe_silver_per_enemy_unit(tmp_path):
    def cost(**opts):
        st = scenario(to_move=ATHENS, **opts)
        return proxenos.bribe_costs(st, ATHENS, T(st, "attika"))[T(st, "lakedaemon")]

    assert cost(board=board_with(tmp_path, bribe_silver_per_enemy_unit="3")) == 3 * cost() > 0


def test_redeem_silver(tmp_path):
    def redeem(**opts):
        st = scenario(to_move=ATHENS, res={ATHENS: {"silver": 5}, SPARTA: {"silver": 0}}, **opts)
        st.proxenos[ATHENS] = Q(st, "korinthos")
        do(st, A.RedeemProxenos())
        return st.res[ATHENS][RES["silver"]], st.res[SPARTA][RES["silver"]]

    assert redeem() == (3, 2)
    assert redeem(board=board_with(tmp_path, redeem_silver="4")) == (1, 4)


def test_civil_war_multipliers(tmp_path):
    def silver_left(owner, **opts):
        st = scenario(to_move=ATHENS, res={ATHENS: {"silver": 20}}, owners={"megara": owner}, **opts)
        st.proxenos[ATHENS] = Q(st, "megara")  # base 2
        do(st, A.CivilWar("megara"))
        return st.res[ATHENS][RES["silver"]]

    assert silver_left(-1) == 16 and silver_left(SPARTA) == 14
    path = board_with(tmp_path, civil_war_neutral_multiplier="5", civil_war_opponent_multiplier="4")
    assert silver_left(-1, board=path) == 10 and silver_left(SPARTA, board=path) == 12


def _round_end(stage, **opts):
    st = scenario(to_move=ATHENS, pp=(5, 5), **opts)
    st.round_end_stage = stage
    flow.proceed(st)
    return st


def test_supply_wheat_per_cube(tmp_path):
    st = _round_end(flow.S_SUPPLY_A, res={ATHENS: {"wheat": 20}, SPARTA: {"wheat": 20}})
    assert st.res[ATHENS][RES["wheat"]] == 20 - 8  # 4 + 2 + 2 cubes
    st = _round_end(flow.S_SUPPLY_A, res={ATHENS: {"wheat": 20}, SPARTA: {"wheat": 20}},
                    board=board_with(tmp_path, supply_wheat_per_cube="2"))  # fmt: skip
    assert st.res[ATHENS][RES["wheat"]] == 20 - 16


def test_growth_wheat_per_cube(tmp_path):
    path = board_with(tmp_path, growth_wheat_per_cube="3")
    st = _round_end(flow.S_GROWTH_A, res={ATHENS: {"wheat": 3}}, board=path)
    assert st.active == ATHENS and st.phase_name() == "growth"
    do(st, A.Grow("athinae"))
    assert st.res[ATHENS][RES["wheat"]] == 0 and st.pop[Q(st, "athinae")] == 5
    st = _round_end(flow.S_GROWTH_A, res={ATHENS: {"wheat": 2}, SPARTA: {"wheat": 2}}, board=path)
    assert st.phase_name() != "growth"  # 2 wheat cannot grow a cube that costs 3


def test_megalopolis_prestige_per_polis(tmp_path):
    st = _round_end(flow.S_MEGA, pop={"athinae": 6, "chalkis": 3})
    assert st.pp[ATHENS] == 5 + 2
    st = _round_end(flow.S_MEGA, pop={"athinae": 6, "chalkis": 3},
                    board=board_with(tmp_path, megalopolis_prestige_per_polis="3"))  # fmt: skip
    assert st.pp[ATHENS] == 5 + 6


def test_storage_halved(tmp_path):
    st = _round_end(flow.S_MEGA, res={ATHENS: {"metal": 5, "oil": 5}})
    assert (st.res[ATHENS][RES["metal"]], st.res[ATHENS][RES["oil"]]) == (5, 3)
    st = _round_end(flow.S_MEGA, res={ATHENS: {"metal": 5, "oil": 5}},
                    board=board_with(tmp_path, storage_halved='["metal"]'))  # fmt: skip
    assert (st.res[ATHENS][RES["metal"]], st.res[ATHENS][RES["oil"]]) == (3, 5)


def test_phoros_prestige_to_silver(tmp_path):
    def phoros(**opts):
        st = _round_end(flow.S_PHOROS_A, res={ATHENS: {"silver": 0}, SPARTA: {"silver": 0}}, **opts)
        s = st.active
        do(st, A.Phoros(2))
        return st.res[s][RES["silver"]]

    assert phoros() == 2
    assert phoros(board=board_with(tmp_path, phoros_prestige_to_silver="3")) == 6
