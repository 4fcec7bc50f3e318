"""A Redis server of its own, for tests, benchmarks and ``make cluster``: Debian's ``redis-server``
in a folder, on 127.0.0.1 and a free port.

Decisions beyond the task:

- The binary is ``$FELTROOM_REDIS_SERVER``, else ``redis-server`` on the PATH; none found is an
  error naming the package to install (``RedisMissing``), never a silent skip.
- Nothing is persisted (no RDB snapshot, no append-only file): the cluster keeps only leases,
  the lobby's copy and messages in Redis, and rebuilds them from the store when Redis starts
  empty (cluster.py).
- The server listens on 127.0.0.1 only, without a password: a server for this machine.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

from .local_service import LocalService, free_port


class RedisMissing(RuntimeError):
    """redis-server is not installed."""


def find_redis_server() -> str:
    found = os.environ.get("FELTROOM_REDIS_SERVER") or shutil.which("redis-server")
    if not found:
        raise RedisMissing("redis-server was not found in $FELTROOM_REDIS_SERVER or on the PATH: install Debian's "
                           "package `redis-server` (apt-get install redis-server; .ci/run does)")
    return found


class LocalRedis(LocalService):
    """``with LocalRedis() as r: r.url`` → a ``redis://`` URL for ``feltroom serve --redis``."""

    prefix = "feltroom-redis-"

    def __init__(self, folder: Path | None = None, port: int | None = None) -> None:
        self.binary = find_redis_server()
        super().__init__(folder, port)
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def log(self) -> Path:
        return self.folder / "redis.log"

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        for attempt in range(3):  # the free port may be taken between the probe and the start
            with open(self.log, "ab") as out:
                self.proc = subprocess.Popen(
                    [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder),
                     "--save", "", "--appendonly", "no", "--protected-mode", "yes", "--daemonize", "no"],
                    stdout=out, stderr=subprocess.STDOUT, cwd=self.folder,
                    start_new_session=True)  # outlives its starter (make cluster)
            if self._ready():
                return
            self.proc.kill()
            self.proc.wait(10)
            if attempt == 2:
                raise RuntimeError(f"redis-server did not start: {self.log.read_text(errors='replace')[-2000:]}")
            self.port = free_port()

    def _ready(self, timeout: float = 10.0) -> bool:
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                return False
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return True
            except OSError:
                pass
            time.sleep(0.02)
        return False

    def stop_process(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
            self.proc = None
