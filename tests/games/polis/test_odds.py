"""Siege odds (`hegemon odds polis-siege`): exact values, the seed's examples, and agreement with the engine's
own rules by exhaustive enumeration of its chance nodes."""

from __future__ import annotations

from fractions import Fraction

import pytest

from hegemon.core.errors import ConfigError
from hegemon.games.polis import actions as A
from hegemon.games.polis.odds import siege_odds
from hegemon.games.polis.rules.common import ACTION, SACRIFICE_FORCE

from .fixtures import ATHENS, Q, scenario


def frac(d):
    return Fraction(d["fraction"])


def test_classic_values():
    assert frac(siege_odds(1, 1, "classic", 1)["success"]) == 1
    assert frac(siege_odds(3, 4, "classic", 5)["success"]) == Fraction(3, 4)  # two tries at 1/2
    assert frac(siege_odds(4, 4, "classic", 5)["success"]) == Fraction(1, 4)
    assert frac(siege_odds(2, 5, "classic", 1)["success"]) == Fraction(3, 4)  # one PP: one try
    assert frac(siege_odds(3, 2, "classic", 5)["success"]) == 0
    r = siege_odds(2, 3, "classic", 3)
    # tries: 3 → 2 hoplites; P = 3/4 + 1/4·3/4 = 15/16; PP spent 1 + 1/4; hoplites lost 1/4 + 1/16
    assert frac(r["success"]) == Fraction(15, 16)
    assert frac(r["expected_pp_spent"]) == Fraction(5, 4)
    assert frac(r["expected_hoplites_lost"]) == Fraction(5, 16)
    assert r["success"]["decimal"] == pytest.approx(15 / 16)


def test_sacrifice_worked_example_values():
    """Seed: F 3 with 3 hoplites: a failed roll of 1 or 2 can always be forced when 1 PP is left."""
    r = siege_odds(3, 3, "sacrifice", 2)
    assert frac(r["success"]) == 1
    assert frac(r["expected_hoplites_lost"]) == Fraction(1, 4) * 3 + Fraction(1, 4) * 2
    assert frac(r["expected_pp_spent"]) == Fraction(3, 2)
    assert frac(siege_odds(3, 3, "sacrifice", 1)["success"]) == frac(
        siege_odds(3, 3, "classic", 1)["success"]
    )


def test_opponents_polis_population_on_capture():
    r = siege_odds(2, 2, "classic", 2, neutral=False, population=3)
    # one try (2 hoplites → 1 after a failure): success keeps 3 cubes
    assert frac(r["expected_population_on_capture"]) == 3
    r = siege_odds(2, 3, "classic", 2, neutral=False, population=3)
    # 3/4 at 3 cubes, then 1/4·3/4 at 2 cubes
    assert frac(r["expected_population_on_capture"]) == (Fraction(3, 4) * 3 + Fraction(3, 16) * 2) / Fraction(
        15, 16
    )


def test_diceless_plans_match_the_seed():
    r = siege_odds(4, 5, "diceless_sacrifice", 6)
    plans = {p["actions"]: p for p in r["plans"]}
    assert (plans[1]["pp_spent"], plans[1]["hoplites_lost"]) == (4, 3)  # "4 PP and 3 hoplites"
    assert (plans[2]["pp_spent"], plans[2]["hoplites_lost"], plans[2]["hoplites_left"]) == (3, 2, 3)
    assert (plans[4]["pp_spent"], plans[4]["hoplites_lost"]) == (1, 0)
    assert all(p["feasible"] for p in r["plans"])
    r = siege_odds(4, 5, "diceless_sacrifice", 2)
    assert [p["feasible"] for p in sorted(r["plans"], key=lambda p: p["actions"])] == [
        False,
        False,
        True,
        True,
    ]
    d = siege_odds(3, 3, "diceless", 0)
    assert d["plans"] == [d["plans"][0]] and d["plans"][0]["actions"] == 3 and d["plans"][0]["net_pp"] == 2
    assert siege_odds(3, 2, "diceless", 0)["success"]["fraction"] == "0/1"


def test_bad_arguments_raise_config_error():
    with pytest.raises(ConfigError, match="siege"):
        siege_odds(3, 3, "ram", 1)
    with pytest.raises(ConfigError, match="fortification"):
        siege_odds(0, 3, "classic", 1)
    with pytest.raises(ConfigError, match="fortification"):
        siege_odds(5, 3, "classic", 1)
    with pytest.raises(ConfigError, match="hoplites"):
        siege_odds(3, -1, "classic", 1)


def _engine_success(st, target: str, force: bool) -> Fraction:
    """Exact probability that the engine's besieger takes `target` repeating the siege while legal (one per
    turn, as the odds assume), forcing whenever offered — enumerating every chance outcome."""
    if st.owner[Q(st, target)] == ATHENS:
        return Fraction(1)
    if st.phase == SACRIFICE_FORCE:
        nxt = st.clone()
        nxt.apply(A.ForceSiege() if force else A.StopForcing())
        return _engine_success(nxt, target, force)
    if st.current_player() == -1:
        total = Fraction(0)
        for a, p in st.chance_outcomes():
            nxt = st.clone()
            nxt.apply(a)
            total += Fraction(p).limit_denominator(64) * _engine_success(nxt, target, force)
        return total
    # a new turn for the besieger
    st = st.clone()
    st.phase, st.active, st.n_actions, st.tokens = ACTION, ATHENS, 0, []
    if A.Besiege(target) not in st.legal_actions():
        return Fraction(0)
    st.apply(A.Besiege(target))
    return _engine_success(st, target, force)


@pytest.mark.parametrize(
    ("siege", "terr", "polis", "hop", "pp"),
    [
        ("classic", "boiotia", "thebai", 3, 3),
        ("classic", "korinthia", "korinthos", 5, 4),
        ("sacrifice", "boiotia", "thebai", 3, 2),
        ("sacrifice", "korinthia", "korinthos", 5, 3),
        ("sacrifice", "megaris", "megara", 4, 2),
    ],
)
def test_odds_agree_with_the_engine(siege, terr, polis, hop, pp):
    st = scenario(siege, rnd="5a", units={(ATHENS, terr): hop}, pp=(pp, 3))
    f = st.board.p_fort[Q(st, polis)]
    engine = _engine_success(st, polis, siege == "sacrifice")
    assert engine == frac(siege_odds(f, hop, siege, pp)["success"])
