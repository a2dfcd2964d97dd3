"""Battles (§6): triggered after a turn by 8+ units in a territory; combat cards with hidden hands, matching
formations, prestige on cards, retreat, and the three ways a battle ends. Draws are chance nodes over the
cards left in the deck (the deck has no order in the state)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hegemon.games.polis.actions import ChooseBattle, DrawCard, Match, PlayCards, Retreat, Stand, intern
from hegemon.games.polis.board import bits
from hegemon.games.polis.rules import common
from hegemon.games.polis.rules.common import BATTLE_DRAW, MATCH, PLAY, RETREAT
from hegemon.games.polis.rules.tables import unit_view

if TYPE_CHECKING:
    from hegemon.games.polis.state import PolisState


def candidates(st: PolisState) -> list[int]:
    """Territories with 8+ units of both sides together not yet fought after this turn (§6.1, R47)."""
    u0, u1 = st.units
    view = unit_view(st.tables, u0, u1)
    both = view.battles
    if both is None:
        thr = st.board.battle_threshold
        both = view.battles = tuple(t for t in bits(view.mine & view.theirs) if u0[t] + u1[t] >= thr)
    if not both:
        return []
    fought = st.fought
    return [t for t in both if t not in fought]


def legal_choose(st: PolisState, out: list[Any]) -> None:
    for t in candidates(st):
        out.append(intern(ChooseBattle, st.board.terr_ids[t]))


def start(st: PolisState, t: int) -> None:
    """§6.2-§6.3: Sparta attacks first on land, Athens at sea (R48); a fresh deck; 4 cards each."""
    b = st.board
    a = b.land_initiative if b.is_land[t] else b.sea_initiative
    st.battle_at = t
    st.attacker = a
    st.deck = [k.count for k in b.card_kinds]
    st.hands = [[0] * len(b.card_kinds), [0] * len(b.card_kinds)]
    st.draw_queue = [a] * b.hand_size + [1 - a] * b.hand_size
    st.played = None
    st.phase = BATTLE_DRAW


def draw_outcomes(st: PolisState) -> list[tuple[Any, float]]:
    b = st.board
    deck = st.deck
    total = sum(deck)
    side = st.draw_queue[0]
    return [
        (intern(DrawCard, side, b.card_kinds[k].name), deck[k] / total) for k in range(len(deck)) if deck[k]
    ]


def sample_draw(st: PolisState, r: float) -> Any:
    """The same distribution as `draw_outcomes`, from one uniform number r in [0, 1)."""
    deck = st.deck
    x = int(r * sum(deck))
    k = 0
    while x >= deck[k]:
        x -= deck[k]
        k += 1
    return intern(DrawCard, st.draw_queue[0], st.board.card_kinds[k].name)


def apply_draw(st: PolisState, card: str) -> None:
    k = st.board.card_index[card]
    side = st.draw_queue.pop(0)
    st.deck[k] -= 1
    st.hands[side][k] += 1
    if not st.draw_queue:
        st.retreat_stage = 0
        st.active = st.attacker
        st.phase = RETREAT


def legal_retreat(st: PolisState, out: list[Any]) -> None:
    """§6.5 (R51): ≥ 1 PP; all units to one adjacent territory of the same kind, not controlled by the
    opponent, within the stacking limit."""
    out.append(intern(Stand))
    b = st.board
    s = st.active
    if st.pp[s] < b.retreat_pp:
        return
    t = st.battle_at
    us = st.units[s]
    them = st.units[1 - s]
    lim = common.limit(st)
    near = b.land_adj[t] if b.is_land[t] else b.sea_adj[t]
    for r in near:
        if them[r] <= us[r] and us[r] + us[t] <= lim:
            out.append(intern(Retreat, b.terr_ids[r]))


def apply_stand(st: PolisState) -> None:
    if st.retreat_stage == 0:
        st.retreat_stage = 1
        st.active = 1 - st.attacker
    else:
        st.active = st.attacker
        st.phase = PLAY


def apply_retreat(st: PolisState, territory: str) -> None:
    """Pay 1 PP to the opponent; every own unit moves to the chosen territory; the battle ends (the flow then
    goes on: `flow.retreat`)."""
    s = st.active
    r = st.board.terr_index[territory]
    t = st.battle_at
    st.pp[s] -= st.board.retreat_pp
    st.pp[1 - s] += st.board.retreat_pp
    st.units[s][r] += st.units[s][t]
    st.units[s][t] = 0
    end(st)


def legal_play(st: PolisState, out: list[Any]) -> None:
    names = [k.name for k in st.board.card_kinds]
    hand = st.hands[st.active]
    n = len(hand)
    for i in range(n):
        if not hand[i]:
            continue
        if hand[i] >= 2:
            out.append(intern(PlayCards, names[i], names[i]))
        for j in range(i + 1, n):
            if hand[j]:
                out.append(intern(PlayCards, names[i], names[j]))


def apply_play(st: PolisState, first: str, second: str) -> None:
    ci = st.board.card_index
    k1, k2 = ci[first], ci[second]
    hand = st.hands[st.active]
    hand[k1] -= 1
    hand[k2] -= 1
    st.played = (k1, k2)
    st.active = 1 - st.attacker
    st.phase = MATCH


def legal_match(st: PolisState, out: list[Any]) -> None:
    """For each attacker card, a card of the same formation or none; never a non-matching card (R49)."""
    kinds = st.board.card_kinds
    hand = st.hands[st.active]
    assert st.played is not None  # MATCH always follows the attacker's two cards
    a1, a2 = st.played
    f1, f2 = kinds[a1].formation, kinds[a2].formation
    o1 = [-1] + [k for k in range(len(hand)) if hand[k] and kinds[k].formation == f1]
    o2 = [-1] + [k for k in range(len(hand)) if hand[k] and kinds[k].formation == f2]
    for m1 in o1:
        for m2 in o2:
            if m1 >= 0 and m1 == m2 and hand[m1] < 2:
                continue
            if a1 == a2 and m1 < m2:
                continue  # identical attacker cards: one canonical order
            out.append(intern(Match, kinds[m1].name if m1 >= 0 else "", kinds[m2].name if m2 >= 0 else ""))


def apply_match(st: PolisState, first: str, second: str) -> bool:
    """Resolve both pairs together (§6.4 step 4), the end test (step 5), the draws (step 6), swap roles.
    True when the battle ended (the flow then goes on: `flow.match`)."""
    b = st.board
    kinds = b.card_kinds
    a = st.attacker
    d = 1 - a
    t = st.battle_at
    hand = st.hands[d]
    losses = 0
    matches = 0
    assert st.played is not None  # MATCH always follows the attacker's two cards
    for played, name in zip(st.played, (first, second), strict=True):
        va = kinds[played].prestige
        if name:
            m = b.card_index[name]
            hand[m] -= 1
            matches += 1
            if va > kinds[m].prestige:
                st.pp[a] += va - kinds[m].prestige
        else:
            losses += 1
            st.pp[a] += va
    st.played = None
    ud = st.units[d]
    ud[t] -= min(losses, ud[t])
    common.siege_check_exchange(st)
    mn = b.battle_min_units
    if st.units[0][t] < mn or st.units[1][t] < mn:
        end(st)
        return True
    if sum(st.deck) < 2 + matches:
        end(st)
        return True
    st.draw_queue = [a, a] + [d] * matches
    st.attacker = d
    st.phase = BATTLE_DRAW
    return False


def end(st: PolisState) -> None:
    """Cards back to the deck, diceless siege checks; `flow` then starts the next battle of this turn-end or the
    next turn."""
    st.fought.append(st.battle_at)
    st.battle_at = -1
    st.played = None
    st.draw_queue = []
    st.hands = [[0] * len(st.deck), [0] * len(st.deck)]
    st.deck = [k.count for k in st.board.card_kinds]
    common.siege_check(st)
