"""Why an action is refused, with the rule it breaks named: `explain(state, action)` -> (rule, reason), the
sections of `polis.md` (and of the siege seed for the variants).

Only used on the error path (`core.play` asks when an action is not among `legal_actions()`); it never
decides legality itself, and it never mentions hidden information (the opponent's combat cards)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hegemon.core.actions import Action
from hegemon.games.polis.options import SACRIFICE
from hegemon.games.polis.rules import common
from hegemon.games.polis.rules.common import (
    T_CIVIL_WAR,
    T_COLLECT,
    T_GALLEYS,
    T_HOPLITES,
    T_MERCHANTS,
    T_MOVE_G,
    T_MOVE_H,
    T_PROJECT,
    T_PROXENOS,
    T_REDEEM,
    T_SIEGE,
    T_TRADE,
)  # fmt: skip

if TYPE_CHECKING:
    from hegemon.games.polis.state import PolisState

PHASE_RULES = {
    common.ACTION: "§4.3", common.MOVE: "§5.5", common.SIEGE_ROLL: "§7.1", common.SACRIFICE_FORCE: "§7.2",
    common.DS_FORCE: "§7.2", common.GARRISON: "§7.1", common.TRADE_ROLL: "§5.9", common.EXTRA: "§4.4",
    common.BATTLE_CHOOSE: "§6.1", common.BATTLE_DRAW: "§6.3", common.RETREAT: "§6.5", common.PLAY: "§6.4",
    common.MATCH: "§6.4", common.DRAW_PROJECT: "§8.1", common.DRAW_EVENT: "§8.8", common.EVENT_REMOVE: "§8.8",
    common.SUPPLY: "§8.2", common.GROWTH: "§8.3", common.PHOROS: "§8.6", common.OVER: "§9.1",
}  # fmt: skip

# the twelve actions of §5: kind -> (token, section, name)
ACTIONS: dict[str, tuple[int, str, str]] = {
    "create_hoplites": (T_HOPLITES, "§5.1", "create hoplites"),
    "create_galleys": (T_GALLEYS, "§5.2", "create galleys"),
    "create_merchants": (T_MERCHANTS, "§5.3", "create merchants"),
    "start_project": (T_PROJECT, "§5.4", "start a project"),
    "move_hoplites": (T_MOVE_H, "§5.5", "move hoplites"),
    "move_galleys": (T_MOVE_G, "§5.6", "move galleys"),
    "besiege": (T_SIEGE, "§7.1", "besiege a polis"),
    "start_siege": (T_SIEGE, "§7.3", "start a siege"),
    "continue_siege": (T_SIEGE, "§7.3", "continue a siege"),
    "collect": (T_COLLECT, "§5.8", "collection"),
    "trade": (T_TRADE, "§5.9", "trade"),
    "move_proxenos": (T_PROXENOS, "§5.10", "move the proxenos"),
    "redeem_proxenos": (T_REDEEM, "§5.11", "redeem the proxenos"),
    "civil_war": (T_CIVIL_WAR, "§5.12", "instigate a civil war"),
}
MILITARY = ("move_hoplites", "move_galleys", "besiege")
TOKEN_NAMES = {tok: name for tok, _, name in ACTIONS.values()}


def explain(st: PolisState, action: Action) -> tuple[str, str]:
    """(rule, reason) for an action that is not legal now (the caller has checked that)."""
    ph = st.phase
    rule = PHASE_RULES.get(ph, "")
    if ph == common.OVER:
        return rule, "the game is over"
    legal = st.legal_actions()
    kinds = sorted({a.kind for a in legal})
    kind = action.kind
    if kind not in kinds:
        now = ", ".join(k.replace("_", " ") for k in kinds) or "nothing (a draw or a roll is next)"
        if kind in ACTIONS and ph == common.ACTION:
            why = _action_phase(st, action)
            if why is not None:
                return why
            _tok, sec, name = ACTIONS[kind]
            return sec, f"{name} is not possible now (its conditions or costs are not met); you may: {now}"
        if kind in ACTIONS:
            return rule, f"finish the {st.phase_name()} step first; now you may: {now}"
        return rule, f"in the {st.phase_name()} step you may: {now}"
    if ph == common.ACTION:
        why = _action_phase(st, action)
        if why is not None:
            return why
    same = [a for a in legal if a.kind == kind]
    sec = ACTIONS[kind][1] if kind in ACTIONS else rule
    shown = "; ".join(str(a) for a in same[:4]) + (" …" if len(same) > 4 else "")
    return sec, f"not possible with these values now; legal: {shown}"


def _action_phase(st: PolisState, a: Any) -> tuple[str, str] | None:
    """The reasons that hold for any of the twelve actions: two different actions a turn, prestige, owners."""
    b = st.board
    s = st.active
    kind = a.kind
    token, sec, name = ACTIONS[kind]
    diceless = st.siege_rule > SACRIFICE
    if kind == "besiege" and diceless:
        return "§7.3", "under the diceless siege rules a siege is started (start siege) and continued, not rolled"
    if kind in ("start_siege", "continue_siege") and not diceless:
        return "§7.1", "under the classic and sacrifice siege rules a siege is one action with the d4 (besiege)"
    used = {tok for tok, _ in st.tokens}
    if token in used and kind not in ("start_siege", "continue_siege"):  # the diceless rules have their own (§7.3)
        return "§4.3", f"the two actions of a turn must be different: you have taken '{TOKEN_NAMES[token]}' already"
    mp = b.military_pp
    if kind in MILITARY and st.pp[s] < mp:
        return "§4.5", f"{name} costs {mp} prestige and you have {st.pp[s]}"
    if st.passed[1 - s] and sum(st.res[s]) < b.extra_cost:
        x = b.extra_cost
        return "§4.4", (
            "after the opponent has passed every action costs one extra resource, and you have none"
            if x == 1
            else f"after the opponent has passed every action costs {x} extra resources, and you have {sum(st.res[s])}"
        )
    polis = getattr(a, "polis", None)
    if kind.startswith("create_") and polis is not None:
        q = b.polis_index.get(polis)
        if q is None:
            return sec, f"there is no polis {polis!r}"
        if st.owner[q] != s:
            return sec, f"{name}: {b.polis_names[q]} is not your polis"
        if kind == "create_galleys" and b.p_galley_sea[q] < 0:
            return sec, f"{b.polis_names[q]} has no port: galleys are built in a polis on the sea"
        if kind == "create_merchants" and not b.p_commercial[q]:
            return sec, f"{b.polis_names[q]} is not a commercial polis"
        if kind == "create_merchants" and st.merchants[s] >= b.max_merchants:
            return sec, f"you have all {b.max_merchants} merchants already"
    if kind in ("besiege", "start_siege", "continue_siege") and polis is not None:
        q = b.polis_index.get(polis)
        if q is None:
            return sec, f"there is no polis {polis!r}"
        if st.owner[q] == s:
            return sec, f"{b.polis_names[q]} is yours"
        if b.p_capital[q]:
            return sec, f"{b.polis_names[q]} is a capital: capitals cannot be besieged"
        t = b.p_terr[q]
        if st.units[s][t] < b.p_fort[q]:
            return sec, (
                f"a siege of {b.polis_names[q]} (fortification {b.p_fort[q]}) needs at least {b.p_fort[q]} of your "
                f"hoplites in {b.terr_names[t]}; you have {st.units[s][t]}"
            )
        if kind == "besiege" and st.units[1 - s][t] >= st.units[s][t]:
            return sec, f"you must control {b.terr_names[t]} (more hoplites there than the opponent)"
    if kind == "collect":
        where = b.terr_index.get(a.territory)
        if where is None:
            return sec, f"there is no territory {a.territory!r}"
        t = where
        if st.units[s][t] < 1:
            return sec, f"a collection needs at least one of your hoplites in {b.terr_names[t]}"
        if st.exhausted[t]:
            return sec, f"{b.terr_names[t]} has been collected already this round"
        if st.units[1 - s][t] > st.units[s][t]:
            return sec, f"the opponent controls {b.terr_names[t]}"
        if t != b.home[s] and st.pp[s] < mp:
            return "§4.5", f"a collection outside your home region costs {mp} prestige and you have {st.pp[s] or 'none'}"
        if t == b.home[s] and st.pp[s] < b.home_collect_pp:
            return "§4.5", f"a collection in your home region costs {b.home_collect_pp} prestige and you have {st.pp[s]}"
    if kind == "trade" and st.merchants_in_port[s] < 1:
        return sec, "a trade needs a merchant in port"
    return None
