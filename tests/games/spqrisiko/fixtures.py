"""Small readable S.P.Q.RisiKo! scenario builders for the rule-by-rule tests.

`scenario(...)` draws the order of play (a real `Order` chance action), then writes the board position
directly into the state and starts `active`'s turn, so scoring runs exactly as in a game. `goto` walks the
turn forward to a named phase, `roll` applies a fixed dice outcome, `names` lists actions as text."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from hegemon.core.actions import Action
from hegemon.core.game import CHANCE
from hegemon.core.play import play
from hegemon.games.spqrisiko import actions as A
from hegemon.games.spqrisiko import state as S
from hegemon.games.spqrisiko.board import SYMBOLS, default_board
from hegemon.games.spqrisiko.game import GAME
from hegemon.games.spqrisiko.rules import turn
from hegemon.games.spqrisiko.scoring import NEUTRAL
from hegemon.games.spqrisiko.state import SpqrState

N = "neutral"
BOARD = default_board()

PHASES = {
    "cards": S.CARDS,
    "bonus": S.CARD_BONUS,
    "reinforce": S.REINFORCE,
    "convert": S.CONVERT,
    "naval_move": S.NAVAL_MOVE,
    "naval_combat": S.NAVAL_COMBAT,
    "naval_battle": S.NAVAL_BATTLE,
    "sea_attack": S.SEA_ATTACK,
    "declare": S.DECLARE,
    "sea_battle": S.SEA_BATTLE,
    "land_attack": S.LAND_ATTACK,
    "land_battle": S.LAND_BATTLE,
    "move_in": S.MOVE_IN,
    "strategic": S.STRATEGIC,
    "strategic_count": S.STRATEGIC_COUNT,
    "draw": S.DRAW,
    "over": S.OVER,
}
_ORDERED = (
    "cards",
    "reinforce",
    "convert",
    "naval_move",
    "naval_combat",
    "sea_attack",
    "land_attack",
    "strategic",
)


def new_game(players: int = 4, rules: str = "house-1.2", **options: Any) -> SpqrState:
    """A fresh game (first step: the chance draw of the order of play)."""
    return GAME.new_game(GAME.parse_options({"players": players, "rules": rules, **options}))


def ordered(state: SpqrState, order: Iterable[int] | None = None) -> SpqrState:
    """Apply the `Order` chance action (identity order by default)."""
    play(state, A.Order(tuple(order) if order is not None else tuple(range(state.n))))
    return state


def _owner(o: int | str) -> int:
    return NEUTRAL if o == N else int(o)


def pidx(name: str) -> int:
    return BOARD.province_index[name]


def sidx(name: str) -> int:
    return BOARD.sea_index[name]


def scenario(
    players: int = 4,
    rules: str = "house-1.2",
    provinces: Mapping[str, tuple[int | str, int]] | None = None,
    rest: tuple[int | str, int] = (N, 3),
    triremes: Mapping[tuple[str, int], int] | None = None,
    hands: Mapping[int, Mapping[str, int]] | None = None,
    round: int = 5,
    active: int = 0,
    vp: Mapping[int, int] | None = None,
    centres: Iterable[str] = (),
    deck: Mapping[str, int] | None = None,
    discard: Mapping[str, int] | None = None,
    eliminated: Iterable[int] = (),
    order: Iterable[int] | None = None,
    **options: Any,
) -> SpqrState:
    """A state at the start of `active`'s turn (scoring already done, as in a game).

    provinces: id -> (owner, legionaries), owner a seat or N; every other province gets `rest`.
    triremes: (sea id, seat) -> count. hands: seat -> {symbol: count}. deck/discard: symbol -> count
    (missing symbols 0 when given). vp: seat -> VP before scoring."""
    st = ordered(new_game(players, rules, **options), order)
    b = st.board
    st.owner = [_owner(rest[0])] * b.n_provinces
    st.armies = [rest[1]] * b.n_provinces
    for name, (o, k) in (provinces or {}).items():
        st.owner[pidx(name)] = _owner(o)
        st.armies[pidx(name)] = k
    st.triremes = [[0] * b.n_seas for _ in range(players)]
    for (sea, p), k in (triremes or {}).items():
        st.triremes[p][sidx(sea)] = k
    st.hands = [[0, 0, 0, 0] for _ in range(players)]
    for p, h in (hands or {}).items():
        st.hands[p] = [h.get(sym, 0) for sym in SYMBOLS]
    for p, v in (vp or {}).items():
        st.vp[p] = v
    for name in centres:
        st.power_centre[pidx(name)] = True
        st.pcs_built += 1
    if deck is not None:
        st.deck = [deck.get(sym, 0) for sym in SYMBOLS]
    if discard is not None:
        st.discard = [discard.get(sym, 0) for sym in SYMBOLS]
    for p in eliminated:
        st.eliminated[p] = True
    st.neutral_groups = 0
    st.slots = [0] * players
    st.chance = None
    st.round = round
    st.turn = st.order.index(active)
    st.reindex()  # owner and triremes were written directly
    turn.begin_turn(st)
    return st


def phase(state: SpqrState) -> str:
    """The short name of the current phase (a key of PHASES)."""
    for k, v in PHASES.items():
        if v == state.phase:
            return k
    raise AssertionError(state.phase)


def goto(state: SpqrState, target: str, place: str | None = None) -> SpqrState:
    """Walk the active player's turn forward to phase `target`: decline card sets and every optional phase
    with Done, put reinforcements on `place` (default: the first own province in board order)."""
    assert target in PHASES, target
    me = state.current_player()
    for _ in range(500):
        if state.phase == PHASES[target] and state.current_player() == me:
            return state
        ph = phase(state)
        if ph not in _ORDERED or state.current_player() != me:
            raise AssertionError(f"cannot reach {target!r}: stuck in {ph!r}")
        if target in _ORDERED and _ORDERED.index(ph) > _ORDERED.index(target):
            raise AssertionError(f"already past {target!r}: in {ph!r}")
        if ph == "reinforce":
            play(state, A.Reinforce(place) if place else state.legal_actions()[0])
        else:
            play(state, A.DONE)
    raise AssertionError("goto did not converge")


def roll(state: SpqrState, att: Iterable[int], dfn: Iterable[int]) -> SpqrState:
    """Apply one fixed dice outcome at a chance node (dice sorted for you)."""
    assert state.current_player() == CHANCE, state.phase_name()
    play(state, A.Roll(tuple(sorted(att, reverse=True)), tuple(sorted(dfn, reverse=True))))
    return state


def names(actions: Iterable[Action]) -> list[str]:
    """The actions as their display text, in order."""
    return [str(a) for a in actions]


def of_kind(state: SpqrState, cls: type[Action]) -> list[Any]:
    """The legal actions of one type."""
    return [a for a in state.legal_actions() if isinstance(a, cls)]


def armies(state: SpqrState, name: str) -> int:
    return state.armies[pidx(name)]


def owner(state: SpqrState, name: str) -> int:
    return state.owner[pidx(name)]


def trir(state: SpqrState, sea: str, p: int) -> int:
    return state.triremes[p][sidx(sea)]


def legal(state: SpqrState, action: Action) -> bool:
    return action in state.legal_actions()


def fight(state: SpqrState, *rolls: tuple[Iterable[int], Iterable[int]]) -> None:
    """In a land battle or naval combat: roll as many dice as each given attacker roll, with that outcome."""
    for att, dfn in rolls:
        att = tuple(att)
        play(state, A.RollDice(len(att)))
        roll(state, att, dfn)


def pass_turn(state: SpqrState) -> None:
    """Finish the current player's turn passively: first legal placement, Done everywhere, draw the first
    possible card if one is due."""
    me = state.current_player()
    while state.current_player() == me:
        acts = state.legal_actions()
        play(state, A.DONE if A.DONE in acts else acts[0])
    if state.current_player() == CHANCE and state.phase == S.DRAW:
        play(state, state.chance_outcomes()[0][0])
