"""One seam for per-game code (issue 14 items 1 and 5): the generic layers (`core`, `cli`, `server`, `lab`, `rl`,
the bots' `ai/games/__init__`) never compare a game's name, never import a game's package, never read a game
state's private attributes and never read a game's option by its name; they find every per-game piece through the
`Game` protocol."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import hegemon
from hegemon.core.game import Game
from hegemon.core.roles import BoardRole, BotRole, EncoderRole, LabRole, NewsRole, TextRole, check_roles
from hegemon.games import game_names, game_of, get_game

SRC = Path(hegemon.__file__).parent
GENERIC = sorted(
    [
        *(SRC / "core").rglob("*.py"),
        SRC / "cli.py",
        SRC / "__main__.py",
        *(SRC / "server").rglob("*.py"),
        *(SRC / "lab").rglob("*.py"),
        *(SRC / "rl").rglob("*.py"),
        SRC / "ai" / "games" / "__init__.py",
    ]
)
NAMES = frozenset(game_names())
OPTIONS = frozenset(o["name"] for g in game_names() for o in get_game(g).describe_options())
"""Every game's option names: generic code asks the game (`Game.board_name(options)`), never reads one."""


def _options(node: ast.AST) -> bool:
    """Whether an expression is a table's or a game's options object (`options`, `opts`, `t.options`)."""
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
    return name in ("options", "opts")


def _name(path: Path) -> str:
    return str(path.relative_to(SRC))


def _strings(node: ast.AST) -> list[str]:
    """The string constants of an expression (a name, or the names in a tuple, list or set)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [s for e in node.elts for s in _strings(e)]
    return []


def offences(source: str) -> list[str]:
    """What in `source` names a game: comparisons with a game's name, dict keys that are game names, imports of
    a game's package (static or by a string), reads of private attributes of a state, reads of an option by name."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Compare):
            for operand in (node.left, *node.comparators):
                for s in _strings(operand):
                    if s in NAMES:
                        found.append(f"line {line}: compares with the game name {s!r}")
        elif (
            isinstance(node, (ast.Assign, ast.AnnAssign))
            and isinstance(node.value, ast.Dict)
            and node.col_offset == 0
        ):
            for key in node.value.keys:  # a module-level table by game (a query's `polis` field is no game)
                for s in _strings(key) if key is not None else []:
                    if s in NAMES:
                        found.append(f"line {line}: a table keyed by the game name {s!r}")
        elif isinstance(node, ast.ImportFrom) and node.module:
            if any(
                node.module == f"hegemon.games.{g}" or node.module.startswith(f"hegemon.games.{g}.")
                for g in NAMES
            ):
                found.append(f"line {line}: imports {node.module}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if any(alias.name.startswith(f"hegemon.games.{g}") for g in NAMES):
                    found.append(f"line {line}: imports {alias.name}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if any(f"hegemon.games.{g}" in node.value for g in NAMES) and not node.value.count("\n"):
                found.append(f"line {line}: names the module {node.value!r}")
        elif isinstance(node, ast.JoinedStr):
            text = "".join(
                v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)
            )
            if "hegemon.games." in text:
                found.append(f"line {line}: builds a game module's name")
        elif isinstance(node, ast.Attribute) and node.attr in OPTIONS and _options(node.value):
            found.append(f"line {line}: reads the option {node.attr!r} by name")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr":
            if (
                len(node.args) >= 2
                and _options(node.args[0])
                and any(s in OPTIONS for s in _strings(node.args[1]))
            ):
                found.append(f"line {line}: reads an option by name with getattr")
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            base = node.value
            if (isinstance(base, ast.Name) and base.id in ("st", "state", "s", "probe")) or (
                isinstance(base, ast.Attribute) and base.attr in ("state", "state_")
            ):
                found.append(f"line {line}: reads the private attribute {node.attr} of a state")
    return found


@pytest.mark.parametrize("path", GENERIC, ids=_name)
def test_generic_modules_name_no_game(path: Path) -> None:
    """Item 1: a generic module reaches per-game code only through the Game protocol."""
    assert offences(path.read_text(encoding="utf-8")) == []


def test_the_scan_catches_each_kind_of_offence() -> None:
    """The scan itself: each way of naming a game is reported (so a passing scan means something)."""
    game = game_names()[0]
    source = f'''
import hegemon.games.{game}.odds
from hegemon.games.{game} import text
from hegemon.games.{game}.scoring import x
if g.name == "{game}":
    pass
if name in ("{game}", "other"):
    pass
TABLE = {{"{game}": 1}}
mod = "hegemon.games.{game}.text"
other = f"hegemon.games.{{name}}.board"
keep = st._attack_keep
board = getattr(t.options, "board", None)
board = opts.board
'''
    found = offences(source)
    assert len(found) == 11, found
    assert offences("if g.name == game:\n    pass\nimport hegemon.games\n") == []
    assert offences("board = t.game.board_name(t.options)\ndata = t.options.to_json()\n") == []


@pytest.mark.parametrize("name", game_names())
def test_every_game_offers_its_per_game_pieces(name: str) -> None:
    """Each game declares what generic layers look up: title, options, players, defaults, modules, odds, glossary."""
    game = get_game(name)
    assert isinstance(game, Game)
    assert game.title and game.title != name
    opts = game.parse_options(None)
    assert game.min_players <= game.players(opts) <= game.max_players
    assert isinstance(game.options_type.PRESETS, dict)
    assert {o["name"] for o in game.describe_options()} >= set(game.selfplay_defaults)
    game.parse_options(dict(game.selfplay_defaults))  # the defaults are valid options
    check_roles(name, game.roles)  # every role a shipped game has is there and of its type
    roles = game.roles
    assert isinstance(roles.text(), TextRole) and isinstance(roles.bots(), BotRole)
    assert isinstance(roles.lab(), LabRole) and isinstance(roles.encoder(), EncoderRole)
    assert isinstance(roles.boards(), BoardRole) and isinstance(roles.news(), NewsRole)
    assert roles.text() is roles.text()  # loaded once
    assert game.glossary()["game"] == name
    assert (
        game.board_name(opts) is None and game.board_name(None) is None
    )  # the board that comes with the game
    shipped = game.shipped_boards()  # the game's own board first; the others are chosen by name
    assert shipped[0] == "default" and len(set(shipped)) == len(shipped)
    for other in shipped[1:]:
        chosen = game.parse_options({"board": other})
        assert game.board_name(chosen) == other and game.new_game(chosen, 0).current_player() is not None
    state = game.new_game(opts, 0)
    text = game.roles.text()
    assert "\n" in text.render(state, None) and text.render_map(state)
    assert text.action_odds(state, state.chance_outcomes()[0][0]) is None  # a draw has no odds to show
    words = game.roles.lab()  # the lab's words name measures the game really records
    assert words is not None
    assert set(words.names) <= set(words.measures().result(state))
    assert set(words.switch_measures) <= {o["name"] for o in game.describe_options()}
    assert game_of(state) is game
    rounds, turns = game.game_length(state)
    assert rounds >= 0 and (turns is None or turns >= 0)


def test_a_state_no_game_defines_is_refused() -> None:
    from hegemon.core.errors import ConfigError

    with pytest.raises(ConfigError):
        game_of(object())
