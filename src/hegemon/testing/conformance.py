"""The conformance checks (see `hegemon.testing`): plain functions over a game and one configuration of it."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hegemon.core.actions import Action
from hegemon.core.errors import IllegalActionError
from hegemon.core.game import CHANCE, TERMINAL, Game, State, views
from hegemon.core.play import derive_seed, play, sample_chance
from hegemon.core.record import GameRecord, replay, run_game, state_digest, verify

Perturb = Callable[[State, int], "State | None"]
"""`perturb(state, player)`: another state that differs from `state` only in what `player` may not see (a card
of another player's hand swapped with one of the deck, counts unchanged), or None where nothing is hidden."""
Nudge = Callable[[State], None]
"""`nudge(state)`: a change made between actions that steers random play into rarer positions (test coverage
only: battles, late rounds)."""


class ConformanceError(AssertionError):
    """A conformance check failed; the message says which property, where."""


def _check(condition: object, message: str) -> None:
    if not condition:
        raise ConformanceError(message)


def _dumps(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True)


@dataclass(frozen=True)
class Suite:
    """What a game's test suite hands the kit: the game, the configurations (raw options) every check runs
    over, its hidden-information perturbation, and optionally a nudge (with the options it needs), per-step
    invariants and the number of seeded playouts."""

    game: Game
    configs: Sequence[Mapping[str, Any]]
    perturb: Perturb
    playout_seeds: int = 3
    nudge: Nudge | None = None
    nudge_options: Mapping[str, Any] = field(default_factory=dict)
    nudged_playout_seeds: int = 4
    invariants: Callable[[State], None] | None = None
    view_every: int | None = None
    """Steps between hidden-information comparisons (`check_hidden_information`'s `every`)."""
    refusal_every: int = 5
    least_refusals: int = 20
    """`check_refusals`'s `every` and `least` (a game of few kinds of action refuses seldom)."""

    def options(self, raw: Mapping[str, Any], nudged: bool) -> dict[str, Any]:
        """The raw options of a configuration, with the nudge's overrides when nudged."""
        return {**raw, **self.nudge_options} if nudged else dict(raw)


def check_declared(game: Game, configs: Sequence[Mapping[str, Any]]) -> None:
    """The game's declaration is sound and `configs` test every player count it allows."""
    _check(isinstance(game.version, int), f"{game.name}: version {game.version!r} is not an int")
    _check(1 <= game.min_players <= game.max_players, f"{game.name}: bad player counts")
    _check(
        isinstance(game.parse_options({}), game.options_type),
        f"{game.name}: parse_options gives another type",
    )
    counts = {int(raw.get("players", game.min_players)) for raw in configs}
    wanted = set(range(game.min_players, game.max_players + 1))
    _check(counts == wanted, f"{game.name}: player counts {sorted(wanted - counts)} are untested")


def check_playouts(
    game: Game,
    raw: Mapping[str, Any],
    seeds: int,
    *,
    nudge: Nudge | None = None,
    invariants: Callable[[State], None] | None = None,
) -> None:
    """`seeds` seeded random playouts reach the end with sound nodes: within `max_actions`, legal actions
    never empty before the end, deterministic and distinct; chance outcomes positive and summing to 1; the
    turn counter moves; the outcome ranks every player once."""
    opts = game.parse_options(raw)
    bound = game.max_actions(opts)
    for seed in range(seeds):
        rng = random.Random(seed)
        state = game.new_game(opts, seed)
        steps = 0
        checked_chance = 0
        turn = game.turn_count(state)
        turn_changes = 0
        while state.current_player() != TERMINAL:
            where = f"{game.name} seed {seed} step {steps} ({state.phase_name()})"
            _check(steps < bound, f"{where}: the game exceeded its declared bound of {bound} actions")
            player = state.current_player()
            if player == CHANCE:
                _check(state.legal_actions() == [], f"{where}: legal actions at a chance node")
                if checked_chance < 40 or rng.random() < 0.02:
                    outcomes = state.chance_outcomes()
                    _check(outcomes, f"{where}: a chance node without outcomes")
                    _check(
                        abs(sum(p for _, p in outcomes) - 1.0) < 1e-9,
                        f"{where}: probabilities do not sum to 1",
                    )
                    _check(all(p > 0 for _, p in outcomes), f"{where}: an outcome of probability 0")
                    checked_chance += 1
                action = sample_chance(state, rng)
                _check(
                    any(a == action for a, _ in state.chance_outcomes()),
                    f"{where}: sampled {action} is no outcome",
                )
            else:
                if nudge is not None:
                    nudge(state)
                legal = state.legal_actions()
                _check(legal, f"{where}: no legal action before the end")
                _check(legal == state.legal_actions(), f"{where}: legal actions are not deterministic")
                _check(len(set(legal)) == len(legal), f"{where}: duplicate legal actions")
                _check(state.chance_outcomes() == [], f"{where}: chance outcomes at a decision")
                action = legal[rng.randrange(len(legal))]
            state.apply(action)
            steps += 1
            if invariants is not None:
                invariants(state)
            now = game.turn_count(state)  # what `hegemon replay` groups a game's actions by
            _check(isinstance(now, int), f"{where}: turn_count gives {type(now).__name__}")
            turn_changes += now != turn
            turn = now
        _check(state.is_terminal(), f"{game.name} seed {seed}: TERMINAL but not is_terminal()")
        _check(turn_changes > 0, f"{game.name} seed {seed}: the turn counter never moved")
        out = state.outcome()
        _check(out is not None and out.winners, f"{game.name} seed {seed}: no outcome or no winner")
        assert out is not None
        _check(
            sorted(p for g in out.ranking for p in g) == list(range(state.num_players)),
            f"{game.name} seed {seed}: the ranking does not list every player once",
        )
        _check(
            set(out.winners) == set(out.ranking[0]),
            f"{game.name} seed {seed}: winners are not the first group",
        )


def check_clone_and_codec(game: Game, raw: Mapping[str, Any], *, nudge: Nudge | None = None) -> None:
    """Over a seeded random game: every legal action (and up to 60 chance outcomes) round-trips through JSON
    (`decode_action`) and prints; every 13th step, a clone has the same digest and applying to it leaves the
    original unchanged."""
    state = game.new_game(game.parse_options(raw), 1)
    rng = random.Random(5)
    n = 0
    while state.current_player() != TERMINAL and n < 3000:
        if nudge is not None:
            nudge(state)
        player = state.current_player()
        actions = [a for a, _ in state.chance_outcomes()][:60] if player == CHANCE else state.legal_actions()
        for a in actions:
            wire = json.loads(json.dumps(a.to_json()))
            _check(
                game.decode_action(wire) == a, f"{game.name} step {n}: {a} does not round-trip through JSON"
            )
            _check(str(a), f"{game.name} step {n}: an action prints as nothing")
        if n % 13 == 0:
            before = state_digest(state)
            twin = state.clone()
            _check(state_digest(twin) == before, f"{game.name} step {n}: a clone differs from its original")
            twin.apply(sample_chance(twin, rng) if player == CHANCE else actions[-1])
            _check(
                state_digest(state) == before,
                f"{game.name} step {n}: applying to a clone changed the original",
            )
        state.apply(sample_chance(state, rng) if player == CHANCE else actions[rng.randrange(len(actions))])
        n += 1


def _random_agents(n: int, seed: int) -> list[Callable[[State, int], Action]]:
    from hegemon.ai import RandomBot

    return [RandomBot(derive_seed(seed, "bot", i)).choose for i in range(n)]


def check_replay(game: Game, raw: Mapping[str, Any]) -> None:
    """The same seed gives the same game (record and digest), another seed another; a record read back replays
    to the same state and verifies; a record with a tampered outcome does not."""
    opts = game.parse_options(raw)
    n = game.players(opts)
    s1, r1 = run_game(game, opts, 11, _random_agents(n, 11))
    s2, r2 = run_game(game, opts, 11, _random_agents(n, 11))
    _check(r1.to_line() == r2.to_line(), f"{game.name}: the same seed gave two records")
    _check(state_digest(s1) == state_digest(s2), f"{game.name}: the same seed gave two final states")
    _check(
        s1.is_terminal() and len(r1.actions) <= game.max_actions(opts), f"{game.name}: the game did not end"
    )
    _, r3 = run_game(game, opts, 12, _random_agents(n, 12))
    _check(r3.to_line() != r1.to_line(), f"{game.name}: two seeds gave the same record")
    again = GameRecord.from_line(r1.to_line())
    _check(
        state_digest(replay(game, again)) == state_digest(s1), f"{game.name}: the record replays elsewhere"
    )
    _check(verify(game, again) == [], f"{game.name}: the record does not verify: {verify(game, again)}")
    tampered = GameRecord.from_line(r1.to_line())
    tampered.outcome = {"termination": "score", "scores": [], "winners": [], "ranking": []}
    _check(verify(game, tampered), f"{game.name}: a tampered outcome verifies")


def check_hidden_information(
    game: Game,
    raw: Mapping[str, Any],
    perturb: Perturb,
    *,
    nudge: Nudge | None = None,
    seeds: range = range(3, 9),
    every: int | None = None,
) -> None:
    """Views leak nothing hidden: along seeded random games, for each player p, a state `perturb(state, p)`
    (which differs only in what p may not see) gives p and spectators the same view; a redacted chance outcome
    never carries the secret and shows "?"; only the player on turn sees legal actions, exactly the legal ones.
    States are compared every `every` steps (by default every 3rd with a nudge, else every 50th)."""
    step = every if every is not None else 3 if nudge else 50
    opts = game.parse_options(raw)
    compared = 0
    for seed in seeds:
        state = game.new_game(opts, seed)
        rng = random.Random(seed)
        n = 0
        while state.current_player() != TERMINAL and n < 20000:
            where = f"{game.name} seed {seed} step {n} ({state.phase_name()})"
            if nudge is not None:
                nudge(state)
            if n % step == 0:
                for p in range(state.num_players):
                    other = perturb(state, p)
                    if other is None:
                        continue
                    _check(
                        state_digest(other) != state_digest(state),
                        f"{where}: the perturbation changed nothing",
                    )
                    _check(
                        _dumps(state.view(p)) == _dumps(other.view(p)), f"{where}: player {p}'s view leaks"
                    )
                    _check(
                        _dumps(state.view(None)) == _dumps(other.view(None)),
                        f"{where}: the spectators' view leaks",
                    )
                    compared += 1
            player = state.current_player()
            if player == CHANCE:
                action = sample_chance(state, rng)
                for viewer in [None, *range(state.num_players)]:
                    seen = action.visible_to(viewer)
                    if seen != action:  # a redacted action never carries the secret, and shows "?"
                        shown = json.dumps(seen.to_json())
                        _check(
                            shown != json.dumps(action.to_json()),
                            f"{where}: a redacted outcome shows the secret",
                        )
                        _check("?" in shown, f"{where}: a redacted outcome shows no '?'")
            else:
                legal = state.legal_actions()
                _check(
                    state.view(player)["legal_actions"] == [x.to_json() for x in legal],
                    f"{where}: the mover's view lists other legal actions",
                )
                for other_seat in range(state.num_players):
                    if other_seat != player:
                        _check(
                            not state.view(other_seat).get("legal_actions"),
                            f"{where}: seat {other_seat} sees the mover's options",
                        )
                action = legal[rng.randrange(len(legal))]
            state.apply(action)
            n += 1
        if nudge is None and compared >= 20:  # a nudged game plays every seed (its hidden hands are rarer)
            break
    _check(compared > 0, f"{game.name}: no position with hidden information was compared")


def check_views_together(game: Game, raw: Mapping[str, Any]) -> None:
    """`core.game.views` (the server makes every connected seat's view in one call) gives exactly `view(p)` for
    each p, spectators included, at every 7th step of a seeded random game."""
    state = game.new_game(game.parse_options(raw), 11)
    rng = random.Random(11)
    checked = 0
    n = 0
    while state.current_player() != TERMINAL:
        if n % 7 == 0:
            seats: list[int | None] = [None, *range(state.num_players)]
            together = views(state, seats)
            _check(set(together) == set(seats), f"{game.name} step {n}: views() missed a seat")
            for p in seats:
                _check(
                    _dumps(together[p]) == _dumps(state.view(p)),
                    f"{game.name} step {n}: views()[{p}] differs",
                )
            checked += 1
        player = state.current_player()
        legal = None if player == CHANCE else state.legal_actions()
        state.apply(sample_chance(state, rng) if legal is None else legal[rng.randrange(len(legal))])
        n += 1
    _check(checked > 3, f"{game.name}: the game was too short to compare views")


def _refused(state: State, action: Action, where: str) -> IllegalActionError:
    before = state_digest(state)
    try:
        play(state, action)
    except IllegalActionError as e:
        _check(state_digest(state) == before, f"{where}: refusing {action} changed the state")
        return e
    raise ConformanceError(f"{where}: play accepted {action}, which is not legal")


def check_phase_refusals(game: Game, raw: Mapping[str, Any]) -> None:
    """Along a seeded game, actions (or chance outcomes) of the next position that are not legal now are refused
    by `play` with IllegalActionError, and the state is unchanged."""
    state = game.new_game(game.parse_options(raw), 2)
    rng = random.Random(2)
    for step in range(400):
        if state.current_player() == TERMINAL:
            break
        player = state.current_player()
        legal = [a for a, _ in state.chance_outcomes()] if player == CHANCE else state.legal_actions()
        foreign = state.clone()  # an action from a different phase is refused
        foreign.apply(sample_chance(foreign, rng) if player == CHANCE else legal[0])
        candidates = (
            [a for a, _ in foreign.chance_outcomes()]
            if foreign.current_player() == CHANCE
            else foreign.legal_actions()
        )
        for a in candidates[:5]:
            if a not in legal:
                _refused(state, a, f"{game.name} step {step} ({state.phase_name()})")
        play(state, sample_chance(state, rng) if player == CHANCE else legal[rng.randrange(len(legal))])


def check_refusals(game: Game, raw: Mapping[str, Any], *, least: int = 20, every: int = 5) -> None:
    """Actions seen anywhere in a seeded game, tried every `every` decisions where they are not legal: `play`
    refuses each with the rule it breaks (the state's `explain_illegal`) and a reason (an id, its arguments and
    the English text), and changes nothing; more than `least` are tried."""
    state = game.new_game(game.parse_options(raw), 5)
    rng = random.Random(5)
    seen: list[Action] = []
    refusals = 0
    n = 0
    while state.current_player() != TERMINAL and n < 3000:
        player = state.current_player()
        if player == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        legal = state.legal_actions()
        if n % every == 0 and seen:
            where = f"{game.name} step {n} ({state.phase_name()})"
            for a in rng.sample(seen, min(6, len(seen))):
                if a in legal:
                    continue
                e = _refused(state, a, where)
                _check(e.rule, f"{where}: refusing {a} names no rule: {e}")
                _check(
                    e.refusal is not None and bool(e.refusal.id) and e.refusal.text == e.reason,
                    f"{where}: refusing {a} gives no reason id: {e}",
                )
                reason = str(e).split(f"[{e.rule}] ", 1)[-1]
                _check(len(reason) > 8, f"{where}: refusing {a} gives no reason: {e}")
                refusals += 1
        action = legal[rng.randrange(len(legal))]
        if action not in seen:
            seen.append(action)
        state.apply(action)
        n += 1
    _check(refusals > least, f"{game.name}: only {refusals} refusals were tried")


def check_all(suite: Suite) -> None:
    """Every check over every configuration of `suite` (one call; a game's tests may parametrize instead)."""
    game = suite.game
    check_declared(game, suite.configs)
    for raw in suite.configs:
        check_playouts(game, raw, suite.playout_seeds, invariants=suite.invariants)
        if suite.nudge is not None:
            check_playouts(
                game,
                suite.options(raw, True),
                suite.nudged_playout_seeds,
                nudge=suite.nudge,
                invariants=suite.invariants,
            )
        nudged = suite.options(raw, suite.nudge is not None)
        check_clone_and_codec(game, nudged, nudge=suite.nudge)
        check_replay(game, raw)
        check_hidden_information(game, nudged, suite.perturb, nudge=suite.nudge, every=suite.view_every)
        check_views_together(game, raw)
        check_refusals(game, raw, least=suite.least_refusals, every=suite.refusal_every)
    check_phase_refusals(game, suite.configs[0])
