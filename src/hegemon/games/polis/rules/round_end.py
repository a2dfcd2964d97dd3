"""End of the round (§8) in order — projects, supply, growth, megalopolis, storage, phoros — the end-of-game
check (§9.1) and the preparations for the next round (§8.8). Choices go first player first (R55)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hegemon.games.polis.actions import EndGrowth, Grow, PaySupply, Phoros, ReleasePolis, intern
from hegemon.games.polis.board import SILVER, WHEAT
from hegemon.games.polis.options import DICELESS
from hegemon.games.polis.rules import common, events
from hegemon.games.polis.rules.common import DRAW_EVENT, DRAW_PROJECT, GROWTH, OVER, PHOROS, SUPPLY

if TYPE_CHECKING:
    from hegemon.games.polis.state import PolisState

# stages of the end of round
S_SUPPLY_A, S_SUPPLY_B, S_STARVED, S_GROWTH_A, S_GROWTH_B, S_MEGA, S_PHOROS_A, S_PHOROS_B, S_END = range(9)


def start(st: PolisState) -> None:
    """The action phase is over: diceless discs go (§7.3.9), projects complete (§8.1), then the steps."""
    b = st.board
    if st.siege_rule == DICELESS:
        for s in (0, 1):
            st.discs[s] = [0] * b.n_poleis
    for p in st.started:
        for q in range(b.n_poleis):
            if p in st.slots[q] and st.owner[q] >= 0:
                st.pp[st.owner[q]] += b.pr_immediate[p]
    st.started = []
    st.round_end_stage = S_SUPPLY_A
    proceed(st)


def _side(st: PolisState, second: bool) -> int:
    return 1 - st.first if second else st.first


def proceed(st: PolisState) -> None:
    """Run the end-of-round stages until one needs a choice (sets the phase) or the round/game ends."""
    b = st.board
    while True:
        stage = st.round_end_stage
        if stage in (S_SUPPLY_A, S_SUPPLY_B):
            s = _side(st, stage == S_SUPPLY_B)
            need = common.population(st, s) * b.supply_wheat
            wheat = st.res[s][WHEAT]
            if wheat >= need:
                st.res[s][WHEAT] -= need
            elif st.pop[b.capital[s]] * b.supply_wheat > wheat + st.pp[s]:
                st.starved[s] = True  # cannot feed the capital (§8.2 step 4, §9.1)
            else:
                st.active = s
                st.phase = SUPPLY
                return
        elif stage == S_STARVED:
            if st.starved[0] or st.starved[1]:
                _game_over(st, "starved")
                return
        elif stage in (S_GROWTH_A, S_GROWTH_B):
            s = _side(st, stage == S_GROWTH_B)
            st.grown = [0] * b.n_poleis
            st.growth_from = 0
            if _growable(st, s):
                st.active = s
                st.phase = GROWTH
                return
        elif stage == S_MEGA:
            for s in (0, 1):
                st.pp[s] += b.mega_pp * sum(
                    1 for q in range(b.n_poleis) if st.owner[q] == s and st.pop[q] > b.p_base[q]
                )
                res = st.res[s]
                for r in b.storage_halved:
                    res[r] = (res[r] + 1) // 2
        elif stage in (S_PHOROS_A, S_PHOROS_B):
            s = _side(st, stage == S_PHOROS_B)
            if st.pp[s] > 0:
                st.active = s
                st.phase = PHOROS
                return
        else:
            if st.pp[0] == 0 or st.pp[1] == 0:
                _game_over(st, "ostracism")
            elif st.round == len(b.round_limit) - 1:
                _game_over(st, "final")
            else:
                prepare(st)
            return
        st.round_end_stage += 1


def legal_supply(st: PolisState, out: list[Any]) -> None:
    """Release non-capital poleis while the cubes exceed the wheat; pay once the shortfall fits the PP."""
    b = st.board
    s = st.active
    need = common.population(st, s) * b.supply_wheat
    wheat = st.res[s][WHEAT]
    if need - wheat <= st.pp[s]:
        out.append(intern(PaySupply))
    if need > wheat:
        for q in range(b.n_poleis):
            if st.owner[q] == s and not b.p_capital[q]:
                out.append(intern(ReleasePolis, b.polis_ids[q]))


def apply_release(st: PolisState, polis: str) -> None:
    """The polis becomes neutral: cubes to the pool, projects stay on the tile, a proxenos stays (R55)."""
    q = st.board.polis_index[polis]
    st.owner[q] = -1
    st.pop[q] = 0


def apply_pay_supply(st: PolisState) -> None:
    s = st.active
    need = common.population(st, s) * st.board.supply_wheat
    wheat = st.res[s][WHEAT]
    paid = min(wheat, need)
    st.res[s][WHEAT] -= paid
    st.pp[s] -= need - paid
    st.round_end_stage += 1
    proceed(st)


def _growable(st: PolisState, s: int) -> list[int]:
    b = st.board
    if st.res[s][WHEAT] < b.growth_wheat or common.pool(st, s) < 1:
        return []
    return [
        q
        for q in range(st.growth_from, b.n_poleis)
        if st.owner[q] == s and st.grown[q] < b.p_growth[q] and st.pop[q] < b.p_max[q]
    ]


def legal_growth(st: PolisState, out: list[Any]) -> None:
    out.append(intern(EndGrowth))
    for q in _growable(st, st.active):
        out.append(intern(Grow, st.board.polis_ids[q]))


def apply_grow(st: PolisState, polis: str) -> None:
    """One wheat, one cube (§8.3); poleis are grown in board order so each result has one sequence."""
    s = st.active
    q = st.board.polis_index[polis]
    st.res[s][WHEAT] -= st.board.growth_wheat
    st.pop[q] += 1
    st.grown[q] += 1
    st.growth_from = q
    if not _growable(st, s):
        apply_end_growth(st)


def apply_end_growth(st: PolisState) -> None:
    st.round_end_stage += 1
    proceed(st)


def legal_phoros(st: PolisState, out: list[Any]) -> None:
    for n in range(st.pp[st.active] + 1):
        out.append(intern(Phoros, n))


def apply_phoros(st: PolisState, amount: int) -> None:
    s = st.active
    st.pp[s] -= amount
    common.gain(st, s, SILVER, amount * st.board.phoros_rate)
    st.round_end_stage += 1
    proceed(st)


def prepare(st: PolisState) -> None:
    """§8.8: round marker, discs off boxes and markets, merchants home, a new project offer, the event."""
    b = st.board
    st.round += 1
    st.exhausted = [False] * b.n_terr
    st.market_closed = [False] * len(b.market_ids)
    st.shiploads_taken = [0] * len(b.market_ids)
    st.merchants_in_port = list(st.merchants)
    st.offer = []
    st.capped = False
    begin_draws(st)


def begin_draws(st: PolisState) -> None:
    st.projects_to_draw = min(st.board.project_offer, len(st.stack))
    if st.projects_to_draw:
        st.phase = DRAW_PROJECT
    else:
        after_projects(st)


def after_projects(st: PolisState) -> None:
    if events.pile_of(st):
        st.phase = DRAW_EVENT
    else:
        events.no_event(st)


def _game_over(st: PolisState, why: str) -> None:
    st.end_reason = why
    st.phase = OVER
    st.active = -2
