"""The web table's limits under the attacks of issue 11 item 8, against a real `hegemon serve` with its default
limits (docs/web-table.md, "Limits"). Prints:

- tables created in 6 s by one client that changes X-Forwarded-For on every request (was 1,404);
- bytes of a 200 MB chunked upload sent before the server refused it (was: all of it read);
- half-sent requests and never-reading websockets still held by the server, every 10 s (was: all, after 75 s);
- the answers to a flood of stale_version messages on one websocket (was: unthrottled).

    python benchmarks/bench_limits.py [--conns 200] [--watch 80]"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(db: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEGEMON_")}
    cmd = [
        sys.executable,
        "-m",
        "hegemon.cli",
        "serve",
        "--port",
        str(port),
        "--db",
        f"sqlite:///{db}",
        "--bot-delay",
        "0.8",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    deadline = time.time() + 30
    while time.time() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return proc, port
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def forwarded_for_flood(url: str, seconds: float = 6.0) -> None:
    codes: dict[int, int] = {}
    body = {"game": "polis", "seats": [{"human": True}, {"human": True}]}
    end = time.time() + seconds
    i = 0
    with httpx.Client(base_url=url) as c:
        while time.time() < end:
            i += 1
            r = c.post(
                "/api/tables",
                json=body,
                headers={"x-forwarded-for": f"10.{i // 65536 % 256}.{i // 256 % 256}.{i % 256}"},
            )
            codes[r.status_code] = codes.get(r.status_code, 0) + 1
    print(f"X-Forwarded-For changing on each of {i} requests in {seconds:.0f} s: {codes.get(201, 0)} tables created, "
          f"{codes.get(429, 0)} refused with 429")  # fmt: skip


def chunked_upload(port: int, total: int = 200 * 1024 * 1024) -> None:
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    size = 64 * 1024
    chunk = b"%x\r\n%s\r\n" % (size, b" " * size)
    sent = 0
    answer = b""
    sock.settimeout(5)
    try:
        while sent < total:
            sock.sendall(chunk)
            sent += size
            sock.setblocking(False)
            with contextlib.suppress(BlockingIOError):
                answer += sock.recv(4096)
            sock.settimeout(5)
            if answer:
                break
    except OSError:
        pass
    sock.close()
    status = answer.split(b"\r\n", 1)[0].decode(errors="replace") or "connection closed"
    print(f"200 MB chunked upload: refused after {sent / 1024:.0f} KB sent ({status})")


def held_connections(port: int, n: int, watch: float) -> None:
    url = f"http://127.0.0.1:{port}"
    tid = httpx.post(
        f"{url}/api/tables", json={"game": "polis", "seats": [{"bot": "random"}, {"bot": "random"}]}
    ).json()["id"]
    half, wss = [], []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(b'POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"ga')
        half.append(s)
        w = socket.create_connection(("127.0.0.1", port))
        w.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        w.sendall(f"GET /ws/tables/{tid} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())  # fmt: skip
        wss.append(w)
    hp = {s.getsockname()[1] for s in half}
    wp = {s.getsockname()[1] for s in wss}
    t0 = time.time()
    while True:
        out = subprocess.run(
            ["ss", "-tnH", "state", "established", f"( sport = :{port} )"], capture_output=True, text=True
        ).stdout
        ports = {int(line.split()[-1].rsplit(":", 1)[1]) for line in out.splitlines() if line.strip()}
        a, b = len(ports & hp), len(ports & wp)
        print(
            f"  {time.time() - t0:4.0f} s: held {a}/{n} half-sent requests, {b}/{n} never-reading websockets",
            flush=True,
        )
        if (a == 0 and b == 0) or time.time() - t0 > watch:
            break
        time.sleep(10)
    for s in half + wss:
        s.close()


def stale_flood(port: int, n: int = 2000) -> None:
    from websockets.sync.client import connect

    url = f"http://127.0.0.1:{port}"
    res = httpx.post(
        f"{url}/api/tables", json={"game": "polis", "claim": 0, "seats": [{"human": True}, {"human": True}]}
    ).json()
    tok = res["seats"][0]["token"]
    answers: dict[str, int] = {}
    t0 = time.perf_counter()
    with connect(f"ws://127.0.0.1:{port}/ws/tables/{res['id']}?token={tok}") as ws:
        json.loads(ws.recv())
        msg = json.dumps({"version": 10**6, "action": {"type": "pass"}})
        for _ in range(n):
            ws.send(msg)
        for _ in range(n):
            m = json.loads(ws.recv(timeout=20))
            key = "throttled" if "slow down" in m.get("message", "") else m.get("code", m["type"])
            answers[key] = answers.get(key, 0) + 1
    print(f"{n} stale_version messages on one websocket in {time.perf_counter() - t0:.2f} s: {answers}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--conns", type=int, default=200, help="half-sent requests and never-reading websockets, each"
    )
    ap.add_argument("--watch", type=float, default=80.0, help="seconds to watch them at most")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="hegemon-limits-") as tmp:
        proc, port = start(Path(tmp) / "h.db")
        try:
            print(
                f"{args.conns} half-sent requests and {args.conns} never-reading websockets (default limits):"
            )
            held_connections(port, args.conns, args.watch)
            stale_flood(port)
            chunked_upload(port)
            forwarded_for_flood(f"http://127.0.0.1:{port}")  # last: it spends this client's allowance
        finally:
            proc.terminate()
            proc.wait(timeout=10)


if __name__ == "__main__":
    main()
