"""Fixtures shared by every test folder: a real PostgreSQL server (started once per test process, on demand)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.pgserver import PostgresServer


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A running PostgreSQL cluster in a temporary directory (Debian's package; see tests/pgserver.py)."""
    server = PostgresServer()
    server.start()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def pg_url(postgres: PostgresServer) -> str:
    """The URL of a new empty database on the test PostgreSQL server."""
    return postgres.fresh_database()
