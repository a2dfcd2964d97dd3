"""The REST routes of the web table, each group a router: `games_router` (the games, their options and bots),
`tables_router` (tables: create, list, read, join, act, stop, delete, records, replays, glossaries, odds) over a
`Service`. Every refusal is a `ServerError` (its code, HTTP status and the OpenAPI responses: `protocol`)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import PlainTextResponse, Response

from hegemon.games import game_names, get_game
from hegemon.server import glossary
from hegemon.server.boards import UploadedBoard, check_board
from hegemon.server.bots import durable
from hegemon.server.odds import position_job
from hegemon.server.protocol import (
    ActionAccepted,
    ActionRequest,
    CreatedTable,
    CreateTable,
    CreatorRequest,
    GamesList,
    Joined,
    JoinRequest,
    TableDetail,
    TableSummary,
    TakeSeat,
    error_responses,
)
from hegemon.server.service import Service
from hegemon.server.table import MAX_REPLAY_LOG, REPLAY_LOG
from hegemon.server.tables import lobby_bots

ERRORS = error_responses()
"""Every typed error a table route may answer (its body, its codes by HTTP status): `protocol.ERRORS`."""


def games_router() -> APIRouter:
    r = APIRouter()

    @r.get("/api/games", response_model=GamesList, tags=["games"])
    async def games() -> dict[str, Any]:
        """The games, their options (with one-line help in English and Italian) and the bots."""
        out = []
        for name in game_names():
            g = get_game(name)
            out.append(
                {
                    "name": name,
                    "title": g.title,
                    "min_players": g.min_players,
                    "max_players": g.max_players,
                    "options": [o for o in g.describe_options() if o["name"] != "board"],
                    "preset_field": g.options_type.PRESET_FIELD,
                    "presets": g.options_type.PRESETS,
                    "boards": list(g.shipped_boards()),
                }
            )
        return {"games": out, "bots": lobby_bots()}

    return r


def tables_router(srv: Service) -> APIRouter:
    r = APIRouter()
    mgr, base = srv.mgr, srv.base

    board_checks = asyncio.Semaphore(1)

    @r.post("/api/tables", response_model=CreatedTable, status_code=201, responses=ERRORS, tags=["tables"])
    async def create_table(req: CreateTable, request: Request) -> dict[str, Any]:
        """Create a table; returns one private link (token) per open seat and a spectator link. A client has at
        most `TableLimits.max_tables_per_client` tables going (429 `too_many_tables`), the server at most
        `TableLimits.max_tables` (503 `server_full`)."""
        owner = request.client.host if request.client else "?"
        mgr.check_room(owner)  # before an upload is parsed
        board: UploadedBoard | None = None
        if req.board_data is not None and mgr.board_dir is not None:
            # parsing and validating a board file is bounded (under a second) but not instant: off the event
            # loop, one at a time, so a burst of uploads queues instead of taking every core from the tables
            async with board_checks:
                board = await asyncio.to_thread(check_board, req.game, req.board_data)
        t = mgr.create(req, board, owner)
        srv.unknown.pop(t.id, None)
        srv.watch(t)
        await durable(mgr, t)
        return srv.links(t) | {"creator_token": t.creator}

    @r.post("/api/tables/{table_id}/stop", response_model=ActionAccepted, responses=ERRORS, tags=["tables"])
    async def stop_table(table_id: str, req: CreatorRequest) -> dict[str, Any]:
        """The creator stops the table (creator token from the creation): no more moves, bots stop; it stays
        readable until it expires or is deleted."""
        await srv.have(table_id)
        t = mgr.get(table_id)
        mgr.stop(t, req.creator_token)
        await durable(mgr, t)
        return {"version": min(t.durable, t.version), "status": t.status}

    @r.post("/api/tables/{table_id}/delete", status_code=204, responses=ERRORS, tags=["tables"])
    async def delete_table(table_id: str, req: CreatorRequest) -> Response:
        """The creator deletes the table (creator token from the creation), from memory and from the database."""
        await srv.have(table_id)
        t = mgr.get(table_id)
        mgr.delete(t, req.creator_token)
        await durable(mgr)
        return Response(status_code=204)

    @r.get(
        "/api/tables", response_model=list[TableSummary], responses=error_responses(429, 503), tags=["tables"]
    )
    async def list_tables(request: Request) -> list[dict[str, Any]]:
        """Open and running tables, newest first (finished ones too, for their replays); not the lessons (one
        person's "Learn to play" tables)."""
        who = srv.reader(request)
        if srv.cluster is not None:
            t0 = time.perf_counter()
            await srv.cluster.fetch_recent(200)
            srv.budget.charge(who, time.perf_counter() - t0, floor=False)
        with srv.work(who):
            return mgr.listing()  # never one not stored

    @r.get("/api/tables/{table_id}", response_model=TableDetail, responses=ERRORS, tags=["tables"])
    async def table_detail(
        table_id: str, request: Request, token: str | None = Query(None, max_length=100)
    ) -> dict[str, Any]:
        """The table's view (public, or the seat's with its token), version, status and outcome."""
        who = srv.reader(request)
        await srv.have(table_id, who)
        with srv.work(who):
            t = mgr.get(table_id)
            seat = mgr.seat_of(t, token) if token else None
            return mgr.detail(t, seat)

    @r.post("/api/tables/{table_id}/join", response_model=Joined, responses=ERRORS, tags=["tables"])
    async def join(table_id: str, req: JoinRequest) -> dict[str, Any]:
        """Take the first free seat that is open to anyone; the token is minted now and only this answer has
        it. Private seats are taken through their link (`/seat`)."""
        await srv.have(table_id)
        t = mgr.get(table_id)
        s = mgr.join(t, req.name)
        srv.watch(t)
        await durable(mgr, t)
        return {"seat": s.index, "token": s.token, "url": f"{base}/t/{t.id}#seat={s.token}"}

    @r.post("/api/tables/{table_id}/seat", response_model=Joined, responses=ERRORS, tags=["tables"])
    async def take_seat(table_id: str, req: TakeSeat) -> dict[str, Any]:
        """Take the private seat whose link holds `token`, under `name` (a seat already taken keeps its name)."""
        await srv.have(table_id)
        t = mgr.get(table_id)
        s = mgr.take(t, req.token, req.name)
        srv.watch(t)
        await durable(mgr, t)
        return {"seat": s.index, "token": s.token, "url": f"{base}/t/{t.id}#seat={s.token}"}

    @r.post(
        "/api/tables/{table_id}/actions", response_model=ActionAccepted, responses=ERRORS, tags=["tables"]
    )
    async def act(table_id: str, req: ActionRequest) -> dict[str, Any]:
        """Play an action for the seat holding `token`, on the position of `version`."""
        await srv.have(table_id)
        v = mgr.submit(table_id, req.token, req.version, req.action, req.undos)
        t = mgr.get(table_id)
        srv.watch(t)
        await durable(mgr, t)
        return {"version": v, "status": t.status}

    @r.get(
        "/api/tables/{table_id}/record",
        response_class=PlainTextResponse,
        responses={**ERRORS, 200: {"content": {"application/x-ndjson": {}}}},
        tags=["tables"],
    )
    async def record(
        table_id: str, request: Request, token: str | None = Query(None, max_length=100)
    ) -> PlainTextResponse:
        """The game record as one JSON line (`hegemon replay --verify` accepts it once the game is over; while
        it runs, hidden parts are withheld: each action as the token's seat, or a spectator, saw it). Encoded a
        chunk at a time between turns of the event loop, and kept: a record is encoded once."""
        srv.read_limit(request)
        await srv.have(table_id)
        t = mgr.get(table_id)
        seat = mgr.seat_of(t, token) if token else None
        while not mgr.record_prepare(t, seat):
            await asyncio.sleep(0)
        return PlainTextResponse(mgr.record_line(t, seat) + "\n", media_type="application/x-ndjson")

    @r.get("/api/tables/{table_id}/replay", responses=ERRORS, tags=["tables"])
    async def replay(
        table_id: str,
        request: Request,
        step: int = Query(0, ge=0, le=10**7),
        token: str | None = Query(None, max_length=100),
        seat: int | None = Query(None, ge=0, le=4, description="Point of view in a finished game"),
        log: int = Query(REPLAY_LOG, ge=0, le=MAX_REPLAY_LOG, description="Log lines before the step"),
    ) -> dict[str, Any]:
        """The position after `step` actions, as the token's seat saw it (any seat once the game is over), with
        the `log` log lines just before it (`log_start`: the index of the first)."""
        srv.read_limit(request)
        await srv.have(table_id)
        t = mgr.get(table_id)
        who = mgr.seat_of(t, token) if token else None
        if t.finished and seat is not None and seat < len(t.seats):
            who = seat
        return mgr.replay_view(t, step, who, log)

    @r.get("/api/tables/{table_id}/glossary", responses=ERRORS, tags=["tables"])
    async def table_glossary(table_id: str, request: Request) -> dict[str, Any]:
        """The glossary of this table's board (the tooltips' numbers): a table created with a corrected board
        file has that file's cards, events and projects. Public data only (the board, never a deck's order)."""
        who = srv.reader(request)
        await srv.have(table_id, who)
        with srv.work(who):
            t = mgr.get(table_id)
            return glossary.for_table(t.name, t.game.board_name(t.options), t.state)

    @r.get("/api/tables/{table_id}/odds", responses=ERRORS, tags=["tables"])
    async def odds(
        table_id: str,
        request: Request,
        kind: str = Query("land", max_length=10),
        source: str | None = Query(None, max_length=40),
        target: str | None = Query(None, max_length=40),
        sea: str | None = Query(None, max_length=40),
        opponent: int | None = Query(None, ge=0, le=4),
        declared: int | None = Query(None, ge=1, le=200),
        stop_at: int | None = Query(None, ge=1, le=200),
        polis: str | None = Query(None, max_length=40),
    ) -> Response:
        """The odds of an attack (S.P.Q.RisiKo!) or a siege (Polis) in the table's current position: exact
        fractions, or (`"exact": false`: armies too large for exact arithmetic) floating point. Computed in a
        worker process, never on the event loop (see `hegemon.server.odds`); 503 `odds_busy`/`odds_timeout` when
        the workers are full or a computation overran its time, 429 when the client asks for more than its
        share."""
        who = srv.reader(request)
        await srv.have(table_id, who)
        with srv.work(who):
            t = mgr.get(table_id)
            q = {
                k: str(v)
                for k, v in {
                    "kind": kind, "source": source, "target": target, "sea": sea, "opponent": opponent,
                    "declared": declared, "stop_at": stop_at, "polis": polis,
                }.items()
                if v is not None
            }  # fmt: skip
            job = position_job(t.name, t.state, q)
        body, cpu = await srv.odds.answer(job, who)
        srv.budget.charge(who, cpu, floor=False)
        return Response(content=body, media_type="application/json")

    return r
