"""Find a game's terminal support module (``feltroom.cli.games.<game>``), with fallbacks."""

from __future__ import annotations

import importlib
import json
from types import ModuleType
from typing import Any

from ..registry import GAMES


def default_players(name: str) -> int:
    """The seats ``play`` and ``sim`` use without ``--players``: the game's own default (the lobby's)."""
    return GAMES[name].default_players


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
