"""`hegemon` (the console command) and `python -m hegemon`: a plain odds query is answered before typer and
rich load (issue 15: the command starts fast); every other command, help and error goes to the typer
application in `hegemon.cli`, unchanged."""

from __future__ import annotations

import sys


def main() -> None:
    args = sys.argv[1:]
    if len(args) > 2 and args[0] == "odds" and args[1] == "spqrisiko":
        from hegemon.games.spqrisiko.oddscmd import fast

        if fast(args[2:]):
            return
    from hegemon.cli import main as full

    full()


if __name__ == "__main__":
    main()
