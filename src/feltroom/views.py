"""The one redaction point: which events and views reach a seat or a spectator.

The engine addresses every event (``to``: ``"all"`` or a list of seats) and builds every
view for a given seat. Everything that leaves the engine for a person or a bot — the
server, the CLI, the bots, published logs — goes through ``events_for``, so no consumer
filters events by hand.
"""

from __future__ import annotations

from collections.abc import Iterable

from .game import Event


def events_for(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events of ``events`` that ``seat`` may receive, in order."""
    if seat is None:
        return [e for e in events if e["to"] == "all"]
    return [e for e in events if e["to"] == "all" or seat in e["to"]]

