"""A real server (uvicorn on 127.0.0.1, a free port) killed with SIGKILL mid-game and started
again on the same SQLite file: the game resumes with nothing lost (same seq, same views)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from feltroom.server.local_service import free_port

from .served import Peer


def start_server(db: Path, port: int, new_session: bool = False) -> subprocess.Popen[bytes]:
    """``feltroom serve`` on ``db`` and ``port``, its output in ``db``'s ``.log``; ``new_session``: in
    a process group of its own, as a terminal's foreground command is (for signals to the group)."""
    out = open(db.with_suffix(".log"), "ab")  # noqa: SIM115  (the server's output, read on failure)
    proc = subprocess.Popen(
        [sys.executable, "-m", "feltroom.server", "serve", "--port", str(port), "--db", str(db),
         "--grace", "600", "--bot-delay", "0"],
        stdout=out, stderr=subprocess.STDOUT, start_new_session=new_session)
    out.close()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1).close()
            return proc
        except (urllib.error.URLError, ConnectionError, OSError):
            if proc.poll() is not None:
                raise AssertionError(db.with_suffix(".log").read_text()) from None
            time.sleep(0.05)
    proc.kill()
    raise AssertionError("the server did not start")


@pytest.mark.slow
def test_kill_9_mid_game_and_restart_resumes_every_table(tmp_path: Path) -> None:
    db = tmp_path / "room.sqlite"
    port = free_port()
    proc = start_server(db, port)
    try:
        clients = [Peer(port, n) for n in ("ann", "bob", "cid", "dee")]
        clients[0].send({"type": "create", "game": "crisp", "seats": 4, "options": {"end_limit": 100}})
        tid = clients[0].recv_type("table")["table"]
        for c in clients[1:]:
            c.send({"type": "join", "table": tid})
            c.recv_type("table")
        clients[0].send({"type": "start", "table": tid})
        for c in clients:
            c.wait_seq(tid, 0)
        rng = random.Random(4)
        seq = 0
        while True:  # play until a few actions are in and no deadline runs, right after a player's action
            ups = [c.updates[tid] for c in clients]
            choices = [(i, a) for i, u in enumerate(ups) for a in u["legal"]]
            if seq >= 8 and not ups[0]["deadlines"] and choices and "draw" not in choices[0][1]:
                break
            if not choices:  # the hold: the server's clock releases the next player
                for c in clients:
                    c.wait_seq(tid, seq + 1, timeout=5)
                seq = clients[0].updates[tid]["seq"]
                continue
            i, action = rng.choice(choices)
            clients[i].send({"type": "act", "table": tid, "action": action, "seq": ups[i]["seq"]})
            seq = ups[i]["seq"] + 1
            for c in clients:
                c.wait_seq(tid, seq)
            seq = max(c.updates[tid]["seq"] for c in clients)
            for c in clients:
                c.wait_seq(tid, seq)
        before = {i: c.updates[tid] for i, c in enumerate(clients)}
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
    for c in clients:
        c.ws.close()

    proc = start_server(db, port)
    try:
        again = [Peer(port, "whoever", token=c.token) for c in clients]
        for i, c in enumerate(again):
            old = clients[i].welcome
            assert c.welcome["player"] == old["player"] and c.welcome["name"] == old["name"]
            assert c.welcome["tables"] == [{"table": tid, "seat": i, "state": "playing"}]
            t = c.recv_type("table")
            assert t["fair"] == next(m["fair"] for m in clients[i].inbox if m["type"] == "table" and m["fair"])
            u = c.recv_type("update")
            assert u["events"] == [] and u["seq"] == before[i]["seq"] and u["view"] == before[i]["view"]
            assert u["legal"] == before[i]["legal"]
        # and it goes on: the player on turn acts
        i, action = next((i, a) for i, c in enumerate(again) for a in c.updates[tid]["legal"])
        again[i].send({"type": "act", "table": tid, "action": action, "seq": before[i]["seq"]})
        for c in again:
            c.wait_seq(tid, before[i]["seq"] + 1)
        for c in again:
            c.ws.close()
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_a_restarted_room_resumes_tables_and_restarts_their_clocks(make_room: Any) -> None:
    """In process: the first room stops mid-turn with a draw timer running; a second room on
    the same file resumes the table (replayed from its record), its timers restarted in full,
    its bots playing again, and its waiting tables back in the lobby."""
    from .conftest import Room_, start_table
    from .test_disconnect import play_until

    first: Room_ = make_room(db="same.sqlite")
    ann = first.client("ann")
    tid = start_table(first, [ann], bots={1: "random"}, options={"end_limit": 100, "draw_time": 45})
    bob = first.client("bob")
    waiting = bob.request({"type": "create", "game": "crisp", "seats": 3, "options": {}})["table"]
    for _ in range(300):  # until it is ann's turn (the bot may be first, and its window holds ann)
        u = ann.updates[tid]
        if u["legal"] == ["draw"]:
            break
        if u["deadlines"] and not u["legal"]:
            first.clock.set(min(d["at"] for d in u["deadlines"]))
        ann.sync()
    assert ann.request({"type": "act", "table": tid, "action": "draw", "seq": ann.updates[tid]["seq"]})["seq"] > 0
    before = first.table(tid)
    assert before.game is not None
    seq, view = before.seq, before.game.view(0)
    first.close()

    second: Room_ = make_room(db="same.sqlite")
    table = second.table(tid)
    assert table.state == "playing" and table.seq == seq and table.game is not None
    assert table.game.view(0) == view and table.fair == before.fair
    assert [(d.action, d.seat, d.at) for d in table.deadlines.values()] == [("timeout", 0, second.clock.now() + 45)]
    assert second.table(waiting).state == "waiting"
    again = second.client("ann", token=ann.token)
    u = again.sync()[-1]
    assert u["type"] == "update" and u["seq"] == seq and u["view"] == view and u["events"] == []
    second.clock.advance(45)  # the restarted draw timer fires; then the bot plays its turn
    for _ in range(200):
        if table.seq > seq + 1:
            break
        again.sync()
    assert table.record()["actions"][seq] == ["CLOCK", "timeout"]
    play_until(second, again, tid, lambda: any(s == 1 for s, _ in table.record()["actions"][seq + 1:]),
               random.Random(3))  # and the bot plays its seat again
