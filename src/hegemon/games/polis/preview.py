"""What each of the current side's legal actions costs and brings, before it is played: the action is applied
to a clone of the position and the side's public numbers are compared (prestige, population, resources,
units, merchants, poleis), up to the next choice or chance node. The web table writes this on the buttons and
asks for a confirmation when an action loses the game, leaves no prestige (ostracism) or gives up a polis.

What an action costs is kept apart from what the round then does by itself: when an action ends the action
phase (the last pass) or an end-of-round step (the last growth, a supply paid, the phoros), the automatic steps
that follow (projects completed, supply paid in full, megalopolis, storage halved: the state's `round_notes`)
are taken out of the action's own numbers and reported under `round`. A siege that takes a polis reports its
reward (+F prestige) under `reward`, apart from what the action pays (1 prestige and 1 hoplite per forced
marker): the price is never netted into the reward.

Only actions whose result depends on public information alone are previewed: a combat-card play waits for the
opponent's answer from a hidden hand, so it is not. An answer (`match`) is: it is resolved with the two cards
the attacker has laid face up and the answering side's own cards, and stops at the next draw."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hegemon.core.actions import Action
from hegemon.core.game import TERMINAL
from hegemon.games.polis.board import RESOURCES, SIDES, WHEAT
from hegemon.games.polis.rules import common
from hegemon.games.polis.rules.common import GARRISON

if TYPE_CHECKING:
    from hegemon.games.polis.state import PolisState

# resolved with hidden cards (or a draw): never previewed; an answer to laid cards is (module text)
HIDDEN = frozenset({"play_cards", "draw_card", "draw_project", "draw_event", "siege_roll", "market_roll"})
# the siege actions whose prestige may include the reward of a polis taken (seeds-en.md §1.2-1.3)
DISC_SIEGES = frozenset({"start_siege", "continue_siege", "force_siege"})


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


def _new_notes(st: PolisState, c: PolisState) -> tuple[tuple[Any, ...], ...]:
    """The end-of-round steps the clone `c` took by itself after the action (none when it took none)."""
    old, new = st.round_notes, c.round_notes
    if new is old or new == old:
        return ()
    if old and new[: len(old)] == old:
        return tuple(new[len(old) :])
    return tuple(new[1:])  # a new end of round: its first note only says which round ended


def _undo_round(after: dict[str, Any], notes: tuple[tuple[Any, ...], ...], s: int) -> None:
    """Take the automatic end-of-round steps `notes` out of the numbers `after` of side `s` (in reverse order:
    storage halves what the supply left)."""
    for n in reversed(notes):
        kind, side = n[0], n[1]
        if kind in ("project", "megalopolis"):
            after["prestige" if side == s else "opponent_prestige"] -= n[-1]
        elif side != s:
            continue
        elif kind == "supply":
            after["resources"][WHEAT] += n[2]
        elif kind == "storage":
            for r, was, _now in n[2]:
                after["resources"][r] = was


def _diff(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k in ("prestige", "opponent_prestige", "population", "hoplites", "galleys", "merchants"):
        d = after[k] - before[k]
        if d:
            out[k] = d
    res = {RESOURCES[r]: after["resources"][r] - before["resources"][r] for r in range(len(RESOURCES))}
    res = {k: d for k, d in res.items() if d}
    if res:
        out["resources"] = res
    return out


def effect(st: PolisState, action: Action, before: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The effect of `action` (legal now) for the side to play, or None when it is not previewed. Keys, each
    present only when it applies: prestige, opponent_prestige, population, hoplites, galleys, merchants (the
    changes), resources ({name: change}), lost / gained (polis ids), game_over ({winners, reason, lose}),
    ostracism (no prestige left: the game is lost at the end of the round unless it is regained), then
    (the chance phase the rest waits on: "siege roll", "market roll", "card draw"…), round (what the end of
    the round then did by itself, apart from the action: prestige, opponent_prestige, resources; present, maybe
    empty, whenever the action leads into the end of the round's automatic steps), reward ({polis, prestige}:
    the prestige a siege's capture pays, kept out of `prestige`, which is then the action's own price)."""
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
    total = _numbers(c, s)
    after = _numbers(c, s)
    notes = _new_notes(st, c)
    _undo_round(after, notes, s)
    out = _diff(before, after)
    if c.round_notes != st.round_notes:  # the end of the round's steps ran on after the action
        out["round"] = _diff(after, total)
    if action.kind in DISC_SIEGES and c.phase != GARRISON:
        taken = sorted(after["poleis"] - before["poleis"])
        if taken:
            f = int(sum(b.p_fort[q] for q in taken))
            # diceless pays its 1 PP together with the F (net F - 1, §7.3.3): the 1 is the price, F the reward
            out["reward"] = {"polis": b.polis_ids[taken[0]], "prestige": f}
            rest = out.get("prestige", 0) - f
            if rest:
                out["prestige"] = rest
            else:
                out.pop("prestige", None)
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
