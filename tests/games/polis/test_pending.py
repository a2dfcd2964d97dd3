"""The typed pending records (issue 14 item 3): each phase that finishes a compound action holds exactly its
own record kind, records are never changed in place (clones share them), and the digest keeps its shape."""

from __future__ import annotations

import random

import pytest

from hegemon.games.polis.game import GAME
from hegemon.games.polis.options import SIEGE_RULES
from hegemon.games.polis.pending import DiscSiege, ExtraDue, MarketRollDue, MoveOrder, Removal, SiegeRollDue
from hegemon.games.polis.rules import common

KIND = {
    common.MOVE: MoveOrder,
    common.SIEGE_ROLL: SiegeRollDue,
    common.SACRIFICE_FORCE: SiegeRollDue,
    common.DS_FORCE: DiscSiege,
    common.GARRISON: DiscSiege,
    common.TRADE_ROLL: MarketRollDue,
    common.EXTRA: ExtraDue,
    common.EVENT_REMOVE: Removal,
}


@pytest.mark.parametrize("siege", SIEGE_RULES)
def test_every_phase_holds_its_own_record_kind(siege: str) -> None:
    rng = random.Random(7)
    seen: set[type] = set()
    for seed in range(40):
        st = GAME.new_game({"siege": siege}, seed)
        while not st.is_terminal():
            kind = KIND.get(st.phase)
            if kind is None:
                assert st.pending is None, (st.phase_name(), st.pending)
            else:
                assert isinstance(st.pending, kind), (st.phase_name(), st.pending)
                seen.add(kind)
                digest = st.to_json()
                if kind is Removal:
                    assert digest["rm"] == st.pending.to_json() and digest["pend"] is None
                elif kind is not ExtraDue:
                    assert digest["pend"] == st.pending.to_json() and digest["rm"] is None
            before = st.pending
            before_json = before.to_json() if before is not None else None
            twin = st.clone()
            if st.current_player() < 0:
                st.apply(st.sample_chance(rng))
            else:
                st.apply(rng.choice(st.legal_actions()))
            assert twin.pending is before  # the clone's record was not changed by the original's step
            assert (before.to_json() if before is not None else None) == before_json  # nor changed in place
    assert {MoveOrder, MarketRollDue} <= seen
    assert (SiegeRollDue in seen) == (siege in ("classic", "sacrifice"))


def test_records_compare_by_value_and_keep_their_digest_shape() -> None:
    order = MoveOrder(3, (1, 2), 0, 0)
    assert order == MoveOrder(3, (1, 2), 0, 0) != MoveOrder(3, (1, 2), 1, 0)
    assert order.to_json() == [3, [1, 2], 0, 0]
    assert Removal(1, True, False, 2).to_json() == [1, True, False, 2]
    assert SiegeRollDue(4, 2).to_json() == [4, 2] and DiscSiege(4).to_json() == [4]
    assert MarketRollDue(0, -1).to_json() == [0, -1] and ExtraDue(2).to_json() == [2]
