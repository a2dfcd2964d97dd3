"""Bots, written against the Game protocol only. A bot is any object with `choose(state, player) -> Action`
(see `Bot`); `make_bot("mcts:hard", seed)` builds one from a spec string. Built in: `random`, `greedy`
(one ply with the per-game evaluation), `mcts` (information-set MCTS, strengths easy/normal/hard) and
`external` (a bot in another process, over HTTP)."""

from __future__ import annotations

from hegemon.ai import external, greedy, mcts
from hegemon.ai.base import Bot, bot_names, make_bot, register
from hegemon.ai.greedy import GreedyBot
from hegemon.ai.mcts import MctsBot
from hegemon.ai.random_bot import RandomBot

__all__ = [
    "Bot",
    "GreedyBot",
    "MctsBot",
    "RandomBot",
    "bot_names",
    "external",
    "greedy",
    "make_bot",
    "mcts",
    "register",
]
