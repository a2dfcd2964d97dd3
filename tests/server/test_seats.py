"""Seats (issue 11 item 4): a private seat is taken only through its link; a seat open to anyone is joined from
the lobby with a token minted for the joiner alone, stored (it survives a restart); a refused action never
takes a seat or starts the game."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hegemon.server.app import create_app


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(None, 0.0)) as c:
        yield c


def create(c: TestClient, **body: Any) -> dict[str, Any]:
    r = c.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def seat_of(c: TestClient, tid: str, token: str) -> int | None:
    r = c.get(f"/api/tables/{tid}", params={"token": token})
    return r.json()["you"] if r.status_code == 200 else None


def test_join_mints_a_token_for_the_joiner_alone_and_never_gives_a_private_seat(client: TestClient) -> None:
    res = create(client, game="spqrisiko", players=3, claim=0, seed=5,
                 seats=[{"human": True, "name": "Ada"}, {"human": True, "open": True}, {"human": True}])  # fmt: skip
    tid = res["id"]
    creator = res["seats"][0]["token"]
    private = res["seats"][2]["token"]
    assert res["seats"][1]["open"] and res["seats"][1].get("token") is None  # nobody holds the open seat's token
    assert res["seats"][1]["url"].endswith(f"/t/{tid}")
    listed = client.get("/api/tables").json()[0]
    assert (listed["open_seats"], listed["joinable"]) == (2, 1)
    j = client.post(f"/api/tables/{tid}/join", json={"name": "Bea"}).json()
    assert j["seat"] == 1 and j["token"] not in json.dumps(res)
    assert seat_of(client, tid, j["token"]) == 1
    # the creator's tokens hold only the creator's and the private seats
    assert {seat_of(client, tid, t) for t in (creator, private)} == {0, 2}
    # the private seat is not given to the next joiner
    r = client.post(f"/api/tables/{tid}/join", json={"name": "Cy"})
    assert r.status_code == 400 and r.json()["code"] == "bad_request" and "link" in r.json()["message"]
    d = client.get(f"/api/tables/{tid}").json()
    assert d["status"] == "waiting" and [s["claimed"] for s in d["seats"]] == [True, True, False]
    assert [s["name"] for s in d["seats"]][:2] == ["Ada", "Bea"]
    # the link holder takes it, under a name
    r = client.post(f"/api/tables/{tid}/seat", json={"token": private, "name": "Ada"})
    assert r.status_code == 200 and r.json()["seat"] == 2
    d = client.get(f"/api/tables/{tid}").json()
    assert d["status"] == "playing" and d["seats"][2]["name"] == "Ada (2)"
    # a forged token takes nothing
    r = client.post(f"/api/tables/{tid}/seat", json={"token": "x" * 24})
    assert (r.status_code, r.json()["code"]) == (403, "unauthorized")


def test_a_refused_action_takes_no_seat_and_starts_nothing(client: TestClient) -> None:
    res = create(client, game="polis", seed=3, seats=[{"human": True}, {"human": True}])
    tid = res["id"]
    before = client.get(f"/api/tables/{tid}").json()
    for seat in res["seats"]:
        for body in (
            {"token": seat["token"], "version": before["version"], "action": {"type": "pass"}},
            {"token": seat["token"], "version": before["version"] + 3, "action": {"type": "pass"}},
            {"token": seat["token"], "version": before["version"], "action": {"type": "nonsense"}},
        ):
            r = client.post(f"/api/tables/{tid}/actions", json=body)
            assert r.status_code in (400, 409), r.text
    after = client.get(f"/api/tables/{tid}").json()
    assert after["status"] == "waiting" and after["version"] == before["version"]
    assert [s["claimed"] for s in after["seats"]] == [False, False]


def test_a_joined_seat_and_its_token_survive_a_restart(db_url: str) -> None:
    url = db_url
    with TestClient(create_app(url, 0.0)) as c:
        res = create(c, game="polis", seed=4, claim=0, seats=[{"human": True, "name": "Ada"}, {"human": True, "open": True}])
        tid = res["id"]
        j = c.post(f"/api/tables/{tid}/join", json={"name": "Bea"}).json()
        assert c.get(f"/api/tables/{tid}").json()["status"] == "playing"
    with TestClient(create_app(url, 0.0)) as c:
        d = c.get(f"/api/tables/{tid}", params={"token": j["token"]}).json()
        assert d["you"] == 1 and d["seats"][1]["name"] == "Bea" and d["seats"][1]["claimed"]
        assert d["status"] == "playing"
        r = c.post(f"/api/tables/{tid}/join", json={})
        assert r.status_code == 400
        # the joiner plays with the minted token when it is their turn
        cur = d["view"]["current_player"]
        tok = j["token"] if cur == 1 else res["seats"][0]["token"]
        mine = c.get(f"/api/tables/{tid}", params={"token": tok}).json()
        r = c.post(f"/api/tables/{tid}/actions", json={"token": tok, "version": mine["version"], "action": mine["view"]["legal_actions"][0]})
        assert r.status_code == 200, r.text


def test_websocket_with_the_link_takes_the_seat(client: TestClient) -> None:
    res = create(client, game="polis", seed=3, claim=0, seats=[{"human": True}, {"human": True}])
    tid = res["id"]
    with client.websocket_connect(f"/ws/tables/{tid}?token={res['seats'][1]['token']}") as w:
        m = w.receive_json()
        while m["status"] != "playing":
            m = w.receive_json()
        assert m["seat"] == 1 and m["seats"][1]["claimed"]
