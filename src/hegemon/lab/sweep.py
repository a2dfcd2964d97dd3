"""A sweep: which games the lab plays, and playing them.

A sweep is a game, base options, a list of *variants* (option overrides), a list of bots and the *pairs* of
bots that meet. Every game is one `Unit` = (variant, pair, deal, rotation):

- the *deal* m fixes the game's seed, `derive_seed("lab", seed, m)`, the same in every variant and pair —
  variants are compared on paired seeds, so dice noise and deals do not masquerade as a variant effect;
- the *rotation* r (0 or 1) alternates the pair's bots over the seats (A,B,A,B… then B,A,B,A…), so each bot
  plays each seat equally often and seat advantage cancels;
- bot seeds come from (seed, deal, rotation, seat): the same in every variant.

A unit's result does not depend on which process, task or machine ran it, so a sweep split into coarse tasks
(`run_units`) over processes or a Dask cluster gives the same records as a serial run."""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol, runtime_checkable

from hegemon.ai import Bot, make_bot
from hegemon.core.game import CHANCE, TERMINAL, Game, State
from hegemon.core.play import derive_seed, sample_chance
from hegemon.core.record import GameRecord, state_digest
from hegemon.games import get_game
from hegemon.lab.design import Tracker, lead_for
from hegemon.lab.measures import measures_for


@dataclass(frozen=True)
class Unit:
    """One game of a sweep."""

    variant: int
    pair: int
    deal: int
    rotation: int

    @property
    def key(self) -> str:
        return f"{self.variant}/{self.pair}/{self.deal}/{self.rotation}"


@dataclass
class Sweep:
    """Everything that determines a sweep's games (a run's `sweep.json`)."""

    game: str
    kind: str  # compare | tournament
    bots: list[str]
    pairs: list[list[int]]
    variants: list[dict[str, Any]]
    labels: list[str]
    deals: int
    seed: int = 0
    base: dict[str, Any] = field(default_factory=dict)
    players: int | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Sweep:
        return cls(**obj)

    def identity(self) -> dict[str, Any]:
        """What must match for a stored run to be continued (the number of deals may grow)."""
        d = self.to_json()
        d.pop("deals")
        return d

    def options(self, variant: int) -> dict[str, Any]:
        raw: dict[str, Any] = dict(get_game(self.game).selfplay_defaults)  # as `hegemon selfplay`
        raw.update(self.base)
        raw.update(self.variants[variant])
        if self.players is not None:
            raw["players"] = self.players
        return raw

    def seats(self, unit: Unit, n: int) -> list[str]:
        a, b = self.pairs[unit.pair]
        return [self.bots[a] if (j + unit.rotation) % 2 == 0 else self.bots[b] for j in range(n)]

    def game_seed(self, deal: int) -> int:
        return derive_seed("lab", self.seed, deal)


@runtime_checkable
class Timed(Protocol):
    """A bot with a time limit a move (the search bots): None for iterations only."""

    time_limit: float | None


def untimed(bots: Sequence[Bot]) -> None:
    """Iteration budgets only, so that a lab game is reproducible on any machine: each bot's time limit is
    dropped (a bot without one is left as it is)."""
    for bot in bots:
        if isinstance(bot, Timed) and bot.time_limit is not None:
            bot.time_limit = None


def plan_units(sweep: Sweep) -> list[Unit]:
    """Every game of the sweep, deal-major so that a partial run covers every variant and pair evenly."""
    return [
        Unit(v, p, m, r)
        for m in range(sweep.deals)
        for r in (0, 1)
        for v in range(len(sweep.variants))
        for p in range(len(sweep.pairs))
    ]


def play_measured(game: Game, opts: Any, seed: int, bots: Sequence[Bot], measures: Any,
                  tracker: Tracker | None = None) -> tuple[State, list[dict[str, Any]], int]:  # fmt: skip
    """Play one game of `game` from `seed` with `bots` by seat, feeding `measures` its hooks (and `tracker`, if
    given, each decision's state: `lab.design`): the final state, the actions as JSON and the number of
    decisions. The same loop and chance stream as `core.record.run_game`."""
    rng = random.Random(derive_seed("chance", seed))
    state = game.new_game(opts, seed)
    actions: list[dict[str, Any]] = []
    limit = game.max_actions(opts)
    decisions = 0
    while len(actions) < limit:
        player = state.current_player()
        if player == TERMINAL:
            break
        if player == CHANCE:
            action = sample_chance(state, rng)
        else:
            if tracker is not None:
                tracker.decision(state)
            action = bots[player].choose(state, player)
            decisions += 1
        token = measures.before(state, action)
        state.apply(action)
        measures.after(state, action, token)
        actions.append(action.to_json())
    return state, actions, decisions


def play_unit(sweep: Sweep, unit: Unit, wrap: Callable[[int, Bot], Bot] | None = None) -> dict[str, Any]:
    """Play one game; its record as JSON (replayable with `hegemon replay`), measures in `meta`. `wrap(seat,
    bot)`, if given, replaces each seat's bot (once built with its budget) by what it returns: a wrapper that
    times the decisions (`lab.ladder`) without changing them."""
    game = get_game(sweep.game)
    opts = game.parse_options(sweep.options(unit.variant))
    n = game.players(opts)
    seats = sweep.seats(unit, n)
    seed = sweep.game_seed(unit.deal)
    bots = [
        make_bot(s, derive_seed("lab-bot", sweep.seed, unit.deal, unit.rotation, j))
        for j, s in enumerate(seats)
    ]
    untimed(bots)
    if wrap is not None:
        bots = [wrap(j, bot) for j, bot in enumerate(bots)]
    measures = measures_for(game.name)
    tracker = Tracker(lead_for(game.name))
    t0, c0 = time.perf_counter(), time.process_time()
    state, actions, decisions = play_measured(game, opts, seed, bots, measures, tracker)
    cpu = time.process_time() - c0  # this process's CPU time: a worker plays one game at a time
    wall = time.perf_counter() - t0
    meta = {
        "key": unit.key,
        "variant": unit.variant,
        "label": sweep.labels[unit.variant],
        "pair": unit.pair,
        "deal": unit.deal,
        "rotation": unit.rotation,
        "decisions": decisions,
        "actions": len(actions),
        "seconds": round(wall, 4),
        "cpu_seconds": round(cpu, 4),
        "play": play_fingerprint(actions),
        "measures": measures.result(state),
        "metrics": tracker.result(state),  # the designer's metrics (`lab.design`)
    }
    return record_json(game, opts, seed, seats, state, actions, meta)


def record_json(game: Game, opts: Any, seed: int, seats: list[str], state: State, actions: list[dict[str, Any]],
                meta: dict[str, Any]) -> dict[str, Any]:  # fmt: skip
    """A finished game as its record's JSON (replayable with `hegemon replay`)."""
    out = state.outcome()
    rec = GameRecord(
        game=game.name,
        version=game.version,
        options=opts.to_json(),
        seed=seed,
        actions=actions,
        seats=seats,
        outcome=out.to_json() if out is not None else None,
        digest=state_digest(state),
        meta=meta,
    )
    return rec.to_json()


def play_fingerprint(actions: list[dict[str, Any]]) -> str:
    """A short fingerprint of the moves of a game: two games with equal fingerprints were played move for move
    alike (the lab compares the two seat rotations of a deal with it)."""
    return hashlib.sha256(json.dumps(actions, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[
        :16
    ]


def run_units(sweep_json: dict[str, Any], units: list[tuple[int, int, int, int]]) -> list[dict[str, Any]]:
    """A coarse task: play `units` (as tuples) of the sweep; plain data in and out, for a remote Dask cluster
    (whose workers may not share the run's disk)."""
    sweep = Sweep.from_json(sweep_json)
    return [play_unit(sweep, Unit(*u)) for u in units]


def record_line(rec: dict[str, Any]) -> str:
    """A record as its games.jsonl line (the same bytes whichever process writes it)."""
    return json.dumps(rec, sort_keys=True, separators=(",", ":")) + "\n"


def light(rec: dict[str, Any]) -> dict[str, Any]:
    """What the summary needs of a record: everything but the action list (its length is in `meta`)."""
    return {k: v for k, v in rec.items() if k != "actions"}


def run_units_to_file(
    sweep_json: dict[str, Any], units: list[tuple[int, int, int, int]], path: str
) -> list[dict[str, Any]]:
    """A coarse task that writes its own records: each game's line is appended to `path` as it finishes
    (flushed, so an interrupted task keeps its finished games); returns the light records only, so the
    parent never encodes, decodes or ships the action lists."""
    sweep = Sweep.from_json(sweep_json)
    out = []
    with open(path, "a", encoding="utf-8") as fh:
        for u in units:
            rec = play_unit(sweep, Unit(*u))
            fh.write(record_line(rec))
            fh.flush()
            out.append(light(rec))
    return out
