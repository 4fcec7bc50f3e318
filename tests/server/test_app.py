"""The HTTP side and the small parts: the web client's files, the store, the protocol models."""

from __future__ import annotations

import sqlite3
import warnings
from pathlib import Path

import psycopg
import pytest

from feltroom.server import create_app
from feltroom.server.local_service import free_port
from feltroom.server.protocol import MESSAGES, ProtocolError, parse
from feltroom.server.sqlite_store import SQLiteStore
from feltroom.server.store import PlayerRow, TableRow, open_store

from .conftest import Room_

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def test_the_web_client_is_served(room: Room_) -> None:
    r = room.tc.get("/")
    assert r.status_code == 200 and "<html" in r.text.lower()
    assert room.tc.get("/api/tables").json() == []


def test_a_placeholder_page_while_the_client_is_missing(tmp_path: Path) -> None:
    (tmp_path / "static").mkdir()
    (tmp_path / "static" / "app.js").write_text("// js")
    with TestClient(create_app(str(tmp_path / "db.sqlite"), static_dir=tmp_path / "static")) as tc:
        r = tc.get("/")
        assert r.status_code == 200 and "/ws" in r.text
        assert tc.get("/static/app.js").text == "// js"
        assert tc.get("/static/nope.js").status_code == 404


def test_every_message_type_parses_and_nothing_is_coerced() -> None:
    examples = {
        "hello": '{"type": "hello", "protocol": 1, "name": "ann", "token": null}',
        "lobby": '{"type": "lobby"}',
        "create": '{"type": "create", "game": "crisp", "seats": 4, "options": {"end_limit": 50}}',
        "tutorial": '{"type": "tutorial", "game": "crisp"}',
        "join": '{"type": "join", "table": "t1", "seat": 2}',
        "leave": '{"type": "leave", "table": "t1"}',
        "bot": '{"type": "bot", "table": "t1", "seat": 1, "level": null}',
        "start": '{"type": "start", "table": "t1"}',
        "watch": '{"type": "watch", "table": "t1"}',
        "act": '{"type": "act", "table": "t1", "action": "draw", "seq": 0, "id": "a"}',
        "chat": '{"type": "chat", "table": "t1", "text": "hi"}',
        "ping": '{"type": "ping", "id": 3}',
        "rematch": '{"type": "rematch", "table": "t1"}',
        "register": '{"type": "register", "password": "correct horse"}',
        "login": '{"type": "login", "name": "ann", "password": "correct horse"}',
    }
    assert set(examples) == set(MESSAGES)
    for kind, text in examples.items():
        assert parse(text).type == kind  # type: ignore[union-attr]
    for text in ('{"type": "act", "table": "t1", "action": "draw", "seq": "0"}',
                 '{"type": "act", "table": "t1", "action": "draw", "seq": 0.0}',
                 '{"type": "join", "table": "t1", "seat": true}',
                 '{"type": "ping", "id": [1]}', '{"type": "ping", "id": 1.5}',
                 '{"type": "hello", "protocol": "1", "name": "a"}', '{"type": "tutorial", "game": 1}'):
        with pytest.raises(ProtocolError) as e:
            parse(text)
        assert e.value.code == "bad_message"


def test_the_sqlite_store_uses_wal_and_keeps_actions_in_order(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 's.sqlite'}")
    assert isinstance(store, SQLiteStore)
    store.add_player(PlayerRow("p1", "ann", "h1"))
    assert store.find_player("h1") == PlayerRow("p1", "ann", "h1") and store.find_player("h2") is None
    store.add_table(TableRow("t1", "crisp", 2, {"end_limit": 50}, "p1", [{"player": "p1", "bot": None}] * 2,
                              "playing", 7, "ab" * 16, "f", 1.0, 2.0))
    actions: list[tuple[int | str, str]] = [(1, "draw"), (1, "discard"), ("CLOCK", "release")]
    for seq, (seat, action) in enumerate(actions, 1):
        store.append_action("t1", seq, seat, action, 3.0)
    assert store.actions("t1") == [(1, "draw"), (1, "discard"), ("CLOCK", "release")]
    assert [t.id for t in store.unfinished_tables()] == ["t1"] and store.record("t1") is None
    store.close()
    with sqlite3.connect(tmp_path / "s.sqlite") as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    with pytest.raises(psycopg.OperationalError, match="Connection refused"):  # a PostgreSQL URL: no server there
        open_store(f"postgresql://feltroom@127.0.0.1:{free_port()}/feltroom")
