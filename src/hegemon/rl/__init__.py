"""PettingZoo environments for researchers: `make_env(game, **options)`, e.g. a game name and `players=3`.
Options start from the game's `selfplay_defaults`; the encoding is the game's own (`hegemon.rl.encoders`).

Each game is an AEC environment (`pettingzoo.AECEnv`, needs `pip install hegemon[rl]`):

- agents `player_0` … `player_{n-1}` are the game's seats (Polis: 0 Athens, 1 Sparta);
- actions: `Discrete(N)` over a fixed enumeration of every decision action of the game
  (`env.unwrapped.actions[i]` is the action object; counts above a cap are left out, see `rl.encoders`);
- observations: `{"observation": float32 vector, "action_mask": int8 vector of length N}`; the mask is all
  zeros for an agent that is not to move. The vector is built only from what that seat's `view` shows (no
  hidden cards); its layout is `env.unwrapped.observation_layout` — a list of (block name, size), seat blocks
  relative to the observer (block 0 is always the observer itself);
- chance (dice, draws, deals) is resolved inside `step` with a generator seeded by `reset(seed=…)`, so a seed
  and an action sequence reproduce a game exactly;
- rewards at the end only: +1 to the sole winner and -1 to everyone else; a shared first place gives 0 to
  the tied winners; an episode that reaches `max_actions` decisions is truncated with zero rewards;
- `reset(options=…)` may override game options for the next episode.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np

from hegemon.core.game import CHANCE, TERMINAL
from hegemon.core.play import derive_seed, sample_chance
from hegemon.games import get_game
from hegemon.rl.encoders import Encoder, encoder_for

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as e:  # pragma: no cover - the rl extra is not installed
    raise ImportError("hegemon.rl needs the rl extra: pip install 'hegemon[rl]'") from e


class HegemonEnv(AECEnv):  # type: ignore[misc]  # pettingzoo has no type hints: its AECEnv is Any to mypy
    """One game as a PettingZoo AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "hegemon_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self, game: str, render_mode: str | None = None, max_actions: int | None = None, **options: Any
    ) -> None:
        super().__init__()
        self.game = get_game(game)
        raw: dict[str, Any] = dict(self.game.selfplay_defaults)
        raw.update(options)
        self.raw_options = raw
        self.options = self.game.parse_options(raw)
        self.metadata = {**type(self).metadata, "name": f"hegemon_{self.game.name}_v0"}  # type: ignore[misc]  # PettingZoo declares metadata a ClassVar; each env names its game
        self.render_mode = render_mode
        self.max_actions = max_actions if max_actions is not None else 20000
        probe = self.game.new_game(self.options, 0)
        self.n = probe.num_players
        self.encoder: Encoder = encoder_for(self.game, probe)
        self.actions = self.encoder.actions
        self.observation_layout = list(self.encoder.layout)
        self.possible_agents = [f"player_{i}" for i in range(self.n)]
        size = self.encoder.size
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=-1e6, high=1e6, shape=(size,), dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(len(self.actions),), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(len(self.actions)) for a in self.possible_agents}
        self.state_: Any = None
        self._rng = random.Random(0)

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def __str__(self) -> str:
        return f"hegemon_{self.game.name}"

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = random.randrange(2**62)
        if options and isinstance(options, dict):
            fields = self.options.to_json()  # every option of the game, by name
            known = {k: v for k, v in options.items() if k in self.raw_options or k in fields}
            if known:
                self.options = self.game.parse_options({**self.raw_options, **known})
        self._rng = random.Random(derive_seed("chance", seed))
        self.state_ = self.game.new_game(self.options, seed)
        self.decisions = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._advance()
        self.agent_selection = self._selected()

    def _advance(self) -> None:
        st = self.state_
        while st.current_player() == CHANCE:
            st.apply(sample_chance(st, self._rng))

    def _selected(self) -> str:
        p = self.state_.current_player()
        return self.possible_agents[p] if p >= 0 else self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        obs = self.encoder.encode(self.state_, seat)
        if self.state_.current_player() == seat:
            mask = self.encoder.mask(self.state_)
        else:
            mask = np.zeros(len(self.actions), dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.state_
        a = self.actions[int(action)]
        if a not in st.legal_actions():
            raise ValueError(f"action {int(action)} ({a}) is not legal now for {agent}")
        self._cumulative_rewards[agent] = 0.0
        st.apply(a)
        self.decisions += 1
        self._advance()
        if st.current_player() == TERMINAL:
            out = st.outcome()
            winners = out.winners if out is not None else ()
            for i, name in enumerate(self.possible_agents):
                if i in winners:
                    self.rewards[name] = 1.0 if len(winners) == 1 else 0.0
                else:
                    self.rewards[name] = -1.0
                self.terminations[name] = True
        elif self.decisions >= self.max_actions:
            for name in self.agents:
                self.truncations[name] = True
        self._accumulate_rewards()
        if st.current_player() >= 0:
            self.agent_selection = self._selected()
        else:
            self.agent_selection = self.agents[0]

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state_ is None:
            return None
        return str(self.game.roles.text().render(self.state_, None))

    def close(self) -> None:
        """Nothing to release: the environment holds no files, windows or processes."""
        return None


def make_env(game: str, **options: Any) -> HegemonEnv:
    """A PettingZoo AEC environment of `game` with these options (plus `render_mode`, `max_actions`)."""
    return HegemonEnv(game, **options)


__all__ = ["HegemonEnv", "make_env"]
