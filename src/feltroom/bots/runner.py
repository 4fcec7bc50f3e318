"""Drive a game with bots to the end, as simulations, tests and benchmarks do."""

from __future__ import annotations

from collections.abc import Sequence

from ..game import CLOCK, Game
from ..views import events_for
from .base import Bot


def play_out(game: Game, bots: Sequence[Bot], max_actions: int = 1_000_000) -> Game:
    """Play ``game`` to its end: each bot acts for its seat; with nobody to act, the
    first CLOCK action applies (a clockless driver may apply them whenever it chooses)."""
    seen = [0] * game.players
    for _ in range(max_actions):
        if game.is_over:
            for seat, bot in enumerate(bots):  # the end: everyone sees the final events
                bot.observe(events_for(game.log[seen[seat]:], seat))
            return game
        seats = game.to_act
        if not seats:
            game.apply(CLOCK, game.legal_actions(CLOCK)[0])
            continue
        seat = seats[0]
        bot = bots[seat]
        log = game.log
        if len(log) > seen[seat]:
            bot.observe(events_for(log[seen[seat]:], seat))
            seen[seat] = len(log)
        legal = game.legal_actions(seat)
        game.apply(seat, bot.choose(game.view(seat) if bot.needs_view else None, legal))
    raise RuntimeError(f"{game.name} did not end within {max_actions} actions")
