"""Collection (§5.8) and trade (§5.9): tribute boxes, merchants on shiploads, market-value dice."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hegemon.games.polis.actions import MarketRoll, intern
from hegemon.games.polis.board import SILVER, bits
from hegemon.games.polis.pending import MarketRollDue
from hegemon.games.polis.rules import common, flow
from hegemon.games.polis.rules.common import T_COLLECT, T_TRADE, TRADE_ROLL

if TYPE_CHECKING:
    from hegemon.games.polis.state import PolisState

EXCHANGE_ROLLS = tuple((intern(MarketRoll, r), 0.25) for r in (1, 2, 3, 4))
# the higher of two d4: P(k) = (2k − 1) / 16
PURCHASE_ROLLS = tuple((intern(MarketRoll, r), (2 * r - 1) / 16) for r in (1, 2, 3, 4))


def legal_collect(st: PolisState, out: list[Any], extra: bool, m: int) -> None:
    """§5.8: an own polis and ≥ 1 own hoplite in T, box not exhausted, T not controlled by the opponent;
    1 PP (the military cost) unless T is the home region (`home_collection_prestige`, 0). `m`: the bitmask of
    the territories of own poleis with own units that the opponent does not control."""
    if not m:
        return
    b = st.board
    s = st.active
    if extra and sum(st.res[s]) < b.extra_cost:
        return
    exhausted = st.exhausted
    home = b.home[s]
    pp = st.pp[s]
    acts = st.tables.collect
    for t in bits(m):
        if exhausted[t]:
            continue
        if pp < (b.home_collect_pp if t == home else b.military_pp):
            continue
        out.append(acts[t])


def apply_collect(st: PolisState, territory: str) -> None:
    b = st.board
    s = st.active
    t = b.terr_index[territory]
    flow.begin_action(st, T_COLLECT)
    st.pp[s] -= b.home_collect_pp if t == b.home[s] else b.military_pp
    box = b.tribute[t]
    for i in range(min(st.units[s][t], len(box))):
        common.gain(st, s, box[i], 1)
    st.exhausted[t] = True
    flow.finish_action(st)


def legal_trade(st: PolisState, out: list[Any], extra: bool, om: int) -> None:
    """§5.9: a merchant in port, a market open with a shipload left, a route free (`om`: the territories the
    opponent does not control), the price paid in the good or in silver."""
    b = st.board
    s = st.active
    if st.merchants_in_port[s] < 1:
        return
    res = st.res[s]
    total = sum(res)
    x = b.extra_cost
    tb = st.tables
    routes = tb.route_mask[s]
    taken = st.shiploads_taken
    closed = st.market_closed
    acts = tb.trade
    blocked = ~om
    shiploads = b.shiploads
    track_cost = b.track_cost
    track_of = b.track_of
    markers = st.market_markers
    for m in range(len(routes)):
        j = taken[m]
        loads = shiploads[m]
        if closed[m] or j >= len(loads) or routes[m] & blocked:  # a sea of the route is the opponent's
            continue
        good, _gives, _amount, price = loads[j]
        cost = track_cost[markers[track_of[good]] - 1]
        if res[good] >= cost and (not extra or total - cost >= x):
            out.append(acts[m][0])
        if price and res[SILVER] >= price and (not extra or total - price >= x):
            out.append(acts[m][1])


def apply_trade(st: PolisState, market: str, purchase: bool) -> None:
    """The merchant takes the leftmost free shipload (R21); pay, receive, then the market die."""
    b = st.board
    s = st.active
    m = b.market_index[market]
    flow.begin_action(st, T_TRADE)
    j = st.shiploads_taken[m]
    good, gives, amount, price = b.shiploads[m][j]
    st.shiploads_taken[m] = j + 1
    st.merchants_in_port[s] -= 1
    res = st.res[s]
    track = b.track_of[good]
    if purchase:
        res[SILVER] -= price
    else:
        res[good] -= b.track_cost[st.market_markers[track] - 1]
    common.gain(st, s, gives, amount)
    st.pending = MarketRollDue(track, -1 if purchase else 1)
    st.phase = TRADE_ROLL


def roll_due(st: PolisState) -> MarketRollDue:
    due = st.pending
    assert isinstance(due, MarketRollDue)  # TRADE_ROLL always has its record
    return due


def roll_outcomes(st: PolisState) -> tuple[tuple[Any, float], ...]:
    return PURCHASE_ROLLS if roll_due(st).direction < 0 else EXCHANGE_ROLLS


def apply_roll(st: PolisState, roll: int) -> None:
    """Exchange: marker right by the d4; purchase: left by the higher of two d4; stops at 1 and 10 (§2.3)."""
    due = roll_due(st)
    track = due.track
    st.pending = None
    pos = st.market_markers[track] + due.direction * roll
    st.market_markers[track] = max(1, min(st.board.track_positions, pos))
    flow.finish_action(st)


__all__ = ["common"]
