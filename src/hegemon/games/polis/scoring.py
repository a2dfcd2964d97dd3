"""Final score and the end of the game (§9): population + prestige + Prestige for Posterity; the three end
conditions; ties broken by prestige (with posterity), then cubes, then poleis (R61)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hegemon.core.game import Outcome, Termination
from hegemon.games.polis.rules import common

if TYPE_CHECKING:
    from hegemon.games.polis.state import PolisState

# why the game ended (state.end_reason) -> core termination
TERMINATIONS = {
    "starved": Termination.ELIMINATION,  # a side cannot feed its capital (§9.1 case 1)
    "ostracism": Termination.PRESTIGE,  # a side has no prestige after the end of round (case 2)
    "final": Termination.END_OF_ROUNDS,  # round 5β is over (case 3)
}


def posterity(st: PolisState, s: int) -> int:
    """Prestige for Posterity of the project tiles on side `s`'s poleis (§9.2, R59)."""
    b = st.board
    total = 0
    for q in range(b.n_poleis):
        if st.owner[q] == s:
            for p in st.slots[q]:
                if p >= 0:
                    total += b.pr_posterity[p]
    return total


def score(st: PolisState, s: int) -> int:
    """§9.2: cubes on all own poleis + current prestige + posterity."""
    return common.population(st, s) + st.pp[s] + posterity(st, s)


def breakdown(st: PolisState, s: int) -> dict[str, int]:
    return {
        "population": common.population(st, s),
        "prestige": st.pp[s],
        "posterity": posterity(st, s),
        "total": score(st, s),
    }


def _key(st: PolisState, s: int) -> tuple[int, int, int, int]:
    poleis = sum(1 for o in st.owner if o == s)
    return (score(st, s), st.pp[s] + posterity(st, s), common.population(st, s), poleis)


def outcome(st: PolisState) -> Outcome:
    """The result once the game is over: a losing side in cases 1-2, otherwise the score with tie-breaks."""
    why = st.end_reason
    scores = (float(score(st, 0)), float(score(st, 1)))
    term = TERMINATIONS[why]
    losers: tuple[bool, bool] = (False, False)
    if why == "starved":
        losers = (st.starved[0], st.starved[1])
    elif why == "ostracism":
        losers = (st.pp[0] == 0, st.pp[1] == 0)
    if losers[0] != losers[1]:
        w = 1 if losers[0] else 0
        return Outcome(term, scores, (w,), ((w,), (1 - w,)))
    k0, k1 = _key(st, 0), _key(st, 1)
    if k0 == k1:
        return Outcome(term, scores, (0, 1), ((0, 1),))
    w = 0 if k0 > k1 else 1
    return Outcome(term, scores, (w,), ((w,), (1 - w,)))
