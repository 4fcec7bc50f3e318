"""The owner's writes are fenced (bus.py): once this node's lease of a table has lapsed by its own
clock, every write for that table is refused before it reaches the store, and the node lets the
table go; a write that slipped through meets the store's ``(table, seq)`` key."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from feltroom.server.bus import FencedStore, LeaseLost
from feltroom.server.sqlite_store import SQLiteStore
from feltroom.server.store import TableRow


def test_a_table_write_after_the_lease_lapsed_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    store = SQLiteStore(str(tmp_path / "room.sqlite"))
    held = {"t1", "t2"}
    lost: list[str] = []
    fenced = FencedStore(store, held.__contains__, lost.append)
    row = TableRow("t1", "crisp", 2, {}, "p1", [{"player": "p1"}, {"player": None}], state="playing", seed=7)
    fenced.add_table(row)
    fenced.append_action("t1", 1, 0, "draw", 1.0)
    held.discard("t1")  # the lease lapsed
    with pytest.raises(LeaseLost):
        fenced.append_action("t1", 2, 1, "draw", 2.0)
    with pytest.raises(LeaseLost):
        fenced.save_table(replace(row, state="over"))
    with pytest.raises(LeaseLost):
        fenced.delete_table("t1")
    assert lost == ["t1", "t1", "t1"]
    assert store.actions("t1") == [(0, "draw")]
    assert [t.state for t in store.unfinished_tables()] == ["playing"]
    # the other tables of the node write as before
    fenced.add_table(TableRow("t2", "crisp", 2, {}, "p1", [{"player": "p1"}, {"player": None}], state="playing"))
    fenced.append_action("t2", 1, 0, "draw", 1.0)
    # a stale owner's action at a seq the next owner stored already is refused by the store itself
    with pytest.raises(sqlite3.IntegrityError):
        store.append_action("t2", 1, 1, "draw", 3.0)
    assert store.actions("t2") == [(0, "draw")]
    store.close()
