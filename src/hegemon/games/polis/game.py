"""The Polis game object (`GAME`): options, new games, the action codec and the bound on game length."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from hegemon.core.game import Game
from hegemon.core.gamebase import BaseGame
from hegemon.core.roles import BoardRole, BotRole, EncoderRole, LabRole, NewsRole, Roles, TextRole
from hegemon.games.polis.actions import CODEC
from hegemon.games.polis.board import SHIPPED_BOARDS, load_board
from hegemon.games.polis.options import PolisOptions
from hegemon.games.polis.state import PolisState, new_state

# ---------------------------------------------------------------- the roles, each imported on first use


def _text() -> TextRole:
    from hegemon.games.polis.text import TEXT

    return TEXT


def _bots() -> BotRole:
    from hegemon.ai.games.polis import BOTS

    return BOTS


def _lab() -> LabRole:
    from hegemon.games.polis.measures import LAB

    return LAB


def _encoder() -> EncoderRole:
    from hegemon.games.polis.encoder import ENCODER

    return ENCODER


def _boards() -> BoardRole:
    from hegemon.games.polis.board import BOARDS

    return BOARDS


def _news() -> NewsRole:
    from hegemon.games.polis.news import NEWS

    return NEWS


ROLES = Roles(text=_text, bots=_bots, lab=_lab, encoder=_encoder, boards=_boards, news=_news)


class PolisGame(BaseGame[PolisOptions]):
    """Polis: Fight for the Hegemony — two players, Athens (0) and Sparta (1)."""

    name = "polis"
    title = "Polis: Fight for the Hegemony"
    min_players = 2
    max_players = 2
    options_type = PolisOptions
    codec = CODEC
    roles = ROLES
    side_names = (("Athens", "Atene"), ("Sparta", "Sparta"))
    ends_after_rounds = True
    # selfplay_defaults: none (bots-only games play the whole game as printed)

    def position_odds_job(self, state: PolisState, query: Mapping[str, str]) -> Callable[[], dict[str, Any]]:
        """The computation of the exact odds of the siege `query` describes in `state` (`odds.position_odds_job`)."""
        from hegemon.games.polis.odds import position_odds_job

        return position_odds_job(state, query)

    def glossary(self, board: Any = None) -> dict[str, Any]:
        """What each event, project and combat card does, for the client's tooltips: of the shipped board, or of `board`
        (a table's corrected board file)."""
        from hegemon.games.polis.glossary import board_glossary, glossary

        return glossary() if board is None else board_glossary(board)

    def shipped_boards(self) -> tuple[str, ...]:
        """The boards that ship with Polis: the reconstruction ("default") and the balanced board ("balanced",
        README "Balance of the reconstructed board"), chosen with the option `board=balanced`."""
        return tuple(SHIPPED_BOARDS)

    def game_length(self, state: PolisState) -> tuple[int, int | None]:
        """How long `state`'s game has gone: rounds played (the state counts them from 0), and no game-long
        turn count (`turns` counts within the round)."""
        return state.round + 1, None

    def turn_count(self, state: PolisState) -> int:
        """Turns played in the current round (it restarts at 0 when a round's play starts)."""
        return int(state.turns)

    def new_game(self, options: Any = None, seed: int = 0) -> PolisState:
        """A new game at its first chance node (the project offer). The seed is not used: every random
        event is a chance node, drawn by the caller's generator."""
        opts = self.options_of(options)
        board = load_board(opts.board)
        key = f"start:{opts!r}"  # every new game of a board and options starts identical: build it once
        start: PolisState | None = board.cache.get(key)
        if start is None:
            start = board.cache[key] = new_state(board, opts)
        return start.clone()

    def max_actions(self, options: Any = None) -> int:
        """A safe upper bound on atomic actions in one game. Per round: at most `max_turns_per_round` turns;
        each turn two actions of at most 40 atomic steps (a move: destination, ≤ 25 sources, end; a siege:
        ≤ 8 steps) plus the extra resources, then at most one battle per territory; a battle is 2 × hand
        draws and at most (deck − 2 × hand) / 2 + 1 exchanges of ≤ 8 steps (2 retreat choices, play, match,
        ≤ 4 draws); then the end of round (releases, growth, phoros, draws, event removals). With
        `max_turns_per_round = 0` there is no bound (a round may go on forever, §4.9): 10**9 is returned."""
        opts = self.options_of(options)
        cap = opts.max_turns_per_round
        if not cap:
            return 10**9
        b = load_board(opts.board)
        per_battle = 2 * b.hand_size + ((b.deck_size - 2 * b.hand_size) // 2 + 1) * 8
        per_turn = 2 * 40 + 2 + b.n_terr * per_battle
        per_round_end = 2 * (b.n_poleis + sum(b.p_growth) + 2) + b.project_offer + 1 + 2 * b.cubes
        return len(b.round_limit) * (cap * per_turn + per_round_end) + 10


GAME: Game = PolisGame()
