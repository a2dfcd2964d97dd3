"""The rollout search (`ai/rollout.py`): its spec and bounds, playouts that end the game with a real result,
shared luck between the candidates, the playout and time budgets, determinism, and no hidden cards read."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from hegemon.ai import RolloutBot, make_bot
from hegemon.ai.games import knowledge
from hegemon.ai.rollout import MAX_PLAYOUTS, parse_spec
from hegemon.ai.search import policy
from hegemon.core.errors import ConfigError
from hegemon.core.game import TERMINAL
from hegemon.core.record import run_game, state_digest

from .test_bots import advance, options
from .test_levels import _polis_battle, _polis_twin


def test_the_spec_names_the_budget_and_refuses_what_it_cannot_bound() -> None:
    bot = make_bot("rollout:5:candidates=3:samples=2", 1)
    assert isinstance(bot, RolloutBot)
    assert (bot.playouts, bot.candidates, bot.prior_samples, bot.time_limit) == (5, 3, 2, None)
    timed = make_bot("Rollout:4@0.5", 1)
    assert isinstance(timed, RolloutBot) and (timed.playouts, timed.time_limit) == (4, 0.5)
    assert parse_spec("")["playouts"] == 8  # `rollout` alone: 8 playouts a candidate
    for bad in (
        "rollout:0",
        f"rollout:{MAX_PLAYOUTS + 1}",
        "rollout:x",
        "rollout:4@y",
        "rollout:4:candidates=0",
        "rollout:4:candidates=65",
        "rollout:4:samples=x",
        "rollout:4:turns=2",
        "rollout:4:candidates",
        "rollout:4:diverse=2",
        "rollout:2:policy=401",
        "rollout:2:policy=-1",
        "rollout:2:policy=x",
        "rollout:8:screen=201",
        "rollout:8:screen=-1",
        "rollout:8:screen=x",
        "rollout:8:noise=51",
        "rollout:8:noise=-1",
        "rollout:8:noise=x",
        "rollout:8:replies=9",
        "rollout:8:replies=-1",
        "rollout:8:halving=1:replies=2",
    ):
        with pytest.raises(ConfigError):
            make_bot(bad, 1)


@pytest.mark.parametrize("name", ["polis", "spqrisiko"])
def test_a_playout_ends_the_game_and_scores_its_real_result(name: str) -> None:
    st = advance(name, 4, lambda s: len(s.legal_actions()) >= 3)
    me = st.current_player()
    know = knowledge(st)
    bot = RolloutBot(1)
    action = st.legal_actions()[0]
    before = state_digest(st)
    values = {bot.playout(st, me, know, action, random.Random(k)) for k in range(3)}
    assert state_digest(st) == before, "a playout works on a copy"
    # a finished game's result for the searcher, not the evaluation's guess: a win, a loss or a shared first place
    assert values <= {0.0, 1.0, 0.5, 1 / 3, 0.25, 0.2}, values
    # the same seed plays the same game (the shared luck of the candidates rests on it)
    assert bot.playout(st, me, know, action, random.Random(7)) == bot.playout(
        st, me, know, action, random.Random(7)
    )


def test_the_playout_policy_is_the_greedy_choice_and_the_defaults() -> None:
    st = advance("polis", 6, lambda s: len(s.legal_actions()) >= 4)
    know = knowledge(st)
    p = st.current_player()
    move = policy(st, p, know, random.Random(0))
    assert move in st.legal_actions()
    # a sub-choice the game settles by default is settled so, as the greedy bot does
    from hegemon.games.polis.rules import common

    sub = advance("polis", 6, lambda s: s.phase == common.MOVE and len(s.legal_actions()) >= 2, limit=6000)
    assert policy(sub, sub.current_player(), know, random.Random(0)) == know.auto_action(
        sub, sub.current_player()
    )


def test_noise_plays_one_of_the_best_few_that_often_and_reproducibly() -> None:
    from hegemon.ai.search import NOISE_TOP, one_ply_values

    assert parse_spec("8:noise=10")["noise"] == 10 and RolloutBot(1).noise == 0
    st = advance(
        "polis",
        6,
        lambda s: len(s.legal_actions()) >= 6 and knowledge(s).auto_action(s, s.current_player()) is None,
    )
    know = knowledge(st)
    p = st.current_player()
    off = 0
    for k in range(200):
        # the one-ply values the policy sees: the same generator, drawn the same way before the noise's draw
        values = one_ply_values(st, p, know, random.Random(k), 1)
        order = sorted(values, key=lambda av: -av[1])
        few = {a for a, _ in order[:NOISE_TOP]}
        assert policy(st, p, know, random.Random(k)) == order[0][0]  # no noise: the best (first of equals)
        pick = policy(st, p, know, random.Random(k), 50)
        assert pick in few and pick == policy(st, p, know, random.Random(k), 50)
        off += pick != order[0][0]
    # at 50% half the moves are drawn evenly from the best three: about a third of them not the best
    assert 30 <= off <= 110, off
    # with noise a whole search stays reproducible under one seed
    one, two = RolloutBot(4, playouts=2, noise=20), RolloutBot(4, playouts=2, noise=20)
    assert one.choose(st, p) == two.choose(st, p) and one.last_values == two.last_values


def test_the_candidates_share_their_luck_and_the_budget_binds() -> None:
    st = advance("polis", 8, lambda s: len(s.legal_actions()) >= 5)
    p = st.current_player()
    bot = RolloutBot(3, playouts=3, candidates=4)
    move = bot.choose(st, p)
    assert move in st.legal_actions()
    assert bot.last_rounds == 3 and bot.last_playouts == 3 * len(bot.last_values)
    assert len(bot.last_values) >= min(4, len(st.legal_actions()))
    assert bot.last_values[move] == max(bot.last_values.values())
    # the same move played out twice as two "candidates" with one seed gets one value: the candidates of a round
    # are played on the same determinization and dice
    know = knowledge(st)
    a = next(iter(bot.last_values))
    seeds = [random.Random(50 + k).getrandbits(64) for k in range(3)]
    first = [bot.playout(st, p, know, a, random.Random(s)) for s in seeds]
    again = [bot.playout(st, p, know, a, random.Random(s)) for s in seeds]
    assert first == again


def test_a_time_limit_stops_between_rounds_after_at_least_one() -> None:
    st = advance("polis", 8, lambda s: len(s.legal_actions()) >= 5)
    p = st.current_player()
    bot = RolloutBot(3, playouts=1000, candidates=3, time_limit=1e-6)
    assert bot.choose(st, p) in st.legal_actions()
    assert bot.last_rounds == 1  # one round always; the next is not begun once the time is spent


def test_deterministic_given_its_seed_and_the_state_is_untouched() -> None:
    st = advance("polis", 9, lambda s: len(s.legal_actions()) >= 4)
    p = st.current_player()
    before = state_digest(st)
    runs = []
    for _ in range(2):
        bot = RolloutBot(42, playouts=2, candidates=3)
        runs.append((bot.choose(st, p), bot.last_values, bot.rng.getstate()))
    assert runs[0] == runs[1]
    assert state_digest(st) == before


def test_it_never_reads_the_opponents_cards() -> None:
    st = _polis_battle()
    me = st.current_player()
    twin = _polis_twin(st)
    assert twin.view(me) == st.view(me) and twin.to_json() != st.to_json()
    a, b = RolloutBot(5, playouts=2, candidates=3), RolloutBot(5, playouts=2, candidates=3)
    assert a.choose(st, me) == b.choose(twin, me)
    assert a.last_values == b.last_values and a.last_playouts > 0
    assert a.rng.getstate() == b.rng.getstate()


def test_it_plays_a_whole_game_to_its_end() -> None:
    g, o = options("polis")
    bots = [RolloutBot(1, playouts=1, candidates=2), make_bot("greedy", 2)]
    st, _ = run_game(g, o, 2, [b.choose for b in bots], seats=["rollout:1:candidates=2", "greedy"])
    assert st.current_player() == TERMINAL and st.outcome() is not None


def test_halving_widens_the_root_with_the_budget_and_keeps_it() -> None:
    assert parse_spec("4:halving=1")["halving"] is True and parse_spec("4:halving=0")["halving"] is False
    for bad in ("rollout:4:halving=2", "rollout:4:halving=-1", "rollout:4:halving=yes"):
        with pytest.raises(ConfigError):
            make_bot(bad, 1)
    st = advance("polis", 8, lambda s: len(s.legal_actions()) >= 20)
    p = st.current_player()
    n = len(st.legal_actions())
    # 8 playouts x 4 candidates = 32 playouts: the best 8 moves are looked at (4 for the plain search)
    wide = RolloutBot(3, playouts=8, candidates=4, halving=True)
    move = wide.choose(st, p)
    assert move in st.legal_actions()
    assert len(wide.last_values) >= min(8, n) > 4
    # phases of w, w/2, ... moves, each with an even share of the 32 playouts (at least a round): the budget holds
    w = len(wide.last_values)
    phases = math.ceil(math.log2(w))
    sizes = [w]
    while len(sizes) < phases:
        sizes.append(math.ceil(sizes[-1] / 2))
    rounds = [max(1, 32 // (size * phases)) for size in sizes]
    assert wide.last_rounds == sum(rounds) and wide.last_playouts == sum(
        s * r for s, r in zip(sizes, rounds, strict=True)
    )
    assert wide.last_playouts <= 32 + w
    assert wide.last_values[move] == max(wide.last_values[a] for a in wide.last_values)
    # a small budget looks at `candidates` moves, no fewer
    small = RolloutBot(3, playouts=1, candidates=4, halving=True)
    assert small.choose(st, p) in st.legal_actions() and len(small.last_values) >= 4
    # the same seed, the same search
    again = RolloutBot(3, playouts=8, candidates=4, halving=True)
    assert again.choose(st, p) == move and again.last_values == wide.last_values


def test_halving_keeps_a_time_limit_one_round_a_phase() -> None:
    st = advance("polis", 8, lambda s: len(s.legal_actions()) >= 8)
    p = st.current_player()
    free = RolloutBot(3, playouts=4, candidates=4, halving=True)
    assert free.choose(st, p) in st.legal_actions()
    phases = math.ceil(math.log2(len(free.last_values)))
    assert free.last_rounds > phases  # 16 playouts over 4+ moves: more than a round a phase
    bot = RolloutBot(3, playouts=4, candidates=4, time_limit=1e-6, halving=True)
    assert bot.choose(st, p) in st.legal_actions()
    assert bot.last_rounds == phases  # one round a phase once its share of the time is spent


def test_diverse_candidates_take_the_best_of_each_kind_first() -> None:
    from hegemon.ai.rollout import by_kind
    from hegemon.games.polis.actions import MoveHoplites, MoveProxenos, Pass

    p1, p2, p3 = MoveProxenos("a"), MoveProxenos("b"), MoveProxenos("c")
    h1, h2 = MoveHoplites("x"), MoveHoplites("y")
    # the best of each kind in rank order, then the second of each, then the third; every move kept
    assert by_kind([p1, p2, p3, h1, Pass(), h2]) == [p1, h1, Pass(), p2, h2, p3]
    assert by_kind([h1, p1]) == [h1, p1] and by_kind([]) == []
    assert parse_spec("4:diverse=1")["diverse"] is True
    # on a real position: the six candidates hold six kinds where the ranking's six hold fewer
    st = advance(
        "polis", 8, lambda s: len({a.kind for a in s.legal_actions()}) >= 4 and len(s.legal_actions()) >= 12
    )
    p = st.current_player()
    plain = RolloutBot(3, playouts=1, candidates=4)
    wide = RolloutBot(3, playouts=1, candidates=4, diverse=True)
    assert plain.choose(st, p) in st.legal_actions() and wide.choose(st, p) in st.legal_actions()
    kinds = {a.kind for a in st.legal_actions()}
    assert len({a.kind for a in wide.last_values}) >= min(4, len(kinds))
    assert len({a.kind for a in wide.last_values}) >= len({a.kind for a in plain.last_values})


def test_the_playouts_may_be_played_by_the_tree_search() -> None:
    assert parse_spec("2:policy=40")["policy_iterations"] == 40
    assert RolloutBot(1).policy_iterations == 0  # the greedy policy unless asked
    st = advance("polis", 4, lambda s: len(s.legal_actions()) >= 3)
    me = st.current_player()
    know = knowledge(st)
    bot, greedy = RolloutBot(1, policy_iterations=10), RolloutBot(1)
    action = st.legal_actions()[0]
    before = state_digest(st)
    ends = [bot.play_out(st, me, know, action, random.Random(k)) for k in range(3)]
    # games played to their end, reproducible from the playout's seed, the position untouched
    assert all(e.current_player() == TERMINAL for e in ends)
    again = [bot.play_out(st, me, know, action, random.Random(k)) for k in range(3)]
    assert [state_digest(e) for e in ends] == [state_digest(e) for e in again]
    assert state_digest(st) == before
    assert [bot.playout(st, me, know, action, random.Random(k)) for k in range(3)] == [
        know.evaluate(e)[me] for e in ends
    ]
    # another policy plays them: on the same luck the greedy policy's games end elsewhere
    theirs = [greedy.play_out(st, me, know, action, random.Random(k)) for k in range(3)]
    assert [state_digest(e) for e in theirs] != [state_digest(e) for e in ends]
    assert bot.choose(st, me) in st.legal_actions()


def test_replies_judge_a_move_by_its_worst_answer() -> None:
    assert parse_spec("8:replies=3")["replies"] == 3 and RolloutBot(1).replies == 0
    from hegemon.games.polis.rules import common

    st = advance("polis", 8, lambda s: len(s.legal_actions()) >= 5 and s.phase == common.ACTION)
    p = st.current_player()
    know = knowledge(st)
    before = state_digest(st)
    bot = RolloutBot(3, playouts=2, candidates=3, replies=2)
    move = bot.choose(st, p)
    assert state_digest(st) == before and move in st.legal_actions()
    keep = list(bot.last_values)
    assert len(keep) >= 3 and set(bot.last_replies) == set(keep)
    assert any(bot.last_replies.values()), "some move leaves the opponent a choice"
    assert all(len(bs) <= 2 for bs in bot.last_replies.values())
    # every (move, reply) pair played out twice, a move without replies by its plain playouts
    assert bot.last_playouts == 2 * sum(max(1, len(bs)) for bs in bot.last_replies.values())
    assert bot.last_values[move] == max(bot.last_values.values())
    # a forced reply is played: two replies on the same luck end in different games, no reply is the plain playout
    a = next(x for x in keep if len(bot.last_replies[x]) == 2)
    b1, b2 = bot.last_replies[a]
    ends = [bot.play_out(st, p, know, a, random.Random(9), reply=b) for b in (b1, b2, None)]
    assert state_digest(ends[0]) != state_digest(ends[1])
    assert state_digest(ends[2]) == state_digest(bot.play_out(st, p, know, a, random.Random(9)))
    # the worst answer's mean, recomputed on the same seeds
    again = RolloutBot(3, playouts=2, candidates=3, replies=2)
    assert again.choose(st, p) == move and again.last_values == bot.last_values


def test_screen_ranks_every_root_move_by_short_playouts() -> None:
    from hegemon.ai.rollout import SCREEN_ROUNDS, WIDEST

    assert parse_spec("8:screen=20")["screen"] == 20
    assert RolloutBot(1).screen == 0  # one ply ranks the root unless asked
    st = advance("polis", 8, lambda s: len(s.legal_actions()) >= 12)
    me = st.current_player()
    know = knowledge(st)
    action = st.legal_actions()[0]
    # a short playout stops after its decisions (a cut game, valued by the evaluation), the full one at the end
    bot = RolloutBot(2, screen=6)
    cut = bot.play_out(st, me, know, action, random.Random(3), limit=6)
    assert cut.current_player() != TERMINAL
    assert bot.play_out(st, me, know, action, random.Random(3)).current_player() == TERMINAL
    before = state_digest(st)
    ranked = bot.ranked(st, me, know, st.legal_actions())
    screened = bot.screened(st, me, know, ranked)
    # every move kept, each once, reordered; the short playouts counted
    assert sorted(map(str, screened)) == sorted(map(str, ranked)) and len(set(screened)) == len(screened)
    assert bot.last_screened == SCREEN_ROUNDS * min(WIDEST, len(ranked))
    assert state_digest(st) == before
    # the order is the short playouts' mean value, best first: recomputed here on the same luck
    fresh = RolloutBot(2, screen=6)  # the same seed: the same determinization and the same screen seeds
    fresh.ranked(st, me, know, st.legal_actions())
    seeds = [fresh.rng.getrandbits(64) for _ in range(SCREEN_ROUNDS)]
    value = {
        a: sum(
            float(know.evaluate(fresh.play_out(st, me, know, a, random.Random(s), limit=6))[me])
            for s in seeds
        )
        for a in ranked
    }
    assert [value[a] for a in screened] == sorted(value.values(), reverse=True)
    # the search with a screen: a legal move, the same under one seed, and the screen's count reported
    one, two = RolloutBot(4, playouts=2, screen=6), RolloutBot(4, playouts=2, screen=6)
    a, b = one.choose(st, me), two.choose(st, me)
    assert a == b and a in st.legal_actions() and one.last_screened > 0
    assert RolloutBot(4, playouts=2).choose(st, me) in st.legal_actions()


def test_the_search_evaluation_chooses_the_playouts_per_side_and_reads_no_hidden_cards() -> None:
    """`eval=search`: the root's ranking and every playout move by the tree search's own evaluation for the side
    to move (Polis: its tuned weights, Athens' own set), so the playouts differ from greedy's; still honest and
    reproducible. A game whose search has no evaluation of its own (S.P.Q.RisiKo!) plays its plain one."""
    from hegemon.ai.games import polis as polis_bots
    from hegemon.ai.mcts import named_evaluation

    st = _polis_battle()
    me = st.current_player()
    know = knowledge(st)
    assert named_evaluation(know, "search") is polis_bots.search_evaluate_for
    bot = RolloutBot(3, playouts=3, evaluation="search")
    assert bot.chooser(know, 0) is polis_bots.search_evaluate_athens
    assert bot.chooser(know, 1) is polis_bots.search_evaluate
    assert parse_spec("8:eval=search")["evaluation"] == "search"
    twin = _polis_twin(st)
    a, b = RolloutBot(3, playouts=3, evaluation="search"), RolloutBot(3, playouts=3, evaluation="search")
    assert a.choose(st, me) == b.choose(twin, me)
    assert a.last_values == b.last_values and a.last_playouts > 0  # whatever the opponent holds
    plain = RolloutBot(3, playouts=3)
    plain.choose(st, me)
    assert plain.last_values != a.last_values  # the playouts' moves are the search's, not greedy's
    # S.P.Q.RisiKo! has no search evaluation of its own: eval=search is its plain evaluation
    sp = advance("spqrisiko", 4, lambda s: len(s.legal_actions()) >= 3)
    sknow = knowledge(sp)
    assert named_evaluation(sknow, "search")(0) is sknow.evaluate


def _polis_endings() -> dict[str, Any]:
    """The first Polis game of each way to end (`end_reason`), played to its end by the one-ply search evaluation
    (`mcts:1`), from seed 0 on until every way has come up."""
    g, o = options("polis")
    found: dict[str, Any] = {}
    for seed in range(60):
        bots = [make_bot("mcts:1", seed + k) for k in range(2)]
        st, _ = run_game(g, o, seed, [b.choose for b in bots], seats=["mcts:1", "mcts:1"])
        found.setdefault(st.end_reason, st)
        if len(found) == 3:
            break
    assert set(found) == {"final", "ostracism", "starved"}, sorted(found)
    return found


def test_margin_values_a_playout_by_how_much_it_wins_or_loses() -> None:
    """`margin=W`: (1 - W) of a playout's value is its result, W its final score margin through tanh; a win is
    still worth more than any loss, a bigger margin more than a smaller one, and a game ended by an elimination or
    a prestige loss is its result alone. `margin=0` (every level) is the result."""
    from hegemon.ai.rollout import MARGIN_SCALE

    assert parse_spec("8:margin=25")["margin"] == 25
    for bad in ("8:margin=51", "8:margin=-1", "8:margin=x"):
        with pytest.raises(ConfigError):
            parse_spec(bad)
    endings = _polis_endings()
    end = endings["final"]
    know = knowledge(end)
    out = end.outcome()
    w = out.winner
    assert w is not None
    lose = 1 - w
    gap = out.scores[w] - out.scores[lose]
    plain, bot = RolloutBot(1), RolloutBot(1, margin=20)
    assert (plain.value(end, w, know), plain.value(end, lose, know)) == (1.0, 0.0)
    won = 0.8 + 0.2 * 0.5 * (1 + math.tanh(gap / MARGIN_SCALE))
    lost = 0.2 * 0.5 * (1 + math.tanh(-gap / MARGIN_SCALE))
    assert bot.value(end, w, know) == pytest.approx(won)
    assert bot.value(end, lose, know) == pytest.approx(lost)
    assert 0.8 < bot.value(end, w, know) <= 1.0 and 0.0 <= bot.value(end, lose, know) < 0.2
    wider = end.clone()
    wider.pp[w] += 3  # the winner three points further ahead
    assert bot.value(wider, w, know) > bot.value(end, w, know)
    assert bot.value(wider, lose, know) < bot.value(end, lose, know)
    # an elimination is its result alone, whatever the scores
    for reason in ("ostracism", "starved"):
        gone = endings[reason]
        gw = gone.outcome().winner
        assert gw is not None
        assert (bot.value(gone, gw, know), bot.value(gone, 1 - gw, know)) == (1.0, 0.0)
    # the same playouts, valued so, can choose otherwise than by their results, and reproducibly
    st = advance("polis", 9, lambda s: len(s.legal_actions()) >= 4)
    p = st.current_player()
    runs = []
    for _ in range(2):
        m = RolloutBot(3, playouts=4, evaluation="search", margin=25)
        runs.append((m.choose(st, p), m.last_values))
    assert runs[0] == runs[1]
    r = RolloutBot(3, playouts=4, evaluation="search")
    r.choose(st, p)
    assert list(r.last_values) == list(runs[0][1])  # the same candidates, on the same luck
    assert r.last_values != runs[0][1]


def test_komi_values_a_playout_by_its_margin_over_the_decisions_mean() -> None:
    """`komi=W` (dynamic komi): W of a playout's value is its margin over the mean margin of all the decision's
    playouts that reached the last round, through tanh; an elimination's playout is its result alone. Where every
    move loses by much, the plain margin's tanh is flat and komi's is steep, so komi tells the moves apart more."""
    from hegemon.ai.rollout import MARGIN_SCALE

    assert parse_spec("8:komi=30")["komi"] == 30
    for bad in (
        "8:komi=51",
        "8:komi=-1",
        "8:komi=x",
        "8:komi=20:margin=20",
        "8:komi=20:halving=1",
        "8:komi=5:replies=2",
    ):
        with pytest.raises(ConfigError):
            parse_spec(bad)
    st = advance("polis", 9, lambda s: len(s.legal_actions()) >= 4)
    a, b = st.legal_actions()[:2]
    bot = RolloutBot(1, komi=40)
    # a: two losses by 12 and 10 points; b: a loss by 8 and a win by elimination (no margin)
    totals = bot.centred({a: [(0.0, -12.0), (0.0, -10.0)], b: [(0.0, -8.0), (1.0, None)]})
    assert bot.last_komi == pytest.approx(-10.0)
    squash = lambda m: 0.5 * (1.0 + math.tanh(m / MARGIN_SCALE))  # noqa: E731
    assert totals[a] == pytest.approx(0.4 * squash(-2.0) + 0.4 * squash(0.0))
    assert totals[b] == pytest.approx(0.4 * squash(2.0) + 1.0)
    # the same losses, by the plain margin and by komi: komi's gap between a narrower and a wider loss is larger
    gap_plain = 0.4 * (squash(-10.0) - squash(-12.0))
    k = bot.centred({a: [(0.0, -12.0)], b: [(0.0, -10.0)]})
    assert k[b] - k[a] > 5 * gap_plain > 0
    # on a real position: the same candidates on the same luck as the plain search, other values, reproducible
    p = st.current_player()
    runs = []
    for _ in range(2):
        m = RolloutBot(3, playouts=4, evaluation="search", komi=30)
        runs.append((m.choose(st, p), m.last_values, m.last_komi))
    assert runs[0] == runs[1]
    assert all(0.0 <= v <= 1.0 for v in runs[0][1].values())
    r = RolloutBot(3, playouts=4, evaluation="search")
    r.choose(st, p)
    assert list(r.last_values) == list(runs[0][1])
    assert r.last_values != runs[0][1]
