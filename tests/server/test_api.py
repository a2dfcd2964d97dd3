"""REST and websocket through FastAPI's TestClient: creating, listing, joining, acting, records, odds, the
websocket push to other seats, typed errors on a connection that stays usable, the static client."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hegemon.server.app import create_app
from hegemon.server.settings import TableLimits
from hegemon.server.tables import TableManager


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(None, 0.0)) as c:
        yield c


def mgr(c: TestClient) -> TableManager:
    return c.app.state.manager


def create(c: TestClient, **body: Any) -> dict[str, Any]:
    r = c.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def test_games_list_options_with_help_in_both_languages(client: TestClient) -> None:
    g = client.get("/api/games").json()
    names = {x["name"] for x in g["games"]}
    assert names == {"spqrisiko", "polis"}
    assert "random" in g["bots"] and "mcts:easy" in g["bots"]
    assert "greedy" not in g["bots"]  # easy's bot, listed once (as easy); a seat that names it is still taken
    spqr = next(x for x in g["games"] if x["name"] == "spqrisiko")
    rules = next(o for o in spqr["options"] if o["name"] == "rules")
    assert rules["choices"] == ["house-1.2", "official"] and rules["help"] and rules["help_it"]
    polis = next(x for x in g["games"] if x["name"] == "polis")
    assert any(o["name"] == "siege" for o in polis["options"])


def test_create_list_detail_and_private_links(client: TestClient) -> None:
    res = create(
        client,
        game="spqrisiko",
        players=3,
        seats=[{"human": True, "name": "Ada"}, {"human": True}, {"bot": "random"}],
        seed=1,
    )
    assert res["status"] == "waiting"
    links = [s for s in res["seats"] if s["kind"] == "human"]
    assert all(s["token"] and s["url"].endswith(f"/t/{res['id']}#seat={s['token']}") for s in links)
    assert res["seats"][2].get("token") is None
    listed = client.get("/api/tables").json()
    assert [t["id"] for t in listed] == [res["id"]] and listed[0]["open_seats"] == 2
    assert "token" not in json.dumps(listed)
    d = client.get(f"/api/tables/{res['id']}").json()
    assert d["status"] == "waiting" and d["version"] == 0 and d["view"]["game"] == "spqrisiko"
    assert links[0]["token"] not in json.dumps(d)
    # private seats are never handed out by /join: each is taken through its link
    r = client.post(f"/api/tables/{res['id']}/join", json={})
    assert r.status_code == 400 and r.json()["code"] == "bad_request"
    j1 = client.post(f"/api/tables/{res['id']}/seat", json={"token": links[0]["token"], "name": "Bea"}).json()
    j2 = client.post(f"/api/tables/{res['id']}/seat", json={"token": links[1]["token"]}).json()
    assert (j1["seat"], j2["seat"]) == (0, 1)
    # each taker gets a new token of its own: the links' tokens (the creator has them) hold nothing now
    assert j1["token"] != links[0]["token"] and j2["token"] != links[1]["token"]
    d = client.get(f"/api/tables/{res['id']}").json()
    assert d["status"] == "playing" and d["version"] >= 1


def test_rest_actions_and_typed_errors(client: TestClient) -> None:
    res = create(client, game="spqrisiko", players=3, seats=[{"human": True}] * 3, seed=2, claim=0)
    tid = res["id"]
    toks = [res["seats"][0]["token"]]
    for _s in res["seats"][1:]:
        toks.append(client.post(f"/api/tables/{tid}/seat", json={"token": _s["token"]}).json()["token"])
    d = client.get(f"/api/tables/{tid}", params={"token": toks[0]}).json()
    cur = d["view"]["current_player"]
    tok = toks[cur]
    mine = client.get(f"/api/tables/{tid}", params={"token": tok}).json()
    action = mine["view"]["legal_actions"][0]
    v = mine["version"]
    bad = [
        ({"token": tok, "version": v + 5, "action": action}, 409, "stale_version"),
        ({"token": toks[(cur + 1) % 3], "version": v, "action": action}, 409, "not_your_turn"),
        ({"token": "x" * 30, "version": v, "action": action}, 403, "unauthorized"),
        (
            {"token": tok, "version": v, "action": {"type": "claim", "province": "atlantis"}},
            422,
            "illegal_action",
        ),
        ({"token": tok, "version": v, "action": {"type": "fly"}}, 400, "bad_request"),
        ({"token": tok, "version": "v", "action": action}, 400, "bad_request"),
        ({"token": tok, "version": v}, 400, "bad_request"),
    ]
    for body, status, code in bad:
        r = client.post(f"/api/tables/{tid}/actions", json=body)
        assert (r.status_code, r.json()["code"]) == (status, code), body
        assert client.get(f"/api/tables/{tid}").json()["version"] == v
        if code == "illegal_action":  # why, with the rule named, and what is legal instead
            err = r.json()
            assert (
                err["rule"] == "R 2"
                and "[R 2]" in err["message"]
                and err["legal_actions"] == mine["view"]["legal_actions"]
            )
            # the reason as data, passed through from the engine unchanged: its id, its arguments, its English
            assert (err["detail"], err["args"]) == ("no_province", {"place": "atlantis"}), err
            assert err["reason"] == "there is no province 'atlantis'"
    r = client.post("/api/tables/nope/actions", json={"token": tok, "version": v, "action": action})
    assert (r.status_code, r.json()["code"]) == (404, "unknown_table")
    r = client.post(
        f"/api/tables/{tid}/actions",
        content=b"{" + b" " * 400_000 + b"}",
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 400 and r.json()["code"] == "bad_request"
    r = client.post(f"/api/tables/{tid}/actions", json={"token": tok, "version": v, "action": action})
    assert r.status_code == 200 and r.json()["version"] > v


def test_websocket_pushes_to_the_other_seat_and_survives_bad_messages(client: TestClient) -> None:
    res = create(client, game="polis", seats=[{"human": True}, {"human": True}], seed=3)
    tid = res["id"]
    t0, t1 = res["seats"][0]["token"], res["seats"][1]["token"]
    with (
        client.websocket_connect(f"/ws/tables/{tid}?token={t0}") as w0,
        client.websocket_connect(f"/ws/tables/{tid}?token={t1}") as w1,
        client.websocket_connect(f"/ws/tables/{tid}") as spec,
    ):

        def latest(w: Any) -> dict[str, Any]:
            m = w.receive_json()
            while m["type"] == "seat" or (
                m["type"] == "state" and m["status"] != "playing"
            ):  # seat: its new token
                m = w.receive_json()
            return m

        m0, m1, ms = latest(w0), latest(w1), latest(spec)
        assert ms["seat"] is None and ms["view"]["legal_actions"] == []
        cur = m0["view"]["current_player"]
        (wa, ma), (wb, _mb) = ((w0, m0), (w1, m1)) if cur == 0 else ((w1, m1), (w0, m0))
        legal = ma["view"]["legal_actions"]
        assert legal
        # refusals: each an error message, the socket stays usable
        for raw in ("not json", json.dumps([1, 2]), json.dumps({"version": ma["version"]}), "x" * 5000,
                    json.dumps({"version": ma["version"] - 1, "action": legal[0]}),
                    json.dumps({"version": ma["version"], "action": {"type": "pass", "extra": 1}})):  # fmt: skip
            wa.send_text(raw)
            err = wa.receive_json()
            assert err["type"] == "error" and err["code"] in ("bad_request", "stale_version"), err
        wb.send_json({"version": ma["version"], "action": legal[0]})
        assert wb.receive_json()["code"] == "not_your_turn"
        spec.send_json({"version": ma["version"], "action": legal[0]})
        assert spec.receive_json()["code"] == "unauthorized"
        assert mgr(client).get(tid).version == ma["version"]
        wa.send_json({"version": ma["version"], "action": legal[0]})
        new_a = wa.receive_json()
        new_b = wb.receive_json()
        new_s = spec.receive_json()
        for new in (new_a, new_b, new_s):
            assert new["type"] == "state" and new["version"] > ma["version"]
            assert new["log"] and new["log"][0]["i"] == ma["version"]
        # each seat got its own view: only the seat on turn has legal actions
        nxt = new_a["view"]["current_player"]
        assert bool(new_a["view"]["legal_actions"]) == (new_a["seat"] == nxt)
        assert new_s["view"].get("hand") is None


def test_unknown_table_and_forged_token_on_the_websocket(client: TestClient) -> None:
    with client.websocket_connect("/ws/tables/nope") as w:
        assert w.receive_json()["code"] == "unknown_table"
    res = create(client, game="polis", seed=1)
    with client.websocket_connect(f"/ws/tables/{res['id']}?token=forged") as w:
        assert w.receive_json()["code"] == "unauthorized"


def test_a_bot_table_finishes_and_its_record_and_replay_are_served(client: TestClient) -> None:
    res = create(client, game="spqrisiko", players=3, seats=[{"bot": "random"}] * 3, seed=4)
    tid = res["id"]
    deadline = time.time() + 90
    while time.time() < deadline and client.get(f"/api/tables/{tid}").json()["status"] != "finished":
        time.sleep(0.05)
    d = client.get(f"/api/tables/{tid}").json()
    assert d["status"] == "finished" and d["outcome"]["winners"]
    rec = json.loads(client.get(f"/api/tables/{tid}/record").text)
    assert rec["outcome"] == d["outcome"] and len(rec["actions"]) == d["version"] and rec["seed"] == 4
    r = client.get(f"/api/tables/{tid}/replay", params={"step": 10, "seat": 1}).json()
    assert r["step"] == 10 and r["steps"] == d["version"] and len(r["log"]) == 10
    assert "hand" in r["view"]["players"][1] and "hand" not in r["view"]["players"][0]


def test_odds_endpoint_reads_the_position(client: TestClient) -> None:
    from .conftest import new_table, play_random

    m = mgr(client)
    import random

    t = new_table(m, seed=12)
    rng = random.Random(12)
    for _ in range(3000):
        seat = t.state.current_player()
        attacks = [a for a in t.view(seat)["legal_actions"] if a["type"] == "attack"]
        if attacks:
            break
        play_random(m, t, 1, rng)
    a = attacks[0]
    o = client.get(
        f"/api/tables/{t.id}/odds", params={"kind": "land", "source": a["source"], "target": a["target"]}
    ).json()
    assert 0 <= o["p_win"]["decimal"] <= 1 and "/" in o["p_win"]["fraction"]
    r = client.get(
        f"/api/tables/{t.id}/odds", params={"kind": "land", "source": "atlantis", "target": a["target"]}
    )
    assert r.status_code == 400 and r.json()["code"] == "bad_request"
    p = create(client, game="polis", seed=1)
    o = client.get(f"/api/tables/{p['id']}/odds", params={"polis": "megara"}).json()
    assert 0 <= o["success"]["decimal"] <= 1


def test_board_file_upload_is_validated(client: TestClient) -> None:
    from hegemon.games.polis.board import load_board

    text = Path(load_board(None).path).read_text()
    ok = client.post("/api/tables", json={"game": "polis", "board_data": text})
    # the in-memory app has no board directory: the refusal is typed
    assert ok.status_code == 400 and ok.json()["code"] == "bad_request"


def test_board_file_upload_with_a_database(tmp_path: Path) -> None:
    from hegemon.games.polis.board import load_board

    text = Path(load_board(None).path).read_text()
    with TestClient(create_app(f"sqlite:///{tmp_path / 'x.db'}", 0.0)) as c:
        r = c.post("/api/tables", json={"game": "polis", "board_data": text})
        assert r.status_code == 201, r.text
        bad = c.post("/api/tables", json={"game": "polis", "board_data": "[[territories]]\nid = 3\n"})
        assert (
            bad.status_code == 400
            and bad.json()["code"] == "bad_request"
            and "board" in bad.json()["message"]
        )


def test_static_client_and_headers(client: TestClient) -> None:
    for path in ("/", "/t/abc", "/r/abc", "/static/js/table.js", "/static/js/boards/spqrisiko.js",
                 "/static/js/boards/polis.js", "/static/maps/spqrisiko.json", "/static/maps/polis.json"):  # fmt: skip
        r = client.get(path)
        assert r.status_code == 200, path
        assert "default-src 'self'" in r.headers["content-security-policy"]
    assert client.get("/static/../server/app.py").status_code == 404
    spqr = client.get("/static/maps/spqrisiko.json").json()
    assert len(spqr["provinces"]) == 45 and len(spqr["seas"]) == 12 and all(p["d"] for p in spqr["provinces"])
    assert client.get("/docs").status_code == 200
    assert "/api/tables" in client.get("/openapi.json").json()["paths"]


def test_names_are_stored_as_text_without_control_characters(client: TestClient) -> None:
    res = create(
        client,
        game="polis",
        seats=[{"human": True, "name": "<script>alert(1)</script>\x07"}, {"bot": "random"}],
    )
    d = client.get(f"/api/tables/{res['id']}").json()
    assert d["seats"][0]["name"] == "<script>alert(1)</script>"
    assert client.get("/").headers["content-type"].startswith("text/html")


def test_restart_the_app_on_the_same_database(db_url: str) -> None:
    """Stop the app, start a new one on the same database (SQLite file or PostgreSQL): every table, version,
    seat and view intact, and the game goes on."""
    url = db_url
    with TestClient(create_app(url, 0.0)) as c:
        res = create(c, game="spqrisiko", players=3, seats=[{"human": True}] * 3, seed=31)
        tid = res["id"]
        toks = [
            c.post(f"/api/tables/{tid}/seat", json={"token": s["token"]}).json()["token"]
            for s in res["seats"]
        ]
        for _ in range(40):
            d = c.get(f"/api/tables/{tid}").json()
            cur = d["view"]["current_player"]
            mine = c.get(f"/api/tables/{tid}", params={"token": toks[cur]}).json()
            r = c.post(f"/api/tables/{tid}/actions",
                       json={"token": toks[cur], "version": mine["version"], "action": mine["view"]["legal_actions"][-1]})  # fmt: skip
            assert r.status_code == 200, r.text
        bots = create(c, game="polis", seats=[{"bot": "random"}] * 2, seed=3)
        before = {
            t: c.get(f"/api/tables/{t}", params={"token": toks[0]} if t == tid else {}).json() for t in (tid,)
        }
    with TestClient(create_app(url, 0.0)) as c:
        d = c.get(f"/api/tables/{tid}", params={"token": toks[0]}).json()
        assert d["version"] == before[tid]["version"] and d["view"] == before[tid]["view"]
        assert d["status"] == "playing"
        assert {t["id"] for t in c.get("/api/tables").json()} == {tid, bots["id"]}
        cur = d["view"]["current_player"]
        mine = c.get(f"/api/tables/{tid}", params={"token": toks[cur]}).json()
        r = c.post(f"/api/tables/{tid}/actions",
                   json={"token": toks[cur], "version": mine["version"], "action": mine["view"]["legal_actions"][0]})  # fmt: skip
        assert r.status_code == 200 and r.json()["version"] > d["version"]
        # the bot table resumed by itself and finishes
        deadline = time.time() + 90
        while time.time() < deadline and c.get(f"/api/tables/{bots['id']}").json()["status"] != "finished":
            time.sleep(0.05)
        assert c.get(f"/api/tables/{bots['id']}").json()["status"] == "finished"


def test_writes_are_rate_limited_per_client() -> None:
    # the rate limit alone (the cap on live tables per client, TableLimits, is tested in test_memory.py)
    with TestClient(create_app(None, 0.0, table_limits=TableLimits(max_tables_per_client=0))) as c:
        codes = [c.post("/api/tables", json={"game": "polis", "seats": [{"human": True}] * 2}).status_code
                 for _ in range(140)]  # fmt: skip
        assert codes[:100] == [201] * 100
        assert 429 in codes[120:]
        r = c.post("/api/tables", json={"game": "polis"})
        assert r.status_code == 429 and r.json()["code"] == "bad_request"
        assert c.get("/api/tables").status_code == 200  # reading is not limited


def test_a_table_of_an_unknown_game_is_refused_naming_the_games(client: TestClient) -> None:
    """`game` is any registered game (the schema lists them from the registry); another is a bad request."""
    r = client.post("/api/tables", json={"game": "chess"})
    assert r.status_code == 400 and r.json()["code"] == "bad_request"
    assert "polis" in r.json()["message"] and "spqrisiko" in r.json()["message"]
    schema = client.get("/openapi.json").json()["components"]["schemas"]["CreateTable"]["properties"]["game"]
    assert sorted(schema["enum"]) == sorted(g["name"] for g in client.get("/api/games").json()["games"])
    listed = {g["name"]: g["title"] for g in client.get("/api/games").json()["games"]}
    assert listed == {"polis": "Polis: Fight for the Hegemony", "spqrisiko": "S.P.Q.RisiKo!"}
