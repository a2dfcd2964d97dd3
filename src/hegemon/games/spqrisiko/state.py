"""The S.P.Q.RisiKo! state and its rules: set-up [R 3], then each turn's phases in the order of [R 4.2]-[R 4.10]
(scoring, reinforcements, naval movement, naval combat, sea attacks, land attacks, strategic move, card).

The state is mutable with a cheap `clone()`; the board is shared. Chance (order of play, random deal, dice,
card draws) is an explicit player: `current_player()` returns CHANCE and `chance_outcomes()` lists the
outcomes, which are recorded like any other action, so a game replays from its action list alone."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable
from typing import Any

from hegemon.core.actions import Action
from hegemon.core.game import CHANCE, TERMINAL, Outcome, PlayerId, Termination
from hegemon.core.play import weighted_choice
from hegemon.games.spqrisiko import actions as A
from hegemon.games.spqrisiko.board import SYMBOLS, Board
from hegemon.games.spqrisiko.combat import resolve, sorted_rolls
from hegemon.games.spqrisiko.options import SpqrOptions
from hegemon.games.spqrisiko.scoring import FREE, NEUTRAL, land_reinforcements, score_turn

# phases
SETUP_ORDER, SETUP_DEAL, SETUP_CLAIM, SETUP_NEUTRAL = 0, 1, 2, 3
CARDS, CARD_BONUS, REINFORCE, CONVERT = 4, 5, 6, 7
NAVAL_MOVE, NAVAL_COMBAT, NAVAL_BATTLE = 8, 9, 10
SEA_ATTACK, DECLARE, SEA_BATTLE = 11, 12, 13
LAND_ATTACK, LAND_BATTLE, MOVE_IN = 14, 15, 16
STRATEGIC, STRATEGIC_COUNT, DRAW, OVER = 17, 18, 19, 20

PHASE_NAMES = (
    "setup: order of play", "setup: deal", "setup: claim", "setup: neutral group",
    "reinforcements: cards", "reinforcements: card bonus", "reinforcements: place", "reinforcements: navy",
    "naval movement", "naval combat", "naval combat: roll",
    "sea attacks", "sea attack: declare", "sea attack: roll",
    "land attacks", "land attack: roll", "land attack: move in",
    "strategic move", "strategic move: count", "card draw", "game over",
)  # fmt: skip

LEGIONARY, BANNER, TRIREME, ARENA = 0, 1, 2, 3
_NEXT = {CONVERT: NAVAL_MOVE, NAVAL_MOVE: NAVAL_COMBAT, NAVAL_COMBAT: SEA_ATTACK, SEA_ATTACK: LAND_ATTACK,
         LAND_ATTACK: STRATEGIC}
_SETS: tuple[tuple[int, int, int], ...] = tuple(
    [(s, s, s) for s in range(4)] + list(itertools.combinations(range(4), 3))
)

# interned actions: legal-move generation builds no new objects in the hot path
_CACHE: dict[tuple[Any, ...], Action] = {}


def _act(cls: type[Action], *args: Any) -> Action:
    key = (cls, *args)
    a = _CACHE.get(key)
    if a is None:
        a = _CACHE[key] = cls(*args)
    return a


class SpqrState:
    """A S.P.Q.RisiKo! position. Players are seats 0..n-1; `order` is the turn order."""

    __slots__ = (
        "arrived", "attacked_by_sea", "battle", "board", "bonus_pcs", "bonus_triremes", "chance",
        "conquered", "deck", "discard", "disbands", "eliminated", "eliminated_by", "hands", "last_dice",
        "moved_group", "n", "naval_fought", "neutral_groups", "opts", "order", "owner", "armies", "pc",
        "pcs_built", "phase", "pool", "power_centre", "round", "sea_conquered", "sets_traded", "slots",
        "terminal", "triremes", "turn", "turns", "vp", "vp_last", "vp_sources", "built",
    )  # fmt: skip

    def __init__(self, board: Board, opts: SpqrOptions) -> None:
        n = opts.players
        self.board = board
        self.opts = opts
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
        self.vp_last: dict[str, int] = {}
        self.vp_sources: list[dict[str, int]] = [{} for _ in range(n)]  # VP scored so far, by source [R 5.6]
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
        self.battle: list[int] = []  # [kind, source, target(or sea), opponent, alive/declared, rolls]
        self.last_dice = 0
        self.chance: tuple[int, ...] | None = (0,)  # (0,) order; (1,) deal; (2, na, nd) roll; (3,) draw
        self.phase = SETUP_ORDER
        self.pc = 0

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
        c = SpqrState.__new__(SpqrState)
        c.board = self.board
        c.opts = self.opts
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
        c.vp_last = dict(self.vp_last)
        c.vp_sources = [dict(x) for x in self.vp_sources]
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
        c.battle = self.battle[:]
        c.last_dice = self.last_dice
        c.chance = self.chance
        c.phase = self.phase
        c.pc = self.pc
        return c

    # ------------------------------------------------------------------ helpers

    def provinces_of(self, who: int) -> list[int]:
        return [p for p, o in enumerate(self.owner) if o == who]

    def _active(self) -> int:
        return self.order[self.turn]

    def _is_enemy(self, p: int, me: int) -> bool:
        o = self.owner[p]
        if o in (me, FREE):
            return False
        return o != NEUTRAL or self.opts.neutral_is_enemy

    def _borders_enemy(self, p: int, me: int, ignore: int = -1) -> bool:
        """Whether province p borders (by land, U6) an enemy province other than `ignore` [R 14.2]."""
        for q in self.board.land[p]:
            if q != ignore and self._is_enemy(q, me):
                return True
        return False

    def _garrison(self, p: int, me: int, ignore: int = -1) -> int:
        """Legionaries that must stay in p after a voluntary move [R 14.1], [R 14.2]."""
        return 2 if self._borders_enemy(p, me, ignore) else 1

    def _protected(self, target: int) -> bool:
        """U9: before the first elimination round a player's only province cannot be attacked [R 18.4]."""
        o = self.owner[target]
        if o < 0 or self.round >= self.opts.first_elimination_round:
            return False
        return self.owner.count(o) <= 1

    def _trireme_count(self, who: int) -> int:
        return sum(self.triremes[who]) if who >= 0 else 0

    def controls_sea(self, who: int, sea: int) -> bool:
        """Strictly more triremes in `sea` than every other player [R 15.2]."""
        mine = self.triremes[who][sea]
        if mine == 0:
            return False
        for p in range(self.n):
            if p != who and self.triremes[p][sea] >= mine:
                return False
        return True

    def _defender_dice(self, p: int) -> int:
        a = self.armies[p]
        return a if a < 3 else 3

    def _attack_keep(self, source: int, target: int, me: int) -> int:
        """Legionaries of `source` that may not roll against `target`: 1 [R 14.1]; under `garrison_first`
        (house-strict) 2 when the source borders another enemy province, so the frontier garrison survives
        the move-in."""
        if self.opts.garrison == "garrison_first":
            return self._garrison(source, me, ignore=target)
        return 1

    def _attack_floor(self, source: int, target: int, me: int) -> int:
        """The attack from `source` on `target` stops when the source is down to this many legionaries: the
        dice's keep, except under `garrison_stop` (house-1.2) 2 when the source borders another enemy province,
        so that it can still move in 1 and leave its frontier garrison of 2 [R 14.2]."""
        if self.opts.garrison == "garrison_stop":
            return self._garrison(source, me, ignore=target)
        return self._attack_keep(source, target, me)

    def _competitors(self) -> list[int]:
        comp = [p for p in range(self.n) if not self.eliminated[p]]
        if self.opts.neutrals_compete:
            comp.append(NEUTRAL)
        return comp

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[Action]:
        """Every legal action now, in a canonical order (by kind, then board order). The only source of
        legality: `play` accepts exactly these."""
        if self.terminal is not None or self.chance is not None:
            return []
        ph = self.phase
        me = self.order[self.turn]
        b = self.board
        pid = b.province_ids
        sid = b.sea_ids
        owner = self.owner
        armies = self.armies
        out: list[Action] = []
        if ph in (SETUP_CLAIM, SETUP_NEUTRAL):
            cls = A.Claim if ph == SETUP_CLAIM else A.ClaimNeutral
            return [_act(cls, pid[p]) for p in range(b.n_provinces) if owner[p] == FREE]
        if ph == CARDS:
            h = self.hands[me]
            for cs in _SETS:
                if (cs[0] == cs[1] and h[cs[0]] >= 3) or (cs[0] != cs[1] and h[cs[0]] and h[cs[1]] and h[cs[2]]):
                    out.append(_act(A.TradeSet, tuple(SYMBOLS[i] for i in cs)))
            out.append(A.DONE)
            return out
        if ph == CARD_BONUS:
            if self.bonus_triremes:
                out = [_act(A.PlaceTrireme, sid[s]) for s in self._bonus_seas(me)]
            else:
                out = [_act(A.PlacePowerCentre, pid[p]) for p in self._pc_sites(me)]
            out.append(A.FORGO)
            return out
        if ph == REINFORCE:
            return [_act(A.Reinforce, pid[p]) for p in range(b.n_provinces) if owner[p] == me]
        if ph == CONVERT:
            return self._convert_actions(me)
        if ph == NAVAL_MOVE:
            return self._naval_move_actions(me)
        if ph == NAVAL_COMBAT:
            return self._naval_combat_actions(me)
        if ph in (NAVAL_BATTLE, LAND_BATTLE):
            lo, hi = self._dice_range()
            out = [_act(A.RollDice, d) for d in range(lo, hi + 1)]
            if self.battle[5] > 0:
                out.append(A.WITHDRAW)
            return out
        if ph == SEA_ATTACK:
            return self._sea_attack_actions(me)
        if ph == DECLARE:
            lo, hi = self._declare_range(me)
            return [_act(A.Declare, k) for k in range(lo, hi + 1)]
        if ph == LAND_ATTACK:
            land = b.land
            for s in range(b.n_provinces):
                if owner[s] != me or armies[s] < 2:
                    continue
                for t in land[s]:
                    o = owner[t]
                    if o == me:
                        continue
                    dd = armies[t] if armies[t] < 3 else 3
                    avail = armies[s] - self._attack_keep(s, t, me)
                    if avail >= dd and armies[s] > self._attack_floor(s, t, me) and not self._protected(t):
                        out.append(_act(A.Attack, pid[s], pid[t]))
            out.append(A.DONE)
            return out
        if ph == MOVE_IN:
            lo, hi = self._move_in_range(me)
            return [_act(A.MoveIn, k) for k in range(lo, hi + 1)]
        if ph == STRATEGIC:
            return self._strategic_actions(me)
        if ph == STRATEGIC_COUNT:
            src = self.battle[1]
            hi = armies[src] - self._garrison(src, me)
            return [_act(A.Move, k) for k in range(1, hi + 1)]
        return out

    def _bonus_seas(self, me: int) -> list[int]:
        seas: set[int] = set()
        for p in range(self.board.n_provinces):
            if self.owner[p] == me:
                seas.update(self.board.coasts[p])
        return sorted(seas)

    def _pc_sites(self, me: int) -> list[int]:
        """Where a power centre may be built [R 16.4]: own province, none there, none in a land neighbour."""
        if self.pcs_built >= self.opts.power_centres:
            return []
        pc = self.power_centre
        land = self.board.land
        return [
            p
            for p in range(self.board.n_provinces)
            if self.owner[p] == me and not pc[p] and not any(pc[q] for q in land[p])
        ]

    def _convert_actions(self, me: int) -> list[Action]:
        b = self.board
        out: list[Action] = []
        lim = self.opts.trireme_disbands_per_turn
        if not self.built and (lim is None or self.disbands < lim):
            for s in range(b.n_seas):
                if self.triremes[me][s]:
                    for p in b.shores[s]:
                        if self.owner[p] == me:
                            out.append(_act(A.Disband, b.sea_ids[s], b.province_ids[p]))
        keep = self.opts.trireme_garrison
        for p in range(b.n_provinces):
            if self.owner[p] != me or not b.coasts[p]:
                continue
            need = 3 + (self._garrison(p, me) if keep == 2 else 1)
            if self.armies[p] >= need:
                for s in b.coasts[p]:
                    out.append(_act(A.Build, b.province_ids[p], b.sea_ids[s]))
        out.append(A.DONE)
        return out

    def _movable(self, me: int, s: int) -> int:
        if self.opts.naval_move == "per_trireme":
            return self.triremes[me][s] - self.arrived[s]
        return self.triremes[me][s]

    def _naval_move_actions(self, me: int) -> list[Action]:
        b = self.board
        out: list[Action] = []
        if not self.moved_group:
            for s in range(b.n_seas):
                k = self._movable(me, s)
                if k <= 0:
                    continue
                for t in b.sea_links[s]:
                    for c in range(1, k + 1):
                        out.append(_act(A.NavalMove, b.sea_ids[s], b.sea_ids[t], c))
        out.append(A.DONE)
        return out

    def _naval_combat_actions(self, me: int) -> list[Action]:
        b = self.board
        out: list[Action] = []
        for s in range(b.n_seas):
            mine = self.triremes[me][s]
            if not mine or self.naval_fought[s]:
                continue
            for o in range(self.n):
                theirs = self.triremes[o][s]
                if o != me and theirs and min(3, mine) >= min(3, theirs):
                    out.append(_act(A.NavalAttack, b.sea_ids[s], o))
        out.append(A.DONE)
        return out

    def _dice_range(self) -> tuple[int, int]:
        kind, src, tgt, opp = self.battle[0], self.battle[1], self.battle[2], self.battle[3]
        me = self.order[self.turn]
        if kind == 0:  # naval: src = sea
            mine = self.triremes[me][src]
            dd = min(3, self.triremes[opp][src])
            return dd, min(3, mine)
        dd = self._defender_dice(tgt)
        return dd, min(3, self.armies[src] - self._attack_keep(src, tgt, me))

    def _sea_attack_actions(self, me: int) -> list[Action]:
        b = self.board
        out: list[Action] = []
        owner = self.owner
        for s in range(b.n_provinces):
            if owner[s] != me or self.sea_conquered[s] or not b.coasts[s] or self.armies[s] < 2:
                continue
            avail = self.armies[s] - self._garrison(s, me)
            if avail <= 0:
                continue
            for t, sea in b.bridges[s]:
                o = owner[t]
                if o == me or self.attacked_by_sea[t]:
                    continue
                mine = self.triremes[me][sea]
                theirs = self.triremes[o][sea] if o >= 0 else 0
                if mine <= theirs or avail < self._defender_dice(t) or self._protected(t):
                    continue
                out.append(_act(A.SeaAttack, b.province_ids[s], b.province_ids[t], b.sea_ids[sea]))
        out.append(A.DONE)
        return out

    def _declare_range(self, me: int) -> tuple[int, int]:
        s, t = self.battle[1], self.battle[2]
        return self._defender_dice(t), self.armies[s] - self._garrison(s, me)

    def _move_in_range(self, me: int) -> tuple[int, int]:
        s = self.battle[1]
        g = self._garrison(s, me)
        spare = self.armies[s] - g
        if self.opts.garrison != "move_in_first":
            return 1, max(1, spare)
        lo = self.last_dice
        return lo, max(lo, spare)

    def _strategic_actions(self, me: int) -> list[Action]:
        b = self.board
        out: list[Action] = []
        owner = self.owner
        controlled = [self.controls_sea(me, s) for s in range(b.n_seas)]
        for s in range(b.n_provinces):
            if owner[s] != me or self.armies[s] - self._garrison(s, me) < 1:
                continue
            dests: set[int] = {q for q in b.land[s] if owner[q] == me}
            for q, sea in b.bridges[s]:
                if owner[q] == me and controlled[sea]:
                    dests.add(q)
            for q in sorted(dests):
                out.append(_act(A.Fortify, b.province_ids[s], b.province_ids[q]))
        out.append(A.DONE)
        return out

    # ------------------------------------------------------------------ chance

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The possible chance outcomes now with their probabilities (empty at decision nodes)."""
        ch = self.chance
        if ch is None or self.terminal is not None:
            return []
        kind = ch[0]
        if kind == 0:
            perms = list(itertools.permutations(range(self.n)))
            return [(_act(A.Order, p), 1.0 / len(perms)) for p in perms]
        if kind == 1:
            prov = self._next_free()
            weights = self._deal_weights()
            total = sum(w for _, w in weights)
            return [(_act(A.Deal, self.board.province_ids[prov], o), w / total) for o, w in weights]
        if kind == 2:
            na, nd = ch[1], ch[2]
            total = 6 ** (na + nd)
            return [
                (_act(A.Roll, a, d), ca * cd / total)
                for a, ca in sorted_rolls(na)
                for d, cd in sorted_rolls(nd)
            ]
        total = sum(self.deck)
        me = self.order[self.turn]
        return [(_act(A.Draw, SYMBOLS[i], me), c / total) for i, c in enumerate(self.deck) if c]

    def sample_chance(self, rng: random.Random) -> Action:
        """Sample a chance outcome with the same distribution as `chance_outcomes`, fast."""
        ch = self.chance
        assert ch is not None
        if ch[0] == 2:
            r = rng.random
            att = sorted((int(r() * 6) + 1 for _ in range(ch[1])), reverse=True)
            dfn = sorted((int(r() * 6) + 1 for _ in range(ch[2])), reverse=True)
            return _act(A.Roll, tuple(att), tuple(dfn))
        if ch[0] == 0:
            seats = list(range(self.n))
            rng.shuffle(seats)
            return _act(A.Order, tuple(seats))
        return weighted_choice(self.chance_outcomes(), rng)

    def _next_free(self) -> int:
        return self.owner.index(FREE)

    def _deal_weights(self) -> list[tuple[int, int]]:
        w = [(p, self.slots[p]) for p in range(self.n) if self.slots[p] > 0]
        if self.neutral_groups:
            w.append((NEUTRAL, self.neutral_groups))
        return w

    # ------------------------------------------------------------------ apply

    def apply(self, action: Action) -> None:
        """Apply an action assumed legal (use `core.play` to check). Advances through automatic steps."""
        kind = action.kind
        b = self.board
        pidx = b.province_index
        sidx = b.sea_index
        me = self.order[self.turn] if self.order else 0
        if kind == "roll":
            self._apply_roll(action)
        elif kind == "reinforce":
            p = pidx[action.province]  # type: ignore[attr-defined]
            self.armies[p] += 1
            self.pool -= 1
            if self.pool == 0:
                self._enter(CONVERT)
        elif kind == "roll_dice":
            self.last_dice = action.dice  # type: ignore[attr-defined]
            bt = self.battle
            if bt[0] == 0:
                self.chance = (2, action.dice, min(3, self.triremes[bt[3]][bt[1]]))  # type: ignore[attr-defined]
            else:
                self.chance = (2, action.dice, self._defender_dice(bt[2]))  # type: ignore[attr-defined]
        elif kind == "attack":
            s, t = pidx[action.source], pidx[action.target]  # type: ignore[attr-defined]
            self.battle = [1, s, t, self.owner[t], 0, 0]
            self.phase = LAND_BATTLE
        elif kind == "withdraw":
            self._end_battle()
        elif kind == "move_in":
            s, t = self.battle[1], self.battle[2]
            k = action.count  # type: ignore[attr-defined]
            self.armies[s] -= k
            self.armies[t] += k
            self.battle = []
            self._enter(LAND_ATTACK)
        elif kind == "done":
            self._done()
        elif kind == "claim":
            p = pidx[action.province]  # type: ignore[attr-defined]
            self.owner[p] = me
            self.armies[p] = 2
            if self.neutral_groups and FREE in self.owner:
                self.phase = SETUP_NEUTRAL
            else:
                self._next_placer()
        elif kind == "claim_neutral":
            p = pidx[action.province]  # type: ignore[attr-defined]
            self.owner[p] = NEUTRAL
            self.armies[p] = 3
            self.neutral_groups -= 1
            self._next_placer()
        elif kind == "order":
            self.order = list(action.seats)  # type: ignore[attr-defined]
            self._begin_setup()
        elif kind == "deal":
            p = pidx[action.province]  # type: ignore[attr-defined]
            o = action.owner  # type: ignore[attr-defined]
            self.owner[p] = o
            if o == NEUTRAL:
                self.armies[p] = 3
                self.neutral_groups -= 1
            else:
                self.armies[p] = 2
                self.slots[o] -= 1
            if FREE not in self.owner:
                self.chance = None
                self._start_game()
        elif kind == "trade_set":
            self._trade(me, action.cards)  # type: ignore[attr-defined]
        elif kind == "place_trireme":
            self.triremes[me][sidx[action.sea]] += 1  # type: ignore[attr-defined]
            self.bonus_triremes -= 1
            self._after_bonus(me)
        elif kind == "place_power_centre":
            self.power_centre[pidx[action.province]] = True  # type: ignore[attr-defined]
            self.pcs_built += 1
            self.bonus_pcs -= 1
            self._after_bonus(me)
        elif kind == "forgo":
            if self.bonus_triremes:
                self.bonus_triremes -= 1
            else:
                self.bonus_pcs -= 1
            self._after_bonus(me)
        elif kind == "disband":
            s, p = sidx[action.sea], pidx[action.province]  # type: ignore[attr-defined]
            self.triremes[me][s] -= 1
            self.armies[p] += 2
            self.disbands += 1
            self._enter(CONVERT)
        elif kind == "build":
            p, s = pidx[action.province], sidx[action.sea]  # type: ignore[attr-defined]
            self.armies[p] -= 3
            self.triremes[me][s] += 1
            self.built = True
            self._enter(CONVERT)
        elif kind == "naval_move":
            s, t = sidx[action.source], sidx[action.dest]  # type: ignore[attr-defined]
            c = action.count  # type: ignore[attr-defined]
            self.triremes[me][s] -= c
            self.triremes[me][t] += c
            self.arrived[t] += c
            if self.opts.naval_move == "single_group":
                self.moved_group = True
            self._enter(NAVAL_MOVE)
        elif kind == "naval_attack":
            s = sidx[action.sea]  # type: ignore[attr-defined]
            self.naval_fought[s] = True
            self.battle = [0, s, -1, action.opponent, 0, 0]  # type: ignore[attr-defined]
            self.phase = NAVAL_BATTLE
        elif kind == "sea_attack":
            s, t = pidx[action.source], pidx[action.target]  # type: ignore[attr-defined]
            self.attacked_by_sea[t] = True
            self.battle = [2, s, t, self.owner[t], 0, 0]
            self.phase = DECLARE
        elif kind == "declare":
            k = action.count  # type: ignore[attr-defined]
            s, t = self.battle[1], self.battle[2]
            self.armies[s] -= k
            self.battle[4] = k
            self.phase = SEA_BATTLE
            self.chance = (2, min(3, k), self._defender_dice(t))
        elif kind == "fortify":
            s, t = pidx[action.source], pidx[action.dest]  # type: ignore[attr-defined]
            self.battle = [3, s, t, me, 0, 0]
            self.phase = STRATEGIC_COUNT
        elif kind == "move":
            s, t = self.battle[1], self.battle[2]
            k = action.count  # type: ignore[attr-defined]
            self.armies[s] -= k
            self.armies[t] += k
            self.battle = []
            self._finish_turn()
        elif kind == "draw":
            i = SYMBOLS.index(action.card)  # type: ignore[attr-defined]
            self.deck[i] -= 1
            self.hands[me][i] += 1
            self.chance = None
            self._next_turn()
        else:  # pragma: no cover - the codec admits only known kinds
            raise ValueError(f"unknown action {action!r}")

    # ------------------------------------------------------------------ set-up [R 3]

    def _begin_setup(self) -> None:
        b = self.board
        if self.n == 4 and "italia" in b.province_index and self.neutral_groups:
            # [R 3.4]: with 4 players 3 neutral legionaries go on Italia first
            p = b.province_index["italia"]
            self.owner[p] = NEUTRAL
            self.armies[p] = 3
            self.neutral_groups -= 1
        free = self.owner.count(FREE) - self.neutral_groups
        for p in range(self.n):
            self.slots[p] = free // self.n
        if self.opts.random_deal:
            self.chance = (1,)
            self.phase = SETUP_DEAL
        else:
            self.chance = None
            self.turn = 0
            self.phase = SETUP_CLAIM

    def _next_placer(self) -> None:
        if FREE not in self.owner:
            self._start_game()
            return
        self.turn = (self.turn + 1) % self.n
        self.phase = SETUP_CLAIM

    def _start_game(self) -> None:
        self.turn = 0
        self.round = 1
        self._begin_turn()

    # ------------------------------------------------------------------ turn flow [R 4]

    def _begin_turn(self) -> None:
        me = self.order[self.turn]
        self.turns += 1
        # per-turn bookkeeping
        self.pool = 0
        self.sets_traded = 0
        self.bonus_triremes = self.bonus_pcs = 0
        self.disbands = 0
        self.built = False
        self.moved_group = False
        nseas = self.board.n_seas
        nprov = self.board.n_provinces
        self.arrived = [0] * nseas
        self.naval_fought = [False] * nseas
        self.attacked_by_sea = [False] * nprov
        self.sea_conquered = [False] * nprov
        self.conquered = False
        self.battle = []
        # phase 1: scoring [R 5]
        gained = score_turn(self.board, self.owner, self.triremes, self.power_centre, me, self._competitors())
        self.vp_last = gained
        self.vp[me] += sum(gained.values())
        src = self.vp_sources[me]
        for k, v in gained.items():
            if v:
                src[k] = src.get(k, 0) + v
        target = self.opts.vp_target
        if target is not None and self.vp[me] >= target:
            self._finish(Termination.VP_TARGET, (me,))
            return
        self._enter(CARDS)

    def _enter(self, phase: int) -> None:
        """Enter `phase`, skipping forward over every phase in which the player has nothing to choose."""
        if self.terminal is not None:
            return
        me = self.order[self.turn]
        while True:
            self.phase = phase
            if phase == CARDS:
                lim = self.opts.sets_per_turn
                if (lim is None or self.sets_traded < lim) and len(self.legal_actions()) > 1:
                    return
                phase = REINFORCE
                self._reinforcement_pool(me)
                continue
            if phase == REINFORCE:
                if self.pool > 0:
                    return
                phase = CONVERT
                continue
            if phase == CARD_BONUS:
                return
            if phase in (CONVERT, NAVAL_MOVE, NAVAL_COMBAT, SEA_ATTACK, LAND_ATTACK, STRATEGIC):
                if len(self.legal_actions()) > 1:
                    return
                if phase == STRATEGIC:
                    self._finish_turn()
                    return
                phase = _NEXT[phase]
                continue
            return

    def _done(self) -> None:
        ph = self.phase
        me = self.order[self.turn]
        if ph == CARDS:
            self._reinforcement_pool(me)
            self._enter(REINFORCE)
        elif ph == CONVERT:
            self._enter(NAVAL_MOVE)
        elif ph == NAVAL_MOVE:
            self._enter(NAVAL_COMBAT)
        elif ph == NAVAL_COMBAT:
            self._enter(SEA_ATTACK)
        elif ph == SEA_ATTACK:
            self._enter(LAND_ATTACK)
        elif ph == LAND_ATTACK:
            self._enter(STRATEGIC)
        elif ph == STRATEGIC:
            self._finish_turn()

    def _reinforcement_pool(self, me: int) -> None:
        """Land reinforcements [R 6.1]-[R 6.5]: the table, plus one legionary in each own power centre."""
        owned = 0
        for p, o in enumerate(self.owner):
            if o == me:
                owned += 1
                if self.power_centre[p]:
                    self.armies[p] += 1
        self.pool += land_reinforcements(owned)

    def _trade(self, me: int, cards: tuple[str, ...]) -> None:
        idx = [SYMBOLS.index(c) for c in cards]
        h = self.hands[me]
        for i in idx:
            h[i] -= 1
            self.discard[i] += 1
        value = 8 if idx[0] == idx[1] else 10  # [R 8.5], [R 8.6]
        value += 2 * idx.count(BANNER)  # [R 8.7.1]
        self.pool += value
        self.sets_traded += 1
        self.bonus_triremes += idx.count(TRIREME)  # [R 8.7.2]
        self.bonus_pcs += idx.count(ARENA)  # [R 8.7.3]
        self._after_bonus(me)

    def _after_bonus(self, me: int) -> None:
        # a bonus that cannot be placed is lost [R 8.7.2], [R 8.7.3]
        while self.bonus_triremes and not self._bonus_seas(me):
            self.bonus_triremes -= 1
        if self.bonus_triremes:
            self.phase = CARD_BONUS
            return
        while self.bonus_pcs and not self._pc_sites(me):
            self.bonus_pcs -= 1
        if self.bonus_pcs:
            self.phase = CARD_BONUS
            return
        self._enter(CARDS)

    # ------------------------------------------------------------------ combat

    def _apply_roll(self, action: Action) -> None:
        att: tuple[int, ...] = action.attacker  # type: ignore[attr-defined]
        dfn: tuple[int, ...] = action.defender  # type: ignore[attr-defined]
        self.chance = None
        bt = self.battle
        me = self.order[self.turn]
        kind = bt[0]
        bt[5] += 1
        if kind == 0:  # naval combat [R 11]
            sea, opp = bt[1], bt[3]
            al, dl = resolve(att, dfn, naval=True)
            self.triremes[me][sea] -= al
            self.triremes[opp][sea] -= dl
            if al + dl == 0 or self.triremes[opp][sea] == 0:
                self._end_battle()  # [R 11.6]: a roll without losses ends the combat
                return
            lo, hi = self._dice_range()
            if hi < lo or hi == 0:
                self._end_battle()
            return
        al, dl = resolve(att, dfn)
        t = bt[2]
        self.armies[t] -= dl
        if kind == 2:  # sea attack, fought to the end [R 12.3]
            bt[4] -= al
            if self.armies[t] == 0:
                self._conquer(me, t, bt[4], by_sea=True)
                self.battle = []
                self._enter(SEA_ATTACK)
                return
            alive = bt[4]
            dd = self._defender_dice(t)
            if alive == 0 or (not self.opts.sea_attack_below_defender and min(3, alive) < dd):
                self.armies[bt[1]] += alive  # U7 off: survivors return
                self.battle = []
                self._enter(SEA_ATTACK)
                return
            self.chance = (2, min(3, alive), dd)
            return
        s = bt[1]
        self.armies[s] -= al
        if self.armies[t] == 0:
            self._conquer(me, t, 0, by_sea=False)
            if self.terminal is not None:
                return
            lo, hi = self._move_in_range(me)
            self.phase = MOVE_IN
            if lo == hi:
                self.apply(_act(A.MoveIn, lo))
            return
        lo, hi = self._dice_range()
        if hi < lo or self.armies[s] <= self._attack_floor(s, t, me):
            self._end_battle()

    def _end_battle(self) -> None:
        kind = self.battle[0]
        self.battle = []
        self._enter(NAVAL_COMBAT if kind == 0 else LAND_ATTACK)

    def _conquer(self, me: int, t: int, occupants: int, by_sea: bool) -> None:
        loser = self.owner[t]
        self.owner[t] = me
        self.armies[t] = occupants
        self.conquered = True
        if by_sea:
            self.sea_conquered[t] = True
        if loser >= 0 and loser not in self.owner:
            self._eliminate(loser, me)

    def _eliminate(self, loser: int, by: int) -> None:
        """[R 18]: the eliminator takes every card; the loser's triremes leave the game."""
        self.eliminated[loser] = True
        self.eliminated_by[loser] = by
        for i in range(4):
            self.hands[by][i] += self.hands[loser][i]
            self.hands[loser][i] = 0
        self.triremes[loser] = [0] * self.board.n_seas
        alive = [p for p in range(self.n) if not self.eliminated[p]]
        if len(alive) == 1:
            self._finish(Termination.ELIMINATION, (alive[0],))

    # ------------------------------------------------------------------ end of turn

    def _finish_turn(self) -> None:
        if self.terminal is not None:
            return
        self.phase = DRAW
        if self.conquered:
            if not any(self.deck) and any(self.discard):  # [R 8.9] reshuffle the discards
                self.deck = self.discard
                self.discard = [0, 0, 0, 0]
            if sum(self.deck):
                self.chance = (3,)
                return
        self._next_turn()

    def _next_turn(self) -> None:
        n = self.n
        t = self.turn
        while True:
            t = (t + 1) % n
            if t == 0:
                self.round += 1
                cap = self.opts.max_rounds
                if cap is not None and self.round > cap:
                    self.turn = t
                    self._finish(Termination.ROUND_LIMIT, None)
                    return
            if not self.eliminated[self.order[t]]:
                break
        self.turn = t
        self._begin_turn()

    def _finish(self, why: Termination, winners: tuple[int, ...] | None) -> None:
        self.phase = OVER
        self.chance = None
        vp = [float(v) for v in self.vp]
        if winners is None:
            # U10: most VP among the players still in the game (ties shared); eliminated players rank below
            keys = [(not self.eliminated[p], v) for p, v in enumerate(vp)]
            groups = sorted(set(keys), reverse=True)
            ranking = tuple(tuple(p for p in range(self.n) if keys[p] == k) for k in groups)
            self.terminal = Outcome(why, tuple(vp), ranking[0], ranking)
            return
        rest = Outcome.by_scores(why, [v if p not in winners else -math.inf for p, v in enumerate(vp)])
        ranking = (winners, *(g for g in rest.ranking if g[0] not in winners))
        self.terminal = Outcome(why, tuple(vp), winners, ranking)

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
            "phase": self.phase,
            "chance": list(self.chance) if self.chance else None,
            "pool": self.pool,
            "battle": self.battle,
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

    def explain_illegal(self, action: Action) -> tuple[str, str]:
        """(rule, reason) for an action that is not legal now: the rule it breaks, named."""
        from hegemon.games.spqrisiko.explain import explain

        return explain(self, action)

    def views(self, players: Iterable[PlayerId | None]) -> dict[PlayerId | None, dict[str, Any]]:
        """`view` for several players at once (the public part computed once)."""
        from hegemon.games.spqrisiko.view import views

        return views(self, players)
