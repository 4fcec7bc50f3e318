"""``make cluster`` (feltroom.server.local_cluster): PostgreSQL, Redis, two nodes and HAProxy
started in a folder, one address in front that serves the WebSocket protocol, and ``stop``
leaving no process behind."""

from __future__ import annotations

import json
import os
import random
import shutil
import tempfile
import urllib.request
from pathlib import Path

import pytest

from feltroom.server import local_cluster
from feltroom.server.pg_local import free_port

from .served import Peer

pytestmark = pytest.mark.slow


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
        ann.close()
        bob.close()
        pids = list(state["pids"].values())
    finally:
        stopped = local_cluster.stop(folder)
        shutil.rmtree(base, ignore_errors=True)
    assert set(stopped) == {"redis", "node-1", "node-2", "haproxy", "postgres"}
    for pid in pids:
        assert not local_cluster._alive(pid)
    assert not (folder / "postgres" / "data" / "postmaster.pid").exists()
    assert not any(os.path.exists(f"/proc/{pid}") and local_cluster._alive(pid) for pid in pids)
