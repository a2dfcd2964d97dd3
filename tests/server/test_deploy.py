"""The shipped deployment files (docs/deploy/, issue 25 item 4) checked by the tools that read them: the systemd
units by `systemd-analyze verify` (and their command lines run for real), the nginx site by `nginx -t` and then
by a real nginx in front of a real `hegemon serve` (TLS, websockets, the client address, /metrics kept inside).
Both tools are needed, never skipped: `make install-test` installs them (Debian: systemd, nginx-light)."""

from __future__ import annotations

import datetime
import json
import os
import re
import shlex
import shutil
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tests.server.test_ops import Served, bot_table, serve

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy"
UNITS = ("hegemon.service", "hegemon-backup.service", "hegemon-backup.timer")


def tool(name: str) -> str:
    path = shutil.which(name) or next(
        (p for p in (f"/usr/sbin/{name}", f"/usr/bin/{name}") if os.path.exists(p)), None
    )
    assert path, (
        f"{name} is needed by this test (Debian: apt-get install {'nginx-light' if name == 'nginx' else 'systemd'})"
    )
    return path


def hegemon_bin() -> str:
    exe = Path(sys.executable).parent / "hegemon"
    path = str(exe) if exe.exists() else shutil.which("hegemon")
    assert path, "the `hegemon` command of this environment (pip install -e .)"
    return path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def unit_values(text: str, key: str) -> list[str]:
    return [m.group(1) for m in re.finditer(rf"^{key}=(.*)$", text, re.M)]


# ------------------------------------------------------------------ systemd


def test_the_systemd_units_pass_systemd_analyze_verify(tmp_path: Path) -> None:
    for (
        name
    ) in UNITS:  # the installed path of hegemon replaced by this environment's (verify checks it exists)
        text = (DEPLOY / name).read_text().replace("/opt/hegemon/.venv/bin/hegemon", hegemon_bin())
        (tmp_path / name).write_text(text)
    r = subprocess.run([tool("systemd-analyze"), "verify", *(str(tmp_path / n) for n in UNITS)],
                       capture_output=True, text=True, timeout=120)  # fmt: skip
    assert r.returncode == 0 and not r.stderr.strip() and not r.stdout.strip(), (
        r.stdout + r.stderr
    )  # no warnings


def test_the_units_command_lines_serve_and_back_up(tmp_path: Path) -> None:
    """ExecStart of hegemon.service with its Environment=, run as written (state directory and port moved): it
    serves and is ready; then hegemon-backup.service's three command lines back that database up."""
    state = tmp_path / "state"
    state.mkdir()
    unit = (DEPLOY / "hegemon.service").read_text()
    port = _free_port()
    (cmd,) = unit_values(unit, "ExecStart")
    argv = shlex.split(cmd.replace("/var/lib/hegemon", str(state)).replace("--port 8000", f"--port {port}"))
    argv[0] = hegemon_bin()
    env = dict(os.environ)
    for line in unit_values(unit, "Environment"):
        k, v = line.split("=", 1)
        env[k] = v
    log = (tmp_path / "unit.log").open("wb")
    proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=state)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.time() + 60
        while True:
            try:
                if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert proc.poll() is None and time.time() < deadline, (tmp_path / "unit.log").read_text()
            time.sleep(0.1)
        bot_table(url)
        backup_unit = (DEPLOY / "hegemon-backup.service").read_text()
        said = ""
        for key in ("ExecStartPre", "ExecStart", "ExecStartPost"):
            (line,) = unit_values(backup_unit, key)
            line = line.replace("%%", "%").replace("/var/lib/hegemon", str(state))
            line = line.replace("/opt/hegemon/.venv/bin/hegemon", hegemon_bin())
            r = subprocess.run(shlex.split(line), capture_output=True, text=True, timeout=120)
            assert r.returncode == 0, (key, r.stdout, r.stderr)
            said += r.stdout
        today = state / "backups" / f"hegemon-{datetime.date.today():%Y-%m-%d}.db"
        assert today.is_file() and "backed up 1 table(s)" in said, said
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        log.close()
    lines = [json.loads(x) for x in (tmp_path / "unit.log").read_text().splitlines() if x.strip()]
    assert any(x.get("logger") == "hegemon.access" for x in lines)  # HEGEMON_LOG_FORMAT=json from the unit


# ------------------------------------------------------------------ nginx


@pytest.fixture
def behind_nginx(tmp_path: Path) -> Iterator[tuple[Served, str, str]]:
    """hegemon serve (trusting 127.0.0.1, as the unit does) behind a real nginx running the shipped site file,
    its ports and certificate moved to the test's; yields (server, https url, http url)."""
    nginx = tool("nginx")
    s = serve(f"sqlite:///{tmp_path / 'h.db'}", tmp_path / "server.log", "--bot-delay", "0", "--log-format", "json",
              env={"HEGEMON_TRUSTED_PROXIES": "127.0.0.1,::1"})  # fmt: skip
    try:
        key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
        subprocess.run([tool("openssl"), "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                        "/CN=play.example.org", "-keyout", str(key), "-out", str(cert)],
                       check=True, capture_output=True, timeout=60)  # fmt: skip
        p80, p443 = _free_port(), _free_port()
        site = (DEPLOY / "nginx-hegemon.conf").read_text()
        site = re.sub(r"^\s*listen \[::\]:\d+.*\n", "", site, flags=re.M)  # the machine may have no IPv6
        site = site.replace("listen 80;", f"listen 127.0.0.1:{p80};").replace(
            "listen 443 ssl;", f"listen 127.0.0.1:{p443} ssl;"
        )
        site = site.replace("/etc/letsencrypt/live/play.example.org/fullchain.pem", str(cert))
        site = site.replace("/etc/letsencrypt/live/play.example.org/privkey.pem", str(key))
        site = site.replace("server 127.0.0.1:8000;", f"server 127.0.0.1:{s.url.rsplit(':', 1)[1]};")
        (tmp_path / "site.conf").write_text(site)
        for d in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (tmp_path / d).mkdir()
        temps = "".join(f"    {d}_temp_path {tmp_path / d};\n" for d in ("proxy", "fastcgi", "uwsgi", "scgi"))
        (tmp_path / "nginx.conf").write_text(
            ("user root;\n" if os.geteuid() == 0 else "")
            + f"pid {tmp_path / 'nginx.pid'};\nerror_log {tmp_path / 'error.log'};\nevents {{}}\nhttp {{\n"
            f"    access_log off;\n    client_body_temp_path {tmp_path / 'body'};\n{temps}"
            f"    include {tmp_path / 'site.conf'};\n}}\n"
        )
        base = [
            nginx,
            "-p",
            str(tmp_path),
            "-e",
            str(tmp_path / "error.log"),
            "-c",
            str(tmp_path / "nginx.conf"),
        ]
        t = subprocess.run([*base, "-t"], capture_output=True, text=True, timeout=60)
        assert t.returncode == 0 and "test is successful" in t.stderr, t.stderr
        proc = subprocess.Popen([*base, "-g", "daemon off;"], stderr=subprocess.PIPE)
        try:
            https = f"https://127.0.0.1:{p443}"
            deadline = time.time() + 20
            while True:
                try:
                    httpx.get(f"{https}/healthz", verify=False, timeout=2)
                    break
                except httpx.HTTPError:
                    assert proc.poll() is None and time.time() < deadline, "nginx did not start"
                    time.sleep(0.1)
            yield s, https, f"http://127.0.0.1:{p80}"
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    finally:
        s.stop()


def test_the_nginx_site_serves_the_table_and_keeps_metrics_inside(
    behind_nginx: tuple[Served, str, str],
) -> None:
    s, https, http = behind_nginx
    with httpx.Client(base_url=https, verify=False, timeout=10) as c:
        r = c.get("/")
        assert r.status_code == 200 and "<html" in r.text.lower()
        assert r.headers["strict-transport-security"].startswith("max-age=")
        assert c.get("/healthz").json() == {"status": "ok"}
        assert c.get("/readyz").json()["status"] == "ready"
        assert c.get("/metrics").status_code == 404  # never through the proxy
        made = c.post("/api/tables", json={"game": "polis", "seats": [{"bot": "random"}, {"bot": "random"}]})
        assert made.status_code == 201, made.text
        tid = made.json()["id"]
        c.get(
            "/api/tables/spoof", headers={"X-Forwarded-For": "198.51.100.7"}
        )  # a client's own header is replaced
        big = c.post(
            "/api/tables", content=b"{" + b" " * 400_000 + b"}", headers={"content-type": "application/json"}
        )
        assert big.status_code == 413  # nginx's client_max_body_size, before hegemon
    r = httpx.get(f"{http}/", follow_redirects=False)
    assert r.status_code == 301 and r.headers["location"].startswith("https://")
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    with connect(f"wss://127.0.0.1:{https.rsplit(':', 1)[1]}/ws/tables/{tid}", ssl=ctx) as ws:  # upgraded
        msg = json.loads(ws.recv(timeout=10))
        assert msg["type"] == "state", msg
    time.sleep(0.3)
    records = [json.loads(x) for x in s.lines() if x.strip().startswith("{")]
    access = [r for r in records if r.get("logger") == "hegemon.access"]
    spoof = [r for r in access if r.get("path") == "/api/tables/spoof"]
    assert spoof and spoof[0]["client"] == "127.0.0.1", spoof  # nginx's $remote_addr, not the client's claim
    assert not any(r.get("path") == "/metrics" for r in access)  # nginx answered it alone
    assert any(r.get("route") == "/ws/tables/{table_id}" and r.get("status") == 101 for r in access)
