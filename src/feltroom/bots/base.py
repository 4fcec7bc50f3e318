"""The bot interface, the random bot, and the registry of levels."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..game import Event

BotFactory = Callable[[int, int, dict[str, Any], int | None], "Bot"]

#: level -> game name -> factory(seat, players, options, seed); game "*" serves every game.
BOTS: dict[str, dict[str, BotFactory]] = {}


class Bot:
    """A player that sees exactly what a human in its seat sees.

    The driver calls ``observe`` with the events delivered to the seat (through
    ``feltroom.views``) since the last call, then ``choose`` with the seat's view and
    ``legal_actions``. A bot keeps whatever memory it wants from the events.
    """

    #: A bot that never reads the view lets drivers skip building it.
    needs_view = True

    def __init__(self, seat: int, players: int, options: dict[str, Any], seed: int | None = None) -> None:
        self.seat = seat
        self.players = players
        self.options = options
        self.rng = random.Random(seed)

    def observe(self, events: list[Event]) -> None:
        """Take in the events this seat was shown since the last call."""

    def choose(self, view: dict[str, Any] | None, legal: list[str]) -> str:
        raise NotImplementedError


class RandomBot(Bot):
    """Uniformly random among the legal actions."""

    needs_view = False

    def choose(self, view: dict[str, Any] | None, legal: list[str]) -> str:
        return legal[self.rng.randrange(len(legal))]


def register_bot(level: str, game: str) -> Callable[[type[Bot]], type[Bot]]:
    def wrap(cls: type[Bot]) -> type[Bot]:
        BOTS.setdefault(level, {})[game] = cls
        return cls
    return wrap


register_bot("random", "*")(RandomBot)


def levels_for(game: str) -> list[str]:
    """The bot levels that can play ``game``."""
    return [level for level, games in BOTS.items() if game in games or "*" in games]


def make_bot(level: str, game: str, seat: int, players: int,
             options: dict[str, Any] | None = None, seed: int | None = None, budget: int | None = None) -> Bot:
    """A bot of ``level`` for ``seat``; ``budget`` (playouts per decision) overrides a searching
    level's lobby budget and is refused by the levels that do not search."""
    games = BOTS.get(level, {})
    factory = games.get(game) or games.get("*")
    if factory is None:
        raise ValueError(f"no {level!r} bot for {game}: the levels are {', '.join(levels_for(game))}")
    if budget is None:
        return factory(seat, players, dict(options or {}), seed)
    if not getattr(factory, "takes_budget", False):
        raise ValueError(f"the {level!r} level does not search: it takes no budget")
    return factory(seat, players, dict(options or {}), seed, budget)  # type: ignore[call-arg]
