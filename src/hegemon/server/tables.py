"""The authoritative tables: each holds a game, its options and seed, seats held by unguessable tokens, the
state, a version (the number of accepted actions) and the action log. `TableManager` is a plain class — no
web framework in it — that validates every action with the engine's `play`, stores it durably *before*
anyone hears about it, filters what each seat may see, and wakes the connections that must send an update.
Tests use it directly with `MemoryStorage`.

Chance nodes and decisions with a single legal action are played by the server at once (nobody waits on a
phase without a choice). Chance is drawn with `random.Random(derive_seed(seed, salt, "chance", version))`, so a
restarted server continues exactly where it stopped; the generator state and the per-table secret salt never
leave the server, so not even whoever chose the seed can foresee a draw.

One table in memory is `table.py` (`Table`, `Seat`, `Connection`, the log); players' names are `names.py`;
shipped and uploaded boards `boards.py`; the table chat `chat.py`, undo `undo.py`, seats `seating.py`
and the readers of past and stored positions (records, replays, summaries) `records.py` (mixins of `TableManager`)."""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hegemon.ai import bot_names, make_bot
from hegemon.ai.base import Bot
from hegemon.ai.levels import LEVELS
from hegemon.core import boardfile
from hegemon.core.actions import Action
from hegemon.core.errors import HegemonError, IllegalActionError, RulesDataError
from hegemon.core.game import CHANCE, TERMINAL
from hegemon.core.play import derive_seed, sample_chance
from hegemon.games import get_game
from hegemon.server.boards import (
    BOARD_NAME,
    UploadedBoard,
    board_label,
    board_module,
    check_board,
    shipped_board,
)
from hegemon.server.chat import CHAT_BURST as CHAT_BURST
from hegemon.server.chat import CHAT_HISTORY as CHAT_HISTORY
from hegemon.server.chat import CHAT_MAX as CHAT_MAX
from hegemon.server.chat import ChatMixin
from hegemon.server.names import clean_name, unique_name
from hegemon.server.protocol import CreateTable, SeatSpec, ServerError
from hegemon.server.records import RecordsMixin
from hegemon.server.seating import SeatingMixin
from hegemon.server.settings import TableLimits
from hegemon.server.storage import CONFLICT, MemoryStorage, Storage, StoredTable
from hegemon.server.table import (
    REPLAY_EVERY,
    TUTORIAL_SALT,
    Connection,
    LogEntry,
    Seat,
    Table,
    derive_rng,
    play_with_news,
)
from hegemon.server.undo import UNDO_ASK_EVERY as UNDO_ASK_EVERY
from hegemon.server.undo import UNDO_MODES, UNDO_NOTE, UndoMixin, public_request

log = logging.getLogger("hegemon.server")


LIST_LIMIT = 200
"""Tables the lobby list shows (the newest), and summaries of ended tables kept for it once they left memory."""


class TooManyTables(ServerError):
    """A new table refused because of `TableLimits`: the client's live tables (429 bad_request
    `too_many_tables`) or the server's (503 unavailable `server_full`); nothing was created."""

    def __init__(self, mine: bool, limit: int) -> None:
        if mine:
            super().__init__(
                "bad_request", f"you already have {limit} tables going: stop or delete one, or wait for one to end",
                detail="too_many_tables", args={"limit": limit},
            )  # fmt: skip
        else:
            super().__init__(
                "unavailable", f"the server has {limit} tables going, its most: try again later",
                detail="server_full", args={"limit": limit},
            )  # fmt: skip
        self.status = 429 if mine else 503
        self.retry_after = 60.0


SERVER_BLOCKED_BOTS = ("external",)
"""Bot kinds a web client may not seat: `external:URL` would make the server call any address."""


STRENGTHS = tuple(LEVELS)
"""The search levels a table offers (`mcts:NAME`; `ai/levels.py`), weakest first."""


LEVEL_ONLY_BOTS = ("rollout",)
"""Search kinds a table offers only through the named levels (a level may play a game by the rollout search): a
raw `rollout:N` would let a client choose its own budget."""

UNLISTED_BOTS = ("greedy",)
"""Bot kinds a table seats but the lobby does not list: `greedy` is `mcts:easy`'s bot (`ai/levels.py`), listed
once, as the level (tables and clients that name it keep working)."""


def web_bots() -> list[str]:
    """The bot specs offered at the table: every registered kind (new ones appear by themselves) except the
    blocked ones, search bots at their named strengths only (so nobody can ask for a billion iterations)."""
    out: list[str] = []
    for name in bot_names():
        if name in SERVER_BLOCKED_BOTS or name in LEVEL_ONLY_BOTS:
            continue
        if name == "mcts":
            out.extend(f"{name}:{s}" for s in STRENGTHS)
        else:
            out.append(name)
    return out


def lobby_bots() -> list[str]:
    """The bots the lobby lists, each bot once: `web_bots()` but for `UNLISTED_BOTS`."""
    return [b for b in web_bots() if b not in UNLISTED_BOTS]


class TableManager(ChatMixin, UndoMixin, SeatingMixin, RecordsMixin):
    """Every table of the server, their storage and their connections."""

    def __init__(
        self,
        storage: Storage | None = None,
        *,
        board_dir: str | Path | None = None,
        clock: Callable[[], float] = time.monotonic,
        timer_bot: str | None = None,
        salt: Callable[[], str] = lambda: secrets.token_hex(16),
        limits: TableLimits | None = None,
    ) -> None:
        self.storage: Storage = storage if storage is not None else MemoryStorage()
        self.tables: dict[str, Table] = {}
        self.limits = limits if limits is not None else TableLimits()
        self.lazy = not isinstance(self.storage, MemoryStorage)
        """Whether ended tables leave memory (`unload`) and are read back when asked for: only when stored."""
        self.ended_list: OrderedDict[str, dict[str, Any]] = OrderedDict()
        """Lobby summaries of the newest ended tables that left memory (at most LIST_LIMIT)."""
        self.shared = False
        """Whether other server processes serve the same database (`hegemon.server.cluster`)."""
        self.board_dir = Path(board_dir) if board_dir is not None else None
        self.clock = clock
        self.new_salt = salt
        names = bot_names()
        self.timer_bot = timer_bot or ("greedy" if "greedy" in names else "random")
        self._pending_board: UploadedBoard | None = None
        self._pending_fresh = False
        self.notice: dict[str, Any] | None = (
            None  # what every connection is told about the database, if anything
        )
        listeners = getattr(self.storage, "listeners", None)
        if listeners is not None:
            listeners.append(self._storage_status)
        if hasattr(self.storage, "on_lost"):
            self.storage.on_lost = self._rollback

    # ------------------------------------------------------------------ the database's health

    def unavailable(self) -> str | None:
        """Why the database takes no writes now (None: it does)."""
        return getattr(self.storage, "down", None)

    def _check_storage(self) -> None:
        down = self.unavailable()
        if down is not None:
            raise ServerError(
                "unavailable",
                f"the database is not taking writes ({down}); nothing was changed, try again shortly",
            )

    @staticmethod
    def _check_current(table: Table) -> None:
        if table.undoing:
            raise ServerError(
                "stale_version", "an undo is being stored; try again", version=table.version, detail="stale",
            )  # fmt: skip
        if table.behind:
            raise ServerError(
                "stale_version", "another server process changed this table first; it is catching up, try again",
                version=table.version, detail="stale",
            )  # fmt: skip

    @staticmethod
    def _check_open(table: Table) -> None:
        if table.stopped:
            raise ServerError("game_over", "the table was stopped by its creator", detail="stopped")
        if table.finished:
            raise ServerError("game_over", "the game is over", detail="over")

    def _storage_status(self, down: str | None) -> None:
        """The database stopped or resumed taking writes: tell every connection, wake the bots."""
        if down is not None:
            self.notice = {"type": "status", "code": "storage_down", "message": (
                "the server cannot store moves now: play is paused and resumes by itself; nothing acknowledged "
                "is lost")}  # fmt: skip
        else:
            self.notice = None
        msg = self.notice or {
            "type": "status",
            "code": "storage_ok",
            "message": "the server stores moves again",
        }
        for t in list(self.tables.values()):
            for c in t.connections:
                c.errors.append(dict(msg))
                c.wake()
            if down is None and t.on_change is not None:
                t.on_change(t)

    def _rollback(self, table_id: str, reason: str) -> None:
        """The database refused `table_id`'s writes for good: go back to its last stored version (a table whose
        creation was refused is dropped), tell its connections, and store its writes again from there."""
        t = self.tables.get(table_id)
        if t is not None:
            if not t.stored:
                del self.tables[table_id]
                for c in t.connections:
                    c.errors.append(
                        ServerError(
                            "unavailable", f"this table could not be stored: {reason}", detail="not_created"
                        ).to_json()
                    )
                    c.wake()
            else:
                state = self.state_at(t, t.durable)
                del t.log[t.durable :]
                t.state = state
                t.finished = state.current_player() == TERMINAL
                # the seats and the status as stored: a claim the database refused is no claim (a token minted
                # for it was never handed out), and a stop it refused did not happen
                self._set_seats(t, t.stored_seats)
                t.seats_version = t.stored_seats_version
                t.stopped = t.stored_stopped and not t.finished
                if not (t.finished or t.stopped):
                    t.ended = None
                t.bots.clear()
                t.undoing = False
                t.undo_request = None
                t.drop_caches()
                for k in [k for k in t.replay_checkpoints if k > t.durable]:
                    del t.replay_checkpoints[k]
                t.timer_player = None
                for c in t.connections:
                    c.log_sent = 0  # the whole log again: the client starts over from it
                    c.version_sent = -1
                    code = "stale_version" if reason == CONFLICT else "unavailable"  # CONFLICT: it catches up
                    c.errors.append(ServerError(
                        code, f"the last moves could not be stored ({reason}); the table is back at "
                        f"version {t.durable}").to_json())  # fmt: skip
        self.storage.resume(table_id)  # type: ignore[attr-defined]  # only QueuedWrites loses writes
        if t is not None and t.stored:
            if self.shared and reason == CONFLICT:
                # another process changed this table first: it catches up from the database (the cluster reads it
                # now) and plays on from there. Playing on from the old position meanwhile (what is due, a bot's
                # move) would only write what the database refuses again, over and over.
                t.behind = True
            else:
                self._advance(t)
            self._update_timer(t)
            self._changed(t)

    # ------------------------------------------------------------------ creation and loading

    def create(self, req: CreateTable, board: UploadedBoard | None = None, owner: str = "") -> Table:
        """A new table from a validated request (bad options or seats: ServerError bad_request), made by the
        client at address `owner` (TooManyTables beyond `TableLimits`). An uploaded board (`req.board_data`,
        validated beforehand into `board` or here) is stored only once the table is."""
        self.check_room(owner)
        self._pending_board = None
        self._pending_fresh = False
        try:
            table = self._create(req, board)
            table.owner = owner
            return table
        finally:
            if self._pending_board is not None and self._pending_fresh:  # refused: nothing left behind
                board_module(self._pending_board.game).forget_board(self._pending_board.name)
            self._pending_board = None

    def live(self) -> list[Table]:
        """The tables in memory that have not ended (neither finished nor stopped)."""
        return [t for t in self.tables.values() if not (t.finished or t.stopped)]

    def check_room(self, owner: str) -> None:
        """TooManyTables if a new table of the client at `owner` would pass a limit of `TableLimits`."""
        lim = self.limits
        if not lim.max_tables and not lim.max_tables_per_client:
            return
        live = self.live()
        if lim.max_tables and len(live) >= lim.max_tables:
            raise TooManyTables(False, lim.max_tables)
        if (
            owner
            and lim.max_tables_per_client
            and sum(t.owner == owner for t in live) >= lim.max_tables_per_client
        ):
            raise TooManyTables(True, lim.max_tables_per_client)

    def _create(self, req: CreateTable, board: UploadedBoard | None) -> Table:
        game = get_game(req.game)
        raw = dict(req.options)
        shipped = shipped_board(game, raw.pop("board", None), req.board_data is not None)
        if shipped is not None:
            raw["board"] = shipped
        fields = {o["name"] for o in game.describe_options()}
        n = req.players or (len(req.seats) if req.seats else None)
        if n is None and "players" in raw:
            n = raw["players"] if isinstance(raw["players"], int) else None
        if n is None:
            n = game.players(game.parse_options(None))  # the game's default table
        if not game.min_players <= n <= game.max_players:
            raise ServerError(
                "bad_request",
                f"{req.game} is for {game.min_players}-{game.max_players} players, not {n}",
                detail="players",
                args={"lo": game.min_players, "hi": game.max_players, "n": n},
            )
        if "players" in fields:
            raw["players"] = n
        if req.board_data is not None:
            raw["board"] = self._accept_board(game.name, req.board_data, board)
        try:
            options = game.parse_options(raw)
        except HegemonError as e:
            raise ServerError("bad_request", str(e), detail="options", args={"msg": str(e)[:300]}) from None
        specs: list[SeatSpec | None] = list(req.seats) if req.seats else [None] * n
        if len(specs) != n:
            raise ServerError(
                "bad_request",
                f"{n} players need {n} seats, got {len(specs)}",
                detail="seat_count",
                args={"n": n, "got": len(specs)},
            )
        seats: list[Seat] = []
        for i, spec in enumerate(specs):
            if spec is None:
                spec_bot = None if i == 0 else "random"
                name = None
            else:
                if spec.bot is not None and spec.human:
                    raise ServerError(
                        "bad_request",
                        f"seat {i}: a seat is a bot or a person, not both",
                        detail="seat_both",
                        args={"seat": i + 1},
                    )
                spec_bot = spec.bot
                name = spec.name
            if spec_bot is not None:
                spec_bot = spec_bot.strip().lower()
                allowed = web_bots()
                if spec_bot not in allowed:
                    raise ServerError(
                        "bad_request",
                        f"seat {i}: unknown bot {spec_bot!r}; this table offers {', '.join(allowed)}",
                    )
                try:
                    make_bot(spec_bot, 0)
                except HegemonError as e:
                    raise ServerError(
                        "bad_request",
                        f"seat {i}: {e}",
                        detail="seat_bad",
                        args={"seat": i + 1, "msg": str(e)[:200]},
                    ) from None
                shown = unique_name(
                    clean_name(name, spec_bot), [x.name for x in seats]
                )  # bots too: no look-alikes
                seats.append(Seat(i, "bot", spec_bot, secrets.token_urlsafe(18), shown, True))
            else:
                shown = unique_name(clean_name(name, f"Player {i + 1}"), [x.name for x in seats])
                is_open = bool(spec is not None and spec.open)
                seats.append(Seat(i, "human", None, secrets.token_urlsafe(18), shown, False, open=is_open))
        if req.claim is not None:
            if req.claim >= n or seats[req.claim].kind != "human":
                raise ServerError(
                    "bad_request",
                    f"claim: seat {req.claim} is not an open seat",
                    detail="claim",
                    args={"seat": req.claim + 1},
                )
            seats[req.claim].claimed = True
        if req.tutorial:
            # a lesson has no secret salt: its future is foreseeable from its seed, so nobody but the learner
            # (the creator, seated at once) may play at it: every other seat is a bot
            people = [s.index for s in seats if s.kind == "human"]
            if len(people) != 1 or req.claim != people[0] or seats[people[0]].open:
                raise ServerError(
                    "bad_request", "a lesson (tutorial) is for one person against bots: every seat but the one the "
                    "creator takes at once (claim) must be a bot", detail="tutorial_people",
                )  # fmt: skip
        seed = req.seed if req.seed is not None else secrets.randbits(62)
        tid = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        table = Table(
            tid, game, options, seed, seats, time.time(), req.turn_timer, game.new_game(options, seed)
        )
        table.undo = req.undo
        # a lesson (with a seed) tells the same story every time: its dice and bots have no secret salt
        table.salt = TUTORIAL_SALT if req.tutorial and req.seed is not None else self.new_salt()
        table.creator = secrets.token_urlsafe(18)
        table.stored_seats = [s.to_json() for s in seats]
        self._check_storage()
        table.stored = False
        self._store_board()
        self.storage.create_table(self._stored(table))
        self.storage.after_commit(lambda: setattr(table, "stored", True), tid)
        self.tables[tid] = table
        self._advance(table)
        self._changed(table)
        return table

    def _accept_board(self, game: str, text: str, board: UploadedBoard | None) -> str:
        """Validate an upload (unless done already) and make it usable by name while the table is built; the
        options hold its content-hash name, never a server path."""
        if self.board_dir is None:
            raise ServerError("bad_request", "this server does not accept board files", detail="no_boards")
        up = board if board is not None and board.game == game else check_board(game, text)
        mod = board_module(game)
        self._pending_board = up
        self._pending_fresh = mod.registered_board(up.name) is None
        if self._pending_fresh:
            mod.register_board(up.name, up.board)
        return up.name

    def _store_board(self) -> None:
        """Write the accepted upload to the board directory (content-addressed: written once, and again if the
        file went missing), synced to disk before the table that names it is stored. A write that fails (a full
        disk above all) leaves nothing behind and refuses the table: ServerError unavailable `board_not_stored`."""
        up = self._pending_board
        if up is None or self.board_dir is None:
            return
        path = self.board_dir / up.name
        tmp = path.with_suffix(".part")
        try:
            self.board_dir.mkdir(parents=True, exist_ok=True)
            if not path.exists():
                with open(tmp, "wb") as f:
                    f.write(up.data)
                    f.flush()
                    os.fsync(f.fileno())
                tmp.replace(path)
        except OSError as e:
            tmp.unlink(missing_ok=True)
            log.warning("board file %s not stored: %s", up.name, e)
            raise ServerError(
                "unavailable", f"the server cannot store the board file now ({e.strerror or e}); nothing was "
                "created, try again later", detail="board_not_stored",
            ) from None  # fmt: skip
        self._pending_board = None

    def _stored_board(self, game: str, options: dict[str, Any]) -> tuple[dict[str, Any], Any]:
        """Options of a stored table with its board resolved by name: the board file is read from the board
        directory and validated again (RulesDataError if it is missing or no longer valid). Tables stored with
        a server path get the file's name instead."""
        ref = options.get("board")
        if ref is None or ref in get_game(game).shipped_boards():  # a shipped board, by its name
            return options, None
        name = Path(str(ref)).name
        if not BOARD_NAME.fullmatch(name):
            raise RulesDataError(str(ref), "file", "not the name of an uploaded board")
        mod = board_module(game)
        board = mod.registered_board(name)
        if board is None:
            if self.board_dir is None:
                raise RulesDataError(name, "file", "this server has no board directory")
            board = mod.board_from_text(boardfile.read_text(self.board_dir / name, name), name)
            mod.register_board(name, board)
        return options | {"board": name}, board  # the caller holds the board until its game does

    def _stored(self, t: Table) -> StoredTable:
        return StoredTable(
            t.id, t.game.name, t.game.version, t.options.to_json(), t.seed, [s.to_json() for s in t.seats],
            t.created, t.turn_timer, t.status, salt=t.salt, creator=t.creator, undo=t.undo,
        )  # fmt: skip

    def load(self) -> int:
        """Rebuild every stored table that has not ended by replaying its actions with `play` (ended ones are
        read back when asked for: `build`); returns how many were loaded."""
        n = 0
        for st in self.storage.load_live():
            table = self.build(st)
            if table is not None:
                self.adopt(table)
                n += 1
        recent = getattr(self.storage, "recent_ended", None)
        if recent is not None:  # the lobby lists the newest ended tables without rebuilding them
            for st, steps in reversed(recent(LIST_LIMIT, TUTORIAL_SALT)):
                with contextlib.suppress(HegemonError, KeyError, TypeError, ValueError):
                    self.ended_list[st.id] = self.stored_summary(st, steps)
        return n

    @staticmethod
    def stored_summary(st: StoredTable, steps: int) -> dict[str, Any]:
        """The lobby's summary of an ended table as stored, with `steps` actions (no replay: no round)."""
        game = get_game(st.game)
        board = st.options.get("board")
        boards = game.shipped_boards()
        seats = [
            Seat(
                i, s["kind"], s.get("bot"), "", s["name"], bool(s.get("claimed")), open=bool(s.get("open"))
            ).public()
            for i, s in enumerate(st.seats)
        ]
        return {
            "id": st.id, "game": game.name, "title": game.title, "status": st.status, "version": steps,
            "created": st.created, "seats": seats,
            "open_seats": sum(1 for s in st.seats if s["kind"] == "human" and not s.get("claimed")),
            "joinable": sum(1 for s in st.seats if s["kind"] == "human" and s.get("open") and not s.get("claimed")),
            "round": None, "turn_timer": st.turn_timer,
            "board": boards[0] if board is None else (board if board in boards else "uploaded"),
        }  # fmt: skip

    def build(self, st: StoredTable) -> Table | None:
        """A table rebuilt from its stored form by replaying its actions with `play` (None, logged, when its game
        or board no longer loads, or its actions no longer replay: rules or a shipped board changed since they
        were played; its stored rows are kept). Touches nothing shared, so it may run in a worker thread."""
        try:
            game = get_game(st.game)
            stored, _board = self._stored_board(game.name, st.options)
            options = game.parse_options(stored)
            state = game.new_game(options, st.seed)
        except HegemonError as e:
            log.warning("table %s not loaded: %s", st.id, e)
            return None
        seats = [
            Seat(
                i,
                s["kind"],
                s.get("bot"),
                s["token"],
                s["name"],
                bool(s.get("claimed")),
                open=bool(s.get("open")),
            )
            for i, s in enumerate(st.seats)
        ]
        table = Table(st.id, game, options, st.seed, seats, st.created, st.turn_timer, state)
        table.salt = st.salt
        table.undo = st.undo if st.undo in UNDO_MODES else "off"
        table.chat = [dict(x) for x in st.chat[-CHAT_HISTORY:]]
        table.seats_version = table.stored_seats_version = st.seats_version
        table.stored_seats = [dict(s) for s in st.seats]
        try:
            self._replay_stored(table, st.actions)
        except HegemonError as e:
            log.warning("table %s not loaded: its stored actions no longer replay (%s)", st.id, e)
            return None
        table.creator = st.creator
        table.stopped = table.stored_stopped = st.status == "stopped" and not table.finished
        if table.finished or table.stopped:
            table.ended = st.ended if st.ended is not None else time.time()  # not stored: it never goes early
        return table

    def adopt(self, table: Table) -> None:
        """Serve a table built by `build`: play what is due at once (chance, forced moves), wake its bots."""
        self.tables[table.id] = table
        self._advance(table)
        self._changed(table)

    def _replay_stored(self, table: Table, actions: list[tuple[dict[str, Any], int, str]]) -> bool:
        """Apply stored actions (already accepted once, by this process or another) to `table`; an undo row takes
        the log back. Whether there was an undo among them."""
        undone = False
        for raw, actor, note in actions:
            if note == UNDO_NOTE:
                first = raw.get("undo") if isinstance(raw, dict) else None
                if not isinstance(first, int) or not 0 <= first < table.version:
                    raise RulesDataError("undo", "row", f"an undo row names no action of the log: {raw!r}")
                self._take_back(table, first)
                undone = True
                continue
            action = table.game.decode_action(raw)
            changes = play_with_news(table.game, table.state, action, chance=False)
            table.log.append(LogEntry(action, actor, note, changes or None))  # no empty list kept per action
            if table.version % REPLAY_EVERY == 0:
                table.replay_checkpoints[table.version] = table.state.clone()
        table.finished = table.state.current_player() == TERMINAL
        table.durable = table.version
        return undone

    def _take_back(self, table: Table, first: int) -> None:
        """Take the log back to `first` actions (an undo stored or replayed): the state, checkpoints and caches
        follow; one stored row more than the log (the undo's) and the taken-back rows count in `offset`."""
        taken = table.version - first
        state = self.state_at(table, first).clone() if first < table.version else table.state
        del table.log[first:]
        table.state = state
        for k in [k for k in table.replay_checkpoints if k > first]:
            del table.replay_checkpoints[k]
        table.offset += taken + 1
        table.undos += 1
        table.undo_request = None
        table.finished = state.current_player() == TERMINAL
        table.durable = min(table.durable, table.version)
        table.bots.clear()
        table.drop_caches()
        table.timer_player = None
        for c in table.connections:
            c.log_sent = 0  # the whole log again (shorter than what the client holds)
            c.version_sent = -1

    def catch_up(
        self,
        table: Table,
        start: int,
        seats: list[dict[str, Any]],
        seats_version: int,
        status: str,
        actions: list[tuple[dict[str, Any], int, str]],
        chat: list[dict[str, Any]] | None = None,
    ) -> bool:
        """Another server process stored more of `table` (its seats as stored now, and its actions from version
        `start` on): apply it and tell the connections. False, changing nothing, when the table is no longer at
        `start` or a write of this process for it still waits for its commit (it is stored, or refused and rolled
        back, first: then read again)."""
        if table.durable != table.version or table.rows != start or table.seats_pending or table.undoing:
            return False
        if seats_version < table.seats_version:  # read before a seat update of ours was committed: read again
            return False
        table.behind = False
        self._merge_chat(table, chat or [])
        self._set_seats(table, seats)
        table.seats_version = table.stored_seats_version = seats_version
        table.stored_seats = [dict(s) for s in seats]
        before = table.version
        undone = self._replay_stored(table, actions)
        if table.version != before or undone:
            table.bots.clear()  # a bot's memory of the game is of the position it last saw
            table.undo_request = None
        if (
            status == "stopped" and not table.stopped and not table.finished
        ):  # stopped by its creator elsewhere
            table.stopped = table.stored_stopped = True
            table.deadline = None
            table.timer_player = None
        if (table.finished or table.stopped) and table.ended is None:
            table.ended = time.time()
        for c in list(table.connections):  # a seat this process's claim lost in a race is claimed again
            if c.seat is not None and not table.seats[c.seat].claimed and not table.finished:
                self.claim(table, c.seat)
        self._advance(table)  # the last seat taken elsewhere may start the game: what is due is played
        self._update_timer(table)
        self._changed(table)
        return True

    @staticmethod
    def _set_seats(table: Table, seats: list[dict[str, Any]]) -> None:
        """Give `table` the seats `seats` (stored form), if they differ."""
        if [s.to_json() for s in table.seats] == seats:
            return
        for seat, stored in zip(table.seats, seats, strict=False):
            seat.kind, seat.bot, seat.token = stored["kind"], stored.get("bot"), stored["token"]
            seat.name, seat.claimed = stored["name"], bool(stored.get("claimed"))
            seat.open = bool(stored.get("open"))
        table.seats_epoch += 1

    def forget(self, table: Table, reason: str) -> None:
        """Drop a table from memory (deleted by another process): its connections are told and closed."""
        self.tables.pop(table.id, None)
        self.ended_list.pop(table.id, None)
        for c in list(table.connections):
            c.errors.append(ServerError("unknown_table", reason, detail="deleted").to_json())
            c.wake()
        if table.on_change is not None:
            table.on_change(table)  # its bot task sees it gone and ends (a search it waits for is cancelled)

    # ------------------------------------------------------------------ lookups

    def get(self, table_id: str) -> Table:
        t = self.tables.get(table_id)
        if t is None:
            raise ServerError("unknown_table", f"no table {table_id!r}", detail="no_table")
        return t

    # ------------------------------------------------------------------ acting

    def submit(self, table_id: str, token: str | None, version: Any, raw: Any, undos: Any = None) -> int:
        """A person's action: check the table, the token, the form, the version (and the undo count, when the
        client sends it), the turn and legality, then apply, store and broadcast. Returns the new version;
        ServerError (nothing changed) otherwise."""
        table = self.get(table_id)
        seat = self.seat_of(table, token)
        if undos is not None and (isinstance(undos, bool) or not isinstance(undos, int)):
            raise ServerError("bad_request", "undos must be an integer", detail="version")
        if undos is not None and undos != table.undos:
            raise ServerError(
                "stale_version", f"an undo took the table back since (undos {table.undos}, not {undos})",
                version=table.version, detail="stale",
            )  # fmt: skip
        return self.act(table, seat, version, raw)

    def act(self, table: Table, seat: int, version: Any, raw: Any, note: str = "") -> int:
        """`seat`'s action on `table` at `version` (see `submit`)."""
        self._check_storage()
        if isinstance(version, bool) or not isinstance(version, int):
            raise ServerError("bad_request", "version must be an integer", detail="version")
        self._check_open(table)
        self._check_current(table)
        try:
            action = table.game.decode_action(raw)
        except HegemonError as e:
            raise ServerError("bad_request", str(e), detail="bad_action") from None
        if version != table.version:
            raise ServerError(
                "stale_version",
                f"the table is at version {table.version}, not {version}",
                version=table.version,
                detail="stale",
            )
        if not table.seats[seat].claimed:
            # a refusal changes nothing: acting never takes a seat (nor starts the game)
            raise ServerError(
                "not_your_turn",
                "take your seat first: the table is waiting for every player to join",
                detail="take_seat",
            )
        cur = table.state.current_player()
        if cur != seat:
            who = "the dice" if cur == CHANCE else f"seat {cur}"
            raise ServerError(
                "not_your_turn",
                f"it is the turn of {who}, not of seat {seat}",
                detail="turn_of",
                args={"seat": cur},
            )
        if table.status == "waiting":
            raise ServerError(
                "not_your_turn", "the table is waiting for every player to join", detail="waiting"
            )
        try:
            self._apply(table, action, seat, note)
        except IllegalActionError as e:
            legal = table.view(seat)["legal_actions"]
            why = e.refusal
            raise ServerError(
                "illegal_action", str(e), detail=why.id if why else None, args=dict(why.args) if why else None,
                phase=e.phase, rule=e.rule, reason=e.reason, legal_actions=legal,
            ) from None  # fmt: skip
        self._advance(table)
        self._changed(table)
        return table.version

    def _apply(self, table: Table, action: Action, actor: int, note: str) -> None:
        """Play a decision with the engine's checked `play` (IllegalActionError before any change) or a chance
        outcome the engine's own sampler drew, queue its durable write, and record it. Nobody hears of it
        before the write is committed (see `_changed`)."""
        state = table.state
        changes = play_with_news(table.game, state, action, chance=actor == CHANCE)
        data = action.to_json()
        self.storage.append_action(table.id, table.rows, data, actor, note)
        table.log.append(LogEntry(action, actor, note, changes or None))  # no empty list kept per action
        if table.undo_request is not None:  # any move cancels a pending undo request
            table.undo_request = None
            self._tell_seated(table, {"type": "undo_request", "request": None, "why": "moved"})
        if table.version % REPLAY_EVERY == 0:
            table.replay_checkpoints[table.version] = state.clone()

    def _advance(self, table: Table) -> None:
        """Play chance nodes and forced decisions (one legal action) at once; finish the game at its end."""
        if table.finished:
            return
        state = table.state
        while table.status == "playing":
            cur = state.current_player()
            if cur == TERMINAL:
                break
            if cur == CHANCE:
                # after an undo the draws are derived from the undo count too: a version's draw is never made twice
                rng = derive_rng(table.seed, table.salt, table.version, table.undos)
                self._apply(table, sample_chance(state, rng), CHANCE, "")
                continue
            legal = state.legal_actions()
            if len(legal) == 1:
                self._apply(table, legal[0], cur, "auto")
                continue
            break
        if state.current_player() == TERMINAL and not table.finished:
            table.finished = True
            table.ended = time.time()
            table.deadline = None
            self.storage.update_table(table.id, status="finished", ended=table.ended)
        self._update_timer(table)

    def _update_timer(self, table: Table) -> None:
        cur = table.state.current_player()
        p = cur if cur >= 0 and not table.finished else None
        if p != table.timer_player:
            table.timer_player = p
            table.timed_out = None
            human = p is not None and table.seats[p].kind == "human"
            table.deadline = self.clock() + table.turn_timer if (human and table.turn_timer) else None

    def _changed(self, table: Table) -> None:
        """Wake the table's connections once everything written so far is durable; poke its bot task now."""
        v = table.version
        table.last_active = time.time()
        self.storage.after_commit(lambda: self._committed(table, v), table.id)
        if table.on_change is not None:
            table.on_change(table)

    def _committed(self, table: Table, version: int) -> None:
        table.durable = max(table.durable, version)
        self._notify(table)

    def _notify(self, table: Table) -> None:
        # the seat that must act next hears first, spectators last
        cur = table.state.current_player()
        for c in sorted(
            table.connections, key=lambda c: 0 if c.seat == cur else (1 if c.seat is not None else 2)
        ):
            c.wake()

    # ------------------------------------------------------------------ the creator's rights, expiry

    def check_creator(self, table: Table, token: str | None) -> None:
        """ServerError unauthorized unless `token` is the table's creator token (compared in constant time)."""
        if not (token and table.creator and secrets.compare_digest(table.creator.encode(), token.encode())):
            raise ServerError(
                "unauthorized",
                "only the table's creator (with the creator token) may do this",
                detail="creator_only",
            )

    def stop(self, table: Table, token: str | None) -> None:
        """The creator stops the table: no more moves, bots and the turn timer stop; it stays readable (and
        replayable) until it expires or is deleted."""
        self.check_creator(table, token)
        if table.stopped:
            return
        if table.finished:
            raise ServerError("game_over", "the game is over", detail="over")
        self._check_storage()
        table.stopped = True
        table.ended = time.time()
        table.deadline = None
        table.timer_player = None
        self.storage.update_table(table.id, status="stopped", ended=table.ended)
        self.storage.after_commit(lambda: setattr(table, "stored_stopped", True), table.id)
        self._changed(table)

    def delete(self, table: Table, token: str | None) -> None:
        """The creator deletes the table, from memory and from the database."""
        self.check_creator(table, token)
        self._check_storage()
        self.remove(table, "the table was deleted by its creator")

    def remove(self, table: Table, why: str) -> None:
        """Drop a table from memory and from the database; its connections are told."""
        if self.tables.get(table.id) is not table:
            return
        del self.tables[table.id]
        self.ended_list.pop(table.id, None)
        self.storage.delete_table(table.id)
        for c in list(table.connections):
            c.errors.append(ServerError("unknown_table", why, detail="deleted").to_json())
            c.wake()
        if table.on_change is not None:
            table.on_change(table)  # its bot task sees it gone and ends (a search it waits for is cancelled)

    def expire_stored(self, ids: list[str]) -> None:
        """Remove the tables `ids` (ended long enough ago: `SqlStorage.ended_before`) from the database, and from
        memory if they are there."""
        for tid in ids:
            t = self.tables.get(tid)
            if t is not None:
                if t.finished or t.stopped:
                    self.remove(t, "the table expired")
                continue
            self.ended_list.pop(tid, None)
            self.storage.delete_table(tid)

    # ------------------------------------------------------------------ what nobody uses: paused, unloaded

    def paused(self, table: Table, now: float | None = None) -> bool:
        """Whether nobody has watched the table (no connection, no request about it) for
        `TableLimits.pause_after` seconds: its bots and turn timer wait (see `touch`). With several processes
        never (the watchers may be elsewhere)."""
        after = self.limits.pause_after
        if not after or self.shared or table.connections:
            return False
        return (time.time() if now is None else now) - table.watched >= after

    def touch(self, table: Table) -> None:
        """Someone watches the table (a connection, a request about it): a paused table resumes, and a person's
        turn timer starts again from its full length (nobody was there to see it run)."""
        was = self.paused(table)
        table.watched = time.time()
        if was:
            if table.deadline is not None and table.turn_timer:
                table.deadline = max(table.deadline, self.clock() + table.turn_timer)
            if table.on_change is not None:
                table.on_change(table)

    def unload(self, now: float | None = None) -> list[str]:
        """Take ended tables (finished or stopped, everything stored, nobody connected) out of memory
        `TableLimits.keep_ended` seconds after their end or their last watcher, and beyond
        `TableLimits.cached_ended` of them the least recently watched at once. They stay in the database and are
        read back when asked for (`build`); the lobby keeps their summaries. Their ids."""
        if not self.lazy:
            return []
        now = time.time() if now is None else now
        ended = [
            t for t in self.tables.values()
            if (t.finished or t.stopped) and t.stored and t.durable >= t.version and not t.connections
            and not t.seats_pending
        ]  # fmt: skip
        ended.sort(key=lambda t: t.watched)
        over = len(ended) - self.limits.cached_ended
        gone: list[str] = []
        for i, t in enumerate(ended):
            if i < over or now - max(t.watched, t.ended or 0.0) >= self.limits.keep_ended:
                if t.salt != TUTORIAL_SALT:
                    self.ended_list[t.id] = self.summary(t)
                del self.tables[t.id]
                if t.on_change is not None:
                    t.on_change(t)
                gone.append(t.id)
        while len(self.ended_list) > LIST_LIMIT:
            oldest = min(self.ended_list, key=lambda k: self.ended_list[k]["created"])
            del self.ended_list[oldest]
        return gone

    def listing(self, limit: int = LIST_LIMIT) -> list[dict[str, Any]]:
        """The lobby's list: the newest `limit` stored tables (lessons apart), in memory or ended and unloaded."""
        rows: list[tuple[float, str, Table | None]] = [
            (t.created, t.id, t) for t in self.tables.values() if t.stored and t.salt != TUTORIAL_SALT
        ]
        rows += [(d["created"], k, None) for k, d in self.ended_list.items() if k not in self.tables]
        rows.sort(key=lambda r: -r[0])
        return [self.summary(t) if t is not None else self.ended_list[k] for _, k, t in rows[:limit]]

    def expire(
        self, finished_after: float | None, idle_after: float | None, now: float | None = None
    ) -> list[str]:
        """Remove the tables in memory that ended (finished or stopped) over `finished_after` seconds ago, and the
        abandoned ones: nobody connected and no move for `idle_after` seconds (None: never; a paused table makes
        no move). Their ids. (Ended tables not in memory expire with `expire_stored`.)"""
        now = time.time() if now is None else now
        gone: list[str] = []
        for t in list(self.tables.values()):
            if t.finished or t.stopped:
                old = finished_after is not None and t.ended is not None and now - t.ended >= finished_after
            else:
                old = idle_after is not None and not t.connections and now - t.last_active >= idle_after
            if old and t.stored and t.durable >= t.version:
                if self.shared and not (t.finished or t.stopped):
                    # several processes: idle here says nothing of the others; it only leaves this memory
                    del self.tables[t.id]
                    if t.on_change is not None:
                        t.on_change(t)
                else:
                    self.remove(t, "the table expired")
                gone.append(t.id)
        return gone

    # ------------------------------------------------------------------ bots and the turn timer

    def due(self, table: Table) -> int | None:
        """The seat a bot must play now: a bot seat on turn, or a person whose turn timer ran out."""
        if table.finished or table.stopped or table.behind or table.undoing or table.status != "playing":
            return None
        cur = table.state.current_player()
        if cur < 0:
            return None
        if table.seats[cur].kind == "bot" or table.timed_out == cur:
            return cur
        if table.deadline is not None and self.clock() >= table.deadline:
            table.timed_out = cur
            return cur
        return None

    def bot_for(self, table: Table, seat: int) -> Bot:
        bot = table.bots.get(seat)
        if bot is None:
            spec = table.seats[seat].bot or self.timer_bot
            # the secret salt too: whoever chose the seed cannot foresee a bot's choices
            bot = make_bot(spec, derive_seed(table.seed, table.salt, "bot", seat))
            if hasattr(bot, "anytime"):  # a named search level thinks in seconds here (`ai/levels.py`)
                bot.anytime = True
            table.bots[seat] = bot
        return bot

    def bot_act(self, table: Table, seat: int, version: int, action: Action) -> bool:
        """Apply a bot's chosen action if the table is still where the bot looked (False otherwise): never once the
        table is stopped or deleted, even if the bot was thinking when that happened."""
        if (
            table.finished
            or table.stopped
            or table.behind
            or table.undoing
            or self.tables.get(table.id) is not table
        ):
            return False
        if table.version != version or table.state.current_player() != seat:
            return False
        if self.unavailable() is not None:
            return False
        note = "timer" if table.seats[seat].kind == "human" else ""
        try:
            self._apply(table, action, seat, note)
        except IllegalActionError:
            return False
        self._advance(table)
        self._changed(table)
        return True

    # ------------------------------------------------------------------ what each seat sees

    def connect(
        self, table: Table, seat: int | None, wake: Callable[[], None], token: str | None = None
    ) -> Connection:
        """A new connection of `seat` (None: a spectator) holding `token`. A private seat not yet taken is taken
        now, under a new token (`take`) sent to this connection alone once it is stored (`{"type": "seat"}`)."""
        c = Connection(table, seat, wake, token)
        self.touch(table)
        if self.notice is not None:
            c.errors.append(dict(self.notice))
        if seat is not None:
            table.seats[seat].connected += 1
            table.seats_epoch += 1
            if table.seats[seat].claimed:
                self._notify(
                    table
                )  # the others see this seat come online (the newcomer is woken by its caller)
        table.connections.add(c)
        if seat is not None and not table.seats[seat].claimed and not table.behind:  # behind: see `catch_up`
            s = table.seats[seat]
            self._claim_private(table, s)
            c.token = minted = s.token

            def hand_over() -> None:
                if c in table.connections and s.token == minted:
                    c.errors.append({"type": "seat", "seat": seat, "token": minted})
                    c.wake()

            self.storage.after_commit(hand_over, table.id)
        history = self.chat_history(c)
        if history is not None and history["lines"]:
            c.errors.append(history)
        return c

    @staticmethod
    def holds(c: Connection) -> bool:
        """Whether a seat's connection still holds its seat (its token is the seat's); spectators, and connections
        made in the process without a token, always do."""
        if c.seat is None or c.token is None:
            return True
        return secrets.compare_digest(c.table.seats[c.seat].token.encode(), c.token.encode())

    def disconnect(self, c: Connection) -> None:
        c.table.last_active = c.table.watched = time.time()
        if c in c.table.connections:
            c.table.connections.discard(c)
            if c.seat is not None:
                c.table.seats[c.seat].connected -= 1
                c.table.seats_epoch += 1
                self._notify(c.table)

    def log_json(
        self, table: Table, seat: int | None, start: int = 0, end: int | None = None
    ) -> list[dict[str, Any]]:
        out = []
        for i in range(start, len(table.log) if end is None else min(end, len(table.log))):
            e = table.log[i]
            a = e.action.visible_to(seat)
            line = {"i": i, "actor": e.actor, "action": a.to_json(), "text": str(a), "note": e.note}
            if e.changes:  # public facts only (the game's `news`): the same for every seat
                line["changes"] = e.changes
            out.append(line)
        return out

    def message(self, c: Connection) -> dict[str, Any]:
        """The update for one connection: its seat's view, the version, and the log lines it has not seen."""
        t = c.table
        log = self.log_json(t, c.seat, c.log_sent)
        c.log_sent = len(t.log)
        c.version_sent = t.version
        c.seats_sent = t.seats_epoch
        return self.snapshot(t, c.seat, log)

    def snapshot(self, t: Table, seat: int | None, log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        view = t.view(seat)
        return {
            "type": "state",
            "table": t.id,
            "game": t.name,
            "version": t.version,
            "status": t.status,
            "seat": seat,
            "seats": [s.public() for s in t.seats],
            "view": view,
            "log": log if log is not None else self.log_json(t, seat),
            "turn_timer": t.turn_timer,
            "seconds_left": t.seconds_left(self.clock()),
            "timed_out": t.timed_out,
            "outcome": view.get("outcome"),
            "board": board_label(t.game, t.options),
            "undo": t.undo,
            "undos": t.undos,
            "undo_request": public_request(t.undo_request),
        }
