"""What each of the current player's reinforcement choices costs and brings, before it is played: the action is
applied to a clone and the player's public numbers are compared (legionaries on the map and to place,
triremes, power centres, cards, VP, bonus triremes and power centres still to place). The web table writes
this on the buttons (a card set, building or disbanding a trireme, a bonus).

Attacks, moves and rolls are not previewed: their result is the dice (the odds endpoint gives those)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hegemon.core.actions import Action
from hegemon.games.spqrisiko.scoring import land_reinforcements
from hegemon.games.spqrisiko.state import CARD_BONUS, CARDS

if TYPE_CHECKING:
    from hegemon.games.spqrisiko.state import SpqrState

PREVIEWED = frozenset({"trade_set", "place_trireme", "place_power_centre", "forgo", "build", "disband"})


def _numbers(st: SpqrState, p: int) -> dict[str, int]:
    return {
        "legionaries": sum(a for a, o in zip(st.armies, st.owner, strict=True) if o == p),
        "pool": st.pool,
        "triremes": sum(st.triremes[p]),
        "power_centres": sum(1 for o, pc in zip(st.owner, st.power_centre, strict=True) if o == p and pc),
        "cards": sum(st.hands[p]),
        "vp": st.vp[p],
        "bonus_triremes": st.bonus_triremes,
        "bonus_power_centres": st.bonus_pcs,
    }


def effects(st: SpqrState, actions: list[Action]) -> list[dict[str, int] | None]:
    """For each action (legal now, in order): the changes of the player's numbers (only those that change), or
    None when it is not previewed."""
    p = st.current_player()
    if p < 0 or not any(a.kind in PREVIEWED for a in actions):
        return [None] * len(actions)
    before = _numbers(st, p)
    bonus_phases = (CARDS, CARD_BONUS)
    base = land_reinforcements(st.owner.count(p))
    out: list[dict[str, int] | None] = []
    for a in actions:
        if a.kind not in PREVIEWED:
            out.append(None)
            continue
        c = st.clone()
        c.apply(a)
        after = _numbers(c, p)
        if c.phase not in bonus_phases and st.phase in bonus_phases:
            # the turn's own reinforcements came in on the way (they come anyway): count only the choice's part
            after["pool"] -= base
            after["legionaries"] -= before["power_centres"]
        out.append({k: after[k] - before[k] for k in before if after[k] != before[k]})
    return out


def annotate(view: dict[str, Any], st: SpqrState, actions: list[Action]) -> None:
    """Add `action_effects` (aligned with `legal_actions`) to a view when some action is previewed."""
    eff = effects(st, actions)
    if any(e is not None for e in eff):
        view["action_effects"] = eff
