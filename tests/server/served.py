"""A real room for tests: ``create_app`` under uvicorn on 127.0.0.1 (a free port), in a thread of
the test process, on the real clock — so a test can set low limits, read the room's objects and
inject faults, while its clients speak real WebSockets over loopback. (``live.py`` runs the room
in a process of its own, for what only a separate process shows: memory, descriptors, its log.)

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as d, Served(pathlib.Path(d) / "r.sqlite") as served:
...     with Peer(served.port, "ann") as ann:
...         ann.request({"type": "ping"})["type"]
'pong'
"""

from __future__ import annotations

import itertools
import json
import threading
import time
import urllib.request
from pathlib import Path
from types import TracebackType
from typing import Any

import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from feltroom.server import Limits, create_app
from feltroom.server.address import TrustedProxies
from feltroom.server.leases import Leases
from feltroom.server.room import Room
from feltroom.server.sockets import uvicorn_config

_ids = itertools.count(1)


class Served:
    """The room served by uvicorn in a thread; ``with Served(db, …) as s`` starts and stops it.
    ``db``: a SQLite file, or a PostgreSQL URL; with ``redis`` (a URL) it is one node of a cluster."""

    def __init__(self, db: Path | str, limits: Limits | None = None, *, grace: float = 60.0,
                 bot_delay: float = 0.0, bot_workers: int = 1, redis: str | None = None,
                 leases: Leases | None = None) -> None:
        limits = limits or Limits()
        self.app = create_app(str(db), limits=limits, grace=grace, bot_delay=bot_delay, bot_workers=bot_workers,
                              redis=redis, leases=leases)
        # the production settings (connection limits included), as `feltroom serve` runs them
        self.server = uvicorn.Server(uvicorn_config(self.app, limits, TrustedProxies(()), port=0))
        self.thread = threading.Thread(target=self.server.run, name="uvicorn", daemon=True)
        self.port = 0

    def __enter__(self) -> Served:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise AssertionError("the server did not start")
            time.sleep(0.01)
        self.port = self.server.servers[0].sockets[0].getsockname()[1]
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.server.should_exit = True
        self.thread.join(20)

    @property
    def room(self) -> Room:
        room: Room = self.app.state.room
        return room

    def get(self, path: str) -> tuple[int, Any]:
        """``GET path`` → (status, JSON body)."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())


def eventually(check: Any, timeout: float = 10.0, what: str = "the condition") -> None:
    """Poll ``check()`` until it is true (the server works in its own thread, on the real clock)."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout} s")
        time.sleep(0.02)


class Peer:
    """One client socket; ``hello`` on open unless ``name`` is None. Keeps every message it got."""

    def __init__(self, port: int, name: str | None = "ann", token: str | None = None,
                 headers: dict[str, str] | None = None) -> None:
        # max_queue=None: a test that leaves updates unread must not stall the closing handshake
        self.ws: ClientConnection = connect(f"ws://127.0.0.1:{port}/ws", open_timeout=5, max_queue=None,
                                            additional_headers=headers).__enter__()  # closed by close()
        self.inbox: list[dict[str, Any]] = []
        self.updates: dict[str, dict[str, Any]] = {}
        self.tables: dict[str, dict[str, Any]] = {}
        self.token = token
        self.player: str | None = None
        if name is not None:
            self.welcome = self.request({"type": "hello", "protocol": 1, "name": name, "token": token})
            assert self.welcome["type"] == "welcome", self.welcome
            self.token, self.player = self.welcome["token"], self.welcome["player"]

    def __enter__(self) -> Peer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.ws.close()

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.inbox.append(msg)
        if msg.get("type") == "update":
            self.updates[msg["table"]] = msg
        elif msg.get("type") == "table":
            self.tables[msg["table"]] = msg
        return msg

    def request(self, msg: dict[str, Any], timeout: float = 10) -> dict[str, Any]:
        """Send ``msg`` with a fresh id; the reply with that id (the messages before it are kept)."""
        mid = next(_ids)
        self.send({**msg, "id": mid})
        while True:
            reply = self.recv(timeout)
            if reply.get("id") == mid:
                return reply

    def recv_type(self, kind: str) -> dict[str, Any]:
        """The next message of type ``kind`` (none of those before it may be an error)."""
        while True:
            msg = self.recv()
            if msg["type"] == kind:
                return msg
            assert msg["type"] != "error", msg

    def wait_seq(self, tid: str, seq: int, timeout: float = 10) -> None:
        """Read until an update of table ``tid`` at ``seq`` or later has come."""
        end = time.monotonic() + timeout
        while self.updates.get(tid, {}).get("seq", -1) < seq:
            self.recv(timeout=max(0.01, end - time.monotonic()))

    def sync(self) -> None:
        """Read every message the server sent before a ping's pong."""
        self.request({"type": "ping"})

    def closed_with(self, timeout: float = 10) -> int | None:
        """Read until the server closes the socket; its close code."""
        try:
            while True:
                self.recv(timeout)
        except ConnectionClosed as e:
            return e.rcvd.code if e.rcvd else None


def create_table(host: Peer, game: str, seats: int, options: dict[str, Any] | None = None,
                 bots: dict[int, str] | None = None, start: bool = True) -> str:
    """``host`` creates a table, seats ``bots`` and (by default) starts it; the table id."""
    t = host.request({"type": "create", "game": game, "seats": seats, "options": options or {}})
    assert t["type"] == "table", t
    tid: str = t["table"]
    for seat, level in (bots or {}).items():
        r = host.request({"type": "bot", "table": tid, "seat": seat, "level": level})
        assert r["type"] == "table", r
    if start:
        r = host.request({"type": "start", "table": tid})
        assert r["type"] == "table", r
    return tid
