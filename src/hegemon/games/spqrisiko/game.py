"""S.P.Q.RisiKo! wired into the Game protocol: options, initial state, action codec, bounds."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hegemon.core.actions import Action
from hegemon.core.options import describe_options, parse_options
from hegemon.games.spqrisiko.actions import CODEC
from hegemon.games.spqrisiko.board import load_board
from hegemon.games.spqrisiko.options import SpqrOptions
from hegemon.games.spqrisiko.state import SpqrState


class SpqrGame:
    """S.P.Q.RisiKo! (Editrice Giochi 2005) for 3-5 players, rule sets `house-1.2` (default) and `official`."""

    name = "spqrisiko"
    title = "S.P.Q.RisiKo!"
    version = 1
    min_players = 3
    max_players = 5
    options_type = SpqrOptions

    def parse_options(self, raw: Mapping[str, Any] | None = None, **overrides: Any) -> SpqrOptions:
        """Validated options from JSON or CLI strings; ConfigError names a bad option."""
        return parse_options(SpqrOptions, raw, **overrides)

    def describe_options(self) -> list[dict[str, Any]]:
        return describe_options(SpqrOptions)

    def new_game(self, options: SpqrOptions | Mapping[str, Any] | None = None, seed: int = 0) -> SpqrState:
        """The initial state (the first step is the chance draw of the order of play). All randomness is
        in chance nodes, so `seed` only matters to whoever samples them."""
        opts = options if isinstance(options, SpqrOptions) else self.parse_options(options)
        return SpqrState(load_board(opts.board), opts)

    def decode_action(self, obj: Any) -> Action:
        return CODEC.decode(obj)

    def max_actions(self, options: SpqrOptions) -> int:
        """A safe bound on atomic actions in one game (generous: the round limit ends games long before)."""
        rounds = options.max_rounds if options.max_rounds is not None else 500
        return 200 + rounds * options.players * 2000


GAME = SpqrGame()
