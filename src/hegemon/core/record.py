"""Game records as JSON lines: (game, version, options, seed, actions) replays to the identical state."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hegemon.core.actions import Action
from hegemon.core.errors import HegemonError, RecordError
from hegemon.core.game import CHANCE, TERMINAL, Game, PlayerId, State
from hegemon.core.play import derive_seed, play, sample_chance

Agent = Callable[[State, PlayerId], Action]


def canonical_json(obj: Any) -> str:
    """Compact, key-sorted JSON: the same object always gives the same bytes."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_digest(state: State) -> str:
    """A short fingerprint of the whole state (hidden parts included): equal digests, equal states."""
    return hashlib.sha256(canonical_json(state.to_json()).encode()).hexdigest()[:16]


@dataclass
class GameRecord:
    """One game: enough to replay it exactly, plus its result and a digest of the final state."""

    game: str
    version: int
    options: dict[str, Any]
    seed: int
    actions: list[dict[str, Any]]
    seats: list[str] = field(default_factory=list)
    outcome: dict[str, Any] | None = None
    digest: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "version": self.version,
            "options": self.options,
            "seed": self.seed,
            "seats": self.seats,
            "actions": self.actions,
            "outcome": self.outcome,
            "digest": self.digest,
            "meta": self.meta,
        }

    def to_line(self) -> str:
        return canonical_json(self.to_json())

    @classmethod
    def from_json(cls, obj: Any, where: str = "record") -> GameRecord:
        if not isinstance(obj, dict):
            raise RecordError(f"{where}: a record must be a JSON object")
        try:
            rec = cls(
                game=obj["game"],
                version=obj["version"],
                options=obj.get("options") or {},
                seed=obj.get("seed", 0),
                actions=obj["actions"],
                seats=obj.get("seats") or [],
                outcome=obj.get("outcome"),
                digest=obj.get("digest"),
                meta=obj.get("meta") or {},
            )
        except KeyError as e:
            raise RecordError(f"{where}: missing field {e.args[0]!r}") from None
        if (
            not isinstance(rec.game, str)
            or not isinstance(rec.actions, list)
            or not isinstance(rec.options, dict)
        ):
            raise RecordError(f"{where}: fields have the wrong types")
        return rec

    @classmethod
    def from_line(cls, line: str, where: str = "record") -> GameRecord:
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise RecordError(f"{where}: not valid JSON ({e.msg} at column {e.colno})") from None
        return cls.from_json(obj, where)


def read_records(path: str | Path) -> Iterator[GameRecord]:
    """Every record of a JSON-lines file, naming the line of a corrupt one."""
    p = Path(path)
    try:
        fh = p.open(encoding="utf-8")
    except OSError as e:
        raise RecordError(f"{p}: cannot read ({e.strerror})") from None
    with fh:
        for i, line in enumerate(fh, 1):
            if line.strip():
                yield GameRecord.from_line(line, f"{p}:{i}")


def replay(game: Game, record: GameRecord, upto: int | None = None) -> State:
    """Rebuild the state of a record by playing its actions with the checked `play` (up to `upto` actions)."""
    if record.game != game.name:
        raise RecordError(f"record is for {record.game!r}, not {game.name!r}")
    if record.version != game.version:
        raise RecordError(
            f"record is for {game.name} version {record.version}; this engine is {game.version}"
        )
    try:
        options = game.parse_options(record.options)
    except HegemonError as e:
        raise RecordError(f"record options: {e}") from None
    state = game.new_game(options, record.seed)
    for i, raw in enumerate(record.actions[:upto] if upto is not None else record.actions):
        try:
            play(state, game.decode_action(raw))
        except HegemonError as e:
            raise RecordError(f"action {i}: {e}") from None
    return state


def verify(game: Game, record: GameRecord) -> list[str]:
    """Replay a record and list every difference from what it claims (empty list: it verifies)."""
    try:
        state = replay(game, record)
    except RecordError as e:
        return [str(e)]
    problems = []
    out = state.outcome()
    got = out.to_json() if out is not None else None
    if got != record.outcome:
        problems.append(f"outcome differs: record {record.outcome}, replay {got}")
    if record.digest is not None and state_digest(state) != record.digest:
        problems.append(f"final state digest differs: record {record.digest}, replay {state_digest(state)}")
    return problems


def run_game(
    game: Game,
    options: Any,
    seed: int,
    agents: Sequence[Agent],
    seats: Sequence[str] = (),
    max_actions: int | None = None,
    on_action: Callable[[State, Action], None] | None = None,
) -> tuple[State, GameRecord]:
    """Play one game: chance drawn from a generator seeded by `seed`, each player's decisions by its agent."""
    rng = random.Random(derive_seed("chance", seed))
    state = game.new_game(options, seed)
    actions: list[dict[str, Any]] = []
    limit = max_actions if max_actions is not None else game.max_actions(options)
    while len(actions) < limit:
        player = state.current_player()
        if player == TERMINAL:
            break
        action = sample_chance(state, rng) if player == CHANCE else agents[player](state, player)
        if on_action is not None:
            on_action(state, action)
        state.apply(action)
        actions.append(action.to_json())
    out = state.outcome()
    record = GameRecord(
        game=game.name,
        version=game.version,
        options=options.to_json(),
        seed=seed,
        actions=actions,
        seats=list(seats),
        outcome=out.to_json() if out is not None else None,
        digest=state_digest(state),
    )
    return state, record
