"""A lean WebSocket client for the load benches: one asyncio protocol per socket, a callback per frame.

The ``websockets`` client spent as much CPU per move as the room it measured (about 270 µs for
the four updates and one action of a Cribbage move, on the 2 cores the room also used), so the
bench measured the two processes' sum, not the room at saturation. This client parses the
server's frames in ``data_received`` and hands each text frame, as bytes, to a callback: no task,
future or queue per frame.

Only what the benches need: text frames, no fragmentation (uvicorn sends none), pings answered,
a close ends the socket. Frames to the server are masked with the key 0 (RFC 6455 asks for a
random key, which protects HTTP proxies from forged requests in the payload; a bench talking to
its own server on 127.0.0.1 or through its own HAProxy has nothing to protect, and the payload
then goes out as it is, without a Python loop over its bytes).
"""

from __future__ import annotations

import asyncio
import base64
import os
import socket
from collections.abc import Callable

_ZERO_MASK = b"\0\0\0\0"


class WsClient(asyncio.Protocol):
    """One client socket; ``on_text(payload)`` is called with every text frame's bytes."""

    def __init__(self, on_text: Callable[[bytes], None]) -> None:
        self.on_text = on_text
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.upgraded = False
        loop = asyncio.get_running_loop()
        self.opened: asyncio.Future[None] = loop.create_future()
        self.closed: asyncio.Future[None] = loop.create_future()

    # ------------------------------------------------------------------ asyncio.Protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # a TCP transport (uvloop's is no asyncio.Transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(ConnectionError("the server closed the socket"))
        if not self.closed.done():
            self.closed.set_result(None)

    def data_received(self, data: bytes) -> None:
        buf = self.buffer
        buf += data
        if not self.upgraded:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            status = bytes(buf[:end]).split(b"\r\n", 1)[0]
            if b" 101 " not in status + b" ":
                self.opened.set_exception(ConnectionError(f"no upgrade: {status!r}"))
                return
            del buf[:end + 4]
            self.upgraded = True
            self.opened.set_result(None)
        pos, size = 0, len(buf)
        while size - pos >= 2:
            first, length = buf[pos], buf[pos + 1] & 0x7F  # the server's frames are not masked
            head = 2
            if length == 126:
                if size - pos < 4:
                    break
                length, head = int.from_bytes(buf[pos + 2:pos + 4], "big"), 4
            elif length == 127:
                if size - pos < 10:
                    break
                length, head = int.from_bytes(buf[pos + 2:pos + 10], "big"), 10
            end = pos + head + length
            if end > size:
                break
            payload = bytes(buf[pos + head:end])
            pos = end
            opcode = first & 0x0F
            if opcode == 1:
                self.on_text(payload)
            elif opcode == 9:
                self._write(0x8A, payload)  # pong
            elif opcode == 8:
                self.close()
                break
        del buf[:pos]

    # ------------------------------------------------------------------ sending

    def send_text(self, text: str) -> None:
        self._write(0x81, text.encode())

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self._write(0x88, (1000).to_bytes(2, "big"))
            self.transport.close()

    def _write(self, first: int, payload: bytes) -> None:
        assert self.transport is not None
        n = len(payload)
        if n < 126:
            head = bytes((first, 0x80 | n))
        elif n < 1 << 16:
            head = bytes((first, 0x80 | 126)) + n.to_bytes(2, "big")
        else:
            head = bytes((first, 0x80 | 127)) + n.to_bytes(8, "big")
        self.transport.write(head + _ZERO_MASK + payload)


async def connect(host: str, port: int, path: str, on_text: Callable[[bytes], None]) -> WsClient:
    """Open a WebSocket to ``ws://host:port/path``; frames go to ``on_text``."""
    loop = asyncio.get_running_loop()
    transport, client = await loop.create_connection(lambda: WsClient(on_text), host, port)
    client.transport = transport  # uvloop may return before ``connection_made`` has run
    sock = transport.get_extra_info("socket")
    if sock is not None:  # small frames, one at a time: Nagle's algorithm would hold each for an ACK
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    key = base64.b64encode(os.urandom(16)).decode()
    transport.write((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                            "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    await client.opened
    return client
