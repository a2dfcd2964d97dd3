"""What one side may see (§6.7): everything on the table, its own combat-card hand, the opponent's hand only
as a count, deck and stack sizes but never their contents or order; legal actions on its own turn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hegemon.core.game import CHANCE, TERMINAL
from hegemon.games.polis import blocked, preview, scoring
from hegemon.games.polis.board import RESOURCES, SIDES
from hegemon.games.polis.forecast import forecast

if TYPE_CHECKING:
    from hegemon.games.polis.state import PolisState


def _hand(st: PolisState, s: int) -> list[str]:
    out = []
    for k, n in enumerate(st.hands[s]):
        out.extend([st.board.card_kinds[k].name] * n)
    return out


def round_report(st: PolisState) -> dict[str, Any] | None:
    """What the last end of round did without asking anyone (§8: projects completed, supply paid in full, no
    growth possible, megalopolis prestige, storage halved, no phoros): the table announces it. None before the
    first end of round."""
    notes = st.round_notes
    if not notes:
        return None
    b = st.board
    steps: list[dict[str, Any]] = []
    for n in notes[1:]:
        kind, side = n[0], SIDES[n[1]]
        if kind == "project":
            steps.append({"step": kind, "side": side, "project": b.project_ids[n[2]], "prestige": n[3]})
        elif kind == "supply":
            steps.append({"step": kind, "side": side, "wheat": n[2]})
        elif kind == "starved":
            steps.append({"step": kind, "side": side, "wheat_needed": n[2], "wheat": n[3]})
        elif kind == "no_growth":
            steps.append({"step": kind, "side": side, "why": n[2]})
        elif kind == "megalopolis":
            steps.append({"step": kind, "side": side, "poleis": n[2], "prestige": n[3]})
        elif kind == "storage":
            steps.append({"step": kind, "side": side, "halved": {RESOURCES[r]: [a, c] for r, a, c in n[2]}})
        else:
            steps.append({"step": kind, "side": side})
    return {"round_number": notes[0][1] + 1, "round": b.round_names[notes[0][1]], "steps": steps}


def public(st: PolisState) -> dict[str, Any]:
    """The public part of the position (a spectator's view without legal actions)."""
    b = st.board
    cp = st.current_player()
    poleis = []
    for q in range(b.n_poleis):
        o = st.owner[q]
        poleis.append(
            {
                "id": b.polis_ids[q],
                "territory": b.terr_ids[b.p_terr[q]],
                "owner": SIDES[o] if o >= 0 else "neutral",
                "population": st.pop[q],
                "fortification": b.p_fort[q],
                "base_population": b.p_base[q],
                "max_population": b.p_max[q],
                "projects": [b.project_ids[p] if p >= 0 else None for p in st.slots[q]],
                "siege_discs": {SIDES[s]: st.discs[s][q] for s in (0, 1) if st.discs[s][q]},
            }
        )
    sides = []
    for s in (0, 1):
        sides.append(
            {
                "side": SIDES[s],
                "resources": dict(zip(RESOURCES, st.res[s], strict=True)),
                "prestige": st.pp[s],
                "passed": st.passed[s],
                "merchants_in_port": st.merchants_in_port[s],
                "merchants": st.merchants[s],
                "proxenos": b.polis_ids[st.proxenos[s]],
                "proxenos_captured": st.proxenos_captured[s],
                "hoplites": {b.terr_ids[t]: n for t, n in enumerate(st.units[s]) if n and b.is_land[t]},
                "galleys": {b.terr_ids[t]: n for t, n in enumerate(st.units[s]) if n and not b.is_land[t]},
                "score": scoring.breakdown(st, s),
                "hand_size": sum(st.hands[s]),
            }
        )
    out: dict[str, Any] = {
        "game": "polis",
        "siege": st.options.siege,
        "round": b.round_names[st.round],
        "stacking_limit": b.round_limit[st.round],
        "round_number": st.round + 1,
        "rounds": len(b.round_limit),
        "round_names": list(b.round_names),
        "phase": st.phase_name(),
        "current_player": cp if cp >= 0 else ("chance" if cp == CHANCE else "terminal"),
        "first_player": SIDES[st.first],
        "turns_this_round": st.turns,
        "actions_this_turn": st.n_actions,
        "poleis": poleis,
        "sides": sides,
        "markets": [
            {
                "id": b.market_ids[m],
                "shiploads_taken": st.shiploads_taken[m],
                "shiploads": len(b.shiploads[m]),
                "closed": st.market_closed[m],
            }
            for m in range(len(b.market_ids))
        ],
        "market_values": {RESOURCES[g]: st.market_markers[i] for i, g in enumerate(b.track_goods)},
        "tribute_exhausted": [b.terr_ids[t] for t in range(b.n_terr) if st.exhausted[t]],
        "project_offer": [b.project_ids[p] for p in st.offer],
        "projects_under_construction": [b.project_ids[p] for p in st.started],
        "project_stack": len(st.stack),
        "event": b.event_ids[st.event] if st.event >= 0 else None,
        "event_pile": len(st.piles[b.round_pile[st.round]]),
        "battle": None,
        "round_end": round_report(st),
        # what the end of the round would do to each side if the action phase ended now (supply, projects…)
        "round_forecast": forecast(st),
    }
    if st.battle_at >= 0:
        out["battle"] = {
            "territory": b.terr_ids[st.battle_at],
            "attacker": SIDES[st.attacker],
            "played": [b.card_kinds[k].name for k in st.played] if st.played else None,
            "deck": sum(st.deck),
        }
    if cp == TERMINAL:
        result = st.outcome()
        out["outcome"] = result.to_json() if result is not None else None
        out["end_reason"] = st.end_reason
    return out


def view(st: PolisState, player: int | None) -> dict[str, Any]:
    """The JSON-ready view of `player` (0 Athens, 1 Sparta, None spectator)."""
    out = public(st)
    if player is not None:
        out["player"] = player
        out["side"] = SIDES[player]
        out["hand"] = _hand(st, player)
        if st.current_player() == player:
            legal = st.legal_actions()
            out["legal_actions"] = [a.to_json() for a in legal]
            # what each costs and brings, computed by the rules (the table shows it before the click)
            out["action_effects"] = preview.effects(st, legal)
            # why the actions a player may look for are not among them (a project too dear, a siege short of
            # hoplites…): the table says it instead of "nothing you can do here"
            out["blocked"] = blocked.blocked(st, legal)
    return out
