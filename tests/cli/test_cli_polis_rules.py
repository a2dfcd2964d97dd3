"""`hegemon rules polis --board` and `hegemon odds polis-siege` as a user runs them (issue 14 item 7)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from hegemon.cli import app
from hegemon.games.polis.board import DEFAULT_BOARD

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_rules_board_is_loaded_and_validated_without_reconstructed(tmp_path: Path) -> None:
    code, _, err = run("rules", "polis", "--board", str(tmp_path / "missing.toml"))
    assert code == 2 and "missing.toml" in err and "cannot read" in err
    broken = tmp_path / "broken.toml"
    broken.write_text(DEFAULT_BOARD.read_text(encoding="utf-8").replace(
        "redeem_silver = { value = 2,", 'redeem_silver = { value = "2",'), encoding="utf-8")  # fmt: skip
    code, _, err = run("rules", "polis", "--board", str(broken))
    assert code == 2 and "constants.redeem_silver" in err and "whole number" in err
    code, out, _ = run("rules", "polis", "--board", str(broken), "--reconstructed")
    assert code == 2
    code, out, _ = run("rules", "polis", "--board", str(DEFAULT_BOARD), "--json")
    assert code == 0 and json.loads(out)["board"] == {"path": str(DEFAULT_BOARD), "valid": True}
    code, out, _ = run("rules", "polis", "--board", str(DEFAULT_BOARD))
    assert code == 0 and "loaded and valid" in out


def test_siege_odds_without_prestige_say_what_they_assume() -> None:
    code, out, err = run("odds", "polis-siege", "--fortification", "2", "--hoplites", "3", "--json")
    data = json.loads(out)
    assert code == 0 and data["prestige_assumed"] is True and data["prestige"] == 3 + 2 + 1
    assert "PP assumed" in data["assumptions"] and data["success"]["fraction"] == "15/16"
    code, out, err = run("odds", "polis-siege", "--fortification", "2", "--hoplites", "3")
    assert code == 0 and "no --prestige given" in err and "(assumed)" in out
    code, out, _ = run(
        "odds", "polis-siege", "--fortification", "2", "--hoplites", "3", "--prestige", "0", "--json"
    )
    data = json.loads(out)
    assert data["prestige_assumed"] is False and data["success"]["fraction"] == "0/1"
