"""The options a new table is created with: what the host picked, checked against what the lobby
offers at that seat count (``feltroom.catalog``), plus what the lobby fixes itself.

The engine then validates the values again (``ValueError`` naming the allowed values).
"""

from __future__ import annotations

from typing import Any

from ..catalog import fixed_options, lobby_fields
from ..options import format_values
from ..registry import GAMES


def lobby_options(game: str, seats: int, given: dict[str, Any]) -> dict[str, Any]:
    """The options to create the game with; ``ValueError`` naming what is allowed."""
    cls = GAMES[game]
    allowed = {f["key"]: f["values"] for f in lobby_fields(cls, seats)}
    for key, value in given.items():
        if key not in allowed:
            names = ", ".join(allowed) or "none"
            raise ValueError(f"option {key!r} is not offered for {game} with {seats} seats: the options are {names}")
        values = allowed[key]
        if not any(type(value) is type(v) and value == v for v in values):
            raise ValueError(f"option {key!r} cannot be {format_values([value])} here: allowed values are "
                             f"{format_values(values)}")
    return {**given, **fixed_options(cls)}
