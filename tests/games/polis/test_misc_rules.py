"""Smaller rules: cube pool limits (§1, §4.7, R26), collection size (§5.8), event vocabulary edge cases
(§10.2), market closures lasting one round (R58)."""

from __future__ import annotations

from hegemon.games.polis import actions as A
from hegemon.games.polis.rules import common, events

from .fixtures import ATHENS, SPARTA, Q, T, do, fresh, scenario


def test_a_polis_joins_with_at_most_the_cubes_of_the_pool():
    """§4.7 / R26: if the pool holds fewer cubes than needed, the polis receives what the pool holds."""
    st = scenario(to_move=SPARTA, res={SPARTA: {"silver": 8}})
    st.proxenos[SPARTA] = Q(st, "korinthos")  # base 4: costs 8 silver
    st.units[SPARTA][T(st, "lakedaemon")] = 3
    # fill Sparta's pool down to 2 cubes with units spread over the map
    free = common.pool(st, SPARTA)
    for t in range(st.board.n_terr):
        if free <= 2:
            break
        room = 3 - st.units[SPARTA][t]
        add = min(room, free - 2)
        st.units[SPARTA][t] += add
        free -= add
    assert common.pool(st, SPARTA) == 2
    do(st, A.CivilWar("korinthos"))
    assert st.owner[Q(st, "korinthos")] == SPARTA and st.pop[Q(st, "korinthos")] == 2
    assert st.pp[SPARTA] == 3 + 4  # prestige = the population bribed (base 4), not the cubes placed
    assert common.pool(st, SPARTA) == 0
    st.n_actions = 0
    st.tokens = []
    st.active = SPARTA
    assert "civil_war" not in {a.kind for a in st.legal_actions()}


def test_collection_takes_as_many_spaces_as_hoplites():
    """§5.8: k = min(own hoplites in T, spaces of the box)."""
    st = scenario(rnd="5a", to_move=ATHENS, pp=(3, 3), units={(ATHENS, "attika"): 2})
    do(st, A.Collect("attika"))  # oil, silver
    assert st.res[ATHENS][3] == 5 and st.res[ATHENS][5] == 1 and st.res[ATHENS][2] == 4
    st = scenario(rnd="5a", to_move=ATHENS, pp=(3, 3), units={(ATHENS, "attika"): 5})
    do(st, A.Collect("attika"))  # the whole box: oil, silver, wine, oil, silver
    assert st.res[ATHENS][3] == 6 and st.res[ATHENS][5] == 2 and st.res[ATHENS][2] == 5


def test_event_losses_stop_at_zero_and_market_shifts_stop_at_the_ends():
    st = fresh()
    st.res[ATHENS][5] = 1
    st.pp[ATHENS] = 0
    st.market_markers = [1, 2, 10, 1]
    st.event = st.board.event_index["samian_war"]  # Athens −2 silver, +1 prestige
    st.event_step = 0
    events.run(st)
    assert st.res[ATHENS][5] == 0 and st.pp[ATHENS] == 1
    st.event = st.board.event_index["peace_of_kallias"]  # all tracks −1, Athens +1 prestige
    st.event_step = 0
    events.run(st)
    assert st.market_markers == [1, 1, 9, 1]


def test_market_closures_and_exhausted_boxes_last_one_round():
    """R58: event discs go at the next preparation."""
    st = scenario(to_move=ATHENS, res={ATHENS: {"wheat": 30}, SPARTA: {"wheat": 30}})
    st.market_closed[st.board.market_index["persia"]] = True
    st.exhausted[T(st, "messenia")] = True
    do(st, A.Pass(), A.Pass())
    while st.phase_name() in ("growth", "phoros"):
        do(st, st.legal_actions()[0])
    assert st.round == 1 and not any(st.market_closed) and not any(st.exhausted)
