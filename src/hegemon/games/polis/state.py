"""The Polis game state: a mutable object with `__slots__`, plain int lists and a cheap `clone()`; the static
board is shared. Legality lives in the rules modules; this class dispatches by phase (legal actions, chance
outcomes) and by action class (apply)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from mypy_extensions import mypyc_attr

from hegemon.core.actions import Action
from hegemon.core.errors import Refusal
from hegemon.core.game import CHANCE, TERMINAL, Outcome
from hegemon.games.polis import actions as A
from hegemon.games.polis import scoring
from hegemon.games.polis.board import SIDES, Board
from hegemon.games.polis.options import PolisOptions, SiegeRule
from hegemon.games.polis.pending import ExtraDue, Pending, Removal
from hegemon.games.polis.phase import Phase
from hegemon.games.polis.rules import (
    battle,
    common,
    development,
    economy,
    events,
    flow,
    movement,
    proxenos,
    round_end,
    sieges,
)
from hegemon.games.polis.rules.common import (
    ACTION,
    BATTLE_CHOOSE,
    BATTLE_DRAW,
    CHANCE_PHASES,
    DRAW_EVENT,
    DRAW_PROJECT,
    DS_FORCE,
    EVENT_REMOVE,
    EXTRA,
    GARRISON,
    GROWTH,
    MATCH,
    MOVE,
    OVER,
    PHASE_NAMES,
    PHOROS,
    PLAY,
    RETREAT,
    SACRIFICE_FORCE,
    SIEGE_ROLL,
    SUPPLY,
    T_COLLECT,
    T_GALLEYS,
    T_HOPLITES,
    T_MERCHANTS,
    T_TRADE,
    TRADE_ROLL,
)
from hegemon.games.polis.rules.tables import CACHE_LIMIT, Tables, tables, unit_view

_PASS = A.intern(A.Pass)
_B_COLLECT, _B_TRADE = 1 << T_COLLECT, 1 << T_TRADE

# the position's fields: (attribute, how it is copied, key in to_json()). How: 0 immutable or shared, 1 flat list,
# 2 list of lists (clone() is written out field by field; a test checks it against this table). The keys are the
# record format of state digests (stored games and golden transcripts carry them): they keep their historical
# short names.
_FIELDS: tuple[tuple[str, int, str], ...] = (
    ("round", 0, "round"),
    ("phase", 0, "phase"),
    ("active", 0, "cur"),
    ("first", 0, "first"),
    ("passed", 1, "passed"),
    ("n_actions", 0, "n_actions"),
    ("tokens", 1, "tokens"),
    ("turns", 0, "turns"),
    ("capped", 0, "capped"),
    ("turn_ender", 0, "ender"),
    ("fought", 1, "fought"),
    ("res", 2, "res"),
    ("pp", 1, "pp"),
    ("owner", 1, "owner"),
    ("pop", 1, "pop"),
    ("units", 2, "units"),
    ("merchants_in_port", 1, "merch_port"),
    ("merchants", 1, "merch_total"),
    ("shiploads_taken", 1, "mk_taken"),
    ("market_closed", 1, "mk_closed"),
    ("market_markers", 1, "mk_pos"),
    ("exhausted", 1, "exhausted"),
    ("proxenos", 1, "prox"),
    ("proxenos_captured", 1, "prox_cap"),
    ("slots", 1, "slots"),
    ("started", 1, "started"),
    ("offer", 1, "offer"),
    ("stack", 1, "stack"),
    ("piles", 2, "piles"),
    ("event", 0, "event"),
    ("event_step", 0, "ev_i"),
    ("event_first", 0, "ev_first"),
    ("discs", 2, "discs"),
    ("pending", 0, "pend"),
    ("battle_at", 0, "bt"),
    ("attacker", 0, "b_att"),
    ("hands", 2, "hands"),
    ("deck", 1, "deck"),
    ("draw_queue", 1, "queue"),
    ("played", 0, "played"),
    ("retreat_stage", 0, "r_stage"),
    ("round_end_stage", 0, "eor"),
    ("starved", 1, "starved"),
    ("grown", 1, "grown"),
    ("growth_from", 0, "grow_min"),
    ("projects_to_draw", 0, "to_draw"),
    ("end_reason", 0, "end_reason"),
    ("round_notes", 0, "round_notes"),
)


@mypyc_attr(serializable=True)  # compiled (mypyc): clone() may call __new__ without __init__
class PolisState:
    """A position of Polis. Player 0 is Athens, 1 is Sparta."""

    __slots__ = ("board", "options", "siege_rule", "tables", *(name for name, _, _ in _FIELDS))

    board: Board
    tables: Tables  # the board's precomputed tables (shared, not part of the position)
    options: PolisOptions
    siege_rule: SiegeRule

    def __init__(self, board: Board, options: PolisOptions) -> None:
        b = board
        self.board = b
        self.tables = tables(b)
        self.options = options
        self.siege_rule = options.siege_code
        n, t = b.n_poleis, b.n_terr
        self.round = 0
        self.phase = DRAW_PROJECT
        self.active = b.first_tie_side
        self.first = b.first_tie_side
        self.passed = [False, False]
        self.n_actions = 0
        self.tokens: list[tuple[int, int]] = []
        self.turns = 0
        self.capped = False
        self.turn_ender = 0
        self.fought: list[int] = []
        self.res = [list(b.setup_res[0]), list(b.setup_res[1])]
        self.pp = list(b.setup_pp)
        self.owner = [-1] * n
        self.pop = [0] * n
        for s in (0, 1):
            for q in b.setup_poleis[s]:
                self.owner[q] = s
                self.pop[q] = b.p_base[q]
        self.units = [[0] * t, [0] * t]
        for s in (0, 1):
            for terr, c in b.setup_units[s].items():
                self.units[s][terr] = c
        self.merchants = list(b.setup_merchants)
        self.merchants_in_port = list(b.setup_merchants)
        self.shiploads_taken = [0] * len(b.market_ids)
        self.market_closed = [False] * len(b.market_ids)
        self.market_markers = list(b.track_start)
        self.exhausted = [False] * t
        self.proxenos = list(b.setup_proxenos)
        self.proxenos_captured = [False, False]
        self.slots: list[tuple[int, ...]] = [tuple(-1 for _ in b.p_slots[q]) for q in range(n)]
        self.started: list[int] = []
        self.offer: list[int] = []
        self.stack = list(range(len(b.project_ids)))
        self.piles = [list(p) for p in b.pile_events]
        self.event = -1
        self.event_step = 0
        self.event_first = -1
        self.discs = [[0] * n, [0] * n]
        self.pending: Pending | None = None  # what an unfinished compound action still owes
        self.battle_at = -1
        self.attacker = 0
        self.hands = [[0] * len(b.card_kinds), [0] * len(b.card_kinds)]
        self.deck = [k.count for k in b.card_kinds]
        self.draw_queue: list[int] = []
        self.played: tuple[int, int] | None = None
        self.retreat_stage = 0
        self.round_end_stage = 0
        self.starved = [False, False]
        self.grown = [0] * n
        self.growth_from = 0
        self.projects_to_draw = 0
        self.end_reason = ""
        self.round_notes: tuple[tuple[Any, ...], ...] = ()  # what the last end of round did by itself (view)
        flow.begin_round(self)

    # ------------------------------------------------------------------ protocol
    @property
    def num_players(self) -> int:
        return 2

    def current_player(self) -> int:
        ph = self.phase
        if ph == OVER:
            return TERMINAL
        if ph in CHANCE_PHASES:
            return CHANCE
        return self.active

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def outcome(self) -> Outcome | None:
        return scoring.outcome(self) if self.phase == OVER else None

    def clone(self) -> PolisState:
        """A copy sharing the board, its tables, the options and every immutable value (one line per field: no
        reflection, fast and checked by mypy)."""
        new = PolisState.__new__(PolisState)
        new.board = self.board
        new.tables = self.tables
        new.options = self.options
        new.siege_rule = self.siege_rule
        new.round = self.round
        new.phase = self.phase
        new.active = self.active
        new.first = self.first
        new.passed = self.passed[:]
        new.n_actions = self.n_actions
        new.tokens = self.tokens[:]
        new.turns = self.turns
        new.capped = self.capped
        new.turn_ender = self.turn_ender
        new.fought = self.fought[:]
        new.res = [x[:] for x in self.res]
        new.pp = self.pp[:]
        new.owner = self.owner[:]
        new.pop = self.pop[:]
        new.units = [x[:] for x in self.units]
        new.merchants_in_port = self.merchants_in_port[:]
        new.merchants = self.merchants[:]
        new.shiploads_taken = self.shiploads_taken[:]
        new.market_closed = self.market_closed[:]
        new.market_markers = self.market_markers[:]
        new.exhausted = self.exhausted[:]
        new.proxenos = self.proxenos[:]
        new.proxenos_captured = self.proxenos_captured[:]
        new.slots = self.slots[:]
        new.started = self.started[:]
        new.offer = self.offer[:]
        new.stack = self.stack[:]
        new.piles = [x[:] for x in self.piles]
        new.event = self.event
        new.event_step = self.event_step
        new.event_first = self.event_first
        new.discs = [x[:] for x in self.discs]
        new.pending = self.pending
        new.battle_at = self.battle_at
        new.attacker = self.attacker
        new.hands = [x[:] for x in self.hands]
        new.deck = self.deck[:]
        new.draw_queue = self.draw_queue[:]
        new.played = self.played
        new.retreat_stage = self.retreat_stage
        new.round_end_stage = self.round_end_stage
        new.starved = self.starved[:]
        new.grown = self.grown[:]
        new.growth_from = self.growth_from
        new.projects_to_draw = self.projects_to_draw
        new.end_reason = self.end_reason
        new.round_notes = self.round_notes
        return new

    def legal_actions(self) -> list[Action]:
        ph = self.phase
        if ph == ACTION:
            return self._legal_main()
        out: list[Any] = []
        legal = _LEGAL_BY_PHASE[ph]
        if legal is not None:  # (chance nodes: see chance_outcomes(); the end: none)
            legal(self, out)
        return out

    def _legal_main(self) -> list[Any]:
        """The action menu (§4.3, §5), in one pass: what every subsystem needs is computed once here (the action
        types used this turn as a bitmask, the own poleis, the unit bitmasks of the position)."""
        s = self.active
        used = 0
        for tok, _ in self.tokens:
            used |= 1 << tok
        extra = self.passed[1 - s]
        owner = self.owner
        key = (s, *owner)
        got = self.tables.own.get(key)
        if got is None:  # the poleis of the side to move and their territories, cached by every polis's owner
            mine = tuple(q for q in range(len(owner)) if owner[q] == s)
            if len(self.tables.own) > CACHE_LIMIT:
                self.tables.own.clear()
            got = self.tables.own[key] = (mine, sum(1 << t for t in {self.board.p_terr[q] for q in mine}))
        own, own_terr = got
        view = unit_view(self.tables, self.units[s], self.units[1 - s])
        out: list[Any] = [_PASS]
        development.legal(self, out, used, own, extra)
        movement.legal(self, out, used, extra, view)
        sieges.legal(self, out, extra, view)
        if not used & _B_COLLECT:
            economy.legal_collect(self, out, extra, own_terr & view.open & view.mine)
        if not used & _B_TRADE:
            economy.legal_trade(self, out, extra, view.open)
        proxenos.legal(self, out, used, extra, view.theirs)
        return out

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        ph = self.phase
        if ph == BATTLE_DRAW:
            return battle.draw_outcomes(self)
        if ph == SIEGE_ROLL:
            return list(sieges.dice(self.board.siege_die))
        if ph == TRADE_ROLL:
            return list(economy.roll_outcomes(self))
        if ph == DRAW_PROJECT:
            p = 1.0 / len(self.stack)
            ids = self.board.project_ids
            return [(A.intern(A.DrawProject, ids[i]), p) for i in self.stack]
        if ph == DRAW_EVENT:
            return events.outcomes(self)
        return []

    def sample_chance(self, rng: random.Random) -> Action:
        """A chance outcome with the distribution of `chance_outcomes`, without building the list."""
        ph = self.phase
        r = rng.random()
        if ph == BATTLE_DRAW:
            card: Action = battle.sample_draw(self, r)
            return card
        if ph == SIEGE_ROLL:
            n = self.board.siege_die
            roll: Action = sieges.dice(n)[int(r * n)][0]
            return roll
        if ph == TRADE_ROLL:
            if economy.roll_due(self).direction < 0:
                return economy.EXCHANGE_ROLLS[max(int(r * 4), int(rng.random() * 4))][0]
            return economy.EXCHANGE_ROLLS[int(r * 4)][0]
        if ph == DRAW_PROJECT:
            return A.intern(A.DrawProject, self.board.project_ids[self.stack[int(r * len(self.stack))]])
        if ph == DRAW_EVENT:
            pile = events.pile_of(self)
            return A.intern(A.DrawEvent, self.board.event_ids[pile[int(r * len(pile))]])
        raise ValueError(f"no chance node in phase {self.phase_name()}")

    def apply(self, action: Action) -> None:
        _APPLY[type(action)](self, action)

    # ------------------------------------------------------------------ serialisation
    def to_json(self) -> dict[str, Any]:
        """The full state (hidden parts included) as JSON-ready data, for digests and debugging."""
        out: dict[str, Any] = {"siege": self.options.siege, "board": self.options.board}
        for name, _, key in _FIELDS:
            if name == "round_notes":  # a report of the last end of round, not part of the position
                continue
            v = getattr(self, name)
            out[key] = [list(x) if isinstance(x, tuple) else x for x in v] if isinstance(v, list) else v
        if isinstance(out["played"], tuple):
            out["played"] = list(out["played"])
        out["phase"] = int(self.phase)  # a plain number, as in the record format (not the enum member)
        # the historical digest shape: an event's removal under "rm", every other record under "pend" (none for
        # a single extra resource)
        p = self.pending
        out["rm"] = p.to_json() if isinstance(p, Removal) else None
        single = isinstance(p, ExtraDue) and p.left == 1 and self.board.extra_cost == 1
        out["pend"] = None if p is None or isinstance(p, Removal) or single else p.to_json()
        return out

    def explain_illegal(self, action: Action) -> Refusal:
        """Why an action that is not legal now is refused: the rule it breaks, the reason as data."""
        from hegemon.games.polis.explain import explain

        return explain(self, action)

    def view(self, player: int | None) -> dict[str, Any]:
        from hegemon.games.polis.view import view

        return view(self, player)

    def __repr__(self) -> str:
        return f"<PolisState round {self.board.round_names[self.round]} phase {self.phase_name()} player {self.active}>"


_LEGAL: dict[Phase, Callable[[PolisState, list[Any]], None]] = {
    MOVE: movement.legal_steps,
    SACRIFICE_FORCE: sieges.legal_sacrifice,
    DS_FORCE: sieges.legal_ds_force,
    GARRISON: sieges.legal_garrison,
    EXTRA: flow.legal_extra,
    BATTLE_CHOOSE: battle.legal_choose,
    RETREAT: battle.legal_retreat,
    PLAY: battle.legal_play,
    MATCH: battle.legal_match,
    EVENT_REMOVE: events.legal_remove,
    SUPPLY: round_end.legal_supply,
    GROWTH: round_end.legal_growth,
    PHOROS: round_end.legal_phoros,
}
"""The legal actions of each decision phase but ACTION (the action menu, `_legal_main`), appended to a list; the
others are chance nodes (`CHANCE_PHASES`) or the end (OVER)."""
_LEGAL_BY_PHASE: list[Callable[[PolisState, list[Any]], None] | None] = [_LEGAL.get(ph) for ph in Phase]
"""`_LEGAL` indexed by the phase's number."""


def _create(token: int) -> Any:
    return lambda st, a: development.apply_create(st, token, a.polis, a.count, a.silver)


_APPLY: dict[type, Any] = {
    A.Pass: lambda st, a: flow.apply_pass(st),
    A.PayExtra: lambda st, a: flow.apply_extra(st, a.resource),
    A.CreateHoplites: _create(T_HOPLITES),
    A.CreateGalleys: _create(T_GALLEYS),
    A.CreateMerchants: _create(T_MERCHANTS),
    A.StartProject: lambda st, a: development.apply_project(st, a.project, a.polis),
    A.MoveHoplites: lambda st, a: movement.apply_start(st, a.to, False),
    A.MoveGalleys: lambda st, a: movement.apply_start(st, a.to, True),
    A.MoveFrom: lambda st, a: movement.apply_step(st, a.source, a.count),
    A.EndMove: lambda st, a: movement.apply_end(st),
    A.Besiege: lambda st, a: sieges.apply_besiege(st, a.polis),
    A.SiegeRoll: lambda st, a: sieges.apply_roll(st, a.roll),
    A.StartSiege: lambda st, a: sieges.apply_disc(st, a.polis, True),
    A.ContinueSiege: lambda st, a: sieges.apply_disc(st, a.polis, False),
    A.ForceSiege: lambda st, a: (
        sieges.apply_sacrifice(st, True) if st.phase == SACRIFICE_FORCE else sieges.apply_ds_force(st, True)
    ),
    A.StopForcing: lambda st, a: (
        sieges.apply_sacrifice(st, False) if st.phase == SACRIFICE_FORCE else sieges.apply_ds_force(st, False)
    ),
    A.Garrison: lambda st, a: sieges.apply_garrison(st, a.yes),
    A.Collect: lambda st, a: economy.apply_collect(st, a.territory),
    A.Trade: lambda st, a: economy.apply_trade(st, a.market, a.purchase),
    A.MarketRoll: lambda st, a: economy.apply_roll(st, a.roll),
    A.MoveProxenos: lambda st, a: proxenos.apply_move(st, a.polis),
    A.RedeemProxenos: lambda st, a: proxenos.apply_redeem(st),
    A.CivilWar: lambda st, a: proxenos.apply_civil_war(st, a.polis),
    A.ChooseBattle: lambda st, a: flow.choose_battle(st, a.territory),
    A.DrawCard: lambda st, a: battle.apply_draw(st, a.card),
    A.Retreat: lambda st, a: flow.retreat(st, a.territory),
    A.Stand: lambda st, a: battle.apply_stand(st),
    A.PlayCards: lambda st, a: battle.apply_play(st, a.first, a.second),
    A.Match: lambda st, a: flow.match(st, a.first, a.second),
    A.DrawProject: lambda st, a: flow.project_drawn(st, a.project),
    A.DrawEvent: lambda st, a: flow.event_drawn(st, a.event),
    A.RemoveUnit: lambda st, a: flow.remove_unit(st, a.territory),
    A.ReleasePolis: lambda st, a: flow.release(st, a.polis),
    A.PaySupply: lambda st, a: flow.pay_supply(st),
    A.Grow: lambda st, a: flow.grow(st, a.polis),
    A.EndGrowth: lambda st, a: flow.end_growth(st),
    A.Phoros: lambda st, a: flow.phoros(st, a.amount),
}

__all__ = ["SIDES", "PolisState", "common"]


def new_state(board: Board, opts: PolisOptions) -> PolisState:
    """A new game's state. Code that is not compiled builds states through this function: with the engine
    compiled, calling the class from interpreted code leaves its attributes unset (mypyc, as of mypy 2.4.1:
    the compiled `__init__` does not run then; `tests/test_compiled.py` plays through `new_game`)."""
    return PolisState(board, opts)
