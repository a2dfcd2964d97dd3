"""The wire protocol: request/response models for REST (they document `/openapi.json`), the closed set of error
codes, and the limits on what a client may send."""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

import orjson
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, WithJsonSchema

from hegemon.core import boardfile
from hegemon.games import game_names

ErrorCode = Literal[
    "illegal_action", "not_your_turn", "stale_version", "game_over", "unknown_table", "bad_request", "unauthorized",
    "unavailable",
]  # fmt: skip
"""The closed set of error codes: written here once; everything else (ERROR_CODES, HTTP_STATUS, the OpenAPI
document's responses and description) is derived from it and ERRORS."""
ERROR_CODES: tuple[ErrorCode, ...] = get_args(ErrorCode)

ERRORS: dict[ErrorCode, tuple[int, str]] = {
    "illegal_action": (422, "the rules refuse the action now (the rule, the reason's id and arguments, the legal actions)"),
    "not_your_turn": (409, "it is not this seat's turn, or the table is waiting for its players"),
    "stale_version": (409, "the action was made on an older position (the table's version comes with it)"),
    "game_over": (409, "the game is over"),
    "unknown_table": (404, "no such table (or game)"),
    "bad_request": (400, "malformed, too large, out of bounds or too many requests (HTTP 429, detail rate_limit)"),
    "unauthorized": (403, "the token does not hold that seat, or is not the creator's"),
    "unavailable": (503, "the database is not taking writes, or the odds are busy: nothing was changed, try again"),
}  # fmt: skip
"""Each code's HTTP status and meaning (the OpenAPI document lists them)."""

HTTP_STATUS: dict[str, int] = {code: status for code, (status, _) in ERRORS.items()}

MAX_MESSAGE_BYTES = 4096
"""Largest websocket message or action body a client may send (an action is well under 1 KB)."""
MAX_JSON_DEPTH = 32
"""Deepest nesting of arrays and objects accepted in any JSON a client sends (an action nests 3 deep)."""
MAX_BOARD_BYTES = boardfile.MAX_BOARD_BYTES
"""Largest corrected board file accepted at table creation (the board bounds: `hegemon.core.boardfile`)."""
MAX_NAME = 40
RATE_PER_SECOND = 20.0
"""Refused messages per second a connection may send (after a burst of RATE_BURST); all messages are held to
a budget per client address across its connections (`ws.WsLimits`)."""
RATE_BURST = 40.0


class ServerError(Exception):
    """A refusal with a typed code; `extra` goes to the client with it (e.g. the legal actions). `detail` names
    the case within the code and `args` its variable parts, so a client can say it in its own language
    (the web client's dictionaries have `err.<detail>`); `message` is the same in English."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        detail: str | None = None,
        args: dict[str, Any] | None = None,
        **extra: Any,
    ) -> None:
        assert code in ERROR_CODES, code
        self.code = code
        self.message = message
        self.detail = detail
        self.args_ = args or {}
        self.extra = extra
        super().__init__(f"{code}: {message}")

    def to_json(self) -> dict[str, Any]:
        out = {"type": "error", "code": self.code, "message": self.message, **self.extra}
        if self.detail:
            out["detail"] = self.detail
            if self.args_:
                out["args"] = self.args_
        return out


def parse_client_json(data: str | bytes) -> Any:
    """Parse JSON a client sent: strict UTF-8 (a lone surrogate, escaped or not, is refused: it could not be
    sent back to anybody), at most MAX_JSON_DEPTH levels deep (checked without recursion). ServerError
    bad_request otherwise."""
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as e:
        raise ServerError("bad_request", f"not valid JSON: {e}", detail="json") from None
    check_depth(value)
    return value


def check_depth(value: Any, limit: int = MAX_JSON_DEPTH) -> None:
    """ServerError bad_request if `value` nests lists or dicts more than `limit` levels deep."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            items: Any = v.values()
        elif isinstance(v, list):
            items = v
        else:
            continue
        if d > limit:
            raise ServerError("bad_request", f"JSON nested deeper than {limit} levels", detail="json_depth")
        stack.extend((x, d + 1) for x in items if isinstance(x, (dict, list)))


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatSpec(Strict):
    """One seat: a bot (`{"bot": "random"}`) or a person (`{"human": true, "name": "Ada"}`)."""

    bot: str | None = Field(None, max_length=40, description="Bot spec, e.g. random, greedy, mcts:hard")
    human: bool | None = Field(None, description="An open seat for a person")
    name: str | None = Field(None, max_length=MAX_NAME, description="Display name (escaped everywhere)")
    open: bool | None = Field(
        None,
        description="A person's seat open to anyone: joined from the lobby (POST /join) instead of through its "
        "private link",
    )


def _known_game(name: str) -> str:
    if name not in game_names():
        raise ValueError(f"unknown game; known games: {', '.join(game_names())}")
    return name


GameName = Annotated[
    str,
    AfterValidator(_known_game),
    WithJsonSchema({"type": "string", "enum": game_names(), "title": "Game"}),
]
"""A registered game's name (the schema lists them)."""


class CreateTable(Strict):
    """A new table. Everything but `game` is optional."""

    game: GameName
    players: int | None = Field(None, ge=2, le=5, description="Number of players (defaults from the seats)")
    options: dict[str, Any] = Field(
        default_factory=dict,
        description="Game options (see GET /api/games); `board` names one of the game's shipped `boards`, never a file",
    )
    seats: list[SeatSpec] | None = Field(
        None, max_length=5, description="Default: one person, the rest random bots"
    )
    seed: int | None = Field(None, ge=0, le=2**62, description="Seed of the chance draws (default: random)")
    turn_timer: int | None = Field(
        None, ge=5, le=86400, description="Seconds per turn; when they run out a bot plays that turn"
    )
    board_data: str | None = Field(
        None, max_length=MAX_BOARD_BYTES, description="A corrected board file (TOML text) for this table"
    )
    claim: int | None = Field(
        None, ge=0, le=4, description="Seat the creator takes at once (not offered to others)"
    )
    tutorial: bool = Field(
        False,
        description="A lesson: with a seed, the dice and the bots play the same story every time (no secret salt: "
        "its future is foreseeable, so it is for learning, not for a real game). Only for one person against bots: "
        "every seat but the one taken at once (`claim`) a bot, else bad_request `tutorial_people`",
    )
    undo: Literal["off", "agree", "always"] = Field(
        "off",
        description="Whether a player may take back their own last action while nothing hidden or random was "
        "revealed since: off; agree (every other seated person agrees; bots agree); always",
    )


class SeatInfo(BaseModel):
    seat: int
    kind: Literal["human", "bot"]
    bot: str | None = None
    name: str
    claimed: bool
    connected: int = 0
    open: bool = False


class SeatLink(SeatInfo):
    token: str | None = None
    url: str | None = None


class CreatedTable(BaseModel):
    id: str
    game: str
    creator_token: str | None = Field(
        None, description="Private to the creator: stops (POST /stop) or deletes (POST /delete) the table"
    )
    seats: list[SeatLink]
    spectator_url: str
    version: int
    status: str


class TableSummary(BaseModel):
    id: str
    game: str
    title: str
    status: Literal["waiting", "playing", "finished", "stopped"]
    version: int
    created: float
    seats: list[SeatInfo]
    open_seats: int
    joinable: int = 0
    round: Any = None
    turn_timer: int | None = None
    board: str | None = Field(
        None,
        description="The board the table plays on: a name of the game's `boards` (`default`: its own board), or "
        "`uploaded` for a corrected board file",
    )


class TableDetail(TableSummary):
    you: int | None = None
    options: dict[str, Any]
    outcome: dict[str, Any] | None = None
    view: dict[str, Any]


class ActionRequest(Strict):
    """An action for the seat holding `token`, made on the position of `version`."""

    token: str = Field(..., max_length=100)
    version: int = Field(..., ge=0)
    action: dict[str, Any]
    undos: int | None = Field(
        None,
        ge=0,
        description="The table's undo count as the client last saw it (`undos` of the state): an action "
        "made before an undo the client has not seen is refused stale_version",
    )


class CreatorRequest(Strict):
    """The creator token returned at the table's creation."""

    creator_token: str = Field(..., max_length=100)


class ActionAccepted(BaseModel):
    version: int
    status: str


class JoinRequest(Strict):
    name: str | None = Field(None, max_length=MAX_NAME)


class TakeSeat(Strict):
    """Take the private seat whose link holds `token`, under `name`."""

    token: str = Field(..., max_length=100)
    name: str | None = Field(None, max_length=MAX_NAME)


class Joined(BaseModel):
    seat: int
    token: str
    url: str


class ErrorBody(BaseModel):
    """A refusal. `detail` names the case within the code (e.g. "turn_of", "rate_limit", "board") and `args` its
    variable parts, so a client can say it in its own language; `message` says it in English. `illegal_action`
    also carries the phase, the rule the action breaks (e.g. "R 13.6", "§4.3"; empty when the game cannot name
    one), the reason as data (`detail` the game's reason id, e.g. "last_legionary", `args` its arguments, `reason`
    the same in English: `hegemon.core.errors.Refusal`) and the legal actions of the seat; `stale_version` the
    table's version."""

    type: Literal["error"] = "error"
    code: ErrorCode
    message: str
    detail: str | None = None
    args: dict[str, Any] | None = None
    phase: str | None = None
    rule: str | None = None
    reason: str | None = None
    legal_actions: list[dict[str, Any]] | None = None
    version: int | None = None


RATE_LIMITED = "`bad_request`: too many requests (detail `rate_limit`, with Retry-After)"


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI `responses` of a route: for each HTTP status of `statuses` (default: every status of ERRORS,
    and 429) the error body and the codes it carries, with their meanings."""
    by_status: dict[int, list[str]] = {}
    for code, (status, meaning) in ERRORS.items():
        by_status.setdefault(status, []).append(f"`{code}`: {meaning}")
    by_status[429] = [RATE_LIMITED]
    wanted = statuses or tuple(sorted(by_status))
    return {st: {"model": ErrorBody, "description": "; ".join(by_status[st])} for st in wanted}


class GameInfo(BaseModel):
    name: str
    title: str
    min_players: int
    max_players: int
    options: list[dict[str, Any]]
    preset_field: str | None = None
    presets: dict[str, dict[str, Any]] = {}
    boards: list[str] = Field(
        default_factory=list,
        description="The boards that ship with the game, its own (`default`) first; another is "
        "chosen with the option `board` at table creation",
    )


class GamesList(BaseModel):
    games: list[GameInfo]
    bots: list[str]
