"""Server-side bot seats: a bot sees what a human in the seat would (views and its events)."""

from __future__ import annotations

import logging
import secrets

from ..bots import Bot, levels_for, make_bot
from ..game import Game
from ..views import events_for

__all__ = ["BotSeat", "levels_for", "standin_level"]

log = logging.getLogger("feltroom.server")


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
