"""One table in memory (`Table`): its game, options and seed, seats held by unguessable tokens, the state,
the action log, its connections and what is cached for its readers; and the pieces of a log entry."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hegemon.ai.base import Bot
from hegemon.core.actions import Action
from hegemon.core.game import Game, State, views
from hegemon.core.play import derive_seed, play
from hegemon.server.guard import TokenBucket

REPLAY_EVERY = 100
"""A clone of the state is kept every REPLAY_EVERY actions as the game is played, so any past position (a replay
step, the last stored version) costs at most REPLAY_EVERY - 1 applied actions."""


REPLAY_LOG = 300
"""Log lines a replay step carries by default (the ones just before it); at most MAX_REPLAY_LOG."""


MAX_REPLAY_LOG = 1000


@dataclass
class Seat:
    index: int
    kind: str  # "human" | "bot"
    bot: str | None
    token: str
    name: str
    claimed: bool
    connected: int = 0
    open: bool = False
    """Open to anyone: joined from the lobby (`TableManager.join`), with a token minted for the joiner alone.
    Otherwise a person's seat is private: taken only through its link (the token given at creation), and
    taking it mints a new token for the taker alone (`TableManager.take`): the link's creator keeps nothing."""

    def to_json(self) -> dict[str, Any]:
        """Stored form (with the token: only the database sees it)."""
        return {
            "kind": self.kind, "bot": self.bot, "token": self.token, "name": self.name, "claimed": self.claimed,
            "open": self.open,
        }  # fmt: skip

    def public(self) -> dict[str, Any]:
        return {
            "seat": self.index,
            "kind": self.kind,
            "bot": self.bot,
            "name": self.name,
            "claimed": self.claimed,
            "connected": self.connected,
            "open": self.open,
        }


@dataclass(slots=True)
class LogEntry:
    action: Action
    actor: int  # the player who chose it, or CHANCE
    note: str  # "" | "auto" (the only legal action) | "timer" (a bot played a timed-out turn)
    changes: list[dict[str, Any]] | None = None
    """What the action changed on the table, in public facts only (the game's `news` module): conquests, losses,
    scoring… Every seat and spectator may see it."""


def play_with_news(game: Game, state: State, action: Action, chance: bool) -> list[dict[str, Any]] | None:
    """Play `action` on `state` (a chance outcome as drawn, a decision with the engine's checked `play`) and
    return what it changed, in public facts (None for a game without a `news` module)."""
    news = game.roles.news()
    before = news.facts(state) if news is not None else None
    if chance:
        state.apply(action)
    else:
        play(state, action)
    return news.news(state, before, action) if news is not None else None


class Connection:
    """One open connection (a seat or a spectator). `wake` is called whenever there is something to send."""

    def __init__(
        self, table: Table, seat: int | None, wake: Callable[[], None], token: str | None = None
    ) -> None:
        self.table = table
        self.seat = seat
        self.token = token
        """The seat's token this connection holds: once it no longer holds the seat (another took the seat with
        it first, elsewhere), the connection is closed (`TableManager.holds`)."""
        self.wake = wake
        self.log_sent = 0
        self.version_sent = -1
        self.seats_sent = -1
        self.errors: list[dict[str, Any]] = []
        self.people = 1
        """The websockets this connection stands for (the one connection of a table's spectators: all of them)."""


@dataclass(eq=False)
class Table:
    id: str
    game: Game
    options: Any
    seed: int
    seats: list[Seat]
    created: float
    turn_timer: int | None
    state: State
    log: list[LogEntry] = field(default_factory=list)
    finished: bool = False
    stopped: bool = False  # stopped by its creator: no more moves
    creator: str = ""  # the creator token: may stop or delete the table (only its creator ever sees it)
    last_active: float = field(default_factory=time.time)  # wall clock of the last move or (dis)connection
    watched: float = field(default_factory=time.time)  # wall clock of the last connection or request about it
    owner: str = ""  # the client address that made it, for TableLimits (kept in memory only)
    ended: float | None = None  # wall clock of the end (finished or stopped), for expiry
    salt: str = ""
    durable: int = 0  # the version whose actions are all committed: connections are never sent more
    connections: set[Connection] = field(default_factory=set)
    bots: dict[int, Bot] = field(default_factory=dict)
    timer_player: int | None = None
    deadline: float | None = None
    timed_out: int | None = None
    seats_version: int = 0  # the stored seats' version (several processes: a seat update names it)
    seats_pending: int = 0  # seat updates of this process not yet committed
    seats_epoch: int = 0  # counts changes of the seats (taken, connected): connections send them too
    stored_seats: list[dict[str, Any]] = field(default_factory=list)
    """The seats as last committed, with `stored_seats_version` and `stored_stopped`: a refused write goes back to
    them (seats and status as stored), never keeps a claim the database did not take."""
    stored_seats_version: int = 0
    stored_stopped: bool = False
    behind: bool = False
    """Another process changed the table first (a write of this process was refused as a conflict): it takes no
    move, seat or bot decision until it has caught up from the database (`TableManager.catch_up`)."""
    on_change: Callable[[Table], None] | None = None
    replay_checkpoints: dict[int, State] = field(default_factory=dict)
    stored: bool = True  # its creation is committed (a table not yet stored is not listed)
    durable_state: tuple[int, State] | None = None
    """The last stored version's position, kept for `TableManager.stored_view`."""
    record_parts: dict[Any, list[str]] = field(default_factory=dict)
    """Per viewer: each action's record JSON, kept for `TableManager.record_line`."""
    _view_cache: dict[Any, dict[str, Any]] = field(default_factory=dict)
    _view_version: int = -1
    undo: str = "off"  # the undo setting (UNDO_MODES)
    undos: int = 0
    """Undos done so far (stored undo rows): the state says it, and an action made before the last one is stale."""
    offset: int = 0
    """Stored action rows beyond the log: the rows undos took back and the undo rows themselves. The next row's
    index is `version + offset` (rows in the database only ever grow; the log is the game as it stands)."""
    undo_request: dict[str, Any] | None = None
    """A pending undo request ("agree" tables): {"seat", "upto", "first", "agreed": [seats]}; any move cancels it."""
    undoing: bool = False  # an undo waits for its commit: the table takes no move meanwhile
    undo_asked: dict[int, float] = field(default_factory=dict)
    chat: list[dict[str, Any]] = field(default_factory=list)
    """The newest CHAT_HISTORY chat lines, oldest first (seated players only ever see them)."""
    chat_buckets: dict[int, TokenBucket] = field(default_factory=dict)

    @property
    def rows(self) -> int:
        """The number of stored action rows (the index of the next one)."""
        return self.version + self.offset

    @property
    def version(self) -> int:
        return len(self.log)

    @property
    def name(self) -> str:
        return self.game.name

    @property
    def status(self) -> str:
        if self.stopped:
            return "stopped"
        if self.finished:
            return "finished"
        if any(s.kind == "human" and not s.claimed for s in self.seats):
            return "waiting"
        return "playing"

    def view(self, seat: int | None) -> dict[str, Any]:
        """`state.view(seat)`, cached for the current version (many spectators cost one view). On a miss, the
        views of every connected seat are made together (the game computes their public part once)."""
        if self._view_version != self.version:
            self._view_cache.clear()
            self._view_version = self.version
        v = self._view_cache.get(seat)
        if v is None:
            wanted = {seat} | {c.seat for c in self.connections if c.seat not in self._view_cache}
            for p, pv in views(self.state, wanted).items():
                pv.setdefault("legal_actions", [])
                self._view_cache[p] = pv
            v = self._view_cache[seat]
        return v

    def drop_caches(self) -> None:
        """Forget what was cached for readers (the table went back to an earlier version)."""
        self._view_version = -1
        self.durable_state = None
        self.record_parts.clear()

    def seconds_left(self, now: float) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - now)


TUTORIAL_SALT = "tutorial"
"""The public salt of a lesson table (`CreateTable.tutorial`): the same seed plays the same story."""


def derive_rng(seed: int, salt: str, version: int, undos: int = 0) -> random.Random:
    """The generator of the chance node at `version` of a table with `seed` and its secret `salt` (and `undos`
    undos done before it: 0 keeps the derivation every table had before undo existed)."""
    if undos:
        return random.Random(derive_seed(seed, salt, "chance", version, "undo", undos))
    return random.Random(derive_seed(seed, salt, "chance", version))
