"""Players' public pages as JSON: a profile with ratings and history, and each game's leaderboard.

A bot level is a player of its own here (``bot:heuristic``): it has ratings and a history, but
no stored player row. History pages hold 50 games, newest first; ``before`` (an ``ended``
time) pages back, and ``next`` gives the value for the following page (``null`` on the last).
"""

from __future__ import annotations

from typing import Any

from ..registry import GAMES
from .ratings import LEADERBOARD_MIN_GAMES
from .store import Store

PAGE = 50
LEADERBOARD_SIZE = 100


def profile(store: Store, player: str, before: float | None = None) -> dict[str, Any] | None:
    """``GET /api/players/{player}``; ``None`` for an unknown player."""
    if player.startswith("bot:"):
        name, registered = player, False
    else:
        row = store.get_player(player)
        if row is None:
            return None
        name, registered = row.name, row.password is not None
    ratings = {game: r.public() for game, r in store.player_ratings(player).items()}
    lines = store.history(player, before, PAGE)
    if player.startswith("bot:") and not ratings and not lines:
        return None
    games = [{"table": line.table, "game": line.game, "ended": line.ended, "rank": line.rank,
              "seats": line.result.get("names"), "scores": line.result.get("scores"),
              "winners": line.result.get("winners")} for line in lines]
    return {"player": player, "name": name, "registered": registered, "ratings": ratings, "games": games,
            "next": lines[-1].ended if len(lines) == PAGE else None}


def leaderboard(store: Store, game: str) -> dict[str, Any] | None:
    """``GET /api/leaderboard/{game}``: the top 100 by display rating among those with 10 games."""
    if game not in GAMES:
        return None
    rows = store.leaderboard(game, LEADERBOARD_MIN_GAMES, LEADERBOARD_SIZE)
    return {"game": game, "players": [{"player": p, "name": name, **r.public()} for p, name, r in rows]}
