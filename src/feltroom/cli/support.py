"""Find a game's terminal support module (``feltroom.cli.games.<game>``), with fallbacks."""

from __future__ import annotations

import importlib
import json
from types import ModuleType
from typing import Any

from ..bots import levels_for
from ..registry import GAMES


def default_players(name: str) -> int:
    """The seats ``play`` and ``sim`` use without ``--players``: the game's own default (the lobby's)."""
    return GAMES[name].default_players


def check_levels(game: str, players: int, options: dict[str, Any], levels: list[str]) -> None:
    """Refuse a bot level that cannot play the table, or would play it only as another level (``search``
    at two-deck Craits while its sampler is off): as the room, so that no win rate or rating is put
    under a level that did not play.

    >>> check_levels("craits", 8, {}, ["heuristic", "search"])
    Traceback (most recent call last):
    ...
    ValueError: no 'search' bot for craits at 8 players with these options: the levels are random, heuristic
    """
    offered = levels_for(game, players, options)
    for level in levels:
        if level not in offered:
            raise ValueError(f"no {level!r} bot for {game} at {players} players with these options: "
                             f"the levels are {', '.join(offered)}")


def game_support(name: str) -> ModuleType | None:
    path = f"feltroom.cli.games.{name}"
    try:
        return importlib.import_module(path)
    except ModuleNotFoundError as e:
        if e.name != path:
            raise
        return None


def render(name: str, view: dict[str, Any]) -> str:
    module = game_support(name)
    if module is not None and hasattr(module, "render"):
        return str(module.render(view))
    return json.dumps(view, indent=1)


def describe(name: str, event: dict[str, Any], seat: int | None) -> str | None:
    module = game_support(name)
    if module is not None and hasattr(module, "describe"):
        line = module.describe(event, seat)
        return None if line is None else str(line)
    fields = {k: v for k, v in event.items() if k not in ("type", "to")}
    return f"{event['type']}: {json.dumps(fields)}"
