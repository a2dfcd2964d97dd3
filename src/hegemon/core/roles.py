"""The roles a game plays for the generic layers, typed: each role is a frozen dataclass of the game's functions
(declared once, at the end of the module that defines them), and a game's `Roles` says how to load each one.

A role is loaded on first use (the `hegemon` command starts without importing any game's engine) and cached:

| role | dataclass | used by |
|---|---|---|
| `text` (required) | `TextRole`: `render`, `render_map`, `action_odds` | `hegemon play`, `replay`, RL `render` |
| `bots` (required) | `BotRole`: `evaluate`, `determinize`, `auto_action` and the search's optional hooks | every bot |
| `lab` | `LabRole`: the measures class, their words, the lab's bots, the lead signal | `hegemon lab` |
| `encoder` | `EncoderRole`: `make_encoder(state)` | `hegemon.rl` |
| `boards` | `BoardRole`: board files and uploaded boards | the web table, `hegemon rules` |
| `news` | `NewsRole`: `facts(state)` before an action, `news(state, facts, action)` after it | the web table's log |

A game without an optional role gets None from its getter (the layers that need it say so); a game without a
required one is refused when it is registered (`check_roles`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol

from hegemon.core.actions import Action
from hegemon.core.errors import ConfigError

PlayerId = int

# ---------------------------------------------------------------- the roles


@dataclass(frozen=True, kw_only=True, slots=True)
class TextRole:
    """The terminal: a state for a player (None: a spectator), the map, and the odds of an action (None: none)."""

    render: Callable[[Any, PlayerId | None], str]
    render_map: Callable[[Any], str]
    action_odds: Callable[[Any, Action], str | None]


@dataclass(frozen=True, kw_only=True, slots=True)
class BotRole:
    """What bots know of a game (`hegemon.ai.games`).

    - `evaluate(state)`: every player's value of the position in [0, 1], from what every player sees;
    - `determinize(state, player, rng)`: a copy whose hidden parts are resampled consistently with
      `state.view(player)`;
    - `auto_action(state, player)`: a cheap default for a sub-choice (dice, counts), None for a real choice.

    The tree search's optional hooks (None: the search's own default):

    - `tree_default(state, player, last)`: the default below the root, which may follow the last decision
      (default: `auto_action`); `finish_default(state, player, last)`: how a turn is finished before a leaf is
      valued (default: `tree_default`);
    - `try_first(action)`: a plan worth a look even when one ply ranks it low;
    - `turn_start(state, player)`: the same position with `player` to move (the others' expansion order);
    - `evaluate_for(player)`: the search's evaluation for the side searching (default: `evaluate`);
    - `mcts_defaults`: the search's settings for this game (`MCTS` arguments left as None take them);
    - `evaluations`: other evaluations a bot may be asked for by name (`mcts:…:eval=NAME`, `greedy:eval=NAME`),
      each as `evaluate_for` (the side searching → an evaluation).
    """

    evaluate: Callable[[Any], list[float]]
    determinize: Callable[[Any, PlayerId, random.Random], Any]
    auto_action: Callable[[Any, PlayerId], Action | None]
    tree_default: Callable[[Any, PlayerId, Action | None], Action | None] | None = None
    finish_default: Callable[[Any, PlayerId, Action | None], Action | None] | None = None
    try_first: Callable[[Action], bool] | None = None
    turn_start: Callable[[Any, PlayerId], Any] | None = None
    evaluate_for: Callable[[PlayerId], Callable[[Any], list[float]]] | None = None
    mcts_defaults: Mapping[str, bool | int | float] = field(default_factory=lambda: MappingProxyType({}))
    evaluations: Mapping[str, Callable[[PlayerId], Callable[[Any], list[float]]]] = field(
        default_factory=lambda: MappingProxyType({})
    )


class GameMeasures(Protocol):
    """A game's lab measures, fed every action: `before` it, `after` it (with what `before` returned), and the
    `result` at the end (a JSON-ready dict)."""

    def before(self, state: Any, action: Action) -> Any: ...
    def after(self, state: Any, action: Action, token: Any) -> None: ...
    def result(self, state: Any) -> dict[str, Any]: ...


@dataclass(frozen=True, kw_only=True, slots=True)
class StudySpec:
    """A checked-in lab study of the game (`hegemon lab study NAME`, `lab/study.py`): the switch whose values are
    compared (first value the baseline), on which boards ("" or "default": the game's default), with which bots
    and sizes, and what the page headlines: a seat's win rate (None: the first player's), the length's unit and
    the game's key measure, each in (English, Italian)."""

    name: str
    title: tuple[str, str]
    question: tuple[str, str]
    option: str
    boards: tuple[str, ...] = ("",)
    players: int | None = None
    bots: str = "mcts:normal"
    luck_bots: str = "mcts:normal"
    levels: str = "random,beginner,mcts:easy,mcts:normal"
    games: int = 1068  # ±3 points at 50% needs 1,068 independent games
    ladder_games: int = 40
    luck_settings: int = 100
    luck_streams: int = 8
    seed: int = 2026
    headline_seat: int | None = None
    length_unit: tuple[str, str] = ("turns", "turni")
    key_measure: str | None = None
    game: str = ""  # filled in by the lab from the game that declares it


@dataclass(frozen=True, kw_only=True, slots=True)
class LabRole:
    """What the lab knows of a game: its measures (`measures()` makes a fresh recorder per game), their words
    (each name as (English, Italian)), the measures each option switch is about, the end reasons' names, the
    bots `lab compare` plays when none are named (None: greedy on every side), the lead signal (each
    player's standing in a position, None: none) and the game's checked-in studies."""

    measures: Callable[[], GameMeasures]
    names: Mapping[str, tuple[str, str]]
    value_names: Mapping[str, tuple[str, str]] = field(default_factory=lambda: MappingProxyType({}))
    switch_measures: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    reason_names: Mapping[str, tuple[str, str]] = field(default_factory=lambda: MappingProxyType({}))
    bots: str | None = None
    lead_scores: Callable[[Any], Sequence[float]] | None = None
    studies: tuple[StudySpec, ...] = ()


class Features(Protocol):
    """A game's RL encoding of one table size: the fixed action list, the observation layout [(name, size), …] and
    a seat's features (built only from what the seat sees)."""

    @property
    def actions(self) -> Sequence[Action]: ...
    @property
    def layout(self) -> Sequence[tuple[str, int]]: ...
    def features(self, state: Any, seat: int) -> Sequence[float]: ...


@dataclass(frozen=True, kw_only=True, slots=True)
class EncoderRole:
    """The RL encoding: `make_encoder(state)` for `state`'s table size."""

    make_encoder: Callable[[Any], Features]


@dataclass(frozen=True, kw_only=True, slots=True)
class BoardRole:
    """A game's boards: load one (None: the default; a shipped board's name, a registered upload's name or a
    path), parse an uploaded file's text (`RulesDataError` names a bad entry), register, forget and find an
    accepted upload under its content-hash name, and the values reconstructed rather than sourced (None: all sourced)."""

    load_board: Callable[[str | Path | None], Any]
    board_from_text: Callable[[str, str], Any]
    register_board: Callable[[str, Any], None]
    forget_board: Callable[[str], None]
    registered_board: Callable[[str], Any | None]
    reconstructed_values: Callable[[Any], list[dict[str, Any]]] | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class NewsRole:
    """What an action changed, in public facts only: `facts(state)` before it, `news(state, facts, action)`
    after it (a JSON-ready list; the web table's log carries it)."""

    facts: Callable[[Any], Any]
    news: Callable[[Any, Any, Action], list[dict[str, Any]]]


# ---------------------------------------------------------------- a game's roles


_REQUIRED = ("text", "bots")
_PREFIX = "option 'game': "


class Roles:
    """How a game loads each role: a function with no arguments per role (it imports the module that defines it,
    so nothing is imported before it is needed), called once. `text` and `bots` are required."""

    __slots__ = ("_boards", "_bots", "_cache", "_encoder", "_lab", "_news", "_text")

    def __init__(
        self,
        *,
        text: Callable[[], TextRole] | None = None,
        bots: Callable[[], BotRole] | None = None,
        lab: Callable[[], LabRole] | None = None,
        encoder: Callable[[], EncoderRole] | None = None,
        boards: Callable[[], BoardRole] | None = None,
        news: Callable[[], NewsRole] | None = None,
    ) -> None:
        self._text = text
        self._bots = bots
        self._lab = lab
        self._encoder = encoder
        self._boards = boards
        self._news = news
        self._cache: dict[str, object] = {}

    def declared(self) -> dict[str, bool]:
        """Each role's name and whether the game declares it."""
        return {
            "text": self._text is not None,
            "bots": self._bots is not None,
            "lab": self._lab is not None,
            "encoder": self._encoder is not None,
            "boards": self._boards is not None,
            "news": self._news is not None,
        }

    def _load(self, role: str, load: Callable[[], object] | None, kind: type[Any]) -> Any:
        hit = self._cache.get(role)
        if hit is not None:
            return hit
        if load is None:
            return None
        made = load()
        if not isinstance(made, kind):
            raise ConfigError("game", f"the {role} role loads a {type(made).__name__}, not a {kind.__name__}")
        self._cache[role] = made
        return made

    def text(self) -> TextRole:
        made: TextRole | None = self._load("text", self._text, TextRole)
        if made is None:
            raise ConfigError("game", "the game has no text role")
        return made

    def bots(self) -> BotRole:
        made: BotRole | None = self._load("bots", self._bots, BotRole)
        if made is None:
            raise ConfigError("game", "the game has no bots role")
        return made

    def lab(self) -> LabRole | None:
        made: LabRole | None = self._load("lab", self._lab, LabRole)
        return made

    def encoder(self) -> EncoderRole | None:
        made: EncoderRole | None = self._load("encoder", self._encoder, EncoderRole)
        return made

    def boards(self) -> BoardRole | None:
        made: BoardRole | None = self._load("boards", self._boards, BoardRole)
        return made

    def news(self) -> NewsRole | None:
        made: NewsRole | None = self._load("news", self._news, NewsRole)
        return made

    def load_all(self) -> None:
        """Load every declared role (ConfigError for one that is not of its role's type)."""
        self.text()
        self.bots()
        self.lab()
        self.encoder()
        self.boards()
        self.news()


def check_roles(name: str, roles: object) -> None:
    """ConfigError unless `roles` is a `Roles` that declares every required role and loads each declared one as
    its role's type (a plug-in game is checked so when it is registered)."""
    if not isinstance(roles, Roles):
        raise ConfigError(
            "game", f"{name}: `roles` must be a hegemon.core.roles.Roles, not {type(roles).__name__}"
        )
    missing = [r for r in _REQUIRED if not roles.declared()[r]]
    if missing:
        raise ConfigError(
            "game", f"{name} lacks the required role(s) {', '.join(missing)} (see hegemon.core.roles)"
        )
    try:
        roles.load_all()
    except ConfigError as e:
        raise ConfigError("game", f"{name}: {str(e).removeprefix(_PREFIX)}") from None
