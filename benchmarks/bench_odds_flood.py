"""Odds flood benchmark (issue 26 item 1): a person's move round trip on a real `hegemon serve` (uvicorn, SQLite
with a synced commit per action, the server's own settings), quiet and then while `--clients` clients (default 4,
each its own address) ask for odds as fast as the server answers them, in the same run. Target: p99 <= 50 ms
under the flood.

The flood asks about a position as large as the odds allow (every province 190 legionaries, every player 200
triremes in every sea: the audit built 190 v 190 with legal moves in 37 s; here a route that only this benchmark
adds sets the armies), varying `stop_at`, the provinces, the sea and the opponent so that nearly every question
is new (the cache does not help). The round trip is `bench_server.latency`: a seat sends a legal action on its
websocket, the clock stops when the next seat's websocket has the new view.

    python benchmarks/bench_odds_flood.py [--moves 400] [--clients 4] [--streams 3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server import free_port, latency


def serve(port: int, db: str) -> None:
    """`hegemon serve` (hegemon.server.app.run, unchanged) with one more route, for this benchmark only: set every
    army of a table's position to the largest the odds are asked about."""
    import hegemon.server.app as A

    real = A.create_app

    def create_app(*args: Any, **kw: Any) -> Any:
        app = real(*args, **kw)

        @app.post("/bench/inflate/{table_id}")
        async def inflate(table_id: str) -> dict[str, int]:
            st: Any = app.state.manager.get(table_id).state
            st.armies[:] = [190] * len(st.armies)
            for row in st.triremes:
                row[:] = [200] * len(row)
            return {"provinces": len(st.armies), "seas": len(st.triremes[0])}

        return app

    A.create_app = create_app  # type: ignore[assignment]  # the benchmark's app factory stands in for the server's
    A.run("127.0.0.1", port, db, bot_delay=0.0)


def start(db: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = dict(os.environ, HEGEMON_TRUSTED_PROXIES="127.0.0.1")  # each flood client is its own address
    cmd = [sys.executable, __file__, "--serve", str(port), db]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(f"{url}/api/games", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("server did not start")


async def flood(url: str, table: str, ids: dict[str, list[str]], who: int, stop: asyncio.Event,
                codes: Counter[Any], answer_times: list[float], seed: int) -> None:  # fmt: skip
    """One stream of client `who` asking odds back to back (a new question nearly every time) until `stop`."""
    rng = random.Random(seed)
    headers = {"X-Forwarded-For": f"10.0.0.{who + 1}"}
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=30) as http:
        while not stop.is_set():
            if rng.random() < 0.7:
                src, dst = rng.sample(ids["provinces"], 2)
                q: dict[str, Any] = {
                    "kind": "land",
                    "source": src,
                    "target": dst,
                    "stop_at": rng.randrange(1, 190),
                }
            else:
                q = {"kind": "naval", "sea": rng.choice(ids["seas"]), "opponent": rng.randrange(1, 3)}
            t0 = time.perf_counter()
            r = await http.get(f"/api/tables/{table}/odds", params=q)
            if r.status_code == 200:
                answer_times.append(time.perf_counter() - t0)
                codes[("200", "exact" if r.json()["exact"] else "float")] += 1
            else:
                codes[(str(r.status_code), r.json().get("detail"))] += 1
                if r.status_code in (429, 503):
                    await asyncio.sleep(min(1.0, float(r.headers.get("retry-after", "0.1")) / 10))


def quantiles(ts: list[float]) -> str:
    q = statistics.quantiles(sorted(ts), n=100)
    return f"p50 {q[49] * 1e3:.1f} ms  p99 {q[98] * 1e3:.1f} ms  (over {len(ts)} moves)"


async def flooded(url: str, moves: int, clients: int, streams: int, seed: int) -> None:
    async with httpx.AsyncClient(base_url=url) as http:
        r = await http.post("/api/tables", json={"game": "spqrisiko", "players": 3, "seats": [{"human": True}] * 3,
                                                 "seed": seed})  # fmt: skip
        table = r.json()["id"]
        shape = (await http.post(f"/bench/inflate/{table}")).json()
        view = (await http.get(f"/api/tables/{table}")).json()["view"]
    ids = {"provinces": [p["id"] for p in view["provinces"]], "seas": [s["id"] for s in view["seas"]]}
    print(f"odds position: {shape['provinces']} provinces of 190 legionaries, {shape['seas']} seas of 200 triremes "
          f"a player; {clients} clients, each its own address, {streams} requests at a time each, back to back")  # fmt: skip
    # the flood runs in a process of its own, so that the person's client (here) does not wait behind it
    spec = json.dumps({"url": url, "table": table, "ids": ids, "clients": clients, "streams": streams})
    flooder = subprocess.Popen([sys.executable, __file__, "--flood", spec], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)  # fmt: skip
    await asyncio.sleep(1.5)  # the flood is on (and the odds worker started)
    t0 = time.perf_counter()
    ts = await latency(url, moves, seed + 1)
    span = time.perf_counter() - t0
    out, _ = flooder.communicate("", timeout=60)  # end of its input: it stops and reports
    print(f"round trip under the odds flood: {quantiles(ts)}")
    got = json.loads(out.strip().splitlines()[-1])
    total = sum(got["codes"].values())
    said = ", ".join(f"{k}: {v}" for k, v in sorted(got["codes"].items(), key=lambda kv: -kv[1]))
    print(
        f"odds requests during the flood: {total} in {span + 1.5:.1f} s ({total / (span + 1.5):.0f}/s): {said}"
    )
    if len(got["answers"]) > 2:
        q = statistics.quantiles(got["answers"], n=100)
        print(f"an odds answer (200): p50 {q[49] * 1e3:.0f} ms  p99 {q[98] * 1e3:.0f} ms")


def run_flood(spec: dict[str, Any]) -> None:
    """The flood process: every stream until its input ends, then what it got as one JSON line."""

    async def go() -> None:
        stop = asyncio.Event()
        codes: Counter[Any] = Counter()
        answer_times: list[float] = []
        n = spec["streams"]
        tasks = [asyncio.create_task(flood(spec["url"], spec["table"], spec["ids"], i, stop, codes, answer_times,
                                           n * i + j)) for i in range(spec["clients"]) for j in range(n)]  # fmt: skip
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        stop.set()
        await asyncio.gather(*tasks)
        print(json.dumps({"codes": {f"{k[0]} {k[1]}": v for k, v in codes.items()}, "answers": answer_times}))

    asyncio.run(go())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--moves", type=int, default=400)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--streams", type=int, default=3, help="requests each client keeps going at once")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--serve", nargs=2, metavar=("PORT", "DB"), help=argparse.SUPPRESS)
    ap.add_argument("--flood", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.flood:
        run_flood(json.loads(args.flood))
        return
    if args.serve:
        serve(int(args.serve[0]), args.serve[1])
        return
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; "
          f"engine: {'pure Python' if os.environ.get('HEGEMON_PURE') else 'compiled if built'}")  # fmt: skip
    with tempfile.TemporaryDirectory() as d:
        proc, url = start(f"sqlite:///{Path(d) / 'h.db'}?synchronous=full")
        try:
            asyncio.run(latency(url, 50, args.seed + 99))  # warm-up
            print(
                f"round trip, quiet:               {quantiles(asyncio.run(latency(url, args.moves, args.seed)))}"
            )
            asyncio.run(flooded(url, args.moves, args.clients, args.streams, args.seed))
            print(f"load average after: {os.getloadavg()[0]:.2f}")
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
