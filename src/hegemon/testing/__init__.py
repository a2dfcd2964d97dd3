"""The conformance kit every game passes (as PettingZoo ships its API tests): call its checks from a game's test
suite with the game's own configurations and its own hidden-information perturbation.

    from hegemon.testing import Suite, check_all
    check_all(Suite(GAME, configs=({"players": 2},), perturb=swap_a_hidden_card))

Each check raises `ConformanceError` (an `AssertionError`, so pytest reports it as a failed test) naming what
broke; nothing here imports pytest. The checks:

- `check_declared`: the game's name, version, player counts and options are sound, every player count tested;
- `check_playouts`: seeded random playouts reach the end within `max_actions`, legal actions never empty,
  chance probabilities sum to 1, the turn counter moves, the outcome ranks every player;
- `check_clone_and_codec`: a clone is independent of its original, every action round-trips through JSON;
- `check_replay`: the same seed gives the same game, a record replays and verifies, a tampered one does not;
- `check_hidden_information`: two states that differ only in what a player may not see (the game's
  `perturb`) give that player (and spectators) the same view; redacted chance outcomes carry no secret;
  only the mover sees its legal actions;
- `check_views_together`: `core.game.views` equals each seat's own `view`;
- `check_phase_refusals`, `check_refusals`: `play` refuses actions of another phase, and actions seen elsewhere
  in a game, each with the rule it breaks and a reason, and changes nothing;
- `perft`, `divide`, `check_perft`: counts of action sequences to a depth (chance outcomes are branches), with
  a per-move divide in the error on a mismatch (as python-chess prints).
"""

from hegemon.testing.conformance import (
    ConformanceError,
    Nudge,
    Perturb,
    Suite,
    check_all,
    check_clone_and_codec,
    check_declared,
    check_hidden_information,
    check_phase_refusals,
    check_playouts,
    check_refusals,
    check_replay,
    check_views_together,
)
from hegemon.testing.perft import check_perft, children, divide, perft

__all__ = [
    "ConformanceError",
    "Nudge",
    "Perturb",
    "Suite",
    "check_all",
    "check_clone_and_codec",
    "check_declared",
    "check_hidden_information",
    "check_perft",
    "check_phase_refusals",
    "check_playouts",
    "check_refusals",
    "check_replay",
    "check_views_together",
    "children",
    "divide",
    "perft",
]
