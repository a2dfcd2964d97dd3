"""Where a sweep's games run: in this process, in local processes (`--jobs N`, the default backend) or on a
Dask distributed cluster (`--dask tcp://scheduler:8786`, or `--dask local` for a LocalCluster). Work is cut
into coarse tasks of many games; every game is seeded from its unit alone, so the results do not depend on
the backend, the task size or the order of completion."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from hegemon.lab.sweep import Sweep, Unit, run_units

Result = list[dict[str, Any]]


def chunks(units: list[Unit], size: int) -> list[list[tuple[int, int, int, int]]]:
    tuples = [(u.variant, u.pair, u.deal, u.rotation) for u in units]
    return [tuples[i : i + size] for i in range(0, len(tuples), size)]


def task_size(total: int, workers: int, requested: int | None = None) -> int:
    """Games per task: coarse (few tasks per worker) but small enough for a live progress bar."""
    if requested:
        return max(1, requested)
    return max(1, min(50, -(-total // max(1, workers * 6))))


def run_serial(sweep: Sweep, units: list[Unit], size: int) -> Iterator[Result]:
    sj = sweep.to_json()
    for task in chunks(units, size):
        yield run_units(sj, task)


def run_processes(sweep: Sweep, units: list[Unit], jobs: int, size: int) -> Iterator[Result]:
    """Tasks on a pool of `jobs` processes, yielded as they finish (at most 2 tasks queued per worker, so an
    interrupted run loses little and memory stays flat)."""
    sj = sweep.to_json()
    tasks = chunks(units, size)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pending: set[Future[Result]] = set()
        it = iter(tasks)
        for task in it:
            pending.add(pool.submit(run_units, sj, task))
            if len(pending) >= 2 * jobs:
                break
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                yield f.result()
                nxt = next(it, None)
                if nxt is not None:
                    pending.add(pool.submit(run_units, sj, nxt))


def run_dask(sweep: Sweep, units: list[Unit], address: str, size: int, workers: int = 2) -> Iterator[Result]:
    """Tasks on a Dask cluster: `address` is a scheduler (tcp://host:8786) or `local` (a LocalCluster of
    `workers` processes, closed at the end)."""
    from dask.distributed import Client, LocalCluster, as_completed

    cluster = None
    if address == "local":
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    else:
        client = Client(address)
    try:
        sj = sweep.to_json()
        futures = [client.submit(run_units, sj, task, pure=False) for task in chunks(units, size)]
        for f in as_completed(futures):
            yield f.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def execute(
    sweep: Sweep,
    units: list[Unit],
    jobs: int = 1,
    dask: str | None = None,
    size: int | None = None,
    client_factory: Callable[[], Any] | None = None,
) -> Iterator[Result]:
    """Run `units` on the chosen backend, yielding each task's records as it completes."""
    workers = jobs if jobs > 0 else 1
    size = task_size(len(units), workers, size)
    if client_factory is not None:
        client = client_factory()
        sj = sweep.to_json()
        from dask.distributed import as_completed

        futures = [client.submit(run_units, sj, task, pure=False) for task in chunks(units, size)]
        for f in as_completed(futures):
            yield f.result()
        return
    if dask:
        yield from run_dask(sweep, units, dask, size, workers)
    elif workers == 1:
        yield from run_serial(sweep, units, size)
    else:
        yield from run_processes(sweep, units, workers, size)
