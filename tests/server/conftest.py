"""Fixtures for the room's tests: an in-process app on a fake clock, and test clients."""

from __future__ import annotations

import hashlib
import itertools
import json
import random
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import contextlib

import feltroom
import feltroom.server.table as table_mod
from feltroom.server import FakeClock, Limits, create_app
from feltroom.server.pg_local import LocalPostgres, PostgresMissing
from feltroom.server.redis_local import LocalRedis, RedisMissing
from feltroom.server.room import Room
from feltroom.server.table import Table

_ids = itertools.count(1)


class Client:
    """One WebSocket to the app; keeps every message it received (as text and as JSON)."""

    def __init__(self, tc: TestClient, name: str = "ann", token: str | None = None, hello: bool = True) -> None:
        self._cm = tc.websocket_connect("/ws")
        self.ws = self._cm.__enter__()
        self.texts: list[str] = []
        self.inbox: list[dict[str, Any]] = []
        self.token: str | None = token
        self.player: str | None = None
        self.updates: dict[str, dict[str, Any]] = {}
        self.closed = False
        if hello:
            welcome = self.request({"type": "hello", "protocol": 1, "name": name, "token": token})
            assert welcome["type"] == "welcome", welcome
            self.welcome = welcome
            self.token = welcome["token"]
            self.player = welcome["player"]

    def send(self, msg: dict[str, Any] | str) -> None:
        self.ws.send_text(msg if isinstance(msg, str) else json.dumps(msg))

    def recv(self) -> dict[str, Any]:
        text = self.ws.receive_text()
        msg: dict[str, Any] = json.loads(text)
        self.texts.append(text)
        self.inbox.append(msg)
        if msg.get("type") == "update":
            self.updates[msg["table"]] = msg
        return msg

    def request(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Send ``msg`` with a fresh id and return the reply carrying that id (others are kept)."""
        mid = next(_ids)
        self.send({**msg, "id": mid})
        while True:
            reply = self.recv()
            if reply.get("id") == mid:
                return reply

    def sync(self) -> list[dict[str, Any]]:
        """Every message sent to this socket so far (a ping's pong comes after them)."""
        start = len(self.inbox)
        mid = next(_ids)
        self.send({"type": "ping", "id": mid})
        while True:
            msg = self.recv()
            if msg.get("type") == "pong" and msg.get("id") == mid:
                return self.inbox[start:-1]

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._cm.__exit__(None, None, None)


class Room_:
    """An app on a fake clock with helpers to reach the server side."""

    def __init__(self, tc: TestClient, clock: FakeClock, db: Path) -> None:
        self.tc = tc
        self.clock = clock
        self.db = db
        self.clients: list[Client] = []

    @property
    def room(self) -> Room:
        room: Room = self.tc.app.state.room  # type: ignore[attr-defined]
        return room

    def table(self, tid: str) -> Table:
        return self.room.tables[tid]

    def client(self, name: str = "ann", token: str | None = None, hello: bool = True) -> Client:
        c = Client(self.tc, name, token, hello)
        self.clients.append(c)
        return c

    def close(self) -> None:
        for c in self.clients:
            with contextlib.suppress(Exception):
                c.close()
        self.tc.__exit__(None, None, None)


@pytest.fixture
def make_room(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    opened: list[Room_] = []
    seeds = itertools.count(2**52 + 1)  # reproducible deals (the server draws them from secrets)

    def seed_salt() -> tuple[int, str]:
        seed = next(seeds)
        return seed, hashlib.sha256(str(seed).encode()).hexdigest()[:32]

    monkeypatch.setattr(table_mod, "new_seed_salt", seed_salt)

    def make(limits: Limits | None = None, grace: float = 60.0, db: str = "room.sqlite") -> Room_:
        clock = FakeClock(1_000_000.0)
        limits = limits or Limits(rate=1e6, burst=1e6)
        app = create_app(str(tmp_path / db), clock=clock, limits=limits, grace=grace, bot_delay=0)
        tc = TestClient(app)
        tc.__enter__()
        r = Room_(tc, clock, tmp_path / db)
        opened.append(r)
        return r

    yield make
    for r in opened:
        r.close()


@pytest.fixture
def room(make_room: Any) -> Room_:
    r: Room_ = make_room()
    return r


def start_table(room: Room_, clients: list[Client], game: str = "crisp", options: dict[str, Any] | None = None,
                bots: dict[int, str] | None = None, seats: int | None = None) -> str:
    """The first client creates a table, the others join in order, bots fill ``bots``; start."""
    host = clients[0]
    n = seats or len(clients) + len(bots or {})
    t = host.request({"type": "create", "game": game, "seats": n, "options": options or {}})
    assert t["type"] == "table", t
    tid: str = t["table"]
    for c in clients[1:]:
        r = c.request({"type": "join", "table": tid})
        assert r["type"] == "table", r
    for seat, level in (bots or {}).items():
        r = host.request({"type": "bot", "table": tid, "seat": seat, "level": level})
        assert r["type"] != "error", r
    r = host.request({"type": "start", "table": tid})
    assert r["type"] != "error", r
    for c in clients:
        c.sync()
    return tid


def seed_where(game: str, players: int, options: dict[str, Any], ok: Any, tries: int = 500) -> int:
    """A seed whose new game satisfies ``ok(game)``."""
    for seed in range(tries):
        g = feltroom.new_game(game, players=players, seed=seed, options=options)
        if ok(g):
            return seed
    raise AssertionError("no such seed")


def random_action(rng: random.Random, updates: list[dict[str, Any]]) -> tuple[int, str] | None:
    choices = [(i, a) for i, u in enumerate(updates) for a in u["legal"]]
    return rng.choice(choices) if choices else None


def wait_seq(clients: list[Client], tid: str, seq: int, tries: int = 200) -> None:
    """Sync until every client has seen an update at ``seq`` or later (a timer task applies it)."""
    for c in clients:
        for _ in range(tries):
            if c.updates[tid]["seq"] >= seq:
                break
            c.sync()


@pytest.fixture(scope="session")
def postgres() -> Iterator[LocalPostgres]:
    """A PostgreSQL server of the test session's own (one per xdist worker; commits are not flushed
    to the disk, which the tests do not need and which costs them about a minute)."""
    try:
        pg = LocalPostgres(fsync=False)
    except PostgresMissing as e:
        pytest.fail(str(e))
    with pg:
        yield pg


@pytest.fixture
def redis_server() -> Iterator[LocalRedis]:
    """A Redis server of the test's own (redis-server on a free port, in a temporary folder)."""
    try:
        server = LocalRedis()
    except RedisMissing as e:
        pytest.fail(str(e))
    with server:
        yield server
