"""The conformance suite (DESIGN.md "Tests we want"), one for every game x rule set / siege rule x player count
(tests/conformance/configs.py): random playouts to the end, legal actions never empty before the end, chance
probabilities sum to 1, clone independence, JSON round trips, same seed => same game (run_game + replay +
state_digest), views leak nothing hidden, every game ends within its declared bound (`max_actions`)."""

from __future__ import annotations

import json
import random

import pytest

from hegemon.ai import RandomBot
from hegemon.core import CHANCE, TERMINAL, IllegalActionError, play, sample_chance
from hegemon.core.game import views
from hegemon.core.play import derive_seed
from hegemon.core.record import GameRecord, replay, run_game, state_digest, verify
from hegemon.games import game_names, get_game
from tests.conformance.configs import (
    CONFIGS,
    IDS,
    INVARIANTS,
    NUDGE,
    NUDGE_OPTIONS,
    NUDGED_PLAYOUT_SEEDS,
    PERTURB,
    PLAYOUT_SEEDS,
)

# every configuration, plus a "nudged" run of each configuration of a game that has a nudge (configs.NUDGE)
PLAYOUT_CASES = [(name, raw, False) for name, raw in CONFIGS] + [
    (name, raw, True) for name, raw in CONFIGS if name in NUDGE
]
PLAYOUT_IDS = IDS + [f"{i}-nudged" for (name, _), i in zip(CONFIGS, IDS, strict=True) if name in NUDGE]


def _options(name: str, raw: dict, nudged: bool) -> dict:
    return {**raw, **NUDGE_OPTIONS.get(name, {})} if nudged else raw


def _random_agents(n: int, seed: int) -> list:
    return [RandomBot(derive_seed(seed, "bot", i)).choose for i in range(n)]


def test_every_game_is_covered_and_declared() -> None:
    assert {name for name, _ in CONFIGS} == set(game_names())
    for name in game_names():
        game = get_game(name)
        assert game is get_game(name.upper()) and game.name == name and isinstance(game.version, int)
        assert 1 <= game.min_players <= game.max_players
        assert isinstance(game.parse_options({}), game.options_type)
        counts = {raw.get("players", game.min_players) for n, raw in CONFIGS if n == name}
        assert counts == set(range(game.min_players, game.max_players + 1)), f"{name}: a player count is untested"


@pytest.mark.parametrize(("name", "raw", "nudged"), PLAYOUT_CASES, ids=PLAYOUT_IDS)
def test_random_playouts_reach_the_end_with_sound_nodes(name: str, raw: dict, nudged: bool) -> None:
    game = get_game(name)
    opts = game.parse_options(_options(name, raw, nudged))
    bound = game.max_actions(opts)
    nudge = NUDGE[name] if nudged else None
    invariants = INVARIANTS.get(name)
    for seed in range(NUDGED_PLAYOUT_SEEDS if nudged else PLAYOUT_SEEDS[name]):
        rng = random.Random(seed)
        state = game.new_game(opts, seed)
        steps = 0
        checked_chance = 0
        turn = game.turn_count(state)
        turn_changes = 0
        while state.current_player() != TERMINAL:
            assert steps < bound, f"game exceeded its declared bound of {bound} actions"
            player = state.current_player()
            if player == CHANCE:
                assert state.legal_actions() == []
                if checked_chance < 40 or rng.random() < 0.02:
                    outcomes = state.chance_outcomes()
                    assert outcomes, f"chance node without outcomes in {state.phase_name()}"
                    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
                    assert all(p > 0 for _, p in outcomes)
                    checked_chance += 1
                action = sample_chance(state, rng)
                assert any(a == action for a, _ in state.chance_outcomes())
            else:
                if nudge is not None:
                    nudge(state)
                legal = state.legal_actions()
                assert legal, f"no legal action before the end in {state.phase_name()}"
                assert legal == state.legal_actions(), "legal actions are not deterministic"
                assert len(set(legal)) == len(legal), "duplicate legal actions"
                assert state.chance_outcomes() == []
                action = legal[rng.randrange(len(legal))]
            state.apply(action)
            steps += 1
            if invariants is not None:
                invariants(state)
            now = game.turn_count(state)  # what `hegemon replay` groups a game's actions by
            assert isinstance(now, int)
            turn_changes += now != turn
            turn = now
        assert state.is_terminal()
        assert turn_changes > 0, "the turn counter never moved"
        out = state.outcome()
        assert out is not None and out.winners
        assert sorted(p for g in out.ranking for p in g) == list(range(state.num_players))
        assert set(out.winners) == set(out.ranking[0])


CLONE_CASES = [c for i, c in enumerate(CONFIGS) if i < 2 or c[0] != "spqrisiko"]


@pytest.mark.parametrize(("name", "raw"), CLONE_CASES, ids=[IDS[CONFIGS.index(c)] for c in CLONE_CASES])
def test_clone_is_independent_and_actions_round_trip_through_json(name: str, raw: dict) -> None:
    game = get_game(name)
    nudge = NUDGE.get(name)
    state = game.new_game(game.parse_options(_options(name, raw, nudge is not None)), 1)
    rng = random.Random(5)
    n = 0
    while state.current_player() != TERMINAL and n < 3000:
        if nudge is not None:
            nudge(state)
        player = state.current_player()
        actions = [a for a, _ in state.chance_outcomes()][:60] if player == CHANCE else state.legal_actions()
        for a in actions:
            wire = json.loads(json.dumps(a.to_json()))
            assert game.decode_action(wire) == a
            assert str(a)
        if n % 13 == 0:
            before = state_digest(state)
            twin = state.clone()
            assert state_digest(twin) == before
            twin.apply(sample_chance(twin, rng) if player == CHANCE else actions[-1])
            assert state_digest(state) == before, "applying to a clone changed the original"
        state.apply(sample_chance(state, rng) if player == CHANCE else actions[rng.randrange(len(actions))])
        n += 1


@pytest.mark.parametrize(("name", "raw"), CONFIGS, ids=IDS)
def test_same_seed_same_game_and_records_replay_exactly(name: str, raw: dict) -> None:
    game = get_game(name)
    opts = game.parse_options(raw)
    n = opts.players if hasattr(opts, "players") else game.min_players
    s1, r1 = run_game(game, opts, 11, _random_agents(n, 11))
    s2, r2 = run_game(game, opts, 11, _random_agents(n, 11))
    assert r1.to_line() == r2.to_line()
    assert state_digest(s1) == state_digest(s2)
    assert s1.is_terminal() and len(r1.actions) <= game.max_actions(opts)
    _, r3 = run_game(game, opts, 12, _random_agents(n, 12))
    assert r3.to_line() != r1.to_line()
    again = GameRecord.from_line(r1.to_line())
    assert state_digest(replay(game, again)) == state_digest(s1)
    assert verify(game, again) == []
    tampered = GameRecord.from_line(r1.to_line())
    tampered.outcome = {"termination": "score", "scores": [], "winners": [], "ranking": []}
    assert verify(game, tampered)


VIEW_CASES = [c for i, c in enumerate(CONFIGS) if i < 3 or c[0] != "spqrisiko"]


@pytest.mark.parametrize(("name", "raw"), VIEW_CASES, ids=[IDS[CONFIGS.index(c)] for c in VIEW_CASES])
def test_views_leak_no_hidden_information(name: str, raw: dict) -> None:
    game = get_game(name)
    perturb = PERTURB[name]
    nudge = NUDGE.get(name)
    opts = game.parse_options(_options(name, raw, nudge is not None))
    compared = 0
    for seed in range(3, 9):
        state = game.new_game(opts, seed)
        rng = random.Random(seed)
        n = 0
        while state.current_player() != TERMINAL and n < 20000:
            if nudge is not None:
                nudge(state)
            if n % (3 if nudge else 50) == 0:
                for p in range(state.num_players):
                    other = perturb(state, p)
                    if other is None:
                        continue
                    assert state_digest(other) != state_digest(state)
                    assert json.dumps(state.view(p), sort_keys=True) == json.dumps(other.view(p), sort_keys=True)
                    assert json.dumps(state.view(None), sort_keys=True) == json.dumps(
                        other.view(None), sort_keys=True
                    )
                    compared += 1
            player = state.current_player()
            if player == CHANCE:
                action = sample_chance(state, rng)
                for viewer in [None, *range(state.num_players)]:
                    seen = action.visible_to(viewer)
                    if seen != action:  # a redacted action never carries the secret, and shows "?"
                        assert json.dumps(seen.to_json()) != json.dumps(action.to_json())
                        assert "?" in json.dumps(seen.to_json())
            else:
                legal = state.legal_actions()
                assert state.view(player)["legal_actions"] == [x.to_json() for x in legal]
                for other in range(state.num_players):
                    if other != player:
                        assert not state.view(other).get("legal_actions"), "another seat sees the mover's options"
                action = legal[rng.randrange(len(legal))]
            state.apply(action)
            n += 1
        if nudge is None and compared >= 20:  # a nudged game plays every seed (its hidden hands are rarer)
            break
    assert compared > 0, "no position with hidden information was compared"


@pytest.mark.parametrize(("name", "raw"), CONFIGS[:1], ids=IDS[:1])
def test_play_refuses_illegal_actions_and_changes_nothing(name: str, raw: dict) -> None:
    game = get_game(name)
    state = game.new_game(game.parse_options(raw), 2)
    rng = random.Random(2)
    for _ in range(400):
        if state.current_player() == TERMINAL:
            break
        player = state.current_player()
        legal = [a for a, _ in state.chance_outcomes()] if player == CHANCE else state.legal_actions()
        before = state_digest(state)
        # an action from a different phase is refused
        foreign = state.clone()
        foreign.apply(sample_chance(foreign, rng) if player == CHANCE else legal[0])
        candidates = (
            [a for a, _ in foreign.chance_outcomes()] if foreign.current_player() == CHANCE else foreign.legal_actions()
        )
        for a in candidates[:5]:
            if a not in legal:
                with pytest.raises(IllegalActionError):
                    play(state, a)
                assert state_digest(state) == before
        play(state, sample_chance(state, rng) if player == CHANCE else legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(("name", "raw"), CONFIGS, ids=IDS)
def test_views_of_many_seats_at_once_equal_each_seats_own_view(name: str, raw: dict) -> None:
    """`core.game.views` (the server makes every connected seat's view in one call) gives exactly `view(p)`
    for each p, spectators included, at every stage of a game — no seat's hand leaks into another's view."""
    game = get_game(name)
    state = game.new_game(game.parse_options(raw), 11)
    rng = random.Random(11)
    checked = 0
    n = 0
    while state.current_player() != TERMINAL:
        if n % 7 == 0:
            seats = [None, *range(state.num_players)]
            together = views(state, seats)
            assert set(together) == set(seats)
            for p in seats:
                assert json.dumps(together[p], sort_keys=True) == json.dumps(state.view(p), sort_keys=True)
            checked += 1
        player = state.current_player()
        legal = None if player == CHANCE else state.legal_actions()
        state.apply(sample_chance(state, rng) if legal is None else legal[rng.randrange(len(legal))])
        n += 1
    assert checked > 3


@pytest.mark.parametrize(("name", "raw"), CONFIGS, ids=IDS)
def test_every_refusal_names_the_rule_it_breaks(name: str, raw: dict) -> None:
    """Actions seen anywhere in a game, tried where they are not legal: `play` refuses each with a rule named
    (the games' `explain_illegal`), a reason, and no change to the state — the explanation never crashes."""
    game = get_game(name)
    state = game.new_game(game.parse_options(raw), 5)
    rng = random.Random(5)
    seen: list = []
    refusals = 0
    n = 0
    while state.current_player() != TERMINAL and n < 3000:
        player = state.current_player()
        if player == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        legal = state.legal_actions()
        if n % 5 == 0 and seen:
            before = state_digest(state)
            for a in rng.sample(seen, min(6, len(seen))):
                if a in legal:
                    continue
                with pytest.raises(IllegalActionError) as e:
                    play(state, a)
                assert e.value.rule, str(e.value)
                reason = str(e.value).split(f"[{e.value.rule}] ", 1)[1]
                assert len(reason) > 8
                refusals += 1
            assert state_digest(state) == before
        action = legal[rng.randrange(len(legal))]
        if action not in seen:
            seen.append(action)
        state.apply(action)
        n += 1
    assert refusals > 20
