"""Bot seats and turn timers: one asyncio task per table plays every bot move at the server's pace (a table of
only bots plays to the end by itself while someone watches it), and plays a person's turn when that person's
turn timer runs out. A table nobody watches pauses (`TableManager.paused`) until someone connects.

No bot thinks on the event loop. Light bots (random, greedy) think in a small thread pool. Search bots think in
worker processes (`Thinkers`): at most `search_workers` searches run at once over the whole server (a
waiting table queues, first come first served), each search gets at most `search_budget` seconds, and the
workers run at a lower priority than the server, so a person's move is never queued behind bot thinking and
the search never holds the server's interpreter lock."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import random
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from hegemon.ai.base import Bot
from hegemon.core.actions import Action
from hegemon.core.errors import HegemonError
from hegemon.core.game import State
from hegemon.core.play import derive_seed
from hegemon.server.protocol import ServerError
from hegemon.server.settings import SEARCH_BUDGET, SEARCH_WORKERS
from hegemon.server.storage import CONFLICT
from hegemon.server.table import Table
from hegemon.server.tables import TableManager

FAST_BOTS = ("random", "beginner", "greedy")
"""Bots cheap enough to think in a thread of the server process; others think in a worker process."""

log = logging.getLogger("hegemon.server.bots")


def _worker_start() -> None:
    """A search worker yields the CPU to the server process (people's moves first)."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)


def think(bot: Bot, state: State, seat: int, budget: float | None) -> tuple[Action, Any]:
    """One decision (in a worker process): the bot's action and its generator's state afterwards (so the bot
    in the server goes on from where the worker left it: the same choices as thinking in place)."""
    if budget is not None and hasattr(bot, "time_limit"):
        limit = getattr(bot, "time_limit", None)
        bot.time_limit = budget if not limit else min(limit, budget)
    action = bot.choose(state, seat)
    rng = getattr(bot, "rng", None)
    return action, (rng.getstate() if isinstance(rng, random.Random) else None)


class Thinkers:
    """Where bots think, off the event loop (see the module text). `processes=False`: search in threads
    (tests; a bot that cannot be pickled)."""

    def __init__(self, search_workers: int = SEARCH_WORKERS, search_budget: float | None = SEARCH_BUDGET,
                 processes: bool = True) -> None:  # fmt: skip
        self.search_workers = max(1, search_workers)
        self.search_budget = search_budget if search_budget and search_budget > 0 else None
        self.processes = processes
        self.light = concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="hegemon-bot")
        self.pool: concurrent.futures.Executor | None = None
        self._slots: asyncio.Semaphore | None = None
        self.running = 0  # searches running now (never above search_workers)
        self.waiting = 0  # decisions waiting for a search slot (the metrics' search queue length; a table
        # stopped or deleted meanwhile leaves the queue)
        self.peak = 0

    def _search_pool(self) -> concurrent.futures.Executor:
        if self.pool is None:
            if self.processes:
                ctx = multiprocessing.get_context("spawn")  # never fork a process that runs threads
                self.pool = concurrent.futures.ProcessPoolExecutor(
                    self.search_workers, mp_context=ctx, initializer=_worker_start
                )
            else:
                self.pool = concurrent.futures.ThreadPoolExecutor(
                    self.search_workers, thread_name_prefix="hegemon-search"
                )
        return self.pool

    async def choose(self, bot: Bot, state: State, seat: int) -> Action:
        """`bot`'s decision on `state` (a clone the caller gives away)."""
        loop = asyncio.get_running_loop()
        if getattr(bot, "name", "") in FAST_BOTS:
            return await loop.run_in_executor(self.light, bot.choose, state, seat)
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.search_workers)
        self.waiting += 1
        try:
            await self._slots.acquire()  # FIFO: tables take turns
        finally:
            self.waiting -= 1
        self.running += 1
        self.peak = max(self.peak, self.running)
        try:
            try:
                action, rng = await loop.run_in_executor(self._search_pool(), think, bot, state, seat,
                                                         self.search_budget)  # fmt: skip
            except BrokenProcessPool:
                log.error("a search worker died; starting new ones")
                self.pool = None
                raise
        finally:
            self.running -= 1
            self._slots.release()
        if rng is not None and isinstance(getattr(bot, "rng", None), random.Random):
            bot.rng.setstate(rng)  # type: ignore[attr-defined]  # checked above
        return action

    def shutdown(self) -> None:
        self.light.shutdown(wait=False, cancel_futures=True)
        if self.pool is not None:
            procs = list(
                getattr(self.pool, "_processes", {}).values()
            )  # a search may run for its whole budget
            self.pool.shutdown(wait=False, cancel_futures=True)
            for p in procs:
                with contextlib.suppress(Exception):
                    p.terminate()
            self.pool = None


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
            fut.set_exception(
                ServerError(
                    "stale_version",
                    f"not stored: {reason}",
                    version=table.version if table else None,
                    detail="stale",
                )
            )
        else:
            fut.set_exception(
                ServerError("unavailable", f"not stored: {reason}; nothing was changed", detail="not_stored")
            )

    manager.storage.after_commit(done, table.id if table is not None else None, fail)
    await fut


class BotRunner:
    """Keeps one task per unfinished table that has a bot seat or a turn timer."""

    def __init__(self, manager: TableManager, delay: float, thinkers: Thinkers | None = None) -> None:
        self.manager = manager
        self.delay = max(0.0, delay)
        self.thinkers = thinkers if thinkers is not None else Thinkers()
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
        if table.stopped or self.manager.tables.get(table.id) is not table:
            # stopped or deleted: the task ends now, even in the middle of a decision (a search still queued for
            # a worker never runs; one running is left to finish, and its move is never played)
            self.forget(table.id)
            return
        ev = self.events.get(table.id)
        if ev is not None:
            ev.set()

    async def _run(self, table: Table, ev: asyncio.Event) -> None:
        m = self.manager
        last_actor: int | None = None
        try:
            while not table.finished and not table.stopped and m.tables.get(table.id) is table:
                if m.unavailable() is not None:  # the database refuses writes: wait until it is back
                    ev.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(ev.wait(), timeout=1.0)
                    continue
                if m.paused(
                    table
                ):  # nobody watches: no thinking, nothing stored, until someone comes (touch)
                    ev.clear()
                    if m.paused(table):
                        await ev.wait()
                    continue
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
                if m.due(table) != seat or m.paused(table):
                    continue
                version = table.version
                bot = m.bot_for(table, seat)
                action: Action
                try:
                    action = await self.thinkers.choose(bot, table.state.clone(), seat)
                except (
                    Exception
                ) as e:  # a bot that fails must not stall the table: a legal move drawn at random
                    if isinstance(
                        e, HegemonError
                    ):  # a failure the bot names (an external bot unreachable): one line
                        log.warning("bot %s of table %s failed at version %d: %s; playing a random legal move",
                                    table.seats[seat].bot, table.id, version, e)  # fmt: skip
                    else:  # a bug: its traceback
                        log.exception("bot %s of table %s failed at version %d; playing a random legal move",
                                      table.seats[seat].bot, table.id, version)  # fmt: skip
                    rng = random.Random(derive_seed(table.seed, table.salt, "fallback", version))
                    action = rng.choice(table.state.legal_actions())
                if m.bot_act(table, seat, version, action):
                    last_actor = seat
                    with contextlib.suppress(
                        ServerError
                    ):  # refused for good: the table went back; look again
                        await durable(m, table)
                else:
                    await asyncio.sleep(
                        0.05
                    )  # the table moved meanwhile (or cannot store): look again shortly
        finally:
            self.tasks.pop(table.id, None)
            self.events.pop(table.id, None)

    def forget(self, table_id: str) -> None:
        """Stop running a table's bots and timer (another process runs them now, or it was stopped or deleted)."""
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
        self.thinkers.shutdown()
