"""The phases of a S.P.Q.RisiKo! game: set-up [R 3], then each turn's phases in the order of [R 4.2]-[R 4.10]
(scoring happens on entering a turn; reinforcements, naval movement, naval combat, sea attacks, land attacks,
strategic move, card). Sub-phases are the atomic choices of a compound move (a battle's rolls, a move's count)."""

from __future__ import annotations

from enum import IntEnum


class Phase(IntEnum):
    SETUP_ORDER = 0
    SETUP_DEAL = 1
    SETUP_CLAIM = 2
    SETUP_NEUTRAL = 3
    CARDS = 4
    CARD_BONUS = 5
    REINFORCE = 6
    CONVERT = 7
    NAVAL_MOVE = 8
    NAVAL_COMBAT = 9
    NAVAL_BATTLE = 10
    SEA_ATTACK = 11
    DECLARE = 12
    SEA_BATTLE = 13
    LAND_ATTACK = 14
    LAND_BATTLE = 15
    MOVE_IN = 16
    STRATEGIC = 17
    STRATEGIC_COUNT = 18
    DRAW = 19
    OVER = 20


# the members as module constants (the same objects): `Phase.X` goes through the enum metaclass's attribute
# hook on every use, which the rules' hot paths feel
SETUP_ORDER = Phase.SETUP_ORDER
SETUP_DEAL = Phase.SETUP_DEAL
SETUP_CLAIM = Phase.SETUP_CLAIM
SETUP_NEUTRAL = Phase.SETUP_NEUTRAL
CARDS = Phase.CARDS
CARD_BONUS = Phase.CARD_BONUS
REINFORCE = Phase.REINFORCE
CONVERT = Phase.CONVERT
NAVAL_MOVE = Phase.NAVAL_MOVE
NAVAL_COMBAT = Phase.NAVAL_COMBAT
NAVAL_BATTLE = Phase.NAVAL_BATTLE
SEA_ATTACK = Phase.SEA_ATTACK
DECLARE = Phase.DECLARE
SEA_BATTLE = Phase.SEA_BATTLE
LAND_ATTACK = Phase.LAND_ATTACK
LAND_BATTLE = Phase.LAND_BATTLE
MOVE_IN = Phase.MOVE_IN
STRATEGIC = Phase.STRATEGIC
STRATEGIC_COUNT = Phase.STRATEGIC_COUNT
DRAW = Phase.DRAW
OVER = Phase.OVER

PHASE_NAMES = (
    "setup: order of play", "setup: deal", "setup: claim", "setup: neutral group",
    "reinforcements: cards", "reinforcements: card bonus", "reinforcements: place", "reinforcements: navy",
    "naval movement", "naval combat", "naval combat: roll",
    "sea attacks", "sea attack: declare", "sea attack: roll",
    "land attacks", "land attack: roll", "land attack: move in",
    "strategic move", "strategic move: count", "card draw", "game over",
)  # fmt: skip
"""The display name of each phase, by value."""

NEXT_OPTIONAL = {
    Phase.CONVERT: Phase.NAVAL_MOVE,
    Phase.NAVAL_MOVE: Phase.NAVAL_COMBAT,
    Phase.NAVAL_COMBAT: Phase.SEA_ATTACK,
    Phase.SEA_ATTACK: Phase.LAND_ATTACK,
    Phase.LAND_ATTACK: Phase.STRATEGIC,
}
"""The optional phase that follows each optional phase of a turn (ended by Done or skipped when empty)."""
