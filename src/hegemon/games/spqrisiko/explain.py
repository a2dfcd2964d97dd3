"""Why an action is refused, with the rule it breaks named: `explain(state, action)` -> a `Refusal` (rule, reason
id, its arguments, the reason in English; the web client says each id in its language: `why.<id>`).

Only used on the error path (`core.play` asks when an action is not among `legal_actions()`), so it may be
slow and thorough; it never decides legality itself. The reason is written for the player on turn and never
mentions hidden information (other hands, the deck order)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hegemon.core.actions import Action
from hegemon.core.errors import Refusal, RefusalArg
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


def _r(rule: str, id: str, text: str, **args: RefusalArg) -> Refusal:
    return Refusal(rule, id, text, args)


def explain(st: SpqrState, action: Action) -> Refusal:
    """Why an action that is not legal now is refused (the caller has checked that)."""
    ph = st.phase
    rule = PHASE_RULES.get(ph, "")
    if st.terminal is not None:
        return _r("R 18", "over", "the game is over")
    legal = st.legal_actions()
    kinds = sorted({a.kind for a in legal})
    phase = st.phase_name()
    if action.kind not in kinds:
        where = KIND_PHASE.get(action.kind)
        now = ", ".join(k.replace("_", " ") for k in kinds) or "nothing (the dice or the cards are next)"
        if where is not None:
            return _r(
                rule, "kind_elsewhere", f"{action.kind.replace('_', ' ')} belongs to {where}; now, in {phase}, you may: {now}",
                kind=action.kind, where=where, phase=phase, kinds=kinds,
            )  # fmt: skip
        return _r(rule, "kind_not_now", f"in {phase} you may: {now}", phase=phase, kinds=kinds)
    unknown = _unknown_name(st, action)
    if unknown is not None:
        return Refusal(rule, unknown.id, unknown.text, unknown.args)
    why = _specific(st, action)
    if why is not None:
        return why
    n = sum(a.kind == action.kind for a in legal)
    return _r(rule, "not_one_of", f"not one of the {n} legal choices of this kind now", n=n)


SEA_FIELDS = {"naval_move": ("source", "dest")}
"""Fields naming a sea area where the same name elsewhere names a province; `sea` always names a sea."""


def _unknown_name(st: SpqrState, a: Any) -> Refusal | None:
    """The reason "there is no province (or sea area) X" for a name of `a` not on the board, else None."""
    b = st.board
    seas = (*SEA_FIELDS.get(a.kind, ()), "sea")
    for f in ("province", "source", "target", "dest", "sea"):
        name = getattr(a, f, None)
        if not isinstance(name, str):
            continue
        if f in seas and name not in b.sea_index:
            return _r("", "no_sea", f"there is no sea area {name!r}", place=name)
        if f not in seas and name not in b.province_index:
            return _r("", "no_province", f"there is no province {name!r}", place=name)
    return None


def _specific(st: SpqrState, a: Any) -> Refusal | None:
    """The reason for an action of a kind that is legal now, its names all on the board."""
    me = st.order[st.turn] if st.order else 0
    reason = _REASONS.get(a.kind)
    why = reason(st, a, me) if reason is not None else None
    if why is None and a.kind in ("roll_dice", "declare", "move_in", "move"):
        return _count_range(st, a.kind)
    return why


def _whose(st: SpqrState, me: int, p: int) -> str | int:
    """Whose province `p` is, for `me`: "yours", "neutral", "free" or the owner's seat."""
    o = st.owner[p]
    if o == me:
        return "yours"
    if o == NEUTRAL:
        return "neutral"
    if o == FREE:
        return "free"
    return int(o)


def _whose_text(whose: str | int) -> str:
    return f"player {whose}'s" if isinstance(whose, int) else whose


def _claim(st: SpqrState, a: Any, me: int) -> Refusal | None:
    p = st.board.province_index[a.province]
    name, whose = st.board.province_names[p], _whose(st, me, p)
    return _r("R 2", "taken", f"{name} is taken already ({_whose_text(whose)})", place=name, whose=whose)


def _reinforce(st: SpqrState, a: Any, me: int) -> Refusal | None:
    p = st.board.province_index[a.province]
    name, whose = st.board.province_names[p], _whose(st, me, p)
    return _r(
        "R 6", "reinforce_own", f"reinforcements go to your own provinces; {name} is {_whose_text(whose)}",
        place=name, whose=whose,
    )  # fmt: skip


def _trade_set(st: SpqrState, a: Any, me: int) -> Refusal | None:
    return _r(
        "R 8",
        "not_a_set",
        "you do not hold those cards, or they are not a set (three alike or three different)",
    )


def _place_power_centre(st: SpqrState, a: Any, me: int) -> Refusal | None:
    b = st.board
    p = b.province_index[a.province]
    name = b.province_names[p]
    if st.owner[p] != me:
        whose = _whose(st, me, p)
        return _r(
            "R 16.4", "pc_own", f"a power centre goes in a province of yours; {name} is {_whose_text(whose)}",
            place=name, whose=whose,
        )  # fmt: skip
    if st.pcs_built >= st.opts.power_centres:
        return _r("R 16.4", "pc_all_built", "every power centre is on the board already")
    return _r("R 16.4", "pc_near", f"{name} has a power centre, or a land neighbour has one", place=name)


def _place_trireme(st: SpqrState, a: Any, me: int) -> Refusal | None:
    return _r("R 8", "bonus_trireme", "a bonus trireme goes in a sea area bordering one of your provinces")


def _build(st: SpqrState, a: Any, me: int) -> Refusal | None:
    b = st.board
    p = b.province_index[a.province]
    s = b.sea_index[a.sea]
    name, sea = b.province_names[p], b.sea_names[s]
    if st.owner[p] != me:
        whose = _whose(st, me, p)
        return _r(
            "R 7.1", "build_own", f"the 3 legionaries come from a province of yours; {name} is {_whose_text(whose)}",
            place=name, whose=whose,
        )  # fmt: skip
    if s not in b.coasts[p]:
        return _r("R 7.1", "build_coast", f"{name} does not border {sea}", place=name, sea=sea)
    n = int(st.armies[p])
    return _r(
        "R 7.2", "build_garrison",
        f"{name} has {n} legionaries: a trireme takes 3 and the province must keep its garrison [R 14.1]",
        place=name, n=n,
    )  # fmt: skip


def _disband(st: SpqrState, a: Any, me: int) -> Refusal | None:
    if st.built:
        return _r(
            "R 7",
            "disband_after_build",
            "you have built a trireme this turn; disbanding is no longer allowed",
        )
    return _r(
        "R 7", "disband_own",
        "you may disband only your own trireme into a province of yours on that sea (limit per turn)",
    )  # fmt: skip


def _naval_move(st: SpqrState, a: Any, me: int) -> Refusal | None:
    b = st.board
    if st.moved_group:
        return _r("R 9.3", "naval_moved", "one naval move per turn: you have moved already")
    s, t = b.sea_index[a.source], b.sea_index[a.dest]
    source, dest = b.sea_names[s], b.sea_names[t]
    if t not in b.sea_links[s]:
        return _r(
            "R 9.4", "naval_step", f"{dest} is not next to {source}: one step only", source=source, dest=dest
        )
    have = int(st.triremes[me][s])
    return _r(
        "R 9.3", "naval_count", f"you have {have} trireme(s) that may move in {source}, not {a.count}",
        have=have, sea=source, n=int(a.count),
    )  # fmt: skip


def _naval_attack(st: SpqrState, a: Any, me: int) -> Refusal | None:
    b = st.board
    s = b.sea_index[a.sea]
    sea = b.sea_names[s]
    if st.naval_fought[s]:
        return _r(
            "R 11.4",
            "naval_fought",
            f"at most one naval combat per sea area per turn: {sea} has had its combat",
            sea=sea,
        )
    mine = st.triremes[me][s]
    theirs = st.triremes[a.opponent][s] if 0 <= a.opponent < st.n and a.opponent != me else 0
    if not mine or not theirs:
        return _r("R 11.1", "naval_both", f"both fleets must be in {sea}", sea=sea)
    dm, dt = int(min(3, mine)), int(min(3, theirs))
    return _r(
        "R 10.13",
        "naval_dice",
        f"you may not roll fewer dice than the defender ({dm} against {dt})",
        mine=dm,
        theirs=dt,
    )


def _attack(st: SpqrState, a: Any, me: int) -> Refusal | None:
    """A land attack or a sea attack: the checks they share, then those of each."""
    b = st.board
    s, t = b.province_index[a.source], b.province_index[a.target]
    rule = "R 13" if a.kind == "attack" else "R 12"
    sn, tn = b.province_names[s], b.province_names[t]
    if st.owner[s] != me:
        whose = _whose(st, me, s)
        return _r(
            rule + ".1", "attack_from_own", f"attacks start from a province of yours; {sn} is {_whose_text(whose)}",
            place=sn, whose=whose,
        )  # fmt: skip
    if st.owner[t] == me:
        return _r(rule + ".1", "attack_own", f"{tn} is yours already", place=tn)
    if protected(st, t):
        r = int(st.opts.first_elimination_round)
        return _r(
            "R 18.4", "protected", f"{tn} is its owner's only province, which cannot be attacked before round {r}",
            place=tn, n=r,
        )  # fmt: skip
    if a.kind == "attack":
        return _land_attack(st, me, s, t)
    return _sea_attack(st, a, me, s, t)


def _land_attack(st: SpqrState, me: int, s: int, t: int) -> Refusal:
    b = st.board
    sn, tn = b.province_names[s], b.province_names[t]
    if t not in b.land[s]:
        return _r(
            "R 13.6", "no_land_border", f"{sn} and {tn} share no land border (across the sea it is a sea attack, R 12)",
            source=sn, target=tn,
        )  # fmt: skip
    n = int(st.armies[s])
    if n < 2:
        return _r(
            "R 14.1", "last_legionary", f"{sn} has {n} legionary: the last one never attacks", place=sn, n=n
        )
    floor = int(attack_floor(st, s, t, me))
    if n <= floor and floor > attack_keep(st, s, t, me):
        return _r(
            "R 14.2", "house_garrison",
            f"{sn} borders another enemy province: an attack from it needs at least {floor + 1} "
            f"legionaries, so that {floor} stay after moving in (house garrison rule)",
            place=sn, n=floor + 1, keep=floor,
        )  # fmt: skip
    dd = int(min(3, st.armies[t]))
    return _r(
        "R 10.13", "attack_dice",
        f"{sn} cannot roll as many dice as {tn}'s {dd} defender(s) while keeping its garrison",
        source=sn, target=tn, n=dd,
    )  # fmt: skip


def _sea_attack(st: SpqrState, a: Any, me: int, s: int, t: int) -> Refusal:
    b = st.board
    sn, tn = b.province_names[s], b.province_names[t]
    bridge = [sea_ for q, sea_ in b.bridges[s] if q == t]
    if not bridge:
        return _r(
            "R 12.1", "no_bridge", f"{sn} and {tn} do not border the same sea area", source=sn, target=tn
        )
    if st.attacked_by_sea[t]:
        return _r("R 12.6", "sea_attacked", f"{tn} has been attacked by sea this turn already", place=tn)
    if st.sea_conquered[s]:
        return _r(
            "R 12.7",
            "sea_conquered",
            f"{sn} was conquered by sea this turn: it may attack by land, not by sea",
            place=sn,
        )
    sa = b.sea_index[a.sea]
    if sa in bridge:
        o = st.owner[t]
        theirs = int(st.triremes[o][sa] if o >= 0 else 0)
        mine = int(st.triremes[me][sa])
        if mine <= theirs:
            sea = b.sea_names[sa]
            return _r(
                "R 12.2", "more_triremes",
                f"you need strictly more triremes than the defender in {sea} ({mine} against {theirs})",
                sea=sea, mine=mine, theirs=theirs,
            )  # fmt: skip
    spare = int(st.armies[s] - garrison(st, s, me))
    if spare < 1:
        n = int(st.armies[s])
        return _r(
            "R 14.3",
            "sea_none",
            f"{sn} has {n} legionaries and must keep its garrison: none may sail",
            place=sn,
            n=n,
        )
    dd = int(min(3, st.armies[t]))
    return _r(
        "R 10.13", "sea_declare_max",
        f"{sn} can declare at most {spare} legionaries (keeping its garrison [R 14.3]): fewer than the {dd} "
        f"dice {tn} defends with, and the declared force never rolls fewer dice than the defender",
        source=sn, target=tn, n=spare, dice=dd,
    )  # fmt: skip


def _fortify(st: SpqrState, a: Any, me: int) -> Refusal | None:
    b = st.board
    s, t = b.province_index[a.source], b.province_index[a.dest]
    sn, tn = b.province_names[s], b.province_names[t]
    if st.owner[s] != me or st.owner[t] != me:
        return _r(
            "R 15.1", "fortify_own", "the strategic move goes from one of your provinces to another of yours"
        )
    if t not in b.land[s]:
        return _r(
            "R 15.2", "fortify_link", f"{sn} and {tn} share no land border and no sea area you control",
            source=sn, target=tn,
        )  # fmt: skip
    return _r("R 14.2", "fortify_garrison", f"{sn} must keep its garrison", place=sn)


def _declare(st: SpqrState, a: Any, me: int) -> Refusal | None:
    """A declared force below the defender's dice (else None: the choice is out of range)."""
    if st.battle:
        dd = int(min(3, st.armies[st.battle.target]))
        if 0 < a.count < dd:
            return _r(
                "R 10.13", "declare_least",
                f"declare at least {dd}: the declared force never rolls fewer dice than the defender's {dd}",
                n=dd, dice=dd,
            )  # fmt: skip
    return None


def _count_range(st: SpqrState, kind: str) -> Refusal | None:
    """The range of the numbers (dice, legionaries) that an action of `kind` may choose now."""
    counts = [x for x in st.legal_actions() if x.kind == kind]
    vals = [getattr(x, "dice", getattr(x, "count", 0)) for x in counts]
    rule = {"roll_dice": "R 10", "declare": "R 12.3", "move_in": "R 13.3", "move": "R 15"}[kind]
    if vals:
        lo, hi = int(min(vals)), int(max(vals))
        return _r(rule, "between", f"choose between {lo} and {hi}", lo=lo, hi=hi)
    return None


_REASONS: dict[str, Callable[[SpqrState, Any, int], Refusal | None]] = {
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
