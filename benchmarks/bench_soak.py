"""Soak: memory, loop stalls and start-up of a real `hegemon serve` (SQLite) as history piles up (issue 26 item 4).

Load, for `--minutes` (default 3; the issue's run is `--minutes 30`):
- `--watched` (default 20) tables of three random bots at full speed (`--bot-delay 0`), each with a spectator
  websocket that reads every update; when a game ends its spectator leaves and a new table takes its place, so
  finished games pile up in the database (S.P.Q.RisiKo! to `--vp` victory points: a game of a few hundred
  actions);
- `--unwatched` (default 5) bot tables made every interval that nobody ever watches, games that never end by
  themselves (1,000 victory points): they must pause after HEGEMON_PAUSE_AFTER (5 s here) and store nothing
  more, and expire after `--expire-idle` (60 s here). Ended tables leave memory after HEGEMON_KEEP_ENDED (10 s).

A probe asks `GET /healthz` every 20 ms: its worst and p99 time in each interval is the worst stall of the
server's event loop (a full garbage collection, a long replay…) as a client meets it. Every `--interval`
seconds one line: elapsed time, actions stored (total and per second), games finished, tables in memory by
status, the server's RSS, the probe's p50/p99/worst. Flat RSS and worst stall after the warm-up is the goal.
At the end the server is restarted on the same database and the time until it answers is printed, with the
number of actions stored (a start-up replays only live tables).

    python benchmarks/bench_soak.py [--minutes 3] [--interval 20] [--watched 20] [--unwatched 5]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psutil
import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(db: Path, port: int) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    env.update({
        "HEGEMON_PAUSE_AFTER": "5", "HEGEMON_KEEP_ENDED": "10", "HEGEMON_MAX_TABLES_PER_CLIENT": "0",
        "HEGEMON_READ_WORK": "10", "HEGEMON_READ_BURST": "100",
    })  # fmt: skip
    cmd = [sys.executable, "-m", "hegemon.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
           "--db", f"sqlite:///{db}?synchronous=normal", "--bot-delay", "0", "--expire-idle", "60",
           "--log-level", "warning"]  # fmt: skip
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)


def wait_up(url: str, timeout: float = 600) -> float:
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < timeout:
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return time.perf_counter() - t0
        except httpx.HTTPError:
            time.sleep(0.02)
    raise RuntimeError("the server did not start")


def metrics(text: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for line in text.splitlines():
        m = re.match(r'(hegemon_tables_live)\{status="(\w+)"\} ([\d.e+]+)', line)
        if m:
            out[m.group(2)] = float(m.group(3))
        elif line.startswith("hegemon_actions_stored_total "):
            out["stored"] = float(line.split()[1])
    return out


class Soak:
    def __init__(self, url: str, args: argparse.Namespace) -> None:
        self.url = url
        self.args = args
        self.finished = 0
        self.probes: list[float] = []
        self.stop = False

    async def table(self, client: httpx.AsyncClient, seed: int, vp: int) -> str:
        body = {"game": "spqrisiko", "seed": seed, "seats": [{"bot": "random"}] * 3,
                "options": {"vp_target": vp}}  # fmt: skip
        while True:
            r = await client.post(f"{self.url}/api/tables", json=body)
            if r.status_code == 201:
                return str(r.json()["id"])
            await asyncio.sleep(0.5)

    async def watched(self, client: httpx.AsyncClient, k: int) -> None:
        ws_url = self.url.replace("http", "ws")
        seed = k * 100_000
        while not self.stop:
            seed += 1
            tid = await self.table(client, seed, self.args.vp)
            with contextlib.suppress(Exception):
                async with websockets.connect(f"{ws_url}/ws/tables/{tid}", max_size=None) as ws:
                    while not self.stop:
                        msg = json.loads(await ws.recv())
                        if msg.get("type") == "state" and msg.get("status") == "finished":
                            self.finished += 1
                            break

    async def unwatched(self, client: httpx.AsyncClient) -> None:
        seed = 10**9
        while not self.stop:
            for _ in range(self.args.unwatched):
                seed += 1
                await self.table(client, seed, 1000)  # never ends by itself
            await asyncio.sleep(self.args.interval)

    async def probe(self, client: httpx.AsyncClient) -> None:
        while not self.stop:
            t0 = time.perf_counter()
            with contextlib.suppress(httpx.HTTPError):
                await client.get(f"{self.url}/healthz")
            self.probes.append(time.perf_counter() - t0)
            await asyncio.sleep(0.02)

    async def run(self, pid: int) -> None:
        proc = psutil.Process(pid)
        limits = httpx.Limits(max_connections=50)
        async with (
            httpx.AsyncClient(timeout=30, limits=limits) as client,
            httpx.AsyncClient(timeout=30) as prober,
        ):
            tasks = [asyncio.create_task(self.watched(client, k)) for k in range(self.args.watched)]
            tasks.append(asyncio.create_task(self.unwatched(client)))
            tasks.append(asyncio.create_task(self.probe(prober)))
            t0 = time.perf_counter()
            last_stored = 0.0
            print(f"{'min':>5} {'stored':>8} {'/s':>6} {'games':>6} {'playing':>7} {'ended':>5} {'RSS MB':>7} "
                  f"{'p50 ms':>7} {'p99 ms':>7} {'worst ms':>8}", flush=True)  # fmt: skip
            while time.perf_counter() - t0 < self.args.minutes * 60:
                await asyncio.sleep(self.args.interval)
                probes, self.probes = self.probes, []
                m = metrics((await prober.get(f"{self.url}/metrics")).text)
                stored = m.get("stored", 0.0)
                rss = proc.memory_info().rss / 2**20
                q = statistics.quantiles(probes, n=100) if len(probes) > 2 else [0.0] * 99
                print(f"{(time.perf_counter() - t0) / 60:5.1f} {stored:8.0f} {(stored - last_stored) / self.args.interval:6.0f} "
                      f"{self.finished:6d} {m.get('playing', 0):7.0f} {m.get('finished', 0) + m.get('stopped', 0):5.0f} "
                      f"{rss:7.1f} {q[49] * 1000:7.1f} {q[98] * 1000:7.1f} {max(probes or [0]) * 1000:8.1f}",
                      flush=True)  # fmt: skip
                last_stored = stored
            self.stop = True
            for t in tasks:
                t.cancel()
            for t in tasks:
                with contextlib.suppress(BaseException):
                    await t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=3.0)
    ap.add_argument("--interval", type=float, default=20.0)
    ap.add_argument("--watched", type=int, default=20)
    ap.add_argument("--unwatched", type=int, default=5)
    ap.add_argument("--vp", type=int, default=3, help="victory points that end a game")
    args = ap.parse_args()
    random.seed(1)
    with tempfile.TemporaryDirectory() as d:
        db = Path(d) / "soak.db"
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        proc = start(db, port)
        try:
            first = wait_up(url)
            print(f"start on an empty database: answered after {first:.2f} s", flush=True)
            print(f"soak: {args.watched} watched bot tables, {args.unwatched} unwatched ones every {args.interval:.0f} s, "
                  f"{args.minutes:g} min, SQLite synchronous=normal, {os.cpu_count()} CPUs", flush=True)  # fmt: skip
            asyncio.run(Soak(url, args).run(proc.pid))
        finally:
            proc.terminate()
            proc.wait(30)
        with contextlib.closing(sqlite3.connect(db)) as conn:
            actions = conn.execute("SELECT count(*) FROM actions").fetchone()[0]
            by = dict(conn.execute("SELECT status, count(*) FROM tables GROUP BY status").fetchall())
        proc = start(db, port)
        try:
            took = wait_up(url)
            rss = psutil.Process(proc.pid).memory_info().rss / 2**20
            print(f"restart: answered after {took:.2f} s with {actions} actions stored in {sum(by.values())} tables "
                  f"({', '.join(f'{k} {v}' for k, v in sorted(by.items()))}); RSS {rss:.1f} MB", flush=True)  # fmt: skip
        finally:
            proc.terminate()
            proc.wait(30)


if __name__ == "__main__":
    main()
