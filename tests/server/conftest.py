"""Shared helpers of the server tests: a manager with in-memory storage and seeded human/bot tables."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import pytest

from hegemon.core.game import TERMINAL
from hegemon.server.protocol import CreateTable
from hegemon.server.table import Table
from hegemon.server.tables import TableManager


def humans(n: int) -> list[dict[str, Any]]:
    return [{"human": True, "name": f"H{i}"} for i in range(n)]


def new_table(m: TableManager, game: str = "spqrisiko", n: int = 3, seed: int = 7, **kw: Any) -> Table:
    """A table whose seats are all people, every seat claimed (so it plays)."""
    t = m.create(CreateTable(game=game, seed=seed, seats=humans(n), **kw))
    for s in t.seats:
        m.claim(t, s.index)
    return t


def play_random(m: TableManager, t: Table, moves: int, rng: random.Random) -> int:
    """Play up to `moves` random legal actions through the manager (as the seat on turn)."""
    done = 0
    while done < moves and t.state.current_player() != TERMINAL:
        seat = t.state.current_player()
        legal = t.view(seat)["legal_actions"]
        m.act(t, seat, t.version, rng.choice(legal))
        done += 1
    return done


@pytest.fixture
def manager() -> TableManager:
    """A manager whose tables' secret salts are fixed and distinct ("test-salt-0", "-1", …): the same dice on
    every run, so a test's game never depends on chance drawn outside the test."""
    made = itertools.count()
    return TableManager(salt=lambda: f"test-salt-{next(made)}")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A durable database for the server: a SQLite file, and a real PostgreSQL database (tests/pgserver.py)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'h.db'}"
    return str(request.getfixturevalue("pg_url"))
