"""Disconnects: the seat waits through the grace period (its clock runs on), then a bot
plays it, and the player gets it back on return."""

from __future__ import annotations

import random
from typing import Any

from .conftest import Client, Room_, start_table


def last_table(c: Client, tid: str) -> dict[str, Any]:
    return next(m for m in reversed(c.inbox) if m.get("type") == "table" and m["table"] == tid)


def until(c: Client, cond: Any, tries: int = 300) -> None:
    for _ in range(tries):
        if cond():
            return
        c.sync()
    raise AssertionError("the condition never came true")


def play_until(room: Room_, c: Client, tid: str, cond: Any, rng: random.Random, tries: int = 3000) -> None:
    """Play ``c``'s seat at random (passing deadlines when nobody may act) until ``cond()``."""
    for _ in range(tries):
        if cond():
            return
        u = c.updates[tid]
        if u["legal"]:
            c.request({"type": "act", "table": tid, "action": rng.choice(u["legal"]), "seq": u["seq"]})
        elif u["deadlines"]:
            room.clock.set(min(d["at"] for d in u["deadlines"]))
        c.sync()
    raise AssertionError("the condition never came true")


def test_grace_then_a_stand_in_bot_then_the_seat_comes_back(make_room: Any) -> None:
    room: Room_ = make_room(grace=10)
    ann, bob = room.client("ann"), room.client("bob")
    tid = start_table(room, [ann, bob], options={"end_limit": 150})
    table = room.table(tid)
    bob.close()
    until(ann, lambda: not last_table(ann, tid)["seats"][1]["connected"])
    assert table.graces == {1: room.clock.now() + 10}
    # the others see when the stand-in will take over (for a countdown)
    assert last_table(ann, tid)["seats"][1]["standin_at"] == room.clock.now() + 10
    assert last_table(ann, tid)["seats"][0]["standin_at"] is None
    room.clock.advance(9.9)
    ann.sync()
    assert table.seats[1].standin is None
    n = table.seq
    room.clock.advance(0.2)
    until(ann, lambda: last_table(ann, tid)["seats"][1]["standin"] is not None)
    assert last_table(ann, tid)["seats"][1]["standin_at"] is None
    play_until(room, ann, tid, lambda: any(s == 1 for s, _ in table.record()["actions"][n:]), random.Random(1))
    # bob comes back: the whole view, no events, and the seat is his again
    back = room.client("bob", token=bob.token)
    got = back.sync()
    assert back.welcome["tables"] == [{"table": tid, "seat": 1, "state": "playing"}]
    t = next(m for m in got if m["type"] == "table")
    u = next(m for m in got if m["type"] == "update")
    assert t["seats"][1]["connected"] and t["seats"][1]["standin"] is None and t["you"] == 1
    assert u["events"] == [] and table.game is not None and u["view"] == table.game.view(1)
    until(ann, lambda: last_table(ann, tid)["seats"][1]["connected"])
    assert table.seats[1].standin is None and table.graces == {}


def test_a_player_back_within_the_grace_period_keeps_the_seat_without_a_bot(make_room: Any) -> None:
    room: Room_ = make_room(grace=10)
    ann, bob = room.client("ann"), room.client("bob")
    tid = start_table(room, [ann, bob])
    table = room.table(tid)
    bob.close()
    until(ann, lambda: not last_table(ann, tid)["seats"][1]["connected"])
    room.clock.advance(5)
    back = room.client("bob", token=bob.token)
    back.sync()
    room.clock.advance(10)
    ann.sync()
    assert table.graces == {} and table.seats[1].standin is None
    assert last_table(ann, tid)["seats"][1]["connected"]


def test_leave_during_the_game_hands_the_seat_to_a_bot_and_join_takes_it_back(room: Room_) -> None:
    ann, bob = room.client("ann"), room.client("bob")
    tid = start_table(room, [ann, bob], options={"end_limit": 150})
    table = room.table(tid)
    t = bob.request({"type": "leave", "table": tid})
    assert t["type"] == "table" and t["seats"][1]["standin"] and not t["seats"][1]["connected"]
    n = table.seq
    play_until(room, ann, tid, lambda: any(s == 1 for s, _ in table.record()["actions"][n:]), random.Random(2))
    u = bob.updates[tid]
    if u["legal"]:
        err = bob.request({"type": "act", "table": tid, "action": u["legal"][0], "seq": u["seq"]})
        assert err["code"] in ("forbidden", "stale")
    t = bob.request({"type": "join", "table": tid})
    assert t["type"] == "table" and t["you"] == 1 and t["seats"][1]["standin"] is None and t["seats"][1]["connected"]
    assert table.seats[1].standin is None


def test_an_absent_player_gives_up_waiting_seats_after_the_grace_period(make_room: Any) -> None:
    room: Room_ = make_room(grace=10)
    ann, bob, eve = room.client("ann"), room.client("bob"), room.client("eve")
    tid = ann.request({"type": "create", "game": "crisp", "seats": 3, "options": {}})["table"]
    bob.request({"type": "join", "table": tid})
    lone = eve.request({"type": "create", "game": "crisp", "seats": 2, "options": {}})["table"]
    ann.close()
    eve.close()
    until(bob, lambda: not last_table(bob, tid)["seats"][0]["connected"])
    room.clock.advance(9)
    bob.sync()
    assert last_table(bob, tid)["host"] == "ann"
    room.clock.advance(1)
    until(bob, lambda: last_table(bob, tid)["host"] == "bob")
    t = last_table(bob, tid)
    assert t["seats"][0]["name"] is None and t["seats"][1]["name"] == "bob"
    until(bob, lambda: lone not in room.room.tables)  # nobody left at eve's table: it is removed
    back = room.client("ann", token=ann.token)
    assert back.welcome["tables"] == []
