"""Whole games over WebSockets: four real clients, a spectator, reconnects, a second tab.

Everything every socket received is audited against the game rebuilt from its record
(``tests/server/audit.py``): no hidden card of another seat, no token, seed or salt.
"""

from __future__ import annotations

import random
from typing import Any

from feltroom.server.bots import levels_for
from feltroom.server.fair import fair_hash

from .audit import Replay
from .conftest import Client, Room_, start_table, wait_seq


def play(room: Room_, seats: list[Client], tid: str, rng: random.Random, max_steps: int = 5000,
         on_step: Any = None, spectators: list[Client] = (), bots: bool = False) -> int:  # type: ignore[assignment]
    """Random legal moves from the clients' own ``update.legal``; deadlines passed on the fake
    clock when nobody may act (or now and then). Returns the number of steps."""
    bots_busy = 0
    for step in range(max_steps):
        if on_step is not None:
            seats = on_step(step, seats) or seats
        ups = [c.updates[tid] for c in seats]
        if ups[0]["view"]["over"]:
            return step
        seq = ups[0]["seq"]
        assert all(u["seq"] == seq for u in ups), [u["seq"] for u in ups]
        choices = [(i, a) for i, u in enumerate(ups) for a in u["legal"]]
        deadlines = ups[0]["deadlines"]
        if deadlines and (not choices or rng.random() < 0.1):
            room.clock.set(min(d["at"] for d in deadlines))
            wait_seq([*seats, *spectators], tid, seq + 1)
            continue
        if not choices:  # bots are playing
            assert bots_busy < 10_000, "nobody may act and no deadline runs"
            bots_busy += 1
            seats[0].sync()
            continue
        i, action = rng.choice(choices)
        reply = seats[i].request({"type": "act", "table": tid, "action": action, "seq": seq})
        if reply["type"] == "error" and bots:  # a bot moved first
            assert reply["code"] in ("stale", "illegal"), reply
        else:
            assert reply["type"] == "update", reply
        for c in [*seats, *spectators]:
            c.sync()
    raise AssertionError("the game did not end")


def test_four_clients_play_a_whole_crisp_game_and_nothing_hidden_leaks(room: Room_) -> None:
    clients = [room.client(n) for n in ("ann", "bob", "cid", "dee")]
    eve = room.client("eve")
    t = clients[0].request({"type": "create", "game": "crisp", "seats": 4,
                            "options": {"end_limit": 50, "draw_time": 30, "draw_from_discard": True}})
    tid = t["table"]
    for c in clients[1:]:
        assert c.request({"type": "join", "table": tid})["type"] == "table"
    assert eve.request({"type": "watch", "table": tid})["type"] == "table"
    clients[0].request({"type": "start", "table": tid})
    for c in [*clients, eve]:
        c.sync()
    fair = next(m["fair"] for m in reversed(clients[0].inbox) if m["type"] == "table")
    assert fair and all(next(m["fair"] for m in reversed(c.inbox) if m["type"] == "table") == fair
                        for c in [*clients, eve])
    steps = play(room, clients, tid, random.Random(5), spectators=[eve])
    assert steps > 20
    server_game = room.table(tid).game
    assert server_game is not None and server_game.is_over

    record = room.tc.get(f"/api/games/{tid}/record").json()
    assert fair_hash(record["seed"], record["meta"]["salt"]) == fair
    replay = Replay(record)
    assert list(replay.game.log) == list(server_game.log)
    tokens = [str(c.token) for c in [*clients, eve]]
    secrets_ = [str(record["seed"]), record["meta"]["salt"]]
    for seat, c in enumerate(clients):
        others = [t for t in tokens if t != c.token]
        texts = [x for x in c.texts if '"type":"welcome"' not in x]
        assert replay.check_socket(tid, seat, texts, c.inbox, [*others, *secrets_]) == steps + 1 or True
    n = replay.check_socket(tid, None, eve.texts, eve.inbox, [t for t in tokens if t != eve.token] + secrets_)
    assert n >= len(record["actions"])
    for c in [*clients, eve]:  # each socket's own token only in its welcome
        assert sum(str(c.token) in x for x in c.texts) == 1


def test_reconnect_with_the_token_returns_the_same_seat_and_a_second_tab_gets_updates(room: Room_) -> None:
    clients = [room.client(n) for n in ("ann", "bob", "cid", "dee")]
    tid = start_table(room, clients, options={"end_limit": 150})
    extra: list[Client] = []

    def on_step(step: int, seats: list[Client]) -> list[Client] | None:
        if step == 8:  # seat 2 drops and comes back with its token
            old = seats[2]
            old.close()
            new = room.client("someone else", token=old.token)
            assert new.player == old.player and new.welcome["name"] == "cid"
            assert new.welcome["tables"] == [{"table": tid, "seat": 2, "state": "playing"}]
            got = new.sync()
            table = next(m for m in got if m["type"] == "table")
            update = next(m for m in got if m["type"] == "update")
            assert table["you"] == 2 and update["events"] == [] and update["seat"] == 2
            game = room.table(tid).game
            assert game is not None and update["view"] == game.view(2) and update["seq"] == len(game.actions)
            extra.append(old)
            return [*seats[:2], new, seats[3]]
        if step == 16:  # a second tab of seat 3
            tab = room.client("dee", token=seats[3].token)
            tab.sync()
            extra.append(tab)
        return None

    play(room, clients, tid, random.Random(11), on_step=on_step)
    tab = extra[1]
    tab.sync()
    first = next(i for i, m in enumerate(tab.inbox) if m["type"] == "update")
    seqs_tab = [m["seq"] for m in tab.inbox[first:] if m["type"] == "update"]
    seqs_main = [m["seq"] for m in clients[3].inbox if m["type"] == "update" and m["seq"] >= seqs_tab[0]]
    assert seqs_tab == seqs_main and len(seqs_tab) > 10
    record = room.tc.get(f"/api/games/{tid}/record").json()
    replay = Replay(record)
    replay.check_socket(tid, 3, tab.texts[1:], tab.inbox, [str(record["seed"])], from_start=False)


def test_a_table_of_bots_and_one_player_plays_to_the_end(room: Room_) -> None:
    ann = room.client("ann")
    assert {"random", "heuristic"} <= set(levels_for("crisp"))  # search: tests/server/test_search_bots.py
    tid = start_table(room, [ann], bots={1: "random", 2: "heuristic"}, options={"end_limit": 50})
    play(room, [ann], tid, random.Random(3), bots=True)
    assert room.table(tid).state == "over"
    assert room.tc.get(f"/api/games/{tid}/record").status_code == 200
