"""Every game's metadata for people and lobbies, built from its ``Game`` class and ``Option``s.

The one source the server's lobby, ``GET /api/games`` (the browser's lobby) and the terminal
client read. Decided here: games are listed by ``lobby_rank``, then name; the lobby offers an option at a seat count
only where it has more than one value (``Option.lobby_values``), and shows the engine's default
for that seat count first.

>>> crisp = describe(GAMES["crisp"])
>>> crisp["title"], crisp["default_players"], crisp["fixed"]
('Crisp', 4, {'clock': True})
>>> crisp["lobby"]["4"][0]
{'key': 'end_limit', 'values': [50, 100, 150], 'default': 100}
>>> [f["key"] for f in lobby_fields(GAMES["cribbage"], 4)]
['target', 'counting', 'teams', 'crib_flush', 'turn_time']
"""

from __future__ import annotations

from typing import Any

from .game import Game
from .options import NOT_FIXED
from .registry import GAMES
from .tutorial import tutorial_for


def lobby_fields(cls: type[Game], players: int) -> list[dict[str, Any]]:
    """The options the host picks at a table of ``players`` seats: key, values, default."""
    return [
        {"key": o.name, "values": list(values), "default": o.default_for(players)}
        for o in cls.OPTIONS
        if (values := o.lobby_values(players))
    ]


def fixed_options(cls: type[Game]) -> dict[str, Any]:
    """The options the lobby sets itself, whatever the host asks."""
    return {o.name: o.fixed for o in cls.OPTIONS if o.fixed is not NOT_FIXED}


def describe(cls: type[Game]) -> dict[str, Any]:
    """One game as ``GET /api/games`` serves it (docs/protocol.md)."""
    seat_counts = range(cls.min_players, cls.max_players + 1)
    return {
        "name": cls.name,
        "title": cls.title,
        "blurb": cls.blurb,
        "min_players": cls.min_players,
        "max_players": cls.max_players,
        "default_players": cls.default_players,
        "options": [{"key": o.name, "label": o.label, "kind": o.kind, "unit": o.unit, "hint": o.hint}
                    for o in cls.OPTIONS if o.label],
        "lobby": {str(n): lobby_fields(cls, n) for n in seat_counts},
        "fixed": fixed_options(cls),
        "tutorial": tutorial_for(cls.name) is not None,
    }


def catalog() -> list[dict[str, Any]]:
    """Every registered game, in the lobby's order."""
    return [describe(cls) for cls in sorted(GAMES.values(), key=lambda cls: (cls.lobby_rank, cls.name))]
