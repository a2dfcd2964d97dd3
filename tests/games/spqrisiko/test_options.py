"""Options (spqrisiko.md A.1, A.2): the rule-set presets set the four switches, each switch can be overridden,
bad values raise ConfigError naming the option, and a game needs a VP target or a round limit."""

from __future__ import annotations

import pytest

from hegemon.core.errors import ConfigError
from hegemon.games.spqrisiko.game import GAME

SWITCHES = ("neutrals", "naval_move", "garrison", "first_elimination_round")


def test_a_1_house_rules_are_the_default_rule_set() -> None:
    o = GAME.parse_options()
    assert o.rules == "house-1.2"
    assert (o.neutrals, o.naval_move, o.garrison, o.first_elimination_round) == (
        "total_27", "per_trireme", "garrison_stop", 4
    )  # fmt: skip


def test_a_1_official_preset_sets_the_four_switches() -> None:
    o = GAME.parse_options({"rules": "official"})
    assert (o.neutrals, o.naval_move, o.garrison, o.first_elimination_round) == (
        "per_unused_colour", "single_group", "move_in_first", 5
    )  # fmt: skip


@pytest.mark.parametrize(
    ("rules", "name", "value"),
    [
        ("house-1.2", "naval_move", "single_group"),
        ("house-1.2", "neutrals", "per_unused_colour"),
        ("house-1.2", "garrison", "move_in_first"),
        ("house-1.2", "first_elimination_round", 5),
        ("official", "naval_move", "per_trireme"),
        ("official", "neutrals", "total_27"),
        ("official", "garrison", "garrison_first"),
        ("official", "garrison", "garrison_stop"),
        ("house-1.2", "garrison", "garrison_first"),
        ("official", "first_elimination_round", 4),
    ],
)
def test_a_1_each_switch_is_overridable(rules: str, name: str, value: object) -> None:
    o = GAME.parse_options({"rules": rules, name: value})
    assert getattr(o, name) == value
    base = GAME.parse_options({"rules": rules})
    for other in SWITCHES:
        if other != name:
            assert getattr(o, other) == getattr(base, other)


def test_a_1_switch_given_as_cli_string() -> None:
    assert GAME.parse_options({"first_elimination_round": "6"}).first_elimination_round == 6


def test_a_2_defaults() -> None:
    o = GAME.parse_options()
    assert o.vp_target == 20  # U11
    assert o.max_rounds is None  # A.3: none for human tables
    assert o.sets_per_turn == 1  # U3
    assert o.trireme_disbands_per_turn is None  # U4
    assert o.power_centres == 12  # U1 / U14
    assert o.neutrals_compete is False  # U5
    assert o.neutral_is_enemy is True  # U6
    assert o.sea_attack_below_defender is True  # U7
    assert o.trireme_garrison == 1  # U19
    assert o.random_deal is False
    assert o.players == 4


@pytest.mark.parametrize(
    ("raw", "option"),
    [
        ({"rules": "casa"}, "rules"),
        ({"naval_move": "everything"}, "naval_move"),
        ({"neutrals": 27}, "neutrals"),
        ({"garrison": "none"}, "garrison"),
        ({"first_elimination_round": 0}, "first_elimination_round"),
        ({"first_elimination_round": "four"}, "first_elimination_round"),
        ({"players": 2}, "players"),
        ({"players": 6}, "players"),
        ({"vp_target": 0}, "vp_target"),
        ({"random_deal": "maybe"}, "random_deal"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_values_raise_config_error_naming_the_option(raw: dict[str, object], option: str) -> None:
    with pytest.raises(ConfigError) as info:
        GAME.parse_options(raw)
    assert info.value.option == option
    assert repr(option) in str(info.value)


def test_u10_u11_vp_target_and_max_rounds_both_none_rejected() -> None:
    """[R 2.4], [R 2.5], [R 3.1], [R 5.2]: agree a VP target or a time limit before play."""
    with pytest.raises(ConfigError) as info:
        GAME.parse_options({"vp_target": None, "max_rounds": None})
    assert info.value.option == "vp_target"
    o = GAME.parse_options({"vp_target": "none", "max_rounds": "30"})
    assert o.vp_target is None and o.max_rounds == 30


def test_describe_options_lists_every_switch_with_choices() -> None:
    desc = {d["name"]: d for d in GAME.describe_options()}
    assert desc["rules"]["choices"] == ["house-1.2", "official"]
    assert desc["naval_move"]["choices"] == ["single_group", "per_trireme"]
    assert all(s in desc for s in SWITCHES)
