"""Bots never think on the event loop (issue 11 item 6): light bots in a thread pool, search bots in worker
processes under a global cap and a per-decision time budget, a failing bot never stalls its table."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

from hegemon.ai import make_bot
from hegemon.ai.greedy import GreedyBot
from hegemon.core.game import CHANCE, State
from hegemon.core.play import sample_chance
from hegemon.games import get_game
from hegemon.server.bots import BotRunner, Thinkers
from hegemon.server.protocol import CreateTable, ServerError
from hegemon.server.tables import TableManager
from tests.server.test_storage import in_thread


class WatchedGreedy(GreedyBot):
    """The real greedy bot, remembering the thread of each decision."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.threads: list[int] = []

    def choose(self, state: State, player: int) -> Any:
        self.threads.append(threading.get_ident())
        return super().choose(state, player)


def bot_table(m: TableManager, bot: str, seed: int = 3) -> Any:
    return m.create(
        CreateTable(game="spqrisiko", seed=seed, seats=[{"bot": bot}] * 3, options={"vp_target": 1000})
    )  # type: ignore[list-item]  # pydantic coerces the dicts


def test_greedy_bots_think_off_the_event_loop() -> None:
    m = TableManager()

    async def main() -> tuple[int, list[int]]:
        runner = BotRunner(m, 0.0, Thinkers(processes=False))
        t = bot_table(m, "greedy")
        bots = [WatchedGreedy(i) for i in range(3)]
        t.bots.update(enumerate(bots))
        runner.watch(t)
        while t.version < 60:
            await asyncio.sleep(0.01)
        await runner.stop()
        return threading.get_ident(), [x for b in bots for x in b.threads]

    loop_thread, threads = in_thread(main())
    assert len(threads) >= 5 and loop_thread not in threads


def test_searches_are_capped_over_all_tables_and_every_table_progresses() -> None:
    m = TableManager()
    thinkers = Thinkers(search_workers=1, search_budget=0.05, processes=False)

    async def main() -> list[int]:
        runner = BotRunner(m, 0.0, thinkers)
        tables = [bot_table(m, "mcts:normal", seed=i) for i in range(3)]
        starts = [t.version for t in tables]
        for t in tables:
            runner.watch(t)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not all(
            t.version >= s + 6 for t, s in zip(tables, starts, strict=True)
        ):
            await asyncio.sleep(0.05)
        await runner.stop()
        return [t.version - s for t, s in zip(tables, starts, strict=True)]

    moved = in_thread(main())
    assert thinkers.peak == 1  # never two searches at once with one worker
    assert all(n >= 6 for n in moved)  # first come, first served: no table starves


def decided_positions(game: str = "spqrisiko", every: int = 1) -> list[tuple[State, int]]:
    """Three positions with a choice to make, one every `every` decisions of a random game (later positions
    carry the caches the rules build as a game goes on: they travel to the worker with the state)."""
    g = get_game(game)
    s = g.new_game(g.parse_options({"players": 3} if game == "spqrisiko" else {}), 5)
    out = []
    import random

    rng = random.Random(0)
    seen = 0
    while len(out) < 3 and not s.is_terminal():
        p = s.current_player()
        if p == CHANCE:
            s.apply(sample_chance(s, rng))
            continue
        legal = s.legal_actions()
        if len(legal) > 1:
            seen += 1
            if seen % every == 0:
                out.append((s.clone(), p))
        s.apply(rng.choice(legal))
    return out


@pytest.mark.parametrize(("game", "every"), [("spqrisiko", 1), ("polis", 6)])
def test_a_search_bot_thinks_in_a_worker_process_and_chooses_as_it_would_in_place(
    game: str, every: int
) -> None:
    # Polis in mid-game: its board's movement tables hold UnitView objects by then, which the compiled build
    # could not unpickle in the worker (every search move of the web table fell back to a random one)
    positions = decided_positions(game, every)
    assert len(positions) == 3
    here = make_bot("mcts:30@0", 9)
    expected = [here.choose(s.clone(), p) for s, p in positions]
    thinkers = Thinkers(search_workers=1, search_budget=None, processes=True)
    there = make_bot("mcts:30@0", 9)

    async def main() -> list[Any]:
        return [await thinkers.choose(there, s.clone(), p) for s, p in positions]

    try:
        got = in_thread(main())
    finally:
        thinkers.shutdown()
    # the bot's generator comes back from the worker: the same choices, one after the other
    assert got == expected


def test_a_search_decision_keeps_to_the_time_budget() -> None:
    (s, p), *_ = decided_positions()
    thinkers = Thinkers(search_workers=1, search_budget=0.3, processes=False)
    bot = make_bot("mcts:10000000@0", 1)  # no budget of its own: it would search for hours

    async def main() -> float:
        t0 = time.perf_counter()
        a = await thinkers.choose(bot, s.clone(), p)
        assert a in s.legal_actions()
        return time.perf_counter() - t0

    try:
        assert in_thread(main()) < 10
    finally:
        thinkers.shutdown()


def test_a_failing_external_bot_at_a_table_is_a_logged_random_move(caplog: pytest.LogCaptureFixture) -> None:
    """Issue 25 item 6: a web client cannot seat an external bot (SERVER_BLOCKED_BOTS), but one seated by the
    operator's code that fails (unreachable, or answering HTTP 500, both real local addresses) never stalls its
    table: each failed decision is a random legal move and one warning line naming the bot and the failure."""
    from hegemon.ai.external import ExternalBot
    from tests.ai.test_bots import PathBot, free_port

    m = TableManager()
    failing = PathBot(status=500)
    urls = [f"http://127.0.0.1:{free_port()}/gone", f"http://127.0.0.1:{failing.port}/Broken"]

    async def main() -> Any:
        runner = BotRunner(m, 0.0, Thinkers(processes=False))
        t = bot_table(m, "random")
        t.bots.update({0: ExternalBot(urls[0], timeout=5), 1: ExternalBot(urls[1], timeout=5)})
        runner.watch(t)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not {0, 1} <= {e.actor for e in t.log}:
            await asyncio.sleep(0.01)
        await runner.stop()
        return t

    try:
        with caplog.at_level("WARNING", logger="hegemon.server.bots"):
            t = in_thread(main())
    finally:
        failing.close()
    assert {0, 1} <= {e.actor for e in t.log}, "the table went on past both failing bots"
    assert failing.paths and set(failing.paths) == {"/Broken"}
    fallbacks = [r for r in caplog.records if "playing a random legal move" in r.getMessage()]
    said = {r.getMessage().split(": ", 1)[1].rsplit(";", 1)[0] for r in fallbacks}
    assert said == {f"external bot at {urls[0]} is unreachable (Connection refused)",
                    f"external bot at {urls[1]} answered HTTP 500 Internal Server Error"}, said  # fmt: skip
    assert all(r.exc_info is None and r.levelname == "WARNING" for r in fallbacks)  # one line, no traceback


def test_the_table_offers_the_levels_and_a_level_thinks_in_seconds_there() -> None:
    from hegemon.ai.levels import LADDER, LEVELS, LevelBot
    from hegemon.server.tables import lobby_bots, web_bots

    offered = web_bots()
    assert "beginner" in offered and all(f"mcts:{n}" in offered for n in LEVELS)
    # the lobby lists each bot once: greedy is easy (still seated when a client names it)
    listed = lobby_bots()
    assert "greedy" in offered and "greedy" not in listed
    assert set(LADDER) <= set(listed) and len(listed) == len(set(listed))  # the lobby orders them (BOT_ORDER)
    assert not any(b.startswith("mcts:") and b.split(":", 1)[1] not in LEVELS for b in offered)
    # the rollout search only through the levels: a client cannot choose its budget
    assert not any(b.startswith("rollout") for b in offered)
    with pytest.raises(ServerError, match="unknown bot 'rollout:4096'"):
        TableManager().create(
            CreateTable(game="polis", seed=1, seats=[{"bot": "rollout:4096"}, {"bot": "greedy"}])
        )  # type: ignore[list-item]  # seats as JSON, as a client sends them
    m = TableManager()
    t = m.create(CreateTable(game="polis", seed=1, seats=[{"bot": "mcts:hard"}, {"bot": "beginner"}]))  # type: ignore[list-item]  # seats as JSON, as a client sends them
    bot = m.bot_for(t, 0)
    assert isinstance(bot, LevelBot) and bot.anytime  # seconds, with an iteration cap (ai/levels.py)
    assert bot.bot_for(t.state).time_limit == LEVELS["hard"].seconds
    assert m.bot_for(t, 1).name == "beginner"


@pytest.mark.parametrize(("game", "spec"), [("spqrisiko", "mcts:normal"), ("polis", "mcts:hard")])
def test_a_level_thinks_in_a_worker_process_and_chooses_as_it_would_in_place(game: str, spec: str) -> None:
    """The tree search (S.P.Q.RisiKo!) and the tree over full playouts (Polis's hard) alike."""
    positions = decided_positions(game)

    def level() -> Any:
        bot = make_bot(spec, 9)
        bot.time_limit = None  # type: ignore[attr-defined]  # iterations only: comparable choices
        return bot

    here = level()
    expected = [here.choose(s.clone(), p) for s, p in positions]
    thinkers = Thinkers(search_workers=1, search_budget=None, processes=True)
    there = level()

    async def main() -> list[Any]:
        return [await thinkers.choose(there, s.clone(), p) for s, p in positions]

    try:
        got = in_thread(main())
    finally:
        thinkers.shutdown()
    # the level's one generator comes back from the worker: the same choices, one after the other
    assert got == expected


@pytest.mark.parametrize("spec", ["beginner", "mcts:easy"])
def test_the_one_ply_levels_think_in_the_light_pool(spec: str) -> None:
    """The beginner, and easy (the greedy bot: ai/levels.py)."""
    positions = decided_positions("polis")
    thinkers = Thinkers(search_workers=1, search_budget=None, processes=True)
    bot = make_bot(spec, 4)

    async def main() -> list[Any]:
        return [await thinkers.choose(bot, s.clone(), p) for s, p in positions]

    try:
        got = in_thread(main())
        assert thinkers.pool is None  # no worker process started: it is as cheap as greedy
    finally:
        thinkers.shutdown()
    assert all(a in s.legal_actions() for a, (s, _) in zip(got, positions, strict=True))
