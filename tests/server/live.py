"""A real room for tests: uvicorn in its own process on 127.0.0.1 (a free port), with the limits
under test set low. ``python -m tests.server.live PORT DB LIMITS_JSON [ORIGIN…]`` runs one;
``live_room(...)`` starts it, waits until it answers, yields its port and log file, and stops it."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path

from feltroom.server import Limits

ROOT = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def live_room(tmp: Path, limits: Limits | None = None,
              allow_origins: tuple[str, ...] = ()) -> Iterator[tuple[int, Path]]:
    from .test_restart import free_port

    port = free_port()
    log = tmp / f"room-{port}.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.server.live", str(port), str(tmp / f"room-{port}.sqlite"),
             json.dumps(asdict(limits or Limits())), *allow_origins],
            stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1).close()
                break
            except (urllib.error.URLError, ConnectionError, OSError):
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError("the room did not start:\n" + log.read_text()) from None
                time.sleep(0.05)
        yield port, log
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def main(argv: list[str]) -> None:
    import uvicorn

    from feltroom.server import create_app

    port, db, limits, *origins = argv
    app = create_app(db, limits=Limits(**json.loads(limits)), bot_delay=0, allow_origins=origins)
    uvicorn.run(app, host="127.0.0.1", port=int(port), log_level="warning", ws_per_message_deflate=False)


if __name__ == "__main__":
    main(sys.argv[1:])
