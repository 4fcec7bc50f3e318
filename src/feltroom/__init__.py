"""feltroom: an online card room — Crisp, Craits, Cribbage and Krypkasino.

>>> import feltroom
>>> sorted(feltroom.GAMES)
['craits', 'cribbage', 'crisp', 'krypkasino']
"""

from __future__ import annotations

from . import games as _games  # noqa: F401  (registers every game)
from .cards import Card, Rank, Suit
from .errors import IllegalAction, InvalidAction
from .game import CLOCK, Game
from .registry import GAMES, new_game, replay

__all__ = [
    "CLOCK", "GAMES", "Card", "Game", "IllegalAction", "InvalidAction", "Rank", "Suit",
    "new_game", "replay",
]
__version__ = "0.1.0"
