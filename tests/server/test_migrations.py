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
    with engine.begin() as conn:  # what a server before migrations made (its create_all, as SQL)
        conn.exec_driver_sql(
            "CREATE TABLE tables (id VARCHAR(32) NOT NULL PRIMARY KEY, game VARCHAR(32) NOT NULL, game_version "
            "INTEGER NOT NULL, options JSON NOT NULL, seed BIGINT NOT NULL, seats JSON NOT NULL, created FLOAT NOT "
            "NULL, turn_timer INTEGER, status VARCHAR(16) NOT NULL)"
        )
        conn.exec_driver_sql(
            "CREATE TABLE table_secrets (table_id VARCHAR(32) NOT NULL PRIMARY KEY, salt VARCHAR(64) NOT NULL)"
        )
        conn.exec_driver_sql(
            "CREATE TABLE actions (table_id VARCHAR(32) NOT NULL, idx INTEGER NOT NULL, action TEXT NOT NULL, "
            "actor INTEGER NOT NULL, note VARCHAR(32) NOT NULL, PRIMARY KEY (table_id, idx))"
        )
        conn.exec_driver_sql(
            "INSERT INTO tables VALUES ('t1', 'polis', 1, '{}', 3, '[]', 0.0, NULL, 'playing')"
        )
        conn.exec_driver_sql("INSERT INTO table_secrets VALUES ('t1', 'pepper')")
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
