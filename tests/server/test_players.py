"""Players who come back (issue #13), over a real uvicorn: every finished game rated once in the
transaction that ends it, profiles with paged history, leaderboards, rematch, and ratings that
survive kill -9 and equal their recomputation from the stored games."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from feltroom.cli.main import main as feltroom_main
from feltroom.server import Limits
from feltroom.server.local_service import free_port

from .served import Peer, Served, create_table, eventually
from .test_restart import start_server

CRIBBAGE = {"counting": "automatic", "target": 61}  # no timer: stand-ins finish a game in well under a second


def play_to_the_end(served: Served, peers: list[Peer], tid: str) -> None:
    """Every person leaves the running game: the stand-ins play it to the end."""
    for peer in peers:
        assert peer.request({"type": "leave", "table": tid})["type"] == "table"
    eventually(lambda: served.room.tables[tid].state == "over", 20, "the end of the game")
    for peer in peers:
        peer.sync()


def test_a_finished_game_rates_every_seat_once_bots_too(tmp_path: Path) -> None:
    with Served(tmp_path / "r.sqlite") as served, Peer(served.port, "ann") as ann, Peer(served.port, "bob") as bob:
        tid = create_table(ann, "cribbage", 3, CRIBBAGE, bots={2: "random"}, start=False)
        assert bob.request({"type": "join", "table": tid})["type"] == "table"
        assert ann.request({"type": "start", "table": tid})["type"] == "table"
        play_to_the_end(served, [ann, bob], tid)
        game = served.room.tables[tid].game
        assert game is not None
        assert ann.player and bob.player
        ids = [ann.player, bob.player, "bot:random"]
        store = served.room.store
        after = {p: store.player_ratings(p)["cribbage"] for p in ids}
        assert all(r.games == 1 for r in after.values())
        winner = ids[game.winners[0]]
        last = ids[min(range(3), key=lambda s: game.scores[s])]
        assert after[winner].mu > 25 > after[last].mu
        changes = ann.tables[tid]["rating_changes"]
        assert [c["seat"] for c in changes] == [0, 1, 2] and all(c["before"] == 1500 for c in changes)
        assert next(c for c in changes if c["player"] == winner)["after"] > 1500
        status, page = served.get(f"/api/players/{ann.player}")
        assert status == 200 and page["name"] == "ann" and page["ratings"]["cribbage"]["games"] == 1
        assert page["ratings"]["cribbage"]["provisional"] is True
        assert page["games"] == [{"table": tid, "game": "cribbage", "ended": page["games"][0]["ended"],
                                  "rank": page["games"][0]["rank"], "seats": ["ann", "bob", "bot:random"],
                                  "scores": game.scores, "winners": game.winners}]
        status, page = served.get("/api/players/bot:random")
        assert status == 200 and page["ratings"]["cribbage"]["games"] == 1
        assert served.get("/api/players/nobody")[0] == 404
        assert served.get("/api/leaderboard/cribbage") == (200, {"game": "cribbage", "players": []})  # < 10 games


def test_an_abandoned_game_changes_no_rating(tmp_path: Path) -> None:
    with Served(tmp_path / "r.sqlite", Limits(abandon_after=0.3), grace=0.2, bot_delay=0.1) as served:
        ann = Peer(served.port, "ann")
        tid = create_table(ann, "cribbage", 2, {"counting": "automatic", "target": 121}, bots={1: "random"})
        ann.close()
        eventually(lambda: served.room.tables[tid].state == "abandoned", 10, "the abandonment")
        store = served.room.store
        assert store.player_ratings(ann.player or "") == {} and store.player_ratings("bot:random") == {}
        assert store.history(ann.player or "") == []


def rematch_messages(peer: Peer, tid: str) -> list[dict[str, Any]]:
    return [m for m in peer.inbox if m["type"] == "rematch" and m["table"] == tid]


def test_a_rematch_both_accept_starts_the_new_table_for_players_and_spectators(tmp_path: Path) -> None:
    with Served(tmp_path / "r.sqlite") as served, Peer(served.port, "ann") as ann, \
            Peer(served.port, "bob") as bob, Peer(served.port, "eve") as eve:
        tid = create_table(ann, "cribbage", 3, CRIBBAGE, bots={2: "random"}, start=False)
        assert bob.request({"type": "join", "table": tid})["type"] == "table"
        assert eve.request({"type": "watch", "table": tid})["type"] == "table"
        assert ann.request({"type": "start", "table": tid})["type"] == "table"
        play_to_the_end(served, [ann, bob], tid)
        offer = ann.request({"type": "rematch", "table": tid})
        assert offer["type"] == "rematch" and offer["state"] == "offered" and offer["accepted"] == [0]
        bob.sync()
        assert rematch_messages(bob, tid)[-1]["state"] == "offered"
        started = bob.request({"type": "rematch", "table": tid})
        assert started["state"] == "started" and started["accepted"] == [0, 1]
        new = started["next"]
        for peer in (ann, bob, eve):
            peer.sync()
            assert rematch_messages(peer, tid)[-1]["next"] == new
            assert peer.tables[new]["state"] == "playing" and new in peer.updates
            assert peer.tables[new]["options"] == served.room.tables[tid].options
        assert [s["name"] for s in eve.tables[new]["seats"]] == ["ann", "bob", "bot:random"]
        assert ann.updates[new]["seat"] == 0 and bob.updates[new]["seat"] == 1 and eve.updates[new]["seat"] is None
        again = ann.request({"type": "rematch", "table": tid})
        assert again["type"] == "error" and again["code"] == "forbidden"


def test_a_declined_or_lapsed_rematch_starts_nothing(tmp_path: Path) -> None:
    with Served(tmp_path / "r.sqlite", Limits(rematch_window=0.5)) as served, \
            Peer(served.port, "ann") as ann, Peer(served.port, "bob") as bob:
        tid = create_table(ann, "cribbage", 2, CRIBBAGE, start=False)
        assert bob.request({"type": "join", "table": tid})["type"] == "table"
        assert ann.request({"type": "start", "table": tid})["type"] == "table"
        play_to_the_end(served, [ann, bob], tid)
        assert ann.request({"type": "rematch", "table": tid})["state"] == "offered"
        declined = bob.request({"type": "leave", "table": tid})
        assert declined["type"] == "rematch" and declined["state"] == "declined"
        ann.sync()
        assert rematch_messages(ann, tid)[-1]["state"] == "declined"
        assert ann.request({"type": "rematch", "table": tid})["state"] == "offered"  # a new offer …
        eventually(lambda: served.room.tables[tid].rematch is None, 5, "the offer's lapse")
        ann.sync()
        assert rematch_messages(ann, tid)[-1]["state"] == "lapsed"  # … lapses after the window
        assert len(served.room.tables) == 1


@pytest.mark.slow
def test_history_pages_and_the_leaderboard_from_simulated_games(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    assert feltroom_main(["sim", "cribbage", "--games", "60", "--seed", "5", "--db", str(db),
                          "-o", "counting=automatic", "-o", "target=61"]) == 0
    with Served(db) as served:
        status, first = served.get("/api/players/bot:heuristic")
        assert status == 200 and len(first["games"]) == 50 and first["next"] == first["games"][-1]["ended"]
        ended = [g["ended"] for g in first["games"]]
        assert ended == sorted(ended, reverse=True)
        status, second = served.get(f"/api/players/bot:heuristic?before={first['next']}")
        assert status == 200 and len(second["games"]) == 10 and second["next"] is None
        assert {g["table"] for g in first["games"]}.isdisjoint(g["table"] for g in second["games"])
        status, board = served.get("/api/leaderboard/cribbage")
        assert status == 200 and [p["player"] for p in board["players"]] == ["bot:heuristic", "bot:random"]
        assert all(p["games"] == 60 and not p["provisional"] for p in board["players"])
        assert board["players"][0]["rating"] > board["players"][1]["rating"]
        assert served.get("/api/leaderboard/chess")[0] == 404
        assert served.get("/api/players/bot:heuristic?before=soon")[0] == 400


@pytest.mark.slow
def test_kill_9_loses_no_rating_and_the_ratings_equal_their_recomputation(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    assert feltroom_main(["sim", "cribbage", "--games", "5", "--seed", "6", "--db", str(db),
                          "-o", "counting=automatic", "-o", "target=61"]) == 0
    port = free_port()
    proc = start_server(db, port)
    try:
        with Peer(port, "ann") as ann:
            tid = create_table(ann, "cribbage", 2, CRIBBAGE, bots={1: "heuristic"})
            assert ann.request({"type": "leave", "table": tid})["type"] == "table"
            for _ in range(200):
                if ann.tables[tid]["state"] == "over":
                    break
                ann.recv()
            assert ann.tables[tid]["state"] == "over"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
    check = subprocess.run([sys.executable, "-m", "feltroom.server", "ratings", "--db", str(db), "--recompute",
                            "--check"], capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "from 6 finished games" in check.stdout
    from feltroom.server.store import open_store

    store = open_store(str(db))
    try:
        assert store.player_ratings(ann.player or "")["cribbage"].games == 1
        assert store.player_ratings("bot:heuristic")["cribbage"].games == 6
    finally:
        store.close()


# ---------------------------------------------------------------- accounts


def login(peer: Peer, name: str, password: str) -> dict[str, Any]:
    return peer.request({"type": "login", "name": name, "password": password})


def test_register_then_log_in_from_another_socket_as_the_same_player(tmp_path: Path) -> None:
    with Served(tmp_path / "r.sqlite") as served, Peer(served.port, "Ann") as ann:
        short = ann.request({"type": "register", "password": "short"})
        assert short["code"] == "bad_message" and "8–128" in short["message"]
        reply = ann.request({"type": "register", "password": "correct horse"})
        assert reply == {"type": "registered", "id": reply["id"], "player": ann.player, "name": "Ann"}
        assert ann.request({"type": "register", "password": "another one"})["code"] == "forbidden"
        tid = create_table(ann, "cribbage", 2, CRIBBAGE, bots={1: "random"}, start=False)
        with Peer(served.port, None) as phone:  # another device: no token, name and password
            welcome = login(phone, "ann", "correct horse")  # the name as typed, any case
            assert welcome["type"] == "welcome" and welcome["player"] == ann.player and welcome["name"] == "Ann"
            assert welcome["token"] != ann.token
            assert welcome["tables"] == [{"table": tid, "seat": 0, "state": "waiting"}]
            assert phone.request({"type": "start", "table": tid})["type"] == "table"  # its seats are its own
        with Peer(served.port, "eve") as eve:  # a socket that said hello as a guest signs in: it is Ann now
            assert login(eve, "Ann", "correct horse")["player"] == ann.player
        with Peer(served.port, None) as guest:
            taken = guest.request({"type": "hello", "protocol": 1, "name": "ANN", "token": None})
            assert taken["code"] == "name_taken"
        status, page = served.get(f"/api/players/{ann.player}")
        assert status == 200 and page["registered"] is True


@pytest.mark.slow
def test_a_wrong_password_and_an_unknown_name_are_answered_alike_and_failures_are_limited(tmp_path: Path) -> None:
    # hello_timeout: "other" says no hello of its own; its logins (slow hashes) may take past 10 s on a loaded machine
    with Served(tmp_path / "r.sqlite", Limits(failed_logins_per_minute=2, hello_timeout=300)) as served, \
            Peer(served.port, "ann") as ann, Peer(served.port, None) as other:
        assert ann.request({"type": "register", "password": "correct horse"})["type"] == "registered"
        wrong, unknown = login(other, "ann", "wrong horse"), login(other, "nobody", "wrong horse")
        assert {k: v for k, v in wrong.items() if k != "id"} == {k: v for k, v in unknown.items() if k != "id"} \
            == {"type": "error", "code": "forbidden", "message": "wrong name or password", "rule": None, "params": {},
                "template": "wrong name or password"}
        assert login(other, "ann", "still wrong")["code"] == "forbidden"
        limited = login(other, "ann", "correct horse")  # the right password, after the limit: refused
        assert limited["code"] == "rate_limited" and "2 failed logins a minute" in limited["message"]
        assert login(other, "Bob", "whatever horse")["code"] == "forbidden"  # another name: not limited


@pytest.mark.slow
def test_kill_9_loses_no_account(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    port = free_port()
    proc = start_server(db, port)
    try:
        with Peer(port, "ann") as ann:
            assert ann.request({"type": "register", "password": "correct horse"})["type"] == "registered"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        proc = start_server(db, port)
        with Peer(port, None) as again:
            assert login(again, "ann", "correct horse")["player"] == ann.player
    finally:
        proc.kill()
        proc.wait(10)
