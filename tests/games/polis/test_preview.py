"""The cost and effect of each legal action, computed by the rules on a clone (what the web table writes on
its buttons and uses to ask for a confirmation)."""

from __future__ import annotations

import random

from hegemon.core.game import CHANCE, TERMINAL
from hegemon.games.polis import actions as A
from hegemon.games.polis.game import GAME
from hegemon.games.polis.preview import effect, effects
from hegemon.games.polis.rules.common import population
from tests.games.polis.fixtures import ATHENS, scenario


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
            assert st.pp[cp] - before[0] == e.get("prestige", 0)
            assert population(st, cp) - before[1] == e.get("population", 0)
            if st.current_player() == TERMINAL:
                assert "game_over" in e and e["game_over"]["reason"] == st.end_reason
    assert checked > 50
