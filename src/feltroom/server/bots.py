"""Server-side bot seats: a bot sees what a human in the seat would (views and its events)."""

from __future__ import annotations

import importlib
import logging
import secrets
import sys
import types
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..game import Game
from ..views import events_for

if TYPE_CHECKING:
    from ..bots.base import Bot

log = logging.getLogger("feltroom.server")


def _import_bots() -> types.ModuleType:
    """``feltroom.bots``; if a per-game bot module it registers is not written yet, the
    room goes on without that level (the package would otherwise fail to import)."""
    for _ in range(8):
        try:
            return importlib.import_module("feltroom.bots")
        except ImportError as e:
            missing = getattr(e, "name", None) or ""
            text = str(e)
            name = next((f"feltroom.bots.{w.strip(chr(39))}" for w in text.split() if w.startswith("'")), missing)
            if not name.startswith("feltroom.bots.") or name in sys.modules:
                raise
            log.warning("bot module %s is missing; its bot level is not offered", name)
            sys.modules[name] = types.ModuleType(name)
    return importlib.import_module("feltroom.bots")


_bots = _import_bots()
levels_for: Callable[[str], list[str]] = _bots.levels_for
make_bot: Callable[..., Bot] = _bots.make_bot


class BotSeat:
    """Drives one ``Bot`` for one seat: feeds it the seat's events, asks it for an action."""

    def __init__(self, level: str, game: Game, seat: int) -> None:
        self.level = level
        self.seat = seat
        self.bot: Bot = make_bot(level, game.name, seat, game.players, dict(game.options),
                                 seed=secrets.randbelow(2**53))
        self.seen = 0

    def choose(self, game: Game) -> str:
        log_ = game.log
        if len(log_) > self.seen:
            self.bot.observe(events_for(log_[self.seen:], self.seat))
            self.seen = len(log_)
        legal = game.legal_actions(self.seat)
        try:
            action = self.bot.choose(game.view(self.seat) if self.bot.needs_view else None, legal)
        except Exception:  # a faulty bot must not stop the table
            log.exception("bot %s failed in seat %s; playing the first legal action", self.level, self.seat)
            return legal[0]
        return action if game.can_apply(self.seat, action) else legal[0]


def standin_level(game: str) -> str:
    """The level that plays for an absent player."""
    levels = levels_for(game)
    return "heuristic" if "heuristic" in levels else "random"
