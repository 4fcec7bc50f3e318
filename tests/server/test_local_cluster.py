"""``make cluster`` (feltroom.server.local_cluster): PostgreSQL, Redis, two nodes and HAProxy
started in a folder, one address in front that serves the WebSocket protocol (and goes on
serving a game when a node is killed: its clients reconnect to the same address), and ``stop``
leaving no process behind."""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from feltroom.server import local_cluster
from feltroom.server.local_service import free_port

from .served import Peer

pytestmark = pytest.mark.slow


def reconnect(front: int, token: str | None, within: float = 10.0) -> Peer:
    """Connect again to the same address, retrying as the browser client does (with a pause): until
    HAProxy's checks mark the killed node down (two failed checks a second apart), a new connection
    may still be sent there and be answered 502 or 503."""
    deadline = time.monotonic() + within
    while True:
        try:
            return Peer(front, "whoever", token=token)
        except (InvalidStatus, OSError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.25)


def test_make_cluster_serves_one_address_and_stops_everything() -> None:
    # not pytest's tmp_path: its folders are closed to others, and PostgreSQL runs as `postgres` under root
    base = Path(tempfile.mkdtemp(prefix="feltroom-cluster-"))
    base.chmod(0o755)
    folder = base / "cluster"
    front = free_port()
    try:
        state = local_cluster.start(folder, "127.0.0.1", front, 2, ["--bot-delay", "0"])
        assert (folder / "haproxy.cfg").exists() and len(state["ports"]["nodes"]) == 2
        with urllib.request.urlopen(f"http://127.0.0.1:{front}/api/games", timeout=10) as r:
            assert r.status == 200
        # through the load balancer, each socket on whichever node HAProxy picks
        names = [f"lc{random.randrange(10**6)}", f"lc{random.randrange(10**6)}"]
        ann, bob = (Peer(front, n) for n in names)
        tid = ann.request({"type": "create", "game": "crisp", "seats": 2, "options": {}})["table"]
        assert bob.request({"type": "join", "table": tid})["you"] == 1
        assert ann.request({"type": "start", "table": tid})["state"] == "playing"
        for p in (ann, bob):
            p.wait_seq(tid, 0)
        for port in state["ports"]["nodes"]:  # the same lobby on both nodes
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=10) as r:
                assert [t["table"] for t in json.loads(r.read())] == [tid]
        pids = list(state["pids"].values())

        # kill -9 of one node: whoever was on it reconnects to the same address and the game goes on
        os.kill(state["pids"]["node-1"], signal.SIGKILL)
        players = [ann, bob]
        for i, p in enumerate(players):
            try:
                p.sync()
            except ConnectionClosed:
                players[i] = reconnect(front, p.token)
                assert players[i].welcome["tables"] == [{"table": tid, "seat": i, "state": "playing"}]
        deadline = time.monotonic() + 20
        moves = 0
        while moves < 3:  # until the table has an owner again (if it was on the dead node), then on
            seqs = {p.updates.get(tid, {}).get("seq") for p in players}
            ups = [p.updates.get(tid) for p in players]
            who = [(i, a) for i, u in enumerate(ups) if u is not None for a in u["legal"]]
            if len(seqs) == 1 and who:
                i, action = who[0]
                seq = players[i].updates[tid]["seq"]
                reply = players[i].request({"type": "act", "table": tid, "action": action, "seq": seq})
                if reply["type"] == "update":
                    moves += 1
                    for p in players:
                        p.wait_seq(tid, reply["seq"], timeout=20)
                    continue
                assert reply["code"] == "unavailable", reply
            assert time.monotonic() < deadline, "the game did not go on after the node died"
            for p in players:
                with contextlib.suppress(TimeoutError):
                    p.recv(timeout=0.2)
        for p in players:
            p.close()
    finally:
        stopped = local_cluster.stop(folder)
        shutil.rmtree(base, ignore_errors=True)
    assert set(stopped) == {"redis", "node-2", "haproxy", "postgres"}  # node-1 was killed
    for pid in pids:
        assert not local_cluster._alive(pid)
    assert not (folder / "postgres" / "data" / "postmaster.pid").exists()
    assert not any(os.path.exists(f"/proc/{pid}") and local_cluster._alive(pid) for pid in pids)
