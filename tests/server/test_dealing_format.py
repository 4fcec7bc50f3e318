"""A table remembers the dealing of its game (``TableRow.extra["format"]``, docs/dealing.md) and a
restarted room resumes it with that dealing; a table stored before formats existed is format 1."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import feltroom
from feltroom.game import Game

from .conftest import Room_, start_table


def _stored_extra(room: Room_, tid: str) -> dict[str, Any]:
    with sqlite3.connect(room.db) as db:
        extra: dict[str, Any] = json.loads(db.execute("SELECT extra FROM tables WHERE id = ?", (tid,)).fetchone()[0])
    return extra


def test_a_table_stores_its_format_and_resumes_with_it(make_room: Any) -> None:
    first: Room_ = make_room(db="same.sqlite")
    ann, bob = first.client("ann"), first.client("bob")
    tid = start_table(first, [ann, bob])
    game = first.table(tid).game
    assert game is not None and game.format == 2 and _stored_extra(first, tid) == {"format": 2}
    view = game.view(None)
    first.close()

    second: Room_ = make_room(db="same.sqlite")
    again = second.table(tid).game
    assert again is not None and again.format == 2 and again.view(None) == view


def test_a_table_stored_without_a_format_resumes_as_format_1(make_room: Any) -> None:
    """As a room before format 2 left it: no ``format`` in ``extra``, actions dealt by random.Random."""
    first: Room_ = make_room(db="same.sqlite")
    ann, bob = first.client("ann"), first.client("bob")
    tid = start_table(first, [ann, bob])
    table = first.table(tid)
    assert table.game is not None and table.seed is not None
    old: Game = feltroom.new_game("crisp", 2, seed=table.seed, options=table.options, format=1)
    for _ in range(3):  # what the old room would have stored
        seat = old.to_act[0] if old.to_act else feltroom.CLOCK
        old.apply(seat, old.legal_actions(seat)[0])
    first.close()
    with sqlite3.connect(first.db) as db:
        db.execute("UPDATE tables SET extra = '{}' WHERE id = ?", (tid,))
        db.executemany("INSERT INTO actions (table_id, seq, seat, action, at) VALUES (?, ?, ?, ?, 0)",
                       [(tid, i, json.dumps(s), a) for i, (s, a) in enumerate(old.actions, start=1)])

    second: Room_ = make_room(db="same.sqlite")
    resumed = second.table(tid)
    assert resumed.game is not None and resumed.game.format == 1
    assert resumed.game.view(None) == old.view(None) and resumed.game.log == old.log
    assert resumed.record()["format"] == 1
    resumed.save()
    assert _stored_extra(second, tid) == {"format": 1}
