"""The error hierarchy: every failure a user can cause is one of these, and says exactly what was wrong."""

from __future__ import annotations


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


class IllegalActionError(HegemonError):
    """A well-formed action that is not legal in the current position (phase and player named, and the rule it
    breaks when the game can say: `rule`, e.g. "R 13.6" or "§4.3")."""

    code = "illegal_action"

    def __init__(
        self, message: str, *, phase: str = "", player: int | None = None, rule: str = "", reason: str = ""
    ) -> None:
        self.phase = phase
        self.player = player
        self.rule = rule
        self.reason = reason  # the explanation alone (no action, player or rule), for a client to show or translate
        super().__init__(message)


class RecordError(HegemonError):
    """A game record (JSON lines) is corrupt or does not replay to what it claims."""
