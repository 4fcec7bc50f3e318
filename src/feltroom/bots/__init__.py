"""Bots: given a view and the legal actions, choose one (architecture.md: never the state).

Levels are looked up with ``make_bot(level, game, seat, players)``. ``random`` plays every
game; ``heuristic`` is per game (each ``feltroom.bots.<game>`` module registers its own).
"""

from __future__ import annotations

from . import craits, cribbage, crisp, krypkasino  # noqa: F401  (each registers its heuristic)
from .base import BOTS, Bot, RandomBot, levels_for, make_bot, register_bot

__all__ = ["BOTS", "Bot", "RandomBot", "levels_for", "make_bot", "register_bot"]
