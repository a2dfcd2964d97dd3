"""The core contract: options parsing and validation, the action codec, records, outcomes, seeds."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hegemon.core import Action, ActionCodec, ConfigError, InvalidActionError, Outcome, RecordError
from hegemon.core.game import Termination
from hegemon.core.options import Options, describe_options, option, parse_options
from hegemon.core.play import derive_seed
from hegemon.core.record import GameRecord, read_records, replay
from hegemon.games import get_game


@dataclass(frozen=True)
class Opts(Options):
    PRESET_FIELD: ClassVar[str | None] = "mode"
    PRESETS: ClassVar[dict] = {"a": {"flag": True}, "b": {"flag": False, "count": 7}}
    mode: str = option("a", "mode", choices=("a", "b"))
    flag: bool = option(True, "a flag")
    count: int = option(3, "a count", minimum=1, maximum=9)
    limit: int | None = option(None, "a limit", minimum=1)


def test_options_defaults_presets_and_overrides() -> None:
    assert parse_options(Opts) == Opts()
    b = parse_options(Opts, {"mode": "b"})
    assert (b.flag, b.count) == (False, 7)
    assert parse_options(Opts, {"mode": "b", "count": "4"}).count == 4
    assert parse_options(Opts, {"flag": "no", "limit": "none"}).flag is False
    assert parse_options(Opts, {"limit": "5"}).limit == 5


@pytest.mark.parametrize(
    ("raw", "name"),
    [
        ({"mode": "c"}, "mode"),
        ({"count": 0}, "count"),
        ({"count": 10}, "count"),
        ({"count": "x"}, "count"),
        ({"count": True}, "count"),
        ({"flag": "maybe"}, "flag"),
        ({"nope": 1}, "nope"),
        ({"count": None}, "count"),
    ],
)
def test_bad_options_raise_config_error_naming_the_option(raw: dict, name: str) -> None:
    with pytest.raises(ConfigError) as e:
        parse_options(Opts, raw)
    assert e.value.option == name
    assert repr(name) in str(e.value)


def test_describe_options_lists_every_field_with_help() -> None:
    d = {x["name"]: x for x in describe_options(Opts)}
    assert d["mode"]["choices"] == ["a", "b"]
    assert d["count"]["min"] == 1 and d["count"]["max"] == 9
    assert d["limit"]["nullable"] is True


@dataclass(frozen=True, slots=True)
class Hop(Action):
    kind: ClassVar[str] = "hop"
    where: str
    count: int
    path: tuple[int, ...]


CODEC = ActionCodec([Hop])


def test_codec_round_trip_and_typed_errors() -> None:
    a = Hop("x", 2, (1, 2))
    assert CODEC.decode(json.loads(json.dumps(a.to_json()))) == a
    for bad, word in [
        ([1], "object"),
        ({"type": "jump"}, "unknown action type"),
        ({"type": "hop", "where": "x", "count": 2}, "missing field 'path'"),
        ({"type": "hop", "where": 1, "count": 2, "path": []}, "'where' must be a string"),
        ({"type": "hop", "where": "x", "count": "2", "path": []}, "'count' must be an integer"),
        ({"type": "hop", "where": "x", "count": True, "path": []}, "'count' must be an integer"),
        ({"type": "hop", "where": "x", "count": 2, "path": "ab"}, "'path' must be a list"),
        ({"type": "hop", "where": "x", "count": 2, "path": [], "extra": 1}, "unexpected field"),
    ]:
        with pytest.raises(InvalidActionError) as e:
            CODEC.decode(bad)
        assert word in str(e.value)


@given(
    st.dictionaries(st.text(max_size=5), st.one_of(st.integers(), st.text(max_size=5), st.none()), max_size=4)
)
def test_codec_never_crashes_on_junk(obj: dict) -> None:
    try:
        decoded = CODEC.decode(obj)
    except InvalidActionError as e:
        assert str(e)
    else:
        assert isinstance(decoded, Hop)


def test_outcome_by_scores_ranks_and_shares_ties() -> None:
    o = Outcome.by_scores(Termination.ROUND_LIMIT, [3, 5, 5, 1])
    assert o.winners == (1, 2) and o.winner is None
    assert o.ranking == ((1, 2), (0,), (3,))
    assert Outcome.from_json(json.loads(json.dumps(o.to_json()))) == o


def test_derive_seed_is_deterministic_and_spread() -> None:
    assert derive_seed(1, "bot", 0) == derive_seed(1, "bot", 0)
    assert len({derive_seed(1, "bot", i) for i in range(100)}) == 100


def test_corrupt_records_give_record_errors_with_line_numbers(tmp_path) -> None:
    p = tmp_path / "r.jsonl"
    p.write_text('{"game": "spqrisiko", "version": 1, "actions": []}\nnot json\n')
    it = read_records(p)
    assert next(it).game == "spqrisiko"
    with pytest.raises(RecordError, match=r"r.jsonl:2"):
        next(it)
    with pytest.raises(RecordError, match="missing field 'actions'"):
        GameRecord.from_line('{"game": "spqrisiko", "version": 1}')
    with pytest.raises(RecordError, match="cannot read"):
        list(read_records(tmp_path / "missing.jsonl"))


def test_replay_rejects_wrong_game_version_and_illegal_actions() -> None:
    g = get_game("spqrisiko")
    with pytest.raises(RecordError, match="version"):
        replay(g, GameRecord("spqrisiko", 99, {}, 0, []))
    with pytest.raises(RecordError, match="not"):
        replay(g, GameRecord("polis", 1, {}, 0, []))
    with pytest.raises(RecordError, match="action 0"):
        replay(
            g,
            GameRecord("spqrisiko", 1, {}, 0, [{"type": "attack", "source": "italia", "target": "sicilia"}]),
        )
    with pytest.raises(RecordError, match="record options"):
        replay(g, GameRecord("spqrisiko", 1, {"players": 9}, 0, []))


def test_unknown_game_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="known games"):
        get_game("chess")
