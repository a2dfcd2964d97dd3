"""`hegemon` (the console command) and `python -m hegemon`: a plain odds query of a game whose package has a
fast odds command (`oddscmd.fast`, found through the game registry) is answered before typer and rich load (issue 15: the command starts fast); every other command, help and error goes to the typer
application in `hegemon.cli`, unchanged."""

from __future__ import annotations

import sys


def main() -> None:
    args = sys.argv[1:]
    if len(args) > 2 and args[0] == "odds":
        from hegemon.games import fast_odds_command

        fast = fast_odds_command(args[1])
        if fast is not None and fast(args[2:]):
            return
    from hegemon.cli import main as full

    full()


if __name__ == "__main__":
    main()
