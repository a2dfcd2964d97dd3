"""Why an action is refused, with the rule it breaks named: `explain(state, action)` -> (rule, reason).

Only used on the error path (`core.play` asks when an action is not among `legal_actions()`), so it may be
slow and thorough; it never decides legality itself. The reason is written for the player on turn and never
mentions hidden information (other hands, the deck order)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hegemon.core.actions import Action
from hegemon.games.spqrisiko.phase import Phase
from hegemon.games.spqrisiko.rules.common import attack_floor, attack_keep, garrison, protected
from hegemon.games.spqrisiko.scoring import FREE, NEUTRAL

if TYPE_CHECKING:
    from hegemon.games.spqrisiko.state import SpqrState

PHASE_RULES = {
    Phase.SETUP_ORDER: "R 2", Phase.SETUP_DEAL: "R 2", Phase.SETUP_CLAIM: "R 2", Phase.SETUP_NEUTRAL: "R 2",
    Phase.CARDS: "R 8", Phase.CARD_BONUS: "R 8", Phase.REINFORCE: "R 6", Phase.CONVERT: "R 7",
    Phase.NAVAL_MOVE: "R 9", Phase.NAVAL_COMBAT: "R 11", Phase.NAVAL_BATTLE: "R 11",
    Phase.SEA_ATTACK: "R 12", Phase.DECLARE: "R 12.3", Phase.SEA_BATTLE: "R 12.3",
    Phase.LAND_ATTACK: "R 13", Phase.LAND_BATTLE: "R 10", Phase.MOVE_IN: "R 13.3",
    Phase.STRATEGIC: "R 15", Phase.STRATEGIC_COUNT: "R 15", Phase.DRAW: "R 17", Phase.OVER: "R 18",
}  # fmt: skip
"""The rule of each phase (numbers of the 2005 rulebook, as in `spqrisiko.md`)."""

KIND_PHASE = {
    "claim": "setup: claim", "claim_neutral": "setup: neutral group", "trade_set": "reinforcements: cards",
    "place_trireme": "reinforcements: card bonus", "place_power_centre": "reinforcements: card bonus",
    "forgo": "reinforcements: card bonus", "reinforce": "reinforcements: place", "build": "reinforcements: navy",
    "disband": "reinforcements: navy", "naval_move": "naval movement", "naval_attack": "naval combat",
    "sea_attack": "sea attacks", "declare": "sea attack: declare", "attack": "land attacks",
    "roll_dice": "a battle", "withdraw": "a land or naval battle", "move_in": "land attack: move in",
    "fortify": "strategic move", "move": "strategic move: count",
}  # fmt: skip


def explain(st: SpqrState, action: Action) -> tuple[str, str]:
    """(rule, reason) for an action that is not legal now (the caller has checked that)."""
    ph = st.phase
    rule = PHASE_RULES.get(ph, "")
    if st.terminal is not None:
        return "R 18", "the game is over"
    legal = st.legal_actions()
    kinds = sorted({a.kind for a in legal})
    if action.kind not in kinds:
        where = KIND_PHASE.get(action.kind)
        now = ", ".join(k.replace("_", " ") for k in kinds) or "nothing (the dice or the cards are next)"
        if where is not None:
            return rule, f"{action.kind.replace('_', ' ')} belongs to {where}; now, in {st.phase_name()}, you may: {now}"
        return rule, f"in {st.phase_name()} you may: {now}"
    unknown = _unknown_name(st, action)
    if unknown is not None:
        return rule, unknown
    why = _specific(st, action)
    if why is not None:
        return why
    return rule, f"not one of the {sum(a.kind == action.kind for a in legal)} legal choices of this kind now"


SEA_FIELDS = {"naval_move": ("source", "dest")}
"""Fields naming a sea area where the same name elsewhere names a province; `sea` always names a sea."""


def _unknown_name(st: SpqrState, a: Any) -> str | None:
    """The reason "there is no province (or sea area) X" for a name of `a` not on the board, else None."""
    b = st.board
    seas = (*SEA_FIELDS.get(a.kind, ()), "sea")
    for f in ("province", "source", "target", "dest", "sea"):
        name = getattr(a, f, None)
        if not isinstance(name, str):
            continue
        if f in seas and name not in b.sea_index:
            return f"there is no sea area {name!r}"
        if f not in seas and name not in b.province_index:
            return f"there is no province {name!r}"
    return None


def _specific(st: SpqrState, a: Any) -> tuple[str, str] | None:
    """The reason for an action of a kind that is legal now, its names all on the board."""
    me = st.order[st.turn] if st.order else 0
    reason = _REASONS.get(a.kind)
    why = reason(st, a, me) if reason is not None else None
    if why is None and a.kind in ("roll_dice", "declare", "move_in", "move"):
        return _count_range(st, a.kind)
    return why


def _whose(st: SpqrState, me: int, p: int) -> str:
    o = st.owner[p]
    if o == me:
        return "yours"
    if o == NEUTRAL:
        return "neutral"
    if o == FREE:
        return "free"
    return f"player {o}'s"


def _claim(st: SpqrState, a: Any, me: int) -> tuple[str, str] | None:
    p = st.board.province_index[a.province]
    return "R 2", f"{st.board.province_names[p]} is taken already ({_whose(st, me, p)})"


def _reinforce(st: SpqrState, a: Any, me: int) -> tuple[str, str] | None:
    p = st.board.province_index[a.province]
    return "R 6", f"reinforcements go to your own provinces; {st.board.province_names[p]} is {_whose(st, me, p)}"


def _trade_set(st: SpqrState, a: Any, me: int) -> tuple[str, str] | None:
    return "R 8", "you do not hold those cards, or they are not a set (three alike or three different)"


def _place_power_centre(st: SpqrState, a: Any, me: int) -> tuple[str, str] | None:
    b = st.board
    p = b.province_index[a.province]
    if st.owner[p] != me:
        return "R 16.4", f"a power centre goes in a province of yours; {b.province_names[p]} is {_whose(st, me, p)}"
    if st.pcs_built >= st.opts.power_centres:
        return "R 16.4", "every power centre is on the board already"
    return "R 16.4", f"{b.province_names[p]} has a power centre, or a land neighbour has one"


def _place_trireme(st: SpqrState, a: Any, me: int) -> tuple[str, str] | None:
    return "R 8", "a bonus trireme goes in a sea area bordering one of your provinces"


def _build(st: SpqrState, a: Any, me: int) -> tuple[str, str] | None:
    b = st.board
    p = b.province_index[a.province]
    s = b.sea_index[a.sea]
    if st.owner[p] != me:
        return "R 7.1", f"the 3 legionaries come from a province of yours; {b.province_names[p]} is {_whose(st, me, p)}"
    if s not in b.coasts[p]:
        return "R 7.1", f"{b.province_names[p]} does not border {b.sea_names[s]}"
    return "R 7.2", (
        f"{b.province_names[p]} has {st.armies[p]} legionaries: a trireme takes 3 and the province must keep its "
        "garrison [R 14.1]"
    )


def _disband(st: SpqrState, a: Any, me: int) -> tuple[str, str] | None:
    if st.built:
        return "R 7", "you have built a trireme this turn; disbanding is no longer allowed"
    return "R 7", "you may disband only your own trireme into a province of yours on that sea (limit per turn)"


def _naval_move(st: SpqrState, a: Any, me: int) -> tuple[str, str] | None:
    b = st.board
    if st.moved_group:
        return "R 9.3", "one naval move per turn: you have moved already"
    s, t = b.sea_index[a.source], b.sea_index[a.dest]
    if t not in b.sea_links[s]:
        return "R 9.4", f"{b.sea_names[t]} is not next to {b.sea_names[s]}: one step only"
    return "R 9.3", f"you have {st.triremes[me][s]} trireme(s) that may move in {b.sea_names[s]}, not {a.count}"


def _naval_attack(st: SpqrState, a: Any, me: int) -> tuple[str, str] | None:
    b = st.board
    s = b.sea_index[a.sea]
    if st.naval_fought[s]:
        return "R 11.4", f"at most one naval combat per sea area per turn: {b.sea_names[s]} has had its combat"
    mine = st.triremes[me][s]
    theirs = st.triremes[a.opponent][s] if 0 <= a.opponent < st.n and a.opponent != me else 0
    if not mine or not theirs:
        return "R 11.1", f"both fleets must be in {b.sea_names[s]}"
    return "R 10.13", f"you may not roll fewer dice than the defender ({min(3, mine)} against {min(3, theirs)})"


def _attack(st: SpqrState, a: Any, me: int) -> tuple[str, str] | None:
    """A land attack or a sea attack: the checks they share, then those of each."""
    b = st.board
    s, t = b.province_index[a.source], b.province_index[a.target]
    rule = "R 13" if a.kind == "attack" else "R 12"
    sn, tn = b.province_names[s], b.province_names[t]
    if st.owner[s] != me:
        return rule + ".1", f"attacks start from a province of yours; {sn} is {_whose(st, me, s)}"
    if st.owner[t] == me:
        return rule + ".1", f"{tn} is yours already"
    if protected(st, t):
        return "R 18.4", f"{tn} is its owner's only province, which cannot be attacked before round {st.opts.first_elimination_round}"
    if a.kind == "attack":
        return _land_attack(st, me, s, t)
    return _sea_attack(st, a, me, s, t)


def _land_attack(st: SpqrState, me: int, s: int, t: int) -> tuple[str, str]:
    b = st.board
    sn, tn = b.province_names[s], b.province_names[t]
    if t not in b.land[s]:
        return "R 13.6", f"{sn} and {tn} share no land border (across the sea it is a sea attack, R 12)"
    if st.armies[s] < 2:
        return "R 14.1", f"{sn} has {st.armies[s]} legionary: the last one never attacks"
    floor = attack_floor(st, s, t, me)
    if st.armies[s] <= floor and floor > attack_keep(st, s, t, me):
        return "R 14.2", (
            f"{sn} borders another enemy province: an attack from it needs at least {floor + 1} "
            f"legionaries, so that {floor} stay after moving in (house garrison rule)"
        )
    return "R 10.13", (
        f"{sn} cannot roll as many dice as {tn}'s {min(3, st.armies[t])} defender(s) while keeping its garrison"
    )


def _sea_attack(st: SpqrState, a: Any, me: int, s: int, t: int) -> tuple[str, str]:
    b = st.board
    sn, tn = b.province_names[s], b.province_names[t]
    bridge = [sea_ for q, sea_ in b.bridges[s] if q == t]
    if not bridge:
        return "R 12.1", f"{sn} and {tn} do not border the same sea area"
    if st.attacked_by_sea[t]:
        return "R 12.6", f"{tn} has been attacked by sea this turn already"
    if st.sea_conquered[s]:
        return "R 12.7", f"{sn} was conquered by sea this turn: it may attack by land, not by sea"
    sa = b.sea_index[a.sea]
    if sa in bridge:
        o = st.owner[t]
        theirs = st.triremes[o][sa] if o >= 0 else 0
        if st.triremes[me][sa] <= theirs:
            return "R 12.2", (
                f"you need strictly more triremes than the defender in {b.sea_names[sa]} "
                f"({st.triremes[me][sa]} against {theirs})"
            )
    spare = st.armies[s] - garrison(st, s, me)
    if spare < 1:
        return "R 14.3", f"{sn} has {st.armies[s]} legionaries and must keep its garrison: none may sail"
    dd = min(3, st.armies[t])
    return "R 10.13", (
        f"{sn} can declare at most {spare} legionaries (keeping its garrison [R 14.3]): fewer than the {dd} "
        f"dice {tn} defends with, and the declared force never rolls fewer dice than the defender"
    )


def _fortify(st: SpqrState, a: Any, me: int) -> tuple[str, str] | None:
    b = st.board
    s, t = b.province_index[a.source], b.province_index[a.dest]
    sn, tn = b.province_names[s], b.province_names[t]
    if st.owner[s] != me or st.owner[t] != me:
        return "R 15.1", "the strategic move goes from one of your provinces to another of yours"
    if t not in b.land[s]:
        return "R 15.2", f"{sn} and {tn} share no land border and no sea area you control"
    return "R 14.2", f"{sn} must keep its garrison"


def _declare(st: SpqrState, a: Any, me: int) -> tuple[str, str] | None:
    """A declared force below the defender's dice (else None: the choice is out of range)."""
    if st.battle:
        dd = min(3, st.armies[st.battle.target])
        if 0 < a.count < dd:
            return "R 10.13", (
                f"declare at least {dd}: the declared force never rolls fewer dice than the defender's {dd}"
            )
    return None


def _count_range(st: SpqrState, kind: str) -> tuple[str, str] | None:
    """The range of the numbers (dice, legionaries) that an action of `kind` may choose now."""
    counts = [x for x in st.legal_actions() if x.kind == kind]
    vals = [getattr(x, "dice", getattr(x, "count", 0)) for x in counts]
    rule = {"roll_dice": "R 10", "declare": "R 12.3", "move_in": "R 13.3", "move": "R 15"}[kind]
    if vals:
        return rule, f"choose between {min(vals)} and {max(vals)}"
    return None


_REASONS: dict[str, Callable[[SpqrState, Any, int], tuple[str, str] | None]] = {
    "claim": _claim,
    "claim_neutral": _claim,
    "reinforce": _reinforce,
    "trade_set": _trade_set,
    "place_power_centre": _place_power_centre,
    "place_trireme": _place_trireme,
    "build": _build,
    "disband": _disband,
    "naval_move": _naval_move,
    "naval_attack": _naval_attack,
    "attack": _attack,
    "sea_attack": _attack,
    "fortify": _fortify,
    "declare": _declare,
}
"""The reason for each kind of action that breaks a rule of its own (the others: `_count_range` or None)."""
