"""Chat: one limit per player across all its sockets, refilled with time (the room's clock)."""

from __future__ import annotations

from typing import Any

from feltroom.server import Limits

from .conftest import Room_


def test_chat_is_limited_per_player_not_per_socket(make_room: Any) -> None:
    room: Room_ = make_room(Limits(rate=1e6, burst=1e6, chat_rate=0.5, chat_burst=2))
    ann = room.client("ann")
    tab = room.client("ann", token=ann.token)
    bob = room.client("bob")
    tid = ann.request({"type": "create", "game": "crisp", "seats": 2, "options": {}})["table"]
    bob.request({"type": "join", "table": tid})

    def chat(c: Any, text: str) -> dict[str, Any]:
        return c.request({"type": "chat", "table": tid, "text": text})  # type: ignore[no-any-return]

    assert chat(ann, "one")["type"] == "chat" and chat(tab, "two")["type"] == "chat"
    refused = chat(tab, "three")
    assert refused["code"] == "rate_limited"
    assert refused["message"] == ("chat: too many lines: at most 2 at once, then 0.5 a second per player, "
                                  "across all its sockets")
    assert chat(ann, "four")["code"] == "rate_limited"
    assert chat(bob, "bob is not limited by ann")["type"] == "chat"
    room.clock.advance(2.0)  # one line's worth
    assert chat(tab, "five")["type"] == "chat" and chat(ann, "six")["code"] == "rate_limited"
    bob.sync()
    lines = [m["text"] for m in bob.inbox if m["type"] == "chat"]
    assert lines == ["one", "two", "bob is not limited by ann", "five"]
