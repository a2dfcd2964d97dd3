"""A readable text board for terminals and logs: `render(state, player)` shows the round, prestige and
resources, poleis (owner, fortification, population, projects, siege discs), units, markets, the project
offer, a battle in progress, and the hand of `player` only."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hegemon.core.actions import Action
from hegemon.core.roles import TextRole
from hegemon.games.polis import scoring
from hegemon.games.polis.actions import describe_action
from hegemon.games.polis.board import RESOURCES, SIDES

if TYPE_CHECKING:
    from hegemon.games.polis.state import PolisState

_TAG = ("ATH", "SPA")


def render(state: PolisState, player: int | None = None) -> str:
    """The position as text, as `player` may see it (None: spectator, no hand shown)."""
    st = state
    b = st.board
    lines: list[str] = []
    cp = st.current_player()
    who = {-1: "chance", -2: "game over"}.get(cp, SIDES[cp].capitalize() if cp >= 0 else "?")
    lines.append(
        f"Polis — round {b.round_names[st.round]} (stacking {b.round_limit[st.round]}), siege rule {st.options.siege}"
        f" — phase {st.phase_name()}, to play: {who}; turn {st.turns}, first player {SIDES[st.first]}"
    )
    for s in (0, 1):
        res = " ".join(f"{r} {st.res[s][i]}" for i, r in enumerate(RESOURCES))
        flags = []
        if st.passed[s]:
            flags.append("passed")
        px = b.polis_names[st.proxenos[s]] + (" (captured)" if st.proxenos_captured[s] else "")
        lines.append(
            f"  {SIDES[s].capitalize():7} PP {st.pp[s]:3}  score {scoring.score(st, s):3}  {res}  merchants "
            f"{st.merchants_in_port[s]}/{st.merchants[s]} in port  proxenos {px} {' '.join(flags)}"
        )
    lines.append("  Poleis:")
    for q in range(b.n_poleis):
        o = st.owner[q]
        owner = _TAG[o] if o >= 0 else "---"
        projects = [b.project_names[p] for p in st.slots[q] if p >= 0]
        discs = " ".join(f"siege {_TAG[s]}:{st.discs[s][q]}/{b.p_fort[q]}" for s in (0, 1) if st.discs[s][q])
        cap = "*" if b.p_capital[q] else " "
        lines.append(
            f"    {cap}{b.polis_names[q]:11} {b.terr_names[b.p_terr[q]]:11} {owner} F{b.p_fort[q]} "
            f"pop {st.pop[q]}/{b.p_base[q]}/{b.p_max[q]} {', '.join(projects)} {discs}".rstrip()
        )
    lines.append("  Units (Athens/Sparta):")
    for t in range(b.n_terr):
        a, s_ = st.units[0][t], st.units[1][t]
        if a or s_:
            kind = "hoplites" if b.is_land[t] else "galleys"
            ex = " (tribute collected)" if st.exhausted[t] else ""
            lines.append(f"    {b.terr_names[t]:20} {kind:8} {a}/{s_}{ex}")
    mk = []
    for m in range(len(b.market_ids)):
        state_ = "closed" if st.market_closed[m] else f"{st.shiploads_taken[m]}/{len(b.shiploads[m])} taken"
        mk.append(f"{b.market_names[m]} {state_}")
    lines.append("  Markets: " + "; ".join(mk))
    lines.append(
        "  Market values: "
        + ", ".join(
            f"{RESOURCES[g]} {st.market_markers[i]} (cost {b.track_cost[st.market_markers[i] - 1]})"
            for i, g in enumerate(b.track_goods)
        )
    )
    lines.append("  Project offer: " + (", ".join(b.project_names[p] for p in st.offer) or "-"))
    if st.event >= 0:
        lines.append(f"  Event: {b.event_names[st.event]}")
    if st.battle_at >= 0:
        played = ", ".join(b.card_kinds[k].name for k in st.played) if st.played else "-"
        lines.append(
            f"  Battle in {b.terr_names[st.battle_at]}: attacker {SIDES[st.attacker]}, played {played}, deck {sum(st.deck)}"
        )
    if player is not None:
        hand = [b.card_kinds[k].name for k, n in enumerate(st.hands[player]) for _ in range(n)]
        if hand:
            lines.append(f"  Your hand ({SIDES[player]}): {', '.join(hand)}")
    if cp == -2:
        result = st.outcome()
        lines.append(f"  Game over ({st.end_reason}): {result.to_json() if result else None}")
    return "\n".join(lines)


def render_map(state: PolisState) -> str:
    """Every territory: its kind, units (Athens/Sparta), poleis (owner, population) and neighbours."""
    st = state
    b = st.board
    lines = []
    for t in range(b.n_terr):
        kind = "land" if b.is_land[t] else "sea"
        poleis = ", ".join(
            f"{b.polis_names[q]} {_TAG[st.owner[q]] if st.owner[q] >= 0 else '---'} {st.pop[q]}"
            for q in b.terr_poleis[t]
        )
        near = ", ".join(b.terr_names[j] for j in b.adj[t])
        lines.append(
            f"{b.terr_names[t]:20} {kind:4} units {st.units[0][t]}/{st.units[1][t]}"
            + (f"  poleis: {poleis}" if poleis else "")
            + f"\n    neighbours: {near}"
        )
    return "\n".join(lines)


def action_odds(state: PolisState, action: Action) -> str | None:
    """The exact odds of a siege before it is made (`odds.siege_odds` on this position), else None."""
    from hegemon.games.polis import odds
    from hegemon.games.polis.actions import Besiege, ContinueSiege, StartSiege

    st = state
    b = st.board
    if not isinstance(action, (Besiege, StartSiege, ContinueSiege)) or action.polis not in b.polis_index:
        return None
    q = b.polis_index[action.polis]
    s = st.active
    f = b.p_fort[q]
    if not isinstance(action, Besiege):
        have = st.discs[s][q]
        return f"siege of {b.polis_names[q]}: {have + 1} of {f} discs after this action (no dice)"
    if (b.siege_die, b.military_pp, b.min_pop) != (4, 1, 1):
        return None  # the odds module knows the shipped board's d4 and costs only
    owner = st.owner[q]
    o = odds.siege_odds(f, st.units[s][b.p_terr[q]], st.options.siege, st.pp[s], neutral=owner < 0,
                        population=st.pop[q] if owner >= 0 else None)  # fmt: skip
    first, total = o["first_action_success"], o["success"]
    return (
        f"siege of {b.polis_names[q]} (fortification {f}): win {first['decimal']:.1%} ({first['fraction']}) "
        f"with this roll; {total['decimal']:.1%} ({total['fraction']}) repeating the siege while you can, "
        f"expected {o['expected_hoplites_lost']['decimal']:.2f} hoplites lost"
    )


def describe(action: Action) -> str:
    """Alias of `actions.describe_action`."""
    return describe_action(action)


__all__ = ["action_odds", "describe_action", "render", "render_map"]


TEXT = TextRole(render=render, render_map=render_map, action_odds=action_odds)
"""The terminal role (`Roles.text`)."""
