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
