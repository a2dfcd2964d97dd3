"""Web table benchmark: a real `hegemon serve` (uvicorn, SQLite in WAL mode with a synced commit per action)
on loopback, measured from outside.

1. Round trip of a move: a client sends a legal action on its seat's websocket; the clock stops when the
   *next* seat's websocket receives the new view. p50/p90/p99 over `--moves` moves (S.P.Q.RisiKo!, three
   people's seats, new tables as games end).
2. Throughput: 1, 10 and 100 concurrent tables whose seats are all bots (`--bot-delay 0`): accepted actions
   per second over a time window, every one validated by the engine and committed to SQLite before it is
   broadcast (chance draws included; they are actions of the record too).

    python benchmarks/bench_server.py [--moves 2000] [--window 5]
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


def start_server(db: Path, sync: str = "full") -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    cmd = [sys.executable, "-m", "hegemon.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
           "--db", f"sqlite:///{db}?synchronous={sync}", "--bot-delay", "0"]  # fmt: skip
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


async def latency(url: str, moves: int, seed: int) -> list[float]:
    """Round trips in seconds: send on the seat on turn, stop when another seat sees the new version."""
    rng = random.Random(seed)
    times: list[float] = []
    ws_url = url.replace("http", "ws")
    async with httpx.AsyncClient(base_url=url) as http:
        while len(times) < moves:
            r = await http.post("/api/tables", json={"game": "spqrisiko", "players": 3, "seats": [{"human": True}] * 3,
                                                    "seed": rng.randrange(2**31), "options": {"vp_target": 1000}})  # fmt: skip
            res = r.json()
            socks = [await websockets.connect(f"{ws_url}/ws/tables/{res['id']}?token={s['token']}", max_size=2**22)
                     for s in res["seats"]]  # fmt: skip
            try:
                last: list[dict[str, Any]] = [{} for _ in socks]

                async def drain(i: int, version: int, socks: list[Any] = socks, last: list[Any] = last) -> dict[str, Any]:
                    while True:
                        m = json.loads(await asyncio.wait_for(socks[i].recv(), 10))
                        if m["type"] == "error":
                            raise RuntimeError(f"refused: {m}")
                        if m["type"] == "state":
                            last[i] = m
                            if (m["version"] >= version and m["status"] == "playing") or m["status"] == "finished":
                                return m

                for i in range(3):
                    await drain(i, 1)
                while len(times) < moves:
                    cur = last[0]["view"]["current_player"]
                    if last[0]["status"] != "playing" or cur is None:
                        break
                    # every seat must be up to date before the next move
                    v = max(m["version"] for m in last)
                    for i in range(3):
                        if last[i]["version"] < v:
                            await drain(i, v)
                    mine = last[cur]
                    action = rng.choice(mine["view"]["legal_actions"])
                    other = (cur + 1) % 3
                    t0 = time.perf_counter()
                    await socks[cur].send(json.dumps({"version": mine["version"], "action": action}))
                    m = await drain(other, mine["version"] + 1)
                    times.append(time.perf_counter() - t0)
                    for i in range(3):
                        if i != other:
                            await drain(i, m["version"])
            finally:
                for s in socks:
                    await s.close()
    return times


def throughput(url: str, tables: int, window: float, seed: int) -> tuple[float, int]:
    """Accepted actions per second over `window` seconds with `tables` tables of bots playing at once."""
    ids = []
    with httpx.Client(base_url=url) as http:
        for i in range(tables):
            r = http.post("/api/tables", json={"game": "spqrisiko", "players": 4, "seats": [{"bot": "random"}] * 4,
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--moves", type=int, default=2000)
    ap.add_argument("--window", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sync", choices=("full", "normal", "both"), default="both",
                    help="SQLite synchronous level of the latency run (full: synced at every commit, the default)")
    args = ap.parse_args()
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
