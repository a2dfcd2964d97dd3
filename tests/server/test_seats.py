"""Seats (issue 11 item 4): a private seat is taken only through its link; a seat open to anyone is joined from
the lobby with a token minted for the joiner alone, stored (it survives a restart); a refused action never
takes a seat or starts the game."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from hegemon.server.app import create_app, public_base
from hegemon.server.names import clean_name


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
    assert (
        res["seats"][1]["open"] and res["seats"][1].get("token") is None
    )  # nobody holds the open seat's token
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
        res = create(
            c,
            game="polis",
            seed=4,
            claim=0,
            seats=[{"human": True, "name": "Ada"}, {"human": True, "open": True}],
        )
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
        r = c.post(
            f"/api/tables/{tid}/actions",
            json={"token": tok, "version": mine["version"], "action": mine["view"]["legal_actions"][0]},
        )
        assert r.status_code == 200, r.text


def test_websocket_with_the_link_takes_the_seat(client: TestClient) -> None:
    """The link's websocket takes the seat under a new token, handed to that connection alone (issue 26 item 8)."""
    res = create(client, game="polis", seed=3, claim=0, seats=[{"human": True}, {"human": True}])
    tid = res["id"]
    link = res["seats"][1]["token"]
    got: dict[str, Any] = {}
    with client.websocket_connect(f"/ws/tables/{tid}?token={link}") as w:
        m = w.receive_json()
        while m["type"] != "state" or m["status"] != "playing":  # the new token comes first
            if m["type"] == "seat":
                got = m
            m = w.receive_json()
        assert got, "no new token"
        assert m["seat"] == 1 and m["seats"][1]["claimed"]
        assert got["seat"] == 1 and got["token"] != link and got["token"] not in json.dumps(res)
        assert seat_of(client, tid, got["token"]) == 1
        assert seat_of(client, tid, link) is None  # the creator's copy of the link holds nothing now
        with client.websocket_connect(f"/ws/tables/{tid}?token={link}") as w2:
            e = w2.receive_json()
            assert (e["type"], e["code"]) == ("error", "unauthorized")


def play_as(c: TestClient, tid: str, tokens: dict[int, str]) -> int:
    """Play one legal move as whichever of `tokens`' seats is on turn; the new version."""
    d = c.get(f"/api/tables/{tid}").json()
    cur = d["view"]["current_player"]
    mine = c.get(f"/api/tables/{tid}", params={"token": tokens[cur]}).json()
    r = c.post(f"/api/tables/{tid}/actions",
               json={"token": tokens[cur], "version": mine["version"], "action": mine["view"]["legal_actions"][0]})  # fmt: skip
    assert r.status_code == 200, r.text
    return int(r.json()["version"])


def test_taking_a_private_seat_rotates_its_token_for_the_friend_alone(db_url: str) -> None:
    """The creator is given every private link (its token); once a friend takes the seat through it, the seat
    has a new token, only in the friend's answer: the creator can neither read that hand nor play its moves,
    nor take the seat again; the new token is stored (it survives a restart). Issue 26 item 8."""
    with TestClient(create_app(db_url, 0.0)) as c:
        res = create(
            c, game="polis", seed=4, claim=0, seats=[{"human": True, "name": "Ada"}, {"human": True}]
        )
        tid, mine, link = res["id"], res["seats"][0]["token"], res["seats"][1]["token"]
        assert seat_of(c, tid, link) == 1  # before it is taken, the link is the seat
        r = c.post(f"/api/tables/{tid}/seat", json={"token": link, "name": "Bea"})
        assert r.status_code == 200, r.text
        friend = r.json()["token"]
        assert (
            friend != link and friend not in json.dumps(res) and r.json()["url"].endswith(f"#seat={friend}")
        )
        # the link's token: no hand, no move, no record or replay as that seat, no second taking
        for path in ("", "/record", "/replay"):
            r = c.get(f"/api/tables/{tid}{path}", params={"token": link})
            assert (r.status_code, r.json()["code"]) == (403, "unauthorized"), (path, r.text)
        r = c.post(f"/api/tables/{tid}/seat", json={"token": link, "name": "Eve"})
        assert r.status_code == 403
        d = c.get(f"/api/tables/{tid}").json()
        assert d["status"] == "playing" and d["seats"][1]["name"] == "Bea"
        r = c.post(
            f"/api/tables/{tid}/actions",
            json={"token": link, "version": d["version"], "action": {"type": "pass"}},
        )
        assert (r.status_code, r.json()["code"]) == (403, "unauthorized")
        # the friend's token is the seat: taking again with it changes nothing, and it plays
        r = c.post(f"/api/tables/{tid}/seat", json={"token": friend, "name": "Zed"})
        assert r.status_code == 200 and r.json()["token"] == friend
        assert seat_of(c, tid, friend) == 1
        v = play_as(c, tid, {0: mine, 1: friend})
    with TestClient(create_app(db_url, 0.0)) as c:
        assert seat_of(c, tid, friend) == 1 and seat_of(c, tid, link) is None
        assert c.get(f"/api/tables/{tid}").json()["version"] >= v
        play_as(c, tid, {0: mine, 1: friend})


def test_a_connection_whose_link_lost_the_seat_is_told_and_closed(client: TestClient) -> None:
    """Whoever opened a private link's websocket and lost the seat (its token changed under it, as when another
    process's taking wins) is told `seat_taken`, sees nothing more of the seat, and is disconnected."""
    res = create(client, game="polis", seed=3, claim=0, seats=[{"human": True}, {"human": True}])
    tid = res["id"]
    with client.websocket_connect(f"/ws/tables/{tid}?token={res['seats'][1]['token']}") as w:
        m = w.receive_json()
        while m["type"] != "state" or m["status"] != "playing":
            m = w.receive_json()
        mgr = client.app.state.manager  # type: ignore[attr-defined]  # an attribute the protocol or the app's state does not declare
        t = mgr.get(tid)

        def lose() -> None:  # what a catch-up from another process does to a seat this one lost in a race
            t.seats[1].token = "taken-elsewhere"
            t.seats_epoch += 1
            mgr._notify(t)

        client.portal.call(lose)  # type: ignore[union-attr]  # on the server's event loop
        e = w.receive_json()
        assert (e["type"], e["code"], e["detail"]) == ("error", "unauthorized", "seat_taken")
        with pytest.raises(WebSocketDisconnect) as gone:
            w.receive_json()
        assert gone.value.code == 4003


def test_names_that_look_the_same_are_told_apart_across_every_seat(client: TestClient) -> None:
    """Invisible marks (Default_Ignorable code points) are dropped and names are compared by their UTS #39
    confusable skeleton, bots' names included, ignoring case (issue 26 item 9)."""
    assert (
        clean_name("A\u034fd\ufe0fa\u17b4", "x") == "Ada"
        and clean_name("\u17b4\u034f", "Player 1") == "Player 1"
    )
    res = create(client, game="spqrisiko", players=5, seed=9, claim=0, seats=[
        {"human": True, "name": "Ada"}, {"human": True, "name": "\u0410da"}, {"human": True, "name": "A\u034fda"},
        {"bot": "random", "name": "ADA"}, {"human": True, "open": True}])  # fmt: skip
    names = [s["name"] for s in res["seats"]]
    assert names[:4] == ["Ada", "\u0410da (2)", "Ada (3)", "ADA (4)"], names
    j = client.post(
        f"/api/tables/{res['id']}/join", json={"name": "\u0430d\ufe0fa"}
    ).json()  # Cyrillic а, VS16
    assert client.get(f"/api/tables/{res['id']}").json()["seats"][j["seat"]]["name"] == "\u0430da (5)"
    # a person cannot take a bot's look either, nor a bot a person's
    res = create(client, game="polis", seed=9, seats=[{"bot": "random"}, {"human": True, "open": True}])
    j = client.post(f"/api/tables/{res['id']}/join", json={"name": "R\u0430nd\u043em"}).json()
    shown = client.get(f"/api/tables/{res['id']}").json()["seats"]
    assert shown[0]["name"] == "random" and shown[j["seat"]]["name"] == "R\u0430nd\u043em (2)"
    res = create(
        client, game="polis", seed=9, seats=[{"human": True, "name": "Bea"}, {"bot": "greedy", "name": "bea"}]
    )
    assert [s["name"] for s in res["seats"]] == ["Bea", "bea (2)"]


def test_links_never_come_from_the_host_header() -> None:
    """A request's Host header never makes a link (`Host: evil.example` gave a link to evil.example): links are
    relative (the web client puts its page's origin before them) unless the server was given its public
    address (`hegemon serve --public-url`). Issue 26 item 9."""
    body = {"game": "spqrisiko", "seed": 2, "claim": 0, "seats": [{"human": True}, {"human": True}, {"human": True, "open": True}],
            "players": 3}  # fmt: skip
    evil = {"Host": "evil.example", "X-Forwarded-Host": "evil.example"}
    for public, prefix in (
        (None, "/t/"),
        ("https://play.example.org/hegemon/", "https://play.example.org/hegemon/t/"),
    ):
        with TestClient(create_app(None, 0.0, public_url=public)) as c:
            r = c.post("/api/tables", json=body, headers=evil)
            assert r.status_code == 201, r.text
            res = r.json()
            tid = res["id"]
            j = c.post(f"/api/tables/{tid}/join", json={"name": "Cy"}, headers=evil).json()
            s = c.post(
                f"/api/tables/{tid}/seat", json={"token": res["seats"][1]["token"]}, headers=evil
            ).json()
            urls = [x["url"] for x in res["seats"] if x.get("url")] + [
                res["spectator_url"],
                j["url"],
                s["url"],
            ]
            assert len(urls) == 6 and all(u.startswith(prefix + tid) for u in urls), urls
            assert "evil" not in json.dumps([res, j, s])
    for bad in ("javascript:alert(1)", "ftp://x.example", "https://", "https://x.example/?a=1", "https://x.example/#f",
                "https://u:p@x.example", "https://x.example:port", "https://x.example/\nSet-Cookie: a"):  # fmt: skip
        with pytest.raises(ValueError, match="public URL"):
            public_base(bad)
    assert public_base("") == "" and public_base("http://127.0.0.1:8000/") == "http://127.0.0.1:8000"
