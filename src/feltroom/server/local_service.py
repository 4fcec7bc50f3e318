"""A server of this machine's own (PostgreSQL, Redis) for tests, benches and ``make cluster``: one
process listening on 127.0.0.1 at a free port, its files in one folder.

Decided here: a folder not given is a temporary one, removed when the service stops; a given folder
is kept (``make cluster`` keeps its data between runs). ``with`` starts the service and stops it, also
when starting it failed half-way.
"""

from __future__ import annotations

import shutil
import socket
import tempfile
from pathlib import Path
from types import TracebackType
from typing import Self


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now (another process may take it before it is used: callers retry)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LocalService:
    """The folder, the port and the ``with`` of a local server; a subclass starts and stops its process."""

    #: the temporary folder's name begins with this
    prefix = "feltroom-"

    def __init__(self, folder: Path | None = None, port: int | None = None) -> None:
        self.own_folder = folder is None
        self.folder = Path(tempfile.mkdtemp(prefix=self.prefix)) if folder is None else folder
        self.port = port or free_port()

    def start(self) -> None:
        raise NotImplementedError

    def stop_process(self) -> None:
        """Stop the server's process, if it runs."""
        raise NotImplementedError

    def stop(self) -> None:
        self.stop_process()
        if self.own_folder:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Self:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()
