"""The one redaction point: which events and views reach a seat or a spectator.

The engine addresses every event (``to``: ``"all"`` or a list of seats) and builds every
view for a given seat. Everything that leaves the engine for a person or a bot — the
server, the CLI, the bots, published logs — goes through ``events_for``, so no consumer
filters events by hand.

A view reaches the server in two parts: ``public_view``, what a spectator may see and so
every seat alike (encoded once per update for every recipient), and ``own_view``, the rest
of one seat's view. The two never share a key, and together they are ``game.view(seat)``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .game import Event, Game


def events_for(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events of ``events`` that ``seat`` may receive, in order."""
    if seat is None:
        return [e for e in events if e["to"] == "all"]
    return [e for e in events if e["to"] == "all" or seat in e["to"]]


def public_view(game: Game) -> dict[str, Any]:
    """The part of every seat's view that a spectator sees too (``{}`` for a game that builds
    whole views only)."""
    return game.public_view()


def own_view(game: Game, seat: int | None) -> dict[str, Any]:
    """The rest of ``seat``'s view (``None``: a spectator's): ``game.view(seat)`` is
    ``public_view(game)`` and this."""
    return game.own_view(seat)
