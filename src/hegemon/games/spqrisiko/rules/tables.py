"""Every action of a board, built once per board and indexed by integers, so that legal-move generation builds
no action object and looks nothing up by name in the hot path. Counts (dice, legionaries, triremes) are
unbounded, so their lists grow on demand. Actions are plain frozen values: a table's action equals one
built from the same arguments."""

from __future__ import annotations

import itertools
import weakref
from typing import Any

from mypy_extensions import mypyc_attr

from hegemon.core.actions import Action
from hegemon.games.spqrisiko import actions as A
from hegemon.games.spqrisiko.board import SYMBOLS, Board

CARD_SETS: tuple[tuple[int, int, int], ...] = tuple(
    [(s, s, s) for s in range(4)] + list(itertools.combinations(range(4), 3))
)
"""The tradeable sets by symbol index: three alike, then three different [R 8.4]."""

_CACHE: dict[tuple[Any, ...], Action] = {}


def act(cls: type[Action], *args: Any) -> Action:
    """The interned action `cls(*args)` (for the rare kinds that have no table)."""
    key = (cls, *args)
    a = _CACHE.get(key)
    if a is None:
        a = _CACHE[key] = cls(*args)
    return a


@mypyc_attr(
    serializable=True
)  # compiled (mypyc): pickling (search workers) makes the object with __new__ alone
class BoardActions:
    """The actions of one board by index: `attack[s]` lists (target, Attack) for each land neighbour of s in
    board order, `sea_attack[s]` (target, sea, SeaAttack) for each bridge, and so on."""

    def __init__(self, b: Board) -> None:
        pid, sid = b.province_ids, b.sea_ids
        P, S = len(pid), len(sid)
        self.provinces = range(P)
        self.seas = range(S)
        self.claim = [act(A.Claim, pid[p]) for p in range(P)]
        self.claim_neutral = [act(A.ClaimNeutral, pid[p]) for p in range(P)]
        self.reinforce = [act(A.Reinforce, pid[p]) for p in range(P)]
        self.place_pc = [act(A.PlacePowerCentre, pid[p]) for p in range(P)]
        self.place_trireme = [act(A.PlaceTrireme, sid[s]) for s in range(S)]
        self.trade = [(cs, act(A.TradeSet, tuple(SYMBOLS[i] for i in cs))) for cs in CARD_SETS]
        self.disband = [[(p, act(A.Disband, sid[s], pid[p])) for p in b.shores[s]] for s in range(S)]
        self.build = [[act(A.Build, pid[p], sid[s]) for s in b.coasts[p]] for p in range(P)]
        self.attack = [[(t, act(A.Attack, pid[s], pid[t])) for t in b.land[s]] for s in range(P)]
        self.sea_attack = [
            [(t, sea, act(A.SeaAttack, pid[s], pid[t], sid[sea])) for t, sea in b.bridges[s]]
            for s in range(P)
        ]
        self.fortify: list[dict[int, Action]] = [{} for _ in range(P)]
        # per source, in destination order: (destination, Fortify, whether a land neighbour, the seas bridging)
        self.fortify_rows: list[list[tuple[int, Action, bool, tuple[int, ...]]]] = [[] for _ in range(P)]
        for s in range(P):
            for q in sorted({*b.land[s], *(t for t, _ in b.bridges[s])}):
                self.fortify[s][q] = f = act(A.Fortify, pid[s], pid[q])
                seas = tuple(sea for t, sea in b.bridges[s] if t == q)
                self.fortify_rows[s].append((q, f, q in b.land[s], seas))
        self.naval_attack = [[act(A.NavalAttack, sid[s], o) for o in range(5)] for s in range(S)]
        # naval moves: per sea, per linked sea, the moves of 1..k triremes (grown on demand)
        self._naval_move = [
            [(t, [act(A.NavalMove, sid[s], sid[t], 1)]) for t in b.sea_links[s]] for s in range(S)
        ]
        self._sid = sid
        self.roll_dice: list[Action] = [act(A.RollDice, d) for d in range(4)]
        self._declare: list[Action] = []
        self._move_in: list[Action] = []
        self._move: list[Action] = []

    def naval_moves(self, s: int, k: int) -> list[tuple[int, list[Action]]]:
        """(linked sea, moves of 1.. triremes) for each sea linked to s, each list at least k long."""
        rows = self._naval_move[s]
        sid = self._sid
        for t, moves in rows:
            while len(moves) < k:
                moves.append(act(A.NavalMove, sid[s], sid[t], len(moves) + 1))
        return rows

    def declare(self, lo: int, hi: int) -> list[Action]:
        return _counts(self._declare, A.Declare, lo, hi)

    def move_in(self, lo: int, hi: int) -> list[Action]:
        return _counts(self._move_in, A.MoveIn, lo, hi)

    def move(self, lo: int, hi: int) -> list[Action]:
        return _counts(self._move, A.Move, lo, hi)


def _counts(table: list[Action], cls: type[Action], lo: int, hi: int) -> list[Action]:
    """[cls(lo), ..., cls(hi)] from `table` (index k holds cls(k)), grown as needed."""
    if lo < 1:
        return [act(cls, k) for k in range(lo, hi + 1)]
    if len(table) <= hi:
        if not table:
            table.append(act(cls, 0))  # never offered: keeps index k = count k
        while len(table) <= hi:
            table.append(act(cls, len(table)))
    return table[lo : hi + 1] if lo <= hi else []


_TABLES: weakref.WeakKeyDictionary[Board, BoardActions] = weakref.WeakKeyDictionary()


def tables(board: Board) -> BoardActions:
    """The action tables of `board` (built on first use, shared by every state on that board)."""
    t = _TABLES.get(board)
    if t is None:
        t = _TABLES[board] = BoardActions(board)
    return t
