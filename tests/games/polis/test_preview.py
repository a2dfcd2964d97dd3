"""The cost and effect of each legal action, computed by the rules on a clone (what the web table writes on
its buttons and uses to ask for a confirmation)."""

from __future__ import annotations

import random

from hegemon.core.game import CHANCE, TERMINAL
from hegemon.games.polis import actions as A
from hegemon.games.polis.board import RESOURCES
from hegemon.games.polis.game import GAME
from hegemon.games.polis.preview import effect, effects
from hegemon.games.polis.rules.common import population
from tests.games.polis.fixtures import ATHENS, SPARTA, do, scenario


def test_creating_a_hoplite_names_its_cube_and_its_metal() -> None:
    st = scenario(res={ATHENS: {"metal": 3, "silver": 0}})
    a = next(a for a in st.legal_actions() if a.kind == "create_hoplites" and a.count == 1 and a.silver == 0)
    e = effect(st, a)
    assert e == {"population": -1, "hoplites": 1, "resources": {"metal": -1}}


def test_moving_with_the_last_prestige_warns_of_ostracism() -> None:
    st = scenario(pp=(1, 5))
    moves = [a for a in st.legal_actions() if a.kind == "move_hoplites"]
    assert moves
    e = effect(st, moves[0])
    assert e is not None and e["prestige"] == -1 and e["ostracism"] is True


def test_with_prestige_to_spare_there_is_no_warning() -> None:
    st = scenario(pp=(4, 5))
    e = effect(st, next(a for a in st.legal_actions() if a.kind == "move_hoplites"))
    assert e is not None and e["prestige"] == -1 and "ostracism" not in e


def test_a_combat_card_play_is_never_previewed() -> None:
    st = scenario()
    assert effect(st, A.PlayCards("phalanx:1", "phalanx:2")) is None


def test_effects_match_what_the_action_does_in_random_games() -> None:
    """Over random games, every previewed change is the real change once the action is played."""
    rng = random.Random(7)
    checked = 0
    for seed in range(3):
        st = GAME.new_game(None, seed)
        for _ in range(1500):
            cp = st.current_player()
            if cp == TERMINAL:
                break
            if cp == CHANCE:
                st.apply(st.sample_chance(rng))
                continue
            legal = st.legal_actions()
            eff = effects(st, legal)
            assert len(eff) == len(legal)
            i = rng.randrange(len(legal))
            before = (st.pp[cp], population(st, cp), list(st.res[cp]))
            st.apply(legal[i])
            e = eff[i]
            if e is None:
                continue
            checked += 1
            # the action's own numbers, the round's automatic steps after it and a capture's reward add up
            rnd = e.get("round", {})
            reward = e.get("reward", {}).get("prestige", 0)
            assert st.pp[cp] - before[0] == e.get("prestige", 0) + rnd.get("prestige", 0) + reward
            for k, n in enumerate(st.res[cp]):
                name = RESOURCES[k]
                assert n - before[2][k] == e.get("resources", {}).get(name, 0) + rnd.get("resources", {}).get(
                    name, 0
                )
            assert population(st, cp) - before[1] == e.get("population", 0)
            if st.current_player() == TERMINAL:
                assert "game_over" in e and e["game_over"]["reason"] == st.end_reason
    assert checked > 50


# ---------------------------------------------------------------- what the action costs, apart from the round
def test_the_last_pass_shows_no_end_of_round_projects_as_its_effect() -> None:
    """Athens starts a project and passes; Sparta's pass then ends the action phase. The project's prestige (to
    Athens, Sparta's opponent) is the round's doing, reported under `round`, not the pass's effect."""
    rich = {"metal": 9, "wood": 9, "wine": 9, "oil": 9, "wheat": 30, "silver": 9}
    st = scenario(to_move=ATHENS, pp=(5, 5), res={ATHENS: rich, SPARTA: {"wheat": 30}})
    start = next(a for a in st.legal_actions() if a.kind == "start_project")
    do(st, start, A.Pass())
    assert st.active == SPARTA
    p = st.board.project_index[start.project]
    e = effect(st, A.Pass())
    assert e is not None
    assert "prestige" not in e and "opponent_prestige" not in e
    assert e["round"]["opponent_prestige"] == st.board.pr_immediate[p]
    # Sparta's supply paid in full (wheat) and the storage halving are the round's too, never the pass's
    assert "resources" not in e
    assert e["round"]["resources"]["wheat"] < 0


def test_a_pass_that_does_not_end_the_round_has_no_round_part() -> None:
    st = scenario(to_move=ATHENS, pp=(5, 5))
    e = effect(st, A.Pass())
    assert e == {}


def test_the_last_growth_costs_one_wheat_and_the_storage_halving_is_the_rounds() -> None:
    """Growth: 1 wheat, 1 cube. When it is the last growth the end of round goes on by itself (megalopolis,
    storage halved): those numbers are under `round`, not the Grow's cost."""
    st = scenario(to_move=ATHENS, pp=(5, 5), res={ATHENS: {"wheat": 20, "wine": 6, "oil": 6}})
    st.res[SPARTA][RESOURCES.index("wheat")] = population(
        st, SPARTA
    )  # Sparta pays its supply and cannot grow
    do(st, A.Pass(), A.Pass())
    while st.phase_name() != "growth" or st.active != ATHENS:
        acts = st.legal_actions()
        do(st, next((a for a in acts if a.kind in ("end_growth", "pay_supply")), acts[0]))
    last = None
    for _ in range(40):
        grows = [a for a in st.legal_actions() if a.kind == "grow"]
        c = st.clone()
        c.apply(grows[0])
        if c.phase_name() != "growth" or c.active != ATHENS:
            last = grows[0]
            break
        do(st, grows[0])
    assert last is not None
    e = effect(st, last)
    assert e is not None
    assert e["resources"] == {"wheat": -1} and e["population"] == 1
    assert e["round"]["resources"]["wine"] == -3 and e["round"]["resources"]["oil"] == -3


def test_forcing_shows_its_real_price_and_the_capture_reward_apart() -> None:
    """Diceless Sacrifice, F 4 (Korinthos): the last forced marker costs 1 prestige and 1 hoplite and takes the
    polis for +4 prestige; the preview says both, never a netted +3."""
    st = scenario("diceless_sacrifice", rnd="5a", units={(ATHENS, "korinthia"): 5}, pp=(6, 6))
    do(st, A.StartSiege("korinthos"), A.ForceSiege(), A.ForceSiege())
    e = effect(st, A.ForceSiege())
    assert e is not None
    assert e["prestige"] == -1 and e["hoplites"] == -1
    assert e["reward"] == {"polis": "korinthos", "prestige": 4}
    assert e["gained"] == ["korinthos"]
    # a marker that does not take the polis: the price alone
    st2 = scenario("diceless_sacrifice", rnd="5a", units={(ATHENS, "korinthia"): 5}, pp=(6, 6))
    do(st2, A.StartSiege("korinthos"))
    assert effect(st2, A.ForceSiege()) == {"prestige": -1, "hoplites": -1}


def test_a_diceless_capture_pays_1_prestige_and_earns_its_fortification() -> None:
    st = scenario("diceless", rnd="5a", units={(ATHENS, "korinthia"): 5}, pp=(6, 6))
    st.discs[ATHENS][st.board.polis_index["korinthos"]] = 3
    e = effect(st, A.ContinueSiege("korinthos"))
    assert e is not None and e["prestige"] == -1 and e["reward"]["prestige"] == 4


def test_a_battle_card_answer_is_previewed_from_the_cards_on_the_table_alone() -> None:
    """§6.8: Sparta plays Phalanx 2 + Charge 1; Athens' answer Phalanx 1 + nothing costs it 1 hoplite and gives
    Sparta 2 prestige. The answer is resolved with the cards on the table and Athens' own hand only: the
    preview is the same whatever Sparta still holds."""
    from tests.games.polis.test_battle import _boiotia_battle, _deal

    def position(sparta_rest: list[str]) -> object:
        st = _boiotia_battle()
        _deal(st, SPARTA, ["phalanx:2", "charge:1", *sparta_rest])
        _deal(st, ATHENS, ["phalanx:1", "flank:0", "skirmish:2", "skirmish:1"])
        do(st, A.Stand(), A.Stand(), A.PlayCards("phalanx:2", "charge:1"))
        return st

    a = position(["skirmish:0", "flank:1"])
    b = position(["flank:2", "charge:2"])
    ea = effect(a, A.Match("phalanx:1", ""))  # type: ignore[arg-type]  # a PolisState
    assert ea == {"hoplites": -1, "opponent_prestige": 2, "then": "card draw"}
    assert effect(b, A.Match("phalanx:1", "")) == ea  # type: ignore[arg-type]  # a PolisState
    assert effect(a, A.Match("", "")) == {"hoplites": -2, "opponent_prestige": 3, "then": "card draw"}  # type: ignore[arg-type]  # a hand-built Match, not a parsed action
