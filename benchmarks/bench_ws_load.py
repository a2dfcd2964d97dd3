"""Websocket load benchmark (issue 26 items 3 and 6): a person's move round trip on a real `hegemon serve`
(uvicorn, SQLite with a synced commit per action, bots at full speed), quiet and then under load, in the same run.
The round trip is `bench_server.latency`: a seat sends a legal action on its websocket, the clock stops when the
next seat's websocket has the new view (a table of three people, not the loaded one).

- `--mode spectators`: `--spectators` (default 3,000) spectator websockets, `--per-address` (default 30) from each
  client address (`X-Forwarded-For` from a trusted loopback proxy), all on one busy table (three random bots
  playing back to back). Prints what the spectators received and the server's RSS before, during and after.
- `--mode flood`: `--conns` (default 64) websockets from ONE address, each sending small messages back to back
  (a spectator's `{"version", "action"}`), reconnecting whenever the server closes them.

Targets: p99 <= 50 ms in both. The load runs in a process of its own, so the person's client does not wait
behind it; the server, the load and the person share this machine's CPUs (printed).

    python benchmarks/bench_ws_load.py [--mode both] [--moves 300] [--spectators 3000] [--conns 64]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server import latency, start_server


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_s(pid: int) -> float:
    """CPU seconds (user + system) the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def quantiles(ts: list[float]) -> str:
    q = statistics.quantiles(sorted(ts), n=100)
    return f"p50 {q[49] * 1e3:6.1f} ms  p99 {q[98] * 1e3:6.1f} ms  (over {len(ts)} moves)"


# ------------------------------------------------------------------ the load processes


async def spectate(ws_url: str, n: int, per_address: int, ready: asyncio.Event, stop: asyncio.Event,
                   got: Counter[str]) -> None:  # fmt: skip
    async def one(i: int) -> None:
        headers = {"X-Forwarded-For": f"10.{i // per_address // 250}.{i // per_address % 250}.1"}
        try:
            async with websockets.connect(ws_url, additional_headers=headers, max_size=2**24, open_timeout=60,
                                          ping_interval=None) as w:  # fmt: skip
                got["open"] += 1
                while not stop.is_set():
                    try:
                        m = await asyncio.wait_for(w.recv(), 0.5)
                    except TimeoutError:
                        continue
                    got["messages"] += 1
                    got["bytes"] += len(m)
        except websockets.ConnectionClosed as e:
            got[f"closed {e.rcvd.code if e.rcvd else '?'}"] += 1
        except (OSError, websockets.InvalidStatus, TimeoutError) as e:
            got[f"failed {type(e).__name__}"] += 1

    tasks = []
    for i in range(n):
        tasks.append(asyncio.create_task(one(i)))
        if i % 50 == 49:
            await asyncio.sleep(0.05)  # connect at a human pace, not all in one burst
    while got["open"] + sum(v for k, v in got.items() if k.startswith(("closed", "failed"))) < n:
        await asyncio.sleep(0.1)
    ready.set()
    await stop.wait()
    await asyncio.gather(*tasks)


async def flood(ws_url: str, conns: int, stop: asyncio.Event, got: Counter[str]) -> None:
    msg = json.dumps({"version": 0, "action": {"type": "pass"}})

    async def one() -> None:
        while not stop.is_set():
            try:
                async with websockets.connect(ws_url, additional_headers={"X-Forwarded-For": "10.66.6.6"},
                                              max_size=2**24, ping_interval=None) as w:  # fmt: skip
                    got["connected"] += 1

                    async def drain() -> None:
                        async for _ in w:
                            got["answers"] += 1

                    reader = asyncio.create_task(drain())
                    try:
                        while not stop.is_set():
                            for _ in range(50):
                                await w.send(msg)
                            got["sent"] += 50
                            await asyncio.sleep(0)
                    finally:
                        reader.cancel()
            except websockets.ConnectionClosed as e:
                got[f"closed {e.rcvd.code if e.rcvd else '?'}"] += 1
            except (OSError, websockets.InvalidStatus, websockets.InvalidMessage) as e:
                got[f"refused {type(e).__name__}"] += 1
                await asyncio.sleep(0.1)

    await asyncio.gather(*(one() for _ in range(conns)))


def run_load(spec: dict[str, Any]) -> None:
    """The load process: starts, says `ready` on stdout, runs until its input ends, then prints one JSON line."""

    async def go() -> None:
        stop, ready = asyncio.Event(), asyncio.Event()
        got: Counter[str] = Counter()
        if spec["mode"] == "spectators":
            task = asyncio.create_task(spectate(spec["ws"], spec["n"], spec["per_address"], ready, stop, got))
            await ready.wait()
        else:  # measured from the flood's first message: its burst, the closes and bans, and each new wave
            task = asyncio.create_task(flood(spec["ws"], spec["n"], stop, got))
        t0 = time.perf_counter()
        start = dict(got)
        peak = 0

        async def sample() -> None:  # the busiest second of the flood
            nonlocal peak
            while not stop.is_set():
                before = got["sent"]
                await asyncio.sleep(1.0)
                peak = max(peak, got["sent"] - before)

        sampler = asyncio.create_task(sample())
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        span = time.perf_counter() - t0
        during = {k: v - start.get(k, 0) for k, v in got.items()}
        stop.set()
        await asyncio.wait_for(task, 30)
        sampler.cancel()
        print(json.dumps({"total": dict(got), "during": during, "span": span, "peak": peak}), flush=True)

    asyncio.run(go())


# ------------------------------------------------------------------ the measuring side


def loaded(url: str, mode: str, ws_path: str, n: int, per_address: int, moves: int, seed: int, pid: int,
           duration: float = 0.0) -> None:  # fmt: skip
    spec = json.dumps(
        {"mode": mode, "ws": url.replace("http", "ws") + ws_path, "n": n, "per_address": per_address}
    )
    rss0 = rss_mb(pid)
    busy = ws_path.rsplit("/", 1)[1]
    v0 = httpx.get(f"{url}/api/tables/{busy}").json()["version"]
    load = subprocess.Popen([sys.executable, __file__, "--load", spec], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, preexec_fn=lambda: os.setpriority(os.PRIO_PROCESS, 0, 0))  # fmt: skip
    assert load.stdout is not None
    t0 = time.perf_counter()
    line = load.stdout.readline()
    if line.strip() != "ready":
        raise RuntimeError(f"the load did not start: {line!r}")
    rss1 = rss_mb(pid)
    if mode == "spectators":
        print(
            f"{n} spectators connected in {time.perf_counter() - t0:.1f} s; server RSS {rss0:.0f} -> {rss1:.0f} MB"
        )
    # the flood is measured over its whole life: its first burst, the closes and bans, and the waves after each ban
    # lapses (HEGEMON_WS_COOLOFF, 10 s by default): `moves` moves paced over about `duration` seconds
    c0, w0 = cpu_s(pid), time.perf_counter()
    ts = asyncio.run(latency(url, moves, seed + 1, pace=duration / moves if mode == "flood" else 0.0))
    c1, w1 = cpu_s(pid), time.perf_counter()
    rss2 = rss_mb(pid)
    out, _ = load.communicate("", timeout=90)
    got = json.loads(out.strip().splitlines()[-1])
    d, span = got["during"], got["span"]
    print(f"round trip, {mode} load:{' ' * (11 - len(mode))}{quantiles(ts)}")
    print(
        f"  the server used {c1 - c0:.1f} CPU s over those {w1 - w0:.1f} s ({(c1 - c0) / (w1 - w0):.0%} of a core)"
    )
    if mode == "spectators":
        print(f"  meanwhile the spectators received {d.get('messages', 0) / span:.0f} messages/s "
              f"({d.get('bytes', 0) / span / 1e6:.1f} MB/s) over {span:.1f} s; all told: {got['total']}")  # fmt: skip
        time.sleep(3)
        after3 = rss_mb(pid)
        time.sleep(7)
        grew = httpx.get(f"{url}/api/tables/{busy}").json()["version"] - v0
        print(f"  server RSS: {rss0:.0f} MB before, {rss2:.0f} MB with them, {after3:.0f} MB 3 s and "
              f"{rss_mb(pid):.0f} MB 10 s after they left; meanwhile the busy table stored {grew} more actions "
              "(its history stays in memory while it plays)")  # fmt: skip
    else:
        print(f"  meanwhile the flood sent {d.get('sent', 0) / span:.0f} messages/s on average from one address over "
              f"{span:.1f} s (peak second: {got.get('peak', 0)}) and got {d.get('answers', 0)} answers; "
              f"all told: {got['total']}")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=("spectators", "flood", "both"), default="both")
    ap.add_argument("--moves", type=int, default=300)
    ap.add_argument("--spectators", type=int, default=3000)
    ap.add_argument(
        "--waves", type=int, default=1, help="spectators mode: waves of spectators, one after the other"
    )
    ap.add_argument("--per-address", type=int, default=30)
    ap.add_argument("--conns", type=int, default=64)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--duration",
        type=float,
        default=30.0,
        help="flood mode: seconds over which the person's moves are spread (the ban cycles included)",
    )
    ap.add_argument(
        "--server-priority",
        type=int,
        default=0,
        metavar="N",
        help="raise the server's scheduling priority by N (negative nice; root only): the load generator "
        "and everything else on this machine then take CPU from each other, not from the server, "
        "as when a flood comes from another machine (printed with the figures)",
    )
    ap.add_argument("--load", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.load:
        run_load(json.loads(args.load))
        return
    os.environ["HEGEMON_TRUSTED_PROXIES"] = "127.0.0.1"  # each load client has its own address
    if args.server_priority:  # the server inherits it; the load generator goes back to nice 0 (`loaded`)
        os.setpriority(os.PRIO_PROCESS, 0, -args.server_priority)
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; "
          f"engine: {'pure Python' if os.environ.get('HEGEMON_PURE') else 'compiled if built'}")  # fmt: skip
    modes = ("spectators", "flood") if args.mode == "both" else (args.mode,)
    with tempfile.TemporaryDirectory() as d:
        for mode in modes:
            proc, url = start_server(Path(d) / f"{mode}.db", "full", ["--log-level", "warning"])
            if args.server_priority:
                print(f"server and the person's client at nice {os.getpriority(os.PRIO_PROCESS, proc.pid)}, "
                      "the load generator at nice 0")  # fmt: skip
            try:
                asyncio.run(latency(url, 50, args.seed + 99))  # warm-up
                print(f"--- {mode}")
                print(
                    f"round trip, quiet:           {quantiles(asyncio.run(latency(url, args.moves, args.seed)))}"
                )
                with httpx.Client(base_url=url, timeout=30) as http:
                    r = http.post("/api/tables", json={"game": "spqrisiko", "players": 3, "seats": [{"bot": "random"}] * 3,
                                                       "seed": args.seed, "options": {"vp_target": 1000}})  # fmt: skip
                    busy = r.json()["id"]
                    time.sleep(1.0)
                    v0 = http.get(f"/api/tables/{busy}").json()["version"]
                    time.sleep(1.0)
                    v1 = http.get(f"/api/tables/{busy}").json()["version"]
                if mode == "spectators":
                    print(f"the busy table plays {v1 - v0} actions/s (three random bots, no delay)")
                    for wave in range(args.waves):  # later waves: is the memory the first one left reused?
                        if args.waves > 1:
                            print(f"wave {wave + 1} of {args.waves}")
                        loaded(
                            url,
                            mode,
                            f"/ws/tables/{busy}",
                            args.spectators,
                            args.per_address,
                            args.moves,
                            args.seed + wave,
                            proc.pid,
                        )
                else:
                    loaded(
                        url,
                        mode,
                        f"/ws/tables/{busy}",
                        args.conns,
                        0,
                        args.moves,
                        args.seed,
                        proc.pid,
                        args.duration,
                    )
                print(f"load average after: {os.getloadavg()[0]:.2f}")
            finally:
                proc.terminate()
                proc.wait(30)


if __name__ == "__main__":
    main()
