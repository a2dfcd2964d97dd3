"""The text board (`text.render`) and the player views (`state.view`): what each side may see (§6.7)."""

from __future__ import annotations

import json

from hegemon.games.polis import actions as A
from hegemon.games.polis.text import describe_action, render

from .fixtures import ATHENS, SPARTA, Q, do, scenario


def _battle_state():
    st = scenario(rnd="4", to_move=SPARTA, pp=(3, 5), units={(ATHENS, "boiotia"): 4, (SPARTA, "megaris"): 4})
    do(st, A.MoveHoplites("boiotia"), A.MoveFrom("megaris", 4), A.EndMove(), A.MoveProxenos("gythion"))
    for c in ("phalanx:2", "charge:1", "skirmish:0", "flank:1"):
        do(st, A.DrawCard(SPARTA, c))
    for c in ("phalanx:1", "flank:0", "skirmish:2", "skirmish:1"):
        do(st, A.DrawCard(ATHENS, c))
    return st


def test_render_shows_the_board_and_only_the_viewers_hand():
    st = _battle_state()
    st.discs[ATHENS][Q(st, "thebai")] = 1
    text = render(st, ATHENS)
    for needle in (
        "round 4",
        "Athinae",
        "Korinthos",
        "F4",
        "siege ATH:1/3",
        "Boiotia",
        "Market values",
        "Project offer",
        "Battle in Boiotia",
        "Your hand (athens)",
        "skirmish:2",
        "PP",
    ):
        assert needle in text, needle
    assert "charge:1" not in text  # Sparta's card
    assert "Your hand" not in render(st, None)
    assert "charge:1" in render(st, SPARTA)


def test_views_show_own_hand_and_legal_actions_only_on_own_turn():
    st = _battle_state()
    assert st.current_player() == SPARTA
    vs, va, vn = st.view(SPARTA), st.view(ATHENS), st.view(None)
    assert sorted(vs["hand"]) == sorted(["phalanx:2", "charge:1", "skirmish:0", "flank:1"])
    assert sorted(va["hand"]) == sorted(["phalanx:1", "flank:0", "skirmish:2", "skirmish:1"])
    assert "hand" not in vn and "legal_actions" not in va and "legal_actions" not in vn
    assert vs["legal_actions"] == [a.to_json() for a in st.legal_actions()]
    assert vs["phase"] == "retreat" and vs["current_player"] == SPARTA
    blob = json.dumps(va)
    assert "charge:1" not in blob and "deck" in json.dumps(va["battle"])
    json.dumps(st.to_json())  # the full state is JSON-ready


def test_describe_action_is_readable():
    assert (
        describe_action(A.CreateHoplites("athinae", 2, 1))
        == "create 2 hoplite(s) at athinae (pay 1 metal + 1 silver)"
    )
    assert "diceless" not in describe_action(A.StartSiege("argos")) and "argos" in str(A.StartSiege("argos"))
