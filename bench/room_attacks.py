"""Two attacks on a running room (``feltroom serve`` in a subprocess, default limits, 127.0.0.1).

1. Idle flood: ``--idle`` TCP connections that send nothing, from ``--addresses`` loopback
   addresses (127.0.0.1, 127.0.0.2, …). Prints the server's descriptors
   before, during and after, how many connections were answered at once (503), and when the
   first idle one was closed.
2. Slow reader: a lobby of ``--tables`` tables, one lobby subscriber that never reads (a 4 KiB
   receive buffer), and ``--churners`` sockets taking a seat and leaving it for ``--seconds``
   (each client has an address of its own, through ``--trusted-proxy 127.0.0.1``).
   Prints the server's resident memory (start, peak growth) and when the slow reader was shown
   disconnected to a player at its table.

Run it against another checkout with ``PYTHONPATH=/path/to/src`` (the server subprocess imports
``feltroom`` from there) to compare; ``feltroom serve`` there must know ``--trusted-proxy``.
Bounded: every phase has its own deadline.

    .venv/bin/python bench/room_attacks.py --idle 3000 --tables 600 --seconds 40
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import itertools
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from feltroom.server.local_service import free_port

HOST = "127.0.0.1"


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def start_server(db: str, port: int, *flags: str) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-m", "feltroom.server", "serve", "--port", str(port), "--db", db,
                             "--grace", "600", "--bot-delay", "0", *flags], stdout=subprocess.DEVNULL)
    end = time.monotonic() + 30
    while time.monotonic() < end:
        try:
            urllib.request.urlopen(f"http://{HOST}:{port}/api/tables", timeout=2).close()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def idle_flood(port: int, pid: int, n: int, wait: float, addresses: int) -> None:
    before = fds(pid)
    socks: list[socket.socket] = []
    t0 = time.monotonic()
    for i in range(n):
        s = socket.socket()
        s.bind((f"127.0.0.{1 + i % addresses}", 0))  # all of 127.0.0.0/8 is loopback
        s.setblocking(False)
        s.connect_ex((HOST, port))
        socks.append(s)
    time.sleep(1.0)
    during = fds(pid)
    answered = 0
    first_closed = 0.0
    closed: set[int] = set()
    end = t0 + wait
    while time.monotonic() < end and len(closed) < n:
        for i, s in enumerate(socks):
            if i in closed:
                continue
            try:
                data = s.recv(4096)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            closed.add(i)
            if data.startswith(b"HTTP/1.1 503"):
                answered += 1
            elif not first_closed:
                first_closed = time.monotonic() - t0
        time.sleep(0.1)
    after = fds(pid)
    when = f"the first idle one closed after {first_closed:.1f} s" if first_closed else "no idle one was closed"
    print(f"idle flood of {n} TCP connections from {addresses} address(es): server fds {before} before, "
          f"{during} during, {after} after {wait:.0f} s; {answered} answered 503 at once, "
          f"{len(closed)} closed in all; {when}")
    for s in socks:
        s.close()


_addresses = itertools.count(1)


def next_address() -> str:
    """A client address of its own (198.18.0.0/15, for benchmarks), sent as X-Forwarded-For from
    the trusted 127.0.0.1: each client is a different player on the network, as in an attack from
    many addresses, so the per-address limits on new players and tables stay out of the way."""
    n = next(_addresses)
    return f"198.18.{n // 250}.{1 + n % 250}"


async def hello(port: int, name: str) -> ClientConnection:
    ws = await connect(f"ws://{HOST}:{port}/ws", max_size=2**24, additional_headers={"X-Forwarded-For": next_address()})
    await ws.send(json.dumps({"type": "hello", "protocol": 1, "name": name, "token": None}))
    while json.loads(await ws.recv())["type"] != "welcome":
        pass
    return ws


async def until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(await ws.recv())
        if msg["type"] == kind:
            return msg
        if msg["type"] == "error":
            raise RuntimeError(msg)


def raw_subscriber(port: int) -> socket.socket:
    """A lobby subscriber that never reads after the handshake."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect((HOST, port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /ws HTTP/1.1\r\nHost: {HOST}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nX-Forwarded-For: {next_address()}\r\n"
               "\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    for msg in ({"type": "hello", "protocol": 1, "name": "slow", "token": None},
                {"type": "create", "game": "crisp", "seats": 2, "options": {}}, {"type": "lobby"}):
        payload = json.dumps(msg).encode()
        mask = os.urandom(4)
        s.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
    return s


async def slow_reader(port: int, pid: int, tables: int, churners: int, seconds: float) -> None:
    for i in range(0, tables, 8):  # default limits: 8 unfinished tables per player
        ws = await hello(port, f"host{i}")
        for _ in range(min(8, tables - i)):
            await ws.send(json.dumps({"type": "create", "game": "crisp", "seats": 8, "options": {}}))
            await until(ws, "table")
        await ws.close()
    slow = raw_subscriber(port)
    watcher = await hello(port, "eve")
    await asyncio.sleep(0.5)
    await watcher.send(json.dumps({"type": "lobby"}))
    lobby = await until(watcher, "lobby")
    size = len(json.dumps(lobby))
    tid = next(t["table"] for t in lobby["tables"] if t["host"] == "slow")
    await watcher.send(json.dumps({"type": "join", "table": tid}))
    start = rss_mib(pid)
    t0 = time.monotonic()
    shown: list[float] = []
    peak = [start]
    steps = [0]

    async def watch() -> None:
        while True:
            msg = json.loads(await watcher.recv())
            if msg["type"] == "table" and msg["table"] == tid and not msg["seats"][0]["connected"]:
                shown.append(time.monotonic() - t0)
                return

    others = [t["table"] for t in lobby["tables"] if t["table"] != tid]

    async def churn(i: int) -> None:  # a seat taken and given up again: two lobby changes
        ws = await hello(port, f"churn{i}")
        while time.monotonic() - t0 < seconds:
            table = others[i % len(others)]
            await ws.send(json.dumps({"type": "join", "table": table}))
            await until(ws, "table")
            await ws.send(json.dumps({"type": "leave", "table": table}))
            await until(ws, "left")
            steps[0] += 1
            await asyncio.sleep(0.1)  # under the default rate limit (20 messages a second)
        await ws.close()

    async def sample() -> None:
        while time.monotonic() - t0 < seconds:
            peak[0] = max(peak[0], rss_mib(pid))
            await asyncio.sleep(0.25)

    watching = asyncio.create_task(watch())
    await asyncio.gather(sample(), *(churn(i) for i in range(churners)))
    watching.cancel()
    await watcher.close()
    print(f"slow reader: lobby of {len(lobby['tables'])} tables ({size / 1024:.0f} KiB a message), {steps[0]} "
          f"churn steps in {seconds:.0f} s; server RSS {start:.0f} MiB at the start, peak growth "
          f"{peak[0] - start:.0f} MiB, {rss_mib(pid) - start:.0f} MiB at the end; the slow reader "
          + (f"was shown disconnected after {shown[0]:.1f} s" if shown else "was never shown disconnected"))
    slow.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--idle", type=int, default=3000, help="idle TCP connections (default 3000)")
    ap.add_argument("--addresses", type=int, default=1, help="loopback addresses they come from (default 1)")
    ap.add_argument("--idle-wait", type=float, default=15.0, help="seconds to watch them (default 15)")
    ap.add_argument("--tables", type=int, default=600, help="tables in the lobby (default 600)")
    ap.add_argument("--churners", type=int, default=10, help="sockets creating and closing tables (default 10)")
    ap.add_argument("--seconds", type=float, default=40.0, help="seconds of churn (default 40)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for phase in ("idle", "slow"):
            if not (args.idle if phase == "idle" else args.tables):
                continue
            port = free_port()
            flags = ("--trusted-proxy", HOST) if phase == "slow" else ()
            proc = start_server(str(Path(tmp) / f"{phase}.sqlite"), port, *flags)
            try:
                if phase == "idle":
                    idle_flood(port, proc.pid, args.idle, args.idle_wait, args.addresses)
                else:
                    asyncio.run(slow_reader(port, proc.pid, args.tables, args.churners, args.seconds))
            finally:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    print("the server did not stop within 10 s of SIGTERM: killed")
                    proc.kill()
                    proc.wait(10)


if __name__ == "__main__":
    main()
