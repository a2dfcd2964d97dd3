"""The database schema, kept current by versioned migrations (Alembic, `server/migrations/`). Every start of the
server runs `migrate`: a new database gets the whole schema, an older one the migrations it lacks, and a
database made before migrations existed (by `create_all`) is recognised and stamped first. On PostgreSQL several
processes may start at once: an advisory lock lets one migrate while the others wait."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, inspect

SCRIPTS = Path(__file__).resolve().parent / "migrations"
BASELINE = "0001"
"""The schema of every database made before migrations existed (tables, table_secrets, actions)."""
LOCK_KEY = 0x6865_6765_6D6F
"""The PostgreSQL advisory lock held while migrating ("hegemo")."""


def config(connection: Connection | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(SCRIPTS))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    """The newest revision shipped with this version of hegemon."""
    rev = ScriptDirectory.from_config(config()).get_current_head()
    assert rev is not None
    return rev


def current(connection: Connection) -> str | None:
    """The revision a database is at (None: not under migrations)."""
    return MigrationContext.configure(connection).get_current_revision()


def migrate(engine: Engine) -> None:
    """Bring the database at `engine` to the newest schema (see the module docstring)."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({LOCK_KEY})")
        names = set(inspect(conn).get_table_names())
        cfg = config(conn)
        if "tables" in names and "alembic_version" not in names:
            command.stamp(cfg, BASELINE)
        if current(conn) != head():
            command.upgrade(cfg, "head")
