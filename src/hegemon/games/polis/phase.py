"""The phases of a Polis game (the state's `phase`): the action menu of a turn and the sub-steps of an action
(a military move, a siege, a trade's market roll, the extra resource), of a battle (§6) and of the round's
start and end (§4.2, §8). `rules/flow.py` is the sequencer that moves the game from one step of the round to
the next; the other rules modules enter only the sub-steps of their own action or battle."""

from __future__ import annotations

from enum import IntEnum


class Phase(IntEnum):
    ACTION = 0
    MOVE = 1
    SIEGE_ROLL = 2
    SACRIFICE_FORCE = 3
    DS_FORCE = 4
    GARRISON = 5
    TRADE_ROLL = 6
    EXTRA = 7
    BATTLE_CHOOSE = 8
    BATTLE_DRAW = 9
    RETREAT = 10
    PLAY = 11
    MATCH = 12
    DRAW_PROJECT = 13
    DRAW_EVENT = 14
    EVENT_REMOVE = 15
    SUPPLY = 16
    GROWTH = 17
    PHOROS = 18
    OVER = 19


# the members as module constants (the same objects): `Phase.X` goes through the enum metaclass's attribute
# hook on every use, which the rules' hot paths feel
ACTION = Phase.ACTION
MOVE = Phase.MOVE
SIEGE_ROLL = Phase.SIEGE_ROLL
SACRIFICE_FORCE = Phase.SACRIFICE_FORCE
DS_FORCE = Phase.DS_FORCE
GARRISON = Phase.GARRISON
TRADE_ROLL = Phase.TRADE_ROLL
EXTRA = Phase.EXTRA
BATTLE_CHOOSE = Phase.BATTLE_CHOOSE
BATTLE_DRAW = Phase.BATTLE_DRAW
RETREAT = Phase.RETREAT
PLAY = Phase.PLAY
MATCH = Phase.MATCH
DRAW_PROJECT = Phase.DRAW_PROJECT
DRAW_EVENT = Phase.DRAW_EVENT
EVENT_REMOVE = Phase.EVENT_REMOVE
SUPPLY = Phase.SUPPLY
GROWTH = Phase.GROWTH
PHOROS = Phase.PHOROS
OVER = Phase.OVER

PHASE_NAMES = (
    "action", "move", "siege roll", "sacrifice force", "forcing", "garrison", "market roll", "extra resource",
    "battle choice", "card draw", "retreat", "attack", "match", "project draw", "event draw", "event removal",
    "supply", "growth", "phoros", "game over",
)  # fmt: skip
"""The display name of each phase, by value."""

CHANCE_PHASES = frozenset((SIEGE_ROLL, TRADE_ROLL, BATTLE_DRAW, DRAW_PROJECT, DRAW_EVENT))
"""The phases where chance moves (a die, a card, a project or an event drawn): `chance_outcomes` lists them."""
