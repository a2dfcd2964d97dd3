"""What each of the current side's legal actions costs and brings, before it is played: the action is applied
to a clone of the position and the side's public numbers are compared (prestige, population, resources,
units, merchants, poleis), up to the next choice or chance node. The web table writes this on the buttons and
asks for a confirmation when an action loses the game, leaves no prestige (ostracism) or gives up a polis.

Only actions whose result depends on public information alone are previewed: a combat-card play or answer is
resolved with the opponent's hidden cards, so those are not (the preview would leak them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hegemon.core.actions import Action
from hegemon.core.game import TERMINAL
from hegemon.games.polis.board import RESOURCES, SIDES
from hegemon.games.polis.rules import common

if TYPE_CHECKING:
    from hegemon.games.polis.state import PolisState

# resolved with hidden cards (or a draw): never previewed
HIDDEN = frozenset(
    {"play_cards", "match", "draw_card", "draw_project", "draw_event", "siege_roll", "market_roll"}
)


def _numbers(st: PolisState, s: int) -> dict[str, Any]:
    b = st.board
    return {
        "prestige": st.pp[s],
        "opponent_prestige": st.pp[1 - s],
        "population": common.population(st, s),
        "hoplites": sum(n for t, n in enumerate(st.units[s]) if b.is_land[t]),
        "galleys": sum(n for t, n in enumerate(st.units[s]) if not b.is_land[t]),
        "merchants": st.merchants[s],
        "resources": list(st.res[s]),
        "poleis": {q for q in range(b.n_poleis) if st.owner[q] == s},
    }


def effect(st: PolisState, action: Action, before: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The effect of `action` (legal now) for the side to play, or None when it is not previewed. Keys, each
    present only when it applies: prestige, opponent_prestige, population, hoplites, galleys, merchants (the
    changes), resources ({name: change}), lost / gained (polis ids), game_over ({winners, reason, lose}),
    ostracism (no prestige left: the game is lost at the end of the round unless it is regained), then
    (the chance phase the rest waits on: "siege roll", "market roll", "card draw"…)."""
    if action.kind in HIDDEN:
        return None
    s = st.current_player()
    if s not in (0, 1):
        return None
    b = st.board
    if before is None:
        before = _numbers(st, s)
    c = st.clone()
    c.apply(action)
    after = _numbers(c, s)
    out: dict[str, Any] = {}
    for k in ("prestige", "opponent_prestige", "population", "hoplites", "galleys", "merchants"):
        d = after[k] - before[k]
        if d:
            out[k] = d
    res = {RESOURCES[r]: after["resources"][r] - before["resources"][r] for r in range(len(RESOURCES))}
    res = {k: d for k, d in res.items() if d}
    if res:
        out["resources"] = res
    lost = sorted(before["poleis"] - after["poleis"])
    gained = sorted(after["poleis"] - before["poleis"])
    if lost:
        out["lost"] = [b.polis_ids[q] for q in lost]
    if gained:
        out["gained"] = [b.polis_ids[q] for q in gained]
    cp = c.current_player()
    if cp == TERMINAL:
        o = c.outcome()
        winners = list(o.winners) if o is not None else []
        out["game_over"] = {
            "winners": [SIDES[w] for w in winners],
            "reason": c.end_reason,
            "lose": s not in winners,
        }
    elif before["prestige"] > 0 and after["prestige"] == 0:
        out["ostracism"] = True
    if cp not in (0, 1, TERMINAL):
        out["then"] = c.phase_name()  # a roll or a draw comes next: "market roll", "card draw"…
    return out


def effects(st: PolisState, actions: list[Action]) -> list[dict[str, Any] | None]:
    """`effect` of each action, in order (the numbers before are taken once)."""
    s = st.current_player()
    if s not in (0, 1):
        return [None] * len(actions)
    before = _numbers(st, s)
    return [effect(st, a, before) for a in actions]
