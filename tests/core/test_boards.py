"""`core.boards.BoardRegistry`, the one board registry of every game: shipped boards loaded once, uploads held
weakly by name, files re-read when they change and kept in a bounded cache."""

from __future__ import annotations

import gc
import os
from pathlib import Path

from hegemon.core import boards
from hegemon.core.boards import BoardRegistry


class Board:
    def __init__(self, text: str) -> None:
        self.text = text


def test_shipped_named_and_files(tmp_path: Path) -> None:
    reads: list[str] = []

    def read(path: Path) -> Board:
        reads.append(path.name)
        return Board(path.read_text())

    shipped = Board("shipped")
    reg = BoardRegistry(read, {"default": lambda: shipped})
    assert reg.load() is reg.load("default") is shipped
    upload = Board("upload")
    reg.register("abc.toml", upload)
    assert reg.load("abc.toml") is upload and reg.registered("abc.toml") is upload
    reg.forget("abc.toml")
    assert reg.registered("abc.toml") is None
    reg.register("weak.toml", Board("gone"))
    gc.collect()
    assert reg.registered("weak.toml") is None  # held weakly: no table holds it
    f = tmp_path / "b.toml"
    f.write_text("one")
    first = reg.load(str(f))
    assert reg.load(f) is first and reads == ["b.toml"]  # one read per file version
    f.write_text("two!")
    os.utime(f, ns=(10**18, 10**18))
    assert reg.load(str(f)).text == "two!" and reads == ["b.toml", "b.toml"]
    for i in range(boards.FILE_CACHE + 5):
        (tmp_path / f"{i}.toml").write_text(str(i))
        reg.load(tmp_path / f"{i}.toml")
    assert len(reg._files) == boards.FILE_CACHE  # bounded
