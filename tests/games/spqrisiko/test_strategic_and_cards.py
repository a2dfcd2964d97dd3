"""Phase 7, the strategic move [R 15], phase 8, the card draw [R 17] with the reshuffle [R 8.9] and U12, and
hidden information: `view(state, p)` shows p's own hand only (spqrisiko.md B 4.9, B 4.10, issue §3)."""

from __future__ import annotations

import json

import pytest

from hegemon.core.errors import IllegalActionError
from hegemon.core.game import CHANCE
from hegemon.core.play import play
from hegemon.games.spqrisiko import actions as A
from tests.games.spqrisiko.fixtures import armies, fight, goto, of_kind, phase, scenario


def strat(provinces: dict, place: str = "creta", **kw: object) -> object:
    st = scenario(provinces={"creta": (0, 2), "cipro": (1, 2), **provinces}, **kw)
    return goto(st, "strategic", place=place)


def moves(st: object) -> set[tuple[str, str]]:
    return {(a.source, a.dest) for a in of_kind(st, A.Fortify)}


def test_r_15_1_one_move_to_a_land_adjacent_own_province() -> None:
    """[R 15.1], [R 15.5]: one move between two own provinces."""
    st = strat({"italia": (0, 5), "cisalpina": (0, 4), "noricum": (0, 1)})
    m = moves(st)
    assert ("italia", "cisalpina") in m and ("cisalpina", "noricum") in m
    assert ("italia", "noricum") not in m  # no chaining through provinces
    play(st, A.Fortify("italia", "cisalpina"))
    assert {a.count for a in of_kind(st, A.Move)} == {1, 2, 3, 4}  # Italia borders no enemy: 1 stays
    play(st, A.Move(4))
    assert (armies(st, "italia"), armies(st, "cisalpina")) == (1, 8)


def test_r_15_6_the_strategic_move_ends_the_players_actions() -> None:
    st = strat({"italia": (0, 5), "cisalpina": (0, 2), "noricum": (0, 4)})
    play(st, A.Fortify("italia", "cisalpina"))
    play(st, A.Move(1))
    assert st.current_player() == 1  # no card: nothing conquered; the next player's turn


def test_r_14_2_strategic_move_leaves_two_in_a_frontier_province() -> None:
    st = strat({"cisalpina": (0, 5), "italia": (0, 1)})
    play(st, A.Fortify("cisalpina", "italia"))
    assert {a.count for a in of_kind(st, A.Move)} == {1, 2, 3}


def test_r_15_2_across_one_sea_only_if_strictly_controlled() -> None:
    """[R 15.2], [R 15.4]: across one sea area where the player has more triremes than every other player."""
    base = {"sicilia": (0, 5), "sardinia": (0, 1), "creta": (0, 2)}
    st = strat(base, triremes={("tyrrenum", 0): 2, ("tyrrenum", 1): 1})
    assert ("sicilia", "sardinia") in moves(st)
    st = strat(base, triremes={("tyrrenum", 0): 2, ("tyrrenum", 1): 2, ("ionium", 0): 1})
    assert ("sicilia", "sardinia") not in moves(st)
    assert ("sicilia", "creta") in moves(st)  # Ionium is controlled
    st = strat(base, triremes={("ionium", 0): 1, ("tyrrenum", 0): 0})
    assert ("sicilia", "sardinia") not in moves(st)


def test_house_strategic_move_across_one_controlled_sea_not_two() -> None:
    # Baleares and Creta share no sea area: two controlled seas do not make a crossing
    st = strat(
        {"baleares": (0, 5), "sardinia": (0, 1), "creta": (0, 2)},
        place="baleares",
        triremes={("balearicum", 0): 1, ("tyrrenum", 0): 1, ("ionium", 0): 1, ("sinus_gallicus", 0): 1},
    )
    m = moves(st)
    assert ("baleares", "sardinia") in m and ("baleares", "creta") not in m


def test_r_15_3_unlimited_legionaries_with_one_trireme() -> None:
    st = strat({"sicilia": (0, 9), "sardinia": (0, 1)}, triremes={("tyrrenum", 0): 1})
    play(st, A.Fortify("sicilia", "sardinia"))
    assert max(a.count for a in of_kind(st, A.Move)) == 8


def test_r_15_the_strategic_move_is_optional() -> None:
    st = strat({"italia": (0, 5), "cisalpina": (0, 2)})
    play(st, A.DONE)
    assert st.current_player() == 1 and armies(st, "italia") == 5


# ------------------------------------------------------------------------------ card draw [R 17]


def conquest(**kw: object) -> object:
    st = scenario(provinces={"italia": (0, 9), "cisalpina": (1, 1), "noricum": (1, 1), "cipro": (1, 2)}, **kw)
    goto(st, "land_attack", place="italia")
    return st


def end_turn(st: object) -> None:
    """Decline every optional phase left in player 0's turn."""
    while st.current_player() == 0 and A.DONE in st.legal_actions():
        play(st, A.DONE)


def take(st: object, target: str, source: str) -> None:
    play(st, A.Attack(source, target))
    fight(st, ((6, 6, 6), (1,)))
    if phase(st) == "move_in":
        play(st, of_kind(st, A.MoveIn)[-1])


def test_r_17_1_one_card_after_a_conquest() -> None:
    """[R 4.10], [R 4.10.1], [R 17.1]-[R 17.4]: one card, and drawing ends the turn; [R 17.5] the draw is automatic, never forgotten."""
    st = conquest()
    take(st, "cisalpina", "italia")
    end_turn(st)
    assert st.current_player() == CHANCE and phase(st) == "draw"
    outs = st.chance_outcomes()
    assert {a.card: p for a, p in outs} == pytest.approx(
        {"legionary": 25 / 55, "banner": 15 / 55, "trireme": 10 / 55, "arena": 5 / 55}
    )
    assert all(a.player == 0 for a, _ in outs)
    play(st, A.Draw("trireme", 0))
    assert st.hands[0] == [0, 0, 1, 0] and st.deck == [25, 15, 9, 5]
    assert st.current_player() == 1  # drawing ends the turn [R 17.4]


def test_r_17_3_one_card_however_many_conquests() -> None:
    st = conquest()
    take(st, "cisalpina", "italia")
    take(st, "noricum", "cisalpina")
    end_turn(st)
    play(st, A.Draw("banner", 0))
    assert sum(st.hands[0]) == 1 and st.current_player() == 1


def test_r_17_no_card_without_a_conquest() -> None:
    st = conquest()
    end_turn(st)
    assert st.current_player() == 1 and sum(st.hands[0]) == 0


def test_r_17_a_failed_attack_earns_no_card() -> None:
    st = conquest()
    play(st, A.Attack("italia", "cisalpina"))
    fight(st, ((1, 1, 1), (6,)))
    play(st, A.WITHDRAW)
    end_turn(st)
    assert st.current_player() == 1


def test_r_17_a_conquest_by_sea_earns_a_card() -> None:
    st = scenario(
        provinces={"sicilia": (0, 9), "creta": (1, 1), "cipro": (1, 1)}, triremes={("ionium", 0): 1}
    )
    goto(st, "sea_attack", place="sicilia")
    play(st, A.SeaAttack("sicilia", "creta", "ionium"))
    play(st, A.Declare(3))
    from tests.games.spqrisiko.fixtures import roll

    roll(st, (6, 6, 6), (1,))
    end_turn(st)
    assert st.current_player() == CHANCE and phase(st) == "draw"


def test_r_8_9_discards_are_reshuffled_when_the_deck_is_empty() -> None:
    st = conquest(deck={}, discard={"banner": 2, "arena": 1})
    take(st, "cisalpina", "italia")
    end_turn(st)
    assert st.current_player() == CHANCE
    assert {a.card for a, _ in st.chance_outcomes()} == {"banner", "arena"}
    assert st.discard == [0, 0, 0, 0] and st.deck == [0, 2, 0, 1]


def test_u12_no_card_when_deck_and_discards_are_empty() -> None:
    st = conquest(deck={}, discard={})
    take(st, "cisalpina", "italia")
    end_turn(st)
    assert st.current_player() == 1 and sum(st.hands[0]) == 0


def test_r_17_draw_is_a_chance_outcome_only_of_the_deck() -> None:
    st = conquest(deck={"arena": 1})
    take(st, "cisalpina", "italia")
    end_turn(st)
    with pytest.raises(IllegalActionError):
        play(st, A.Draw("legionary", 0))
    play(st, A.Draw("arena", 0))
    assert st.hands[0][3] == 1


# ------------------------------------------------------------------------------ hidden information


def test_view_shows_own_hand_only_and_counts_of_others() -> None:
    st = scenario(provinces={"italia": (0, 2)}, hands={0: {"banner": 2, "arena": 1}, 1: {"trireme": 1}})
    v0 = st.view(0)
    v1 = st.view(1)
    assert v0["players"][0]["hand"] == {"legionary": 0, "banner": 2, "trireme": 0, "arena": 1}
    assert "hand" not in v0["players"][1] and v0["players"][1]["cards"] == 1
    assert "hand" not in v1["players"][0] and v1["players"][0]["cards"] == 3
    assert v1["players"][1]["hand"]["trireme"] == 1
    spectator = st.view(None)
    assert all("hand" not in p for p in spectator["players"])
    assert isinstance(v0["deck"], int)
    text = json.dumps(v1)
    assert '"banner": 2' not in text
    assert v0["legal_actions"] and not v1["legal_actions"]


def test_draw_action_visible_to_hides_the_card() -> None:
    d = A.Draw("arena", 2)
    assert d.visible_to(2) == d
    hidden = d.visible_to(0)
    assert hidden == A.Draw("?", 2) and "arena" not in str(hidden)
    assert d.visible_to(None).card == "?"


def test_text_board_shows_only_the_viewers_hand() -> None:
    from hegemon.games.spqrisiko.text import render

    st = scenario(provinces={"italia": (0, 2)}, hands={0: {"banner": 2}, 1: {"arena": 1}})
    mine = render(st, 1)
    assert "your hand: 1 arena" in mine and "banner" not in mine
    assert "your hand" not in render(st, None)


def test_r_4_2_to_4_10_phases_strictly_in_order() -> None:
    """[R 4.2]-[R 4.10]: scoring, reinforcements, naval movement, naval combat, sea attacks, land attacks, strategic move, card."""
    st = scenario(
        provinces={"italia": (0, 9), "sicilia": (0, 5), "cisalpina": (1, 1), "creta": (1, 1)},
        triremes={("ionium", 0): 2, ("ionium", 1): 1},
        hands={0: {"legionary": 3}},
    )
    seen = [phase(st)]
    play(st, A.DONE)
    while st.current_player() == 0:
        ph = phase(st)
        if ph != seen[-1]:
            seen.append(ph)
        if ph == "reinforce":
            play(st, A.Reinforce("italia"))
        elif ph == "land_attack" and of_kind(st, A.Attack):
            play(st, A.Attack("italia", "cisalpina"))
            fight(st, ((6, 6, 6), (1,)))
            if phase(st) == "move_in":
                play(st, A.MoveIn(3))
        else:
            play(st, A.DONE)
    seen.append(phase(st))
    assert seen == [
        "cards", "reinforce", "convert", "naval_move", "naval_combat", "sea_attack", "land_attack", "strategic", "draw",
    ]  # fmt: skip


def test_u13_no_hand_limit_and_no_forced_trade() -> None:
    st = scenario(provinces={"italia": (0, 2)}, hands={0: {"legionary": 9, "banner": 6}})
    assert A.DONE in st.legal_actions()
    play(st, A.DONE)
    assert sum(st.hands[0]) == 15 and phase(st) == "reinforce"


def test_u15_power_centres_are_never_destroyed() -> None:
    st = scenario(provinces={"italia": (0, 9), "cisalpina": (1, 1), "creta": (1, 2)}, centres=["cisalpina"])
    goto(st, "land_attack", place="italia")
    play(st, A.Attack("italia", "cisalpina"))
    fight(st, ((6, 6, 6), (1,)))
    assert st.power_centre[st.board.province_index["cisalpina"]] and st.pcs_built == 1
