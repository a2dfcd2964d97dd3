"""Every refusal a player can meet names its case (`detail`, with `args`), and the web client says each case in
English and Italian (err.<detail> in both dictionaries, with the same placeholders): issue 12 item 11."""

from __future__ import annotations

import json
import re
from pathlib import Path

from fastapi.testclient import TestClient

from hegemon.server.app import create_app
from hegemon.server.protocol import ServerError

SRC = Path(__file__).resolve().parents[2] / "src" / "hegemon"
WEB = SRC / "web"
EN: dict[str, str] = json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8"))
IT: dict[str, str] = json.loads((WEB / "i18n" / "it.json").read_text(encoding="utf-8"))


def details_in_the_server() -> set[str]:
    out: set[str] = set()
    for p in (SRC / "server").glob("*.py"):
        text = p.read_text(encoding="utf-8")
        out |= set(re.findall(r'detail="(\w+)"', text))
        out |= set(re.findall(r'_error\(send, \d+, [^\n]*, "(\w+)"\)', text))
    return out


def test_every_detail_the_server_sends_is_said_in_both_languages() -> None:
    details = details_in_the_server()
    assert {
        "turn_of",
        "stale",
        "rate_limit",
        "not_stored",
        "no_seat",
        "board",
        "over",
        "no_open_seat",
    } <= details
    for d in details:
        assert f"err.{d}" in EN and f"err.{d}" in IT, d
        names = lambda s: sorted(set(re.findall(r"\{(\w+)\}", s)))  # noqa: E731
        assert names(EN[f"err.{d}"]) == names(IT[f"err.{d}"]), d


def test_a_refusal_carries_its_case_and_arguments() -> None:
    e = ServerError(
        "not_your_turn", "it is the turn of seat 1, not of seat 0", detail="turn_of", args={"seat": 1}
    )
    assert e.to_json() == {"type": "error", "code": "not_your_turn", "message": "it is the turn of seat 1, not of seat 0",
                           "detail": "turn_of", "args": {"seat": 1}}  # fmt: skip
    assert "detail" not in ServerError("bad_request", "x").to_json()


def test_the_api_names_the_case_of_its_refusals(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'h.db'}", bot_delay=0)) as c:
        r = c.get("/api/tables/nosuchtable")
        assert r.status_code == 404 and r.json()["detail"] == "no_table"
        body = {"game": "polis", "seats": [{"human": True}, {"human": True}], "seed": 1}
        t = c.post("/api/tables", json=body).json()
        r = c.post(f"/api/tables/{t['id']}/join", json={"name": "Bo"})
        assert r.status_code == 400 and r.json()["detail"] == "no_open_seat"
        r = c.post("/api/tables", json={**body, "board_data": "not = [a board"})
        assert r.status_code == 400 and r.json()["detail"] == "board" and r.json()["args"]["msg"]
        r = c.post("/api/tables", json={**body, "players": 3})
        assert (
            r.status_code == 400
            and r.json()["detail"] == "players"
            and r.json()["args"] == {"lo": 2, "hi": 2, "n": 3}
        )
