"""Board fuzz (issue 11, hostile-input suite): Hypothesis mutates the shipped board files of both games (numbers
swapped for huge, negative, fractional, non-finite or non-numeric values; ids swapped; lines dropped, doubled or
cut; sections removed; deep nesting and long digit runs spliced in) and uploads each through the real app on a
SQLite file. Every answer is a 201 or a typed 400 `bad_request` naming the board; never a 5xx. An accepted board
also builds a game that views and plays a few dozen moves without any error."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hegemon.ai import make_bot
from hegemon.core.game import CHANCE, TERMINAL
from hegemon.core.play import sample_chance
from hegemon.games import get_game
from hegemon.games.polis.board import DEFAULT_BOARD as POLIS_BOARD
from hegemon.games.spqrisiko import board as spqr_board
from hegemon.server.app import create_app

TEXTS = {
    "spqrisiko": (Path(spqr_board.__file__).with_name("data") / "board.toml").read_text(encoding="utf-8"),
    "polis": POLIS_BOARD.read_text(encoding="utf-8"),
}
NUMBER = re.compile(r"(?<=[=\[,{] )-?\d+(\.\d+)?(?=[\s,\]}])")
STRING = re.compile(r'"[a-z_0-9]+"')
SECTION = re.compile(r"^\[\[?[a-z_.]+\]\]?$", re.M)

ODD = ["0", "-1", "1", "2", "3", "500", "501", "9223372036854775807", "1e300", "-0.0", "2.5", "nan", "inf",
       "-inf", '"x"', '""', "true", "[]", "[1, 2]", "{}", "{ a = 1 }", "9" * 5000, "[" * 50 + "]" * 50]  # fmt: skip
VALUES = st.one_of(st.integers(-(2**70), 2**70).map(str), st.sampled_from(ODD))


@st.composite
def mutated(draw: st.DrawFn, game: str) -> str:
    text = TEXTS[game]
    ids = STRING.findall(text)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["number", "id", "drop", "double", "cut", "section", "splice"]))
        if kind == "number":
            spots = list(NUMBER.finditer(text))
            if spots:
                m = spots[draw(st.integers(0, len(spots) - 1))]
                text = text[: m.start()] + draw(VALUES) + text[m.end() :]
        elif kind == "id":
            spots = list(STRING.finditer(text))
            if spots:
                m = spots[draw(st.integers(0, len(spots) - 1))]
                new = draw(st.one_of(st.sampled_from(ids), VALUES))
                text = text[: m.start()] + new + text[m.end() :]
        elif kind in ("drop", "double"):
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            lines[i : i + 1] = [] if kind == "drop" else [lines[i], lines[i]]
            text = "\n".join(lines)
        elif kind == "cut":
            text = text[: draw(st.integers(0, len(text)))]
        elif kind == "section":
            heads = list(SECTION.finditer(text))
            if heads:
                j = draw(st.integers(0, len(heads) - 1))
                end = heads[j + 1].start() if j + 1 < len(heads) else len(text)
                text = text[: heads[j].start()] + text[end:]
        else:
            pos = draw(st.integers(0, len(text)))
            text = text[:pos] + draw(st.sampled_from(["\nx = " + "[" * 40 + "]" * 40 + "\n", "\n[" + ".".join(
                ["a"] * 30) + "]\n", "7" * 200, "\n[[province]]\n", "\n[[poleis]]\n", "\x00", "é"])) + text[pos:]  # fmt: skip
    return text


def play_a_little(game_name: str, options: dict[str, object], seed: int) -> None:
    """The engine on an accepted board: views for every seat and up to 60 moves (random or a greedy bot's),
    chance included."""
    game = get_game(game_name)
    state = game.new_game(game.parse_options(options), seed)
    rng = random.Random(seed)
    greedy = make_bot("greedy", seed)
    for _ in range(60):
        p = state.current_player()
        if p == TERMINAL:
            break
        if p == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        for seat in range(state.num_players):
            state.view(seat)
        # a greedy bot's choice now and then (evaluation and determinization on the odd board), else random
        state.apply(greedy.choose(state, p) if rng.random() < 0.2 else rng.choice(state.legal_actions()))


def fuzz(game: str, tmp_path: Path, examples: int) -> Callable[[], None]:
    seats = [{"bot": "random"}] * (3 if game == "spqrisiko" else 2)
    outcomes: dict[int, int] = {}

    @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])  # fmt: skip
    @given(text=mutated(game), seed=st.integers(0, 1000))
    def one(c: TestClient, text: str, seed: int) -> None:
        r = c.post("/api/tables", json={"game": game, "board_data": text, "seats": seats, "seed": seed})
        outcomes[r.status_code] = outcomes.get(r.status_code, 0) + 1
        assert r.status_code in (201, 400), (r.status_code, r.text[:300])
        if r.status_code == 400:
            body = r.json()
            assert body["code"] == "bad_request" and body["message"], body
            return
        tid = r.json()["id"]
        d = c.get(f"/api/tables/{tid}")
        assert d.status_code == 200, d.text[:300]
        play_a_little(game, d.json()["options"], seed)

    def run() -> None:
        with TestClient(create_app(f"sqlite:///{tmp_path / 'f.db'}", 60.0)) as c:
            one(c)  # type: ignore[call-arg]  # hypothesis supplies text and seed
        assert outcomes.get(400, 0) > 0 and outcomes.get(201, 0) > 0, outcomes  # both paths exercised
        assert sum(outcomes.values()) >= examples, outcomes

    return run


def test_spqrisiko_board_fuzz_gives_only_typed_refusals(tmp_path: Path) -> None:
    fuzz("spqrisiko", tmp_path, 100)()


def test_polis_board_fuzz_gives_only_typed_refusals(tmp_path: Path) -> None:
    fuzz("polis", tmp_path, 100)()
