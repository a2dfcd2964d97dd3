"""The board data (polis.md §2, the TOML) and its validation at load (§2.6): a corrupt file raises
RulesDataError naming the file and the entry."""

from __future__ import annotations

from pathlib import Path

import pytest

from hegemon.core.errors import ConfigError, RulesDataError
from hegemon.games.polis.board import DEFAULT_BOARD, load_board, reconstructed_values
from hegemon.games.polis.game import GAME

TEXT = DEFAULT_BOARD.read_text(encoding="utf-8")


def test_shipped_board_matches_the_derived_facts_of_section_2_5():
    b = load_board()
    land = [t for t in range(b.n_terr) if b.is_land[t]]
    assert (len(land), b.n_terr - len(land)) == (16, 9)
    ll = sum(1 for t in land for u in b.land_adj[t]) // 2
    coasts = sum(len(b.sea_adj[t]) for t in land)
    ss = sum(1 for t in range(b.n_terr) if not b.is_land[t] for u in b.sea_adj[t]) // 2
    assert (ll, coasts, ss) == (18, 26, 10)
    sea_only = {b.terr_ids[t] for t in land if not b.land_adj[t]}
    assert sea_only == {"ionia", "kerkyra", "sikelia"}
    assert {b.terr_ids[t] for t in land if not b.sea_adj[t]} == {"arkadia"}
    two = {b.terr_ids[t] for t in land if len(b.terr_poleis[t]) == 2}
    assert two == {"lakedaemon", "sikelia"}
    assert all(len(b.terr_poleis[t]) >= 1 for t in land)
    gs = {
        b.polis_ids[q]: (b.terr_ids[b.p_galley_sea[q]] if b.p_galley_sea[q] >= 0 else None)
        for q in range(b.n_poleis)
    }
    assert gs["athinae"] == "saronikos_kolpos" and gs["chios"] == "noties_sporades" and gs["sparti"] is None
    assert b.deck_size == 24 and sum(k.count for k in b.card_kinds) == 24
    assert b.round_limit == [3, 4, 5, 5]


def test_load_is_cached_and_shared():
    assert load_board() is load_board()
    a, c = GAME.new_game(), GAME.new_game()
    assert a.board is c.board and a.clone().board is a.board


def _corrupt(tmp_path: Path, old: str, new: str, count: int = 1) -> Path:
    assert old in TEXT, old
    p = tmp_path / "board.toml"
    p.write_text(TEXT.replace(old, new, count), encoding="utf-8")
    return p


CORRUPTIONS = [
    # (replace, with, expected entry in the message)
    (
        'adjacent = ["attika", "megaris", "thessalia", "euboia", "korinthiakos_kolpos", "aigaion_pelagos"]',
        'adjacent = ["attika", "megaris", "thessalia", "korinthiakos_kolpos", "aigaion_pelagos"]',
        "euboia",
    ),
    (
        'adjacent = ["boiotia", "makedonia", "korinthiakos_kolpos"',
        'adjacent = ["boiotia", "atlantis", "korinthiakos_kolpos"',
        "territories.thessalia",
    ),
    ('id = "megara"', 'id = "thebai"', "poleis.thebai"),
    ('id = "tegea"', 'id = "Tegea"', "poleis.Tegea"),
    (
        "fortification = 3                      # 3 or 4 attested [4P]; 3 chosen",
        "fortification = 2",
        "poleis.argos",
    ),
    (
        'galley_sea = "ionion_pelagos"          # port of Kyllene',
        'galley_sea = "saronikos_kolpos"',
        "poleis.elis",
    ),
    ("size = 12", "size = 11", "event_piles.pile_4"),
    (
        'seas = ["myrtoon_pelagos"]             # south past Kythera and Crete',
        'seas = ["kyklades"]',
        "trade_routes.sparta_to_aigyptos",
    ),
    (
        '{ good = "wine", gives = "silver", amount = 2, purchase_silver = 0 },',
        '{ good = "wine", gives = "silver", amount = 2, purchase_silver = 1 },',
        "markets.persia",
    ),
    (
        'tribute_box = ["wood", "wine", "oil"]',
        'tribute_box = ["wood", "wine", "oil", "oil", "oil", "oil"]',
        "territories.kerkyra",
    ),
    ("hoplites = { attika = 3, ionia = 2 }", "hoplites = { attika = 4, ionia = 2 }", "setup.athens"),
    ('provenance = "attested:CARDS-DE"', 'provenance = "attested:LAVIA"', "LAVIA"),
    ('id = "cc24"\nformation = "skirmish"', 'id = "cc24"\nformation = "archers"', "combat_cards.cc24"),
    ("max_population = 9", "max_population = 3", "poleis.syrakousai"),
    (
        'fortification = 4                      # "strongly fortified" [TOM]',
        "fortification = 5",
        "poleis.syrakousai",
    ),
]


@pytest.mark.parametrize(("old", "new", "entry"), CORRUPTIONS, ids=[c[2] for c in CORRUPTIONS])
def test_corrupt_board_raises_rules_data_error_naming_file_and_entry(tmp_path, old, new, entry):
    path = _corrupt(tmp_path, old, new)
    with pytest.raises(RulesDataError) as e:
        load_board(path)
    assert str(path) in str(e.value) and entry in str(e.value)


def test_unparsable_and_missing_files(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text("this is = = not toml", encoding="utf-8")
    with pytest.raises(RulesDataError, match="not valid TOML"):
        load_board(p)
    with pytest.raises(RulesDataError, match="cannot read"):
        load_board(tmp_path / "missing.toml")


def test_poleis_count_is_checked(tmp_path):
    start = TEXT.index('[[poleis]]\nid = "gela"')
    end = TEXT.index('[[poleis]]\nid = "syrakousai"')
    p = tmp_path / "board.toml"
    p.write_text(TEXT[:start] + TEXT[end:], encoding="utf-8")
    with pytest.raises(RulesDataError, match="18 poleis"):
        load_board(p)


def test_a_corrected_board_is_used_through_the_board_option(tmp_path):
    """A user with the physical game corrects a value (issue §1: `--board PATH`)."""
    path = _corrupt(
        tmp_path,
        "base_population = 3\nmax_population = 7\nmax_growth = 2\ncommercial = false\n"
        'galley_sea = ""                        # inland',
        "base_population = 5\nmax_population = 7\nmax_growth = 2\ncommercial = false\n"
        'galley_sea = ""                        # inland',
    )
    opts = GAME.parse_options({"board": str(path)})
    st = GAME.new_game(opts)
    assert st.board.p_base[st.board.polis_index["thebai"]] == 5
    assert GAME.new_game().board.p_base[st.board.polis_index["thebai"]] == 3
    bad = tmp_path / "bad.toml"
    bad.write_text(TEXT.replace("size = 12", "size = 13"), encoding="utf-8")
    with pytest.raises(ConfigError, match="board"):
        GAME.parse_options({"board": str(bad)})
    with pytest.raises(RulesDataError):
        GAME.new_game(type(opts)(board=str(bad)))


def test_reconstructed_values_list_every_reconstruction_with_its_decision():
    rv = reconstructed_values(load_board())
    by = {(r["section"], r["id"], r["field"]): r for r in rv}
    assert by[("poleis", "thebai", "fortification")]["decision"] == "R07"
    assert by[("poleis", "thebai", "fortification")]["value"] == 3
    assert by[("territories", "attika", "tribute_box")]["decision"] == "R15"
    assert by[("constants", "battle_hand_size", "value")]["decision"] == "R49"
    assert ("poleis", "athinae", "capital") not in by  # attested:SUM-ES
    assert ("poleis", "korinthos", "name") not in by  # attested:4P
    assert all(r["decision"].startswith("R") for r in rv)
    assert all(r["provenance"].startswith("reconstructed") for r in rv)


def test_a_loaded_board_can_be_held_weakly_and_pickled_compiled_or_not():
    """The board's class is compiled (`_native.NATIVE`) and a compiled class cannot be weakly referenced, but the
    registry holds uploaded boards weakly and the search workers get boards pickled: every loaded board is the
    interpreted subclass `HeldBoard`, which can be both, and unpickles equal to the original."""
    import pickle
    import weakref

    from hegemon.games.polis.board import Board, board_from_text
    from hegemon.games.polis.board_held import HeldBoard

    text = DEFAULT_BOARD.read_text(encoding="utf-8").replace("value = 45", "value = 44", 1)
    for b in (load_board(), board_from_text(text, "upload.toml")):
        assert type(b) is HeldBoard and isinstance(b, Board)
        ref = weakref.ref(b)
        assert ref() is b
        copy = pickle.loads(pickle.dumps(b))
        assert type(copy) is HeldBoard and copy == b and copy is not b
        assert copy.n_poleis == b.n_poleis > 0 and copy.p_fort == b.p_fort
    assert board_from_text(text, "upload.toml").cubes == 44
