"""Bots: given a view and the legal actions, choose one (architecture.md: never the state).

Levels are looked up with ``make_bot(level, game, seat, players)``. ``random`` plays every
game; ``heuristic`` is per game (``feltroom.bots.<game>`` registers it).
"""

from __future__ import annotations

from . import crisp  # noqa: F401  (registers the Crisp heuristic)
from .base import BOTS, Bot, RandomBot, levels_for, make_bot, register_bot

__all__ = ["BOTS", "Bot", "RandomBot", "levels_for", "make_bot", "register_bot"]
from . import krypkasino  # noqa: E402,F401  (registers the Krypkasino heuristic)
from . import cribbage  # noqa: E402,F401  (registers the Cribbage heuristic)
from . import craits  # noqa: E402,F401  (registers the Craits heuristic)
