"""Bot seats and turn timers: one asyncio task per table plays every bot move at the server's pace (a table of
only bots plays to the end by itself), and plays a person's turn when that person's turn timer runs out."""

from __future__ import annotations

import asyncio
import contextlib

from hegemon.core.actions import Action
from hegemon.server.protocol import ServerError
from hegemon.server.storage import CONFLICT
from hegemon.server.tables import Table, TableManager

FAST_BOTS = ("random", "greedy")
"""Bots cheap enough to run on the event loop; others think in a worker thread on a clone of the state."""


async def durable(manager: TableManager, table: Table | None = None) -> None:
    """Return once every write queued so far is committed; ServerError `unavailable` if a write of `table`
    among them was refused for good (the table went back to its last stored version)."""
    fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def done() -> None:
        if not fut.done():
            fut.set_result(None)

    def fail(reason: str) -> None:
        if fut.done():
            return
        if reason == CONFLICT:  # another process moved the table on first: this move was on an old position
            fut.set_exception(ServerError("stale_version", f"not stored: {reason}", version=table.version if table else None))
        else:
            fut.set_exception(ServerError("unavailable", f"not stored: {reason}; nothing was changed"))

    manager.storage.after_commit(done, table.id if table is not None else None, fail)
    await fut


class BotRunner:
    """Keeps one task per unfinished table that has a bot seat or a turn timer."""

    def __init__(self, manager: TableManager, delay: float) -> None:
        self.manager = manager
        self.delay = max(0.0, delay)
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.events: dict[str, asyncio.Event] = {}

    def watch(self, table: Table) -> None:
        """Start the table's task if it needs one (idle tables cost nothing)."""
        if table.finished or table.id in self.tasks:
            return
        if not table.turn_timer and all(s.kind == "human" for s in table.seats):
            return
        ev = asyncio.Event()
        ev.set()
        self.events[table.id] = ev
        table.on_change = self._poke
        self.tasks[table.id] = asyncio.create_task(self._run(table, ev), name=f"bots-{table.id}")

    @staticmethod
    def pace(table: Table, seat: int, last_actor: int | None) -> float:
        """A watchable pace, as a fraction of the delay: a full pause when play passes from a person to a bot,
        half when it passes between bots, 0.3 between the moves of one bot's turn."""
        prev = next((e.actor for e in reversed(table.log) if e.actor >= 0 and e.note != "auto"), None)
        if prev is not None and table.seats[prev].kind == "human" and prev != seat:
            return 1.0
        if seat == last_actor == prev:
            return 0.3
        return 0.5

    def _poke(self, table: Table) -> None:
        ev = self.events.get(table.id)
        if ev is not None:
            ev.set()

    async def _run(self, table: Table, ev: asyncio.Event) -> None:
        m = self.manager
        last_actor: int | None = None
        try:
            while not table.finished:
                seat = m.due(table)
                if seat is None:
                    ev.clear()
                    timeout = table.seconds_left(m.clock())
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(ev.wait(), timeout=None if timeout is None else timeout + 0.01)
                    continue
                pause = self.delay * self.pace(table, seat, last_actor)
                if pause > 0:
                    await asyncio.sleep(pause)
                else:
                    await asyncio.sleep(0)
                if m.due(table) != seat:
                    continue
                version = table.version
                bot = m.bot_for(table, seat)
                action: Action
                if getattr(bot, "name", "") in FAST_BOTS:
                    action = bot.choose(table.state, seat)
                else:
                    clone = table.state.clone()
                    action = await asyncio.to_thread(bot.choose, clone, seat)
                if m.bot_act(table, seat, version, action):
                    last_actor = seat
                    await durable(m)
                else:
                    await asyncio.sleep(0.05)  # the table moved meanwhile (or cannot store): look again shortly
        finally:
            self.tasks.pop(table.id, None)
            self.events.pop(table.id, None)

    def forget(self, table_id: str) -> None:
        """Stop running a table's bots and timer (another process runs them now)."""
        task = self.tasks.get(table_id)
        if task is not None:
            task.cancel()

    async def stop(self) -> None:
        tasks = list(self.tasks.values())
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t
