"""What the room asks of browsers, as one pure ASGI middleware.

- A WebSocket handshake that carries an ``Origin`` (browsers always send one) must come from the
  room's own origin, the request's scheme (ws → http, wss → https) with its ``Host`` header, or
  from one of ``allow_origins`` (``feltroom serve --allow-origin``; a room behind a TLS proxy adds
  its public ``https://`` origin there). A handshake without ``Origin`` (bots, scripts) is allowed:
  the check stops other web sites from using their visitors' browsers as clients, not programs.
  A refused handshake is answered with HTTP 403 before it is accepted (body: the reason, where the
  server supports WebSocket denial responses; uvicorn does); the app never sees it.
- Every HTTP response gets a Content-Security-Policy (scripts, styles and connections from the
  room only: no inline script, no ``eval``; no framing), ``X-Frame-Options: DENY``,
  ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer``.

>>> normalize_origin("HTTPS://Room.Example:443"), normalize_origin("http://127.0.0.1:8000/")
('https://room.example', 'http://127.0.0.1:8000')
>>> normalize_origin("null") is None
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                           "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
                           "form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
_DEFAULT_PORTS = {"http": 80, "https": 443}


def normalize_origin(origin: str) -> str | None:
    """``scheme://host[:port]`` in lower case without a default port; None if it is not one."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), (parts.hostname or "")
    if scheme not in _DEFAULT_PORTS or not host:
        return None
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}" + (f":{port}" if port is not None and port != _DEFAULT_PORTS[scheme] else "")


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            text: str = value.decode("latin-1")
            return text
    return None


class BrowserSecurity:
    """The middleware: ``BrowserSecurity(app, allow_origins=["https://cards.example"])``."""

    def __init__(self, app: ASGIApp, allow_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed: set[str] = set()
        for origin in allow_origins:
            normal = normalize_origin(origin)
            if normal is None:
                raise ValueError(f"not an origin (scheme://host[:port]): {origin!r}")
            self.allowed.add(normal)

    def origin_allowed(self, scope: Scope) -> bool:
        origin = _header(scope, b"origin")
        if origin is None:
            return True
        normal = normalize_origin(origin)
        if normal is None:
            return False
        if normal in self.allowed:
            return True
        host = _header(scope, b"host")
        scheme = "https" if scope.get("scheme") == "wss" else "http"
        return host is not None and normal == normalize_origin(f"{scheme}://{host}")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if self.origin_allowed(scope):
                await self.app(scope, receive, send)
            else:
                await self._refuse(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {key.lower() for key, _ in message.get("headers", ())}
                extra = [(k, v) for k, v in SECURITY_HEADERS if k not in present]
                message = {**message, "headers": [*message.get("headers", ()), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send) -> None:
        await receive()  # websocket.connect
        extensions: dict[str, Any] = scope.get("extensions") or {}
        if "websocket.http.response" in extensions:
            body = b"this room accepts WebSocket connections from its own pages only (Origin refused)"
            await send({"type": "websocket.http.response.start", "status": 403,
                        "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "websocket.http.response.body", "body": body})
        else:
            await send({"type": "websocket.close", "code": 1008})
