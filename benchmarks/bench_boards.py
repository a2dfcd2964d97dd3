"""Board uploads and hidden cards under hostile sizes (issue 11 items 1-2): how long validating a board takes
(the shipped boards, a large valid S.P.Q.RisiKo! board, and the 4,100-coastal-provinces attack, refused), and
how long a bot's determinization of the hidden cards takes as the deck grows.

Run: python benchmarks/bench_boards.py [--repeat 5]"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from functools import partial
from importlib import resources
from typing import Any

from hegemon.ai.games import spqrisiko as spqr_ai
from hegemon.games import get_game
from hegemon.games.polis.board import DEFAULT_BOARD as POLIS_BOARD
from hegemon.server.boards import check_board
from hegemon.server.protocol import ServerError


def best_ms(repeat: int, fn: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1000 * min(times)


def one_sea(n: int) -> str:
    """The attack: `n` coastal provinces on one sea area, written compactly."""
    provs = ",\n".join(f'{{ id = "p{i}", name = "P", kind = "coastal" }}' for i in range(n))
    coasts = ", ".join(f'["p{i}", "s"]' for i in range(n))
    return (
        f"province = [\n{provs}\n]\n"
        'sea = [{ id = "s", name = "S", lat = 0, lon = 0 }, { id = "t", name = "T", lat = 0, lon = 0 }]\n'
        f'[graph]\nland = []\ncoast = [{coasts}, ["p0", "t"]]\nsea_links = [["s", "t"]]\n'
        "[cards]\nlegionary = 5\nbanner = 5\ntrireme = 5\narena = 5\n[pieces]\npower_centres = 3\n"
    )


def large_valid() -> str:
    """200 provinces (the maximum), 60 sea areas, 1,000 coasts, 500 cards of each symbol."""
    provs = ",\n".join(
        f'{{ id = "p{i}", name = "P", kind = "coastal", lat = 0, lon = 0 }}' for i in range(200)
    )
    seas = ", ".join(f'{{ id = "s{j}", name = "S", lat = 0, lon = 0 }}' for j in range(60))
    coasts = ", ".join(f'["p{i}", "s{(i + k) % 60}"]' for i in range(200) for k in range(5))
    land = ", ".join(f'["p{i}", "p{i + 1}"]' for i in range(199))
    links = ", ".join(f'["s{j}", "s{(j + 1) % 60}"]' for j in range(60))
    return (
        f"province = [\n{provs}\n]\nsea = [{seas}]\n[graph]\nland = [{land}]\ncoast = [{coasts}]\n"
        f"sea_links = [{links}]\n[cards]\nlegionary = 500\nbanner = 500\ntrireme = 500\narena = 500\n"
        "[pieces]\npower_centres = 100\n"
    )


def refused(game: str, text: str) -> Callable[[], None]:
    def run() -> None:
        try:
            check_board(game, text)
        except ServerError:
            return
        raise AssertionError("the board was accepted")

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    spqr = (resources.files("hegemon.games.spqrisiko") / "data" / "board.toml").read_text(encoding="utf-8")
    polis = POLIS_BOARD.read_text(encoding="utf-8")
    big, attack, compact = large_valid(), one_sea(4100), one_sea(2000)
    dotted = "".join(f"k{i}.b.c.d.e.f.g.h = 1\n" for i in range(5000))  # adversarial text for the TOML parser
    print(
        "board validation (check_board: parse + bounds + game validation; runs in a worker thread), best of",
        args.repeat,
    )
    for label, text, fn in (
        ("shipped S.P.Q.RisiKo! board", spqr, lambda: check_board("spqrisiko", spqr)),
        ("shipped Polis board", polis, lambda: check_board("polis", polis)),
        ("large valid S.P.Q.RisiKo! board", big, lambda: check_board("spqrisiko", big)),
        ("4,100 coastal provinces on one sea (too large)", attack, refused("spqrisiko", attack)),
        ("2,000 coastal provinces on one sea (too many)", compact, refused("spqrisiko", compact)),
        ("5,000 dotted keys (parser's bad case, refused)", dotted, refused("spqrisiko", dotted)),
    ):
        print(f"  {label:<48} {len(text) / 1024:6.0f} KB  {best_ms(args.repeat, fn):8.1f} ms")
    game = get_game("spqrisiko")
    st: Any = game.new_game(game.parse_options({"players": 3}), 1)
    st.hands = [[1, 0, 0, 0], [2, 1, 0, 1], [0, 0, 3, 0]]
    print("determinization of hidden cards (3 players, 7 cards in the other hands), best of 200")
    for deck in ([25, 15, 10, 5], [500] * 4, [10**7] * 4, [2**62] * 4):
        st.deck = deck
        us = 1000 * best_ms(200, partial(spqr_ai.determinize, st, 0, random.Random(1)))
        print(f"  deck of {sum(deck):>22,} cards  {us:8.1f} µs")


if __name__ == "__main__":
    main()
