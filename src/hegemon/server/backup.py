"""`hegemon backup` and `hegemon restore` for the default SQLite database.

A backup is taken while the server runs, through SQLite's online backup API (`sqlite3.Connection.backup`): one
consistent snapshot of the file, read in one read transaction (in WAL mode the server goes on writing
meanwhile), written under a temporary name, checked (`PRAGMA integrity_check`) and only then renamed into
place, so a backup file is whole or absent. The uploaded board files the tables use (the `boards` directory
beside the database, content-addressed and never rewritten) are copied beside it into `<backup>.boards/`.

A restore checks the backup (integrity, hegemon's tables, a schema revision this version knows), then copies
it into the target database with the same API, and its board files into the target's board directory. Stop the
server first: a running server keeps its tables in memory and would go on from there."""

from __future__ import annotations

import os
import shutil
import sqlite3
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import make_url

NEEDED = ("tables", "actions", "table_secrets", "alembic_version")
"""Tables every hegemon database has (a file without them is not a hegemon database)."""


@dataclass(frozen=True)
class Copied:
    """What a backup or restore copied."""

    path: Path
    tables: int
    actions: int
    revision: str
    size: int
    boards: int


def sqlite_file(db_url: str) -> Path:
    """The file of a SQLite URL; ValueError for any other database (PostgreSQL has pg_dump)."""
    u = make_url(db_url)
    if u.get_backend_name() != "sqlite":
        raise ValueError("hegemon backup and restore copy SQLite databases; for PostgreSQL use pg_dump and "
                         "pg_restore (docs/web-table.md, Backup and restore)")  # fmt: skip
    if not u.database or u.database == ":memory:" or u.database.startswith("file:"):
        raise ValueError(f"{db_url!r} names no database file")
    return Path(u.database).expanduser().resolve()


def boards_of(db: Path) -> Path:
    """The board directory of a database file (as `hegemon serve` uses it)."""
    return db.parent / "boards"


def _read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{urllib.parse.quote(str(path))}?mode=ro", uri=True, timeout=30)


def _describe(con: sqlite3.Connection, what: Path) -> tuple[int, int, str]:
    """(tables, actions, schema revision) of a hegemon database; ValueError if it is damaged or not one."""
    try:
        ok = con.execute("PRAGMA integrity_check").fetchone()
        names = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as e:
        raise ValueError(f"{what} is not a readable SQLite database ({e})") from None
    if not ok or ok[0] != "ok":
        raise ValueError(f"{what} is damaged: {ok[0] if ok else 'integrity check failed'}")
    missing = [n for n in NEEDED if n not in names]
    if missing:
        raise ValueError(f"{what} is not a hegemon database (no {', '.join(missing)} table)")
    rev = con.execute("SELECT version_num FROM alembic_version").fetchone()
    tables = con.execute("SELECT count(*) FROM tables").fetchone()[0]
    actions = con.execute("SELECT count(*) FROM actions").fetchone()[0]
    return int(tables), int(actions), str(rev[0]) if rev else "?"


def _copy_boards(src: Path, dest: Path) -> int:
    """Board files from `src` into `dest` (those not there yet); how many `dest` holds afterwards."""
    if not src.is_dir():
        return 0
    dest.mkdir(parents=True, exist_ok=True)
    for f in src.iterdir():
        if f.is_file() and not f.name.endswith(".part") and not (dest / f.name).exists():
            tmp = dest / (f.name + ".part")
            shutil.copyfile(f, tmp)
            tmp.replace(dest / f.name)
    return sum(1 for f in dest.iterdir() if f.is_file() and not f.name.endswith(".part"))


def _sync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def backup(db_url: str, dest: Path, *, overwrite: bool = False) -> Copied:
    """Copy the live SQLite database of `db_url` to the file `dest` (see the module text)."""
    src = sqlite_file(db_url)
    dest = dest.expanduser().resolve()
    if not src.is_file():
        raise ValueError(f"no database at {src}")
    if dest == src:
        raise ValueError("the backup must go to another file than the database")
    if dest.exists() and not overwrite:
        raise ValueError(f"{dest} exists; choose another name or pass --force to replace it")
    if not dest.parent.is_dir():
        raise ValueError(f"no directory {dest.parent}")
    tmp = dest.with_name(dest.name + ".part")
    tmp.unlink(missing_ok=True)
    source = _read_only(src)
    try:
        out = sqlite3.connect(tmp)
        try:
            # pages=-1: the whole file in one step, i.e. one read transaction: a consistent snapshot, and in WAL
            # mode the server's writers are not held up by it
            source.backup(out, pages=-1)
            out.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
            tables, actions, rev = _describe(out, tmp)
        finally:
            out.close()
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    finally:
        source.close()
    _sync(tmp)
    tmp.replace(dest)
    boards = _copy_boards(boards_of(src), dest.with_name(dest.name + ".boards"))
    return Copied(dest, tables, actions, rev, dest.stat().st_size, boards)


def restore(source: Path, db_url: str, *, overwrite: bool = False) -> Copied:
    """Copy the backup file `source` into the SQLite database of `db_url` (see the module text)."""
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError

    from hegemon.server.migrate import config

    target = sqlite_file(db_url)
    source = source.expanduser().resolve()
    if not source.is_file():
        raise ValueError(f"no backup file {source}")
    if source == target:
        raise ValueError("the backup and the database are the same file")
    con = _read_only(source)
    try:
        tables, actions, rev = _describe(con, source)
        try:
            known = ScriptDirectory.from_config(config()).get_revision(rev) is not None
        except CommandError:
            known = False
        if not known:
            raise ValueError(f"{source} has schema revision {rev}, which this version of hegemon does not know "
                             "(made by a newer version? restore it with that version)")  # fmt: skip
        if target.exists() and not overwrite:
            raise ValueError(f"{target} exists; stop the server, then pass --force to replace it with the backup "
                             "(what it holds now is lost: back it up first)")  # fmt: skip
        target.parent.mkdir(parents=True, exist_ok=True)
        out = sqlite3.connect(target, timeout=30)
        try:
            con.backup(out, pages=-1)
        finally:
            out.close()
    finally:
        con.close()
    boards = _copy_boards(source.with_name(source.name + ".boards"), boards_of(target))
    return Copied(target, tables, actions, rev, target.stat().st_size, boards)
