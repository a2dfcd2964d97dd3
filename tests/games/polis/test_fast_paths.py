"""The speed paths (issue 15) agree with the plain definitions on positions of seeded random games: the bitmask
bribe search with the cheapest-path search of §5.10, cached movement destinations with the path rules of §4.6,
and the interned action tables with freshly built actions."""

from __future__ import annotations

import random

import pytest

from hegemon.core.game import CHANCE, TERMINAL
from hegemon.games.polis import actions as A
from hegemon.games.polis.board import DEFAULT_BOARD
from hegemon.games.polis.game import GAME
from hegemon.games.polis.options import SIEGE_RULES
from hegemon.games.polis.rules import proxenos
from hegemon.games.polis.rules.common import ACTION
from tests.games.polis import oracles


def positions(n_games: int = 6, **opts):
    for siege in SIEGE_RULES:
        rng = random.Random(siege)
        for seed in range(n_games):
            st = GAME.new_game({"siege": siege, **opts}, seed)
            while st.current_player() != TERMINAL:
                if st.current_player() == CHANCE:
                    st.apply(st.sample_chance(rng))
                    continue
                if st.phase == ACTION:
                    yield st
                legal = st.legal_actions()
                st.apply(legal[int(rng.random() * len(legal))])


@pytest.mark.parametrize("cubes", [45, 300])
def test_bribe_reach_is_the_cheapest_path_search(tmp_path, cubes):
    """Also with more cubes than a byte holds (the caches then key unit counts by tuples)."""
    text = DEFAULT_BOARD.read_text(encoding="utf-8").replace(
        "cubes_per_side = { value = 45,", f"cubes_per_side = {{ value = {cubes},"
    )
    board = tmp_path / "b.toml"
    board.write_text(text, encoding="utf-8")
    checked = 0
    for st in positions(6 if cubes == 45 else 2, board=str(board)):
        assert st.tables.byte_counts == (cubes < 256)
        for s in (0, 1):
            src = st.board.p_terr[st.proxenos[s]]
            full = proxenos.bribe_costs(st, s, src)
            for t in range(st.board.n_terr):
                assert proxenos.bribe_reach(st, s, src, None, t) == full[t]
            assert proxenos._free_reach(st, s, src) == sum(
                1 << t for t in range(st.board.n_terr) if full[t] == 0
            )
            for cap in (0, 1, 2, 3, 5, 8):
                mask = proxenos.bribe_reach(st, s, src, cap)
                assert mask == sum(1 << t for t in range(st.board.n_terr) if full[t] <= cap)
            checked += 1
    assert checked > 50


def test_cached_destinations_are_the_paths_of_each_source():
    checked = 0
    for st in positions(3):
        s = st.active
        us, them = st.units[s], st.units[1 - s]
        for galleys in (False, True):
            fn = oracles.galley_dests if galleys else oracles.hoplite_dests
            want = {
                t: fn(st.board, us, them, t)
                for t in range(st.board.n_terr)
                if us[t] and st.board.is_land[t] != galleys
            }
            assert oracles._sources(st, galleys) == want
            checked += 1
    assert checked > 100


def test_action_tables_hold_the_same_actions_as_fresh_ones():
    st = GAME.new_game()
    tb = st.tables
    assert tb.move_h[3] == A.MoveHoplites(st.board.terr_ids[3]) and tb.besiege[7] == A.Besiege(
        st.board.polis_ids[7]
    )
    assert tb.trade[1] == (A.Trade(st.board.market_ids[1], False), A.Trade(st.board.market_ids[1], True))
    assert tb.move_from[2][3] == A.MoveFrom(st.board.terr_ids[2], 3)
    assert st.clone().tables is tb


def test_clone_copies_every_field_and_shares_no_mutable_list() -> None:
    """clone() is written out field by field: it must cover every slot, copy every list and keep the values."""
    from hegemon.games.polis.state import _FIELDS, PolisState

    st = next(positions(1))
    twin = st.clone()
    # a class compiled by mypyc (setup.py) keeps no __slots__: it lists its attributes in __mypyc_attrs__
    slots = PolisState.__slots__ if hasattr(PolisState, "__slots__") else PolisState.__mypyc_attrs__
    assert {name for name, _, _ in _FIELDS} | {"board", "tables", "options", "siege_rule"} == set(slots)
    for name, how, _ in _FIELDS:
        a, b = getattr(st, name), getattr(twin, name)
        assert a == b, name
        if how:
            assert a is not b, name
        if how == 2:
            assert all(x is not y for x, y in zip(a, b, strict=True)), name
    assert twin.to_json() == st.to_json()


def test_new_games_are_independent_copies_of_one_start() -> None:
    a, b = GAME.new_game({"siege": "diceless"}), GAME.new_game({"siege": "diceless"})
    a.res[0][0] += 5
    a.units[1][3] += 1
    a.stack.pop()
    assert b.to_json() == GAME.new_game({"siege": "diceless"}).to_json() != a.to_json()
    assert GAME.new_game({"siege": "classic"}).siege_rule != b.siege_rule
