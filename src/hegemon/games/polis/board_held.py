"""The class of every loaded Polis board: `Board` as a plain Python subclass.

`board.py` is compiled with mypyc (`_native.NATIVE`), and a compiled class cannot be weakly referenced, but the
board registry holds uploaded boards weakly (`core/boards.py`: a board stays while a game uses it). A Python
subclass of the compiled class can be, and the compiled code still reads its fields directly. This module stays
interpreted for that reason: it must never join `NATIVE`."""

from __future__ import annotations

from hegemon.games.polis.board import Board


class HeldBoard(Board):
    """A `Board` that can be weakly referenced (and pickled, for the search workers, like any Python object)."""
