"""The board as data (spqrisiko.md B 3): counts and derived facts of B 3.2, the disputed edges of B 3.3, and
validation at load: a corrupt copy of the TOML raises RulesDataError naming the file and the entry."""

from __future__ import annotations

from pathlib import Path

import pytest

from hegemon.core.errors import RulesDataError
from hegemon.games.spqrisiko.board import default_board, load_board, load_board_file

B = default_board()


def _toml_text() -> str:
    from importlib import resources

    return (resources.files("hegemon.games.spqrisiko") / "data" / "board.toml").read_text(encoding="utf-8")


def land(a: str, b: str) -> bool:
    return B.province_index[b] in B.land[B.province_index[a]]


def coast(p: str, s: str) -> bool:
    return B.sea_index[s] in B.coasts[B.province_index[p]]


def test_b_3_2_counts_45_provinces_12_seas_65_land_66_coasts_14_sea_links() -> None:
    """[R 1.1] 45 provinces and 12 sea areas; B 3.2 edge counts."""
    assert B.n_provinces == 45
    assert B.n_seas == 12
    assert sum(len(x) for x in B.land) == 2 * 65
    assert sum(len(x) for x in B.coasts) == 66
    assert sum(len(x) for x in B.shores) == 66
    assert sum(len(x) for x in B.sea_links) == 2 * 14


def test_b_3_2_seven_islands_without_land_neighbours() -> None:
    islands = {B.province_ids[i] for i in range(B.n_provinces) if B.province_kinds[i] == "island"}
    assert islands == {"britannia", "baleares", "corsica", "sardinia", "sicilia", "creta", "cipro"}
    assert all(not B.land[B.province_index[i]] for i in islands)


def test_b_3_2_eight_landlocked_provinces_touch_no_sea() -> None:
    landlocked = {B.province_ids[i] for i in range(B.n_provinces) if not B.coasts[i]}
    assert landlocked == {
        "raetia", "noricum", "pannonia", "dalmazia", "galatia", "armenia", "mesopotamia", "arabia"
    }  # fmt: skip


def test_b_3_2_thirty_seven_coastal_provinces() -> None:
    coastal = [i for i in range(B.n_provinces) if B.coasts[i]]
    assert len(coastal) == 37
    assert len([i for i in coastal if B.land[i]]) == 30


def test_b_3_2_land_components_22_and_16_plus_seven_islands() -> None:
    sizes = sorted((len(c) for c in B.land_components()), reverse=True)
    assert sizes == [22, 16, 1, 1, 1, 1, 1, 1, 1]


def test_b_3_2_no_land_link_europe_asia_or_europe_africa() -> None:
    comps = {B.province_ids[p]: i for i, c in enumerate(B.land_components()) for p in c}
    assert comps["thracia"] != comps["asia"]
    assert comps["baetica"] != comps["mauretania"]
    assert comps["thracia"] == comps["baetica"]
    assert comps["asia"] == comps["mauretania"]


def test_b_3_2_cappadocia_degree_7_and_three_provinces_of_degree_1() -> None:
    deg = {B.province_ids[i]: len(B.land[i]) for i in range(B.n_provinces)}
    assert deg["cappadocia"] == 7 == max(deg.values())
    assert {p for p, d in deg.items() if d == 1} == {"italia", "africa", "mauretania"}


def test_b_3_2_ionium_is_the_sea_hub_and_the_dead_ends() -> None:
    links = {B.sea_ids[s]: {B.sea_ids[t] for t in B.sea_links[s]} for s in range(B.n_seas)}
    assert links["ionium"] == {"tyrrenum", "syrtis", "hadriaticum", "aegeum", "creticum"}
    assert links["pontus_euxinus"] == {"aegeum"}
    assert links["hadriaticum"] == {"ionium"}
    assert links["britannicus"] == {"cantabricum"}


def test_r_13_6_sea_separated_provinces_are_never_land_adjacent() -> None:
    for a, b in [
        ("italia", "sicilia"),
        ("italia", "sardinia"),
        ("baetica", "mauretania"),
        ("thracia", "asia"),
        ("britannia", "belgica"),
        ("dacia", "ponto"),
        ("achaia", "asia"),
        ("africa", "sicilia"),
    ]:
        assert not land(a, b), (a, b)


def test_b_3_3_the_five_disputed_edges_as_settled_from_the_board_photo() -> None:
    assert not land("cilicia", "syria")
    assert land("judea", "mesopotamia")
    assert coast("terraconensis", "cantabricum")
    assert coast("asia", "pontus_euxinus")
    assert coast("cappadocia", "creticum")  # U21


def test_b_3_3_other_easy_to_get_wrong_points() -> None:
    assert not coast("dalmazia", "hadriaticum") and coast("illiria", "hadriaticum")
    assert land("numidia", "cyrenaica") and coast("numidia", "syrtis") and not land("africa", "cyrenaica")
    assert not land("belgica", "cisalpina") and land("epirus", "achaia")
    assert {B.sea_ids[s] for s in B.coasts[B.province_index["creta"]]} == {"ionium", "aegeum", "creticum"}


def test_b_1_deck_and_power_centres() -> None:
    """[R 1.6] 55 cards, [R 8.3] four symbols, [R 1.3] 12 power-centre pieces."""
    assert B.deck == (25, 15, 10, 5)  # U2
    assert B.power_centres == 12  # U1


def test_board_is_loaded_once_and_shared() -> None:
    assert load_board() is load_board(None) is default_board()


# ------------------------------------------------------------------------------ corrupt copies


def corrupt(tmp_path: Path, old: str, new: str, count: int = 1) -> Path:
    text = _toml_text()
    assert old in text, old
    path = tmp_path / "bad-board.toml"
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return path


def expect_error(path: Path, *fragments: str) -> RulesDataError:
    with pytest.raises(RulesDataError) as info:
        load_board_file(path)
    msg = str(info.value)
    assert str(path) in msg and info.value.path == str(path)
    for f in fragments:
        assert f in msg, (f, msg)
    return info.value


def test_valid_copy_loads(tmp_path: Path) -> None:
    path = tmp_path / "ok.toml"
    path.write_text(_toml_text(), encoding="utf-8")
    assert load_board_file(path).n_provinces == 45


def test_unknown_id_in_a_land_border_names_it(tmp_path: Path) -> None:
    err = expect_error(corrupt(tmp_path, '["achaia", "epirus"]', '["achaia", "epyrus"]'), "epyrus")
    assert "graph.land" in err.entry


def test_coast_to_an_unknown_sea_is_rejected(tmp_path: Path) -> None:
    """Links are stored once per undirected pair, so an asymmetric link shows up as an unknown id."""
    expect_error(corrupt(tmp_path, '["achaia", "aegeum"]', '["achaia", "aegaeum"]'), "aegaeum", "graph.coast")


def test_duplicate_land_border_reversed_is_rejected(tmp_path: Path) -> None:
    expect_error(
        corrupt(tmp_path, '["achaia", "epirus"],', '["achaia", "epirus"],\n  ["epirus", "achaia"],'),
        "listed twice",
        "epirus",
    )


def test_duplicate_province_id_is_rejected(tmp_path: Path) -> None:
    expect_error(corrupt(tmp_path, 'id = "galicia"', 'id = "lusitania"'), "duplicate", "lusitania")


def test_island_with_a_land_border_is_rejected(tmp_path: Path) -> None:
    expect_error(
        corrupt(tmp_path, '["achaia", "epirus"],', '["achaia", "epirus"],\n  ["italia", "sicilia"],'),
        "sicilia",
        "island",
    )


def test_wrong_meta_count_is_rejected(tmp_path: Path) -> None:
    err = expect_error(corrupt(tmp_path, "land_borders = 65", "land_borders = 64"), "meta.land_borders", "65")
    assert err.entry == "meta.land_borders"


def test_landlocked_province_with_a_coast_is_rejected(tmp_path: Path) -> None:
    expect_error(
        corrupt(tmp_path, '["achaia", "aegeum"],', '["achaia", "aegeum"],\n  ["raetia", "britannicus"],'),
        "raetia",
        "landlocked",
    )


def test_invalid_toml_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("[meta\n", encoding="utf-8")
    expect_error(path, "file")


def test_missing_file_names_the_file(tmp_path: Path) -> None:
    expect_error(tmp_path / "nope.toml", "cannot read")


def test_coast_written_the_wrong_way_round_is_rejected(tmp_path: Path) -> None:
    expect_error(corrupt(tmp_path, '["achaia", "aegeum"]', '["aegeum", "achaia"]'), "unknown id 'aegeum'")


def test_self_border_is_rejected(tmp_path: Path) -> None:
    expect_error(corrupt(tmp_path, '["achaia", "epirus"]', '["achaia", "achaia"]'), "cannot border itself")


def test_deck_count_must_be_a_non_negative_integer(tmp_path: Path) -> None:
    err = expect_error(corrupt(tmp_path, "arena = 5", "arena = -1"), "cards.arena")
    assert err.entry == "cards.arena"
