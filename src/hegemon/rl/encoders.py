"""Fixed action spaces and observation vectors for each game (see `hegemon.rl` for the layouts).

Each game declares its encoding (`roles.encoder`, an `EncoderRole`, in the game's folder); its
`make_encoder(state)` gives `actions`, `layout` and `features(state, seat)`, which `Encoder` wraps in numpy. Each
encoding enumerates every decision action a game can offer, in a fixed order (counts are capped: a
legal action above a cap is simply absent from the space; the smallest counts, which are always legal
first, are always present), and encodes a seat's observation as a float32 vector built only from what
`state.view(seat)` shows. Seats are relative: block 0 is always the observing seat."""

from __future__ import annotations

from typing import Any

import numpy as np

from hegemon.core.actions import Action
from hegemon.core.errors import ConfigError
from hegemon.core.game import Game


class Encoder:
    """A game's action list, its index, and the observation layout [(name, size), …], over the game's own
    encoding (`features`)."""

    def __init__(self, features: Any) -> None:
        self.features = features
        self.actions: list[Action] = list(features.actions)
        self.layout: list[tuple[str, int]] = list(features.layout)
        self.index = {a: i for i, a in enumerate(self.actions)}

    @property
    def size(self) -> int:
        return sum(n for _, n in self.layout)

    def mask(self, state: Any) -> np.ndarray:
        m = np.zeros(len(self.actions), dtype=np.int8)
        for a in state.legal_actions():
            i = self.index.get(a)
            if i is not None:
                m[i] = 1
        return m

    def encode(self, state: Any, seat: int) -> np.ndarray:
        """The observation vector of `seat` (each game's encoding documents its layout)."""
        return np.asarray(self.features.features(state, seat), dtype=np.float32)


def encoder_for(game: Game, state: Any) -> Encoder:
    """The encoder of `game` for `state`'s table (ConfigError when the game has no RL encoding)."""
    role = game.roles.encoder()
    if role is None:
        raise ConfigError("game", f"{game.name} has no RL encoding (no encoder role)")
    return Encoder(role.make_encoder(state))
