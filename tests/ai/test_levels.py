"""The named levels (`ai/levels.py`) and the beginner (`ai/beginner.py`): each level's budget and settings per
game, determinism under a seed, honesty about hidden information, the web table's seconds budget, and a
beginner that makes mistakes yet beats random play."""

from __future__ import annotations

import random
from typing import Any

import pytest
from scipy.stats import binomtest

from hegemon.ai import BeginnerBot, GreedyBot, MctsBot, RolloutBot, make_bot
from hegemon.ai.games import knowledge
from hegemon.ai.games import polis as polis_bots
from hegemon.ai.levels import LADDER, LEVELS, TABLE_CAP, Level, LevelBot
from hegemon.ai.search import one_ply_values
from hegemon.core.errors import ConfigError
from hegemon.core.game import CHANCE, TERMINAL
from hegemon.core.play import derive_seed, sample_chance
from hegemon.core.record import run_game, state_digest
from hegemon.games import get_game

from .test_bots import _spqr_hidden_twin, advance, options, spqr_cards_position

NAMED = [s for s in LADDER if s != "random"]


def _polis_battle() -> Any:
    """A Polis position in a battle: the mover's opponent holds combat cards the mover cannot see."""
    from hegemon.games.polis.rules.common import PLAY

    for seed in range(40):
        try:
            return advance("polis", seed, lambda s: s.phase == PLAY and s.battle_at >= 0, limit=4000)
        except AssertionError:
            continue
    raise AssertionError("no battle reached")


def _polis_twin(st: Any) -> Any:
    """The same Polis position with one of the opponent's combat cards swapped for another from the deck."""
    o = 1 - st.current_player()
    twin = st.clone()
    h = twin.hands[o]
    i = next(k for k in range(len(h)) if h[k])
    j = next(k for k in range(len(h)) if k != i and twin.deck[k] > 0)
    h[i] -= 1
    h[j] += 1
    twin.deck[j] -= 1
    twin.deck[i] += 1
    return twin


def _lab(spec: str, seed: int) -> Any:
    """The bot as the lab builds it: iteration budget only."""
    bot = make_bot(spec, seed)
    if getattr(bot, "time_limit", None) is not None:
        bot.time_limit = None  # type: ignore[attr-defined]  # search bots have a time limit; the protocol does not
    return bot


def test_levels_are_the_documented_budgets_per_game() -> None:
    assert LADDER == ("random", "beginner", "mcts:easy", "mcts:normal", "mcts:hard")
    polis = [LEVELS[n].budget("polis") for n in ("easy", "normal", "hard")]
    spqr = [LEVELS[n].budget("spqrisiko") for n in ("easy", "normal", "hard")]
    assert polis == [0, 40, 48] and spqr == [0, 8, 160]
    # easy is one ply in both games; above normal Polis's tree plays its leaves out to the end of the game,
    # S.P.Q.RisiKo!'s climbs by its budget
    assert [LEVELS[n].engine("polis") for n in LEVELS] == ["greedy", "mcts", "mcts"]
    assert [LEVELS[n].engine("spqrisiko") for n in LEVELS] == ["greedy", "mcts", "mcts"]
    assert [LEVELS[n].one_ply for n in LEVELS] == [True, False, False]
    # each level thinks longer than the one below, at the table as in the lab
    assert [LEVELS[n].seconds for n in LEVELS] == sorted(LEVELS[n].seconds for n in LEVELS)
    polis_state = get_game("polis").new_game(get_game("polis").parse_options({}), 1)
    g, o = options("spqrisiko")
    spqr_state = g.new_game(o, 1)
    # easy is the greedy bot itself (it thinks where greedy does at the web table), with greedy's settings
    easy = make_bot("mcts:easy", 1)
    assert isinstance(easy, GreedyBot) and easy.name == "greedy" and easy.samples == 4
    st = advance("polis", 11, lambda s: len(s.legal_actions()) >= 4)
    assert easy.choose(st, st.current_player()) == make_bot("greedy", 1).choose(st, st.current_player())
    few = make_bot("mcts:easy:samples=2", 1)
    assert isinstance(few, GreedyBot) and few.samples == 2
    normal = make_bot("mcts:normal", 1)
    assert isinstance(normal, LevelBot)
    p, s = normal.bot_for(polis_state), normal.bot_for(spqr_state)
    assert isinstance(p, MctsBot) and isinstance(s, MctsBot)
    assert (p.iterations, p.time_limit) == (40, LEVELS["normal"].seconds)
    assert (s.iterations, s.horizon_turns) == (8, None)  # S.P.Q.RisiKo!: the game's own horizon
    hard = make_bot("mcts:hard", 1)
    assert isinstance(hard, LevelBot)
    p, s = hard.bot_for(polis_state), hard.bot_for(spqr_state)
    assert isinstance(p, MctsBot) and isinstance(s, MctsBot)
    assert (p.iterations, p.to_end, p.time_limit) == (48, 1, LEVELS["hard"].seconds)
    assert (s.iterations, s.to_end) == (160, None)
    # its playouts by one ply on the tree search's own evaluation, Athens' set for Athens
    p.search(st, st.current_player())
    assert p._policy_eval == {0: polis_bots.search_evaluate_athens, 1: polis_bots.search_evaluate}
    # settings given after a level win over the level's, where the level's search has them
    turns = make_bot("mcts:hard:turns=1", 1)
    assert isinstance(turns, LevelBot) and isinstance(inner := turns.bot_for(spqr_state), MctsBot)
    assert inner.horizon_turns == 1
    assert isinstance(inner := turns.bot_for(polis_state), MctsBot) and inner.horizon_turns == 1
    assert inner.to_end == 1  # the level's own settings stay
    wide = make_bot("mcts:hard:candidates=3", 1)
    assert isinstance(wide, LevelBot) and isinstance(inner := wide.bot_for(polis_state), MctsBot)
    assert (inner.candidates, inner.iterations, inner.to_end) == (3, 48, 1)
    # a number is still a plain search
    assert isinstance(make_bot("mcts:300", 1), MctsBot)
    for bad in (
        "mcts:normal:depth=2",
        "mcts:easy:turns=1",  # one ply has no horizon
        "mcts:expertly",
        "beginner:t=0",
        "beginner:miss=1",
        "beginner:x=1",
        "beginner:samples=99",
    ):
        with pytest.raises(ConfigError):
            make_bot(bad, 1)


def test_a_level_one_ply_in_one_game_only_searches_in_the_other() -> None:
    """A level's engine is per game: one ply where it says `greedy`, the tree search elsewhere, one generator."""
    mixed = Level("mixed", {"polis": 0, "*": 3}, 0.0, engines={"polis": "greedy"})
    assert not mixed.one_ply  # so `mcts:NAME` would build a LevelBot, not a GreedyBot
    bot = LevelBot(mixed, 7)
    polis = advance("polis", 11, lambda s: len(s.legal_actions()) >= 4)
    g, o = options("spqrisiko")
    assert isinstance(bot.bot_for(polis), GreedyBot)
    assert isinstance(inner := bot.bot_for(g.new_game(o, 1)), MctsBot) and inner.iterations == 3
    p = polis.current_player()
    assert bot.choose(polis, p) == LevelBot(mixed, 7).choose(polis, p)  # seeded: the same move
    assert isinstance(bot.last, GreedyBot) and bot.last.rng is bot.rng


def test_at_the_table_a_level_thinks_in_seconds_with_an_iteration_cap() -> None:
    st = get_game("polis").new_game(get_game("polis").parse_options({}), 1)
    bot = make_bot("mcts:normal", 1)
    assert isinstance(bot, LevelBot)
    bot.anytime = True
    inner = bot.bot_for(st)
    assert isinstance(inner, MctsBot)
    assert inner.iterations == TABLE_CAP * LEVELS["normal"].budget("polis")
    assert inner.time_limit == LEVELS["normal"].seconds
    bot.time_limit = 0.05  # the server caps it with its search budget
    assert bot.bot_for(st).time_limit == 0.05
    # hard too: its tree over playouts capped at TABLE_CAP times the lab's iterations, seconds a move
    hard = make_bot("mcts:hard", 1)
    assert isinstance(hard, LevelBot)
    hard.anytime = True
    tree = hard.bot_for(st)
    assert isinstance(tree, MctsBot)
    assert (tree.iterations, tree.time_limit, tree.to_end) == (TABLE_CAP * 48, LEVELS["hard"].seconds, 1)
    # and a rollout level the same way: playouts a candidate capped at TABLE_CAP times the lab's
    rollout = LevelBot(Level("r", {"*": 8}, 1.5, engines={"*": "rollout"}), 1)
    rollout.anytime = True
    inner = rollout.bot_for(st)
    assert isinstance(inner, RolloutBot) and (inner.playouts, inner.time_limit) == (TABLE_CAP * 8, 1.5)
    with pytest.raises(ConfigError, match="rollout search, which has no setting horizon_turns"):
        LevelBot(Level("r", {"*": 8}, 1.5, engines={"*": "rollout"}), 1, {"horizon_turns": 2}).bot_for(st)


@pytest.mark.parametrize("name", ["polis", "spqrisiko"])
@pytest.mark.parametrize("spec", NAMED)
def test_each_level_is_deterministic_given_its_seed(name: str, spec: str) -> None:
    st = advance(name, 11, lambda s: len(s.legal_actions()) >= 4)
    p = st.current_player()
    before = state_digest(st)
    moves = []
    for _ in range(2):
        bot = _lab(spec, 42)
        moves.append((bot.choose(st, p), bot.rng.getstate()))
    assert moves[0] == moves[1]
    if isinstance(bot, LevelBot):
        assert bot.last is not None
        done = bot.last.last_rounds if isinstance(bot.last, RolloutBot) else bot.last.last_iterations
        assert done == bot.level.budget(name)
    assert state_digest(st) == before, "choosing must not change the state"


def test_polis_hard_plays_as_the_tree_over_full_playouts_spec() -> None:
    """`mcts:hard` at Polis and `mcts:48:end=1` are one search: the same moves, one generator seeded alike (so the
    lab's runs of either spec are the level's games)."""
    st = advance("polis", 11, lambda s: len(s.legal_actions()) >= 4)
    p = st.current_player()
    level, spec = _lab("mcts:hard", 5), _lab("mcts:48:end=1", 5)
    for _ in range(2):
        assert level.choose(st, p) == spec.choose(st, p)
        assert level.rng.getstate() == spec.rng.getstate()


@pytest.mark.parametrize("spec", NAMED)
def test_no_level_reads_the_polis_opponents_cards(spec: str) -> None:
    st = _polis_battle()
    me = st.current_player()
    twin = _polis_twin(st)
    assert twin.view(me) == st.view(me) and twin.to_json() != st.to_json()
    a, b = _lab(spec, 3), _lab(spec, 3)
    _same_thinking(a, b, st, twin, me)


@pytest.mark.parametrize("spec", NAMED)
def test_no_level_reads_the_spqr_hidden_cards(spec: str) -> None:
    st = spqr_cards_position()
    me = st.current_player()
    twin = _spqr_hidden_twin(st, me)
    assert twin.view(me) == st.view(me) and twin.to_json() != st.to_json()
    a, b = _lab(spec, 9), _lab(spec, 9)
    _same_thinking(a, b, st, twin, me)


def _same_thinking(a: Any, b: Any, st: Any, twin: Any, me: int) -> None:
    """Two bots with one seed think alike on two positions that differ only in what `me` cannot see: the same
    search statistics (a tree search's visits and values; a rollout search's playout values), move and
    generator state."""
    if isinstance(a, LevelBot) and isinstance(inner := a.bot_for(st), MctsBot):
        ra, rb = inner.search(st, me), b.bot_for(twin).search(twin, me)
        assert {k: (v.n, v.w) for k, v in ra.children.items()} == {
            k: (v.n, v.w) for k, v in rb.children.items()
        }
    else:
        assert a.choose(st, me) == b.choose(twin, me)
        if isinstance(a, LevelBot):
            assert a.last is not None and b.last is not None
            assert isinstance(a.last, RolloutBot) and a.last.last_playouts > 0
            assert a.last.last_values == b.last.last_values
    assert a.rng.getstate() == b.rng.getstate()


def _decisions(name: str, seed: int, count: int) -> list[Any]:
    """`count` positions with at least three choices, from greedy-vs-greedy games."""
    g, o = options(name)
    out: list[Any] = []
    k = 0
    while len(out) < count:
        st = g.new_game(o, seed + k)
        rng = random.Random(seed + k)
        bots = [GreedyBot(seed + k + j) for j in range(st.num_players)]
        for step in range(3000):
            p = st.current_player()
            if p == TERMINAL:
                break
            if p == CHANCE:
                st.apply(sample_chance(st, rng))
                continue
            if step % 7 == 0 and len(st.legal_actions()) >= 3 and len(out) < count:
                out.append(st.clone())
            st.apply(bots[p].choose(st, p))
        k += 1
    return out


def test_the_beginner_makes_mistakes_but_mostly_sensible_moves() -> None:
    positions = _decisions("polis", 21, 60)
    best = worst = 0
    chance = 0.0  # a uniform choice's expected count of best moves
    for i, st in enumerate(positions):
        p = st.current_player()
        know = knowledge(st)
        values = dict(one_ply_values(know.determinize(st, p, random.Random(i)), p, know, random.Random(i), 4))
        ranked = sorted(values, key=lambda a: -values[a])
        move = BeginnerBot(derive_seed(5, i)).choose(st, p)
        rank = ranked.index(move)
        chance += 1 / len(ranked)
        best += rank == 0
        worst += rank >= len(ranked) // 2
    # not greedy: it misses the best move (by one ply) in a good share of positions...
    assert best <= 50, best
    # ...nor random: it plays the best move far more often, and a move of the worse half far less often, than
    # a uniform choice would (bounded sample, fixed seeds; one-sided binomial tests at the uniform choice's mean
    # rate, conservative for a sum of unequal rates)
    n = len(positions)
    assert binomtest(best, n, chance / n, alternative="greater").pvalue < 0.001, (best, chance)
    assert binomtest(worst, n, 0.5, alternative="less").pvalue < 0.001, worst


def test_the_beginner_beats_random_and_loses_to_greedy_at_polis() -> None:
    """A small measured sample (benchmarks/bench_ladder.py has the figures with intervals)."""
    g, o = options("polis")
    score = {"random": 0.0, "greedy": 0.0}
    for rival in score:
        for i in range(12):
            specs = ["beginner", rival] if i % 2 == 0 else [rival, "beginner"]
            bots = [make_bot(s, derive_seed(i, j)) for j, s in enumerate(specs)]
            st, _ = run_game(g, o, 500 + i, [b.choose for b in bots], seats=specs)
            out = st.outcome()
            assert out is not None
            score[rival] += sum(1 for w in out.winners if specs[w] == "beginner") / len(out.winners)
    assert score["random"] >= 9, score  # of 12
    assert score["greedy"] <= 5, score
