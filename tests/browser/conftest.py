"""Real-browser tests: Playwright drives Debian's chromium against the real server.

Follows /work/shared/design/browser-tests.md: a session ``live_server`` runs ``create_app`` on a
temporary SQLite file under uvicorn in a thread (each pytest-xdist worker gets its own server,
port and database), and chromium is launched from /usr/bin/chromium.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import BrowserContext, ConsoleMessage, WebError

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser/" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_type_launch_args, "executable_path": CHROMIUM,
            "args": CHROMIUM_ARGS, "timeout": 30_000}


@pytest.fixture
def new_context(new_context: Callable[..., BrowserContext]) -> Iterator[Callable[..., BrowserContext]]:
    """The plugin's contexts (``page`` comes from one), failing the test on any console error or
    uncaught exception, Content-Security-Policy violations included."""
    errors: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(f"console: {message.text}")

    def on_error(error: WebError) -> None:
        errors.append(f"uncaught: {error.error}")

    def make(**kwargs: Any) -> BrowserContext:
        context = new_context(**kwargs)
        context.on("console", on_console)
        context.on("weberror", on_error)
        return context

    yield make
    assert not errors, "\n".join(errors)


@pytest.fixture(scope="session")
def base_url(live_server: str) -> str:
    return live_server


@contextlib.contextmanager
def serve(db: Path, **settings: Any) -> Iterator[str]:
    """``create_app`` on the SQLite file ``db`` under uvicorn in a thread; yields its URL."""
    from feltroom.server.app import create_app

    app = create_app(database=str(db), **settings)
    sock = socket.create_server(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    with contextlib.suppress(urllib.error.HTTPError):  # any HTTP status means it is up
        urllib.request.urlopen(url, timeout=10).close()
    yield url
    server.should_exit = True
    thread.join(5)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from feltroom.server.limits import Limits

    # Bots think for 20 ms instead of 0.6 s so that whole games fit in the time budget; every test
    # comes from 127.0.0.1, so the suite's tables and guests together would pass the caps of one
    # address (each test's own limits are tested in tests/server).
    limits = Limits(new_tables_per_hour=1000, new_players_per_minute=1000)
    with serve(tmp_path_factory.mktemp("room") / "room.sqlite", bot_delay=0.02, limits=limits) as url:
        yield url


SHORT_GRACE = 4.0  # seconds: the grace period of ``short_grace_server``


@pytest.fixture(scope="module")
def short_grace_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A room whose disconnected players get a stand-in bot after ``SHORT_GRACE`` seconds."""
    with serve(tmp_path_factory.mktemp("grace") / "room.sqlite", bot_delay=0.02, grace=SHORT_GRACE) as url:
        yield url
