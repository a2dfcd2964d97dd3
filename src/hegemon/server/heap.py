"""Memory back to the system after a wave of connections leaves (issue 26 item 3).

CPython frees the objects of closed websockets (buffers, frames, dicts), but glibc keeps the freed heap pages
for the next allocation, so the server's resident size stays at its peak long after 3,000 spectators left.
`HeapTrim` counts closed connections and, once `threshold` have gone and none has for `settle` seconds (one
trim for a whole wave; longer than the websocket protocol's 2 s grace, after which a closed connection's
transport and buffers are gone), asks glibc to return its free pages (`malloc_trim(0)`) in a worker thread (ctypes
releases the GIL for the call). On a C library without `malloc_trim` (musl, macOS) it does nothing."""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import logging
from collections.abc import Callable

log = logging.getLogger("hegemon.server")


def _libc_trim() -> Callable[[], int] | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return lambda: int(trim(0))


def resident_mb() -> float:
    """This process's resident size (Linux; 0 elsewhere)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class HeapTrim:
    """See the module text. `trim()` returns 1 when memory was given back (glibc's answer)."""

    def __init__(
        self, threshold: int = 256, settle: float = 5.0, trim: Callable[[], int] | None = None
    ) -> None:
        self.threshold = threshold
        self.settle = settle
        self.trim = trim if trim is not None else _libc_trim()
        self.gone = 0  # connections closed since the last trim
        self.trims = 0  # trims run (for tests and metrics)
        self.released_mb = 0.0  # resident memory given back by them
        self._timer: asyncio.TimerHandle | None = None
        self._running = False

    def closed(self) -> None:
        """One connection has closed (call on the event loop)."""
        self.gone += 1
        if self.trim is None or self.gone < self.threshold:
            return
        if self._timer is not None:  # still leaving: wait until the wave is over
            self._timer.cancel()
        self._timer = asyncio.get_running_loop().call_later(self.settle, self._fire)

    def _fire(self) -> None:
        self._timer = None
        if self._running or self.trim is None:
            return
        self._running = True
        self.gone = 0
        trim = self.trim

        def run() -> tuple[float, float]:
            before = resident_mb()
            trim()
            return before, resident_mb()

        task = asyncio.get_running_loop().run_in_executor(None, run)

        def done(f: asyncio.Future[tuple[float, float]]) -> None:
            self._running = False
            self.trims += 1
            if f.exception() is not None:
                log.warning("malloc_trim failed: %r", f.exception())
                return
            before, after = f.result()
            self.released_mb += max(0.0, before - after)
            log.info("after %d websockets closed, gave %.0f MB back to the system (resident %.0f -> %.0f MB)",
                     self.threshold, before - after, before, after)  # fmt: skip

        task.add_done_callback(done)
