"""Terminal play (`hegemon play`) as a user types it (issue 12 item 12): the README's repeat syntax in both
games, only what changed after an action, menus that never wrap mid-word, `board` with neighbours, and the
exact odds of an attack shown before it is made."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from hegemon.cli import app, board_changes, menu_lines, parse_choice
from hegemon.core.game import CHANCE
from hegemon.core.play import sample_chance
from hegemon.games import get_game
from hegemon.games.polis.board import DEFAULT_BOARD
from hegemon.games.polis.game import GAME as POLIS
from hegemon.games.polis.text import action_odds

runner = CliRunner()
SPQR = ("play", "spqrisiko", "--seats", "human,random,random,random", "--seed", "3", "-o", "random_deal=true")


def play(args: tuple[str, ...], *lines: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input="".join(x + "\n" for x in lines))
    assert not isinstance(result.exception, (AttributeError, TypeError)), result.exception  # the old crash
    return result.exit_code, result.stdout


def test_polis_repeat_by_text_plays_the_action_k_times(tmp_path: Path) -> None:
    board = tmp_path / "board.toml"  # no wheat for supply, so Athens reaches its growth with 4 wheat
    board.write_text(DEFAULT_BOARD.read_text(encoding="utf-8").replace(
        "supply_wheat_per_cube = { value = 1,", "supply_wheat_per_cube = { value = 0,"), encoding="utf-8")  # fmt: skip
    code, out = play(("play", "polis", "--seats", "human,random", "--seed", "3", "--board", str(board)),
                     "pass", "grow athinae x2", "quit")  # fmt: skip
    assert code == 1 and "game abandoned" in out
    assert out.count("Athens: grow athinae") == 2 and "repeat: grow athinae" in out
    # after the first growth only what changed is printed: Athens's line and Athinae, not the markets
    after = out.split("repeat: grow athinae")[0].rsplit("Athens: grow athinae", 1)[1]
    assert "pop 5/4/10" in after and "wheat 3" in after and "Market values" not in after
    assert "only what changed" in after


def test_polis_board_lists_every_territory_with_its_neighbours() -> None:
    code, out = play(("play", "polis", "--seats", "human,random", "--seed", "3"), "board", "quit")
    assert code == 1
    assert re.search(
        r"Attika +land units 3/0 +poleis: Athinae ATH 4\s+neighbours: Megaris, Boiotia, Saronikos", out
    )
    assert out.count("neighbours:") == POLIS.new_game().board.n_terr


def test_spqrisiko_repeat_by_number_and_by_attack_text_with_the_odds_first() -> None:
    code, out = play(SPQR, "1 x3", "done", "quit")
    assert code == 1
    first = re.search(r"P1>   P1: (reinforce \w+)", out)
    assert first and out.count(f"P1: {first[1]}") == 3
    assert f"repeat: {first[1]} (1 more)" in out and f"repeat: {first[1]}\n" in out
    menu = out.rsplit("land attacks", 1)[1]
    attack = re.search(r"\d+ (attack \w+ -> \w+) \[win (\d+\.\d)%\]", menu)
    assert attack, menu
    text, pct = attack[1], attack[2]

    code, out = play(SPQR, "1 x3", "done", f"{text} x2", "quit")
    assert code == 1
    odds = out.index(f"odds: {text}: win {pct}%")
    assert odds < out.index(f"P1: {text}")  # the exact odds come before the attack is made
    assert re.search(rf"odds: {re.escape(text)}: win {pct}% \(\d+/\d+\); expected losses", out)
    assert f"repeat waiting: {text} (1 more" in out  # the dice of this attack come first


def test_spqrisiko_board_shows_neighbours() -> None:
    code, out = play(SPQR, "board", "quit")
    from hegemon.games.spqrisiko.board import load_board

    assert code == 1 and out.count("    land: ") == load_board().n_provinces
    assert re.search(r"land: [A-Z][a-z]+.*  ·  seas: ", out)


def test_menus_break_between_items_never_inside_a_word() -> None:
    items = [
        (i, f"move hoplites to territory_number_{i} and then somewhere very far away") for i in range(1, 9)
    ]
    items.append((9, "x" * 10 + " " + "a-very-long-word-" * 2))
    for width in (20, 40, 80):
        lines = menu_lines("move_hoplites", items, width)
        words = {w for _, label in items for w in label.split(" ")}
        for line in lines:
            assert cell_len(line.plain) <= width or len(line.plain.split()) == 1
            for w in line.plain.split():
                assert w in words or w.isdigit() or w == "move_hoplites:"
        joined = " ".join(line.plain for line in lines)
        for i, label in items:
            assert f"{i} {label}" in re.sub(r"\s+", " ", joined)


def test_board_changes_keeps_the_title_and_headings_of_changed_lines() -> None:
    before = ["title 1", "Poleis:", "  A 1", "  B 1", "Units:", "  x 1"]
    now = ["title 2", "Poleis:", "  A 1", "  B 2", "Units:", "  x 1"]
    assert board_changes(None, now) == now
    assert board_changes(before, now) == ["title 2", "Poleis:", "  B 2"]


def test_polis_siege_odds_before_the_roll() -> None:
    from hegemon.games.polis import actions as A

    from ..games.polis.fixtures import ATHENS, scenario

    st = scenario(to_move=ATHENS, pp=(3, 3), units={(ATHENS, "megaris"): 3})
    line = action_odds(st, A.Besiege("megara"))
    assert line is not None and "win 75.0% (3/4) with this roll" in line and "(15/16) repeating" in line
    assert action_odds(st, A.Pass()) is None


# ----------------------------------------------------------------- issue 25 item 5: typed as shown, seats by name

POLIS3 = ("play", "polis", "--seats", "human,greedy", "--seed", "3")


def test_polis_indented_steps_are_typed_as_the_menu_shows_them() -> None:
    # `14` starts a move; its steps are shown indented (`  2 from attika`, `  end of move`) and typed without it
    code, out = play(POLIS3, "14", "2 from attika", "  END   of move ", "quit")
    assert code == 1 and "no legal action matches" not in out, out[-2000:]
    assert "Athens:   2 from attika" in out and "Athens:   end of move" in out


def _sampled_states(name: str, games: int, every: int) -> list[Any]:
    g = get_game(name)
    states = []
    for seed in range(games):
        st = g.new_game(g.parse_options(g.selfplay_defaults), seed)
        rng = random.Random(seed)
        k = 0
        while not st.is_terminal() and k < 3000:
            if st.current_player() == CHANCE:
                st.apply(sample_chance(st, rng))
                continue
            if k % every == 0 or any(str(a).startswith(" ") for a in st.legal_actions()):
                states.append(st.clone())
            st.apply(rng.choice(st.legal_actions()))
            k += 1
    return states


@pytest.mark.parametrize(("name", "games", "every"), [("polis", 2, 1), ("spqrisiko", 1, 7)])
def test_every_action_is_typed_as_shown_with_any_spacing_and_case(name: str, games: int, every: int) -> None:
    g = get_game(name)
    kinds: set[str] = set()
    for st in _sampled_states(name, games, every):
        actions = st.legal_actions()
        texts = [" ".join(str(a).split()).casefold() for a in actions]
        for a in actions:
            if texts.count(" ".join(str(a).split()).casefold()) > 1:
                continue  # two actions that read alike: typed by number (the error lists them)
            shown = str(a)
            for typed_text in (shown, shown.strip(), "  " + shown.strip().upper().replace(" ", "   ") + " "):
                assert parse_choice(typed_text, actions, g) == (a, 1), (typed_text, [str(x) for x in actions])
            assert parse_choice(f"{shown.strip()} [win 61.2%] x2", actions, g) == (
                a,
                2,
            )  # the menu's odds note
            if shown.startswith("  "):
                kinds.add(a.kind)
    if name == "polis":  # the indented steps the issue names were all met and typed
        assert {"move_from", "end_move"} <= kinds, kinds


def test_an_ambiguous_text_lists_the_numbers_to_type() -> None:
    code, out = play(
        POLIS3, "create 1", "fly   to the moon", "999 x2", "create 1 merchant(s) at chios", "quit"
    )
    assert code == 1
    assert (
        "8 actions start with 'create 1' (numbers 2, 3, 4, 7, 8, 9, 12, 13): type more, or its number" in out
    )
    assert "no legal action matches 'fly to the moon'; type its number" in out
    assert "choose a number from 1 to" in out
    assert "Athens: create 1 merchant(s) at chios" in out


def test_polis_seats_are_athens_and_sparta_in_play_selfplay_and_replay(tmp_path: Path) -> None:
    code, out = play(POLIS3, "pass", "quit")
    assert code == 1
    assert "Athens> " in out and "Athens — action" in out and "Sparta: " in out
    assert not re.search(r"\bP[12]\b", out), re.findall(r".*\bP[12]\b.*", out)[:3]
    records = tmp_path / "games.jsonl"
    result = runner.invoke(
        app, ["selfplay", "polis", "--games", "1", "--bots", "random", "--jsonl", str(records)]
    )
    assert result.exit_code == 0 and re.search(r"Athens\s+│\s+random", result.stdout), result.stdout
    assert re.search(r"Sparta\s+│\s+random", result.stdout) and "P1" not in result.stdout
    result = runner.invoke(app, ["replay", str(records), "--no-step"])
    assert result.exit_code == 0 and "Athens: " in result.stdout and "Sparta: " in result.stdout
    assert not re.search(r"\bP[12]: ", result.stdout)


def _pty_play(home: Path, keys: list[str], timeout: float = 60.0) -> tuple[int, str]:
    """`hegemon play polis` in a real terminal (a pseudo-terminal): each of `keys` is typed at the next prompt."""
    import os
    import pty
    import select
    import subprocess
    import sys
    import time

    master, slave = pty.openpty()
    env = {**os.environ, "XDG_DATA_HOME": str(home), "HOME": str(home), "TERM": "xterm", "COLUMNS": "120"}
    proc = subprocess.Popen([sys.executable, "-m", "hegemon", *POLIS3[:-2], "--seed", "3"],
                            stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)  # fmt: skip
    os.close(slave)
    seen = b""
    pending = list(keys)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the child closed the terminal
                    break
                if not chunk:
                    break
                seen += chunk
            if pending and seen.count(b"Athens> ") > len(keys) - len(pending):
                os.write(master, pending.pop(0).encode())
            if proc.poll() is not None and not ready:
                break
        code = proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    return code, re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\r", "", seen.decode(errors="replace"))


def test_the_prompt_has_line_editing_and_a_bounded_history_kept_between_games(tmp_path: Path) -> None:
    from hegemon.cli import HISTORY_LINES

    history = tmp_path / "hegemon" / "play-history"
    history.parent.mkdir()
    history.write_text("status\n" * (HISTORY_LINES + 500))
    up = "\x1b[A"
    # `board`, then the up arrow recalls it; then `quit` typed with a typo mended by the left arrow
    code, out = _pty_play(tmp_path, ["board\r", f"{up}\r", "qit\x1b[D\x1b[Du\r"])
    assert code == 1 and "game abandoned" in out, out[-2000:]
    assert out.count("Attika ") >= 2 and out.count("neighbours: Megaris, Boiotia, Saronikos") == 2, out[
        -3000:
    ]
    lines = history.read_text().splitlines()
    assert len(lines) == HISTORY_LINES and lines[-2:] == ["board", "quit"]  # a recalled line is kept once
    # the next game: the up arrow brings back the last line of the one before (`quit`)
    code, out = _pty_play(tmp_path, [f"{up}\r"])
    assert code == 1 and "game abandoned" in out, out[-2000:]
