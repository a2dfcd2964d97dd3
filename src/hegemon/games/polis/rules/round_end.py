"""The steps of the end of the round (§8): projects completed, supply, growth, megalopolis, storage, phoros,
and the preparations of the next round (§8.8). `flow` runs them in order and asks the choices (first player
first, R55); these functions resolve one step and report back."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hegemon.games.polis.actions import EndGrowth, Grow, PaySupply, Phoros, ReleasePolis, intern
from hegemon.games.polis.board import SILVER, WHEAT
from hegemon.games.polis.options import DICELESS
from hegemon.games.polis.rules import common

if TYPE_CHECKING:
    from hegemon.games.polis.state import PolisState


def note(st: PolisState, *what: Any) -> None:
    """Record a step the end of round took without asking anyone (the view's `round_end`, which the table
    announces): a new tuple each time, so clones share the old one safely."""
    st.round_notes = (*st.round_notes, what)


def complete_projects(st: PolisState) -> None:
    """The action phase is over: diceless discs go (§7.3.9), projects under construction complete (§8.1)."""
    b = st.board
    st.round_notes = (("end", st.round),)
    if st.siege_rule == DICELESS:
        for s in (0, 1):
            st.discs[s] = [0] * b.n_poleis
    for p in st.started:
        for q in range(b.n_poleis):
            if p in st.slots[q] and st.owner[q] >= 0:
                st.pp[st.owner[q]] += b.pr_immediate[p]
                note(st, "project", st.owner[q], p, b.pr_immediate[p])
    st.started = []


def supply(st: PolisState, s: int) -> bool:
    """§8.2: side `s` feeds its cubes when its wheat suffices, or starves when it cannot feed even the capital
    (step 4, §9.1); True when settled, False when `s` must choose (release poleis, pay the shortfall in PP)."""
    b = st.board
    need = common.population(st, s) * b.supply_wheat
    wheat = st.res[s][WHEAT]
    if wheat >= need:
        st.res[s][WHEAT] -= need
        note(st, "supply", s, need)
    elif st.pop[b.capital[s]] * b.supply_wheat > wheat + st.pp[s]:
        st.starved[s] = True
        note(st, "starved", s, need, wheat)
    else:
        return False
    return True


def megalopolis_and_storage(st: PolisState) -> None:
    """§8.4-§8.5: PP for every polis above its base population; the stored resources halved."""
    b = st.board
    for s in (0, 1):
        big = sum(1 for q in range(b.n_poleis) if st.owner[q] == s and st.pop[q] > b.p_base[q])
        st.pp[s] += b.mega_pp * big
        if big:
            note(st, "megalopolis", s, big, b.mega_pp * big)
        res = st.res[s]
        halved = []
        for r in b.storage_halved:
            if res[r] > 1:
                halved.append((r, res[r], (res[r] + 1) // 2))
            res[r] = (res[r] + 1) // 2
        if halved:
            note(st, "storage", s, tuple(halved))


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


def begin_growth(st: PolisState) -> None:
    st.grown = [0] * st.board.n_poleis
    st.growth_from = 0


def no_growth(st: PolisState, s: int) -> None:
    """Side `s` has nothing to grow (§8.3): noted with the reason."""
    b = st.board
    why = "wheat" if st.res[s][WHEAT] < b.growth_wheat else "cubes" if common.pool(st, s) < 1 else "full"
    note(st, "no_growth", s, why)


def growable(st: PolisState, s: int) -> list[int]:
    """The poleis of `s` that may still grow (§8.3), from `growth_from` in board order."""
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
    for q in growable(st, st.active):
        out.append(intern(Grow, st.board.polis_ids[q]))


def apply_grow(st: PolisState, polis: str) -> bool:
    """One wheat, one cube (§8.3); poleis are grown in board order so each result has one sequence. True while
    something can still grow."""
    s = st.active
    q = st.board.polis_index[polis]
    st.res[s][WHEAT] -= st.board.growth_wheat
    st.pop[q] += 1
    st.grown[q] += 1
    st.growth_from = q
    return bool(growable(st, s))


def legal_phoros(st: PolisState, out: list[Any]) -> None:
    for n in range(st.pp[st.active] + 1):
        out.append(intern(Phoros, n))


def apply_phoros(st: PolisState, amount: int) -> None:
    s = st.active
    st.pp[s] -= amount
    common.gain(st, s, SILVER, amount * st.board.phoros_rate)


def prepare(st: PolisState) -> None:
    """§8.8 (the round marker moved by `flow`): discs off boxes and markets, merchants home, no project offer."""
    b = st.board
    st.exhausted = [False] * b.n_terr
    st.market_closed = [False] * len(b.market_ids)
    st.shiploads_taken = [0] * len(b.market_ids)
    st.merchants_in_port = list(st.merchants)
    st.offer = []
    st.capped = False
