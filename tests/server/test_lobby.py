"""The lobby: create with exactly the lobby options, join, leave, bots, start, watch, chat."""

from __future__ import annotations

import re
from typing import Any

from feltroom.knowledge import KNOWLEDGE
from feltroom.server.bots import levels_for

from .conftest import Client, Room_, start_table


def create(c: Client, game: str = "crisp", seats: int = 3, **options: Any) -> dict[str, Any]:
    return c.request({"type": "create", "game": game, "seats": seats, "options": options})


def test_create_takes_exactly_the_lobby_options_and_the_engine_checks_values(room: Room_) -> None:
    ann = room.client("ann")
    t = create(ann, end_limit=150, draw_time=45, draw_from_discard=True)
    assert t["type"] == "table" and t["you"] == 0 and t["state"] == "waiting" and t["host"] == "ann"
    # CRISP-ONL-2: the host picks the three options; the lobby fixes clock and first_dealer
    assert t["options"] == {"end_limit": 150, "draw_time": 45, "draw_from_discard": True, "clock": True,
                            "first_dealer": None}
    assert create(ann)["options"]["end_limit"] == 100  # CRISP-AMB-17 defaults 100 / unlimited / off
    err = create(ann, end_limit=70)  # CRISP-ONL-2 (a): 50, 100 or 150
    assert err["code"] == "bad_message" and "50, 100, 150" in err["message"]
    err = create(ann, draw_time=31)  # the engine names the allowed values
    assert err["code"] == "bad_message" and "30" in err["message"] and "60" in err["message"]
    bad: list[dict[str, Any]] = [{"clock": False}, {"first_dealer": 1}, {"colour": "red"}]
    for options in bad:
        err = create(ann, **options)
        assert err["code"] == "bad_message" and "end_limit, draw_time, draw_from_discard" in err["message"]
    err = create(ann, game="chess")
    assert err["code"] == "bad_message" and "crisp" in err["message"]
    err = create(ann, seats=9)
    assert err["code"] == "bad_message" and "2–8" in err["message"]


def test_other_games_offer_their_own_options_and_run_their_turn_timer(room: Room_) -> None:
    ann = room.client("ann")
    assert create(ann, game="krypkasino", seats=2, first_dealer=0)["code"] == "bad_message"
    tid = start_table(room, [ann], game="krypkasino", options={"dealer_rounds": 1, "turn_time": 30},
                      bots={1: "random"})
    table = room.table(tid)
    for _ in range(50):  # until it is ann's turn (the bot may move first)
        if ann.updates[tid]["legal"]:
            break
        ann.sync()
    u = ann.updates[tid]
    assert [d["action"] for d in u["deadlines"]] == ["timeout"] and u["deadlines"][0]["seat"] == 0
    seq = u["seq"]
    room.clock.set(u["deadlines"][0]["at"])
    for _ in range(100):
        if table.seq > seq:
            break
        ann.sync()
    assert table.record()["actions"][seq] == ["CLOCK", "timeout"]


def test_lobby_lists_tables_and_follows_changes(room: Room_) -> None:
    ann, bob, eve = room.client("ann"), room.client("bob"), room.client("eve")
    lobby = eve.request({"type": "lobby"})
    assert lobby["type"] == "lobby" and lobby["tables"] == []
    tid = create(ann, seats=2)["table"]
    bob.request({"type": "join", "table": tid})
    msgs = [m for m in eve.sync() if m["type"] == "lobby"]
    entry = msgs[-1]["tables"][0]
    assert entry == {"table": tid, "game": "crisp", "seats": 2, "taken": 2, "state": "waiting", "host": "ann",
                     "names": ["ann", "bob"], "players": [ann.player, bob.player], "options": entry["options"]}
    ann.request({"type": "start", "table": tid})
    assert [m for m in eve.sync() if m["type"] == "lobby"][-1]["tables"][0]["state"] == "playing"


def test_join_leave_bots_and_start(room: Room_) -> None:
    ann, bob, cid, dan = (room.client(n) for n in ("ann", "bob", "cid", "dan"))
    tid = create(ann, seats=3)["table"]
    assert bob.request({"type": "join", "table": tid})["you"] == 1
    assert bob.request({"type": "join", "table": tid})["code"] == "forbidden"  # already seated
    assert cid.request({"type": "join", "table": tid, "seat": 1})["code"] == "full"
    assert cid.request({"type": "join", "table": tid, "seat": 5})["code"] == "bad_message"
    # bots: host only, known levels only, free seats only
    assert bob.request({"type": "bot", "table": tid, "seat": 2, "level": "random"})["code"] == "forbidden"
    err = ann.request({"type": "bot", "table": tid, "seat": 2, "level": "genius"})
    assert err["code"] == "bad_message" and all(level in err["message"] for level in levels_for("crisp"))
    assert ann.request({"type": "bot", "table": tid, "seat": 1, "level": "random"})["code"] == "full"
    t = ann.request({"type": "bot", "table": tid, "seat": 2, "level": "random"})
    assert t["seats"][2]["bot"] == "random" and t["seats"][2]["connected"]
    assert cid.request({"type": "join", "table": tid})["code"] == "full"
    assert ann.request({"type": "bot", "table": tid, "seat": 2, "level": None})["seats"][2]["bot"] is None
    assert ann.request({"type": "start", "table": tid})["code"] == "forbidden"  # a seat is free
    assert cid.request({"type": "join", "table": tid})["you"] == 2
    assert bob.request({"type": "start", "table": tid})["code"] == "forbidden"  # host only
    # leaving before the start frees the seat; the host leaving hands the table on
    assert bob.request({"type": "leave", "table": tid})["type"] == "left"
    assert dan.request({"type": "join", "table": tid})["you"] == 1
    assert ann.request({"type": "leave", "table": tid})["type"] == "left"
    t = cid.sync()[-1]
    assert t["type"] == "table" and t["host"] == "dan"
    assert dan.request({"type": "bot", "table": tid, "seat": 0, "level": "random"})["type"] == "table"
    t = dan.request({"type": "start", "table": tid})
    assert t["state"] == "playing" and re.fullmatch(r"[0-9a-f]{64}", t["fair"])
    assert ann.request({"type": "join", "table": tid})["code"] == "forbidden"  # started
    assert room.tc.get(f"/api/games/{tid}/record").status_code == 409  # not over: no record yet
    assert room.tc.get("/api/games/nope/record").status_code == 404


def test_the_last_person_leaving_a_waiting_table_closes_it(room: Room_) -> None:
    ann, eve = room.client("ann"), room.client("eve")
    tid = create(ann, seats=2)["table"]
    eve.request({"type": "watch", "table": tid})
    assert ann.request({"type": "leave", "table": tid})["type"] == "left"
    assert {"type": "closed", "table": tid} in eve.sync()
    assert eve.request({"type": "watch", "table": tid})["code"] == "not_found"


def test_a_spectator_gets_the_public_view_and_chat_reaches_the_table(room: Room_) -> None:
    ann, bob, eve = room.client("ann"), room.client("bob"), room.client("eve")
    tid = start_table(room, [ann, bob])
    t = eve.request({"type": "watch", "table": tid})
    assert t["type"] == "table" and t["you"] is None and t["state"] == "playing"
    u = eve.sync()[-1]
    assert u["type"] == "update" and u["seat"] is None and u["legal"] == [] and u["events"] == []
    game = room.table(tid).game
    assert game is not None and u["view"] == game.view(None)
    assert eve.request({"type": "chat", "table": tid, "text": "  <b>hi</b>  there "})["text"] == "<b>hi</b> there"
    got = [m for m in ann.sync() if m["type"] == "chat"]
    assert got == [{"type": "chat", "table": tid, "from": "eve", "player": eve.player, "text": "<b>hi</b> there"}]
    assert eve.request({"type": "chat", "table": tid, "text": "x" * 301})["code"] == "bad_message"
    assert eve.request({"type": "chat", "table": tid, "text": "a\u0007"})["code"] == "bad_message"


def test_a_table_says_which_bot_levels_it_offers(room: Room_) -> None:
    ann = room.client("ann")
    for game in ("crisp", "cribbage"):
        t = create(ann, game=game, seats=2)
        searched = ["search"] if game in KNOWLEDGE else []  # search needs a tracker
        assert t["bot_levels"] == levels_for(game) == ["random", "heuristic", *searched]


def test_a_table_offers_only_the_levels_that_play_it_as_themselves(room: Room_) -> None:
    """At a two-deck Craits table (CRAITS-SETUP-1: 7–10 players) the search bot's sampler is off and it
    would play as the heuristic, so the table does not offer ``search``, and asking for it is refused
    with the levels it does offer; a one-deck Craits table offers it."""
    ann = room.client("ann")
    assert "search" in create(ann, game="craits", seats=4)["bot_levels"]
    t = create(ann, game="craits", seats=8)
    assert t["bot_levels"] == ["random", "heuristic"]
    refused = ann.request({"type": "bot", "table": t["table"], "seat": 1, "level": "search"})
    assert refused["code"] == "bad_message" and "the levels are random, heuristic" in refused["message"]
    assert ann.request({"type": "bot", "table": t["table"], "seat": 1, "level": "heuristic"})["type"] == "table"
