"""What the end of the round would do to a side if the action phase ended now (§8.1-§8.5): the projects it
completes, the supply bill against the wheat in store and how it would be paid (wheat, prestige, released
poleis, or starvation), the megalopolis prestige and what storage halves. The web table shows it during the
action phase, so that nobody reaches the supply with 10 cubes and no wheat unwarned. Public information only
(every number it reads is on the table); growth and the phoros are choices, so they are left out."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hegemon.games.polis.board import RESOURCES, SIDES, WHEAT
from hegemon.games.polis.rules import common

if TYPE_CHECKING:
    from hegemon.games.polis.state import PolisState


def side_forecast(st: PolisState, s: int) -> dict[str, Any]:
    """The end of the round for side `s` if it came now. Keys: projects ([{project, polis, prestige}] it
    completes), need (wheat the supply takes: 1 per cube), wheat (in store), short (need − wheat, at least 0),
    prestige (after the projects), pay ("wheat": paid in full; "prestige": the shortfall is paid in prestige or
    poleis are released; "release": the prestige is too short, poleis must be released; "starve": even the
    capital cannot be fed, the game ends), prestige_after (prestige left after paying the shortfall in
    prestige, when pay is "prestige"), capital_need (the capital's own cubes' wheat), megalopolis (prestige
    from poleis above their base population), storage ({resource: [before, after]} halved, after the supply
    paid in wheat)."""
    b = st.board
    projects = []
    gain = 0
    for p in st.started:
        for q in range(b.n_poleis):
            if p in st.slots[q] and st.owner[q] == s:
                projects.append(
                    {"project": b.project_ids[p], "polis": b.polis_ids[q], "prestige": b.pr_immediate[p]}
                )
                gain += b.pr_immediate[p]
    need = common.population(st, s) * b.supply_wheat
    wheat = st.res[s][WHEAT]
    pp = st.pp[s] + gain
    short = max(0, need - wheat)
    capital_need = st.pop[b.capital[s]] * b.supply_wheat
    out: dict[str, Any] = {
        "projects": projects,
        "need": need,
        "wheat": wheat,
        "short": short,
        "prestige": pp,
        "capital_need": capital_need,
    }
    if short == 0:
        out["pay"] = "wheat"
    elif capital_need > wheat + pp:
        out["pay"] = "starve"
    elif short <= pp:
        out["pay"] = "prestige"
        out["prestige_after"] = pp - short
    else:
        out["pay"] = "release"
    out["megalopolis"] = b.mega_pp * sum(
        1 for q in range(b.n_poleis) if st.owner[q] == s and st.pop[q] > b.p_base[q]
    )
    res = list(st.res[s])
    res[WHEAT] = max(0, wheat - need)
    out["storage"] = {RESOURCES[r]: [res[r], (res[r] + 1) // 2] for r in b.storage_halved if res[r] > 1}
    return out


def forecast(st: PolisState) -> dict[str, Any] | None:
    """`side_forecast` of both sides by side name while the round's action phase goes on; None once its end
    has begun (the steps are then announced as they happen) or the game is over."""
    if st.phase_name() in ("supply", "growth", "phoros", "game over", "project draw", "event draw"):
        return None
    return {SIDES[s]: side_forecast(st, s) for s in (0, 1)}
