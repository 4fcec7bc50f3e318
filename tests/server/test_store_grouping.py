"""The SQLite store groups the actions of one turn of the event loop into one commit, and no
frame leaves the room before what it tells is stored (``Store.flush``, ``Connection.before_write``).

Each test reads the file through a second, independent SQLite connection: what it sees is what
a restarted room (or another node) would find."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

from feltroom.server.connection import Connection
from feltroom.server.limits import Limits
from feltroom.server.sqlite_store import SQLiteStore

from .test_store import table_row


def stored(path: Path) -> int:
    """How many actions another connection sees committed in the file."""
    with sqlite3.connect(path) as other:
        return int(other.execute("SELECT COUNT(*) FROM actions").fetchone()[0])


@pytest.fixture
def room_file(tmp_path: Path) -> Iterator[tuple[Path, SQLiteStore]]:
    """A SQLite room file with one table ``t1``, and the store on it (closed after the test)."""
    path = tmp_path / "room.sqlite"
    store = SQLiteStore(str(path))
    store.add_table(table_row("t1"))
    yield path, store
    store.close()


def test_without_a_loop_each_action_commits_alone(room_file: tuple[Path, SQLiteStore]) -> None:
    path, store = room_file
    store.append_action("t1", 1, 0, "play 5H", 1.0)
    assert stored(path) == 1
    store.close()


def test_the_actions_of_one_loop_turn_commit_together_at_its_end(room_file: tuple[Path, SQLiteStore]) -> None:
    path, store = room_file

    async def turn() -> tuple[int, int]:
        for seq in (1, 2, 3):
            store.append_action("t1", seq, 0, "play 5H", 1.0)
        before = stored(path)
        await asyncio.sleep(0)  # the turn ends: its commit runs
        return before, stored(path)

    assert asyncio.run(turn()) == (0, 3)
    assert store.actions("t1") == [(0, "play 5H")] * 3
    store.close()


def test_flush_commits_the_turns_actions_at_once(room_file: tuple[Path, SQLiteStore]) -> None:
    path, store = room_file

    async def turn() -> int:
        store.append_action("t1", 1, 0, "play 5H", 1.0)
        store.flush()
        return stored(path)

    assert asyncio.run(turn()) == 1
    store.close()


def test_a_finish_or_new_ratings_in_a_turn_with_actions_commit_them_first(room_file: tuple[Path, SQLiteStore]) -> None:
    """``finish`` and ``set_ratings`` open their own transaction: the turn's must not be in the way."""
    path, store = room_file

    async def turn() -> int:
        store.append_action("t1", 1, 0, "play 5H", 1.0)
        store.finish(table_row("t1", state="over", ended=2.0), {"result": "done"})
        store.set_ratings("crisp", {})
        return stored(path)

    assert asyncio.run(turn()) == 1
    assert store.record("t1") == {"result": "done"}
    store.close()
    store.close()  # twice: nothing pending, nothing to do


class Socket:
    """A socket that notes, for each frame, how many actions another connection saw stored then."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.frames: list[tuple[str, int]] = []

    async def send_text(self, text: str) -> None:
        self.frames.append((text, stored(self.path)))

    async def close(self, code: int = 1000, reason: str = "") -> None:
        pass


def test_a_frame_leaves_only_after_the_action_it_tells_is_stored(room_file: tuple[Path, SQLiteStore]) -> None:
    """The writer was woken by an earlier frame of the same turn, before the action was stored (its
    step runs before the turn's commit): it must commit before it writes the later frame."""
    path, store = room_file
    socket = Socket(path)

    async def play() -> None:
        conn = Connection(cast(Any, socket), Limits(), 0.0, "127.0.0.1", before_write=store.flush)
        writer = asyncio.get_running_loop().create_task(conn.writer())
        await asyncio.sleep(0)  # the writer waits for a frame
        conn.send('{"type":"chat"}')  # wakes the writer: its step is due before anything below
        store.append_action("t1", 1, 0, "play 5H", 1.0)  # the turn's commit is due after it
        conn.send('{"type":"update","seq":1}')
        await asyncio.sleep(0.01)
        conn.close()
        await writer

    asyncio.run(play())
    assert socket.frames == [('{"type":"chat"}', 1), ('{"type":"update","seq":1}', 1)]
    store.close()
