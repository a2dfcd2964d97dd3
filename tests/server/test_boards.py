"""Uploaded board files are untrusted (issue 11 items 1-3), through the real app on a real SQLite file: bounds
checked before anything is stored or a game is built, every refusal a 400 naming the entry, nothing left in
`boards/`, no server path in what clients see, a stored table whose board no longer validates skipped at start-up,
and bots whose work does not grow with the size of the deck."""

from __future__ import annotations

import json
import logging
import random
import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hegemon.ai.games import spqrisiko as spqr_ai
from hegemon.core.boardfile import MAX_BOARD_BYTES, board_name
from hegemon.games import get_game
from hegemon.games.polis.board import DEFAULT_BOARD as POLIS_BOARD
from hegemon.games.spqrisiko import board as spqr_board
from hegemon.server.app import create_app

SPQR = (Path(spqr_board.__file__).with_name("data") / "board.toml").read_text(encoding="utf-8")
POLIS = POLIS_BOARD.read_text(encoding="utf-8")
NAME = re.compile(r"[0-9a-f]{24}\.toml")


@contextmanager
def app(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'h.db'}", 0.0)) as c:
        yield c


def boards_dir(tmp_path: Path) -> list[Path]:
    d = tmp_path / "boards"
    return sorted(d.iterdir()) if d.exists() else []


def sub(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


# ------------------------------------------------------------------ item 1: absurd card counts


def test_a_huge_card_count_with_a_greedy_bot_seated_is_refused_and_nothing_is_stored(tmp_path: Path) -> None:
    text = sub(SPQR, "legionary = 25", "legionary = 9223372036854775807")
    with app(tmp_path) as c:
        r = c.post("/api/tables", json={"game": "spqrisiko", "board_data": text,
                                        "seats": [{"human": True}, {"bot": "greedy"}, {"bot": "mcts:easy"}]})  # fmt: skip
        assert r.status_code == 400, r.text
        body = r.json()
        assert body["code"] == "bad_request"
        assert "board: cards.legionary: 9223372036854775807 is above the maximum 500" in body["message"]
        assert c.get("/api/tables").json() == []
    assert boards_dir(tmp_path) == []


class CountingRandom(random.Random):
    """A seeded generator that counts the draws made from it (the work a determinization does)."""

    draws = 0

    def random(self) -> float:
        self.draws += 1
        return super().random()

    def getrandbits(self, k: int) -> int:
        self.draws += 1
        return super().getrandbits(k)


def test_determinizing_hidden_cards_does_not_grow_with_the_deck() -> None:
    """The bot deals the unseen cards card by card into the hands it must fill: a deck of millions of cards costs
    what a deck of 55 costs (before: one list entry and one shuffle step per unseen card)."""
    game = get_game("spqrisiko")
    st = game.new_game(game.parse_options({"players": 3}), 1)
    st.deck = [1_000_000, 1_000_000, 1_000_000, 1_000_000]
    st.hands = [[1, 0, 0, 0], [2, 1, 0, 1], [0, 0, 3, 0]]
    rng = CountingRandom(5)
    d = spqr_ai.determinize(st, 0, rng)
    assert d.hands[0] == [1, 0, 0, 0]
    assert sum(d.hands[1]) == 4 and sum(d.hands[2]) == 3
    assert sum(d.deck) + sum(d.hands[1]) + sum(d.hands[2]) == 4_000_000 + 7
    assert all(a >= 0 for a in d.deck)
    assert rng.draws <= 7 * 3  # a few draws per dealt card, none per card left in the deck


def test_deal_is_uniform_over_the_unseen_cards() -> None:
    """Dealing card by card is a fair deal: each symbol lands in a hand in proportion to its count."""
    rng = random.Random(3)
    got = [0, 0, 0, 0]
    for _ in range(4000):
        (hand,), left = spqr_ai.deal([30, 20, 10, 0], [1], rng)
        got = [g + h for g, h in zip(got, hand, strict=True)]
        assert sum(left) == 59 and left[3] == 0
    assert got[3] == 0
    assert abs(got[0] / 4000 - 0.5) < 0.04 and abs(got[1] / 4000 - 1 / 3) < 0.04


def test_bots_play_on_the_largest_deck_a_board_may_hold(tmp_path: Path) -> None:
    text = SPQR
    for sym, n in (("legionary", 25), ("banner", 15), ("trireme", 10), ("arena", 5)):
        text = sub(text, f"{sym} = {n}", f"{sym} = {spqr_board.MAX_CARDS}")
    with app(tmp_path) as c:
        r = c.post("/api/tables", json={"game": "spqrisiko", "board_data": text, "seed": 4,
                                        "seats": [{"bot": "greedy"}, {"bot": "greedy"}, {"bot": "random"}]})  # fmt: skip
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        deadline = time.time() + 120  # generous: the bots make hundreds of moves in a few seconds
        version = 0
        while time.time() < deadline and version < 300:
            version = c.get(f"/api/tables/{tid}").json()["version"]
            time.sleep(0.05)
        assert version >= 300
        assert c.get(f"/api/tables/{tid}").json()["view"]["deck"] <= 4 * spqr_board.MAX_CARDS


# ------------------------------------------------------------------ item 2: quadratic validation


def one_sea_board(n: int, *, lat_lon: bool = True) -> str:
    """`n` coastal provinces all on one sea area, written compactly (inline tables)."""
    pos = ", lat = 0, lon = 0" if lat_lon else ""
    provs = ",\n".join(f'{{ id = "p{i}", name = "P", kind = "coastal"{pos} }}' for i in range(n))
    coasts = ", ".join(f'["p{i}", "s"]' for i in range(n))
    return (
        f"province = [\n{provs}\n]\n"
        'sea = [{ id = "s", name = "S", lat = 0, lon = 0 }, { id = "t", name = "T", lat = 0, lon = 0 }]\n'
        f'[graph]\nland = []\ncoast = [{coasts}, ["p0", "t"]]\nsea_links = [["s", "t"]]\n'
        "[cards]\nlegionary = 5\nbanner = 5\ntrireme = 5\narena = 5\n[pieces]\npower_centres = 3\n"
    )


def test_4100_coastal_provinces_on_one_sea_are_refused_by_size_and_by_count(tmp_path: Path) -> None:
    attack = one_sea_board(4100, lat_lon=False)  # the reported attack, about 200 KB
    assert len(attack) > MAX_BOARD_BYTES
    compact = one_sea_board(2000, lat_lon=False)  # as many provinces as fit in the size limit
    assert 80_000 < len(compact) <= MAX_BOARD_BYTES
    with app(tmp_path) as c:
        r = c.post("/api/tables", json={"game": "spqrisiko", "board_data": attack})
        assert r.status_code == 400, r.text
        assert (
            r.json()["code"] == "bad_request" and "board_data" in r.json()["message"]
        )  # refused at the door
        r = c.post("/api/tables", json={"game": "spqrisiko", "board_data": compact})
        assert r.status_code == 400, r.text
        assert "board: province: 2000 provinces is above the maximum 200" in r.json()["message"]
    assert boards_dir(tmp_path) == []


def test_provinces_crowding_one_sea_are_refused_and_the_largest_board_stays_small() -> None:
    with pytest.raises(Exception, match=r"sea 's': 200 provinces on one sea area is above the maximum 60"):
        spqr_board.board_from_text(one_sea_board(200), "board")
    b = spqr_board.board_from_text(one_sea_board(spqr_board.MAX_SHORE), "board")
    # the derived sea bridges are bounded by the coast and shore limits, not quadratic in the provinces
    assert sum(len(x) for x in b.bridges) == spqr_board.MAX_SHORE * (spqr_board.MAX_SHORE - 1)
    assert spqr_board.MAX_COASTS * spqr_board.MAX_SHORE <= 100_000


# ------------------------------------------------------------------ item 3: malformed boards, typed and named

MALFORMED: list[tuple[str, str, str]] = [
    ("spqrisiko", sub(SPQR, "legionary = 25", "legionary = " + "9" * 5000), "legionary (line"),
    (
        "spqrisiko",
        sub(SPQR, "legionary = 25", "legionary = 501"),
        "cards.legionary: 501 is above the maximum 500",
    ),
    ("spqrisiko", sub(SPQR, "banner = 15", "banner = -1"), "cards.banner: -1 is below the minimum 0"),
    ("spqrisiko", sub(SPQR, "legionary = 25", 'legionary = "many"'), "cards.legionary: needs an integer"),
    ("spqrisiko", sub(SPQR, "lat = 39.5", "lat = nan"), "province[0].lat: nan is not a finite number"),
    ("spqrisiko", sub(SPQR, "lon = -7.5", "lon = -inf"), "province[0].lon: -inf is not a finite number"),
    ("spqrisiko", sub(SPQR, "lat = 39.5", 'lat = "north"'), "province 'lusitania'.lat: needs a number"),
    ("spqrisiko", sub(SPQR, "lat = 39.5", "lat = 91"), "province 'lusitania'.lat: 91"),
    ("spqrisiko", SPQR + "\nx = " + "[" * 3000 + "]" * 3000 + "\n", "nested deeper than 8 levels"),
    ("spqrisiko", "[" + ".".join(["a"] * 30) + "]\nx = 1\n" + SPQR, "a.a.a.a.a.a.a.a: nested deeper"),
    ("spqrisiko", sub(SPQR, "[meta]", "meta = 3\n[meta2]"), "meta: must be a table"),
    ("spqrisiko", "cards = [1]\n" + sub(SPQR, "[cards]", "[cards2]"), "cards: must be a table"),
    ("spqrisiko", sub(SPQR, "arena = 5", ""), "cards.arena: missing (needs an integer)"),
    (
        "spqrisiko",
        sub(SPQR, "power_centres = 12", "power_centres = 1e300"),
        "pieces.power_centres: needs an integer",
    ),
    (
        "spqrisiko",
        sub(SPQR, "power_centres = 12", "power_centres = 100000"),
        "pieces.power_centres: 100000 is above",
    ),
    ("spqrisiko", sub(SPQR, 'id = "lusitania"', 'id = ["lusitania"]'), "province[0].id: needs a string"),
    ("spqrisiko", sub(SPQR, 'kind = "coastal"', "kind = 3"), "province 'lusitania': kind must be one of"),
    ("spqrisiko", sub(SPQR, "[graph]", "[graph]\nx = 1\n[graph2]"), "graph.land: missing list"),
    ("spqrisiko", sub(SPQR, '["achaia", "epirus"]', '["achaia", 7]'), "graph.land["),
    (
        "spqrisiko",
        sub(SPQR, 'name = "Lusitania"', 'name = "' + "L" * 5000 + '"'),
        "province[0].name: a string longer",
    ),
    ("spqrisiko", "", "province: no [[province]] entries"),
    ("spqrisiko", "x = = 1", "file: not valid TOML"),
    (
        "spqrisiko",
        "a" + " " * 100_000 + "1" * 31,
        "line 1: a number of more than 30 digits",
    ),  # no regex blow-up
    ("spqrisiko", "x = 1\n" + "a." * 50_000 + "a = 1\n", "line 2: a dotted key of more than 32 parts"),
    ("polis", "[" + "t." * 20_000 + "t]\n" + POLIS, "line 1: a dotted key of more than 32 parts"),
    (
        "polis",
        sub(POLIS, "value = 45", 'value = "many"'),
        "constants.cubes_per_side: value must be a whole number",
    ),
    (
        "polis",
        sub(POLIS, "value = 45", "value = 10000000"),
        "constants.cubes_per_side: value must be between 1 and",
    ),
    ("polis", sub(POLIS, "positions = 10", "positions = 100000"), "market_values.positions: 100000 is above"),
    ("polis", POLIS + "\nx = " + "{a=" * 100 + "1" + "}" * 100 + "\n", "nested deeper than 8 levels"),
    ("polis", sub(POLIS, "adjacent = [", "adjacent = [[1], "), "adjacent: must be a list of plain values"),
    (
        "polis",
        sub(POLIS, "immediate_prestige = ", "immediate_prestige = 99999999999 #"),
        "immediate_prestige: 99999999999",
    ),
    (
        "polis",
        sub(POLIS, "immediate_prestige = ", "immediate_prestige = 1.5 #"),
        "'immediate_prestige' has the wrong type",
    ),
    ("polis", sub(POLIS, "prestige = 3", "prestige = " + "7" * 4400), "prestige (line"),
    ("polis", "[[territories]]\nid = 3\n", "sides: missing or not an array of tables"),
]


def test_malformed_boards_each_get_a_400_naming_the_entry_and_leave_nothing(tmp_path: Path) -> None:
    assert len(MALFORMED) >= 25
    codes: list[int] = []
    with app(tmp_path) as c:
        for game, text, entry in MALFORMED:
            r = c.post("/api/tables", json={"game": game, "board_data": text})
            codes.append(r.status_code)
            assert r.status_code == 400, (entry, r.text)
            body = r.json()
            assert body["code"] == "bad_request" and body["message"].startswith("board: "), body
            assert entry in body["message"], (entry, body["message"])
        assert c.get("/api/tables").json() == []
    assert codes.count(500) == 0
    assert boards_dir(tmp_path) == []


def test_an_oversized_or_refused_board_with_bad_seats_stores_nothing(tmp_path: Path) -> None:
    with app(tmp_path) as c:
        big = SPQR + "#" * MAX_BOARD_BYTES
        assert c.post("/api/tables", json={"game": "spqrisiko", "board_data": big}).status_code == 400
        # a valid board on a request refused for its seats is not stored either
        valid = SPQR.replace("Lusitania", "Lusitania!")
        r = c.post(
            "/api/tables", json={"game": "spqrisiko", "board_data": valid, "seats": [{"bot": "wizard"}] * 3}
        )
        assert r.status_code == 400 and "unknown bot" in r.json()["message"]
        assert spqr_board.registered_board(board_name(valid.encode())) is None  # not kept in memory either
    assert boards_dir(tmp_path) == []


# ------------------------------------------------------------------ what clients see; restarts


def test_options_views_and_records_show_a_content_name_never_a_server_path(tmp_path: Path) -> None:
    text = sub(POLIS, "value = 45", "value = 44")
    with app(tmp_path) as c:
        r = c.post("/api/tables", json={"game": "polis", "board_data": text, "seed": 2,
                                        "seats": [{"bot": "random"}, {"bot": "random"}]})  # fmt: skip
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        s = c.post("/api/tables", json={"game": "spqrisiko", "board_data": SPQR, "seed": 2})
        assert s.status_code == 201
        for t in (tid, s.json()["id"]):
            d = c.get(f"/api/tables/{t}").json()
            assert NAME.fullmatch(d["options"]["board"]), d["options"]
            rec = c.get(f"/api/tables/{t}/record").text
            rep = c.get(f"/api/tables/{t}/replay", params={"step": 1}).text
            for out in (json.dumps(d), rec, rep, c.get("/api/tables").text):
                assert str(tmp_path) not in out and "boards/" not in out
        assert {p.name for p in boards_dir(tmp_path)} == {
            c.get(f"/api/tables/{tid}").json()["options"]["board"],
            c.get(f"/api/tables/{s.json()['id']}").json()["options"]["board"],
        }
        # the corrected value is in play
        assert c.app.state.manager.get(tid).state.board.cubes == 44  # type: ignore[attr-defined]  # a Polis state (State is the protocol)


def test_restart_skips_a_table_whose_stored_board_no_longer_validates(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    good_text = sub(SPQR, "arena = 5", "arena = 6")
    with app(tmp_path) as c:
        bad = c.post("/api/tables", json={"game": "spqrisiko", "board_data": SPQR, "seed": 3}).json()["id"]
        good = c.post("/api/tables", json={"game": "spqrisiko", "board_data": good_text, "seed": 3}).json()[
            "id"
        ]
        plain = c.post("/api/tables", json={"game": "polis", "seed": 3}).json()["id"]
        bad_name = c.get(f"/api/tables/{bad}").json()["options"]["board"]
        good_name = c.get(f"/api/tables/{good}").json()["options"]["board"]
    # an earlier server stored the full path; the file now holds a board that no longer validates (the attack)
    db = sqlite3.connect(tmp_path / "h.db")
    db.execute("UPDATE tables SET options = ? WHERE id = ?",
               (json.dumps({"board": str(tmp_path / "boards" / good_name), "players": 4}), good))  # fmt: skip
    db.commit()
    db.close()
    (tmp_path / "boards" / bad_name).write_text(
        sub(SPQR, "legionary = 25", "legionary = 9223372036854775807")
    )
    for name in (bad_name, good_name):  # a new process: nothing registered
        spqr_board.forget_board(name)
    with caplog.at_level(logging.WARNING, logger="hegemon.server"), app(tmp_path) as c:
        ids = {t["id"] for t in c.get("/api/tables").json()}
        assert ids == {good, plain}
        assert c.get(f"/api/tables/{bad}").status_code == 404
        assert c.get(f"/api/tables/{good}").json()["options"]["board"] == good_name
        assert c.app.state.manager.get(good).state.board.deck[3] == 6  # type: ignore[attr-defined]  # an S.P.Q.RisiKo! state (State is the protocol)
    lines = [r.getMessage() for r in caplog.records if bad in r.getMessage()]
    assert lines and "cards.legionary" in lines[0] and "not loaded" in lines[0]


def test_restart_skips_a_table_whose_actions_no_longer_replay_and_keeps_its_rows(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A shipped board or a rule changed since a table was played (the balanced Polis board was re-derived in
    session 11): its stored actions no longer replay. The server starts and serves every other table; that one
    is skipped with a warning, and its stored rows stay for a server whose rules replay them."""
    with app(tmp_path) as c:
        bots = [{"bot": "random"}, {"bot": "random"}]  # they play at once: the table has stored actions
        stale = c.post("/api/tables", json={"game": "polis", "seed": 3, "seats": bots,
                                            "options": {"board": "balanced"}}).json()["id"]  # fmt: skip
        fine = c.post("/api/tables", json={"game": "polis", "seed": 4}).json()["id"]
    db = sqlite3.connect(tmp_path / "h.db")
    (first,) = db.execute("SELECT action FROM actions WHERE table_id = ? AND idx = 0", (stale,)).fetchone()
    # what the old board allowed and the new one does not: here a move where a card is to be drawn
    db.execute(
        "UPDATE actions SET action = ? WHERE table_id = ? AND idx = 0", (json.dumps({"type": "pass"}), stale)
    )
    db.commit()
    rows = db.execute("SELECT COUNT(*) FROM actions WHERE table_id = ?", (stale,)).fetchone()[0]
    db.close()
    assert first != json.dumps({"type": "pass"}) and rows > 0
    with caplog.at_level(logging.WARNING, logger="hegemon.server"), app(tmp_path) as c:
        assert {t["id"] for t in c.get("/api/tables").json()} == {fine}
        assert c.get(f"/api/tables/{stale}").status_code == 404
        assert c.get(f"/api/tables/{fine}").status_code == 200
    lines = [r.getMessage() for r in caplog.records if stale in r.getMessage()]
    assert lines and "no longer replay" in lines[0]
    db = sqlite3.connect(tmp_path / "h.db")
    assert db.execute("SELECT COUNT(*) FROM actions WHERE table_id = ?", (stale,)).fetchone()[0] == rows
    assert db.execute("SELECT COUNT(*) FROM tables WHERE id = ?", (stale,)).fetchone()[0] == 1
    db.close()


def test_game_options_resolve_an_accepted_board_by_name_only(tmp_path: Path) -> None:
    """Options naming an upload are resolved by the server's registry; a client cannot name a file."""
    with app(tmp_path) as c:
        r = c.post("/api/tables", json={"game": "spqrisiko", "options": {"board": "/etc/passwd"}})
        assert r.status_code == 400 and "board_data" in r.json()["message"]


def test_a_board_whose_provinces_the_players_cannot_share_is_refused(tmp_path: Path) -> None:
    """The set-up deals every province (neutral groups first, then as many to each player): a board that leaves
    a remainder or nothing for a player is refused at creation instead of leaving a seat without a move."""
    with app(tmp_path) as c:
        r = c.post("/api/tables", json={"game": "spqrisiko", "players": 4, "board_data": one_sea_board(10)})
        assert r.status_code == 400, r.text
        assert "option 'board'" in r.json()["message"] and "cannot share equally" in r.json()["message"]
        r = c.post("/api/tables", json={"game": "spqrisiko", "players": 3, "board_data": one_sea_board(13)})
        assert r.status_code == 400 and "13 provinces less 9 neutral groups leave 4" in r.json()["message"]
        ok = c.post("/api/tables", json={"game": "spqrisiko", "players": 3, "board_data": one_sea_board(12)})
        assert ok.status_code == 201, ok.text
    assert len(boards_dir(tmp_path)) == 1


def test_the_same_board_twice_is_stored_once_and_again_if_its_file_went_missing(tmp_path: Path) -> None:
    text = sub(SPQR, "banner = 15", "banner = 16")
    with app(tmp_path) as c:
        a = c.post("/api/tables", json={"game": "spqrisiko", "board_data": text}).json()["id"]
        b = c.post("/api/tables", json={"game": "spqrisiko", "board_data": text}).json()["id"]
        name = c.get(f"/api/tables/{a}").json()["options"]["board"]
        assert c.get(f"/api/tables/{b}").json()["options"]["board"] == name
        assert [p.name for p in boards_dir(tmp_path)] == [name]
        (tmp_path / "boards" / name).unlink()
        r = c.post("/api/tables", json={"game": "spqrisiko", "board_data": text})
        assert r.status_code == 201
        assert [p.name for p in boards_dir(tmp_path)] == [name]
        assert (tmp_path / "boards" / name).read_text() == text


def test_an_accepted_board_is_held_only_while_a_table_uses_it(tmp_path: Path) -> None:
    """The name registry is weak: once no game uses a board it leaves memory (a stream of distinct uploads on
    tables that expire cannot pile up), and a restart reads it back from `boards/`."""
    import gc

    from hegemon.server.protocol import CreateTable
    from hegemon.server.tables import TableManager

    m = TableManager(board_dir=tmp_path / "boards")
    text = sub(SPQR, "trireme = 10", "trireme = 11")
    t = m.create(CreateTable(game="spqrisiko", board_data=text, seats=[{"bot": "random"}] * 3))  # type: ignore[list-item]  # pydantic turns the dicts into SeatSpec
    name = t.options.board
    assert spqr_board.registered_board(name) is not None and m.replay_view(t, 1, None)["step"] == 1
    m.tables.clear()
    del t
    gc.collect()
    assert spqr_board.registered_board(name) is None
    assert (tmp_path / "boards" / name).read_text() == text


def test_a_board_upload_on_a_full_disk_is_refused_503_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fills up while the board file is written (ENOSPC injected at the write, after half the bytes
    reached the file): a typed 503, no `.part` file, no table, the board not kept in memory; with room again,
    the same upload works. Issue 26 item 9."""
    import builtins
    import errno
    import io

    real_open = io.open

    class FullDisk:
        def __init__(self, f: Any) -> None:
            self.f = f

        def __enter__(self) -> FullDisk:
            return self

        def __exit__(self, *exc: object) -> None:
            self.f.close()

        def write(self, b: bytes) -> int:
            self.f.write(bytes(b)[: len(b) // 2])
            self.f.flush()
            raise OSError(errno.ENOSPC, "No space left on device")

        def __getattr__(self, name: str) -> Any:
            return getattr(self.f, name)

    def open_on_a_full_disk(file: Any, mode: str = "r", *a: Any, **k: Any) -> Any:
        f = real_open(file, mode, *a, **k)
        return FullDisk(f) if "w" in mode and str(file).endswith(".part") else f

    text = SPQR.replace("Lusitania", "Lusitania?")
    with app(tmp_path) as c:
        for where in (builtins, io):
            monkeypatch.setattr(where, "open", open_on_a_full_disk)
        r = c.post("/api/tables", json={"game": "spqrisiko", "board_data": text, "seed": 1})
        monkeypatch.undo()
        assert r.status_code == 503, r.text
        assert (r.json()["code"], r.json()["detail"]) == ("unavailable", "board_not_stored")
        assert "No space left" in r.json()["message"]
        assert boards_dir(tmp_path) == [] and c.get("/api/tables").json() == []
        assert spqr_board.registered_board(board_name(text.encode())) is None
        r = c.post("/api/tables", json={"game": "spqrisiko", "board_data": text, "seed": 1})
        assert r.status_code == 201, r.text
        assert [p.name for p in boards_dir(tmp_path)] == [board_name(text.encode())]
