"""The S.P.Q.RisiKo! state: the position as data (mutable, with a cheap `clone()`; the board is shared) and the
game protocol. The rules live in `rules/` (set-up, reinforcements, navy, attacks, turn); this class dispatches
legal actions by phase and `apply` by action class.

Chance (order of play, random deal, dice, card draws) is an explicit player: `current_player()` returns CHANCE
and `chance_outcomes()` lists the outcomes, which are recorded like any other action, so a game replays from
its action list alone."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable
from typing import Any

from mypy_extensions import mypyc_attr

from hegemon.core.actions import Action
from hegemon.core.errors import Refusal
from hegemon.core.game import CHANCE, TERMINAL, Outcome, PlayerId
from hegemon.core.play import weighted_choice
from hegemon.games.spqrisiko import actions as A
from hegemon.games.spqrisiko import phase as PH
from hegemon.games.spqrisiko.board import SYMBOLS, Board
from hegemon.games.spqrisiko.combat import sorted_rolls
from hegemon.games.spqrisiko.options import SpqrOptions
from hegemon.games.spqrisiko.phase import PHASE_NAMES, Phase
from hegemon.games.spqrisiko.records import C_DEAL, C_DRAW, C_ORDER, C_ROLL, ORDER, Battle, Chance
from hegemon.games.spqrisiko.rules import attacks, index, navy, reinforcements, setup, turn
from hegemon.games.spqrisiko.rules.tables import CARD_SETS, act, tables
from hegemon.games.spqrisiko.scoring import FREE

# the phases by their old module-level names (tests, bots and encoders read them)
SETUP_ORDER, SETUP_DEAL, SETUP_CLAIM, SETUP_NEUTRAL = (
    Phase.SETUP_ORDER,
    Phase.SETUP_DEAL,
    Phase.SETUP_CLAIM,
    Phase.SETUP_NEUTRAL,
)
CARDS, CARD_BONUS, REINFORCE, CONVERT = Phase.CARDS, Phase.CARD_BONUS, Phase.REINFORCE, Phase.CONVERT
NAVAL_MOVE, NAVAL_COMBAT, NAVAL_BATTLE = Phase.NAVAL_MOVE, Phase.NAVAL_COMBAT, Phase.NAVAL_BATTLE
SEA_ATTACK, DECLARE, SEA_BATTLE = Phase.SEA_ATTACK, Phase.DECLARE, Phase.SEA_BATTLE
LAND_ATTACK, LAND_BATTLE, MOVE_IN = Phase.LAND_ATTACK, Phase.LAND_BATTLE, Phase.MOVE_IN
STRATEGIC, STRATEGIC_COUNT, DRAW, OVER = Phase.STRATEGIC, Phase.STRATEGIC_COUNT, Phase.DRAW, Phase.OVER
_SETS = CARD_SETS

__all__ = ["PHASE_NAMES", "SYMBOLS", "Phase", "SpqrState"]


@mypyc_attr(serializable=True)  # compiled (mypyc): clone() may call __new__ without __init__
class SpqrState:
    """A S.P.Q.RisiKo! position. Players are seats 0..n-1; `order` is the turn order."""

    __slots__ = (
        "arrived", "attacked_by_sea", "battle", "board", "bonus_pcs", "bonus_triremes", "chance",
        "conquered", "deck", "discard", "disbands", "eliminated", "eliminated_by", "hands", "last_dice",
        "moved_group", "n", "naval_fought", "neutral_groups", "opts", "order", "owner", "armies", "pc",
        "pcs_built", "phase", "pool", "power_centre", "round", "sea_conquered", "sets_traded", "slots",
        "terminal", "triremes", "turn", "turns", "vp", "vp_last", "vp_sources", "built", "acts",
        "provs", "ne", "empire", "empire_ok", "sea_ctrl", "seas_held",
    )  # fmt: skip

    def __init__(self, board: Board, opts: SpqrOptions) -> None:
        n = opts.players
        self.board = board
        self.opts = opts
        self.acts = tables(board)  # the board's actions by index, shared
        self.n = n
        P = board.n_provinces
        self.owner = [FREE] * P
        self.armies = [0] * P
        self.power_centre = [False] * P
        self.pcs_built = 0
        self.triremes = [[0] * board.n_seas for _ in range(n)]
        self.hands = [[0, 0, 0, 0] for _ in range(n)]
        self.deck = list(board.deck)
        self.discard = [0, 0, 0, 0]
        self.vp = [0] * n
        # the last scoring, and the VP scored so far per player by source [R 5.6]: each dict is replaced when it
        # changes, never changed in place (clones share them)
        self.vp_last: dict[str, int] = {}
        self.vp_sources: list[dict[str, int]] = [{} for _ in range(n)]
        self.eliminated = [False] * n
        self.eliminated_by: list[int | None] = [None] * n
        self.order: list[int] = []
        self.turn = 0  # index into order
        self.round = 0
        self.turns = 0  # player turns begun
        self.terminal: Outcome | None = None
        # set-up bookkeeping
        unused = 5 - n
        if unused == 0:
            groups = 0
        elif opts.neutrals == "per_unused_colour":
            groups = 9 * unused
        else:
            groups = 9
        self.neutral_groups = groups
        self.slots = [0] * n  # own placements still due (random deal)
        # per-turn bookkeeping
        self.pool = 0
        self.sets_traded = 0
        self.bonus_triremes = 0
        self.bonus_pcs = 0
        self.disbands = 0
        self.built = False
        self.moved_group = False
        self.arrived = [0] * board.n_seas
        self.naval_fought = [False] * board.n_seas
        self.attacked_by_sea = [False] * P
        self.sea_conquered = [False] * P
        self.conquered = False
        self.battle: Battle | None = None
        self.last_dice = 0
        self.chance: Chance | None = ORDER
        self.phase = PH.SETUP_ORDER
        self.pc = 0
        # the incremental index (rules/index.py): provinces per party (the neutrals at index -1), enemy land
        # neighbours per province, largest empire per party (valid where empire_ok), sea controllers (-1: none)
        # and seas held per party
        self.provs: list[list[int]] = [[] for _ in range(n + 1)]
        self.ne = [0] * P
        self.empire = [0] * (n + 1)
        self.empire_ok = [False] * (n + 1)
        self.sea_ctrl = [-1] * board.n_seas
        self.seas_held = [0] * (n + 1)

    # ------------------------------------------------------------------ protocol

    @property
    def num_players(self) -> int:
        return self.n

    def current_player(self) -> PlayerId:
        if self.terminal is not None:
            return TERMINAL
        if self.chance is not None:
            return CHANCE
        return self.order[self.turn]

    def is_terminal(self) -> bool:
        return self.terminal is not None

    def outcome(self) -> Outcome | None:
        return self.terminal

    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def clone(self) -> SpqrState:
        # complete the empire cache first, so that every clone (a search clones its root again and again) starts
        # with it and recomputes only the empires its own conquests touch
        index.empires(self)
        c = SpqrState.__new__(SpqrState)
        c.board = self.board
        c.opts = self.opts
        c.acts = self.acts
        c.n = self.n
        c.owner = self.owner[:]
        c.armies = self.armies[:]
        c.power_centre = self.power_centre[:]
        c.pcs_built = self.pcs_built
        c.triremes = [row[:] for row in self.triremes]
        c.hands = [h[:] for h in self.hands]
        c.deck = self.deck[:]
        c.discard = self.discard[:]
        c.vp = self.vp[:]
        c.vp_last = self.vp_last  # the scoring records are replaced, never changed in place: shared
        c.vp_sources = self.vp_sources[:]
        c.eliminated = self.eliminated[:]
        c.eliminated_by = self.eliminated_by[:]
        c.order = self.order[:]
        c.turn = self.turn
        c.round = self.round
        c.turns = self.turns
        c.terminal = self.terminal
        c.neutral_groups = self.neutral_groups
        c.slots = self.slots[:]
        c.pool = self.pool
        c.sets_traded = self.sets_traded
        c.bonus_triremes = self.bonus_triremes
        c.bonus_pcs = self.bonus_pcs
        c.disbands = self.disbands
        c.built = self.built
        c.moved_group = self.moved_group
        c.arrived = self.arrived[:]
        c.naval_fought = self.naval_fought[:]
        c.attacked_by_sea = self.attacked_by_sea[:]
        c.sea_conquered = self.sea_conquered[:]
        c.conquered = self.conquered
        c.battle = self.battle.copy() if self.battle is not None else None
        c.last_dice = self.last_dice
        c.chance = self.chance
        c.phase = self.phase
        c.pc = self.pc
        c.provs = [row[:] for row in self.provs]
        c.ne = self.ne[:]
        c.empire = self.empire[:]
        c.empire_ok = self.empire_ok[:]
        c.sea_ctrl = self.sea_ctrl[:]
        c.seas_held = self.seas_held[:]
        return c

    def reindex(self) -> None:
        """Rebuild the incremental index after writing `owner` or `triremes` directly (tests building a
        position); the rules keep it up to date themselves."""
        index.reindex(self)

    def provinces_of(self, who: int) -> list[int]:
        return self.provs[who][:] if -1 <= who < self.n else [p for p, o in enumerate(self.owner) if o == who]

    def legal_actions(self) -> list[Action]:
        """Every legal action now, in a canonical order (by kind, then board order). The only source of
        legality: `play` accepts exactly these."""
        if self.terminal is not None or self.chance is not None:
            return []
        legal = _LEGAL_BY_PHASE[self.phase]
        return legal(self, self.order[self.turn]) if legal is not None else []

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The possible chance outcomes now with their probabilities (empty at decision nodes)."""
        ch = self.chance
        if ch is None or self.terminal is not None:
            return []
        kind = ch.kind
        if kind == C_ORDER:
            perms = list(itertools.permutations(range(self.n)))
            return [(act(A.Order, p), 1.0 / len(perms)) for p in perms]
        if kind == C_DEAL:
            return setup.deal_outcomes(self)
        if kind == C_ROLL:
            na, nd = ch.attacker, ch.defender
            total = 6 ** (na + nd)
            return [
                (act(A.Roll, a, d), ca * cd / total)
                for a, ca in sorted_rolls(na)
                for d, cd in sorted_rolls(nd)
            ]
        total = sum(self.deck)
        me = self.order[self.turn]
        return [(act(A.Draw, SYMBOLS[i], me), c / total) for i, c in enumerate(self.deck) if c]

    def sample_chance(self, rng: random.Random) -> Action:
        """Sample a chance outcome with the same distribution as `chance_outcomes`, fast."""
        ch = self.chance
        assert ch is not None
        if ch.kind == C_ROLL:
            # the dice in draw order (attacker's first) as one base-6 number, looked up among the rolls of
            # this many dice met so far
            na, nd = ch.attacker, ch.defender
            r = rng.random
            code = 0
            for _ in range(na + nd):
                code = code * 6 + int(r() * 6)
            seen = _ROLLS[na * 4 + nd]
            roll = seen.get(code)
            if roll is None:
                roll = seen[code] = _roll_action(na, nd, code)
            return roll
        if ch.kind == C_ORDER:
            seats = list(range(self.n))
            rng.shuffle(seats)
            return act(A.Order, tuple(seats))
        if ch.kind == C_DEAL:
            return setup.sample_deal(self, rng)
        if ch.kind == C_DRAW:  # `weighted_choice(chance_outcomes())` without building the outcomes: same sums
            deck = self.deck
            total = sum(deck)
            me = self.order[self.turn]
            u = rng.random()
            acc = 0.0
            last = 0
            for i, c in enumerate(deck):
                if c:
                    last = i
                    acc += c / total
                    if u < acc:
                        return act(A.Draw, SYMBOLS[i], me)
            return act(A.Draw, SYMBOLS[last], me)
        return weighted_choice(self.chance_outcomes(), rng)

    def apply(self, action: Action) -> None:
        """Apply an action assumed legal (use `core.play` to check). Advances through automatic steps."""
        try:
            rule = _APPLY[type(action)]
        except KeyError:
            raise ValueError(f"unknown action {action!r}") from None
        nxt = rule(self, action)
        if nxt is not None:
            turn.enter(self, nxt)

    # ------------------------------------------------------------------ views

    def to_json(self) -> dict[str, Any]:
        """The whole state, hidden parts included (for digests and debugging, never sent to players)."""
        return {
            "owner": self.owner,
            "armies": self.armies,
            "power_centre": self.power_centre,
            "triremes": self.triremes,
            "hands": self.hands,
            "deck": self.deck,
            "discard": self.discard,
            "vp": self.vp,
            "eliminated": self.eliminated,
            "order": self.order,
            "turn": self.turn,
            "round": self.round,
            "turns": self.turns,
            "phase": int(self.phase),
            "chance": self.chance.to_json() if self.chance else None,
            "pool": self.pool,
            "battle": self.battle.to_json() if self.battle else [],
            "bonus": [self.bonus_triremes, self.bonus_pcs],
            "flags": [self.sets_traded, self.disbands, self.built, self.moved_group, self.conquered],
            "arrived": self.arrived,
            "naval_fought": self.naval_fought,
            "attacked_by_sea": self.attacked_by_sea,
            "sea_conquered": self.sea_conquered,
            "neutral_groups": self.neutral_groups,
            "slots": self.slots,
            "last_dice": self.last_dice,
            "outcome": self.terminal.to_json() if self.terminal else None,
        }

    def view(self, player: PlayerId | None) -> dict[str, Any]:
        from hegemon.games.spqrisiko.view import view

        return view(self, player)

    def explain_illegal(self, action: Action) -> Refusal:
        """Why an action that is not legal now is refused: the rule it breaks, the reason as data."""
        from hegemon.games.spqrisiko.explain import explain

        return explain(self, action)

    def views(self, players: Iterable[PlayerId | None]) -> dict[PlayerId | None, dict[str, Any]]:
        """`view` for several players at once (the public part computed once)."""
        from hegemon.games.spqrisiko.view import views

        return views(self, players)


_ROLLS: list[dict[int, Action]] = [{} for _ in range(16)]
"""Every roll sampled so far: `_ROLLS[4 * attacker dice + defender dice]` by the dice in draw order in base 6."""


def _roll_action(na: int, nd: int, code: int) -> Action:
    """The `Roll` of na attacker and nd defender dice drawn in the order `code` gives (base 6, faces - 1)."""
    dice = []
    for _ in range(na + nd):
        dice.append(code % 6 + 1)
        code //= 6
    dice.reverse()
    return act(A.Roll, tuple(sorted(dice[:na], reverse=True)), tuple(sorted(dice[na:], reverse=True)))


_LEGAL: dict[Phase, Callable[[SpqrState, int], list[Action]]] = {
    PH.SETUP_CLAIM: setup.legal_claim,
    PH.SETUP_NEUTRAL: setup.legal_claim,
    PH.CARDS: reinforcements.legal_cards,
    PH.CARD_BONUS: reinforcements.legal_bonus,
    PH.REINFORCE: reinforcements.legal_reinforce,
    PH.CONVERT: reinforcements.legal_convert,
    PH.NAVAL_MOVE: navy.legal_naval_move,
    PH.NAVAL_COMBAT: navy.legal_naval_combat,
    PH.NAVAL_BATTLE: attacks.legal_battle,
    PH.SEA_ATTACK: attacks.legal_sea_attack,
    PH.DECLARE: attacks.legal_declare,
    PH.LAND_ATTACK: attacks.legal_land_attack,
    PH.LAND_BATTLE: attacks.legal_battle,
    PH.MOVE_IN: attacks.legal_move_in,
    PH.STRATEGIC: turn.legal_strategic,
    PH.STRATEGIC_COUNT: turn.legal_strategic_count,
}
"""The legal actions of each decision phase (the others are chance nodes or the end)."""
_LEGAL_BY_PHASE: list[Callable[[SpqrState, int], list[Action]] | None] = [_LEGAL.get(ph) for ph in Phase]
"""`_LEGAL` indexed by the phase's number."""

# each action class applied by its rule; the result is the phase to enter next (None: the rule set it)
_APPLY: dict[type[Action], Callable[[SpqrState, Any], Phase | None]] = {
    A.Order: setup.apply_order,
    A.Deal: setup.apply_deal,
    A.Claim: setup.apply_claim,
    A.ClaimNeutral: setup.apply_claim_neutral,
    A.TradeSet: reinforcements.apply_trade,
    A.PlaceTrireme: reinforcements.apply_place_trireme,
    A.PlacePowerCentre: reinforcements.apply_place_power_centre,
    A.Forgo: reinforcements.apply_forgo,
    A.Reinforce: reinforcements.apply_reinforce,
    A.Disband: reinforcements.apply_disband,
    A.Build: reinforcements.apply_build,
    A.NavalMove: navy.apply_naval_move,
    A.NavalAttack: navy.apply_naval_attack,
    A.SeaAttack: attacks.apply_sea_attack,
    A.Declare: attacks.apply_declare,
    A.Attack: attacks.apply_attack,
    A.RollDice: attacks.apply_roll_dice,
    A.Withdraw: attacks.apply_withdraw,
    A.Roll: attacks.apply_roll,
    A.MoveIn: attacks.apply_move_in,
    A.Fortify: turn.apply_fortify,
    A.Move: turn.apply_move,
    A.Done: turn.apply_done,
    A.Draw: turn.apply_draw,
}


def new_state(board: Board, opts: SpqrOptions) -> SpqrState:
    """A new game's state. Code that is not compiled builds states through this function: with the engine
    compiled, calling the class from interpreted code leaves its attributes unset (mypyc, as of mypy 2.4.1:
    the compiled `__init__` does not run then; `tests/test_compiled.py` plays through `new_game`)."""
    return SpqrState(board, opts)
