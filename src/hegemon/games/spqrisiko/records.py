"""Small typed records of a S.P.Q.RisiKo! state: the battle or move in progress and the pending chance node.
Both serialise to the lists that state digests and records have always used."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import NamedTuple

from mypy_extensions import mypyc_attr


class BattleKind(IntEnum):
    NAVAL = 0
    LAND = 1
    SEA = 2
    STRATEGIC = 3


@mypyc_attr(
    serializable=True
)  # compiled (mypyc): pickling (search workers) makes the object with __new__ alone
@dataclass(slots=True)
class Battle:
    """The combat or strategic move in progress. `source` is the sea area of a naval combat, else the source
    province; `target` the attacked or destination province (-1 at sea); `opponent` the defender (the mover
    for a strategic move); `alive` the declared force still alive in a sea attack; `rolls` the rolls so far."""

    kind: BattleKind
    source: int
    target: int
    opponent: int
    alive: int = 0
    rolls: int = 0

    def copy(self) -> Battle:
        return Battle(self.kind, self.source, self.target, self.opponent, self.alive, self.rolls)

    def to_json(self) -> list[int]:
        return [int(self.kind), self.source, self.target, self.opponent, self.alive, self.rolls]


class ChanceKind(IntEnum):
    ORDER = 0
    DEAL = 1
    ROLL = 2
    DRAW = 3


class Chance(NamedTuple):
    """The pending chance node: the order of play, a province dealt, a roll of `attacker` against `defender`
    dice, or a card draw."""

    kind: ChanceKind
    attacker: int = 0
    defender: int = 0

    def to_json(self) -> list[int]:
        if self.kind == ChanceKind.ROLL:
            return [int(self.kind), self.attacker, self.defender]
        return [int(self.kind)]


# the kinds as module constants (an enum attribute goes through the enum metaclass's hook on every use)
B_NAVAL, B_LAND, B_SEA, B_STRATEGIC = BattleKind.NAVAL, BattleKind.LAND, BattleKind.SEA, BattleKind.STRATEGIC
C_ORDER, C_DEAL, C_ROLL, C_DRAW = ChanceKind.ORDER, ChanceKind.DEAL, ChanceKind.ROLL, ChanceKind.DRAW

ROLLS: tuple[tuple[Chance, ...], ...] = tuple(tuple(Chance(C_ROLL, a, d) for d in range(4)) for a in range(4))
"""`ROLLS[a][d]`: the roll of a against d dice (the records are immutable, so shared)."""

ORDER = Chance(ChanceKind.ORDER)
DEAL = Chance(ChanceKind.DEAL)
DRAW = Chance(ChanceKind.DRAW)
