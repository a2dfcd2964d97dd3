"""What an unfinished compound action still owes: one small record per kind, held in the state's `pending`
field while the phase that finishes it runs. Clones share a record, so the rules never change one in place: a
step replaces it (tests/games/polis/test_pending.py checks it along random games). Plain slotted dataclasses,
not frozen ones: a frozen dataclass costs three times as much to build, and moves build one per step.
`to_json()` gives the record's historical list shape, part of the state digest."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class MoveOrder:
    """A military move under way (phase MOVE, §5.5-§5.6): its destination, the eligible sources in board
    order (blocking fixed at the start of the action), the index of the first source still open and the units
    moved so far."""

    dest: int
    sources: tuple[int, ...]
    next_source: int
    moved: int

    def to_json(self) -> list[object]:
        return [self.dest, list(self.sources), self.next_source, self.moved]


@dataclass(slots=True)
class SiegeRollDue:
    """A dice siege of `polis` (classic/sacrifice): the roll to come (phase SIEGE_ROLL, `roll` 0) or the
    failed roll the besieger may force (phase SACRIFICE_FORCE, seeds-en.md §1.1)."""

    polis: int
    roll: int

    def to_json(self) -> list[object]:
        return [self.polis, self.roll]


@dataclass(slots=True)
class DiscSiege:
    """A diceless siege action on `polis` still open: forcing more discs (phase DS_FORCE, seeds-en.md §1.3)
    or the garrison choice after the polis fell (phase GARRISON, §1.2)."""

    polis: int

    def to_json(self) -> list[object]:
        return [self.polis]


@dataclass(slots=True)
class MarketRollDue:
    """A trade's market die (phase TRADE_ROLL, §5.9): the track of the good and the marker's direction
    (+1 exchange: one d4 to the right; -1 purchase: the higher of two d4 to the left)."""

    track: int
    direction: int

    def to_json(self) -> list[object]:
        return [self.track, self.direction]


@dataclass(slots=True)
class ExtraDue:
    """Extra resources still owed after an action once the opponent has passed (phase EXTRA, §4.4)."""

    left: int

    def to_json(self) -> list[object]:
        return [self.left]


@dataclass(slots=True)
class Removal:
    """An event's `remove_units` effect waiting for the side's choices (phase EVENT_REMOVE, §10.2): units of
    `side` (hoplites and/or galleys) still to remove."""

    side: int
    hoplites: bool
    galleys: bool
    left: int

    def to_json(self) -> list[object]:
        return [self.side, self.hoplites, self.galleys, self.left]


Pending = MoveOrder | SiegeRollDue | DiscSiege | MarketRollDue | ExtraDue | Removal

__all__ = ["DiscSiege", "ExtraDue", "MarketRollDue", "MoveOrder", "Pending", "Removal", "SiegeRollDue"]
