"""The error hierarchy: every failure a user can cause is one of these, and says exactly what was wrong."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


class HegemonError(ValueError):
    """Base class of every hegemon error (a ValueError, so callers may catch broadly)."""

    code = "bad_request"


class ConfigError(HegemonError):
    """A game option (or a combination of options) is invalid; the message names the option."""

    def __init__(self, option: str, message: str) -> None:
        self.option = option
        super().__init__(f"option {option!r}: {message}")


class RulesDataError(HegemonError):
    """A rules data file (board, deck) is malformed; the message names the file and the entry."""

    def __init__(self, path: str, entry: str, message: str) -> None:
        self.path = path
        self.entry = entry
        super().__init__(f"{path}: {entry}: {message}")


class InvalidActionError(HegemonError):
    """An action is malformed: unknown type, missing or mistyped field."""

    code = "bad_request"


RefusalArg = str | int | list[str]
"""A variable part of a refusal: a name as printed on the board, a number, or a list of action kinds."""


@dataclass(frozen=True)
class Refusal:
    """Why an action is refused, as data. `rule` is the rule it breaks ("R 13.6", "§4.3"; "" when the game
    cannot name one), `id` the reason's id within its game (e.g. "last_legionary"), `args` its variable parts
    and `text` the same reason in English. A client says it in its own language from `id` and `args` (the web
    client's dictionaries hold `why.<id>`); it never parses `text`. What each argument name holds: `kinds` a list
    of action kinds (empty: none now), `kind`/`action` an action kind, `phase`/`where` a phase as the game names
    it, `whose` "yours", "neutral", "free" or the owner's seat (an int, from 0); any other a board name or a
    number, shown as it is."""

    rule: str
    id: str
    text: str
    args: Mapping[str, RefusalArg] = field(default_factory=dict)


class IllegalActionError(HegemonError):
    """A well-formed action that is not legal in the current position (phase and player named, and the rule it
    breaks when the game can say: `rule`, e.g. "R 13.6" or "§4.3"; the whole `refusal` as data when it can say
    why)."""

    code = "illegal_action"

    def __init__(
        self, message: str, *, phase: str = "", player: int | None = None, refusal: Refusal | None = None
    ) -> None:
        self.phase = phase
        self.player = player
        self.refusal = refusal
        self.rule = refusal.rule if refusal else ""
        self.reason = (
            refusal.text if refusal else ""
        )  # the explanation alone (no action, player or rule), in English
        super().__init__(message)


class RecordError(HegemonError):
    """A game record (JSON lines) is corrupt or does not replay to what it claims."""
