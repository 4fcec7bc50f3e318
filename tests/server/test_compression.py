"""The room does not compress its frames: permessage-deflate costs CPU on every frame of every
socket, and the room's updates are small (docs/engine-speed.md, "The room's CPU per move"). A
browser that offers it gets plain frames (RFC 7692 lets the server decline)."""

from __future__ import annotations

import json
from pathlib import Path

from websockets.sync.client import connect

from .served import Served


def test_the_room_declines_permessage_deflate(tmp_path: Path) -> None:
    with Served(tmp_path / "r.sqlite") as served, connect(f"ws://127.0.0.1:{served.port}/ws",
                                                          compression="deflate") as ws:
        assert ws.request is not None and ws.response is not None
        assert "permessage-deflate" in (ws.request.headers.get("Sec-WebSocket-Extensions") or "")
        assert ws.response.headers.get("Sec-WebSocket-Extensions") is None
        ws.send('{"type": "ping", "id": 1}')  # a frame each way, plain: the room answers before hello
        assert json.loads(ws.recv(timeout=10))["id"] == 1
