"""What the bots know about Polis: a position evaluation (the final score — population, prestige and
posterity — plus units, resources, merchants, the best project a side can start now, sieges within reach,
sieges in progress under the diceless rules and the option to force under Sacrifice and Diceless Sacrifice,
the threat of a siege by the side whose turn comes next, the wheat the next supply needs and the ostracism
danger of an empty prestige track), the determinization of the opponent's combat cards, and defaults for the
sub-choices of a move."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hegemon.core.actions import Action
from hegemon.core.game import PlayerId
from hegemon.core.roles import BotRole
from hegemon.games.polis import scoring
from hegemon.games.polis.actions import MoveFrom
from hegemon.games.polis.board import SILVER, WHEAT
from hegemon.games.polis.options import DICELESS, DICELESS_SACRIFICE, SACRIFICE
from hegemon.games.polis.pending import DiscSiege, SiegeRollDue
from hegemon.games.polis.rules import common, flow
from hegemon.games.polis.state import PolisState

W_UNIT = 0.55
W_RESOURCE = 0.18
W_SILVER = 0.3
W_MERCHANT = 0.35
W_LEAGUE = 1.0  # per non-capital polis in the league, beyond its cubes: its growth, slots and reach to come
W_HUNGER = 1.0  # per population cube the stored wheat cannot feed
W_STARVE = 4.0  # the capital could not be fed even with every prestige point (§9.1 case 1)
W_LOST = 25.0  # a side certain to lose at the end of this round (ostracised, or its capital starving)
SCALE = 5.0
# a diceless siege in progress: the chance that one more action of the siege still finds the discs in place
# (no opponent units in the territory), under `diceless_sacrifice` (discs kept into the next round) and
# `diceless` (discs removed at the end of the action phase); with opponent units there it is lower
KEEP_DS = 0.9
KEEP_DICELESS = 0.85
KEEP_CONTESTED = 0.75
KEEP_FORCE_NEXT = 0.9  # the chance a planned forcing next action still happens
W_ACTION = 0.5  # what one more action spent on a siege (a disc per action) costs in score points
REACH = 0.5  # a siege within reach but not begun: this share of its expected gain (it may never be made)
# the side whose turn comes next (the opponent, at the end of a turn) can make one of its sieges within reach at
# once: the best of them is worth this share of its gain instead (so a turn that leaves a polis open to a siege
# next turn reads as the danger it is, and defending it pays)
REACH_MOVER = 0.9
PP_NONE = 6.0  # no prestige left: ostracism danger
PP_ONE = 1.5  # one prestige point left
# the best project of the offer a side can start now (issue 13: Athens, with no silver at the start, built too
# few): this share of what it would bring beyond the resources it takes. Off (0) in both sets: measured at 1.0
# it was no clear gain for the search against greedy (docs/experiments/ai-search-history.md, "Athens' economy")
W_PROJECT = 0.0
# the prestige a side will hold after the coming supply (`round_end_prestige`): the danger of an empty or
# one-point track counted on it as well as on the track now, times this weight; and a side that has passed with
# none left then is lost (`W_LOST`). Off (0) in the default set (greedy's)
W_SUPPLY_DANGER = 0.0


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights and constants (the module's constants above are the defaults): greedy and
    every caller that names none use `DEFAULT`; the search uses `SEARCH` (`search_evaluate`), tuned against greedy
    by `scripts/tune_polis.py`, and as Athens `SEARCH_ATHENS` (its `BOTS.evaluate_for`; ai/README.md)."""

    unit: float = W_UNIT
    resource: float = W_RESOURCE
    silver: float = W_SILVER
    merchant: float = W_MERCHANT
    league: float = W_LEAGUE
    hunger: float = W_HUNGER
    starve: float = W_STARVE
    lost: float = W_LOST
    scale: float = SCALE
    keep_ds: float = KEEP_DS
    keep_diceless: float = KEEP_DICELESS
    keep_contested: float = KEEP_CONTESTED
    keep_force_next: float = KEEP_FORCE_NEXT
    action: float = W_ACTION
    reach: float = REACH
    reach_mover: float = REACH_MOVER
    pp_none: float = PP_NONE
    pp_one: float = PP_ONE
    project: float = W_PROJECT
    supply_danger: float = W_SUPPLY_DANGER


DEFAULT = Weights()
# the search's set, tuned against greedy with the default set by `scripts/tune_polis.py` (docs/experiments/ai-search-history.md, "A separately
# tuned evaluation for the search"): a siege within reach counts 0.3 of its gain, not half. Session 11: resources
# other than silver count nothing beyond the hunger they relieve (0, as in Athens' set): tuned as Sparta against the
# search playing Athens (`tune_polis.py --opponent search --athens 0`), +9.4 ± 3.2 points at 40 iterations, and
# no loss against greedy (docs/experiments/ai-search-history.md, "Sparta's set, tuned against the search")
SEARCH = Weights(reach=0.3, resource=0.0)
# the search's set when it plays Athens (session 9): the weights a fit of the evaluation's terms to game results
# points to (`scripts/fit_polis.py`: silver worth about 0.6, other resources about nothing beyond the hunger they
# relieve, the best project a side can start about 0.5), on top of `SEARCH`. Measured against `SEARCH` on paired
# deals it won more as Athens and less as Sparta (docs/experiments/ai-search-history.md, "Fitting the evaluation to game results"), so
# only Athens' search uses it (`search_evaluate_for`). Session 10: a non-capital polis held counts half its
# league weight (0.5), where the fit puts it below 0 at equal score: +3.8 to +7.2 points against greedy on 800
# paired deals a rule, every rule (docs/experiments/ai-search-history.md, "Athens' poleis at half weight")
SEARCH_ATHENS = Weights(reach=0.3, resource=0.0, silver=0.6, project=0.5, league=0.5)


def polis_worth(st: PolisState, s: int, q: int, w: Weights = DEFAULT) -> float:
    """What taking polis `q` is worth to side `s` in score points: its cubes (from neutral: the base
    population; from the opponent: its current cubes, which the opponent loses too), its place in the league
    (twice over from the opponent), less feeding the new cubes at the next supply, plus the prestige the siege
    pays on success (F; F − 1 net under `diceless`)."""
    b = st.board
    f = b.p_fort[q]
    prev = st.owner[q]
    gained = b.p_base[q] if prev < 0 else st.pop[q]
    cubes = gained + w.league if prev < 0 else 2 * (gained + w.league)
    # the new cubes must be fed at the next supply: as in `strength`, each the stored wheat cannot feed costs
    pop = common.population(st, s)
    wheat = st.res[s][WHEAT]
    hunger = w.hunger * (max(0, pop + gained - wheat) - max(0, pop - wheat))
    return cubes - hunger + (f - 1 if st.siege_rule == DICELESS else f)


def dice_siege_gain(st: PolisState, s: int, q: int, w: Weights = DEFAULT) -> float:
    """The expected gain in score points of one classic (or sacrifice) siege of `q` by `s` now: the roll
    takes the polis with chance (sides − F + 1) / sides for 1 PP; a failed roll costs a hoplite and, under
    `sacrifice`, may be forced (1 PP and F − roll hoplites) when that pays and can be paid."""
    b = st.board
    f = b.p_fort[q]
    h = st.units[s][b.p_terr[q]]
    worth = polis_worth(st, s, q, w)
    sides = b.siege_die
    total = 0.0
    for roll in range(1, sides + 1):
        if roll >= f:
            total += worth
            continue
        fail = -w.unit
        if st.siege_rule == SACRIFICE and st.pp[s] >= 2 and h - 1 >= f - roll:
            fail = max(fail, worth - 1.0 - w.unit * (1 + f - roll))
        total += fail
    return total / sides - b.military_pp


def diceless_keep(st: PolisState, s: int, t: int, w: Weights = DEFAULT) -> float:
    """The chance that one more action of a diceless siege in territory `t` finds the discs still there."""
    keep = w.keep_ds if st.siege_rule == DICELESS_SACRIFICE else w.keep_diceless
    return keep * w.keep_contested if st.units[1 - s][t] > 0 else keep


def siege_value(st: PolisState, s: int, q: int, w: Weights = DEFAULT) -> float:
    """The value to `s` of its diceless siege of `q` (discs on it, or a forcing under way): the polis's worth
    times the chance the remaining discs are all placed — each further action a chance of the siege being
    broken, so every disc placed brings the polis nearer; none if the hoplites in the territory fell below F
    (the discs go at the next check) — less the actions the missing discs will take; under
    `diceless_sacrifice` at least the worth less what forcing the missing discs costs (1 PP and 1 hoplite
    each) when the side can afford it: in the forcing tail of the action now, or in its next action (a start
    or continue disc plus F − d − 1 forced ones)."""
    b = st.board
    f = b.p_fort[q]
    t = b.p_terr[q]
    d = st.discs[s][q]
    h = st.units[s][t]
    worth = polis_worth(st, s, q, w)
    due = st.pending
    pending = st.phase == common.DS_FORCE and st.active == s and isinstance(due, DiscSiege) and due.polis == q
    value = 0.0
    keep = diceless_keep(st, s, t, w)
    if h >= f:
        left = f - d
        value = worth * keep**left - w.action * left
    if st.siege_rule == DICELESS_SACRIFICE:
        k = f - d if pending else f - d - 1  # forced discs still needed
        if st.pp[s] >= k and (h >= k if pending else h >= f):
            forced = worth - k * (1.0 + w.unit)
            value = max(
                value, forced if pending else (forced - w.action) * w.keep_force_next * keep / w.keep_ds
            )
    return max(value, reach_value(st, s, q))


def reach_value(st: PolisState, s: int, q: int, w: Weights = DEFAULT) -> float:
    """A siege of `q` that `s` could make now (F own hoplites in the territory; under the dice rules also
    control of it): a share (`REACH`) of its expected gain (`reach_gain`)."""
    return w.reach * reach_gain(st, s, q, w)


def reach_gain(st: PolisState, s: int, q: int, w: Weights = DEFAULT) -> float:
    """The expected gain of a siege of `q` that `s` could make now, 0 if none or not worth it: a roll now, or
    under the diceless rules every disc placed one action at a time with the risk of being broken (a start
    costs 1 PP under Diceless Sacrifice)."""
    b = st.board
    t = b.p_terr[q]
    f = b.p_fort[q]
    us = st.units[s][t]
    if us < f:
        return 0.0
    if st.siege_rule < DICELESS:
        if us <= st.units[1 - s][t]:
            return 0.0
        gain = dice_siege_gain(st, s, q, w)
    else:
        worth = polis_worth(st, s, q, w)
        gain = worth * diceless_keep(st, s, t, w) ** (f - 1) - w.action * (f - 1)
        if st.siege_rule == DICELESS_SACRIFICE:
            gain -= 1.0
    return gain if gain > 0 else 0.0


def pending_prestige(st: PolisState, s: int) -> int:
    """Prestige `s` is about to receive in the middle of a siege action: the F of a polis taken (garrison
    choice still open), or of a forcing that completes the siege now — so a low prestige track on the way
    there is not mistaken for ostracism danger."""
    due = st.pending
    if st.active != s or not isinstance(due, (SiegeRollDue, DiscSiege)):
        return 0
    q = due.polis
    f = st.board.p_fort[q]
    if st.phase == common.GARRISON:
        return f - 1 if st.siege_rule == DICELESS else f
    if st.phase == common.SACRIFICE_FORCE:
        return f
    if st.phase == common.DS_FORCE:
        k = f - st.discs[s][q]
        if st.pp[s] >= k and st.units[s][st.board.p_terr[q]] >= k:
            return f
    return 0


def sacrifice_option(st: PolisState, s: int, w: Weights = DEFAULT) -> float:
    """Under `sacrifice`, after a failed roll: the option to force (1 PP and F − roll hoplites take the
    polis), worth the polis less that cost when positive."""
    due = st.pending
    if st.phase != common.SACRIFICE_FORCE or st.active != s or not isinstance(due, SiegeRollDue):
        return 0.0
    q, roll = due.polis, due.roll
    return max(0.0, polis_worth(st, s, q, w) - 1.0 - w.unit * (st.board.p_fort[q] - roll))


END_PHASES = frozenset((common.SUPPLY, common.GROWTH, common.PHOROS))


def lost_at_round_end(st: PolisState, s: int) -> bool:
    """During the end of the round (supply, growth, phoros): side `s` has no prestige left and no
    megalopolis still to come to give it some, so the end-of-round check will ostracise it (§9.1 case 2) —
    the game lost, whatever the wheat paid or the silver gained by it (paying the supply or the phoros down to
    0 PP). With its capital starving after its own pass, it is lost as well (§9.1 case 1)."""
    if st.phase not in END_PHASES:
        if st.passed[s] and st.phase == common.ACTION:
            b = st.board
            return bool(st.pop[b.capital[s]] > st.res[s][WHEAT] + st.pp[s])
        return False
    if st.pp[s] > 0:
        return False
    if st.round_end_stage <= flow.S_MEGA:
        b = st.board
        mega = sum(1 for q in range(b.n_poleis) if st.owner[q] == s and st.pop[q] > b.p_base[q])
        return mega * b.mega_pp <= 0
    return True


def round_end_prestige(st: PolisState, s: int) -> int:
    """At best, the prestige side `s` holds when the end-of-round check comes, if nothing else happens this
    round: the track now (and what a siege under way pays), plus the immediate prestige of the projects under
    construction on its poleis and a megalopolis point for each of its poleis above its base population, less
    the prestige the coming supply takes for the capital's cubes the stored wheat cannot feed (the other poleis
    can be released instead). 0 or less: ostracised at the end of the round (§9.1 case 2)."""
    b = st.board
    owner = st.owner
    pp = st.pp[s] + pending_prestige(st, s)
    for p in st.started:
        for q in range(b.n_poleis):
            if owner[q] == s and p in st.slots[q]:
                pp += b.pr_immediate[p]
    pp += b.mega_pp * sum(1 for q in range(b.n_poleis) if owner[q] == s and st.pop[q] > b.p_base[q])
    return pp - max(0, st.pop[b.capital[s]] * b.supply_wheat - st.res[s][WHEAT])


def danger(pp: int, w: Weights) -> float:
    """The ostracism danger of holding `pp` prestige points."""
    return w.pp_none if pp <= 0 else w.pp_one if pp == 1 else 0.0


def project_option(st: PolisState, s: int, w: Weights = DEFAULT) -> float:
    """The best project side `s` can start now, while it may still act this round (action phase, not passed):
    one of the offer whose exact cost it holds, with a free slot of its symbol on an own polis; worth the
    prestige it brings (immediate and posterity) less what its cost is worth in the evaluation, 0 if none
    pays. The offer goes at the end of the round, so the option is lost by passing without starting it, and
    starting a project first takes it from the opponent's option. Resources that complete a cost (a trade for
    the missing silver) are worth that much more."""
    if st.phase != common.ACTION or st.passed[s] or not st.offer:
        return 0.0
    b = st.board
    tb = st.tables
    res = st.res[s]
    owner = st.owner
    slots = st.slots
    best = 0.0
    for p in st.offer:
        cost = b.pr_cost[p]
        if any(res[i] < cost[i] for i in range(6)):
            continue
        gain = float(b.pr_immediate[p] + b.pr_posterity[p])
        gain -= w.resource * (sum(cost) - cost[SILVER]) + w.silver * cost[SILVER]
        if gain <= best:
            continue
        where = tb.symbol_slots[b.pr_symbol[p]]
        if any(owner[q] == s and any(slots[q][i] < 0 for i in where[q]) for q in range(b.n_poleis)):
            best = gain
    return best


def strength(st: PolisState, s: int, w: Weights = DEFAULT) -> float:
    """Side `s`'s strength in score points."""
    b = st.board
    res = st.res[s]
    pop = common.population(st, s)
    v = float(pop + st.pp[s] + scoring.posterity(st, s))  # the score (`scoring.score`), its population once
    v += w.unit * sum(st.units[s])
    v += w.resource * (sum(res) - res[SILVER]) + w.silver * res[SILVER]
    v += w.merchant * st.merchants[s]
    if w.project:
        v += w.project * project_option(st, s, w)
    diceless = st.siege_rule >= DICELESS
    discs = st.discs[s]
    owner = st.owner
    capital = b.p_capital
    best = 0.0  # the best siege within reach
    for q in range(b.n_poleis):
        if capital[q]:
            continue
        if owner[q] == s:
            v += w.league
        elif diceless and discs[q]:
            v += siege_value(st, s, q, w)
        else:
            gain = reach_gain(st, s, q, w)
            v += w.reach * gain
            best = max(best, gain)
    if best > 0 and st.phase == common.ACTION and st.active == s and not st.n_actions and not st.passed[s]:
        v += (w.reach_mover - w.reach) * best  # its turn comes next: it can make that siege at once
    if st.siege_rule == SACRIFICE:
        v += sacrifice_option(st, s, w)
    short = pop - res[WHEAT]
    if short > 0:
        v -= w.hunger * short
        if st.pop[b.capital[s]] > res[WHEAT] + st.pp[s]:
            v -= w.starve
    lost = lost_at_round_end(st, s)
    if lost:
        v -= w.lost
    now = danger(st.pp[s] + pending_prestige(st, s), w)
    v -= now
    if w.supply_danger and st.phase == common.ACTION and not lost:
        end = round_end_prestige(st, s)
        if end <= 0 and st.passed[s]:
            v -= w.lost  # passed, and the supply will take the last prestige point
        else:
            v -= w.supply_danger * max(0.0, danger(end, w) - now)
    return v


def evaluate(st: PolisState, w: Weights = DEFAULT) -> list[float]:
    """[Athens, Sparta] values in [0, 1] summing to 1: the result at the end, else a logistic of the
    difference of strengths."""
    if st.phase == common.OVER:
        out = st.outcome()
        assert out is not None  # the game is over
        won = out.winners
        return [1.0 / len(won) if p in won else 0.0 for p in (0, 1)]
    d = strength(st, 0, w) - strength(st, 1, w)
    v = 1.0 / (1.0 + math.exp(-d / w.scale))
    return [v, 1.0 - v]


def search_evaluate(st: PolisState) -> list[float]:
    """The search's evaluation: `evaluate` with the search's weights (`SEARCH`)."""
    return evaluate(st, SEARCH)


def search_evaluate_athens(st: PolisState) -> list[float]:
    """The search's evaluation when it plays Athens: `evaluate` with `SEARCH_ATHENS`."""
    return evaluate(st, SEARCH_ATHENS)


def search_evaluate_for(player: PlayerId) -> Callable[[Any], list[float]]:
    """The search's evaluation for the side it plays (`BOTS.evaluate_for`): Athens' set or `SEARCH`."""
    return search_evaluate_athens if player == 0 else search_evaluate


def determinize(st: PolisState, player: PlayerId, rng: random.Random) -> Any:
    """A copy where the opponent's combat cards are dealt again from the cards `player` has not seen (the
    deck plus that hand — only their total per kind is used), keeping the hand's size. Everything else in
    Polis is public or has no order in the state (project stack, event piles are drawn as chance)."""
    c = st.clone()
    if player not in (0, 1) or st.battle_at < 0:
        return c
    o = 1 - player
    k = len(st.deck)
    unseen = [st.deck[i] + st.hands[o][i] for i in range(k)]
    size = sum(st.hands[o])
    cards = [i for i in range(k) for _ in range(unseen[i])]
    rng.shuffle(cards)
    hand = [0] * k
    for i in cards[:size]:
        hand[i] += 1
    deck = [0] * k
    for i in cards[size:]:
        deck[i] += 1
    c.hands[o] = hand
    c.deck = deck
    return c


def auto_action(st: PolisState, player: PlayerId) -> Action | None:
    """Defaults for the sub-choices of a move the greedy bot has started: bring every unit the move may take,
    then end it."""
    if st.phase == common.MOVE:
        actions = st.legal_actions()
        steps = [a for a in actions if isinstance(a, MoveFrom)]
        if steps:
            return max(steps, key=lambda a: a.count)
        return actions[-1]
    return None


SIEGE_KINDS = frozenset(("besiege", "start_siege", "continue_siege", "force_siege"))


def try_first(action: Action) -> bool:
    """Actions the search tries before the others at a new node (and keeps among its root candidates): the
    siege actions, so that a plan of a move then a siege, or of a disc now and more later, is looked at."""
    return action.kind in SIEGE_KINDS


def turn_start(st: PolisState, player: PlayerId) -> Any:
    """A copy of an action-phase position with `player` to move at the start of a turn (None elsewhere, or if
    he has passed): the search ranks his actions there to order its expansions of his turns."""
    if st.phase != common.ACTION or st.passed[player]:
        return None
    c = st.clone()
    c.active = player
    c.n_actions = 0
    c.tokens = []
    return c


# search settings for this game, measured against greedy (see ai/README.md): plain expansion beats widening
# here; with the default prior weight and exploration the search spent nearly all its visits on the prior's
# first action (about greedy's move), a stronger fading prior with more exploration looks at the runners-up
# (mcts:hard vs greedy 56% -> 75% on the same 80 deals)
MCTS_DEFAULTS: dict[str, bool | int | float] = {
    "inner_prior": False, "widen": False, "exploration": 0.5, "prior_weight": 3.0, "turn_order": True,
    "turn_horizon": True, "auto_inner": True, "prior_samples": 4, "stratify_root": True,
}  # fmt: skip


def learned_for(player: PlayerId) -> Callable[[Any], list[float]]:
    """The learned evaluation (`ai/games/polis_value.py`), loaded on first use."""
    from hegemon.ai.games import polis_value

    return polis_value.learned_for(player)


def ranked_for(player: PlayerId) -> Callable[[Any], list[float]]:
    """The learned move ranking (`ai/games/polis_policy.py`), loaded on first use."""
    from hegemon.ai.games import polis_policy

    return polis_policy.ranked_for(player)


BOTS = BotRole(
    evaluate=evaluate,
    determinize=determinize,
    auto_action=auto_action,
    try_first=try_first,
    turn_start=turn_start,
    evaluate_for=search_evaluate_for,
    mcts_defaults=MCTS_DEFAULTS,
    evaluations={"learned": learned_for, "ranked": ranked_for},
)
"""The bots role (`Roles.bots`): the search's evaluation for either side is `search_evaluate_for`."""
