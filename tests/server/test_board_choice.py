"""A table on a board that ships with its game, chosen by name (the lobby's "Board" choice for Polis), through the
real app on a real SQLite file: `GET /api/games` lists each game's shipped boards, `options.board = "balanced"`
makes a Polis table play, show (glossary, lobby list, state messages) and resume after a restart on the balanced
board; a name that is not a shipped board (a path above all) is a typed refusal that creates and stores nothing."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hegemon.core.record import state_digest
from hegemon.games import get_game
from hegemon.games.polis.board import SHIPPED_BOARDS, load_board
from hegemon.server.app import create_app

from .conftest import play_random

PEOPLE = [{"human": True, "name": "Pericles"}, {"human": True, "name": "Archidamus"}]


@contextmanager
def app(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'h.db'}", 0.0)) as c:
        yield c


def stored_options(tmp_path: Path, tid: str) -> dict[str, Any]:
    db = sqlite3.connect(tmp_path / "h.db")
    try:
        (raw,) = db.execute("SELECT options FROM tables WHERE id = ?", (tid,)).fetchone()
    finally:
        db.close()
    return dict(json.loads(raw))


def test_the_games_list_names_each_games_shipped_boards(tmp_path: Path) -> None:
    with app(tmp_path) as c:
        games = {g["name"]: g for g in c.get("/api/games").json()["games"]}
    assert games["polis"]["boards"] == ["default", "balanced"] == list(SHIPPED_BOARDS)
    assert games["spqrisiko"]["boards"] == [
        "default"
    ]  # one board: the lobby offers no choice, only an upload
    assert all("board" not in {o["name"] for o in g["options"]} for g in games.values())


def test_a_polis_table_on_the_balanced_board_plays_and_shows_it(tmp_path: Path) -> None:
    with app(tmp_path) as c:
        r = c.post(
            "/api/tables",
            json={"game": "polis", "seed": 5, "seats": PEOPLE, "options": {"board": "balanced"}},
        )
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        plain = c.post("/api/tables", json={"game": "polis", "seed": 5, "seats": PEOPLE}).json()["id"]
        d = c.get(f"/api/tables/{tid}").json()
        assert d["options"]["board"] == "balanced" and d["board"] == "balanced"
        assert c.get(f"/api/tables/{plain}").json()["board"] == "default"
        listed = {t["id"]: t["board"] for t in c.get("/api/tables").json()}
        assert listed == {tid: "balanced", plain: "default"}
        # the engine plays the balanced board, and the tooltips' numbers are its numbers
        assert c.app.state.manager.get(tid).state.board is load_board("balanced")  # type: ignore[attr-defined]  # a Polis state (State is the protocol)
        balanced = c.get(f"/api/tables/{tid}/glossary").json()
        default = c.get(f"/api/tables/{plain}/glossary").json()
        assert balanced["projects"]["temple_of_zeus"]["cost"] == {"metal": 1, "wood": 1, "wine": 3}
        assert default["projects"]["temple_of_zeus"]["cost"] == {"silver": 3, "metal": 1, "wood": 1}
        assert balanced == get_game("polis").glossary(load_board("balanced"))
        # the seat's state messages name the board (the table page's header shows it)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            msg = ws.receive_json()
            assert msg["type"] == "state" and msg["board"] == "balanced"
    assert not (tmp_path / "boards").exists()  # a shipped board is named, never copied as an upload
    assert stored_options(tmp_path, tid)["board"] == "balanced"
    assert stored_options(tmp_path, plain).get("board") is None


def test_naming_the_default_board_is_the_game_without_a_board_option(tmp_path: Path) -> None:
    with app(tmp_path) as c:
        r = c.post("/api/tables", json={"game": "polis", "seats": PEOPLE, "options": {"board": "default"}})
        assert r.status_code == 201, r.text
        d = c.get(f"/api/tables/{r.json()['id']}").json()
        assert d["options"]["board"] is None and d["board"] == "default"
        s = c.post("/api/tables", json={"game": "spqrisiko", "options": {"board": "default"}})
        assert s.status_code == 201 and c.get(f"/api/tables/{s.json()['id']}").json()["board"] == "default"


def test_a_balanced_table_resumes_exactly_after_a_restart(tmp_path: Path) -> None:
    with app(tmp_path) as c:
        m = c.app.state.manager  # type: ignore[attr-defined]  # the app's TableManager
        m.new_salt = lambda: "pepper"  # the same chance draws every run (a table's salt is otherwise secret)
        tid = c.post("/api/tables", json={"game": "polis", "seed": 9, "seats": PEOPLE,
                                          "options": {"board": "balanced", "siege": "diceless"}}).json()["id"]  # fmt: skip
        t = m.get(tid)
        for s in t.seats:
            m.claim(t, s.index)
        assert (
            play_random(m, t, 60, random.Random(4)) > 20
        )  # (random play may end the game: that is resumed too)
        before = (t.version, state_digest(t.state), c.get(f"/api/tables/{tid}/glossary").json())
    with app(tmp_path) as c:
        d = c.get(f"/api/tables/{tid}").json()  # an ended table is loaded on demand (not at start-up)
        t = c.app.state.manager.get(tid)  # type: ignore[attr-defined]  # the app's TableManager
        assert (t.version, state_digest(t.state), c.get(f"/api/tables/{tid}/glossary").json()) == before
        assert t.state.board is load_board("balanced")
        assert d["options"] == {"siege": "diceless", "board": "balanced", "max_turns_per_round": 60}
        assert d["board"] == "balanced" and d["version"] == before[0]
        assert [x["board"] for x in c.get("/api/tables").json()] == ["balanced"]


HOSTILE: list[tuple[str, Any]] = [
    ("polis", "../data/board-balanced.toml"),
    ("polis", str(SHIPPED_BOARDS["balanced"])),
    ("polis", "/etc/passwd"),
    ("polis", "board-balanced.toml"),
    ("polis", "Balanced"),
    ("polis", "balanced "),
    (
        "polis",
        "0123456789abcdef01234567.toml",
    ),  # the form of an uploaded board's name: uploads go as board_data
    ("polis", "x" * 5000),
    ("polis", 7),
    ("polis", ["balanced"]),
    ("polis", {"name": "balanced"}),
    ("spqrisiko", "balanced"),  # S.P.Q.RisiKo! ships one board
    ("spqrisiko", "/etc/passwd"),
]


@pytest.mark.parametrize("game, name", HOSTILE, ids=[f"{g}-{str(n)[:30]}" for g, n in HOSTILE])
def test_a_name_that_is_not_a_shipped_board_is_refused_and_creates_nothing(
    tmp_path: Path, game: str, name: Any
) -> None:
    with app(tmp_path) as c:
        r = c.post("/api/tables", json={"game": game, "options": {"board": name}})
        assert r.status_code == 400, r.text
        body = r.json()
        assert body["code"] == "bad_request" and body["detail"] == "board_unknown", body
        boards = ", ".join(get_game(game).shipped_boards())
        assert body["args"]["boards"] == boards and len(body["args"]["name"]) <= 40
        assert "board_data" in body["message"] and boards in body["message"]
        assert c.get("/api/tables").json() == []
    assert not (tmp_path / "boards").exists()
    db = sqlite3.connect(tmp_path / "h.db")
    assert db.execute("SELECT COUNT(*) FROM tables").fetchone() == (0,)
    db.close()


def test_a_shipped_board_and_an_uploaded_file_together_are_refused(tmp_path: Path) -> None:
    text = SHIPPED_BOARDS["default"].read_text(encoding="utf-8").replace("value = 45", "value = 44", 1)
    with app(tmp_path) as c:
        r = c.post(
            "/api/tables", json={"game": "polis", "options": {"board": "balanced"}, "board_data": text}
        )
        assert r.status_code == 400, r.text
        assert r.json()["detail"] == "board_both" and r.json()["args"] == {"name": "balanced"}
        assert c.get("/api/tables").json() == []
        # the default board's name with a file is the file (the lobby's upload choice)
        ok = c.post(
            "/api/tables", json={"game": "polis", "options": {"board": "default"}, "board_data": text}
        )
        assert ok.status_code == 201, ok.text
        d = c.get(f"/api/tables/{ok.json()['id']}").json()
        assert d["board"] == "uploaded" and d["options"]["board"].endswith(".toml")
    assert len(list((tmp_path / "boards").iterdir())) == 1


def test_a_stored_table_naming_an_unknown_shipped_board_is_not_loaded(tmp_path: Path) -> None:
    """A stored board option is resolved like a request's: a shipped name, or an upload's content name in the
    board directory; anything else (an old server's path, a board since removed) leaves the table unloaded."""
    with app(tmp_path) as c:
        tid = c.post(
            "/api/tables", json={"game": "polis", "seats": PEOPLE, "options": {"board": "balanced"}}
        ).json()["id"]
    db = sqlite3.connect(tmp_path / "h.db")
    db.execute("UPDATE tables SET options = ? WHERE id = ?", (json.dumps({"board": "/etc/passwd"}), tid))
    db.commit()
    db.close()
    with app(tmp_path) as c:
        assert c.get("/api/tables").json() == []
        assert c.get(f"/api/tables/{tid}").status_code == 404
