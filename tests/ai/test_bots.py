"""Bots: legality, determinism under a seed and an iteration budget, honesty about hidden information,
greedy beats random, the external HTTP bot."""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

import pytest
from scipy.stats import binomtest

from hegemon.ai import GreedyBot, MctsBot, make_bot
from hegemon.ai.external import ExternalBot, ExternalBotError, serve_bot
from hegemon.ai.games import knowledge
from hegemon.ai.levels import LevelBot
from hegemon.ai.mcts import parse_strength
from hegemon.core.errors import ConfigError
from hegemon.core.game import CHANCE, TERMINAL
from hegemon.core.play import derive_seed, sample_chance
from hegemon.core.record import run_game, state_digest, verify
from hegemon.games import get_game

SPQR_OPTS = {"random_deal": "true", "max_rounds": "30"}


def options(name: str) -> Any:
    g = get_game(name)
    return g, g.parse_options(SPQR_OPTS if name == "spqrisiko" else {})


def advance(name: str, seed: int, until: Any, limit: int = 20000) -> Any:
    """Play greedy-vs-greedy from `seed` until `until(state)` holds at a decision node."""
    g, o = options(name)
    st = g.new_game(o, seed)
    rng = random.Random(seed)
    bots = [GreedyBot(seed + k) for k in range(st.num_players)]
    for _ in range(limit):
        p = st.current_player()
        if p == TERMINAL:
            break
        if p != CHANCE and until(st):
            return st
        st.apply(sample_chance(st, rng) if p == CHANCE else bots[p].choose(st, p))
    raise AssertionError("position not reached")


@pytest.mark.parametrize("name", ["spqrisiko", "polis"])
@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:8"])
def test_bots_choose_only_legal_actions(name: str, spec: str) -> None:
    g, o = options(name)
    st = g.new_game(o, 3)
    rng = random.Random(3)
    bots = [make_bot(spec, k) for k in range(st.num_players)]
    decisions = 0
    for _ in range(600 if spec.startswith("mcts") else 3000):
        p = st.current_player()
        if p == TERMINAL:
            break
        if p == CHANCE:
            st.apply(sample_chance(st, rng))
            continue
        legal = st.legal_actions()
        a = bots[p].choose(st, p)
        assert a in legal, f"{spec} chose {a} not in legal actions"
        st.apply(a)
        decisions += 1
    assert decisions > 20


@pytest.mark.parametrize("name", ["spqrisiko", "polis"])
def test_same_seed_and_iterations_same_move(name: str) -> None:
    st = advance(name, 11, lambda s: len(s.legal_actions()) >= 4)
    p = st.current_player()
    before = state_digest(st)
    moves = {MctsBot(seed=42, iterations=60, time_limit=None).choose(st, p) for _ in range(3)}
    assert len(moves) == 1
    greedy = {GreedyBot(seed=42).choose(st, p) for _ in range(3)}
    assert len(greedy) == 1
    assert state_digest(st) == before, "choosing must not change the state"


def _spqr_hidden_twin(st: Any, me: int) -> Any:
    """The same position with another player's cards swapped with different ones from the deck."""
    twin = st.clone()
    for o in range(st.n):
        if o == me:
            continue
        h = twin.hands[o]
        for i in range(4):
            for j in range(4):
                if i != j and h[i] and twin.deck[j]:
                    h[i] -= 1
                    h[j] += 1
                    twin.deck[j] -= 1
                    twin.deck[i] += 1
                    return twin
    raise AssertionError("no card to swap")


def spqr_cards_position() -> Any:
    """A S.P.Q.RisiKo! decision in round 3 or later, with three choices or more, where another player holds
    cards (the hidden part a fair bot must not read)."""
    return advance(
        "spqrisiko",
        5,
        lambda s: (
            s.round >= 3
            and len(s.legal_actions()) >= 3
            and any(sum(s.hands[o]) for o in range(s.n) if o != s.current_player())
        ),
    )


def test_spqr_search_never_reads_hidden_cards() -> None:
    st = spqr_cards_position()
    me = st.current_player()
    twin = _spqr_hidden_twin(st, me)
    assert twin.to_json() != st.to_json()
    assert twin.view(me) == st.view(me)
    know = knowledge(st)
    assert (
        know.determinize(st, me, random.Random(1)).to_json()
        == know.determinize(twin, me, random.Random(1)).to_json()
    )
    a = MctsBot(seed=9, iterations=80, time_limit=None).search(st, me)
    b = MctsBot(seed=9, iterations=80, time_limit=None).search(twin, me)
    assert {k: (v.n, v.w) for k, v in a.children.items()} == {k: (v.n, v.w) for k, v in b.children.items()}
    assert GreedyBot(4).choose(st, me) == GreedyBot(4).choose(twin, me)


@pytest.mark.parametrize(
    ("turns", "finish", "playout", "to_end"),
    [(1, None, None, None), (2, None, None, None), (2, 1, None, None), (2, 2, 2, None), (1, None, None, 1)],
)
def test_polis_search_never_reads_the_opponents_cards(
    turns: int, finish: int | None, playout: int | None, to_end: int | None
) -> None:
    from hegemon.games.polis.rules.common import PLAY

    st = None
    for seed in range(40):
        try:
            st = advance("polis", seed, lambda s: s.phase == PLAY and s.battle_at >= 0, limit=4000)
            break
        except AssertionError:
            continue
    assert st is not None, "no battle reached"
    me = st.current_player()
    o = 1 - me
    twin = st.clone()
    h = twin.hands[o]
    i = next(k for k in range(len(h)) if h[k])
    j = next(k for k in range(len(h)) if k != i and twin.deck[k] > 0)
    h[i] -= 1
    h[j] += 1
    twin.deck[j] -= 1
    twin.deck[i] += 1
    assert twin.view(me) == st.view(me)
    assert twin.to_json() != st.to_json()
    kw = {"horizon_turns": turns, "finish": finish, "playout": playout, "to_end": to_end}
    a = MctsBot(seed=3, iterations=60, time_limit=None, **kw).search(st, me)  # type: ignore[arg-type]  # the settings' own types
    b = MctsBot(seed=3, iterations=60, time_limit=None, **kw).search(twin, me)  # type: ignore[arg-type]  # the settings' own types
    assert {k: (v.n, v.w) for k, v in a.children.items()} == {k: (v.n, v.w) for k, v in b.children.items()}


def test_polis_search_to_the_end_values_its_leaves_by_the_real_result() -> None:
    """`end=1`: every leaf is played out to the game's end and valued by its result (1 a win, 0 a loss, a share
    for a tie), so every root child's summed value is a multiple of a half; the plain search's are evaluations.
    Reproducible under an iteration budget."""
    st = advance("polis", 9, lambda s: len(s.legal_actions()) >= 4)
    me = st.current_player()
    runs = []
    for _ in range(2):
        bot = make_bot("mcts:24:end=1", 3)
        assert isinstance(bot, MctsBot) and bot.to_end == 1 and bot.time_limit is None
        root = bot.search(st, me)
        runs.append(({k: (v.n, v.w) for k, v in root.children.items()}, bot.last_simulated))
    assert runs[0] == runs[1]
    children, steps = runs[0]
    assert sum(n for n, _ in children.values()) == 24
    for n, w in children.values():
        assert all(abs(2 * x - round(2 * x)) < 1e-9 for x in w), w
        assert 0 <= w[me] <= n
    plain = MctsBot(seed=3, iterations=24, time_limit=None)
    proot = plain.search(st, me)
    assert any(abs(2 * v.w[me] - round(2 * v.w[me])) > 1e-6 for v in proot.children.values())
    assert steps > 10 * plain.last_simulated  # whole games played out, not one turn


def _leaf_points(
    finish: int | None, playout: int | None, turns: int = 1, iterations: int = 200
) -> list[tuple[int, int]]:
    """Where a Polis search values its leaves: (whose turn it is in the action phase, actions taken in it) at
    each leaf evaluation, from the start of a turn of the action phase."""
    from hegemon.ai.games import polis as know
    from hegemon.games.polis.rules.common import ACTION

    st = advance(
        "polis", 5, lambda s: s.phase == ACTION and s.n_actions == 0 and not any(s.passed) and s.round > 0
    )
    me = st.current_player()
    seen: list[tuple[int, int]] = []

    def evaluate(d: Any) -> list[float]:
        seen.append((d.active if d.phase == ACTION else -1, d.n_actions))
        return know.search_evaluate(d)

    bot = MctsBot(
        seed=1,
        iterations=iterations,
        time_limit=None,
        horizon_turns=turns,
        finish=finish,
        playout=playout,
        evaluate=evaluate,
    )
    bot.search(st, me)
    assert bot.last_iterations == iterations
    # the root's prior and the order of the others' actions are valued first: the leaves are the last calls
    return [(p if p < 0 else int(p == me), n) for p, n in seen[-iterations:]]


def test_polis_finish_values_every_leaf_where_the_horizons_last_turn_ends() -> None:
    # without it, a leaf the tree left after the turn's first action is valued there, in the middle of the turn
    plain = _leaf_points(None, None)
    assert (1, 1) in plain
    # with it (the cheap policy, so every evaluation is a leaf's), never: the turn is finished first
    finished = _leaf_points(2, None)
    assert all(p != 1 for p, _ in finished), set(finished)
    # two turns: valued once the opponent's reply is over too, never inside it
    assert all(p != 0 for p, _ in _leaf_points(2, None, turns=2))
    # a playout of one more turn: valued after it, so never in the searcher's own next turn either... nor in the reply
    after = _leaf_points(2, 1)
    assert all(p not in (0, 1) or n == 0 for p, n in after), set(after)


def test_polis_greedy_finish_is_deterministic_and_costs_more_than_the_tree_alone() -> None:
    from hegemon.games.polis.rules.common import ACTION

    st = advance(
        "polis", 5, lambda s: s.phase == ACTION and s.n_actions == 0 and not any(s.passed) and s.round > 0
    )
    me = st.current_player()
    runs = []
    for _ in range(2):
        bot = MctsBot(seed=2, iterations=80, time_limit=None, horizon_turns=2, finish=1)
        root = bot.search(st, me)
        runs.append(({k: (v.n, v.w) for k, v in root.children.items()}, bot.last_simulated))
    assert runs[0] == runs[1]
    plain = MctsBot(seed=2, iterations=80, time_limit=None, horizon_turns=2)
    plain.search(st, me)
    assert runs[0][1] > plain.last_simulated  # the greedy finish plays the horizon's remaining actions


def _depth(node: Any) -> int:
    return 1 + max((_depth(ch) for ch in node.children.values()), default=-1)


def test_polis_two_turn_horizon_searches_the_opponents_reply() -> None:
    from hegemon.games.polis.rules.common import ACTION

    # the start of a turn in the action phase, the opponent still playing
    st = advance(
        "polis", 5, lambda s: s.phase == ACTION and s.n_actions == 0 and not any(s.passed) and s.round > 0
    )
    me = st.current_player()
    one = MctsBot(seed=1, iterations=400, time_limit=None).search(st, me)
    two = MctsBot(seed=1, iterations=400, time_limit=None, horizon_turns=2).search(st, me)
    # one turn: the tree holds the searcher's two actions at most; two turns: the opponent's reply below them
    assert _depth(one) <= 2 < _depth(two)
    assert one.n == two.n == 400
    # the default is the one-turn horizon, move for move
    again = MctsBot(seed=1, iterations=400, time_limit=None, horizon_turns=1).search(st, me)
    assert {k: (v.n, v.w) for k, v in one.children.items()} == {
        k: (v.n, v.w) for k, v in again.children.items()
    }


def test_mcts_spec_takes_search_settings() -> None:
    bot = make_bot("mcts:2560:turns=2:c=0.7:prior=2:candidates=24", 1)
    assert isinstance(bot, MctsBot)
    assert (
        bot.iterations,
        bot.time_limit,
        bot.horizon_turns,
        bot.exploration,
        bot.prior_weight,
        bot.candidates,
    ) == (2560, None, 2, 0.7, 2.0, 24)
    # a named level takes settings too (ai/levels.py; tests/ai/test_levels.py)
    assert make_bot("mcts:normal:turns=2", 1).extra == {"horizon_turns": 2}  # type: ignore[attr-defined]  # a search bot: make_bot returns the Bot protocol
    fin = make_bot("mcts:160:turns=2:finish=2:playout=1", 1)
    assert isinstance(fin, MctsBot) and (fin.finish, fin.playout) == (2, 1)
    for bad in (
        "mcts:40:depth=3",
        "mcts:40:turns",
        "mcts:40:turns=two",
        "mcts:40:turns=0",
        "mcts:40:candidates=5000",
        "mcts:40:c=-1",
        "mcts:40:finish=3",
        "mcts:40:playout=5",
        "mcts:40:playout=0",
        "mcts:40:end=2",
        "mcts:40:end=0",
    ):
        with pytest.raises(ConfigError):
            make_bot(bad, 1)


def _match(name: str, a: str, b: str, games: int) -> float:
    g, o = options(name)
    wins = 0.0
    for i in range(games):
        n = o.players if hasattr(o, "players") else 2
        specs = [a if (j + i) % 2 == 0 else b for j in range(n)]
        bots = [make_bot(s, derive_seed(i, j)) for j, s in enumerate(specs)]
        st, rec = run_game(g, o, 1000 + i, [x.choose for x in bots], seats=specs)
        out = st.outcome()
        assert out is not None
        wins += sum(1 for w in out.winners if specs[w] == a) / len(out.winners)
        if i == 0:
            assert verify(g, rec) == []
    return wins


def test_greedy_beats_random_polis() -> None:
    wins = _match("polis", "greedy", "random", 30)
    # bounded sample, fixed seeds: greedy must win clearly more than half (one-sided binomial test)
    assert wins >= 24
    assert binomtest(int(wins), 30, 0.5, alternative="greater").pvalue < 0.001


def test_greedy_beats_random_spqrisiko() -> None:
    wins = _match("spqrisiko", "greedy", "random", 6)
    assert wins >= 5


def test_specs() -> None:
    assert parse_strength("25@0.5") == (25, 0.5)
    assert parse_strength("25") == (25, None)
    assert isinstance(make_bot("mcts:25", 1), MctsBot)
    assert isinstance(make_bot("mcts:normal", 1), LevelBot)  # a named level (ai/levels.py)
    with pytest.raises(ConfigError):
        make_bot("mcts:strong", 1)
    with pytest.raises(ConfigError):
        make_bot("nobody", 1)


def test_mcts_time_budget_stops_search() -> None:
    st = advance("spqrisiko", 2, lambda s: len(s.legal_actions()) >= 4)
    bot = MctsBot(seed=1, iterations=10**9, time_limit=0.2)
    bot.choose(st, st.current_player())
    assert 1 <= bot.last_iterations < 10**9


def test_external_bot_over_http() -> None:
    calls: list[int] = []

    def choose(request: dict[str, Any]) -> dict[str, Any]:
        calls.append(request["player"])
        assert "hand" in request["view"]  # the seat's own view
        return {"action": request["legal_actions"][-1]}

    server = serve_bot(choose)
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/move"
        g, o = options("polis")
        bots = [make_bot(f"external:{url}", 0), make_bot("random", 1)]
        st, rec = run_game(g, o, 7, [b.choose for b in bots])
        assert st.is_terminal()
        assert calls and set(calls) == {0}
        assert verify(g, rec) == []
    finally:
        server.shutdown()


@pytest.mark.parametrize(("name", "c", "pw"), [("polis", 0.5, 3.0), ("spqrisiko", 0.5, 3.0)])
def test_mcts_takes_the_games_search_settings(name: str, c: float, pw: float) -> None:
    st = advance(name, 4, lambda s: len(s.legal_actions()) >= 4)
    p = st.current_player()
    bot = MctsBot(seed=1, iterations=10, time_limit=None)
    bot.search(st, p)
    assert (bot._c, bot._pw) == (c, pw)
    explicit = MctsBot(seed=1, iterations=10, time_limit=None, exploration=0.1, prior_weight=0.0)
    explicit.search(st, p)
    assert (explicit._c, explicit._pw) == (0.1, 0.0), "an argument overrides the game's default"


def test_spqr_search_default_places_the_rest_of_the_pool_where_the_last_legionary_went() -> None:
    from hegemon.games.spqrisiko import actions as A
    from hegemon.games.spqrisiko import state as S

    st = advance("spqrisiko", 6, lambda s: s.phase == S.REINFORCE and s.pool >= 2)
    p = st.current_player()
    know = knowledge(st)
    first, *_, last = st.legal_actions()
    assert isinstance(first, A.Reinforce) and first != last
    assert know.tree_default(st, p, last) == last, "the search follows its own last placement"
    assert know.tree_default(st, p, None) is None, "a first placement is a real choice"
    # below the root the search resolves the whole pool that way, then stops at the next real choice
    bot = MctsBot(seed=2, iterations=30, time_limit=None, auto_inner=True)
    bot.search(st, p)
    d = st.clone()
    d.apply(last)
    bot._settle_defaults(d, last)
    assert d.phase != S.REINFORCE
    assert d.armies[st.board.province_index[last.province]] == (
        st.armies[st.board.province_index[last.province]] + st.pool
    )


def test_spqr_search_plans_the_turn_and_values_it_where_the_turn_ends() -> None:
    from hegemon.games.spqrisiko import state as S

    st = advance("spqrisiko", 6, lambda s: s.phase == S.REINFORCE and s.pool >= 2 and s.round >= 2)
    me = st.current_player()
    know = knowledge(st)
    bot = MctsBot(seed=3, iterations=40, time_limit=None)
    root = bot.search(st, me)
    assert bot._horizon and bot._auto
    assert sum(ch.n for ch in root.children.values()) == 40
    # a leaf finishes the turn by the defaults: the pool is placed, every later phase ended, and the
    # position is the one the next player (or the end of the game) finds
    d = know.determinize(st, me, random.Random(0))
    before = sum(d.armies[p] for p in range(st.board.n_provinces) if d.owner[p] == me)
    while d.phase == S.REINFORCE:
        d.apply(know.finish_default(d, me, None))
    after = sum(d.armies[p] for p in range(st.board.n_provinces) if d.owner[p] == me)
    assert after == before + st.pool, "the whole pool was placed"
    bot._finish_turn(d, know, None)
    assert d.terminal is not None or (d.current_player() not in (me, CHANCE) and d.order[d.turn] != me)


def test_spqr_leaf_turn_goes_on_attacking_with_a_clear_margin_only() -> None:
    from hegemon.ai.games.spqrisiko import SURE_MARGIN
    from hegemon.games.spqrisiko import actions as A
    from hegemon.games.spqrisiko import state as S

    def margins(st: Any) -> dict[Any, int]:
        idx = st.board.province_index
        return {
            a: st.armies[idx[a.source]] - 1 - st.armies[idx[a.target]]
            for a in st.legal_actions()
            if isinstance(a, A.Attack)
        }

    def best(s: Any) -> int | None:
        return max(margins(s).values(), default=None) if s.phase == S.LAND_ATTACK else None

    clear = advance("spqrisiko", 3, lambda s: (best(s) or 0) >= SURE_MARGIN + 1)
    got = knowledge(clear).finish_default(clear, clear.current_player(), None)
    m = margins(clear)
    assert got in m and m[got] == max(m.values()), "the attack with the largest margin"
    close = advance("spqrisiko", 3, lambda s: best(s) is not None and best(s) < SURE_MARGIN)
    assert knowledge(close).finish_default(close, close.current_player(), None) == A.DONE


def test_spqr_search_takes_the_default_for_dice_without_searching() -> None:
    from hegemon.games.spqrisiko import state as S

    st = advance("spqrisiko", 8, lambda s: s.phase == S.LAND_BATTLE and len(s.legal_actions()) >= 2)
    me = st.current_player()
    know = knowledge(st)
    bot = MctsBot(seed=1, iterations=50, time_limit=None)
    a = bot.choose(st, me)
    assert a == know.auto_action(st, me)
    assert bot.last_iterations == 0, "a sub-choice with a default is not searched"
    searched = MctsBot(seed=1, iterations=50, time_limit=None, auto_root=False)
    assert searched.choose(st, me) in st.legal_actions()
    assert searched.last_iterations == 50


def test_turn_planning_options_work_in_a_game_without_a_finishing_default() -> None:
    st = advance("polis", 5, lambda s: len(s.legal_actions()) >= 3)
    me = st.current_player()
    bot = MctsBot(seed=4, iterations=30, time_limit=None, turn_horizon=True, auto_inner=True, auto_root=True)
    a = bot.choose(st, me)
    assert a in st.legal_actions()
    assert bot._horizon and bot._auto and bot.last_iterations == 30


# ----------------------------------------------------------------- issue 25 item 6: external bots fail clearly


class PathBot:
    """A real local HTTP bot that remembers the path (with its query) of each request and answers with `answer`
    (an HTTP status code, a body, and optionally a delay)."""

    def __init__(self, status: int = 200, body: bytes | None = None, delay: float = 0.0) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        self.paths: list[str] = []
        bot = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                bot.paths.append(self.path)
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                time.sleep(delay)
                data = body if body is not None else json.dumps({"index": 0}).encode()
                self.send_response(status)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def free_port() -> int:
    """A port nothing listens on (bound, then released)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def decision_state() -> Any:
    return advance("polis", 3, lambda s: len(s.legal_actions()) >= 2)


def test_an_external_bot_url_keeps_its_case_and_the_kind_does_not_care() -> None:
    srv = PathBot()
    try:
        st = decision_state()
        bot = make_bot(f"EXTERNAL:http://127.0.0.1:{srv.port}/MyBot?Key=ABC", 0)
        assert bot.choose(st, st.current_player()) == st.legal_actions()[0]
        assert srv.paths == ["/MyBot?Key=ABC"]
    finally:
        srv.close()
    assert make_bot("Mcts:HARD", 0).level is make_bot("mcts:hard", 0).level  # type: ignore[attr-defined]  # a level bot: make_bot returns the Bot protocol
    assert make_bot("Greedy", 0).name == "greedy"


@pytest.mark.parametrize(
    ("server", "problem"),
    [
        (None, r"is unreachable \(Connection refused\)"),
        ({"status": 500, "body": b"boom"}, r"answered HTTP 500 Internal Server Error"),
        ({"body": b"<html>not json"}, r"answered something that is not JSON: b'<html>not json'"),
        ({"body": b'{"index": 999}'}, r"answered no legal action: \{'index': 999\}"),
        ({"delay": 1.0}, r"did not answer within 0.2 s"),
    ],
)
def test_a_failing_external_bot_is_one_typed_line(server: dict[str, Any] | None, problem: str) -> None:
    srv = PathBot(**server) if server is not None else None
    url = f"http://127.0.0.1:{srv.port if srv else free_port()}/move"
    try:
        st = decision_state()
        before = state_digest(st)
        with pytest.raises(ExternalBotError) as info:
            ExternalBot(url, timeout=0.2).choose(st, st.current_player())
    finally:
        if srv is not None:
            srv.close()
    message = str(info.value)
    assert re.fullmatch(rf"external bot at {re.escape(url)} {problem}", message), message
    assert "\n" not in message and info.value.code == "external_bot" and info.value.url == url
    assert state_digest(st) == before  # nothing changed
    import pickle

    back = pickle.loads(pickle.dumps(info.value))  # as a lab worker process sends it back
    assert type(back) is ExternalBotError and str(back) == message


def test_serve_bot_answers_a_failing_choice_with_http_500() -> None:
    def choose(request: dict[str, Any]) -> dict[str, Any]:
        raise RuntimeError("the bot crashed")

    server = serve_bot(choose)
    try:
        st = decision_state()
        with pytest.raises(ExternalBotError, match="answered HTTP 500"):
            ExternalBot(f"http://127.0.0.1:{server.server_address[1]}/").choose(st, st.current_player())
    finally:
        server.shutdown()


@pytest.mark.parametrize("url", ["ftp://example.org/", "http://", "localhost:8000/move"])
def test_an_external_bot_needs_an_http_url(url: str) -> None:
    with pytest.raises(ConfigError, match="external bot needs an http"):
        make_bot(f"external:{url}", 0)
