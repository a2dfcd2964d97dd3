"""Why an action is refused, with the rule it breaks named: `explain(state, action)` -> a `Refusal` (the section of
`polis.md`, or of the siege seed for the variants; the reason's id, its arguments and the reason in English: the
web client says each id in its language, `why.<id>`).

Only used on the error path (`core.play` asks when an action is not among `legal_actions()`); it never
decides legality itself, and it never mentions hidden information (the opponent's combat cards)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hegemon.core.actions import Action
from hegemon.core.errors import Refusal, RefusalArg
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
TOKEN_KINDS = {tok: kind for kind, (tok, _, _) in ACTIONS.items()}
"""The action kind of each token (the last of the kinds sharing one, as TOKEN_NAMES)."""


def _r(rule: str, id: str, text: str, **args: RefusalArg) -> Refusal:
    return Refusal(rule, id, text, args)


def explain(st: PolisState, action: Action) -> Refusal:
    """Why an action that is not legal now is refused (the caller has checked that)."""
    ph = st.phase
    rule = PHASE_RULES.get(ph, "")
    if ph == common.OVER:
        return _r(rule, "over", "the game is over")
    legal = st.legal_actions()
    kinds = sorted({a.kind for a in legal})
    kind = action.kind
    phase = st.phase_name()
    if kind not in kinds:
        now = ", ".join(k.replace("_", " ") for k in kinds) or "nothing (a draw or a roll is next)"
        if kind in ACTIONS and ph == common.ACTION:
            why = _action_phase(st, action)
            if why is not None:
                return why
            _tok, sec, name = ACTIONS[kind]
            return _r(
                sec, "p_not_now", f"{name} is not possible now (its conditions or costs are not met); you may: {now}",
                action=kind, kinds=kinds,
            )  # fmt: skip
        if kind in ACTIONS:
            return _r(
                rule,
                "p_finish",
                f"finish the {phase} step first; now you may: {now}",
                phase=phase,
                kinds=kinds,
            )
        return _r(rule, "p_in_step", f"in the {phase} step you may: {now}", phase=phase, kinds=kinds)
    if ph == common.ACTION:
        why = _action_phase(st, action)
        if why is not None:
            return why
    same = [a for a in legal if a.kind == kind]
    sec = ACTIONS[kind][1] if kind in ACTIONS else rule
    shown = "; ".join(str(a) for a in same[:4]) + (" …" if len(same) > 4 else "")
    return _r(sec, "p_values", f"not possible with these values now; legal: {shown}", legal=shown)


def _action_phase(st: PolisState, a: Any) -> Refusal | None:
    """The reasons that hold for any of the twelve actions: two different actions a turn, prestige, owners."""
    b = st.board
    s = st.active
    kind = a.kind
    token, sec, name = ACTIONS[kind]
    diceless = st.siege_rule > SACRIFICE
    if kind == "besiege" and diceless:
        return _r(
            "§7.3",
            "p_diceless",
            "under the diceless siege rules a siege is started (start siege) and continued, not rolled",
        )
    if kind in ("start_siege", "continue_siege") and not diceless:
        return _r(
            "§7.1",
            "p_classic",
            "under the classic and sacrifice siege rules a siege is one action with the d4 (besiege)",
        )
    used = {tok for tok, _ in st.tokens}
    if token in used and kind not in (
        "start_siege",
        "continue_siege",
    ):  # the diceless rules have their own (§7.3)
        return _r(
            "§4.3", "p_different",
            f"the two actions of a turn must be different: you have taken '{TOKEN_NAMES[token]}' already",
            action=TOKEN_KINDS[token],
        )  # fmt: skip
    mp = int(b.military_pp)
    pp = int(st.pp[s])
    if kind in MILITARY and pp < mp:
        if mp == 1:
            return _r(
                "§4.5", "p_prestige", f"{name} costs {mp} prestige and you have {pp}", action=kind, n=pp
            )
        return _r(
            "§4.5",
            "p_prestige_n",
            f"{name} costs {mp} prestige and you have {pp}",
            action=kind,
            cost=mp,
            n=pp,
        )
    if st.passed[1 - s] and sum(st.res[s]) < b.extra_cost:
        x = int(b.extra_cost)
        if x == 1:
            return _r(
                "§4.4",
                "p_extra",
                "after the opponent has passed every action costs one extra resource, and you have none",
            )
        have = int(sum(st.res[s]))
        return _r(
            "§4.4", "p_extra_n",
            f"after the opponent has passed every action costs {x} extra resources, and you have {have}",
            cost=x, n=have,
        )  # fmt: skip
    polis = getattr(a, "polis", None)
    if kind.startswith("create_") and polis is not None:
        q = b.polis_index.get(polis)
        if q is None:
            return _r(sec, "p_no_polis", f"there is no polis {polis!r}", place=polis)
        pn = b.polis_names[q]
        if st.owner[q] != s:
            return _r(sec, "p_not_yours", f"{name}: {pn} is not your polis", action=kind, place=pn)
        if kind == "create_galleys" and b.p_galley_sea[q] < 0:
            return _r(
                sec, "p_no_port", f"{pn} has no port: galleys are built in a polis on the sea", place=pn
            )
        if kind == "create_merchants" and not b.p_commercial[q]:
            return _r(sec, "p_not_commercial", f"{pn} is not a commercial polis", place=pn)
        if kind == "create_merchants" and st.merchants[s] >= b.max_merchants:
            m = int(b.max_merchants)
            return _r(sec, "p_all_merchants", f"you have all {m} merchants already", n=m)
    if kind in ("besiege", "start_siege", "continue_siege") and polis is not None:
        q = b.polis_index.get(polis)
        if q is None:
            return _r(sec, "p_no_polis", f"there is no polis {polis!r}", place=polis)
        pn = b.polis_names[q]
        if st.owner[q] == s:
            return _r(sec, "p_yours", f"{pn} is yours", place=pn)
        if b.p_capital[q]:
            return _r(sec, "p_capital", f"{pn} is a capital: capitals cannot be besieged", place=pn)
        t = b.p_terr[q]
        tn = b.terr_names[t]
        if st.units[s][t] < b.p_fort[q]:
            f, n = int(b.p_fort[q]), int(st.units[s][t])
            return _r(
                sec, "p_siege_hoplites",
                f"a siege of {pn} (fortification {f}) needs at least {f} of your hoplites in {tn}; you have {n}",
                place=pn, f=f, f2=f, territory=tn, n=n,
            )  # fmt: skip
        if kind == "besiege" and st.units[1 - s][t] >= st.units[s][t]:
            return _r(
                sec,
                "p_control",
                f"you must control {tn} (more hoplites there than the opponent)",
                territory=tn,
            )
    if kind == "collect":
        where = b.terr_index.get(a.territory)
        if where is None:
            return _r(
                sec, "p_no_territory", f"there is no territory {a.territory!r}", territory=str(a.territory)
            )
        t = where
        tn = b.terr_names[t]
        if st.units[s][t] < 1:
            return _r(
                sec,
                "p_collect_hoplite",
                f"a collection needs at least one of your hoplites in {tn}",
                territory=tn,
            )
        if st.exhausted[t]:
            return _r(sec, "p_collected", f"{tn} has been collected already this round", territory=tn)
        if st.units[1 - s][t] > st.units[s][t]:
            return _r(sec, "p_opp_controls", f"the opponent controls {tn}", territory=tn)
        if t != b.home[s] and pp < mp:
            text = f"a collection outside your home region costs {mp} prestige and you have {pp or 'none'}"
            if mp == 1 and pp == 0:
                return _r("§4.5", "p_collect_prestige", text)
            return _r("§4.5", "p_collect_away", text, cost=mp, n=pp)
        home = int(b.home_collect_pp)
        if t == b.home[s] and pp < home:
            return _r(
                "§4.5", "p_collect_home", f"a collection in your home region costs {home} prestige and you have {pp}",
                cost=home, n=pp,
            )  # fmt: skip
    if kind == "trade" and st.merchants_in_port[s] < 1:
        return _r(sec, "p_merchant", "a trade needs a merchant in port")
    return None
