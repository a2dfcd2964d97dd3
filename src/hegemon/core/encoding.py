"""Helpers shared by the games' RL encodings (each game's `encoder.py`, its `EncoderRole`)."""

from __future__ import annotations


def onehot(n: int, i: int) -> list[float]:
    """A vector of `n` zeros with a 1 at `i` (all zeros when `i` is out of range: none, e.g. -1)."""
    v = [0.0] * n
    if 0 <= i < n:
        v[i] = 1.0
    return v
