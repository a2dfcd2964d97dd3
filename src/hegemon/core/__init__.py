"""The engine vocabulary shared by every game: players, outcomes, errors, options, actions, play/replay."""

from hegemon.core.actions import Action, ActionCodec
from hegemon.core.errors import (
    ConfigError,
    HegemonError,
    IllegalActionError,
    InvalidActionError,
    RecordError,
    RulesDataError,
)
from hegemon.core.game import CHANCE, TERMINAL, Game, Outcome, PlayerId, State
from hegemon.core.play import play, playout, sample_chance

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "ActionCodec",
    "ConfigError",
    "Game",
    "HegemonError",
    "IllegalActionError",
    "InvalidActionError",
    "Outcome",
    "PlayerId",
    "RecordError",
    "RulesDataError",
    "State",
    "play",
    "playout",
    "sample_chance",
]
