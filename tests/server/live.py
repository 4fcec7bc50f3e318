"""A real room for tests: ``create_app`` under uvicorn in its own process on 127.0.0.1.

``serve_live(tmp_path, limits)`` starts the app exactly as ``feltroom serve`` does (through
``sockets.uvicorn_config``, so the TCP-level limits apply too) on a free port, waits until it
answers ``GET /``, yields a ``LiveServer`` (``port``, ``pid``, ``url``, ``ws_url``, ``log()``)
and stops it afterwards (``live_room`` is the same, yielding ``(port, log path)``)::

    with serve_live(tmp_path, Limits(hello_timeout=1), trusted_proxies=["127.0.0.1"]) as server:
        ws = websockets.sync.client.connect(server.ws_url)

Being a separate process, the server can be measured from outside: ``rss_kib(pid)`` and
``open_fds(pid)`` read /proc. ``raw_websocket`` opens a WebSocket over a plain socket that reads
only when told to (a client that stops reading), ``ws_frame``/``read_frame`` speak its frames.
``python -m tests.server.live CONFIG_JSON`` is the server process.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import json
import os
import socket
import struct
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from feltroom.server import Limits
from feltroom.server.leases import Leases
from feltroom.server.local_service import free_port

ROOT = Path(__file__).resolve().parents[2]


def main(config: str) -> None:
    import uvicorn

    from feltroom.server import create_app
    from feltroom.server.address import TrustedProxies
    from feltroom.server.sockets import uvicorn_config

    cfg = json.loads(config)
    limits = Limits(**cfg["limits"])
    app = create_app(cfg["db"], limits=limits, grace=cfg["grace"], bot_delay=cfg["bot_delay"],
                     allow_origins=cfg["origins"], trusted_proxies=cfg["trusted"], redis=cfg.get("redis"),
                     leases=Leases(**cfg["leases"]))
    uvicorn.Server(uvicorn_config(app, limits, TrustedProxies(cfg["trusted"]), port=cfg["port"])).run()


@dataclass
class LiveServer:
    port: int
    proc: subprocess.Popen[bytes]
    log_path: Path

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


@contextlib.contextmanager
def serve_live(tmp_path: Path, limits: Limits | None = None, *, trusted_proxies: Iterable[str] = (),
               allow_origins: Iterable[str] = (), grace: float = 60.0, bot_delay: float = 0.0,
               db: str | None = None, redis: str | None = None,
               leases: Leases | None = None) -> Iterator[LiveServer]:
    """Run the room in a subprocess with ``limits`` (default ``Limits()``) until the block ends.
    ``db``: a file name in ``tmp_path``, or a ``postgresql://`` URL; ``redis``: a ``redis://`` URL
    (the process is then one node of a cluster, its lease timings ``leases``)."""
    port = free_port()
    database = db if db is not None and "://" in db else str(tmp_path / (db or f"room-{port}.sqlite"))
    cfg = {"limits": dataclasses.asdict(limits or Limits()), "leases": dataclasses.asdict(leases or Leases()),
           "db": database, "redis": redis,
           "grace": grace, "bot_delay": bot_delay, "trusted": list(trusted_proxies), "origins": list(allow_origins),
           "port": port}
    log_path = tmp_path / f"room-{port}.log"
    with open(log_path, "ab") as out:
        proc = subprocess.Popen([sys.executable, "-m", "tests.server.live", json.dumps(cfg)], stdout=out,
                                stderr=subprocess.STDOUT, cwd=ROOT)
    server = LiveServer(port, proc, log_path)
    try:
        deadline = time.monotonic() + 60  # a loaded machine may take tens of seconds to import the room
        while True:
            try:
                urllib.request.urlopen(server.url + "/", timeout=2).close()
                break
            except (urllib.error.URLError, OSError):
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError("the server did not start:\n" + server.log()) from None
                time.sleep(0.05)
        yield server
    finally:
        if proc.poll() is None:
            proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


@contextlib.contextmanager
def live_room(tmp: Path, limits: Limits | None = None,
              allow_origins: tuple[str, ...] = ()) -> Iterator[tuple[int, Path]]:
    """``serve_live`` yielding ``(port, log path)``."""
    with serve_live(tmp, limits, allow_origins=allow_origins) as server:
        yield server.port, server.log_path


def rss_kib(pid: int) -> int:
    """The resident memory of process ``pid`` in KiB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def open_fds(pid: int) -> dict[str, str]:
    """The descriptors process ``pid`` holds open and what each points to (Linux /proc)."""
    out = {}
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            out[fd] = os.readlink(f"/proc/{pid}/fd/{fd}")
    return out


def ws_frame(text: str, opcode: int = 1) -> bytes:
    """A masked client frame carrying ``text`` (RFC 6455 §5.2)."""
    payload = text.encode()
    mask = os.urandom(4)
    n = len(payload)
    head = bytes([0x80 | opcode])
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 1 << 16:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", n)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def read_exactly(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return data


def read_frame(sock: socket.socket) -> tuple[int, bytes]:
    """One server frame: its opcode and payload (8 is a close: a 2-byte code, then the reason)."""
    b0, b1 = read_exactly(sock, 2)
    n = b1 & 0x7F
    if n == 126:
        n = struct.unpack("!H", read_exactly(sock, 2))[0]
    elif n == 127:
        n = struct.unpack("!Q", read_exactly(sock, 8))[0]
    return b0 & 0x0F, read_exactly(sock, n)


def raw_websocket(port: int, *, rcvbuf: int | None = None, forwarded_for: str | None = None,
                  timeout: float = 10) -> socket.socket:
    """A WebSocket handshake over a plain socket; the socket reads nothing more unless asked.

    ``rcvbuf`` shrinks the receive buffer (set before connecting, so the window stays small);
    ``forwarded_for`` sends an ``X-Forwarded-For`` header.
    """
    sock = socket.socket()
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(timeout)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    extra = f"X-Forwarded-For: {forwarded_for}\r\n" if forwarded_for else ""
    sock.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n{extra}\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        if not chunk:
            raise ConnectionError("closed during the handshake")
        head += chunk
    if not head.startswith(b"HTTP/1.1 101"):
        raise ConnectionError(head.decode(errors="replace"))
    return sock


if __name__ == "__main__":
    main(sys.argv[1])
