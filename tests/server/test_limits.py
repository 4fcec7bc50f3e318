"""Abuse limits: hello first, message size, rate, names, sockets and tables per player."""

from __future__ import annotations

import json

import pytest
from starlette.websockets import WebSocketDisconnect

from feltroom.server import Limits

from .conftest import Room_


def test_the_first_message_must_be_hello(room: Room_) -> None:
    c = room.client(hello=False)
    c.send({"type": "lobby", "id": 1})
    err = c.recv()
    assert err == {"type": "error", "id": 1, "code": "bad_message",
                   "message": "the first message must be hello (or login)", "rule": None, "params": {},
                   "template": "the first message must be hello (or login)"}
    c.send({"type": "hello", "protocol": 2, "name": "ann", "token": None})
    assert c.recv()["code"] == "bad_message"
    c.send({"type": "hello", "protocol": 1, "name": "ann", "token": None})
    assert c.recv()["type"] == "welcome"


def test_names_are_checked(room: Room_) -> None:
    c = room.client(hello=False)
    for name, ok in (("x" * 25, False), ("", False), ("   ", False), ("a\u202eb", False), ("a\nb", False),
                     ("  Ann   Lee  ", True)):
        c.send({"type": "hello", "protocol": 1, "name": name, "token": None, "id": 1})
        reply = c.recv()
        assert (reply["type"] == "welcome") == ok, (name, reply)
    assert reply["name"] == "Ann Lee"


def test_an_unknown_token_makes_a_new_player_and_tokens_stay_secret(room: Room_) -> None:
    a = room.client("ann", token="not-a-token")
    assert a.token != "not-a-token"
    b = room.client("bob")
    assert a.player != b.player and a.token != b.token


def test_a_too_large_message_is_refused_and_the_socket_closed(make_room: object) -> None:
    room: Room_ = make_room(Limits(max_message=1024))  # type: ignore[operator]
    c = room.client()
    c.send(json.dumps({"type": "chat", "table": "t1", "text": "x" * 2000}))
    assert c.recv()["code"] == "too_large"
    with pytest.raises(WebSocketDisconnect) as e:
        c.recv()
    assert e.value.code == 1009


def test_binary_frames_are_bad_messages(room: Room_) -> None:
    c = room.client()
    c.ws.send_bytes(b'{"type": "ping"}')
    assert c.recv()["code"] == "bad_message"


def test_a_flood_is_rate_limited_then_closed(make_room: object) -> None:
    room: Room_ = make_room(Limits(rate=0.001, burst=5, abuse_strikes=4))  # type: ignore[operator]
    c = room.client()  # hello took one token
    for i in range(8):
        c.send({"type": "ping", "id": i})
    replies = [c.recv() for _ in range(8)]
    assert [r["type"] for r in replies[:4]] == ["pong"] * 4
    assert [r["code"] for r in replies[4:]] == ["rate_limited"] * 4
    assert [r["id"] for r in replies] == list(range(8))
    with pytest.raises(WebSocketDisconnect) as e:
        c.recv()
    assert e.value.code == 1008


def test_sockets_and_tables_per_player_are_bounded(make_room: object) -> None:
    room: Room_ = make_room(Limits(max_sockets_per_player=2, max_open_tables_per_player=2))  # type: ignore[operator]
    a = room.client("ann")
    room.client("ann", token=a.token)
    third = room.client(hello=False)
    third.send({"type": "hello", "protocol": 1, "name": "ann", "token": a.token})
    assert third.recv()["code"] == "full"
    with pytest.raises(WebSocketDisconnect):
        third.recv()
    for _ in range(2):
        assert a.request({"type": "create", "game": "crisp", "seats": 2, "options": {}})["type"] == "table"
    assert a.request({"type": "create", "game": "crisp", "seats": 2, "options": {}})["code"] == "forbidden"


def test_connections_in_the_room_are_bounded(make_room: object) -> None:
    room: Room_ = make_room(Limits(max_connections=1))  # type: ignore[operator]
    room.client()
    refused = room.client(hello=False)  # accepted, then closed: the client sees the code, not an HTTP 403
    with pytest.raises(WebSocketDisconnect) as e:
        refused.recv()
    assert e.value.code == 1013
