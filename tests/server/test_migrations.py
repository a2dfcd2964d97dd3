"""The schema is kept by versioned migrations (Alembic) on SQLite and PostgreSQL: a new database gets the whole
schema, a database made before migrations existed is stamped and upgraded without losing a row, and the
migrations build exactly the schema the code declares (a change to `storage.py` without its migration fails)."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, inspect

from hegemon.server import migrate as M
from hegemon.server.storage import SqlStorage, StoredTable, metadata


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'h.db'}"
    return str(request.getfixturevalue("pg_url"))


def test_a_new_database_is_at_the_newest_revision_with_the_declared_schema(url: str) -> None:
    s = SqlStorage(url)
    try:
        with s.engine.connect() as conn:
            assert M.current(conn) == M.head()
            diff = compare_metadata(MigrationContext.configure(conn), metadata)
        assert diff == [], (
            f"the schema in storage.py differs from what the migrations build: {diff}; "
            "add a migration in src/hegemon/server/migrations/versions/"
        )
    finally:
        s.close()


def test_a_database_made_before_migrations_is_stamped_and_upgraded_keeping_its_rows(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    old = [metadata.tables[n] for n in ("tables", "table_secrets", "actions")]
    metadata.create_all(engine, tables=old)  # what a server before migrations made
    with engine.begin() as conn:
        conn.execute(metadata.tables["tables"].insert().values(
            id="t1", game="polis", game_version=1, options={}, seed=3, seats=[], created=0.0, turn_timer=None,
            status="playing"))  # fmt: skip
        conn.execute(metadata.tables["table_secrets"].insert().values(table_id="t1", salt="pepper"))
    engine.dispose()

    s = SqlStorage(url)
    try:
        with s.engine.connect() as conn:
            assert M.current(conn) == M.head()
            assert "table_owners" in inspect(conn).get_table_names()
        (t,) = s.load_all()
        assert (t.id, t.salt, t.status) == ("t1", "pepper", "playing")
    finally:
        s.close()


def test_migrating_twice_changes_nothing(url: str) -> None:
    s = SqlStorage(url)
    s.create_table(StoredTable("abc", "spqrisiko", 1, {}, 5, [], 0.0, None, "playing", salt="s"))
    s.close()
    again = SqlStorage(url)  # a second start, or a second process
    try:
        assert [t.id for t in again.load_all()] == ["abc"]
    finally:
        again.close()
