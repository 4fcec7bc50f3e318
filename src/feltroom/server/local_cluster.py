"""A whole cluster on this machine, for trying it out and for benchmarks (``make cluster``):
PostgreSQL and Redis (Debian's packages), N room nodes and HAProxy in front, on one address.

    python -m feltroom.server.local_cluster start [--folder .cluster] [--port 8000] [--nodes 2]
    python -m feltroom.server.local_cluster stop  [--folder .cluster]

Decisions beyond the task:

- Everything lives in one folder (``.cluster/``, git-ignored): PostgreSQL's data (kept between runs:
  the room's players and games survive ``make cluster-stop``), Redis's folder (nothing persisted),
  the HAProxy configuration, each process's log and a ``state.json`` with the ports and process ids.
  The ports of PostgreSQL, Redis and the nodes are drawn free at the first start and kept.
- PostgreSQL runs as the ``postgres`` user when started as root (``pg_local``); the nodes, Redis
  and HAProxy run as whoever starts them, each in a session of its own so that they outlive the
  command that started them.
- HAProxy balances ``leastconn`` (WebSockets are long: the node with fewer open goes first),
  checks each node's ``GET /api/games`` every second (a node that fails two checks gets no new
  client), adds ``X-Forwarded-For`` (the nodes trust it from 127.0.0.1) and keeps an upgraded
  WebSocket open up to an hour of silence (``timeout tunnel``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from .local_service import free_port
from .pg_local import LocalPostgres
from .redis_local import LocalRedis

DATABASE = "feltroom"


def haproxy_config(host: str, port: int, nodes: list[int]) -> str:
    """An HAProxy configuration: ``host:port`` in front of the nodes on 127.0.0.1 at ``nodes``."""
    servers = "\n".join(f"    server node{i + 1} 127.0.0.1:{p} check inter 1s fall 2 rise 1"
                        for i, p in enumerate(nodes))
    # no maxconn: HAProxy sizes it to the descriptor limit it is given
    return f"""global

defaults
    mode http
    option forwardfor
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
    timeout http-request 10s
    retries 2
    option redispatch

frontend feltroom
    bind {host}:{port}
    default_backend nodes

backend nodes
    balance leastconn
    option httpchk GET /api/games
{servers}
"""


def find_haproxy() -> str:
    found = shutil.which("haproxy") or next((p for p in ("/usr/sbin/haproxy",) if os.path.exists(p)), None)
    if found is None:
        raise RuntimeError("haproxy was not found: install Debian's package `haproxy` (apt-get install haproxy)")
    return found


def spawn(command: list[str], log: Path, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """Start ``command`` in a session of its own (it outlives this process), its output to ``log``."""
    with open(log, "ab") as out:
        return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
                                env=env)


def wait_http(url: str, proc: subprocess.Popen[bytes] | None, log: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return
        except (urllib.error.URLError, OSError):
            if (proc is not None and proc.poll() is not None) or time.monotonic() > deadline:
                tail = log.read_text(errors="replace")[-3000:] if log.exists() else ""
                raise RuntimeError(f"{url} did not answer:\n{tail}") from None
            time.sleep(0.1)


def node_command(db: str, redis: str, port: int, extra: list[str]) -> list[str]:
    return [sys.executable, "-m", "feltroom.server", "serve", "--db", db, "--redis", redis, "--port", str(port),
            "--trusted-proxy", "127.0.0.1", *extra]


def start(folder: Path, host: str, port: int, nodes: int, extra: list[str]) -> dict[str, Any]:
    folder = folder.resolve()
    folder.mkdir(parents=True, exist_ok=True)
    state_file = folder / "state.json"
    state: dict[str, Any] = json.loads(state_file.read_text()) if state_file.exists() else {}
    if state.get("pids"):
        alive = [pid for pid in state["pids"].values() if _alive(pid)]
        if alive:
            raise RuntimeError(f"the cluster in {folder} is running (processes {alive}): make cluster-stop first")
    ports = state.get("ports", {})
    ports.setdefault("postgres", free_port())
    ports.setdefault("redis", free_port())
    node_ports = ports.get("nodes", [])
    while len(node_ports) < nodes:
        node_ports.append(free_port())
    ports["nodes"] = node_ports[:nodes]
    ports["front"] = port
    state = {"ports": ports, "pids": {}, "host": host}

    pg = LocalPostgres(folder / "postgres", ports["postgres"])
    pg.start()
    with contextlib.suppress(Exception):  # made at the first start
        pg.create_database(DATABASE)
    db = pg.url(DATABASE)
    redis_folder = folder / "redis"
    redis = LocalRedis(redis_folder, ports["redis"])
    redis.start()
    assert redis.proc is not None
    state["pids"]["redis"] = redis.proc.pid
    state_file.write_text(json.dumps(state, indent=1))
    for i, p in enumerate(ports["nodes"]):
        log = folder / f"node-{i + 1}.log"
        proc = spawn(node_command(db, redis.url, p, extra), log)
        state["pids"][f"node-{i + 1}"] = proc.pid
        state_file.write_text(json.dumps(state, indent=1))
        wait_http(f"http://127.0.0.1:{p}/api/games", proc, log)
    cfg = folder / "haproxy.cfg"
    cfg.write_text(haproxy_config(host, port, ports["nodes"]))
    log = folder / "haproxy.log"
    proxy = spawn([find_haproxy(), "-f", str(cfg), "-db"], log)
    state["pids"]["haproxy"] = proxy.pid
    state_file.write_text(json.dumps(state, indent=1))
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    wait_http(f"http://{shown}:{port}/api/games", proxy, log)
    state["db"], state["redis"] = db, redis.url
    state_file.write_text(json.dumps(state, indent=1))
    return state


def stop(folder: Path) -> list[str]:
    """Stop what ``start`` started in ``folder``; what was stopped."""
    folder = folder.resolve()
    state_file = folder / "state.json"
    done: list[str] = []
    if state_file.exists():
        state = json.loads(state_file.read_text())
        for name, pid in state.get("pids", {}).items():
            if _alive(pid):
                os.kill(pid, signal.SIGTERM)
                done.append(name)
        for pid in state.get("pids", {}).values():
            deadline = time.monotonic() + 15
            while _alive(pid) and time.monotonic() < deadline:
                time.sleep(0.05)
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        state["pids"] = {}
        state_file.write_text(json.dumps(state, indent=1))
        if (folder / "postgres" / "data" / "postmaster.pid").exists():
            pg = LocalPostgres(folder / "postgres", state["ports"]["postgres"])
            pg.started = True
            pg.stop()
            done.append("postgres")
    return done


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # a zombie left by a parent that has not waited is gone for us
    with contextlib.suppress(OSError), open(f"/proc/{pid}/stat") as f:
        if f.read().rsplit(")", 1)[1].split()[0] == "Z":
            return False
    return True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m feltroom.server.local_cluster", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["start", "stop"])
    ap.add_argument("--folder", default=".cluster", help="where everything lives (default .cluster)")
    ap.add_argument("--host", default="127.0.0.1", help="the load balancer's address (default 127.0.0.1)")
    ap.add_argument("--port", type=int, default=8000, help="the load balancer's port (default 8000)")
    ap.add_argument("--nodes", type=int, default=2, help="room nodes (default 2)")
    args, extra = ap.parse_known_args(argv)  # the rest goes to each `feltroom serve`
    folder = Path(args.folder)
    if args.command == "stop":
        done = stop(folder)
        print(f"stopped {', '.join(done)}" if done else f"nothing was running from {folder}")
        return 0
    try:
        state = start(folder, args.host, args.port, args.nodes, extra)
    except RuntimeError as e:
        print(f"make cluster: {e}", file=sys.stderr)
        stop(folder)
        return 1
    ports = state["ports"]
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "") else args.host
    print(f"feltroom cluster is open at http://{shown}:{args.port}/  (HAProxy in front of {args.nodes} nodes on "
          f"127.0.0.1:{', :'.join(map(str, ports['nodes']))}; PostgreSQL :{ports['postgres']}, Redis "
          f":{ports['redis']}; logs in {folder}/). Stop it with make cluster-stop.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
