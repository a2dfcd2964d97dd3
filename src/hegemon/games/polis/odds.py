"""Exact siege odds for `hegemon odds polis-siege` (§7.1, seeds-en.md §1).

**Within the player's resources** means: the besieger starts with `hoplites` of his own hoplites in the
territory and `prestige` PP, gets nothing more (no reinforcements, no income, no other spending) and is never
disturbed by the opponent (he keeps control of the territory, no battle, no event). Under `classic` and
`sacrifice` he repeats the siege action (one per turn) for as long as it is legal — at least F hoplites in the
territory and at least 1 PP — until he takes the polis or can no longer besiege. Under `sacrifice` he forces
after every failed roll whenever he can (1 PP left after the siege's own PP and at least F − roll hoplites
left after the loss): that policy maximises the probability of taking the polis, since a possible force is a
certain success. "Spent" counts costs only (siege PP, forcing PP, hoplites lost and sacrificed), never the
F PP reward, which is reported separately.

Under the diceless rules nothing is random: the answer lists each way to finish (waiting, or forcing k extra
discs in the last action under `diceless_sacrifice`) with its number of actions, turns, PP and hoplites.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import cache, partial
from typing import TYPE_CHECKING, Any

from hegemon.core.errors import ConfigError
from hegemon.games.polis.options import SIEGE_RULES

if TYPE_CHECKING:
    from hegemon.games.polis.state import PolisState


def _num(x: Fraction) -> dict[str, Any]:
    return {"decimal": float(x), "fraction": f"{x.numerator}/{x.denominator}"}


@cache
def _dice(
    f: int, h: int, p: int, sacrifice: bool, pop: int
) -> tuple[Fraction, Fraction, Fraction, Fraction, Fraction]:
    """(P(success), E[PP spent], E[hoplites lost], E[siege actions], E[population on capture · 1_success])
    from h hoplites and p PP against fortification f; `pop` = the polis's current cubes (0 = neutral)."""
    zero = Fraction(0)
    if h < f or p < 1:
        return zero, zero, zero, zero, zero
    ps = pp = hl = na = cap = zero
    q = Fraction(1, 4)
    for roll in (1, 2, 3, 4):
        if roll >= f:
            ps += q
            pp += q
            na += q
            cap += q * pop
            continue
        h1 = h - 1
        pop1 = max(1, pop - 1) if pop else 0
        if sacrifice and p - 1 >= 1 and h1 >= f - roll:
            ps += q
            pp += q * 2
            hl += q * (1 + f - roll)
            na += q
            cap += q * pop1
            continue
        s2, pp2, hl2, na2, cap2 = _dice(f, h1, p - 1, sacrifice, pop1)
        ps += q * s2
        pp += q * (1 + pp2)
        hl += q * (1 + hl2)
        na += q * (1 + na2)
        cap += q * cap2
    return ps, pp, hl, na, cap


def siege_odds(
    fortification: int,
    hoplites: int,
    siege: str,
    prestige: int | None = None,
    neutral: bool = True,
    population: int | None = None,
) -> dict[str, Any]:
    """Odds and costs of taking a polis of `fortification` with `hoplites` and `prestige` PP (the besieger's
    PP before the siege action) under siege rule `siege`. `population`: the current cubes of an opponent's
    polis (default: its fortification, only used when `neutral` is false). See the module docstring for
    what "within the player's resources" means. `prestige` None: enough PP that prestige never stops the siege
    (hoplites + fortification + 1), said in the answer (`prestige_assumed`)."""
    if siege not in SIEGE_RULES:
        raise ConfigError("siege", f"{siege!r} is not one of {', '.join(SIEGE_RULES)}")
    assumed = prestige is None
    if prestige is None:
        if not isinstance(hoplites, int) or not isinstance(fortification, int):
            raise ConfigError("hoplites", "fortification and hoplites must be integers")
        prestige = max(0, hoplites) + max(0, fortification) + 1
    for name, v, lo in (
        ("fortification", fortification, 1),
        ("hoplites", hoplites, 0),
        ("prestige", prestige, 0),
    ):
        if not isinstance(v, int) or isinstance(v, bool) or v < lo:
            raise ConfigError(name, f"must be an integer of at least {lo}, got {v!r}")
    if fortification > 4:
        raise ConfigError("fortification", "a polis has fortification 1-4")
    if hoplites > 45 or prestige > 200:
        raise ConfigError("hoplites" if hoplites > 45 else "prestige", "value out of range")
    pop = 0 if neutral else (population if population is not None else fortification)
    if not neutral and pop < 1:
        raise ConfigError("population", "an owned polis has at least 1 cube")
    out: dict[str, Any] = {
        "siege": siege,
        "fortification": fortification,
        "hoplites": hoplites,
        "prestige": prestige,
        "neutral": neutral,
        "population": None if neutral else pop,
        "reward_pp": fortification,
        "prestige_assumed": assumed,
        "assumptions": "no reinforcements, no income, no interference; repeat the siege while legal"
        + ("; force whenever possible" if siege == "sacrifice" else "")
        + (
            f"; no prestige given: {prestige} PP assumed, enough that prestige never stops the siege"
            if assumed
            else ""
        ),
    }
    if siege in ("classic", "sacrifice"):
        ps, pp, hl, na, cap = _dice(fortification, hoplites, prestige, siege == "sacrifice", pop)
        out["random"] = True
        out["success"] = _num(ps)
        out["expected_pp_spent"] = _num(pp)
        out["expected_hoplites_lost"] = _num(hl)
        out["expected_actions"] = _num(na)
        out["expected_net_pp"] = _num(ps * fortification - pp)
        if not neutral:
            out["expected_population_on_capture"] = _num(cap / ps) if ps else None
        out["can_start"] = hoplites >= fortification and prestige >= 1
        out["first_action_success"] = (
            _num(Fraction(max(0, 5 - fortification), 4)) if out["can_start"] else None
        )
        return out
    out["random"] = False
    plans = []
    if siege == "diceless":
        ok = hoplites >= fortification
        plans.append(
            {
                "way": "wait",
                "actions": fortification,
                "turns": fortification,
                "forced_discs": 0,
                "pp_spent": 1,
                "pp_gained": fortification,
                "net_pp": fortification - 1,
                "hoplites_lost": 0,
                "hoplites_left": hoplites,
                "population_lost": 0,
                "feasible": ok,
            }
        )
    else:
        for actions in range(fortification, 0, -1):
            k = fortification - actions
            ok = hoplites >= fortification and prestige >= 1 + k and hoplites >= k
            plans.append(
                {
                    "way": "wait" if k == 0 else f"force {k} in the last action",
                    "actions": actions,
                    "turns": actions,
                    "forced_discs": k,
                    "pp_spent": 1 + k,
                    "pp_gained": fortification,
                    "net_pp": fortification - 1 - k,
                    "hoplites_lost": k,
                    "hoplites_left": hoplites - k,
                    "population_lost": 0 if neutral else min(k, pop - 1),
                    "feasible": ok,
                }
            )
    out["plans"] = plans
    out["success"] = _num(Fraction(1 if any(p["feasible"] for p in plans) else 0))
    return out


def position_odds_job(state: PolisState, query: Mapping[str, str]) -> partial[dict[str, Any]]:
    """The computation of the odds of a siege of the polis `query["polis"]` (its board id) in `state` by the
    player on turn (Athens while nobody is), from the position's fortification, hoplites, prestige, owner and
    siege rule: a picklable call of `siege_odds` with plain numbers (always exact, and cheap: the hoplites and
    prestige are bounded, see `siege_odds`)."""
    b = state.board
    p = b.polis_index[query["polis"]]
    side = max(state.current_player(), 0)
    owner = state.owner[p]
    return partial(
        siege_odds,
        int(b.p_fort[p]),
        int(state.units[side][b.p_terr[p]]),
        str(state.options.siege),
        int(state.pp[side]),
        neutral=bool(owner < 0),
        population=int(state.pop[p]) if owner >= 0 else None,
    )
