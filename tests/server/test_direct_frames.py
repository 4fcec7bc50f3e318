"""Frames written at once (connection.py's ``_flush``, sockets.py's ``send_now``).

A connection whose socket can write a frame at once writes each loop turn's frames from one
callback; what the socket cannot take now (its transport's buffer is full) and the close go the
writer task's way, which waits. Whichever way a frame goes, the frames leave in the order they
were queued, each after the action it tells is stored, and the queue's byte bound still holds.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, cast

from feltroom.server import Limits
from feltroom.server.connection import Connection

from .served import Peer, Served, create_table


class Socket:
    """A socket that writes at once unless ``full``; notes each frame and how it went."""

    def __init__(self) -> None:
        self.full = False
        self.room = asyncio.Event()
        self.frames: list[tuple[str, str]] = []
        self.closed: int | None = None

    def send_now(self, text: str) -> bool:
        if self.full:
            return False
        self.frames.append((text, "now"))
        return True

    async def send_text(self, text: str) -> None:
        await self.room.wait()  # as the ASGI send waits for the transport
        self.frames.append((text, "waited"))

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed = code


def test_frames_keep_their_order_whichever_way_they_go() -> None:
    socket = Socket()
    flushes: list[int] = []

    async def play() -> None:
        conn = Connection(cast(Any, socket), Limits(), 0.0, "127.0.0.1",
                          before_write=lambda: flushes.append(len(socket.frames)))
        writer = asyncio.get_running_loop().create_task(conn.writer())
        await asyncio.sleep(0)  # the writer waits for a frame
        conn.send("a")
        conn.send("b")
        await asyncio.sleep(0)
        assert socket.frames == [("a", "now"), ("b", "now")]  # one turn's frames, no task step
        socket.full = True
        conn.send("c")
        conn.send("d")
        await asyncio.sleep(0.01)
        assert len(socket.frames) == 2  # the writer holds "c", waiting for the transport
        socket.full = False
        conn.send("e")  # the transport could take it, but "c" and "d" are before it
        await asyncio.sleep(0.01)
        assert len(socket.frames) == 2
        socket.room.set()
        await asyncio.sleep(0.01)
        conn.send("f")  # the writer is idle again: at once
        await asyncio.sleep(0)
        conn.close()
        await writer

    asyncio.run(play())
    assert socket.frames == [("a", "now"), ("b", "now"), ("c", "waited"), ("d", "waited"), ("e", "waited"),
                             ("f", "now")]
    assert flushes == [0, 1, 2, 2, 3, 4, 5]  # the store is flushed before every frame ("c" tried twice)
    assert socket.closed == 1000


def test_the_lobby_goes_once_at_its_place_and_the_byte_bound_holds_while_the_socket_is_full() -> None:
    socket = Socket()

    async def play() -> Connection:
        conn = Connection(cast(Any, socket), Limits(max_queue_bytes=100), 0.0, "127.0.0.1")
        writer = asyncio.get_running_loop().create_task(conn.writer())
        await asyncio.sleep(0)
        conn.send("x")
        conn.send_lobby("lobby 1")
        conn.send("y")
        conn.send_lobby("lobby 2")  # replaces the first in its place
        await asyncio.sleep(0)
        assert [t for t, _ in socket.frames] == ["x", "lobby 2", "y"]
        assert conn.queued_bytes == 0
        socket.full = True
        for _ in range(20):
            conn.send("z" * 10)  # a client that does not read: dropped past 100 bytes
        await writer
        return conn

    conn = asyncio.run(play())
    assert conn.closing and socket.closed == 1013


def test_the_rooms_sockets_write_at_once_and_a_whole_game_arrives_in_order(tmp_path: Path) -> None:
    """Under ``feltroom serve``'s uvicorn settings every socket of the room gets ``send_now``; a
    whole game against a bot arrives update by update, in order, to its result."""
    with Served(tmp_path / "room.sqlite", Limits(rate=1000, burst=1000)) as served, Peer(served.port, "ann") as ann:
        conns = [c for p in served.room.players.values() for c in p.conns]
        assert len(conns) == 1 and conns[0]._send_now is not None
        tid = create_table(ann, "krypkasino", 2, {"dealer_rounds": 1}, bots={1: "random"})
        seqs: list[int] = []
        while True:
            msg = ann.recv()
            assert msg["type"] != "error", msg
            if msg["type"] == "update":
                seqs.append(msg["seq"])
                if msg["legal"]:
                    ann.send({"type": "act", "table": tid, "seq": msg["seq"], "action": msg["legal"][0]})
            if msg["type"] == "table" and msg.get("state") == "over":
                break
        assert len(seqs) > 40 and seqs == sorted(set(seqs)), seqs
