"""`--board PATH` on the command line gets the same bounds as an upload: a clear error naming the file and the
entry, exit code 2, no traceback."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from hegemon.cli import app
from hegemon.games.polis.board import DEFAULT_BOARD as POLIS_BOARD
from hegemon.games.spqrisiko import board as spqr_board

runner = CliRunner()
SPQR = (Path(spqr_board.__file__).with_name("data") / "board.toml").read_text(encoding="utf-8")


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout + result.stderr


def test_selfplay_and_play_refuse_a_board_beyond_the_bounds(tmp_path: Path) -> None:
    bad = tmp_path / "huge-deck.toml"
    bad.write_text(SPQR.replace("legionary = 25", "legionary = 9223372036854775807"), encoding="utf-8")
    for cmd in (
        ("selfplay", "spqrisiko", "--games", "1"),
        ("play", "spqrisiko", "--seats", "random,random,random"),
    ):
        code, out = run(*cmd, "--board", str(bad))
        assert code == 2, out
        flat = " ".join(out.split())
        assert str(bad) in flat.replace(" ", "") or bad.name in flat
        assert "cards.legionary" in flat and "above the maximum 500" in flat and "Traceback" not in out


def test_deep_nesting_and_huge_files_are_refused_with_the_file_named(tmp_path: Path) -> None:
    deep = tmp_path / "deep.toml"
    deep.write_text(POLIS_BOARD.read_text(encoding="utf-8") + "\nx = " + "[" * 3000 + "]" * 3000 + "\n")
    code, out = run("selfplay", "polis", "--games", "1", "--board", str(deep))
    assert code == 2 and "nested deeper than 8 levels" in " ".join(out.split()) and "Traceback" not in out
    big = tmp_path / "big.toml"
    big.write_text(SPQR + "#" * 200_000)
    code, out = run("selfplay", "spqrisiko", "--games", "1", "--board", str(big))
    assert code == 2 and "larger than the maximum 128 KB" in " ".join(out.split())
