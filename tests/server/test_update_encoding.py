"""The ``update`` a seat or a spectator gets, encoded from parts shared by every recipient (the
public part of the view, each event, the deadlines), is the message built whole for that
recipient: the same JSON as ``{"view": game.view(seat), "legal": ..., "events": events_for(...)}``.

A real room on a SQLite file, four seated players and a spectator behind connections without a
socket (what bench/move_path.py drives) play a whole game of random legal moves; after each step
every queued text is parsed and compared with the message built whole from the table's state.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from feltroom.server import FakeClock, Limits
from feltroom.server.connection import Connection
from feltroom.server.room import Room
from feltroom.server.store import open_store
from feltroom.server.table import Table
from feltroom.views import events_for

OPTIONS: dict[str, dict[str, Any]] = {"crisp": {"end_limit": 50}, "cribbage": {"target": 61}, "krypkasino": {},
                                      "craits": {}}


def whole_update(table: Table, seat: int | None, start: int) -> dict[str, Any]:
    """The update for ``seat`` after the events from ``start``, every part built for it alone."""
    game = table.game
    assert game is not None
    return {"type": "update", "table": table.id, "seq": len(game.actions), "seat": seat,
            "view": game.view(seat), "legal": game.legal_actions(seat) if seat is not None else [],
            "events": events_for(game.log[start:], seat),
            "deadlines": [d.public() for d in sorted(table.deadlines.values())],
            "now": round(table.services.clock.now(), 3)}


async def play(game: str, tmp: Path, moves: int) -> str:
    """Play random moves to the end of the game (at most ``moves``); return the table's state."""
    limits = Limits(new_players_per_minute=10**6, new_tables_per_hour=10**6, rate=10**6, burst=10**6)
    rng = random.Random(7)
    clock = FakeClock()
    room = Room(open_store(str(tmp / "room.sqlite")), clock, limits, grace=10**6, bot_delay=0)
    conns = [Connection(None, limits, clock.now(), "127.0.0.1") for _ in range(5)]
    for i, c in enumerate(conns):
        await room.receive(c, json.dumps({"type": "hello", "protocol": 1, "name": f"p{i}", "token": None}), 0.0)
    seated, watcher = conns[:4], conns[4]
    await room.receive(seated[0], json.dumps({"type": "create", "game": game, "seats": 4,
                                              "options": OPTIONS[game]}), 0.0)
    table = next(iter(room.tables.values()))
    for c in seated[1:]:
        await room.receive(c, json.dumps({"type": "join", "table": table.id}), 0.0)
    await room.receive(watcher, json.dumps({"type": "watch", "table": table.id}), 0.0)
    await room.receive(seated[0], json.dumps({"type": "start", "table": table.id}), 0.0)
    for c in conns:
        c.queue.clear()
        c.queued_bytes = 0
    for _ in range(moves):
        if table.state != "playing":
            break
        assert table.game is not None
        start = len(table.game.log)
        actors = [s for s in range(4) if table.game.legal_actions(s)]
        sender: Connection | None = None
        if actors:
            seat = rng.choice(actors)
            sender = seated[seat]
            await room.receive(sender, json.dumps({"type": "act", "table": table.id, "seq": table.seq, "id": 5,
                                                   "action": rng.choice(table.game.legal_actions(seat))}),
                               clock.now())
        else:  # only the clock moves the game on
            clock.set(min(d.at for d in table.deadlines.values()) + 0.001, wake=False)
            table.run_due(clock.now())
        for who, c in [*enumerate(seated), (None, watcher)]:
            got = [json.loads(t) for t in c.queue if t is not None]
            c.queue.clear()
            c.queued_bytes = 0
            updates = [m for m in got if m["type"] == "update"]
            assert updates, f"seat {who} got no update"
            # several applies in one step (due CLOCK actions first): the last update is the table now
            events = [e for u in updates for e in u["events"]]
            last = updates[-1]
            want = whole_update(table, who, start)
            assert events == want.pop("events")
            last.pop("events")
            assert last.pop("id", None) == (5 if c is sender else None)  # the answer to the sender's act
            assert last == want, f"{game}: seat {who}'s update at seq {want['seq']} differs"
    return table.state


@pytest.mark.parametrize("game", ["cribbage", "crisp", "krypkasino",
                                  pytest.param("craits", marks=pytest.mark.slow)])  # a longer game
def test_the_shared_encoding_is_the_whole_message_for_each_recipient(game: str, tmp_path: Path) -> None:
    assert asyncio.run(play(game, tmp_path, 3000)) == "over"
