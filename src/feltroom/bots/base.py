"""The bot interface, the random bot, and the registry of levels."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..game import Event

#: level -> game name -> bot class (called as cls(seat, players, options, seed)); game "*" serves every game.
BOTS: dict[str, dict[str, type[Bot]]] = {}

#: what each level is to people, weakest first: (strength, one line); ``GET /api/games`` serves
#: it with each game's levels and the lobby shows it (translated in the browser's ru.js)
LEVELS: dict[str, tuple[str, str]] = {
    "random": ("beginner", "Plays any legal move: good for learning the rules."),
    "heuristic": ("casual", "Plays by rules of thumb, one move ahead."),
    # not "strong" yet: at the lobby budget it is not yet shown to beat heuristic by the margin at
    # every table (Crisp with 4 players: 31.5 % of 1,000 games against 35 %; docs/bots.md, #15)
    "search": ("experimental", "Imagines the cards it cannot see and plays the hand out; still learning."),
}


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

    @classmethod
    def covers(cls, players: int, options: dict[str, Any]) -> bool:
        """Whether this bot plays a table of ``players`` with ``options`` as itself (a level that
        would only play as another there, as ``search`` at a table its sampler refuses, is not offered
        at that table: ``levels_for``)."""
        return True

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


def levels_for(game: str, players: int | None = None, options: dict[str, Any] | None = None) -> list[str]:
    """The bot levels that can play ``game``, weakest first; given a table (``players``), only those
    that play it as themselves (``Bot.covers``).

    >>> levels_for("craits"), levels_for("craits", 8, {})
    (['random', 'heuristic', 'search'], ['random', 'heuristic'])
    """
    rank = list(LEVELS)
    found = [level for level, games in BOTS.items()
             if (factory := games.get(game) or games.get("*")) is not None
             and (players is None or factory.covers(players, dict(options or {})))]
    return sorted(found, key=lambda level: rank.index(level) if level in rank else len(rank))


def describe_levels(game: str) -> list[dict[str, str]]:
    """``game``'s bot levels for people: ``level``, ``strength`` and ``about`` (one line).

    >>> [(d["level"], d["strength"]) for d in describe_levels("cribbage")]
    [('random', 'beginner'), ('heuristic', 'casual'), ('search', 'experimental')]
    """
    out = []
    for level in levels_for(game):
        strength, about = LEVELS.get(level, (level, ""))
        out.append({"level": level, "strength": strength, "about": about})
    return out


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
