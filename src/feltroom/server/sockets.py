"""The room's TCP side: uvicorn's HTTP and WebSocket protocols with the room's connection limits.

What this module decides (the room's ``Limits`` give the numbers):

- Every TCP connection counts against ``max_tcp_connections`` and, unless its peer is a
  trusted proxy, against ``max_tcp_per_address`` of that peer. A connection over either gets
  ``503 Service Unavailable`` at once and is closed, before it has sent anything: an answer
  instead of an exhausted descriptor table.
- A request head (request line and headers) must arrive whole within ``head_timeout`` seconds
  of the connection or of its first byte, and be at most ``max_request_head`` bytes (else
  ``431``). A connection that sent nothing is closed silently, one that sent part of a head gets
  ``408``. uvicorn's ``timeout_keep_alive`` covers the silence between two requests.
- A connection whose writes stay blocked (the transport's buffer over its high-water mark: the
  client does not read) for ``write_stall`` seconds is aborted: a close frame could never get
  past the unread data, and only an abort frees the descriptor. The app sees the socket close
  as with any lost client.
- A text frame can be written at once, without an ASGI message: ``send_now`` is in the socket's
  scope (``extensions["feltroom.send_now"]``) and writes while the socket is open and its
  transport takes data; otherwise it returns ``False`` and the frame goes the ASGI way (which
  waits for the transport). The room writes each loop turn's frames with it (connection.py).
- At start-up the soft descriptor limit is raised to the hard one; if it is still below what
  ``max_tcp_connections`` needs, the cap is lowered to fit and a warning says so.

``uvicorn_config(app, limits, …)`` builds the ``uvicorn.Config`` that ``feltroom serve`` and the
tests run.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState

from .address import TrustedProxies
from .limits import Limits

log = logging.getLogger("feltroom.server")

FD_RESERVE = 64  # descriptors kept free for the store, logs and imports beyond the connections


class Gate:
    """The TCP connections open now, per peer; shared by one server's protocol instances."""

    def __init__(self, limits: Limits, trusted: TrustedProxies, max_tcp: int) -> None:
        self.limits = limits
        self.trusted = trusted
        self.max_tcp = max_tcp
        self.open = 0
        self.per_peer: Counter[str] = Counter()

    def opened(self, peer: str) -> str | None:
        """Count a new connection; the reason to refuse it, if any."""
        self.open += 1
        self.per_peer[peer] += 1
        if self.open > self.max_tcp:
            return f"the room is full: at most {self.max_tcp} connections"
        if self.per_peer[peer] > self.limits.max_tcp_per_address and peer not in self.trusted:
            return f"at most {self.limits.max_tcp_per_address} connections per address"
        return None

    def closed(self, peer: str) -> None:
        self.open -= 1
        self.per_peer[peer] -= 1
        if not self.per_peer[peer]:
            del self.per_peer[peer]


def _response(status: bytes, text: str) -> bytes:
    body = text.encode()
    return (b"HTTP/1.1 " + status + b"\r\ncontent-type: text/plain; charset=utf-8\r\n"
            b"content-length: " + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n" + body)


class _StallTimer:
    """Aborts a transport whose writes stay paused for ``seconds``."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.handle: asyncio.TimerHandle | None = None

    def paused(self, transport: asyncio.Transport, peer: str) -> None:
        if self.handle is None:
            self.handle = asyncio.get_running_loop().call_later(self.seconds, self._abort, transport, peer)

    def resumed(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None

    def _abort(self, transport: asyncio.Transport, peer: str) -> None:
        self.handle = None
        log.warning("dropping a client whose writes stalled for %g s (%s)", self.seconds, peer)
        transport.abort()


class _Gated(asyncio.Protocol):
    """What both protocols share: this connection's place in the gate's count, and the stall timer."""

    gate: Gate  # set on the subclasses ``protocols()`` makes for one server
    transport: asyncio.Transport
    peer: str
    counted: bool
    stall: _StallTimer

    def _uncount(self) -> None:
        if self.counted:
            self.counted = False
            self.gate.closed(self.peer)

    def pause_writing(self) -> None:
        super().pause_writing()
        self.stall.paused(self.transport, self.peer)

    def resume_writing(self) -> None:
        super().resume_writing()
        self.stall.resumed()


class RoomHttpProtocol(_Gated, HttpToolsProtocol):
    """uvicorn's httptools protocol with the gate, the head timeout and size, and the stall timer."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.peer = ""
        self.counted = False
        self.head_timer: asyncio.TimerHandle | None = None
        self.head_bytes = 0
        self.stall = _StallTimer(self.gate.limits.write_stall)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.peer = self.client[0] if self.client else ""
        self.counted = True
        refusal = self.gate.opened(self.peer)
        if refusal is not None:
            transport.write(_response(b"503 Service Unavailable", refusal))
            transport.close()
            return
        self._arm_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_head()
        self.stall.resumed()
        self._uncount()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.head_timer is not None and not self.transport.is_closing():  # a head still incomplete
            self.head_bytes += len(data)
            if self.head_bytes > self.gate.limits.max_request_head:
                self._disarm_head()
                limit = self.gate.limits.max_request_head
                self.transport.write(_response(b"431 Request Header Fields Too Large",
                                               f"a request head is at most {limit} bytes"))
                self.transport.close()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm_head()

    def on_headers_complete(self) -> None:
        self._disarm_head()
        super().on_headers_complete()

    def handle_websocket_upgrade(self) -> None:
        # the WebSocket protocol takes over this transport and counts it from now on
        self._disarm_head()
        self._uncount()
        super().handle_websocket_upgrade()

    def _arm_head(self) -> None:
        if self.head_timer is None:
            self.head_bytes = 0
            self.head_timer = self.loop.call_later(self.gate.limits.head_timeout, self._head_timed_out)

    def _disarm_head(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None
        self.head_bytes = 0

    def _head_timed_out(self) -> None:
        self.head_timer = None
        if self.transport.is_closing():
            return
        if self.head_bytes:
            timeout = self.gate.limits.head_timeout
            self.transport.write(_response(b"408 Request Timeout", f"send a request head within {timeout:g} s"))
        self.transport.close()


class RoomWebSocketProtocol(_Gated, WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, counted by the gate, with the stall timer."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.peer = ""
        self.counted = False
        self.stall = _StallTimer(self.gate.limits.write_stall)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.peer = self.client[0] if self.client else ""
        self.counted = True
        self.gate.opened(self.peer)  # admitted as HTTP already: the upgrade only moves the count

    def connection_lost(self, exc: Exception | None) -> None:
        self.stall.resumed()
        self._uncount()
        super().connection_lost(exc)

    async def run_asgi(self) -> None:
        extensions: dict[str, Any] = self.scope["extensions"]  # type: ignore[assignment]
        extensions["feltroom.send_now"] = self.send_now
        await super().run_asgi()

    def send_now(self, text: str) -> bool:
        """Write a text frame now if the socket is open and its transport takes data (what the
        ASGI ``websocket.send`` does once it has waited for that); ``False``: it cannot now."""
        if (not self.handshake_complete or self.close_sent or self.disconnected or self.initial_response is not None
                or not self.writable.is_set() or self.transport.is_closing()):
            return False
        try:
            self.conn.send_text(text.encode())
        except InvalidState:
            return False
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True


def protocols(gate: Gate) -> tuple[type[RoomHttpProtocol], type[RoomWebSocketProtocol]]:
    """Protocol classes bound to ``gate`` (uvicorn makes one instance per connection)."""
    http = type("RoomHttp", (RoomHttpProtocol,), {"gate": gate})
    ws = type("RoomWebSocket", (RoomWebSocketProtocol,), {"gate": gate})
    return http, ws


def raise_fd_limit() -> int:
    """Raise the soft limit on open descriptors to the hard one where allowed; the soft limit."""
    try:
        import resource
    except ImportError:  # not on this platform
        return 1 << 30
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 1 << 30
    target = hard if hard != resource.RLIM_INFINITY else 1 << 20
    if soft >= target:
        return soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ValueError, OSError):
        return soft
    return target


def tcp_cap(limits: Limits) -> int:
    """``limits.max_tcp_connections``, lowered to what the descriptor limit allows."""
    fds = raise_fd_limit()
    cap = min(limits.max_tcp_connections, max(1, fds - FD_RESERVE))
    if cap < limits.max_tcp_connections:
        log.warning("only %d open files allowed: at most %d connections (not %d)", fds, cap,
                    limits.max_tcp_connections)
    return cap


def uvicorn_config(app: Any, limits: Limits, trusted: TrustedProxies, *, host: str = "127.0.0.1", port: int = 8000,
                   log_level: str = "warning", **options: Any) -> uvicorn.Config:
    """The ``uvicorn.Config`` that serves ``app`` with the room's connection limits."""
    http, ws = protocols(Gate(limits, trusted, tcp_cap(limits)))
    settings: dict[str, Any] = {
        "ws_max_size": 64 * 1024, "ws_ping_interval": 20.0, "ws_ping_timeout": 20.0, "ws_per_message_deflate": False,
        "timeout_keep_alive": limits.keep_alive, "h11_max_incomplete_event_size": limits.max_request_head,
        "backlog": 2048,
        "proxy_headers": False,  # uvicorn would trust X-Forwarded-For from 127.0.0.1: address.py decides
    }
    settings.update(options)
    return uvicorn.Config(app, host=host, port=port, log_level=log_level, http=http, ws=ws, **settings)
