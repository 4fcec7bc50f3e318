"""Fuzz: ≥ 10,000 malformed, out-of-turn and forbidden messages → 0 crashes, 0 state
changes, and every one answered with an ``error``."""

from __future__ import annotations

import json
import logging
import random
from typing import Any

import pytest

from feltroom import CLOCK
from feltroom.server.protocol import ERROR_CODES

from .conftest import Client, Room_, start_table

JUNK_ACTIONS = ["", "   ", "fly", "draw draw", "swap X", "swap", "queen L 9 R", "queen L 0", "discard now",
                "play AS", "king king", "crisp 1", "close", "close 9", "release", "timeout", "\x00", "x" * 150,
                "draw discard discard", "jack 1", "swap L C", "decline please", "10H", "qUeEn"]


def snapshot(room: Room_) -> str:
    r = room.room
    tables = []
    for t in sorted(r.tables.values(), key=lambda t: t.id):
        g = t.game
        tables.append({
            "id": t.id, "state": t.state, "host": t.host.id, "seq": t.seq,
            "seats": [(s.player.id if s.player else None, s.bot, s.left, s.standin is not None) for s in t.seats],
            "deadlines": sorted((d.action, d.at) for d in t.deadlines.values()),
            "spectators": len(t.spectators),
            "game": None if g is None else {
                "views": [g.view(s) for s in [*range(g.players), None]],
                "legal": [g.legal_actions(s) for s in [*range(g.players), CLOCK]],
                "log": len(g.log), "actions": g.actions,
            },
        })
    players = sorted((p.id, p.name, sorted(p.tables)) for p in r.players.values())
    return json.dumps({"tables": tables, "players": players, "lobby": len(r.lobby_subs)}, sort_keys=True)


def bad_messages(rng: random.Random, tid: str, waiting: str, game: Any, seats: list[Client],
                 outsider: Client) -> tuple[Client, Any]:
    """One message that must be rejected, and the client that sends it."""
    seq = len(game.actions)
    on_turn = [i for i in range(len(seats)) if game.legal_actions(i)]
    off_turn = [i for i in range(len(seats)) if not game.legal_actions(i)]
    kind = rng.randrange(12)
    c = rng.choice([*seats, outsider])
    if kind == 0:  # not JSON, or not an object
        return c, rng.choice(["", "{", "nope", "[1, 2]", "42", "null", '"act"', "{'type': 'act'}", "[" * 5000,
                              '{"type": "act"', "\ud800", '{"type": "act", "table": "' + "x" * 40])
    if kind == 1:  # unknown types
        return c, {"type": rng.choice(["fly", "", "ACT", "Hello", "admin", "eval", 3, None]), "table": tid}
    if kind == 2:  # valid type, broken fields
        templates: list[dict[str, Any]] = [
            {"type": "act", "table": tid, "action": "draw", "seq": seq},
            {"type": "join", "table": waiting},
            {"type": "create", "game": "crisp", "seats": 4, "options": {}},
            {"type": "bot", "table": waiting, "seat": 1, "level": "random"},
            {"type": "chat", "table": tid, "text": "hi"},
        ]
        base = rng.choice(templates)
        m = dict(base)
        how = rng.randrange(4)
        key = rng.choice([k for k in m if k != "type"])
        if how == 0:
            del m[key]
            if key in ("seat", "options") and base["type"] != "bot":
                m["extra"] = 1
        elif how == 1:
            m["surprise"] = rng.choice([1, "x", None, [], {}])
        else:
            m[key] = rng.choice([[], 1.5, [1], -0.5])  # wrong for every field
        return c, m
    if kind == 3:  # out of turn: another seat's legal action
        i = rng.choice(off_turn) if off_turn else 0
        others = [a for j in on_turn for a in game.legal_actions(j) if not game.can_apply(i, a)]
        return seats[i], {"type": "act", "table": tid, "seq": seq, "action": rng.choice(others or ["draw"])}
    if kind == 4:  # malformed or illegal strings from the player on turn
        i = rng.choice(on_turn)
        a = rng.choice(JUNK_ACTIONS)
        if game.can_apply(i, a):
            a = "fly"
        return seats[i], {"type": "act", "table": tid, "seq": seq, "action": a}
    if kind == 5:  # stale or impossible seq
        i = rng.choice(on_turn)
        return seats[i], {"type": "act", "table": tid, "action": game.legal_actions(i)[0],
                          "seq": rng.choice([seq + 1, seq + 7, -1, 10**9])}
    if kind == 6:  # acting where you do not sit
        return outsider, {"type": "act", "table": tid, "seq": seq, "action": "draw"}
    if kind == 7:  # host-only and before-start-only things
        return rng.choice(seats[1:]), rng.choice([
            {"type": "start", "table": tid}, {"type": "bot", "table": waiting, "seat": 2, "level": "random"},
            {"type": "start", "table": waiting}, {"type": "join", "table": tid}, {"type": "leave", "table": waiting},
            {"type": "bot", "table": tid, "seat": 1, "level": None}])
    if kind == 8:  # no such table
        return c, {"type": rng.choice(["join", "watch", "start", "leave"]), "table": "t" + str(rng.randrange(99))}
    if kind == 9:  # a second hello, chat where you neither sit nor watch, bad chat
        return rng.choice([
            (c, {"type": "hello", "protocol": 1, "name": "again", "token": None}),
            (outsider, {"type": "chat", "table": tid, "text": "hi"}),
            (seats[0], {"type": "chat", "table": tid, "text": rng.choice(["", "   ", "a\x07b", "x" * 301])}),
        ])
    if kind == 10:  # bad lobby requests
        return seats[0], rng.choice([
            {"type": "create", "game": "chess", "seats": 2, "options": {}},
            {"type": "create", "game": "crisp", "seats": 9, "options": {}},
            {"type": "create", "game": "crisp", "seats": 4, "options": {"end_limit": 70}},
            {"type": "create", "game": "crisp", "seats": 4, "options": {"clock": False}},
            {"type": "create", "game": "crisp", "seats": 4, "options": {"first_dealer": 1}},
            {"type": "create", "game": "crisp", "seats": 4, "options": {"draw_time": 31}},
            {"type": "bot", "table": waiting, "seat": 7, "level": "random"},
        ])
    # a player acting for a CLOCK action
    i = rng.randrange(len(seats))
    return seats[i], {"type": "act", "table": tid, "seq": seq, "action": rng.choice(["release", "timeout", "close 0"])}


@pytest.mark.slow
def test_ten_thousand_bad_messages_change_nothing_and_each_gets_an_error(
        room: Room_, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="feltroom.server")
    seats = [room.client(n) for n in ("p0", "p1", "p2", "p3")]
    outsider = room.client("out")
    tid = start_table(room, seats, options={"end_limit": 100, "draw_time": 30})
    # the first player draws, so that the game is mid-turn (the fake clock never moves here)
    c = next(c for c in seats if c.updates[tid]["legal"])
    assert c.request({"type": "act", "table": tid, "action": "draw", "seq": 0})["type"] == "update"
    for s in seats:
        s.sync()
    host2 = room.client("host2")
    waiting = host2.request({"type": "create", "game": "crisp", "seats": 3, "options": {}})["table"]
    game = room.table(tid).game
    assert game is not None
    before = snapshot(room)
    rng = random.Random(2024)
    codes: dict[str, int] = {}
    n = 10_000
    k = 0
    while k < n:  # in batches: each socket answers its messages in order
        sent: dict[Client, list[tuple[int, Any]]] = {}
        for _ in range(100):
            client, msg = bad_messages(rng, tid, waiting, game, seats, outsider)
            if isinstance(msg, dict):
                msg = {**msg, "id": k}
            client.send(msg)
            sent.setdefault(client, []).append((k, msg))
            k += 1
        for client, msgs in sent.items():
            for i, msg in msgs:
                reply = client.recv()
                assert reply["type"] == "error", (msg, reply)
                assert reply["code"] in ERROR_CODES and isinstance(reply["message"], str) and reply["message"]
                if isinstance(msg, dict):
                    assert reply["id"] == i
                if reply["code"] == "illegal":
                    assert reply["rule"] and reply["rule"].startswith("CRISP-")
                codes[reply["code"]] = codes.get(reply["code"], 0) + 1
        if k % 2500 == 0:
            assert snapshot(room) == before
    assert snapshot(room) == before
    assert sum(codes.values()) == n
    assert {"bad_message", "invalid", "illegal", "stale", "forbidden", "not_found"} <= set(codes), codes
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.records[:3]
    # and the room still plays
    c = next(c for c in seats if c.updates[tid]["legal"])
    u = c.updates[tid]
    assert c.request({"type": "act", "table": tid, "action": u["legal"][0], "seq": u["seq"]})["type"] == "update"
