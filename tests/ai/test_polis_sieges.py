"""The Polis evaluation values sieges under every siege rule, on hand-built positions: a diceless siege is
worth more the closer it is to the Fortification, forcing is valued when it wins the polis (Sacrifice and
Diceless Sacrifice), and greedy starts a siege where it plainly pays under each rule."""

from __future__ import annotations

import random
from typing import Any

import pytest

from hegemon.ai import GreedyBot, MctsBot
from hegemon.ai.games import polis as know
from hegemon.core.game import CHANCE
from hegemon.core.play import sample_chance
from hegemon.games import get_game
from hegemon.games.polis.board import WHEAT
from hegemon.games.polis.options import CLASSIC, DICELESS, DICELESS_SACRIFICE, SACRIFICE
from hegemon.games.polis.rules import common

RULES = ("classic", "sacrifice", "diceless", "diceless_sacrifice")


def action_phase(rule: str, seed: int = 4) -> Any:
    """A real game under `rule`, played by greedy up to the first action-phase decision."""
    g = get_game("polis")
    st = g.new_game(g.parse_options({"siege": rule}), seed)
    rng = random.Random(seed)
    bots = [GreedyBot(seed), GreedyBot(seed + 1)]
    for _ in range(2000):
        p = st.current_player()
        if p == CHANCE:
            st.apply(sample_chance(st, rng))
            continue
        if st.phase == common.ACTION:
            return st
        st.apply(bots[p].choose(st, p))
    raise AssertionError("no action phase reached")


def place(st: Any, polis: str, hoplites: int, pp: int = 5) -> tuple[int, int, int]:
    """Put `hoplites` of the side to move in the territory of the neutral `polis`, none of the opponent's;
    the side's prestige set to `pp` and wheat enough to feed new cubes. Returns (side, polis index,
    territory)."""
    s = st.active
    q = st.board.polis_index[polis]
    t = st.board.p_terr[q]
    assert st.owner[q] < 0 and not st.board.p_capital[q]
    st.units[s][t] = hoplites
    st.units[1 - s][t] = 0
    st.pp[s] = pp
    st.res[s][WHEAT] = 20
    return s, q, t


def find(st: Any, kind: str, polis: str | None = None) -> Any:
    for a in st.legal_actions():
        if a.kind == kind and (polis is None or getattr(a, "polis", None) == polis):
            return a
    raise AssertionError(f"{kind} {polis} is not legal: {[a.kind for a in st.legal_actions()]}")


@pytest.mark.parametrize("rule", ["diceless", "diceless_sacrifice"])
def test_a_siege_at_three_of_four_discs_is_worth_more_than_at_one(rule: str) -> None:
    st = action_phase(rule)
    s, q, _ = place(st, "korinthos", 4)
    assert st.board.p_fort[q] == 4
    values = []
    for d in (0, 1, 2, 3):
        c = st.clone()
        c.discs[s][q] = d
        values.append(know.strength(c, s))
    assert values[1] < values[2] < values[3]
    assert values[3] - values[1] > 1.0  # two discs toward the Fortification are worth more than a point
    three = st.clone()
    three.discs[s][q] = 3
    one = st.clone()
    one.discs[s][q] = 1
    assert know.evaluate(three)[s] > know.evaluate(one)[s]
    # the risk of losing it: the same siege with too few hoplites left (the discs go) or contested is worth less
    short = three.clone()
    short.units[s][st.board.p_terr[q]] = 3
    contested = three.clone()
    contested.units[1 - s][st.board.p_terr[q]] = 2
    assert know.strength(short, s) < know.strength(contested, s) < know.strength(three, s)


def test_diceless_sacrifice_forcing_valued_when_it_wins_the_polis() -> None:
    st = action_phase("diceless_sacrifice")
    s, q, t = place(st, "korinthos", 4, pp=5)
    st.units[1 - s][t] = 1  # an opponent's hoplite there: waiting a turn for a free disc is a risk
    st.discs[s][q] = 2
    st.apply(find(st, "continue_siege", "korinthos"))  # the third disc; the tail may force the fourth
    assert st.phase == common.DS_FORCE and st.active == s
    force, stop = st.clone(), st.clone()
    force.apply(find(force, "force_siege"))
    stop.apply(find(stop, "stop_forcing"))
    assert force.owner[q] == s  # forcing took the polis
    assert know.evaluate(force)[s] > know.evaluate(stop)[s]
    # the option is already in the value of the position before the choice
    assert know.siege_value(st, s, q) > know.siege_value(stop, s, q)
    assert GreedyBot(1).choose(st, s).kind == "force_siege"
    # two discs short: the next action's disc plus one forced; without the prestige to force, worth less
    rich = stop.clone()
    rich.discs[s][q] = 2
    poor = rich.clone()
    poor.pp[s] = 0
    assert know.siege_value(poor, s, q) < know.siege_value(rich, s, q)


def test_sacrifice_forcing_valued_when_it_wins_the_polis() -> None:
    st = action_phase("sacrifice")
    s, q, _ = place(st, "korinthos", 5, pp=4)
    st.apply(find(st, "besiege", "korinthos"))
    roll = next(a for a, _ in st.chance_outcomes() if a.roll == 2)
    st.apply(roll)  # failed (2 < 4): the besieger may force with 1 PP and 2 hoplites
    assert st.phase == common.SACRIFICE_FORCE and st.active == s
    assert know.sacrifice_option(st, s) > 0
    force, stop = st.clone(), st.clone()
    force.apply(find(force, "force_siege"))
    stop.apply(find(stop, "stop_forcing"))
    assert force.owner[q] == s and stop.owner[q] < 0
    assert know.strength(st, s) > know.strength(stop, s)  # the open option is worth something
    assert know.evaluate(force)[s] > know.evaluate(stop)[s]
    assert GreedyBot(1).choose(st, s).kind == "force_siege"


@pytest.mark.parametrize("rule", RULES)
def test_greedy_starts_a_siege_where_it_plainly_pays(rule: str) -> None:
    """Elis (Fortification 1, base population 2) next to enough hoplites: one siege action takes it under
    every rule (a certain roll, or one disc), for 2 cubes; greedy takes it."""
    kind = "besiege" if rule in ("classic", "sacrifice") else "start_siege"
    st = action_phase(rule)
    s, q, _ = place(st, "elis", 2, pp=4)
    st.res[s] = [0] * len(st.res[s])  # nothing to build or trade with: the plain choice is the siege
    st.res[s][WHEAT] = 20
    for t in range(st.board.n_terr):  # and no other army to send toward another target first
        if t != st.board.p_terr[q]:
            st.units[s][t] = 0
    assert st.board.p_fort[q] == 1
    siege = find(st, kind, "elis")
    assert GreedyBot(3).choose(st, s) == siege


def alone_with(st: Any, territory: str, hoplites: int, pp: int = 4) -> int:
    """The side to move keeps only `hoplites` hoplites in `territory` (no other unit of its own, none of the
    opponent's there or in Eleia), `pp` prestige, and no resources but wheat enough to feed new cubes."""
    s = st.active
    b = st.board
    st.units[s] = [0] * b.n_terr
    st.units[s][b.terr_index[territory]] = hoplites
    for t in (territory, "eleia"):
        st.units[1 - s][b.terr_index[t]] = 0
    st.pp[s] = pp
    st.res[s] = [0] * len(st.res[s])
    st.res[s][WHEAT] = 20
    return s


def play_turn(st: Any, bot: Any, s: int) -> list[Any]:
    """`s`'s decisions until the turn passes to the opponent (chance sampled with a fixed seed)."""
    rng = random.Random(0)
    chosen = []
    while st.current_player() in (s, CHANCE) and st.phase != common.OVER and len(chosen) < 12:
        if st.current_player() == CHANCE:
            st.apply(sample_chance(st, rng))
            continue
        a = bot.choose(st, s)
        chosen.append(a)
        st.apply(a)
        if st.phase == common.ACTION and st.n_actions == 0:
            break
    return chosen


@pytest.mark.parametrize("rule", RULES)
def test_search_plans_a_move_then_the_siege(rule: str) -> None:
    """Two hoplites in Korinthia (Korinthos, F 4, out of their reach) and nothing else to do: the search plans
    the turn — move the army next to a polis it can take (Elis, F 1, or the opponent's Chalkis), then besiege
    it in the second action — under every rule. (One ply sees only the move's promise.)"""
    st = action_phase(rule)
    s = alone_with(st, "korinthia", 2)
    chosen = play_turn(st, MctsBot(5, iterations=150, time_limit=None), s)
    assert chosen[0].kind == "move_hoplites"
    dest = st.board.terr_index[chosen[0].to]
    sieges = [a for a in chosen if a.kind in ("besiege", "start_siege")]
    assert sieges, [str(a) for a in chosen]
    q = st.board.polis_index[sieges[0].polis]
    assert st.board.p_terr[q] == dest
    if rule in ("diceless", "diceless_sacrifice"):  # begun (a disc stays on it) or already taken
        assert st.owner[q] == s or st.discs[s][q] >= 1


def test_search_continues_a_diceless_sacrifice_siege_and_forces_when_it_pays() -> None:
    """Argos (F 3) under Diceless Sacrifice with one disc placed and four hoplites there: the search goes on
    with it — a continue (and forcing its last disc: 1 PP and a hoplite for the polis now) — and takes it."""
    st = action_phase("diceless_sacrifice")
    s, q, _ = place(st, "argos", 4, pp=4)
    st.res[s] = [0] * len(st.res[s])
    st.res[s][WHEAT] = 20
    st.discs[s][q] = 1
    chosen = play_turn(st, MctsBot(2, iterations=150, time_limit=None), s)
    assert chosen[0] == find_in(chosen, "continue_siege")
    assert st.owner[q] == s


def find_in(actions: list[Any], kind: str) -> Any:
    return next(a for a in actions if a.kind == kind)


def test_a_siege_within_reach_is_valued_by_its_expected_gain() -> None:
    """Argos (F 3) with four hoplites there: a d4 siege is a gamble (1/2), Sacrifice makes a failed roll
    forceable, so the same reach is worth more under it; under the diceless rules each disc is an action (and
    a start under Diceless Sacrifice costs 1 PP). With the opponent in control (classic needs control) or
    too few hoplites, no siege is within reach."""
    values = {}
    for rule in RULES:
        st = action_phase(rule)
        s, q, t = place(st, "argos", 4, pp=5)
        values[rule] = know.reach_value(st, s, q)
        assert values[rule] > 0
        short = st.clone()
        short.units[s][t] = 2
        assert know.reach_value(short, s, q) == 0
        if rule in ("classic", "sacrifice"):
            held = st.clone()
            held.units[1 - s][t] = 5
            assert know.reach_value(held, s, q) == 0
    # the same position read under each rule (the positions above come from different games)
    st = action_phase("classic")
    s, q, _ = place(st, "argos", 4, pp=5)
    same = {}
    for rule, mode in (("classic", CLASSIC), ("sacrifice", SACRIFICE), ("diceless", DICELESS),
                       ("diceless_sacrifice", DICELESS_SACRIFICE)):  # fmt: skip
        c = st.clone()
        c.siege_rule = mode
        same[rule] = know.reach_value(c, s, q)
    assert same["sacrifice"] > same["classic"] > 0
    assert same["diceless"] > 0 and same["diceless_sacrifice"] > 0


def test_prestige_paid_down_to_zero_at_the_end_of_a_round_is_a_lost_game() -> None:
    """In the phoros step the side may turn prestige into silver; at 0 PP it is ostracised when the round
    ends (§9.1): the evaluation counts that as lost and greedy keeps a prestige point."""
    g = get_game("polis")
    st = g.new_game(g.parse_options({}), 11)
    rng = random.Random(11)
    bots = [GreedyBot(11), GreedyBot(12)]
    for _ in range(20000):
        p = st.current_player()
        if p == CHANCE:
            st.apply(sample_chance(st, rng))
            continue
        if st.phase == common.PHOROS and st.pp[p] >= 2:
            break
        st.apply(bots[p].choose(st, p))
    else:
        raise AssertionError("no phoros with prestige to spend")
    s = st.active
    everything = next(a for a in st.legal_actions() if a.amount == st.pp[s])
    broke = st.clone()
    broke.apply(everything)
    if broke.phase != common.OVER:
        assert know.lost_at_round_end(broke, s)
        assert know.evaluate(broke)[s] < 0.05
    assert GreedyBot(1).choose(st, s).amount < st.pp[s]


@pytest.mark.parametrize("rule", RULES)
def test_a_siege_within_reach_weighs_more_for_the_side_whose_turn_comes_next(rule: str) -> None:
    """At the end of a turn the opponent can make his best siege within reach at once: it counts `REACH_MOVER`
    of its gain for him (once, the best one), `REACH` in the middle of the other side's turn — so a turn that
    leaves a polis open to a siege reads as the danger it is."""
    st = action_phase(rule)
    s, q, _ = place(st, "korinthos", 5, pp=4)
    gain = know.reach_gain(st, s, q)
    assert gain > 0
    fresh = st.clone()  # s's turn starts: no action taken yet
    fresh.n_actions = 0
    mid = st.clone()  # the other side is in the middle of its turn: s cannot siege before it ends
    mid.active = 1 - s
    mid.n_actions = 1
    bonus = (know.REACH_MOVER - know.REACH) * gain
    assert know.REACH_MOVER > know.REACH
    assert know.strength(fresh, s) == pytest.approx(know.strength(mid, s) + bonus, abs=1e-9)
    # in the middle of its own turn the bonus is gone: it must not read as a reason to put the siege off
    own = st.clone()
    own.n_actions = 1
    assert know.strength(own, s) == pytest.approx(know.strength(mid, s), abs=1e-9)
