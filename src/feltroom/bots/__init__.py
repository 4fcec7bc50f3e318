"""Bots: given a view and the legal actions, choose one (architecture.md: never the state).

Levels are looked up with ``make_bot(level, game, seat, players)``. ``random`` plays every
game; ``heuristic`` is per game (each ``feltroom.bots.<game>`` module registers its own);
``search`` plays every game that has a knowledge tracker (``feltroom.bots.search``).
"""

from __future__ import annotations

# each game's module registers its heuristic; search registers the search level for every game
# with a knowledge tracker, search_games says how it plays some of them
from . import craits, cribbage, crisp, krypkasino, search, search_games  # noqa: F401
from .base import BOTS, LEVELS, Bot, RandomBot, describe_levels, levels_for, make_bot, register_bot

__all__ = ["BOTS", "LEVELS", "Bot", "RandomBot", "describe_levels", "levels_for", "make_bot", "register_bot"]
