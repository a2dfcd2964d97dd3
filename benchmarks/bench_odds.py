"""Time the exact S.P.Q.RisiKo! odds tables: a cold 30×30 win table (land, sea, naval) and single battles.

Run: python benchmarks/bench_odds.py [--size 30] [--repeat 5]"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from hegemon.games.spqrisiko import odds
from hegemon.games.spqrisiko.combat import loss_distribution


def best_of(repeat: int, fn: Callable[[], object], clear: Callable[[], None]) -> float:
    """Best wall time of `repeat` cold runs (the memo caches cleared before each)."""
    times = []
    for _ in range(repeat):
        clear()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    n, repeat = args.size, args.repeat
    for na in range(1, 4):  # the one-roll tables are computed once per process; keep them out of the figures
        for nd in range(1, 4):
            loss_distribution(na, nd)
            loss_distribution(na, nd, True)

    def clear() -> None:
        odds._win_grid.cache_clear()
        odds._land_battle.cache_clear()
        odds._sea_attack.cache_clear()
        odds._naval_combat.cache_clear()

    cases: list[tuple[str, Callable[[], object]]] = [
        (f"win table {n}x{n} land", lambda: odds.win_table(n, n)),
        (f"win table {n}x{n} land keep=2", lambda: odds.win_table(n, n, keep=2)),
        (f"win table {n}x{n} sea", lambda: odds.win_table(n, n, kind="sea")),
        (f"win table {n}x{n} naval", lambda: odds.win_table(n, n, kind="naval")),
        (f"land_battle({n}, {n}) full distribution", lambda: odds.land_battle(n, n)),
        (f"sea_attack({n}, {n}) full distribution", lambda: odds.sea_attack(n, n)),
        (f"naval_combat({n}, {n}) full distribution", lambda: odds.naval_combat(n, n)),
    ]
    print(f"exact odds, best of {repeat} cold runs")
    for name, fn in cases:
        print(f"  {name:<40} {best_of(repeat, fn, clear) * 1000:8.1f} ms")
    # the web table's cost bound (battle_json): the costliest exact battles within EXACT_WORK, and the largest
    # battles, which it computes in floating point
    print(
        f"web table odds (battle_json), best of {repeat} cold runs; exact while a*d*(a+d) <= {dict(odds.EXACT_WORK)}"
    )
    for kind in odds.KINDS:
        side = max(x for x in range(1, odds.MAX_UNITS + 1) if odds.exact_work(x, x) <= odds.EXACT_WORK[kind])
        edge = max((x for x in range(1, odds.MAX_UNITS + 1)
                    if odds.exact_work(odds.MAX_UNITS, x) <= odds.EXACT_WORK[kind]), default=0)  # fmt: skip
        shapes = [
            (side, side),
            (odds.MAX_UNITS, edge),
            (edge, odds.MAX_UNITS),
            (odds.MAX_UNITS, odds.MAX_UNITS),
        ]
        for a, d in shapes:
            if not (a and d):
                continue
            exact = odds.exact_work(a, d) <= odds.EXACT_WORK[kind]
            ms = best_of(repeat, lambda k=kind, a=a, d=d: odds.battle_json(k, a, d), clear) * 1000  # type: ignore[misc]  # default arguments bind the loop values
            label = f"{kind} {a} v {d} ({'exact' if exact else 'floating point'})"
            print(f"  {label:<40} {ms:8.1f} ms")


if __name__ == "__main__":
    main()
