"""The lab plays iteration budgets only: `untimed` drops each search bot's time limit (typed through the `Timed`
protocol, not an attribute lookup by name) and leaves the bots without one as they are."""

from __future__ import annotations

from hegemon.ai import make_bot
from hegemon.lab.sweep import Timed, untimed


def test_untimed_drops_the_search_bots_time_limits_only() -> None:
    bots = [make_bot("mcts:hard", 1), make_bot("mcts:200@2", 2), make_bot("greedy", 3), make_bot("random", 4)]
    timed = [b for b in bots if isinstance(b, Timed)]
    assert len(timed) == 2 and all(b.time_limit is not None for b in timed)
    untimed(bots)
    assert all(b.time_limit is None for b in timed)
    assert not isinstance(bots[2], Timed) and not isinstance(bots[3], Timed)
