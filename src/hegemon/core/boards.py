"""One board registry for every game: the boards that ship with a game (by name, loaded once), uploaded boards
registered by their content-hash name (held weakly: a board stays while a game uses it), and board files by
path, validated once per file version (path, mtime, size) and kept in a bounded cache."""

from __future__ import annotations

import os
import weakref
from collections import OrderedDict
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Generic, TypeVar

B = TypeVar("B")

FILE_CACHE = 32
"""Board files kept parsed (least recently used dropped first): a file read again costs one stat."""


class BoardRegistry(Generic[B]):
    """The boards of one game. `read(path)` parses and validates a board file (the game's `RulesDataError` names
    a bad entry); `shipped` maps each shipped board's name ("default" first) to what loads it (once)."""

    def __init__(self, read: Callable[[Path], B], shipped: Mapping[str, Callable[[], B]]) -> None:
        self._read = read
        self.shipped = dict(shipped)
        self._shipped: dict[str, B] = {}
        self._named: weakref.WeakValueDictionary[str, B] = weakref.WeakValueDictionary()
        self._files: OrderedDict[str, tuple[int, int, B]] = OrderedDict()

    def register(self, name: str, board: B) -> None:
        """An accepted uploaded board under its content-hash name (the server registers it; options hold it)."""
        self._named[name] = board

    def forget(self, name: str) -> None:
        self._named.pop(name, None)

    def registered(self, name: str) -> B | None:
        """The uploaded board registered under `name`, if it is still held."""
        return self._named.get(name)

    def load(self, path: str | Path | None = None) -> B:
        """The default board (None), a registered uploaded board by name, a shipped board by name, or a board
        file (validated once per version; a file already loaded costs one stat)."""
        if path is None:
            path = "default"
        if isinstance(path, str):
            named = self._named.get(path)
            if named is not None:
                return named
            if path in self.shipped:
                board = self._shipped.get(path)
                if board is None:
                    board = self._shipped[path] = self.shipped[path]()
                return board
        key = os.fspath(path)
        try:
            fs = os.stat(key)
        except (OSError, ValueError):
            return self._read(Path(key))  # the game's reader says what is wrong with the path
        hit = self._files.get(key)
        if hit is not None and hit[0] == fs.st_mtime_ns and hit[1] == fs.st_size:
            self._files.move_to_end(key)
            return hit[2]
        board = self._read(Path(key))
        self._files[key] = (fs.st_mtime_ns, fs.st_size, board)
        self._files.move_to_end(key)
        while len(self._files) > FILE_CACHE:
            self._files.popitem(last=False)
        return board
