"""`server.heap.HeapTrim`: one malloc_trim after a wave of closed websockets (issue 26 item 3, memory given back
after 3,000 spectators leave; the figures are in benchmarks/bench_ws_load.py --mode spectators)."""

from __future__ import annotations

import asyncio
import ctypes
from concurrent.futures import ThreadPoolExecutor

from hegemon.server.heap import HeapTrim, _libc_trim, resident_mb


def test_one_trim_for_a_whole_wave_and_none_below_the_threshold() -> None:
    calls: list[float] = []

    async def main() -> tuple[int, int]:
        heap = HeapTrim(threshold=10, settle=0.5, trim=lambda: calls.append(1.0) or 1)
        for _ in range(9):
            heap.closed()
        await asyncio.sleep(1.0)
        below = len(calls)
        for _ in range(30):  # a wave: one trim, once it is over (`settle` after the last close)
            heap.closed()
            await asyncio.sleep(0)
        assert not calls
        await asyncio.sleep(1.5)
        return below, heap.trims

    # on a thread of its own: a browser test earlier on this worker may leave its event loop running on this one
    with ThreadPoolExecutor(1) as pool:
        below, trims = pool.submit(asyncio.run, main()).result()
    assert below == 0
    assert calls == [1.0] and trims == 1


def test_glibc_gives_freed_memory_back() -> None:
    trim = _libc_trim()
    assert trim is not None  # Debian's glibc has malloc_trim
    blocks = [ctypes.create_string_buffer(4096) for _ in range(40_000)]  # ~160 MB in glibc's heap
    grown = resident_mb()
    del blocks
    assert trim() in (0, 1)
    assert resident_mb() < grown - 100
