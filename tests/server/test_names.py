"""Names: NFKC, nothing invisible, no strike-through, bot names reserved, one name per player
(compared by confusable skeleton), kept in the store across restarts and old files."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from feltroom.server.names import clean_name, name_key
from feltroom.server.sqlite_store import SQLiteStore
from feltroom.server.store import PlayerRow

from .conftest import Client, Room_


def hello(c: Client, name: str) -> dict[str, Any]:
    return c.request({"type": "hello", "protocol": 1, "name": name, "token": None})


@pytest.mark.parametrize("name", [
    "\u3164", "\uffa0", "\u115f", "\u1160", "\u2800",          # blank-looking letters and the braille blank
    "Ann\u3164", "A\u2800nn", "An\u200bn", "\u200d", "Ann\ufe0f", "A\u034fnn", "\u00adAnn",  # invisible inside
    "Ann\u2028", "Ann\u202e", "Ann\x07",                          # separators, bidi, controls
])
def test_invisible_names_are_refused(room: Room_, name: str) -> None:
    reply = hello(room.client(hello=False), name)
    assert reply["type"] == "error" and reply["code"] == "bad_message", (name, reply)
    assert "not allowed" in reply["message"] and "U+" in reply["message"]


@pytest.mark.parametrize("name, why", [
    ("A\u0336n\u0336n\u0336", "strike-through"),   # combining long stroke overlay
    ("Ann\u0338", "strike-through"),                # long solidus overlay
    ("Ann\u20dd", "strike-through"),                # enclosing circle (Me)
    ("\u0301Ann", "must follow a letter"),
    ("1\u0301", "must follow a letter"),
    ("Z\u0300\u0301\u0302\u0303\u0304", "at most 3"),  # zalgo
])
def test_strike_through_and_stray_marks_are_refused(room: Room_, name: str, why: str) -> None:
    reply = hello(room.client(hello=False), name)
    assert reply["type"] == "error" and why in reply["message"], (name, reply)


@pytest.mark.parametrize("name", ["bot:heuristic", "bot:random", "BOT:random", "Bot 2", "bot3", "bot",
                                  "b\u043et:heuristic", "bot\uff1aheuristic", "heuristic", "Random", "r\u0430ndom"])
def test_bot_names_are_reserved(room: Room_, name: str) -> None:
    reply = hello(room.client(hello=False), name)
    assert reply["type"] == "error" and reply["code"] == "bad_message" and "reserved" in reply["message"], reply


@pytest.mark.parametrize("first, second", [
    ("Ann", "Ann"), ("Ann", "ann"), ("Ann", "ANN"), ("Ann", "\u0410nn"),   # Cyrillic А
    ("ann", "\u0430nn"),                                                   # Cyrillic а
    ("Ann", "\uff21\uff4e\uff4e"),                                         # fullwidth Ａｎｎ (NFKC)
    ("Ann Lee", "Ann  Lee"), ("Bill", "BiII"), ("p0", "pO"), ("Jos\u00e9", "Jose\u0301"),
])
def test_a_taken_name_or_a_look_alike_is_refused(room: Room_, first: str, second: str) -> None:
    ann = room.client(first)
    reply = hello(room.client(hello=False), second)
    assert reply["type"] == "error" and reply["code"] == "name_taken", reply
    assert "taken" in reply["message"]
    ann.close()  # a registered player's name stays taken when it is away
    assert hello(room.client(hello=False), second)["code"] == "name_taken"


def test_names_that_only_share_letters_are_different(room: Room_) -> None:
    for name in ("Ann", "Anna", "Ann Lee", "Bots", "Botticelli", "Jos\u00e9", "Jose", "\u0416\u0435\u043d\u044f",
                 "\u0939\u093f\u0902\u0926\u0940", "\u05e9\u05c1\u05b8\u05dc\u05d5\u05b9\u05dd", "p1", "p2"):
        assert hello(room.client(hello=False), name)["type"] == "welcome", name


def test_a_returning_player_keeps_its_name_and_fullwidth_is_folded(room: Room_) -> None:
    ann = room.client("\uff21\uff4e\uff4e")
    assert ann.welcome["name"] == "Ann"
    again = room.client("something else", token=ann.token)
    assert again.welcome["name"] == "Ann" and again.welcome["player"] == ann.player


def test_names_stay_taken_after_a_restart(make_room: Any) -> None:
    first: Room_ = make_room(db="names.sqlite")
    ann = first.client("Ann")
    first.close()
    second: Room_ = make_room(db="names.sqlite")
    assert hello(second.client(hello=False), "\u0430nn")["code"] == "name_taken"
    assert second.client("Ann", token=ann.token).welcome["name"] == "Ann"


def test_an_old_store_file_gets_name_keys(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE players (id TEXT PRIMARY KEY, name TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE)")
    db.execute("INSERT INTO players VALUES ('p1', 'Ann', 'h1')")
    db.commit()
    db.close()
    store = SQLiteStore(str(path))
    try:
        found = store.find_player_named("\u0430NN")
        assert found == PlayerRow("p1", "Ann", "h1")
        assert store.find_player_named("Bob") is None
        store.add_player(PlayerRow("p2", "Bob", "h2"))
        assert store.find_player_named("B\u043eb") == PlayerRow("p2", "Bob", "h2")
    finally:
        store.close()


def test_name_policy_directly() -> None:
    assert clean_name("  \uff21nn   Lee ", 24) == "Ann Lee"
    assert clean_name("Jose\u0301", 24) == "Jos\u00e9"       # NFKC composes
    assert clean_name("x" * 24, 24) == "x" * 24
    assert clean_name("\u0939\u093f" * 24, 24)                 # marks do not count as characters
    with pytest.raises(ValueError, match="at most 24"):
        clean_name("x" * 25, 24)
    with pytest.raises(ValueError, match="empty"):
        clean_name(" \u3000 ", 24)
    assert name_key("Ann") == name_key("\u0430nn") == name_key("\uff21\uff4e\uff4e") == name_key("ANN")
    assert name_key("Ann") != name_key("Anna")
