"""The room against abuse of its rules of the house (issue #11, findings 3–7 and 11), each against a
real uvicorn on 127.0.0.1 with the limit under test set low: throwaway identities, abandoned bot
games, frozen games, id collisions, a crash while finishing, waiting tables after a restart, and
leave/join summoning the stand-in."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

import feltroom.server.room as room_mod
import feltroom.server.store as store_mod
from feltroom.server import Limits
from feltroom.server.sqlite_store import SQLiteStore

from .served import Peer, Served, create_table, eventually

CRIBBAGE = {"counting": "automatic", "target": 61}  # no timer: bots finish a game in well under a second


def seat_actions(served: Served, tid: str, seat: int) -> int:
    game = served.room.tables[tid].game
    assert game is not None
    return sum(1 for s, _ in game.actions if s == seat)


# ---------------------------------------------------------------- 3. throwaway identities


def test_new_players_from_one_address_are_limited_but_returning_ones_are_not(tmp_path: Path) -> None:
    with Served(tmp_path / "r.sqlite", Limits(new_players_per_minute=3)) as served:
        peers = [Peer(served.port, f"p{i}") for i in range(3)]
        fourth = Peer(served.port, None)
        reply = fourth.request({"type": "hello", "protocol": 1, "name": "p3", "token": None})
        assert reply["type"] == "error" and reply["code"] == "rate_limited"
        assert "3 new players a minute from one address" in reply["message"]
        again = fourth.request({"type": "hello", "protocol": 1, "name": "x", "token": peers[0].token})
        assert again["type"] == "welcome" and again["player"] == peers[0].player
        assert len(served.room.players) == 3


def test_new_tables_from_one_address_are_limited(tmp_path: Path) -> None:
    with Served(tmp_path / "r.sqlite", Limits(new_tables_per_hour=2)) as served, \
            Peer(served.port, "ann") as ann, Peer(served.port, "bob") as bob:
        create_table(ann, "crisp", 2, start=False)
        create_table(bob, "crisp", 2, start=False)  # another player, the same address
        reply = ann.request({"type": "create", "game": "crisp", "seats": 2, "options": {}})
        assert reply["code"] == "rate_limited" and "2 new tables an hour" in reply["message"]
        assert len(served.room.tables) == 2


def test_a_running_table_every_person_left_is_abandoned_and_cleaned_up(tmp_path: Path) -> None:
    limits = Limits(abandon_after=0.7)
    with Served(tmp_path / "r.sqlite", limits, grace=0.3, bot_delay=0.1) as served:
        ann = Peer(served.port, "ann")
        tid = create_table(ann, "cribbage", 2, {"target": 121, "counting": "automatic"}, bots={1: "random"})
        with Peer(served.port, "eve") as eve:
            assert eve.request({"type": "watch", "table": tid})["type"] == "table"
            ann.close()
            eventually(lambda: served.room.tables[tid].state == "abandoned", 10, "the abandonment")
            table = served.room.tables[tid]
            seq = table.seq
            assert table.game is not None and not table.game.is_over
            eve.sync()
            assert eve.tables[tid]["state"] == "abandoned" and "record" in eve.tables[tid]
        status, lobby = served.get("/api/tables")
        assert status == 200 and tid not in [t["table"] for t in lobby]
        status, record = served.get(f"/api/games/{tid}/record")
        assert status == 200 and record["meta"]["abandoned"] is True and len(record["actions"]) == seq
        assert served.room.store.unfinished_tables() == []
        eventually(lambda: table._bots is None and table._timer is None, 5, "the bot and timer tasks' end")
        assert table.seq == seq  # the stand-in stopped playing


# ---------------------------------------------------------------- 4. no frozen game


def test_a_seat_whose_socket_dropped_before_the_start_gets_its_grace_then_a_stand_in(tmp_path: Path) -> None:
    with Served(tmp_path / "r.sqlite", grace=0.5) as served:
        ann = Peer(served.port, "ann")
        tid = create_table(ann, "cribbage", 2, CRIBBAGE, start=False)
        bob = Peer(served.port, "bob")
        assert bob.request({"type": "join", "table": tid})["type"] == "table"
        bob.close()
        eventually(lambda: not served.room.tables[tid].seats[1].connected(), 5, "bob's disconnect")
        assert ann.request({"type": "start", "table": tid})["type"] == "table"
        eventually(lambda: seat_actions(served, tid, 1) > 0, 10, "a move in bob's seat")
        assert served.room.tables[tid].seats[1].standin is not None


@pytest.mark.slow
def test_an_idle_seat_in_an_untimed_game_gets_a_stand_in_and_acting_takes_it_back(tmp_path: Path) -> None:
    with Served(tmp_path / "r.sqlite", Limits(idle_standin=0.5), bot_delay=1.0) as served:
        ann, bob = Peer(served.port, "ann"), Peer(served.port, "bob")
        tid = create_table(ann, "cribbage", 2, CRIBBAGE, start=False)
        assert bob.request({"type": "join", "table": tid})["type"] == "table"
        assert ann.request({"type": "start", "table": tid})["type"] == "table"
        table = served.room.tables[tid]
        assert table.deadlines == {}  # untimed: nothing but the idle rule moves bob
        ann.sync()
        up = ann.updates[tid]
        assert ann.request({"type": "act", "table": tid, "action": up["legal"][0], "seq": up["seq"]})["type"] \
            == "update"
        eventually(lambda: seat_actions(served, tid, 1) > 0, 10, "the stand-in's move in bob's idle seat")
        bob.sync()
        assert bob.tables[tid]["seats"][1]["standin"] == "heuristic"
        for _ in range(100):  # ann plays her turns until bob may act, and bob acts before his stand-in does
            ann.sync()
            bob.sync()
            mover = bob if bob.updates[tid]["legal"] else ann if ann.updates[tid]["legal"] else None
            if mover is None:
                continue
            up = mover.updates[tid]
            reply = mover.request({"type": "act", "table": tid, "action": up["legal"][0], "seq": up["seq"]})
            assert reply["type"] == "update", reply
            if mover is bob:
                break
        bob.sync()
        assert table.seats[1].standin is None and bob.tables[tid]["seats"][1]["standin"] is None


def test_the_seat_is_taken_back_after_leave_only_once(tmp_path: Path) -> None:
    with Served(tmp_path / "r.sqlite", bot_delay=0.2) as served, Peer(served.port, "ann") as ann:
        tid = create_table(ann, "cribbage", 2, {"target": 121, "counting": "automatic"}, bots={1: "random"})
        assert ann.request({"type": "leave", "table": tid})["type"] == "table"
        assert ann.request({"type": "join", "table": tid})["type"] == "table"
        assert ann.request({"type": "leave", "table": tid})["type"] == "table"
        reply = ann.request({"type": "join", "table": tid})
        assert reply["type"] == "error" and reply["code"] == "forbidden" and "once" in reply["message"]
        assert served.room.tables[tid].seats[0].standin is not None


# ---------------------------------------------------------------- 5. ids that never replace


def finished_game(served: Served, ann: Peer) -> str:
    """A whole Cribbage game played by stand-ins (ann leaves at once); its table id."""
    tid = create_table(ann, "cribbage", 2, CRIBBAGE, bots={1: "random"})
    assert ann.request({"type": "leave", "table": tid})["type"] == "table"
    eventually(lambda: served.room.tables[tid].state == "over", 20, "the end of the game")
    return tid


def test_a_repeated_table_id_leaves_the_old_record_and_the_new_table_plays(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    with Served(tmp_path / "r.sqlite") as served, Peer(served.port, "ann") as ann:
        old = finished_game(served, ann)
        status, record = served.get(f"/api/games/{old}/record")
        assert status == 200
        served.room.tables.pop(old)  # as after a restart: the old table is only in the store
        drawn = iter([old, old])
        real = store_mod.new_id
        monkeypatch.setattr(room_mod, "new_id", lambda prefix="": next(drawn, None) or real(prefix))
        new = create_table(ann, "cribbage", 2, CRIBBAGE, bots={1: "random"})
        assert new != old
        assert served.get(f"/api/games/{old}/record") == (200, record)
        ann.sync()
        up = ann.updates[new]
        assert ann.request({"type": "act", "table": new, "action": up["legal"][0], "seq": up["seq"]})["type"] \
            == "update"
        assert (0, up["legal"][0]) in served.room.store.actions(new)


def test_a_repeated_player_id_makes_another_player(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Served(tmp_path / "r.sqlite") as served, Peer(served.port, "ann") as ann:
        served.room.players.clear()  # as after a restart
        served.room.by_token.clear()
        drawn = iter([ann.player])
        real = store_mod.new_id
        monkeypatch.setattr(room_mod, "new_id", lambda prefix="": next(drawn, None) or real(prefix))
        with Peer(served.port, "bob") as bob:
            assert bob.player != ann.player
        with Peer(served.port, "whoever", token=ann.token) as again:
            assert again.player == ann.player
            assert again.inbox[0]["name"] == "ann"


def test_ids_have_64_random_bits() -> None:
    assert len(store_mod.new_id()) == 16 and store_mod.new_id("t")[0] == "t" and len(store_mod.new_id("t")) == 17


# ---------------------------------------------------------------- 6. the end of a game in one write


class FailingRecordWrites:
    """A SQLite connection whose writes of a record fail, as if the process died at that moment."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def execute(self, sql: str, params: Any = ()) -> Any:
        if "record" in sql and any(isinstance(v, str) and '"actions"' in v for v in params):
            raise sqlite3.OperationalError("disk I/O error (injected)")
        return self.db.execute(sql, params)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


def test_a_fault_while_finishing_leaves_neither_then_a_restart_finishes_it(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    with Served(db) as served, Peer(served.port, "ann") as ann:
        store = served.room.store
        assert isinstance(store, SQLiteStore)
        store._db = FailingRecordWrites(store._db)  # type: ignore[assignment]
        tid = create_table(ann, "cribbage", 2, CRIBBAGE, bots={1: "random"})
        assert ann.request({"type": "leave", "table": tid})["type"] == "table"
        eventually(lambda: served.room.tables[tid].state == "over", 20, "the end of the game")
    with sqlite3.connect(db) as check:
        state, record = check.execute("SELECT state, record FROM tables WHERE id=?", (tid,)).fetchone()
    assert (state, record) == ("playing", None)  # neither the end nor the record
    with Served(db) as served:  # the restart replays the stored actions and finishes the game
        assert served.room.tables[tid].state == "over"
        status, rec = served.get(f"/api/games/{tid}/record")
        assert status == 200 and rec["meta"]["table"] == tid
    with sqlite3.connect(db) as check:
        assert check.execute("SELECT state FROM tables WHERE id=?", (tid,)).fetchone() == ("over",)


# ---------------------------------------------------------------- 7. waiting tables after a restart


def test_waiting_tables_from_before_a_restart_expire(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    with Served(db, grace=60) as served, Peer(served.port, "ann") as ann:
        tid = create_table(ann, "crisp", 3, start=False)
    with Served(db, grace=0.5) as served:
        status, lobby = served.get("/api/tables")
        assert status == 200 and [t["table"] for t in lobby] == [tid]  # back after the restart …
        eventually(lambda: tid not in served.room.tables, 5, "the waiting table's expiry")
        assert served.get("/api/tables") == (200, [])  # … and gone once its host's grace ran out
        assert served.room.store.unfinished_tables() == []
