"""No lock-out, bounded memory: the room's connection limits against a real uvicorn on 127.0.0.1.

Each test sets the limit under test low and hits it; the figures (time to close, memory growth,
descriptors) are printed (``pytest -s``), the assertions only bound them generously.
"""

from __future__ import annotations

import itertools
import json
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from feltroom.server import Limits
from feltroom.server.connection import Connection
from feltroom.server.local_service import free_port

from .live import open_fds, raw_websocket, read_frame, rss_kib, serve_live, ws_frame

pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager")



_names = itertools.count(1)


def hello(port: int, name: str | None = None, forwarded_for: str | None = None) -> ClientConnection:
    name = name or f"guest{next(_names)}"  # names are unique in the room
    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else None
    ws = connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10, additional_headers=headers)
    ws.send(json.dumps({"type": "hello", "protocol": 1, "name": name, "token": None}))
    assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
    return ws


def request(ws: ClientConnection, msg: dict[str, Any], mid: int) -> dict[str, Any]:
    ws.send(json.dumps({**msg, "id": mid}))
    while True:
        reply: dict[str, Any] = json.loads(ws.recv(timeout=10))
        if reply.get("id") == mid:
            return reply


def close_code(ws: ClientConnection, timeout: float = 10) -> int | None:
    """Read until the server closes; its close code."""
    with pytest.raises(ConnectionClosed) as e:
        while True:
            ws.recv(timeout=timeout)
    return e.value.rcvd.code if e.value.rcvd else None


def wait_closed(sock: socket.socket, timeout: float = 15) -> bytes:
    """Everything the server sends until it closes ``sock`` (fails if it stays open ``timeout`` s)."""
    sock.settimeout(timeout)
    data = b""
    while chunk := sock.recv(4096):
        data += chunk
    return data


def tcp(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=10)


@pytest.mark.slow
def test_idle_and_half_open_connections_are_closed(tmp_path: Path) -> None:
    with serve_live(tmp_path, Limits(head_timeout=1.0, max_request_head=4096)) as server:
        idle, half, big = tcp(server.port), tcp(server.port), tcp(server.port)
        t0 = time.monotonic()
        half.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nAccept: */")
        big.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n" + b"X-Pad: " + b"a" * 5000 + b"\r\n")
        assert wait_closed(idle) == b""
        print(f"\nan idle TCP connection closed after {time.monotonic() - t0:.2f} s (head_timeout 1 s)")
        assert wait_closed(half).startswith(b"HTTP/1.1 408 ")
        print(f"a half-sent request head answered 408 and closed after {time.monotonic() - t0:.2f} s")
        assert wait_closed(big).startswith(b"HTTP/1.1 431 ")
        with tcp(server.port) as ok:  # a whole request is served as before
            ok.sendall(b"GET /api/tables HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            assert wait_closed(ok).startswith(b"HTTP/1.1 200 ")


@pytest.mark.slow
def test_a_websocket_that_never_says_hello_is_closed(tmp_path: Path) -> None:
    with serve_live(tmp_path, Limits(hello_timeout=1.0)) as server:
        silent = connect(server.ws_url, open_timeout=10)
        talker = hello(server.port)
        t0 = time.monotonic()
        assert close_code(silent) == 1008
        print(f"\na socket without hello closed (1008) after {time.monotonic() - t0:.2f} s (hello_timeout 1 s)")
        time.sleep(1.0)
        assert request(talker, {"type": "ping"}, 1)["type"] == "pong"  # a socket that said hello stays


@pytest.mark.slow
def test_sockets_per_address_are_capped_and_the_address_comes_from_a_trusted_proxy(tmp_path: Path) -> None:
    with serve_live(tmp_path, Limits(hello_timeout=120), trusted_proxies=["127.0.0.1"]) as server:
        many = [connect(server.ws_url, open_timeout=10, additional_headers={"X-Forwarded-For": "203.0.113.1"})
                for _ in range(50)]
        ws51 = connect(server.ws_url, open_timeout=10, additional_headers={"X-Forwarded-For": "203.0.113.1"})
        assert close_code(ws51) == 1013
        other = hello(server.port, "bob", forwarded_for="203.0.113.2")  # another address still gets in
        assert request(other, {"type": "ping"}, 1)["type"] == "pong"
        many.pop().close()
        time.sleep(0.2)
        hello(server.port, "cid", forwarded_for="203.0.113.1").close()  # a freed place is free again
        for ws in many:
            ws.close()


def test_forwarded_for_is_ignored_from_an_untrusted_peer(tmp_path: Path) -> None:
    with serve_live(tmp_path, Limits(max_sockets_per_address=2)) as server:
        keep = [hello(server.port, forwarded_for=f"203.0.113.{i}") for i in (1, 2)]
        third = connect(server.ws_url, open_timeout=10, additional_headers={"X-Forwarded-For": "203.0.113.3"})
        assert close_code(third) == 1013
        for ws in keep:
            ws.close()


@pytest.mark.slow
def test_tcp_connections_are_capped_in_all_and_per_peer_with_an_answer(tmp_path: Path) -> None:
    with serve_live(tmp_path, Limits(max_tcp_connections=20, head_timeout=60),
                    trusted_proxies=["127.0.0.1"]) as server:
        time.sleep(0.3)  # the readiness probe's connection is gone
        idle = [tcp(server.port) for _ in range(20)]
        time.sleep(0.3)
        with tcp(server.port) as over:
            answer = wait_closed(over)
        assert answer.startswith(b"HTTP/1.1 503 ") and b"at most 20 connections" in answer
        for s in idle:
            s.close()
        time.sleep(0.3)
        with tcp(server.port) as ok:
            ok.sendall(b"GET /api/tables HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            assert wait_closed(ok).startswith(b"HTTP/1.1 200 ")
    with serve_live(tmp_path, Limits(max_tcp_per_address=5, head_timeout=60)) as server:
        time.sleep(0.3)
        idle = [tcp(server.port) for _ in range(5)]
        time.sleep(0.3)
        with tcp(server.port) as over:
            answer = wait_closed(over)
        assert answer.startswith(b"HTTP/1.1 503 ") and b"per address" in answer
        for s in idle:
            s.close()


@pytest.mark.slow  # 600 connections left to time out: seconds by design
def test_descriptors_do_not_leak_under_an_idle_flood(tmp_path: Path) -> None:
    # Timeouts of 5 s, and the peak sampled while the flood opens: on a loaded machine opening 600
    # connections took over a second, and a 1 s timeout had closed the first 500 before a count
    # taken after the last one (CI, stop 20: 119 descriptors "during").
    with serve_live(tmp_path, Limits(head_timeout=5.0, hello_timeout=5.0, max_tcp_per_address=10_000,
                                     max_sockets_per_address=10_000)) as server:
        hello(server.port).close()  # the store opens its WAL files on the first write and checkpoint
        time.sleep(2.5)
        before = len(open_fds(server.pid))
        peak = [before]
        flooding = threading.Event()
        flooding.set()

        def sample() -> None:
            while flooding.is_set():
                peak.append(len(open_fds(server.pid)))
                time.sleep(0.05)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        idle = [tcp(server.port) for _ in range(400)]
        half = [tcp(server.port) for _ in range(100)]
        for s in half:
            s.sendall(b"GET / HTTP/1.1\r\n")
        silent = [raw_websocket(server.port) for _ in range(100)]
        time.sleep(0.5)  # the server accepts what is still in its backlog
        flooding.clear()
        sampler.join()
        during = max(peak)
        for s in idle + half + silent:
            wait_closed(s) if s in idle or s in half else read_frame(s)
        deadline = time.monotonic() + 15
        while len(open_fds(server.pid)) > before and time.monotonic() < deadline:
            time.sleep(0.1)
        after = len(open_fds(server.pid))
        print(f"\nserver descriptors: {before} before, {during} at most with 600 idle connections, {after} after")
        assert during >= before + 500
        assert after <= before
        for s in idle + half + silent:
            s.close()


def test_a_client_that_does_not_read_is_dropped_at_the_byte_cap(tmp_path: Path) -> None:
    with serve_live(tmp_path, Limits(max_queue_bytes=64 * 1024, write_stall=600, rate=1e6, burst=1e6)) as server:
        sock = raw_websocket(server.port, rcvbuf=4096)
        sock.sendall(ws_frame(json.dumps({"type": "hello", "protocol": 1, "name": "ann", "token": None})))
        ping = ws_frame(json.dumps({"type": "ping", "id": "x" * 100}))
        sent = 0
        sock.settimeout(0.5)
        try:
            for _ in range(20_000):  # pongs pile up on the server: this client reads nothing
                sock.sendall(ping)
                sent += 1
        except (TimeoutError, OSError):
            pass  # the server stopped reading us: it has dropped the socket or paused reading
        sock.settimeout(10)
        pongs = 0
        while True:
            opcode, payload = read_frame(sock)
            if opcode == 8:
                break
            pongs += 1
        code = struct.unpack("!H", payload[:2])[0]
        print(f"\n{sent} pings sent, {pongs} pongs received before close {code}: {payload[2:].decode()}")
        assert code == 1013
        assert pongs < sent


@pytest.mark.slow
def test_a_lobby_subscriber_that_never_reads_is_dropped_and_memory_stays_bounded(tmp_path: Path) -> None:
    limits = Limits(write_stall=2.0, max_open_tables_per_player=10_000, new_tables_per_hour=10**6, rate=1e6,
                    burst=1e6)
    with serve_live(tmp_path, limits) as server:
        builders = [hello(server.port, f"host{i}") for i in range(4)]
        mid = 0
        for ws in builders:  # a big lobby: 600 tables
            for _ in range(150):
                mid += 1
                assert request(ws, {"type": "create", "game": "crisp", "seats": 8, "options": {}}, mid)["type"] \
                    == "table"
        slow = raw_websocket(server.port, rcvbuf=4096)
        slow.sendall(ws_frame(json.dumps({"type": "hello", "protocol": 1, "name": "slow", "token": None, "id": 1})))
        slow.sendall(ws_frame(json.dumps({"type": "create", "game": "crisp", "seats": 2, "options": {}, "id": 2})))
        watcher = hello(server.port, "eve")
        time.sleep(0.5)
        lobby = request(watcher, {"type": "lobby"}, 1)
        slow_table = next(t["table"] for t in lobby["tables"] if t["host"] == "slow")
        slow.sendall(ws_frame(json.dumps({"type": "lobby", "id": 3})))
        assert request(watcher, {"type": "join", "table": slow_table}, 2)["type"] == "table"
        watcher.send(json.dumps({"type": "lobby", "id": 3}))  # the watcher reads: it must keep up
        start_rss = rss_kib(server.pid)
        dropped = threading.Event()

        def watch() -> None:
            try:
                while True:
                    msg = json.loads(watcher.recv(timeout=60))
                    if msg["type"] == "table" and msg["table"] == slow_table and not msg["seats"][0]["connected"]:
                        dropped.set()
                        return
            except (ConnectionClosed, TimeoutError):
                return

        reader = threading.Thread(target=watch, daemon=True)
        reader.start()
        churner = builders[0]
        t0 = time.monotonic()
        steps = 0
        peak = start_rss
        while steps < 600 and not (dropped.is_set() and steps >= 300):
            mid += 1
            churner.send(json.dumps({"type": "create", "game": "crisp", "seats": 8, "options": {}, "id": mid}))
            while (msg := json.loads(churner.recv(timeout=10)))["type"] != "table":
                pass
            churner.send(json.dumps({"type": "leave", "table": msg["table"]}))
            steps += 1
            peak = max(peak, rss_kib(server.pid))
        reader.join(30)
        growth = (peak - start_rss) / 1024
        print(f"\nlobby of {len(lobby['tables']) + 1} tables ({len(json.dumps(lobby)) // 1024} KiB), {steps} churn "
              f"steps in {time.monotonic() - t0:.1f} s; server RSS {start_rss // 1024} MiB at the start, "
              f"peak growth {growth:.1f} MiB; the slow reader was shown disconnected: {dropped.is_set()}")
        assert dropped.is_set()
        assert growth < 100
        slow.close()


def test_the_lobby_is_coalesced_and_the_queue_is_bounded_in_bytes() -> None:
    conn = Connection(None, Limits(max_queue_bytes=1000), 0.0, "203.0.113.1")
    conn.send('{"type":"table"}')
    for i in range(50):  # a lagging subscriber: each list replaces the one still waiting
        conn.send_lobby(f'{{"type":"lobby","n":{i}}}')
    assert list(conn.queue) == ['{"type":"table"}', None] and conn.pending_lobby == '{"type":"lobby","n":49}'
    assert conn.queued_bytes == len('{"type":"table"}') + len(conn.pending_lobby)
    conn.send("x" * 990)  # over 1000 bytes with what waits: dropped, with 1013
    assert conn.closing and conn.close_code == 1013 and not conn.queue and conn.queued_bytes == 0
    alone = Connection(None, Limits(max_queue_bytes=1000), 0.0, "203.0.113.2")
    alone.send_lobby("x" * 5000)  # a message always fits in an empty queue
    assert not alone.closing


@pytest.mark.slow
def test_feltroom_serve_sets_the_limits_from_its_flags(tmp_path: Path) -> None:
    port = free_port()
    with open(tmp_path / "serve.log", "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "feltroom.server", "serve", "--port", str(port), "--db",
                                 str(tmp_path / "room.sqlite"), "--head-timeout", "1", "--hello-timeout", "1",
                                 "--max-sockets-per-address", "1", "--trusted-proxy", "127.0.0.1"],
                                stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                idle = tcp(port)
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
                time.sleep(0.1)
        assert wait_closed(idle) == b""
        first = connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10, additional_headers={"X-Forwarded-For": "::2"})
        second = connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10, additional_headers={"X-Forwarded-For": "::2"})
        assert close_code(second) == 1013
        assert close_code(first) == 1008
    finally:
        proc.terminate()
        proc.wait(10)
    bad = subprocess.run([sys.executable, "-m", "feltroom.server", "serve", "--trusted-proxy", "nowhere"],
                         capture_output=True, text=True, timeout=30)
    assert bad.returncode == 2 and "not an IP address or network: 'nowhere'" in bad.stderr
