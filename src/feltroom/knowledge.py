"""What one seat knows, and full game states drawn consistently with it (the engine layer).

Search needs states, but a bot may only know what a human in its seat knows. A
``Knowledge`` tracker is fed exactly that: the events delivered to the seat
(``feltroom.views.events_for``) and, if the driver builds it, the seat's view. From a
tracker, ``sample_state`` draws a whole ``Game`` in which every card the seat cannot know
is placed uniformly at random among the placements still possible. It never takes the
true game as input, so a bot built on it cannot cheat.

Each rules module that supports sampling registers a tracker class for its game with
``register_knowledge``; this module only holds the contract and the registry.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from .game import Event, Game


class Knowledge:
    """One seat's knowledge of one game, fed with what the seat was shown.

    Per game, subclasses implement ``observe`` (and ``see`` where the view adds to what
    the events say) and ``sample``. ``players`` and ``options`` are the table's, as the
    seat knows them from the lobby.
    """

    game: ClassVar[str]

    def __init__(self, seat: int, players: int, options: Mapping[str, Any] | None = None) -> None:
        self.seat = seat
        self.players = players
        self.options = dict(options or {})

    def observe(self, events: Sequence[Event]) -> None:
        """Take in the events this seat was shown since the last call, in order."""
        raise NotImplementedError

    def see(self, view: Mapping[str, Any]) -> None:
        """Take in the seat's current view (optional: a tracker may need only the events)."""

    def sample(self, rng: random.Random) -> Game:
        """A full, legal game state consistent with everything observed, hidden cards uniform.

        Its ``view(self.seat)`` equals the seat's real view, and its legal actions for the
        seat equal the real ones. Two real games that differ only in cards hidden from the
        seat give equal samples for equal ``rng`` states.
        """
        raise NotImplementedError


#: game name -> tracker class
KNOWLEDGE: dict[str, type[Knowledge]] = {}


def register_knowledge(cls: type[Knowledge]) -> type[Knowledge]:
    KNOWLEDGE[cls.game] = cls
    return cls


def tracker(game: str, seat: int, players: int, options: Mapping[str, Any] | None = None) -> Knowledge:
    """A fresh knowledge tracker for ``seat`` at a table of ``game``."""
    try:
        cls = KNOWLEDGE[game]
    except KeyError:
        raise ValueError(f"no knowledge sampling for {game!r}: {', '.join(sorted(KNOWLEDGE)) or 'none yet'}") from None
    return cls(seat, players, options)


def sample_state(
    game: str, players: int, options: Mapping[str, Any] | None, knowledge: Knowledge, rng: random.Random
) -> Game:
    """A game state drawn from ``knowledge`` (see ``Knowledge.sample``)."""
    if knowledge.game != game or knowledge.players != players:
        raise ValueError(f"this tracker follows {knowledge.game} for {knowledge.players}, not {game} for {players}")
    return knowledge.sample(rng)

