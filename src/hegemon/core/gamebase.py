"""The base of every game object: what a game declares as data (name, players, options, codec, roles) and the
methods every game shares (options parsed or passed through, the options' description, the action codec, the
board the options name). A game subclasses it and adds what is its own: `new_game`, `max_actions`,
`position_odds_job`, `glossary`, `game_length`, `turn_count` (and `players` when it seats a variable number).

Not compiled (`_native.NATIVE`): a game object holds no hot code, and a compiled class could not subclass it."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, Generic, TypeVar

from hegemon.core.actions import Action, ActionCodec
from hegemon.core.errors import ConfigError
from hegemon.core.options import BoardOptions, describe_options, parse_options
from hegemon.core.roles import Roles

OptionsT = TypeVar("OptionsT", bound=BoardOptions)


class BaseGame(Generic[OptionsT]):
    """A game's declared data and shared methods (the `Game` protocol's, `hegemon.core.game`)."""

    name: ClassVar[str]
    title: ClassVar[str]
    version: ClassVar[int] = 1
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_type: type[OptionsT]
    codec: ClassVar[ActionCodec]
    roles: ClassVar[Roles]
    selfplay_defaults: ClassVar[Mapping[str, Any]] = MappingProxyType({})
    """Options of bots-only games (self-play, lab, RL) unless told otherwise."""
    side_names: ClassVar[tuple[tuple[str, str], ...]] = ()
    """Each seat's (English, Italian) name when seats are sides of the game (empty otherwise)."""
    ends_after_rounds: ClassVar[bool] = False
    """The normal end is the end of the last round (a game that stops sooner ended early)."""

    def options_of(self, options: OptionsT | Mapping[str, Any] | None) -> OptionsT:
        """`options` as the game's options: passed through when they are, parsed (and validated) from a mapping
        or None (the defaults); ConfigError for anything else."""
        if isinstance(options, self.options_type):
            return options
        if options is None or isinstance(options, Mapping):
            return parse_options(self.options_type, options)
        raise ConfigError(
            "options", f"expected {self.options_type.__name__} or a mapping, got {type(options).__name__}"
        )

    def parse_options(self, raw: Mapping[str, Any] | None = None, **overrides: Any) -> OptionsT:
        """Validated options from a mapping (JSON or CLI strings) and `overrides`; options already parsed pass
        through. ConfigError names a bad option."""
        if isinstance(raw, self.options_type) and not overrides:
            return raw
        return parse_options(self.options_type, raw, **overrides)

    def describe_options(self) -> list[dict[str, Any]]:
        """Every option with its type, default, bounds and help, for the lobby and the CLI."""
        return describe_options(self.options_type)

    def players(self, options: Any) -> int:
        """The number of players (a game that seats a variable number says how many its options ask for)."""
        return self.min_players

    def decode_action(self, obj: Any) -> Action:
        """An action from its JSON form; InvalidActionError if malformed."""
        return self.codec.decode(obj)

    def board_name(self, options: Any) -> str | None:
        """The corrected board file `options` play on (an uploaded board's name or a path), None for the shipped
        board."""
        return self.options_of(options).board

    def shipped_boards(self) -> tuple[str, ...]:
        """The boards that ship with the game, the default first (one, unless the game says otherwise)."""
        return ("default",)
