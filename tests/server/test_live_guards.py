"""Against a real uvicorn on 127.0.0.1: the Origin check, the security headers, the chat limit
across one player's tabs, names, and one log line (no traceback) for a text frame that is not UTF-8."""

from __future__ import annotations

import base64
import json
import os
import re
import socket
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from feltroom.server import Limits

from .live import live_room

pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager")

ALLOWED = "https://cards.example"
CHAT_BURST = 4


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    # Chat refills once in 1,000 s: within a test, a player gets exactly CHAT_BURST lines.
    limits = Limits(chat_rate=0.001, chat_burst=CHAT_BURST)
    with live_room(tmp_path_factory.mktemp("live"), limits, (ALLOWED,)) as served:
        yield served


class Tab:
    def __init__(self, port: int, name: str, token: str | None = None, origin: str | None = None) -> None:
        self.ws = connect(f"ws://127.0.0.1:{port}/ws", open_timeout=5,
                          origin=origin)  # type: ignore[arg-type]  # websockets types Origin as a NewType
        self.send({"type": "hello", "protocol": 1, "name": name, "token": token})
        self.welcome = self.recv()

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        return msg

    def until(self, kind: str) -> dict[str, Any]:
        while True:
            msg = self.recv()
            if msg["type"] == kind:
                return msg

    def replies(self, ids: set[int]) -> dict[int, dict[str, Any]]:
        out: dict[int, dict[str, Any]] = {}
        while set(out) != ids:
            msg = self.recv()
            if msg.get("id") in ids:
                out[msg["id"]] = msg
        return out


def test_a_foreign_origin_is_refused_and_a_missing_one_accepted(room: tuple[int, Path]) -> None:
    port, _ = room
    for foreign in ("https://evil.example", "http://127.0.0.1:1", "null", f"https://127.0.0.1:{port}",
                    "http://localhost", "not an origin"):
        with pytest.raises(InvalidStatus) as refused:
            Tab(port, "eve", origin=foreign)
        assert refused.value.response.status_code == 403, foreign
        assert b"Origin refused" in refused.value.response.body
    for name, origin in (("script", None), ("page", f"http://127.0.0.1:{port}"), ("proxied", ALLOWED),
                         ("upper", f"HTTP://127.0.0.1:{port}")):
        tab = Tab(port, name, origin=origin)
        assert tab.welcome["type"] == "welcome", (origin, tab.welcome)
        tab.ws.close()


def test_the_page_and_static_files_send_security_headers(room: tuple[int, Path]) -> None:
    port, _ = room
    for path in ("/", "/static/js/main.js", "/static/css/style.css", "/static/favicon.svg", "/api/tables",
                 "/static/missing.js"):
        try:
            response = urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5)
        except urllib.error.HTTPError as e:
            response = e
        headers = response.headers
        csp = headers["Content-Security-Policy"]
        assert csp and "script-src 'self'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp, path
        assert "frame-ancestors 'none'" in csp, path
        assert headers["X-Frame-Options"] == "DENY" and headers["X-Content-Type-Options"] == "nosniff", path
        assert headers["Referrer-Policy"] == "no-referrer", path
        if path == "/":
            page = response.read().decode()
    # The page works under that policy: no inline script, no inline event handler.
    assert all("src=" in tag for tag in re.findall(r"<script\b[^>]*>", page))
    assert not re.search(r"<script\b[^>]*>\s*[^<\s]", page) and not re.search(r"\son[a-z]+\s*=", page)


def test_the_chat_limit_holds_across_a_players_tabs(room: tuple[int, Path]) -> None:
    port, _ = room
    host = Tab(port, "Chatty")
    tabs = [host] + [Tab(port, "whatever", token=host.welcome["token"]) for _ in range(3)]
    host.send({"type": "create", "game": "crisp", "seats": 2, "options": {}})
    table = host.until("table")["table"]
    watcher = Tab(port, "Watcher")
    watcher.send({"type": "watch", "table": table, "id": 1})
    watcher.until("table")
    ids = iter(range(100, 200))
    sent = {tab: {next(ids) for _ in range(2)} for tab in tabs}  # 8 lines from 4 tabs
    for tab, mids in sent.items():
        for mid in sorted(mids):
            tab.send({"type": "chat", "table": table, "text": f"line {mid}", "id": mid})
    answers = {mid: reply for tab, mids in sent.items() for mid, reply in tab.replies(mids).items()}
    accepted = [mid for mid, reply in answers.items() if reply["type"] == "chat"]
    refused = [reply for reply in answers.values() if reply["type"] == "error"]
    assert len(accepted) == CHAT_BURST and len(refused) == 8 - CHAT_BURST
    for reply in refused:
        assert reply["code"] == "rate_limited" and "per player" in reply["message"], reply
    # The watcher saw exactly the accepted lines, and its own chat is not limited by Chatty's.
    watcher.send({"type": "chat", "table": table, "text": "calm down", "id": 2})
    seen = []
    while True:
        msg = watcher.recv()
        if msg["type"] == "chat":
            seen.append(msg["text"])
        if msg.get("id") == 2:
            break
    assert sorted(seen[:-1]) == sorted(f"line {mid}" for mid in accepted) and seen[-1] == "calm down"
    for tab in [*tabs, watcher]:
        tab.ws.close()


def test_names_on_a_real_room(room: tuple[int, Path]) -> None:
    port, _ = room
    ann = Tab(port, "Ann")
    for name, code in (("\u0430nn", "name_taken"), ("\uff41\uff4e\uff4e", "name_taken"),
                       ("bot:heuristic", "bad_message"), ("\u3164", "bad_message"), ("A\u0336nn", "bad_message")):
        other = Tab(port, name)
        assert other.welcome["type"] == "error" and other.welcome["code"] == code, (name, other.welcome)
        other.ws.close()
    again = Tab(port, "anything", token=ann.welcome["token"])
    assert again.welcome["name"] == "Ann"
    for tab in (ann, again):
        tab.ws.close()


def test_a_text_frame_that_is_not_utf8_logs_one_warning_line(room: tuple[int, Path]) -> None:
    port, log = room
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall(f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
        assert s.recv(4096).startswith(b"HTTP/1.1 101")
        payload, mask = b"\xff\xfe not UTF-8", os.urandom(4)
        s.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
        close = s.recv(4096)
        assert close[:1] == b"\x88" and int.from_bytes(close[2:4], "big") == 1007  # close: invalid data
    Tab(port, "after").ws.close()  # the room goes on; and its log has caught up
    text = log.read_text()
    assert "Traceback" not in text and "UnicodeDecodeError" not in text, text
    lines = [line for line in text.splitlines() if "UTF-8" in line]
    assert len(lines) == 1 and lines[0].startswith("WARNING:"), text
