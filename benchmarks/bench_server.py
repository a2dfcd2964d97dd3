"""Web table benchmark: a real `hegemon serve` (uvicorn, SQLite in WAL mode with a synced commit per action)
on loopback, measured from outside.

1. Round trip of a move: a client sends a legal action on its seat's websocket; the clock stops when the
   *next* seat's websocket receives the new view. p50/p90/p99 over `--moves` moves (S.P.Q.RisiKo!, three
   people's seats, new tables as games end).
2. Throughput: 1, 10 and 100 concurrent tables whose seats are all bots (`--bot-delay 0`): accepted actions
   per second over a time window, every one validated by the engine and committed to SQLite before it is
   broadcast (chance draws included; they are actions of the record too).
3. `--load`: a person's round trip (as in 1) while `--load-tables` tables (default 20) of three `mcts:hard`
   bots play at once (`--bot-delay 0`: the bots think back to back). Issue 11 target: p99 <= 50 ms.
   `--search-workers` and `--search-budget` are passed to `hegemon serve`.

    python benchmarks/bench_server.py [--moves 2000] [--window 5]
    python benchmarks/bench_server.py --load [--moves 500] [--load-tables 20]
    python benchmarks/bench_server.py --db postgresql://user@host/db   # several processes on PostgreSQL
    python benchmarks/bench_server.py --db postgresql                  # the same on a temporary local server
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fsync_latency(directory: Path, n: int = 200) -> tuple[float, float]:
    """p50 and p99 of one small write + fdatasync in `directory` (the floor of a durable commit)."""
    path = directory / "fsync.probe"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT)
    ts = []
    try:
        for _ in range(n):
            os.write(fd, b"x" * 200)
            t = time.perf_counter()
            os.fdatasync(fd)
            ts.append(time.perf_counter() - t)
    finally:
        os.close(fd)
        path.unlink()
    q = statistics.quantiles(ts, n=100)
    return q[49], q[98]


def start_server(
    db: Path | str, sync: str = "full", extra: list[str] | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    """A `hegemon serve` process on the SQLite file `db` (or the database URL `db`), bots at full speed."""
    port = free_port()
    url = db if isinstance(db, str) else f"sqlite:///{db}?synchronous={sync}"
    cmd = [sys.executable, "-m", "hegemon.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
           "--db", url, "--bot-delay", "0", *(extra or [])]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ))
    url = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            if httpx.get(f"{url}/api/games", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("server did not start")


async def latency(
    url: str, moves: int, seed: int, watch_url: str | None = None, pace: float = 0.0
) -> list[float]:
    """Round trips in seconds: send on the seat on turn, stop when another seat sees the new version (`pace`
    seconds of pause between moves, so that `moves` moves span a chosen time). With
    `watch_url` (another process on the same database) the seats alternate between the two processes, so the
    seat that watches is always on the other process than the one that moves."""
    rng = random.Random(seed)
    times: list[float] = []
    ws_urls = [u.replace("http", "ws") for u in (url, watch_url or url)]
    async with httpx.AsyncClient(base_url=url) as http:
        while len(times) < moves:
            n = 2 if watch_url else 3
            game = {"game": "polis"} if watch_url else {"game": "spqrisiko", "options": {"vp_target": 1000}}
            r = await http.post("/api/tables", json=game | {"players": n, "seats": [{"human": True}] * n,
                                                          "seed": rng.randrange(2**31)})  # fmt: skip
            res = r.json()
            players = 2 if watch_url else 3  # two seats: the mover and the watcher are on different processes
            socks = [await websockets.connect(f"{ws_urls[i % 2]}/ws/tables/{res['id']}?token={s['token']}",
                                              max_size=2**22) for i, s in enumerate(res["seats"])]  # fmt: skip
            try:
                last: list[dict[str, Any]] = [{} for _ in socks]

                async def drain(
                    i: int, version: int, socks: list[Any] = socks, last: list[Any] = last
                ) -> dict[str, Any]:
                    while True:
                        m = json.loads(await asyncio.wait_for(socks[i].recv(), 10))
                        if m["type"] == "error" and not (watch_url and m["code"] == "stale_version"):
                            raise RuntimeError(f"refused: {m}")  # (two processes: a seat race is caught up)
                        if m["type"] == "state":
                            last[i] = m
                            if (m["version"] >= version and m["status"] == "playing") or m[
                                "status"
                            ] == "finished":
                                return m

                for i in range(players):
                    await drain(i, 1)
                while len(times) < moves:
                    cur = last[0]["view"]["current_player"]
                    if last[0]["status"] != "playing" or cur is None:
                        break
                    # every seat must be up to date before the next move
                    v = max(m["version"] for m in last)
                    for i in range(players):
                        if last[i]["version"] < v:
                            await drain(i, v)
                    mine = last[cur]
                    action = rng.choice(mine["view"]["legal_actions"])
                    other = (cur + 1) % players
                    t0 = time.perf_counter()
                    await socks[cur].send(json.dumps({"version": mine["version"], "action": action}))
                    m = await drain(other, mine["version"] + 1)
                    times.append(time.perf_counter() - t0)
                    for i in range(players):
                        if i != other:
                            await drain(i, m["version"])
                    if pace:
                        await asyncio.sleep(pace)
            finally:
                for s in socks:
                    await s.close()
    return times


def throughput(
    url: str, tables: int, window: float, seed: int, more: tuple[str, ...] = ()
) -> tuple[float, int]:
    """Accepted actions per second over `window` seconds with `tables` tables of bots playing at once (made in
    turn on `url` and the processes of `more`, which serve the same database)."""
    ids = []
    with httpx.Client(base_url=url) as http:
        for i in range(tables):
            where = ([url, *more])[i % (1 + len(more))]
            r = http.post(f"{where}/api/tables", json={"game": "spqrisiko", "players": 4, "seats": [{"bot": "random"}] * 4,
                                               "seed": seed + i, "options": {"vp_target": 1000}})  # fmt: skip
            ids.append(r.json()["id"])
        time.sleep(0.5)

        def total() -> int:
            return sum(http.get(f"/api/tables/{i}").json()["version"] for i in ids)

        a, t0 = total(), time.perf_counter()
        time.sleep(window)
        b, t1 = total(), time.perf_counter()
        finished = sum(http.get(f"/api/tables/{i}").json()["status"] == "finished" for i in ids)
    return (b - a) / (t1 - t0), finished


def report_latency(url: str, moves: int, seed: int, label: str) -> None:
    asyncio.run(latency(url, 100, seed + 99))  # warm-up
    ts = sorted(asyncio.run(latency(url, moves, seed)))
    q = statistics.quantiles(ts, n=100)
    print(f"round trip over {len(ts)} moves ({label}): p50 {q[49] * 1e3:.2f} ms  p90 {q[89] * 1e3:.2f} ms  "
          f"p99 {q[98] * 1e3:.2f} ms  (mean {statistics.fmean(ts) * 1e3:.2f} ms)")  # fmt: skip


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds used so far by the processes `pids` (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def postgres_pids() -> list[int]:
    """Every PostgreSQL server process on this machine (the database's share of the CPU)."""
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if (d / "comm").read_text().strip() in ("postgres", "postmaster"):
                    out.append(int(d.name))
            except OSError:
                continue
    return out


def postgres_runs(db: str, moves: int, window: float, seed: int) -> None:
    """The PostgreSQL figures: the move round trip with the mover on one process and the watcher on another, and
    accepted actions/s with 100 bot tables on 1 and on 2 processes, with where the CPU went."""
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; database: PostgreSQL")
    a, url_a = start_server(db)
    b, url_b = start_server(db)
    try:
        asyncio.run(latency(url_a, 50, seed + 99, watch_url=url_b))  # warm-up
        ts = sorted(asyncio.run(latency(url_a, moves, seed, watch_url=url_b)))
        q = statistics.quantiles(ts, n=100)
        print(f"round trip over {len(ts)} moves (Polis, mover on process A, watcher on process B): p50 "
              f"{q[49] * 1e3:.2f} ms  p90 {q[89] * 1e3:.2f} ms  p99 {q[98] * 1e3:.2f} ms")  # fmt: skip
    finally:
        for p in (a, b):
            p.terminate()
            p.wait(timeout=20)
    for n_proc in (1, 2):
        procs = [start_server(db) for _ in range(n_proc)]
        pg = postgres_pids()
        pids = [p.pid for p, _ in procs]
        try:
            c0, g0, t0 = cpu_seconds(pids), cpu_seconds(pg), time.perf_counter()
            rate, done = throughput(procs[0][1], 100, window, seed, tuple(u for _, u in procs[1:]))
            c1, g1, t1 = cpu_seconds(pids), cpu_seconds(postgres_pids()), time.perf_counter()
            wall = t1 - t0
            print(f"throughput with 100 bot tables on {n_proc} process{'es' if n_proc > 1 else ''}: {rate:8.0f} "
                  f"accepted actions/s; CPU: hegemon {100 * (c1 - c0) / wall:.0f}%, PostgreSQL "
                  f"{100 * (g1 - g0) / wall:.0f}% (of one core, over the run)"
                  + (f"  ({done} tables finished)" if done else ""))  # fmt: skip
        finally:
            for p, _ in procs:
                p.terminate()
                p.wait(timeout=20)


def under_load(d: Path, args: argparse.Namespace) -> None:
    """A person's round trip while `args.load_tables` tables of three mcts:hard bots play."""
    extra = []
    if args.search_workers:
        extra += ["--search-workers", str(args.search_workers)]
    if args.search_budget is not None:
        extra += ["--search-budget", str(args.search_budget)]
    proc, url = start_server(d / "bench-load.db", "full", extra)
    try:
        ids = []
        with httpx.Client(base_url=url, timeout=30) as http:
            for i in range(args.load_tables):
                r = http.post("/api/tables", json={"game": "spqrisiko", "players": 3, "seats": [{"bot": "mcts:hard"}] * 3,
                                                   "seed": args.seed + i, "options": {"vp_target": 1000}})  # fmt: skip
                ids.append(r.json()["id"])
            time.sleep(2.0)  # the searches are under way
            before = sum(http.get(f"/api/tables/{i}").json()["version"] for i in ids)
            t0 = time.perf_counter()
            report_latency(
                url, args.moves, args.seed, f"{args.load_tables} tables of 3 mcts:hard bots playing"
            )
            after = sum(http.get(f"/api/tables/{i}").json()["version"] for i in ids)
            rate = (after - before) / (time.perf_counter() - t0)
            print(f"meanwhile the bot tables played {rate:.1f} actions/s in all "
                  f"({' '.join(extra) or 'default search settings'})")  # fmt: skip
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--moves", type=int, default=2000)
    ap.add_argument("--window", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--sync",
        choices=("full", "normal", "both"),
        default="both",
        help="SQLite synchronous level of the latency run (full: synced at every commit, the default)",
    )
    ap.add_argument(
        "--db",
        default=None,
        help="a postgresql://… URL: measure several processes on that database instead of SQLite; "
        "'postgresql' alone starts a temporary server (Debian's postgresql package)",
    )
    ap.add_argument(
        "--load", action="store_true", help="only the round trip under search-bot load (see above)"
    )
    ap.add_argument("--load-tables", type=int, default=20)
    ap.add_argument(
        "--search-workers", type=int, default=0, help="--load: passed to hegemon serve (0: its default)"
    )
    ap.add_argument("--search-budget", type=float, default=None, help="--load: passed to hegemon serve")
    args = ap.parse_args()
    if args.load:
        with tempfile.TemporaryDirectory() as d:
            print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
            under_load(Path(d), args)
        return
    if args.db:
        if args.db == "postgresql":
            sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
            from tests.pgserver import PostgresServer

            pg = PostgresServer()
            pg.start()
            try:
                postgres_runs(pg.fresh_database().replace("+psycopg", ""), args.moves, args.window, args.seed)
            finally:
                pg.close()
        else:
            postgres_runs(args.db, args.moves, args.window, args.seed)
        return
    with tempfile.TemporaryDirectory() as d:
        f50, f99 = fsync_latency(Path(d))
        load = os.getloadavg()[0]
        print(f"{os.cpu_count()} CPUs, load average {load:.2f}; this disk's fdatasync: p50 {f50 * 1e3:.2f} ms, "
              f"p99 {f99 * 1e3:.2f} ms (the floor of a durable commit)")  # fmt: skip
        for sync in ("full", "normal") if args.sync == "both" else (args.sync,):
            proc, url = start_server(Path(d) / f"bench-{sync}.db", sync)
            try:
                label = "SQLite WAL, synchronous=FULL" if sync == "full" else "SQLite WAL, synchronous=NORMAL"
                report_latency(url, args.moves, args.seed, label)
            finally:
                proc.terminate()
                proc.wait(timeout=10)
        for n in (1, 10, 100):
            proc, url = start_server(Path(d) / f"bench-{n}.db")
            try:
                rate, done = throughput(url, n, args.window, args.seed)
                print(f"throughput with {n:>3} bot tables (synchronous=FULL): {rate:8.0f} accepted actions/s"
                      + (f"  ({done} tables finished during the window)" if done else ""))  # fmt: skip
            finally:
                proc.terminate()
                proc.wait(timeout=10)


if __name__ == "__main__":
    main()
