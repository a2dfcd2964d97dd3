"""Where a sweep's games run: in this process, in local processes (`--jobs N`, the default backend) or on a
Dask distributed cluster (`--dask tcp://scheduler:8786`, or `--dask local` for a LocalCluster). Work is cut
into coarse tasks of many games, and the workers write their own records (the parent only merges files and
summarises light records, so it leaves the cores to the workers); every game is seeded from its unit alone, so the results do not depend on
the backend, the task size or the order of completion."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hegemon.lab.sweep import Sweep, Unit, run_units, run_units_to_file

Result = list[dict[str, Any]]


@dataclass
class Batch:
    """A finished task. `records` are light (no action lists) when a worker wrote the full records itself:
    to `part`, a file of its own that the parent appends to the run's games file and deletes, or (`part` is
    None and `written`) straight to the games file. Otherwise (`written` False) they are the full records,
    for the parent to write (a remote Dask cluster, whose workers may not share the run's disk)."""

    records: Result
    part: Path | None = None
    written: bool = True


def chunks(units: list[Unit], size: int) -> list[list[tuple[int, int, int, int]]]:
    tuples = [(u.variant, u.pair, u.deal, u.rotation) for u in units]
    return [tuples[i : i + size] for i in range(0, len(tuples), size)]


def task_size(total: int, workers: int, requested: int | None = None) -> int:
    """Games per task: coarse (few tasks per worker) but small enough for a live progress bar."""
    if requested:
        return max(1, requested)
    return max(1, min(50, -(-total // max(1, workers * 6))))


def run_serial(sweep: Sweep, units: list[Unit], size: int, games_file: Path) -> Iterator[Batch]:
    sj = sweep.to_json()
    for task in chunks(units, size):
        yield Batch(run_units_to_file(sj, task, str(games_file)))


def _part(parts: Path, i: int) -> Path:
    return parts / f"part-{i:06d}.jsonl"


def run_processes(sweep: Sweep, units: list[Unit], jobs: int, size: int, parts: Path) -> Iterator[Batch]:
    """Tasks on a pool of `jobs` processes, yielded as they finish (at most 2 tasks queued per worker, so an
    interrupted run loses little and memory stays flat). Each task writes its records to its own part file."""
    sj = sweep.to_json()
    tasks = list(enumerate(chunks(units, size)))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pending: dict[Future[Result], int] = {}
        it = iter(tasks)
        for i, task in it:
            pending[pool.submit(run_units_to_file, sj, task, str(_part(parts, i)))] = i
            if len(pending) >= 2 * jobs:
                break
        while pending:
            done, _ = wait(set(pending), return_when=FIRST_COMPLETED)
            for f in done:
                i = pending.pop(f)
                yield Batch(f.result(), _part(parts, i))
                nxt = next(it, None)
                if nxt is not None:
                    pending[pool.submit(run_units_to_file, sj, nxt[1], str(_part(parts, nxt[0])))] = nxt[0]


def _dask_tasks(
    client: Any, sweep: Sweep, units: list[Unit], size: int, parts: Path | None
) -> Iterator[Batch]:
    from dask.distributed import as_completed

    sj = sweep.to_json()
    futures: dict[Any, int] = {}
    for i, task in enumerate(chunks(units, size)):
        if parts is not None:
            futures[client.submit(run_units_to_file, sj, task, str(_part(parts, i)), pure=False)] = i
        else:
            futures[client.submit(run_units, sj, task, pure=False)] = i
    for f in as_completed(list(futures)):
        i = futures[f]
        if parts is not None:
            yield Batch(f.result(), _part(parts, i))
        else:
            yield Batch(f.result(), written=False)


def run_dask(
    sweep: Sweep,
    units: list[Unit],
    address: str,
    size: int,
    workers: int,
    parts: Path,
    on_ready: Callable[[], None] | None = None,
) -> Iterator[Batch]:
    """Tasks on a Dask cluster: `address` is a scheduler (tcp://host:8786) or `local` (a LocalCluster of
    `workers` processes, closed at the end). LocalCluster workers share the disk and write their own part
    files; a remote cluster's workers send their records back. `on_ready` is called once the cluster's
    workers are up (a LocalCluster takes seconds to start: not play)."""
    from dask.distributed import Client, LocalCluster

    cluster = None
    if address == "local":
        cluster = LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(cluster)
        client.wait_for_workers(workers)
    else:
        client = Client(address)
    if on_ready is not None:
        on_ready()
    try:
        yield from _dask_tasks(client, sweep, units, size, parts if cluster is not None else None)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def execute(
    sweep: Sweep,
    units: list[Unit],
    games_file: Path,
    jobs: int = 1,
    dask: str | None = None,
    size: int | None = None,
    client_factory: Callable[[], Any] | None = None,
    on_ready: Callable[[], None] | None = None,
) -> Iterator[Batch]:
    """Run `units` on the chosen backend, yielding each task's batch as it completes. Serial tasks append to
    `games_file` directly; parallel local tasks write part files beside it (in `parts/`). `on_ready` is called
    when the backend can take work (at once, except for a Dask cluster, once it is up)."""
    workers = jobs if jobs > 0 else 1
    size = task_size(len(units), workers, size)
    parts = games_file.parent / PARTS_DIR
    if client_factory is not None:
        client = client_factory()
        if on_ready is not None:
            on_ready()
        yield from _dask_tasks(client, sweep, units, size, None)
        return
    if dask:
        parts.mkdir(exist_ok=True)
        yield from run_dask(sweep, units, dask, size, workers, parts, on_ready)
        return
    if on_ready is not None:
        on_ready()
    if workers == 1:
        yield from run_serial(sweep, units, size, games_file)
    else:
        parts.mkdir(exist_ok=True)
        yield from run_processes(sweep, units, workers, size, parts)


PARTS_DIR = "parts"
