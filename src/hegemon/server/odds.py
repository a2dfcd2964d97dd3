"""The odds of an attack or a siege in a table's current position, for the client to show before the player
commits. Each game reads the numbers from the position (`Game.position_odds_job`: S.P.Q.RisiKo! land attacks,
sea attacks and naval combats, Polis sieges), so the client cannot ask about anything else, and hands back a
picklable call that computes them.

Nothing of that computation runs on the event loop, and each request has a bounded cost:

- the game bounds the work of one answer (S.P.Q.RisiKo!: exact fractions while the armies are within
  `EXACT_WORK`, floating point above it, marked `"exact": false`; Polis: always exact and cheap);
- the call runs in `workers` worker processes (at a lower priority than the server), each computation within
  `timeout` seconds of getting its worker: one that overruns it is killed with its workers, and its requests
  answered 503 `odds_timeout`;
- at most `workers + queue` computations are under way or waiting over the whole server (more: 503
  `odds_busy`), and at most `per_client` for one client address (more: 429 `rate_limit`); the same question
  asked twice while it is being computed waits for the one answer;
- answers are kept (`cache` of them, the newest), already encoded as JSON."""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import multiprocessing
import os
import time
from collections import OrderedDict
from collections.abc import Callable
from functools import partial
from typing import Any

import orjson

from hegemon.core.errors import HegemonError
from hegemon.games import game_odds_modules, get_game
from hegemon.server.protocol import ServerError
from hegemon.server.settings import OddsLimits

log = logging.getLogger("hegemon.server.odds")

Job = Callable[[], dict[str, Any]]
BAD = (KeyError, ValueError, IndexError, TypeError, HegemonError)
"""What a question about the position that makes no sense raises (answered 400 bad_request)."""


class TooMany(ServerError):
    """429: the client asks for more than its share (typed: bad_request, detail rate_limit)."""

    status = 429

    def __init__(self, retry_after: float | None = None) -> None:
        super().__init__("bad_request", "too many requests: slow down", detail="rate_limit")
        self.retry_after = retry_after


def position_job(game: str, state: Any, q: dict[str, str]) -> Job:
    """The computation of the odds the query `q` asks about in `state` (read from the position now, on the
    event loop: cheap), as a picklable call; ServerError bad_request for a question that makes no sense."""
    try:
        return get_game(game).position_odds_job(state, q)
    except BAD as e:
        raise ServerError("bad_request", f"cannot compute these odds: {e}") from None


def _worker_start(modules: list[str]) -> None:
    """An odds worker yields the CPU to the server process, and imports the games' odds modules at once."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)
    for m in modules:
        importlib.import_module(m)


def _ready() -> bool:
    return True


def _wait_all(waits: list[Any]) -> None:
    for w in waits:
        w.get(60)


def compute(job: Job) -> tuple[bytes, float, str | None]:
    """Run `job` (in a worker): its answer as JSON, the CPU seconds it took, and why the question makes no sense
    (None when it does; the text, not the exception, comes back: not every exception survives pickling)."""
    t0 = time.thread_time()
    try:
        out, why = orjson.dumps(job()), None
    except BAD as e:
        out, why = b"", str(e) or type(e).__name__
    return out, time.thread_time() - t0, why


def _overrun() -> ServerError:
    return ServerError(
        "unavailable", "computing these odds took too long: try again in a moment", detail="odds_timeout"
    )


def _key(job: Job) -> Any:
    """What identifies a job's answer: its function and arguments (plain numbers and words)."""
    if isinstance(job, partial):
        return (job.func.__module__, job.func.__qualname__, job.args, tuple(sorted(job.keywords.items())))
    return None


class Odds:
    """The odds service of one server (see the module text). `start_method`: how worker processes start
    ("spawn": never fork a process that runs threads)."""

    def __init__(self, limits: OddsLimits | None = None, start_method: str = "spawn") -> None:
        self.limits = limits or OddsLimits()
        self.start_method = start_method
        self.pool: Any = None  # multiprocessing.pool.Pool, started on the first question
        self._starting: asyncio.Future[None] | None = None
        self.cache: OrderedDict[Any, bytes] = OrderedDict()
        self.pending: dict[Any, asyncio.Future[tuple[bytes, float]]] = {}
        self.busy = 0  # computations under way or waiting, over the server
        self.by_client: dict[str, int] = {}
        self.generation = 0  # bumped when the workers are killed
        self.running: set[asyncio.Future[tuple[bytes, float, str | None]]] = set()
        self._slots: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None  # a free worker each
        self.computed = 0
        self.killed = 0

    async def answer(self, job: Job, who: str) -> tuple[bytes, float]:
        """The answer of `job` as JSON, and the CPU seconds of worker time it cost (0 when it was kept or shared)."""
        key = _key(job)
        hit = self.cache.get(key) if key is not None else None
        if hit is not None:
            self.cache.move_to_end(key)
            return hit, 0.0
        if self.by_client.get(who, 0) >= self.limits.per_client:
            raise TooMany(0.2)
        shared = self.pending.get(key) if key is not None else None
        if shared is None and self.busy >= self.limits.workers + self.limits.queue:
            raise ServerError("unavailable", "the odds are busy: try again in a moment", detail="odds_busy")
        self.by_client[who] = self.by_client.get(who, 0) + 1
        try:
            if shared is not None:
                body, _ = await asyncio.shield(shared)
                return body, 0.0
            self.busy += 1
            fut: asyncio.Future[tuple[bytes, float]] = asyncio.get_running_loop().create_future()
            if key is not None:
                self.pending[key] = fut
            try:
                result = await self._run(job)
            except BaseException as e:
                if not fut.done():
                    fut.set_exception(e)
                    fut.exception()  # retrieved: nobody else may be waiting for it
                raise
            finally:
                self.busy -= 1
                if key is not None:
                    self.pending.pop(key, None)
            fut.set_result(result)
            if key is not None:
                self.cache[key] = result[0]
                while len(self.cache) > self.limits.cache:
                    self.cache.popitem(last=False)
            return result
        finally:
            self.by_client[who] -= 1
            if not self.by_client[who]:
                del self.by_client[who]

    async def _run(self, job: Job) -> tuple[bytes, float]:
        """`job` in a worker: it waits here for a free worker, and its time budget starts when it has one."""
        loop = asyncio.get_running_loop()
        if self._slots is None or self._slots[0] is not loop:
            self._slots = (loop, asyncio.Semaphore(self.limits.workers))
        async with self._slots[1]:
            return await self._run_now(job)

    async def _run_now(self, job: Job) -> tuple[bytes, float]:
        pool = await self._pool()
        generation = self.generation
        loop = asyncio.get_running_loop()
        done: asyncio.Future[tuple[bytes, float, str | None]] = loop.create_future()

        def settle(result: Any, error: BaseException | None) -> None:  # on the loop
            if done.done():
                return
            if error is not None:
                done.set_exception(error)
            else:
                done.set_result(result)

        def ok(result: tuple[bytes, float, str | None]) -> None:  # in the pool's thread
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody is waiting
                loop.call_soon_threadsafe(settle, result, None)

        def failed(e: BaseException) -> None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(settle, None, e)

        pool.apply_async(compute, (job,), callback=ok, error_callback=failed)
        self.running.add(done)
        try:
            body, cpu, why = await asyncio.wait_for(asyncio.shield(done), self.limits.timeout)
        except TimeoutError:
            if generation == self.generation:
                await self._kill()
            raise _overrun() from None
        finally:
            self.running.discard(done)
        if why is not None:
            raise ServerError("bad_request", f"cannot compute these odds: {why}")
        self.computed += 1
        return body, cpu

    async def _pool(self) -> Any:
        """The worker pool, started (and its workers ready: their start is no computation's time) if need be."""
        while self.pool is None or self._starting is not None:
            if self._starting is not None:
                await asyncio.shield(self._starting)
                continue
            loop = asyncio.get_running_loop()
            self._starting = loop.create_future()
            try:
                ctx = multiprocessing.get_context(self.start_method)
                pool = await asyncio.to_thread(
                    ctx.Pool, self.limits.workers, initializer=_worker_start, initargs=(game_odds_modules(),)
                )
                waits = [pool.apply_async(_ready) for _ in range(self.limits.workers)]
                await asyncio.to_thread(_wait_all, waits)
                self.pool = pool
                self._starting.set_result(None)
            except BaseException as e:
                self._starting.set_exception(e)
                self._starting.exception()
                if not isinstance(e, Exception):
                    raise
                log.exception("the odds workers did not start")
                raise ServerError("unavailable", "the odds cannot be computed now", detail="odds_busy") from e
            finally:
                self._starting = None
        return self.pool

    async def _kill(self) -> None:
        """Kill the workers (a computation overran its time) and every computation under way with them; the next
        question starts new ones."""
        self.generation += 1
        self.killed += 1
        pool, self.pool = self.pool, None
        log.warning("an odds computation took over %.1f s: its worker was killed", self.limits.timeout)
        for done in list(self.running):  # computations under way in the killed workers: answered now
            if not done.done():
                done.set_exception(_overrun())
                done.exception()
        if pool is not None:
            await asyncio.to_thread(pool.terminate)

    def close(self) -> None:
        """Stop the workers (the server is stopping)."""
        pool, self.pool = self.pool, None
        if pool is not None:
            pool.terminate()
