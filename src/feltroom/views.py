"""The one redaction point: which events and views reach a seat or a spectator.

The engine addresses every event (``to``: ``"all"`` or a list of seats) and builds every
view for a given seat. Everything that leaves the engine for a person or a bot — the
server, the CLI, the bots, published logs — goes through these functions, so no consumer
filters events by hand.
"""

from __future__ import annotations

from collections.abc import Iterable

from .game import Event, Game


def can_see(event: Event, seat: int | None) -> bool:
    """Whether ``seat`` (``None``: a spectator) may receive ``event``."""
    to = event["to"]
    return to == "all" or (seat is not None and seat in to)


def events_for(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events of ``events`` that ``seat`` may receive, in order."""
    if seat is None:
        return [e for e in events if e["to"] == "all"]
    return [e for e in events if e["to"] == "all" or seat in e["to"]]


def log_for(game: Game, seat: int | None, start: int = 0) -> list[Event]:
    """The game's log from ``start`` as ``seat`` may see it."""
    return events_for(game.log[start:], seat)

