"""The boards a table plays on: one of the game's shipped boards by name, or a corrected board file uploaded
at the table's creation (`check_board`, run off the event loop; stored by its content's hash)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from hegemon.core import boardfile
from hegemon.core.errors import ConfigError, HegemonError
from hegemon.core.game import Game
from hegemon.core.roles import BoardRole
from hegemon.games import get_game
from hegemon.server.protocol import ServerError

BOARD_NAME = re.compile(r"[0-9a-f]{24}\.toml")


def board_module(game: str) -> BoardRole:
    """The boards role of a game (`board_from_text`, `register_board`, `forget_board`)."""
    boards = get_game(game).roles.boards()
    if boards is None:
        raise ConfigError("game", f"{game} has no board files")
    return boards


def shipped_board(game: Game, name: Any, upload: bool) -> str | None:
    """The board option of a new table whose request names a board (`options.board`): None for the game's default
    board (or none named), else the name of another board that ships with the game (`Game.shipped_boards`).
    Anything else, a path above all, is refused (bad_request `board_unknown`, naming the boards there are), and
    so is a shipped board other than the default together with an uploaded file (`board_both`)."""
    if name is None:
        return None
    boards = game.shipped_boards()
    if not isinstance(name, str) or name not in boards:
        shown = (name if isinstance(name, str) else json.dumps(name, default=str))[:40]
        raise ServerError(
            "bad_request",
            f"option 'board': {shown!r} is not a board of {game.title} ({', '.join(boards)}); a corrected board "
            "file is sent as board_data",
            detail="board_unknown",
            args={"name": shown, "boards": ", ".join(boards)},
        )
    if name == boards[0]:
        return None
    if upload:
        raise ServerError(
            "bad_request", f"option 'board': {name!r} ships with the game; send either it or a board file (board_data)",
            detail="board_both", args={"name": name},
        )  # fmt: skip
    return name


def board_label(game: Game, options: Any) -> str:
    """Which board a table plays on, for its summary: the name of a shipped board ("default" for the game's own),
    or "uploaded" for a corrected board file."""
    name = game.board_name(options)
    boards = game.shipped_boards()
    if name is None:
        return boards[0]
    return name if name in boards else "uploaded"


@dataclass(frozen=True)
class UploadedBoard:
    """A board upload that passed validation, not yet stored: its game, content-hash name, bytes and Board."""

    game: str
    name: str
    data: bytes
    board: Any


def check_board(game: str, text: str) -> UploadedBoard:
    """Validate an uploaded board's text for `game` within the bounds of `hegemon.core.boardfile`; nothing is
    stored. Bounded and linear, but tens of milliseconds for a large file: the web app runs it in a thread.
    Refusals are ServerError bad_request naming the entry ("board: cards.legionary: ...")."""
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        raise ServerError(
            "bad_request", "board_data: not valid Unicode text", detail="board_unicode"
        ) from None
    try:
        game = get_game(game).name
        boardfile.decode(data, "board")
        board = board_module(game).board_from_text(text, "board")
    except HegemonError as e:  # RulesDataError naming the entry; ConfigError for an unknown game
        raise ServerError("bad_request", str(e), detail="board", args={"msg": str(e)[:300]}) from None
    return UploadedBoard(game, boardfile.board_name(data), data, board)
