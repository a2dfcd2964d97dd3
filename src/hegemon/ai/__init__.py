"""Bots, written against the Game protocol only. A bot is any object with `choose(state, player) -> Action`
(see `Bot`); `make_bot("mcts:hard", seed)` builds one from a spec string. Built in: `random`, `beginner` (one
ply with a newcomer's mistakes), `greedy` (one ply with the per-game evaluation), `mcts` (information-set MCTS,
at the named levels of `ai/levels.py` or N iterations), `rollout` (the root's best moves played out to the end)
and `external` (a bot in another process, over HTTP)."""

from __future__ import annotations

from hegemon.ai import beginner, external, greedy, levels, mcts, rollout
from hegemon.ai.base import Bot, bot_names, make_bot, register
from hegemon.ai.beginner import BeginnerBot
from hegemon.ai.greedy import GreedyBot
from hegemon.ai.mcts import MctsBot
from hegemon.ai.random_bot import RandomBot
from hegemon.ai.rollout import RolloutBot

__all__ = [
    "BeginnerBot",
    "Bot",
    "GreedyBot",
    "MctsBot",
    "RandomBot",
    "RolloutBot",
    "beginner",
    "bot_names",
    "external",
    "greedy",
    "levels",
    "make_bot",
    "mcts",
    "register",
    "rollout",
]
