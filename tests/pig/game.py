"""Secret Pig's rules: actions, the state and the game object (`GAME`).

Each player is dealt a secret bonus of 0-2 points (chance, seen only by its owner). On a turn a player rolls a
die (chance) as often as it likes, at most five times: a 1 loses the turn's points and ends the turn, any other
face adds to them; holding banks them. Banking `target` points ends the game; so does the last of `max_turns`
turns. The score is the banked points plus the bonus, revealed at the end."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from hegemon.core.actions import Action, ActionCodec
from hegemon.core.errors import Refusal
from hegemon.core.game import CHANCE, TERMINAL, Game, Outcome, PlayerId, Termination
from hegemon.core.gamebase import BaseGame
from hegemon.core.roles import BotRole, EncoderRole, LabRole, Roles, TextRole
from tests.pig.options import PigOptions

BONUSES = ("0", "1", "2")
MAX_ROLLS = 5


@dataclass(frozen=True, slots=True)
class Deal(Action):
    """Chance: `seat`'s secret bonus; only `seat` sees it."""

    kind: ClassVar[str] = "deal"
    seat: int
    bonus: str

    def visible_to(self, viewer: int | None) -> Action:
        return self if viewer == self.seat else Deal(self.seat, "?")

    def __str__(self) -> str:
        return f"player {self.seat + 1} is dealt a bonus of {self.bonus}"


@dataclass(frozen=True, slots=True)
class Roll(Action):
    kind: ClassVar[str] = "roll"

    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True, slots=True)
class Face(Action):
    """Chance: the die shows `value`."""

    kind: ClassVar[str] = "face"
    value: int

    def __str__(self) -> str:
        return f"the die shows {self.value}"


@dataclass(frozen=True, slots=True)
class Hold(Action):
    kind: ClassVar[str] = "hold"

    def __str__(self) -> str:
        return "hold"


CODEC = ActionCodec([Deal, Roll, Face, Hold])


class PigState:
    """A Secret Pig position (mutable; `clone` copies it)."""

    def __init__(self, options: PigOptions) -> None:
        self.options = options
        self.n = options.players
        self.bonus: list[int] = []
        self.banked = [0] * self.n
        self.player = 0
        self.turn_total = 0
        self.rolls = 0
        self.rolling = False  # a Roll was chosen: the die is to be drawn
        self.turns = 0
        self.ended: Termination | None = None

    @property
    def num_players(self) -> int:
        return self.n

    def clone(self) -> PigState:
        twin = PigState.__new__(PigState)
        twin.__dict__.update(self.__dict__)
        twin.bonus, twin.banked = list(self.bonus), list(self.banked)
        return twin

    def current_player(self) -> PlayerId:
        if self.ended is not None:
            return TERMINAL
        if len(self.bonus) < self.n or self.rolling:
            return CHANCE
        return self.player

    def phase_name(self) -> str:
        if self.ended is not None:
            return "over"
        return "deal" if len(self.bonus) < self.n else "roll" if self.rolling else "decide"

    def legal_actions(self) -> list[Action]:
        if self.current_player() < 0:
            return []
        out: list[Action] = [Roll()] if self.rolls < MAX_ROLLS else []
        if self.rolls > 0:
            out.append(Hold())
        return out

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.current_player() != CHANCE:
            return []
        if len(self.bonus) < self.n:
            return [(Deal(len(self.bonus), b), 1 / 3) for b in BONUSES]
        return [(Face(v), 1 / 6) for v in range(1, 7)]

    def explain_illegal(self, action: Action) -> Refusal:
        """Why an action that is not legal now is refused: rule, reason id, its arguments, the reason in English."""
        if self.ended is not None:
            return Refusal("end", "over", "the game is over")
        if isinstance(action, Hold) and self.rolls == 0:
            return Refusal("hold", "pig_hold_first", "roll at least once before holding")
        if isinstance(action, Roll) and self.rolls >= MAX_ROLLS:
            return Refusal(
                "roll", "pig_max_rolls", f"at most {MAX_ROLLS} rolls a turn: hold now", {"n": MAX_ROLLS}
            )
        phase = self.phase_name()
        return Refusal(
            "turn",
            "pig_step",
            f"it is the {phase} step, not a {action.kind}",
            {"phase": phase, "kind": action.kind},
        )

    def _next_turn(self) -> None:
        self.turn_total = self.rolls = 0
        self.turns += 1
        if self.turns >= self.options.max_turns:
            self.ended = Termination.ROUND_LIMIT
        self.player = (self.player + 1) % self.n

    def apply(self, action: Action) -> None:
        if isinstance(action, Deal):
            self.bonus.append(int(action.bonus))
        elif isinstance(action, Roll):
            self.rolling = True
        elif isinstance(action, Face):
            self.rolling = False
            self.rolls += 1
            if action.value == 1:
                self._next_turn()
            else:
                self.turn_total += action.value
        elif isinstance(action, Hold):
            self.banked[self.player] += self.turn_total
            if self.banked[self.player] >= self.options.target:
                self.ended = Termination.VP_TARGET
                self.turns += 1
            else:
                self._next_turn()

    def is_terminal(self) -> bool:
        return self.ended is not None

    def scores(self) -> list[int]:
        return [b + (self.bonus[p] if p < len(self.bonus) else 0) for p, b in enumerate(self.banked)]

    def outcome(self) -> Outcome | None:
        if self.ended is None:
            return None
        return Outcome.by_scores(self.ended, [float(s) for s in self.scores()])

    def view(self, player: PlayerId | None) -> dict[str, Any]:
        over = self.ended is not None
        out: dict[str, Any] = {
            "game": "pig",
            "phase": self.phase_name(),
            "current_player": self.current_player(),
            "banked": list(self.banked),
            "turn_total": self.turn_total,
            "rolls": self.rolls,
            "turns": self.turns,
            "bonus": [b if over or p == player else None for p, b in enumerate(self.bonus)],
        }
        if over:
            result = self.outcome()
            out["outcome"] = result.to_json() if result is not None else None
        if player is not None and player == self.current_player():
            out["legal_actions"] = [a.to_json() for a in self.legal_actions()]
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "bonus": self.bonus, "banked": self.banked, "player": self.player, "turn_total": self.turn_total,
            "rolls": self.rolls, "rolling": self.rolling, "turns": self.turns,
            "ended": self.ended.value if self.ended else None,
        }  # fmt: skip


def _bust_odds(rolls: int) -> dict[str, Any]:
    """The chance of `rolls` rolls without a 1, as an exact fraction (a module-level function: picklable)."""
    safe = Fraction(5, 6) ** rolls
    return {"kind": "pig", "rolls": rolls, "safe": str(safe), "bust": str(1 - safe), "exact": True}


# the roles, each imported on first use (tests.pig.roles declares the four Secret Pig has; no boards, no news)


def _text() -> TextRole:
    from tests.pig.roles import TEXT

    return TEXT


def _bots() -> BotRole:
    from tests.pig.roles import BOTS

    return BOTS


def _lab() -> LabRole:
    from tests.pig.roles import LAB

    return LAB


def _encoder() -> EncoderRole:
    from tests.pig.roles import ENCODER

    return ENCODER


ROLES = Roles(text=_text, bots=_bots, lab=_lab, encoder=_encoder)


class PigGame(BaseGame[PigOptions]):
    """Secret Pig for 2-3 players."""

    name = "pig"
    title = "Secret Pig"
    min_players = 2
    max_players = 3
    options_type = PigOptions
    codec = CODEC
    roles = ROLES

    def players(self, options: Any) -> int:
        return int(self.options_of(options).players)

    def new_game(self, options: Any = None, seed: int = 0) -> PigState:
        return PigState(self.options_of(options))

    def max_actions(self, options: Any) -> int:
        """Deals, then per turn at most five roll+face pairs and a hold."""
        opts = self.parse_options(options)
        return opts.players + opts.max_turns * (2 * MAX_ROLLS + 1)

    def position_odds_job(self, state: PigState, query: Mapping[str, str]) -> Callable[[], dict[str, Any]]:
        """The odds of `declared` more rolls (1-5, default what is left of the turn) without a 1."""
        import functools

        from hegemon.core.errors import ConfigError

        raw = query.get("declared", str(max(1, MAX_ROLLS - state.rolls)))
        if not raw.isdigit() or not 1 <= int(raw) <= MAX_ROLLS:
            raise ConfigError("declared", f"rolls must be 1-{MAX_ROLLS}")
        return functools.partial(_bust_odds, int(raw))

    def glossary(self, board: Any = None) -> dict[str, Any]:
        return {
            "game": "pig",
            "terms": {"hold": "bank the turn's points", "roll": "a 1 loses the turn's points"},
        }

    def board_name(self, options: Any) -> str | None:
        board = self.options_of(options).board
        return None if board in (None, "default") else board

    def game_length(self, state: PigState) -> tuple[int, int | None]:
        return state.turns // state.n + 1, state.turns

    def turn_count(self, state: PigState) -> int:
        return state.turns


GAME: Game = PigGame()
