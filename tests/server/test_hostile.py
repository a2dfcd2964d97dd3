"""The hostile-input suite of issue 11 (its websocket and REST parts): schemathesis over every endpoint of
`/openapi.json` (whatever endpoints exist when the test runs), with valid and deliberately invalid requests, and
Hypothesis over websocket messages and REST bodies built to hurt (deep nesting, lone surrogates in keys and
values, huge numbers, NaN, invalid UTF-8, oversize). The bar: 0 answers with a 5xx, every refusal a typed error,
every connection still usable afterwards, no table changed by a refusal."""

from __future__ import annotations

import json
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from hegemon.core.record import state_digest
from hegemon.server.app import create_app
from hegemon.server.protocol import ERROR_CODES, CreateTable
from hegemon.server.settings import ReadLimits, WsLimits

# no rate limit here: the fuzzers must reach the handlers, not the 429
APP = create_app(
    None,
    0.0,
    guard={"writes": (1e9, 1e9), "creates": (1e9, 1e9)},
    reads=ReadLimits(1e9, 1e9),
    ws_limits=WsLimits(messages=1e9, burst=1e9),
)  # every message answered: the fuzz is of their contents
_M = APP.state.manager
PLAYING = _M.create(CreateTable(game="spqrisiko", seed=1, seats=[{"human": True}] * 3))  # type: ignore[list-item]  # pydantic turns the dicts into SeatSpec
for _s in PLAYING.seats:
    _M.claim(PLAYING, _s.index)
WAITING = _M.create(CreateTable(game="polis", seed=2, seats=[{"human": True}, {"human": True, "open": True}]))
TABLE_IDS = [PLAYING.id, WAITING.id]

SCHEMA = schemathesis.openapi.from_asgi("/openapi.json", APP)
OPERATIONS = [r.ok() for r in SCHEMA.get_all_operations()]


def _has_input(op: Any) -> bool:
    return any(len(getattr(op, part, None) or ()) for part in ("path_parameters", "query", "body"))


# valid requests to every operation; invalid ones to every operation that takes any input
CASES = [(op, GenerationMode.POSITIVE) for op in OPERATIONS] + [
    (op, GenerationMode.NEGATIVE) for op in OPERATIONS if _has_input(op)
]


@pytest.mark.parametrize(("op", "mode"), CASES, ids=[f"{o.label}-{m.value}" for o, m in CASES])
def test_no_endpoint_answers_a_server_error(op: Any, mode: GenerationMode) -> None:
    assert len(OPERATIONS) >= 10  # every endpoint of the schema is here, new ones too

    @settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(case=op.as_strategy(generation_mode=mode), pick=st.integers(0, 3))
    def run(case: Any, pick: int) -> None:
        params = case.path_parameters or {}
        if "table_id" in params and pick < len(TABLE_IDS):  # real tables as often as made-up ids
            params["table_id"] = TABLE_IDS[pick]
        if "game" in params and pick < 2:
            params["game"] = ("spqrisiko", "polis")[pick]
        if isinstance(case.body, dict) and "token" in case.body and pick == 0:
            case.body["token"] = PLAYING.seats[0].token
        response = case.call()
        assert response.status_code < 500, (case.method, case.formatted_path, case.body, response.text[:300])
        if response.status_code >= 400:
            assert response.json()["code"] in ERROR_CODES, response.text[:300]

    before = (PLAYING.version, state_digest(PLAYING.state))
    try:
        run()
    except Unsatisfiable:
        # no invalid request can be written for some inputs (a free-text path parameter): then nothing to send
        assert mode is GenerationMode.NEGATIVE, op.label
    # a made-up token never moved the seated table (a real one may, through a legal move)
    if op.method.upper() != "POST" or not op.path.endswith("/actions"):
        assert (PLAYING.version, state_digest(PLAYING.state)) == before


# ------------------------------------------------------------------ hostile JSON, by websocket and by REST

surrogates = st.sampled_from(["\ud800", "\udfff", "\udc00x", "a\ud83d", "\ud83d\ud83d"])
keys = st.text(max_size=6) | surrogates
leaves = (
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12) | surrogates
)  # fmt: skip
values = st.recursive(
    leaves,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3),
    max_leaves=10,
)


def nest(depth: int, kind: str) -> str:
    return ("[" * depth + "]" * depth) if kind == "[" else ('{"a":' * depth + "1" + "}" * depth)


hostile_text = st.one_of(
    # valid JSON shapes with lone surrogates anywhere (json.dumps escapes them as \\udXXX)
    st.builds(lambda v, a: json.dumps({"version": v, "action": a}), st.integers(-2, 10**6) | values, values),
    st.builds(lambda d, k: nest(d, k), st.integers(30, 3000), st.sampled_from(["[", "{"])),
    st.builds(lambda d, k: '{"version": 0, "action": ' + nest(d, k) + "}", st.integers(30, 2000), st.sampled_from(["[", "{"])),
    st.builds(lambda n: '{"version": ' + "9" * n + ', "action": {}}', st.integers(20, 4000)),
    st.sampled_from(['{"version": NaN, "action": {}}', '{"version": Infinity}', '{"version": 0, "action": {"type": "pass"}',
                     '\ufeff{"version": 0, "action": {}}', '{"version": 0, "action": {}, "version": 1}', "[]", "null", '""']),
    st.text(max_size=60),
)  # fmt: skip
hostile_bytes = st.binary(max_size=60) | st.sampled_from(
    [b"\xff\xfe{}", b'{"version": 0, "action": {"\xed\xa0\x80": 1}}']
)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(
    msgs=st.lists(hostile_text | hostile_bytes, min_size=1, max_size=5), seat=st.sampled_from([0, 1, 2, None])
)
def test_websocket_fuzz_hostile_messages(msgs: list[str | bytes], seat: int | None) -> None:
    t = PLAYING
    token = t.seats[seat].token if seat is not None else None
    with TestClient(APP) as c:
        url = f"/ws/tables/{t.id}" + (f"?token={token}" if token else "")
        with c.websocket_connect(url) as w:
            assert w.receive_json()["type"] == "state"
            before = (t.version, state_digest(t.state))
            for raw in msgs:
                if isinstance(raw, bytes):
                    w.send_bytes(raw)
                else:
                    w.send_text(raw)
                reply = w.receive_json()
                while reply["type"] == "state":  # someone's legal move, by chance: the next one is the answer
                    reply = w.receive_json()
                assert reply["type"] == "error" and reply["code"] in ERROR_CODES, reply
            assert (t.version, state_digest(t.state)) == before
            # still usable: a plain refusal comes back
            w.send_text('{"version": -1, "action": {"type": "pass"}}')
            assert w.receive_json()["type"] == "error"


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(body=hostile_text | hostile_bytes, target=st.sampled_from(["", "/actions", "/join", "/seat"]))
def test_rest_fuzz_hostile_bodies(body: str | bytes, target: str) -> None:
    path = "/api/tables" + (f"/{PLAYING.id}{target}" if target else "")
    before = (PLAYING.version, state_digest(PLAYING.state), len(_M.tables))
    with TestClient(APP) as c:
        data = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body
        r = c.post(path, content=data, headers={"content-type": "application/json"})
    assert r.status_code < 500, (path, body, r.text[:300])
    if r.status_code >= 400:
        assert r.json()["code"] in ERROR_CODES
    if r.status_code >= 400 or target:
        assert (PLAYING.version, state_digest(PLAYING.state)) == before[:2]
