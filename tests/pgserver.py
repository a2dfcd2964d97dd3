"""A real PostgreSQL server for the tests: Debian's `postgresql` package, `initdb` in a temporary directory,
run as the `postgres` user when the tests run as root, listening on a free loopback port (and a socket in its
own directory). Each test gets a database of its own (`fresh_database`). CI installs the package; the tests
that need it fail, never skip, when it is missing."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

PG_BIN_GLOB = "/usr/lib/postgresql/*/bin"


def pg_bin() -> Path:
    """The directory of Debian's PostgreSQL server programs (the newest installed version)."""
    found = sorted(glob.glob(PG_BIN_GLOB), key=lambda p: int(Path(p).parent.name))
    if not found:
        raise RuntimeError(
            "PostgreSQL is not installed: `apt-get install postgresql` (make install-test does it)"
        )
    return Path(found[-1])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """One PostgreSQL cluster in a temporary directory. `url(db)` is a SQLAlchemy URL for database `db`."""

    def __init__(self) -> None:
        self.bin = pg_bin()
        self.root = Path(tempfile.mkdtemp(prefix="hegemon-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.as_root = os.geteuid() == 0
        self.user = "postgres" if self.as_root else os.environ.get("USER", "postgres")
        self._n = 0
        if self.as_root:
            shutil.chown(self.root, "postgres", "postgres")
        self._run(
            [str(self.bin / "initdb"), "-D", str(self.data), "-U", self.user, "-A", "trust", "-E", "UTF8",
             "--no-sync"]
        )  # fmt: skip

    def _run(self, cmd: list[str], check: bool = True) -> subprocess.CompletedProcess[bytes]:
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, timeout=120)
        if check and done.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed: {done.stderr.decode(errors='replace')[-2000:]}")
        return done

    @property
    def log(self) -> Path:
        return self.root / "server.log"

    def start(self) -> None:
        opts = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off"
        )
        self._run(
            [str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", opts, "-w", "start"]
        )
        deadline = time.time() + 30
        while time.time() < deadline:
            ok = self._run(
                [str(self.bin / "pg_isready"), "-h", "127.0.0.1", "-p", str(self.port)], check=False
            )
            if ok.returncode == 0:
                return
            time.sleep(0.1)
        raise RuntimeError(f"PostgreSQL did not start; see {self.log}")

    def stop(self, mode: str = "fast") -> None:
        self._run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop"], check=False)

    def restart(self) -> None:
        self.stop()
        self.start()

    def url(self, db: str = "postgres") -> str:
        return f"postgresql+psycopg://{self.user}@127.0.0.1:{self.port}/{db}"

    def fresh_database(self) -> str:
        """A new empty database; returns its URL."""
        import psycopg

        self._n += 1
        name = f"t{os.getpid()}_{self._n}"
        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user={self.user} dbname=postgres", autocommit=True
        ) as c:
            c.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def close(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)
