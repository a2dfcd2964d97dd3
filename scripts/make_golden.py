"""Regenerate the golden playthrough transcripts of S.P.Q.RisiKo! (one seeded game per rule set).

    python scripts/make_golden.py            # rewrite tests/golden/*.txt
    python scripts/make_golden.py --check    # exit 1 if the engine no longer reproduces them
"""

from __future__ import annotations

import sys
from pathlib import Path

from hegemon.ai import RandomBot
from hegemon.core.game import CHANCE, State
from hegemon.core.play import derive_seed
from hegemon.core.record import run_game, state_digest
from hegemon.games import get_game

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden"

GOLDEN = {
    "spqrisiko-house-1.2": ("spqrisiko", {"rules": "house-1.2", "players": 4, "random_deal": True, "max_rounds": 12}, 2026),
    "spqrisiko-official": ("spqrisiko", {"rules": "official", "players": 3, "random_deal": True, "max_rounds": 12}, 2005),
}


def transcript(name: str) -> str:
    """The transcript of one golden game: every action with its player and phase, then the result."""
    game_name, raw, seed = GOLDEN[name]
    game = get_game(game_name)
    opts = game.parse_options(raw)
    lines = [f"# {name}: {game_name} v{game.version} seed {seed} options {sorted(opts.to_json().items())}"]

    def log(state: State, action: object) -> None:
        p = state.current_player()
        who = "chance" if p == CHANCE else f"P{p + 1}"
        lines.append(f"{len(lines):05d} {who:<6} [{state.phase_name()}] {action}")

    n = opts.players
    agents = [RandomBot(derive_seed(seed, "bot", i)).choose for i in range(n)]
    state, _ = run_game(game, opts, seed, agents, on_action=log)
    out = state.outcome()
    lines.append(f"# outcome {out.to_json() if out else None}")
    lines.append(f"# digest {state_digest(state)}")
    return "\n".join(lines) + "\n"


def main() -> int:
    check = "--check" in sys.argv
    bad = 0
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for name in GOLDEN:
        path = GOLDEN_DIR / f"{name}.txt"
        text = transcript(name)
        if check:
            if not path.exists() or path.read_text() != text:
                print(f"{path}: differs")
                bad += 1
        else:
            path.write_text(text)
            print(f"wrote {path} ({text.count(chr(10))} lines)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
