#!/usr/bin/env python3
"""Regenerate the golden playthroughs of every game (tests/golden/<name>.jsonl), one format for all games, in the
manner of OpenSpiel's playthroughs: a few short seeded games per configuration, each step with the legal actions
(or the chance outcomes) offered and the action taken.

Each file is JSON lines. Per game: a header `{"game", "version", "options", "seed"}`; then one line per action
`{"i", "player", "phase", "legal" | "chance", "action", "text", "digest"}` where `legal` lists every legal action
of the player to move (its JSON in one short string, `type(key=value,...)`), `chance` is `{"n": number of outcomes, "p": probability of the one drawn,
"outcomes": sha-256 prefix of the canonical outcome list}` (the full lists run to hundreds of dice rolls), and
`digest` is the state digest after the action; then a footer `{"outcome", "digest"}`. The players play seeded
at random (`derive_seed(seed, "bot", i)`), preferring the configuration's wanted action types and avoiding passes
(`choose`); chance is drawn with `derive_seed(seed, "chance")`.
`tests/test_golden.py` replays every action through the checked `play` and compares every line.

    python scripts/make_golden.py            # rewrite tests/golden/*.jsonl
    python scripts/make_golden.py --check    # exit 1 if the engine no longer reproduces them
"""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path
from typing import Any

from hegemon.core.game import CHANCE, TERMINAL, Action
from hegemon.core.play import derive_seed, sample_chance
from hegemon.core.record import canonical_json, state_digest
from hegemon.games import get_game

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden"

_SPQR = {"random_deal": True, "max_rounds": 1}
# name -> (game, options, seeds, action types the first game must show: seeds are searched in order from the
# first one until a game shows them, so the choice is reproducible)
GOLDEN: dict[str, tuple[str, dict[str, Any], int, set[str]]] = {
    **{
        f"spqrisiko-{rules}-{n}p": ("spqrisiko", {**_SPQR, "rules": rules, "players": n}, 1, {"attack"})
        for rules in ("house-1.2", "official")
        for n in (3, 4, 5)
    },
    "spqrisiko-house-1.2-3p-fixed-deal": (
        "spqrisiko",
        {"rules": "house-1.2", "players": 3, "random_deal": False, "max_rounds": 1},
        1,
        {"attack"},
    ),
    "polis-classic": ("polis", {"siege": "classic", "max_turns_per_round": 8}, 1, {"besiege", "siege_roll"}),
    "polis-sacrifice": (
        "polis",
        {"siege": "sacrifice", "max_turns_per_round": 8},
        1,
        {"besiege", "force_siege"},
    ),
    "polis-diceless": (
        "polis",
        {"siege": "diceless", "max_turns_per_round": 8},
        1,
        {"start_siege", "continue_siege"},
    ),
    "polis-diceless_sacrifice": (
        "polis",
        {"siege": "diceless_sacrifice", "max_turns_per_round": 8},
        1,
        {"start_siege", "force_siege"},
    ),
}
MAX_SEARCH = 200


def _outcomes_digest(outcomes: list[tuple[Any, float]]) -> str:
    text = canonical_json([[a.to_json(), p] for a, p in outcomes])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def compact(action: Action) -> str:
    """An action's JSON in one short string: its type, then its other fields in key order."""
    data = action.to_json()
    args = ",".join(
        f"{k}={v if isinstance(v, str) else canonical_json(v)}"
        for k, v in sorted(data.items())
        if k != "type"
    )
    return f"{data['type']}({args})"


def choose(legal: list[Action], prefer: set[str], rng: random.Random) -> Action:
    """The seeded players' policy: one of the preferred action types when offered (7 times in 10), else any
    action but a pass (9 times in 10), else any legal action."""
    wanted = [a for a in legal if a.to_json()["type"] in prefer]
    if wanted and rng.random() < 0.7:
        return wanted[rng.randrange(len(wanted))]
    active = [a for a in legal if a.to_json()["type"] != "pass"]
    if active and rng.random() < 0.9:
        return active[rng.randrange(len(active))]
    return legal[rng.randrange(len(legal))]


def playthrough(game_name: str, raw: dict[str, Any], seed: int, prefer: set[str]) -> list[dict[str, Any]]:
    """The lines of one seeded game: header, one line per action, footer."""
    game = get_game(game_name)
    opts = game.parse_options(raw)
    state = game.new_game(opts, seed)
    rngs = [random.Random(derive_seed(seed, "bot", i)) for i in range(state.num_players)]
    chance_rng = random.Random(derive_seed(seed, "chance"))
    lines: list[dict[str, Any]] = [{"game": game.name, "version": game.version, "options": raw, "seed": seed}]
    i = 0
    while state.current_player() != TERMINAL:
        player = state.current_player()
        step: dict[str, Any] = {"i": i, "player": player, "phase": state.phase_name()}
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            action = sample_chance(state, chance_rng)
            prob = next(p for a, p in outcomes if a == action)
            step["chance"] = {"n": len(outcomes), "p": prob, "outcomes": _outcomes_digest(outcomes)}
        else:
            legal = state.legal_actions()
            step["legal"] = [compact(a) for a in legal]
            action = choose(legal, prefer, rngs[player])
        state.apply(action)
        step.update(action=action.to_json(), text=str(action), digest=state_digest(state))
        lines.append(step)
        i += 1
    out = state.outcome()
    lines.append({"outcome": out.to_json() if out else None, "digest": state_digest(state)})
    return lines


def golden(name: str) -> str:
    """The text of one golden file: its configuration's first game showing the wanted action types, then the
    games of the following seeds."""
    game_name, raw, count, wanted = GOLDEN[name]
    first = 0
    for seed in range(MAX_SEARCH):
        lines = playthrough(game_name, raw, seed, wanted)
        if wanted <= {x["action"]["type"] for x in lines[1:-1]}:
            first = seed
            break
    else:
        raise SystemExit(f"{name}: no seed below {MAX_SEARCH} shows {sorted(wanted)}")
    games = [lines] + [playthrough(game_name, raw, seed, wanted) for seed in range(first + 1, first + count)]
    return "".join(canonical_json(x) + "\n" for g in games for x in g)


def main() -> int:
    check = "--check" in sys.argv
    bad = 0
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for name in GOLDEN:
        path = GOLDEN_DIR / f"{name}.jsonl"
        text = golden(name)
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                print(f"{path}: differs")
                bad += 1
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path} ({text.count(chr(10))} lines, {len(text) // 1024} KiB)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
