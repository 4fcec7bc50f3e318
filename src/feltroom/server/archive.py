"""Games played outside the room (``feltroom sim --db``) stored as the room stores its own: a
finished table with its record, each seat's result and the new ratings, in one transaction —
so that the bot levels get ratings from thousands of games and show on the leaderboard."""

from __future__ import annotations

from ..game import Game
from .ratings import result_line, settle_game
from .store import DuplicateId, Store, TableRow, new_id


def archive_bot_game(store: Store, game: Game, levels: list[str], started: float, ended: float) -> str:
    """Store the finished ``game`` played by bots of ``levels`` (one per seat); its table id."""
    players = [f"bot:{level}" for level in levels]
    seats = [{"player": None, "bot": level, "left": False, "took_back": False} for level in levels]
    for _ in range(8):
        row = TableRow(new_id("t"), game.name, game.players, dict(game.options), players[0], seats, "playing",
                       game.seed, None, None, started, started, None)
        try:
            store.add_table(row)
            break
        except DuplicateId:
            continue
    else:
        raise RuntimeError("could not draw a new table id")
    row.state, row.ended, row.extra = "over", ended, {"result": result_line(game, list(players))}
    record = game.record
    record["meta"] = {**record.get("meta", {}), "table": row.id, "names": players, "bots": levels,
                      "started": started, "ended": ended, "simulated": True}
    store.finish(row, record, settle_game(store, game, players))
    return row.id
