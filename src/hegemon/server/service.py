"""What the web table's routes share (`Service`): the `TableManager`, the cluster (several processes on
PostgreSQL) or the bot runner (one process), each reader's budget of work, the odds workers, the public address
of the links; bringing a table into memory when it is asked for (`have`), and the application's lifespan
(start-up, the expiry sweep, shutdown)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterator
from typing import Any

from fastapi import FastAPI, Request

from hegemon.server.bots import BotRunner, Thinkers
from hegemon.server.cluster import Cluster
from hegemon.server.guard import WorkBudget
from hegemon.server.odds import Odds, TooMany
from hegemon.server.ops import Readiness
from hegemon.server.settings import Expiry, ReadLimits
from hegemon.server.storage import GroupCommit, LoopCommit
from hegemon.server.table import Table
from hegemon.server.tables import TableManager
from hegemon.server.ws import RateLimit

log = logging.getLogger("hegemon.server")
READS_PER_SECOND = 20.0
READS_BURST = 60.0
"""Records and replays per client address: READS_PER_SECOND after a burst of READS_BURST (their own limit; the
other reads spend the client's `ReadLimits` budget)."""


class Service:
    """The state the routes share, and the helpers they call. `base`: the prefix of the links handed out (""
    for relative links)."""

    def __init__(
        self,
        mgr: TableManager,
        *,
        cluster: Cluster | None,
        bot_delay: float,
        thinkers: Thinkers,
        expiry: Expiry,
        reads: ReadLimits,
        odds: Odds,
        readiness: Readiness,
        base: str,
    ) -> None:
        self.mgr = mgr
        self.cluster = cluster
        self.bot_delay = bot_delay
        self.thinkers = thinkers
        self.expiry = expiry
        self.read = reads
        self.budget = WorkBudget(reads.work, reads.burst, reads.floor)
        self.odds = odds
        self.readiness = readiness
        self.base = base
        self.runner: BotRunner | None = None
        self.unknown: OrderedDict[str, float] = OrderedDict()  # table ids the database did not have, and when
        self.loading: dict[str, asyncio.Future[Table | None]] = {}
        self.read_buckets: dict[str, RateLimit] = {}
        self.every = expiry.interval()
        if mgr.limits.keep_ended:
            self.every = min(self.every, max(1.0, mgr.limits.keep_ended / 2))

    # ------------------------------------------------------------------ the application's life

    @contextlib.asynccontextmanager
    async def lifespan(self, _app: FastAPI) -> AsyncIterator[None]:
        mgr, cluster = self.mgr, self.cluster
        if cluster is None:
            mgr.load()  # one process: every live table at start-up (several: each when first asked for)
        # what start-up built lives as long as the process: out of the collector's way (a full collection
        # would walk it every time)
        gc.collect()
        gc.freeze()
        if isinstance(mgr.storage, (GroupCommit, LoopCommit)):
            mgr.storage.start(asyncio.get_running_loop())
        runner = self.runner = BotRunner(mgr, self.bot_delay, self.thinkers)
        if cluster is not None:
            cluster.run_bots = runner.watch
            cluster.stop_bots = runner.forget
            await cluster.start()
        for t in list(mgr.tables.values()):
            runner.watch(t)
        sweeper = asyncio.create_task(self.sweep(), name="expiry")
        try:
            yield
        finally:
            sweeper.cancel()
            with contextlib.suppress(BaseException):
                await sweeper
            if cluster is not None:
                await cluster.stop()
            await runner.stop()
            self.readiness.close()
            self.odds.close()
            mgr.storage.close()

    async def sweep(self) -> None:
        """Now and then: remove expired tables (see `Expiry`), in memory and in the database, and take ended ones
        out of memory (`TableManager.unload`)."""
        mgr, ended = self.mgr, self.expiry
        while True:
            await asyncio.sleep(self.every)
            mgr.unload()
            if mgr.unavailable() is None:
                gone = mgr.expire(ended.finished_after, ended.idle_after)
                stored = getattr(mgr.storage, "ended_before", None)
                if ended.finished_after and stored is not None:
                    with contextlib.suppress(Exception):  # the database is away: next time
                        old = await asyncio.to_thread(stored, time.time() - ended.finished_after)
                        mgr.expire_stored(old)
                        gone += [tid for tid in old if tid not in gone]
                if gone:
                    log.info("removed %d expired table(s): %s", len(gone), ", ".join(gone[:50]))

    # ------------------------------------------------------------------ tables in memory

    def watch(self, t: Table) -> None:
        """Have the table's bots and timer run: in this process, or in the one holding its lease."""
        if self.cluster is not None:
            self.cluster.want(t)
        elif self.runner is not None:
            self.runner.watch(t)

    async def load_stored(self, table_id: str) -> Table | None:
        """One process: an ended table read back from the database and rebuilt in a worker thread."""
        mgr = self.mgr
        pending = self.loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self.loading[table_id] = fut
        try:

            def build() -> Table | None:
                st = mgr.storage.load_one(table_id)
                return None if st is None else mgr.build(st)

            table = await asyncio.to_thread(build)
            t = mgr.tables.get(table_id)  # made meanwhile by another path
            if t is None and table is not None:
                mgr.adopt(table)
                t = table
            fut.set_result(t)
            return t
        except BaseException as e:
            fut.set_exception(e)
            fut.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            self.loading.pop(table_id, None)

    async def have(self, table_id: str, who: str | None = None) -> None:
        """Bring the table into memory if it is not there (several processes: any table this process has not
        loaded yet; one: an ended table that left memory), charging the database's and the rebuild's time to
        the reader `who`, and mark it watched (`TableManager.touch`). An id the database did not have is not
        asked about again for `ReadLimits.unknown_for` seconds (a negative cache, at most
        `ReadLimits.unknown_ids` ids)."""
        mgr, cluster, unknown = self.mgr, self.cluster, self.unknown
        t = mgr.tables.get(table_id)
        if t is not None:
            mgr.touch(t)
            return
        if (cluster is None and not mgr.lazy) or len(table_id) > 32:
            return
        now = time.monotonic()
        seen = unknown.get(table_id)
        if seen is not None and now - seen < self.read.unknown_for:
            return
        t0 = time.perf_counter()
        found = await (cluster.fetch(table_id) if cluster is not None else self.load_stored(table_id))
        if found is not None:
            mgr.touch(found)
        if who is not None:
            self.budget.charge(who, time.perf_counter() - t0, floor=False)
        if found is None:
            unknown[table_id] = now
            unknown.move_to_end(table_id)
            while len(unknown) > self.read.unknown_ids:
                unknown.popitem(last=False)
        else:
            unknown.pop(table_id, None)

    # ------------------------------------------------------------------ readers' budgets

    def reader(self, request: Request) -> str:
        """The client's address, once it may read (else 429: its budget of read work is spent)."""
        who = request.client.host if request.client else "?"
        wait = self.budget.refused(who)
        if wait is not None:
            raise TooMany(wait)
        return who

    @contextlib.contextmanager
    def work(self, who: str) -> Iterator[None]:
        """Charge the event loop's time of the block (no await in it) to the reader `who`."""
        t0 = time.thread_time()
        try:
            yield
        finally:
            self.budget.charge(who, time.thread_time() - t0)

    def read_limit(self, request: Request) -> None:
        """Costly reads (records, replays) per client address: READS_PER_SECOND, after a burst of READS_BURST."""
        host = request.client.host if request.client else "?"
        b = self.read_buckets.get(host)
        if b is None:
            if len(self.read_buckets) > 10_000:
                self.read_buckets.clear()
            b = self.read_buckets[host] = RateLimit(READS_PER_SECOND, READS_BURST)
        if not b.allow():
            raise TooMany(1.0 / READS_PER_SECOND)

    # ------------------------------------------------------------------ links

    def links(self, t: Table) -> dict[str, Any]:
        """The table's seats with their private links (for its creator), and its spectator link."""
        base = self.base
        seats = []
        for s in t.seats:
            d: dict[str, Any] = s.public()
            if s.kind == "human" and s.open:
                d["url"] = f"{base}/t/{t.id}"  # joined from the lobby or the table page: no private token
            elif s.kind == "human":
                d["token"] = s.token
                d["url"] = f"{base}/t/{t.id}#seat={s.token}"
            seats.append(d)
        return {
            "id": t.id,
            "game": t.name,
            "seats": seats,
            "spectator_url": f"{base}/t/{t.id}",
            "version": t.version,
            "status": t.status,
        }
