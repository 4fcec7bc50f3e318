"""Replays of finished games for the web client's viewer (``GET /api/games/{table}/replay``).

A replay is the stored record (the same one ``/record`` publishes) played again from its seed,
with what one seat — or a spectator — saw at every step: step 0 is the deal (the view before
the first action and the deal's events), step *k* the view after action *k* and the events that
action produced. Views come from ``game.view(seat)`` and events pass through
``views.events_for``, so a seat's replay shows exactly what that seat saw live, never another
seat's hidden cards. Action strings are left out: some of them name hidden cards (a Cribbage
discard), and the events already say what each action did in public.

Beyond the spec this module decides the paging that bounds a request's cost: a page holds at
most ``Limits.replay_page`` steps (500 by default); ``from`` picks the first step and ``count``
(1 to the limit, default the limit) how many. Only the page's views are built, but the game is
replayed from the start up to the page's end, so a request costs at most the record's actions
applied once plus ``replay_page`` views.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..game import CLOCK
from ..registry import new_game
from ..views import events_for


class ReplayError(ValueError):
    """A bad query (seat, from, count): the message says which bound it broke."""


def parse_int(query: Mapping[str, str], key: str, default: int | None) -> int | None:
    raw = query.get(key)
    if raw is None or raw == "":
        return default
    try:
        return int(raw, 10)
    except ValueError:
        raise ReplayError(f"{key} must be an integer, not {raw!r}") from None


def seats_of(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Who sat where: names and bot levels from the record's meta (player ids when it has them)."""
    meta = record.get("meta") or {}
    n = record["players"]
    names = list(meta.get("names") or [None] * n)
    bots = list(meta.get("bots") or [None] * n)
    players = list(meta.get("players") or [None] * n)
    out = []
    for i in range(n):
        bot = bots[i] if i < len(bots) else None
        player = players[i] if i < len(players) else None
        out.append({"seat": i, "name": names[i] if i < len(names) else None,
                    "player": player if player is not None else (f"bot:{bot}" if bot else None), "bot": bot})
    return out


def replay_page(record: Mapping[str, Any], seat: int | None, start: int, count: int | None,
                page_limit: int) -> dict[str, Any]:
    """Steps ``start`` … ``start + count - 1`` of ``record`` as ``seat`` saw them.

    Raises ``ReplayError`` for a seat that is not at the table, a ``start`` past the last step,
    or a ``count`` outside 1 … ``page_limit``.
    """
    players = record["players"]
    if seat is not None and not 0 <= seat < players:
        raise ReplayError(f"no seat {seat}: the seats are 0–{players - 1} (or none: the public view)")
    actions = record["actions"]
    total = len(actions) + 1
    if not 0 <= start < total:
        raise ReplayError(f"from must be 0–{total - 1}: the game has {total} steps")
    if count is None:
        count = page_limit
    if not 1 <= count <= page_limit:
        raise ReplayError(f"count must be 1–{page_limit}: a replay page holds at most {page_limit} steps")
    end = min(total, start + count)
    game = new_game(record["name"], players=players, seed=record["seed"], options=record.get("options"),
                    deck=record.get("deck"))
    steps: list[dict[str, Any]] = []
    if start == 0:
        steps.append({"seq": 0, "view": game.view(seat), "events": events_for(game.log, seat)})
    for k in range(1, end):
        who, action = actions[k - 1]
        new = game.apply(CLOCK if who == CLOCK else who, action)
        if k >= start:
            steps.append({"seq": k, "view": game.view(seat), "events": events_for(new, seat)})
    meta = record.get("meta") or {}
    return {
        "table": meta.get("table"), "game": record["name"], "players": players, "options": record.get("options"),
        "seat": seat, "seats": seats_of(record), "abandoned": bool(meta.get("abandoned")),
        "started": meta.get("started"), "ended": meta.get("ended"),
        "total": total, "from": start, "limit": page_limit, "steps": steps,
        "next": end if end < total else None,
    }
