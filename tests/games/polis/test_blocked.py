"""Why an action a player looks for is not possible now (the web table shows it instead of "nothing you can do
here"): hand-built positions whose reason is known, and no reason ever given for an action that is legal."""

from __future__ import annotations

import random

from hegemon.core.game import CHANCE, TERMINAL
from hegemon.games.polis import actions as A
from hegemon.games.polis.blocked import blocked
from hegemon.games.polis.game import GAME
from hegemon.games.polis.rules.common import ACTION

from .fixtures import ATHENS, SPARTA, do, scenario

POOR = {"metal": 0, "wood": 0, "wine": 0, "oil": 0, "wheat": 0, "silver": 0}


def test_an_unaffordable_project_names_what_is_missing() -> None:
    st = scenario(res={ATHENS: POOR})
    r = blocked(st, st.legal_actions())
    assert r is not None
    offer = [st.board.project_ids[p] for p in st.offer]
    assert set(r["projects"]) == set(offer)  # none is affordable: every one explained, none vanishes
    for pid in offer:
        why = r["projects"][pid]
        assert why["why"] == "cost"
        assert why["missing"] == why["cost"]  # nothing in store: all of it is missing


def test_a_second_project_in_one_turn_is_a_different_action_refusal() -> None:
    rich = {"metal": 9, "wood": 9, "wine": 9, "oil": 9, "wheat": 9, "silver": 9}
    st = scenario(res={ATHENS: rich})
    start = next(a for a in st.legal_actions() if a.kind == "start_project")
    do(st, start)
    r = blocked(st, st.legal_actions())
    assert r is not None
    assert r["projects"] and all(w["why"] == "different" for w in r["projects"].values())


def test_a_siege_short_of_hoplites_says_how_many() -> None:
    st = scenario(units={(ATHENS, "korinthia"): 2}, rnd="4")
    r = blocked(st, st.legal_actions())
    assert r is not None
    f = st.board.p_fort[st.board.polis_index["korinthos"]]
    assert {"kind": "besiege", "polis": "korinthos", "why": "hoplites", "need": f, "have": 2} in r["places"][
        "korinthos"
    ]


def test_hoplites_at_the_stacking_limit() -> None:
    st = scenario(units={(ATHENS, "attika"): 3}, res={ATHENS: {"metal": 5}})
    r = blocked(st, st.legal_actions())
    assert r is not None
    assert {"kind": "create_hoplites", "why": "stack", "limit": 3} in r["places"]["athinae"]


def test_no_metal_nor_silver() -> None:
    st = scenario(clear_units=True, res={ATHENS: POOR})
    r = blocked(st, st.legal_actions())
    assert r is not None
    assert {"kind": "create_hoplites", "why": "cost", "missing": {"metal": 1}} in r["places"]["athinae"]


def test_no_reasons_outside_the_action_phase_of_ones_turn() -> None:
    st = scenario(to_move=SPARTA, pp=(5, 2), res={SPARTA: {"wheat": 6}}, pop={"sparti": 5})
    while st.phase == ACTION:
        do(st, A.Pass())
    assert blocked(st, st.legal_actions()) is None


def test_a_legal_action_is_never_explained_away_in_random_games() -> None:
    rng = random.Random(3)
    seen = 0
    for seed in range(2):
        st = GAME.new_game({"siege": ("classic", "diceless_sacrifice")[seed]}, seed)
        for _ in range(800):
            cp = st.current_player()
            if cp == TERMINAL:
                break
            if cp == CHANCE:
                st.apply(st.sample_chance(rng))
                continue
            legal = st.legal_actions()
            r = blocked(st, legal)
            if r is not None:
                seen += len(r["places"]) + len(r["projects"])
                assert not {a.project for a in legal if a.kind == "start_project"} & set(r["projects"])
                for place, items in r["places"].items():
                    for it in items:
                        assert it["why"] != "other" or it["kind"] != "collect", (place, it)
                        assert not any(a.kind == it["kind"] and place in (getattr(a, "polis", None), getattr(a, "territory", None))
                                       for a in legal)  # fmt: skip
            st.apply(rng.choice(legal))
    assert seen > 30
