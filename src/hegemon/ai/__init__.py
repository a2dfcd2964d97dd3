"""Bots, written against the Game protocol only. A bot is any object with `choose(state, player) -> Action`
(see `Bot`); `make_bot("random", seed)` builds one from a spec string."""

from __future__ import annotations

from hegemon.ai.base import Bot, bot_names, make_bot
from hegemon.ai.random_bot import RandomBot

__all__ = ["Bot", "RandomBot", "bot_names", "make_bot"]
