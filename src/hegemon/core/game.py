"""The game contract: players, CHANCE/TERMINAL, outcomes, and the Game/State protocols every game implements."""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast, runtime_checkable

from hegemon.core.actions import Action
from hegemon.core.errors import Refusal
from hegemon.core.options import Options
from hegemon.core.roles import Roles

PlayerId = int
CHANCE: PlayerId = -1
TERMINAL: PlayerId = -2


class Termination(enum.StrEnum):
    """Why a game ended."""

    VP_TARGET = "vp_target"
    ROUND_LIMIT = "round_limit"
    ACTION_LIMIT = "action_limit"
    ELIMINATION = "elimination"
    PRESTIGE = "prestige"
    CONQUEST = "conquest"
    END_OF_ROUNDS = "end_of_rounds"
    SCORE = "score"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The final result: why it ended, each player's score, the winner(s) and the ranking (best first).

    `ranking` lists groups of tied players, best first: ((2,), (0, 1)) means player 2 won and 0 and 1 tied second.
    """

    termination: Termination
    scores: tuple[float, ...]
    winners: tuple[PlayerId, ...]
    ranking: tuple[tuple[PlayerId, ...], ...]

    @property
    def winner(self) -> PlayerId | None:
        """The single winner, or None when the first place is shared."""
        return self.winners[0] if len(self.winners) == 1 else None

    def to_json(self) -> dict[str, Any]:
        return {
            "termination": self.termination.value,
            "scores": list(self.scores),
            "winners": list(self.winners),
            "ranking": [list(g) for g in self.ranking],
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Outcome:
        return cls(
            Termination(obj["termination"]),
            tuple(obj["scores"]),
            tuple(obj["winners"]),
            tuple(tuple(g) for g in obj["ranking"]),
        )

    @classmethod
    def by_scores(cls, termination: Termination, scores: Sequence[float]) -> Outcome:
        """An outcome ranked by score (higher is better), ties shared."""
        values = sorted(set(scores), reverse=True)
        ranking = tuple(tuple(p for p, s in enumerate(scores) if s == v) for v in values)
        return cls(termination, tuple(scores), ranking[0] if ranking else (), ranking)


@runtime_checkable
class State(Protocol):
    """A game position. Mutable for speed; `clone()` is cheap; static board data is shared."""

    def current_player(self) -> PlayerId: ...
    def legal_actions(self) -> list[Action]: ...
    def chance_outcomes(self) -> list[tuple[Action, float]]: ...
    def apply(self, action: Action) -> None: ...
    def clone(self) -> State: ...
    def is_terminal(self) -> bool: ...
    def outcome(self) -> Outcome | None: ...
    def view(self, player: PlayerId | None) -> dict[str, Any]: ...
    def phase_name(self) -> str: ...
    def to_json(self) -> dict[str, Any]: ...
    @property
    def num_players(self) -> int: ...


# ---------------------------------------------------------------- optional hooks of a state
# A game's state may offer more than `State`: each such hook is a protocol, and generic code asks for it with the
# typed lookups below (checked once per class: they cost a dictionary read, not an isinstance walk, per call).


@runtime_checkable
class ExplainsRefusals(Protocol):
    """A state that says why an action is not legal now: the rule's tag, the reason's id, its arguments and the
    reason in English (`core.errors.Refusal`)."""

    def explain_illegal(self, action: Action) -> Refusal: ...


@runtime_checkable
class SamplesChance(Protocol):
    """A state with its own fast draw of a chance outcome (one `rng.random()` call, as `weighted_choice`)."""

    def sample_chance(self, rng: random.Random) -> Action: ...


@runtime_checkable
class ViewsAtOnce(Protocol):
    """A state that makes many seats' views in one pass (what every player sees computed once)."""

    def views(self, players: Iterable[PlayerId | None]) -> dict[PlayerId | None, dict[str, Any]]: ...


_IMPLEMENTS: dict[tuple[type, type], bool] = {}


def _implements(state: object, hook: type) -> bool:
    key = (type(state), hook)
    known = _IMPLEMENTS.get(key)
    if known is None:
        known = _IMPLEMENTS[key] = isinstance(state, hook)
    return known


def refusal_explainer(state: State) -> ExplainsRefusals | None:
    """`state` as an `ExplainsRefusals` when its class is one, else None."""
    return cast(ExplainsRefusals, state) if _implements(state, ExplainsRefusals) else None


def chance_sampler(state: State) -> SamplesChance | None:
    """`state` as a `SamplesChance` when its class is one, else None."""
    return cast(SamplesChance, state) if _implements(state, SamplesChance) else None


def views(state: State, players: Iterable[PlayerId | None]) -> dict[PlayerId | None, dict[str, Any]]:
    """`state.view(p)` for every p of `players`. A game may define `state.views(players)` (`ViewsAtOnce`) to
    compute the part every player sees only once; otherwise each view is computed on its own."""
    if _implements(state, ViewsAtOnce):
        return dict(cast(ViewsAtOnce, state).views(players))
    return {p: state.view(p) for p in players}


@runtime_checkable
class Game(Protocol):
    """A game: its name, version, options type, action codec, a factory of initial states, and the per-game
    pieces that generic layers (CLI, server, lab, bots, RL) look up through it instead of naming the game.

    - `title`: the name shown to people; `options_type`: the options dataclass (its `PRESETS` and
      `PRESET_FIELD` are the lobby's presets);
    - `selfplay_defaults`: options that bots-only games (self-play, lab, RL) use unless told otherwise;
    - `side_names`: each seat's (English, Italian) name when seats are sides of the game (empty otherwise);
      `ends_after_rounds`: the normal end is the end of the last round (a game that stops sooner ended early);
    - `roles`: the game's typed roles for the generic layers (`hegemon.core.roles`: text, bots, lab, encoder,
      boards, news), each loaded on first use;
    - `position_odds_job(state, query)`: the odds of an attack described by `query` in `state`, as a picklable
      call with no arguments, read from the position at once and run later (the web table runs it in a
      worker process); its answer is a JSON-ready dict, with `"exact": false` when not in exact fractions;
    - `glossary()`: what each card, event and piece does, for the client's tooltips;
    - `board_name(options)`: the corrected board file `options` play on (an uploaded board's content-hash name or
      a path), None for the board that comes with the game (a table's glossary is that board's);
    - `shipped_boards()`: the names of the boards that ship with the game, the default board first ("default",
      which options name with None); another of them is chosen by name with the options (`board=NAME`), so a
      table or a command can play it without a file;
    - `game_length(state)`: (rounds played, counted from 1; turns over the game, or None when the game counts
      turns only within a round);
    - `turn_count(state)`: the state's turn counter, which changes whenever a player's turn passes to the next
      (`hegemon replay` shows a game turn by turn with it).

    The data members are read-only here: a game declares them as class attributes (`core.gamebase.BaseGame`
    is the base every game object subclasses; mypy checks each game against this protocol where it assigns
    `GAME: Game`).
    """

    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...
    @property
    def options_type(self) -> type[Options]: ...
    @property
    def selfplay_defaults(self) -> Mapping[str, Any]: ...
    @property
    def side_names(self) -> tuple[tuple[str, str], ...]: ...
    @property
    def ends_after_rounds(self) -> bool: ...
    @property
    def roles(self) -> Roles: ...

    def parse_options(self, raw: Mapping[str, Any] | None = None) -> Any: ...
    def describe_options(self) -> list[dict[str, Any]]: ...
    def players(self, options: Any) -> int: ...
    def new_game(self, options: Any = None, seed: int = 0) -> State: ...
    def decode_action(self, obj: Any) -> Action: ...
    def max_actions(self, options: Any) -> int: ...
    def position_odds_job(self, state: Any, query: Mapping[str, str]) -> Callable[[], dict[str, Any]]: ...
    def glossary(self, board: Any = None) -> dict[str, Any]: ...
    def board_name(self, options: Any) -> str | None: ...
    def shipped_boards(self) -> tuple[str, ...]: ...
    def game_length(self, state: Any) -> tuple[int, int | None]: ...
    def turn_count(self, state: Any) -> int: ...
