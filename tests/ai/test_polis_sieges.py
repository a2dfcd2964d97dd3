"""The Polis evaluation values sieges under every siege rule, on hand-built positions: a diceless siege is
worth more the closer it is to the Fortification, forcing is valued when it wins the polis (Sacrifice and
Diceless Sacrifice), and greedy starts a siege where it plainly pays under each rule."""

from __future__ import annotations

import random
from typing import Any

import pytest

from hegemon.ai import GreedyBot
from hegemon.ai.games import polis as know
from hegemon.core.game import CHANCE
from hegemon.core.play import sample_chance
from hegemon.games import get_game
from hegemon.games.polis.board import WHEAT
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
    assert st.board.p_fort[q] == 1
    siege = find(st, kind, "elis")
    assert GreedyBot(3).choose(st, s) == siege
