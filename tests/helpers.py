"""Helpers shared by the tests of several games."""

from __future__ import annotations

from typing import Any

import pytest

from hegemon.core.errors import IllegalActionError
from hegemon.core.play import play
from hegemon.core.record import state_digest


def refused(state: Any, action: Any) -> IllegalActionError:
    """`play(state, action)` must raise IllegalActionError and leave `state` unchanged; the error."""
    before = state_digest(state)
    with pytest.raises(IllegalActionError) as e:
        play(state, action)
    assert state_digest(state) == before
    return e.value


def run_async(coro: Any) -> Any:
    """`asyncio.run(coro)` in a thread of its own: a test worker that ran Playwright's sync API before has an
    event loop running in its main thread, where `asyncio.run` refuses to start."""
    import asyncio
    import threading

    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(coro)
        except BaseException as e:  # re-raised in the caller's thread
            box["error"] = e

    t = threading.Thread(target=target, name="run-async")
    t.start()
    t.join()
    if "error" in box:
        raise box["error"]
    return box.get("value")
