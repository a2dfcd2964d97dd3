"""S.P.Q.RisiKo! wired into the Game protocol: options, initial state, action codec, bounds."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from hegemon.core.game import Game
from hegemon.core.gamebase import BaseGame
from hegemon.core.roles import BoardRole, BotRole, EncoderRole, LabRole, NewsRole, Roles, TextRole
from hegemon.games.spqrisiko.actions import CODEC
from hegemon.games.spqrisiko.board import load_board
from hegemon.games.spqrisiko.options import SpqrOptions
from hegemon.games.spqrisiko.state import SpqrState, new_state

# ---------------------------------------------------------------- the roles, each imported on first use


def _text() -> TextRole:
    from hegemon.games.spqrisiko.text import TEXT

    return TEXT


def _bots() -> BotRole:
    from hegemon.ai.games.spqrisiko import BOTS

    return BOTS


def _lab() -> LabRole:
    from hegemon.games.spqrisiko.measures import LAB

    return LAB


def _encoder() -> EncoderRole:
    from hegemon.games.spqrisiko.encoder import ENCODER

    return ENCODER


def _boards() -> BoardRole:
    from hegemon.games.spqrisiko.board import BOARDS

    return BOARDS


def _news() -> NewsRole:
    from hegemon.games.spqrisiko.news import NEWS

    return NEWS


ROLES = Roles(text=_text, bots=_bots, lab=_lab, encoder=_encoder, boards=_boards, news=_news)


class SpqrGame(BaseGame[SpqrOptions]):
    """S.P.Q.RisiKo! (Editrice Giochi 2005) for 3-5 players, rule sets `house-1.2` (default) and `official`."""

    name = "spqrisiko"
    title = "S.P.Q.RisiKo!"
    min_players = 3
    max_players = 5
    options_type = SpqrOptions
    codec = CODEC
    roles = ROLES
    selfplay_defaults = MappingProxyType({"random_deal": True, "max_rounds": 60})
    """Options of bots-only games (self-play, lab, RL) unless told otherwise: bots do not choose the initial
    provinces, and a game of bots that never ends stops after 60 rounds."""

    def players(self, options: Any) -> int:
        """The number of players the options ask for."""
        return int(self.options_of(options).players)

    def position_odds_job(self, state: SpqrState, query: Mapping[str, str]) -> Callable[[], dict[str, Any]]:
        """The computation of the odds of the attack `query` describes in `state` (`odds.position_odds_job`)."""
        from hegemon.games.spqrisiko.odds import position_odds_job

        return position_odds_job(state, query)

    def glossary(self, board: Any = None) -> dict[str, Any]:
        """What each card and power centre does, for the client's tooltips: of the shipped board, or of `board`
        (a table's corrected board file)."""
        from hegemon.games.spqrisiko.glossary import board_glossary, glossary

        return glossary() if board is None else board_glossary(board)

    def game_length(self, state: SpqrState) -> tuple[int, int | None]:
        """How long `state`'s game has gone: (rounds played, counted from 1; turns over the game)."""
        return state.round, state.turns

    def turn_count(self, state: SpqrState) -> int:
        """Player turns begun over the game."""
        return int(state.turns)

    def new_game(self, options: SpqrOptions | Mapping[str, Any] | None = None, seed: int = 0) -> SpqrState:
        """The initial state (the first step is the chance draw of the order of play). All randomness is
        in chance nodes, so `seed` only matters to whoever samples them."""
        opts = self.options_of(options)
        return new_state(load_board(opts.board), opts)

    def max_actions(self, options: SpqrOptions) -> int:
        """A safe bound on atomic actions in one game (generous: the round limit ends games long before)."""
        rounds = options.max_rounds if options.max_rounds is not None else 500
        return 200 + rounds * options.players * 2000


GAME: Game = SpqrGame()
