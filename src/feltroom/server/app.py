"""The ASGI app: ``/ws`` (the protocol), ``/`` and ``/static`` (the web client), ``/api/…``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..bots import describe_levels
from ..catalog import catalog
from . import logfilter, profiles
from . import protocol as p
from .address import TrustedProxies, client_address
from .bots import DEFAULT_THINKERS
from .bus import FencedStore
from .clock import Clock, RealClock
from .connection import Connection
from .leases import Leases
from .limits import Limits
from .replays import ReplayError, parse_int, replay_page
from .room import Room
from .security import BrowserSecurity
from .store import Store, open_store

log = logging.getLogger("feltroom.server")

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"

PLACEHOLDER = """<!doctype html><html lang="en"><meta charset="utf-8"><title>feltroom</title>
<body><h1>feltroom</h1><p>The web client is not installed yet. The room speaks its protocol at
<code>/ws</code> (see docs/protocol.md).</p></body></html>"""


def create_app(database: str | None = None, *, clock: Clock | None = None, limits: Limits | None = None,
               grace: float = 60.0, bot_delay: float = 0.6, bot_workers: int = DEFAULT_THINKERS,
               static_dir: str | Path | None = None,
               allow_origins: Iterable[str] = (), trusted_proxies: Iterable[str] = (),
               redis: str | None = None, leases: Leases | None = None) -> Starlette:
    """The room as a Starlette app.

    ``database``: a SQLite file path or ``sqlite:///path`` (default ``feltroom.sqlite``), or a
    ``postgresql://`` URL (``store.open_store``).
    ``clock``: the room's clock (a ``FakeClock`` in tests). ``grace``: seconds a disconnected
    seat keeps its place before a stand-in bot plays it. ``bot_delay``: a bot's think time.
    ``bot_workers``: worker processes for the bots that search (``server/bots.py``).
    ``allow_origins``: web origins besides the room's own whose pages may open ``/ws`` (security.py).
    ``trusted_proxies``: addresses or networks whose ``X-Forwarded-For`` names the client
    (address.py); serve the app with ``sockets.uvicorn_config`` for the TCP-level limits.
    ``redis``: a ``redis://`` URL: this process is one node of several sharing the store
    (cluster.py); without it the process is the whole room. ``leases``: the timings of its table
    leases (``leases.Leases``; the defaults without it).
    """
    limits = limits or Limits()
    trusted = TrustedProxies(trusted_proxies)
    sockets_of: Counter[str] = Counter()  # open WebSockets per client address
    static = Path(static_dir) if static_dir is not None else STATIC
    state: dict[str, Any] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        logfilter.install()
        store: Store = open_store(database)
        bus = None
        if redis is not None:
            from .cluster import RedisBus

            bus = RedisBus(redis, leases=leases)
            store = FencedStore(store, bus.holds, bus.lost)
        room = Room(store, clock or RealClock(), limits, grace=grace, bot_delay=bot_delay, bot_workers=bot_workers,
                    bus=bus)
        state["room"] = room
        app.state.room = room
        if bus is not None:
            await bus.start(room)  # takes the tables no node owns
        else:
            resumed = room.restore()
            if resumed:
                log.info("resumed %d unfinished tables", resumed)
        try:
            yield
        finally:
            for t in room.tables.values():
                t.stop()
            room.thinkers.close()
            if bus is not None:
                await bus.stop()
            store.close()

    async def index(request: Request) -> Response:
        page = static / "index.html"
        if page.is_file():
            return FileResponse(page)
        return HTMLResponse(PLACEHOLDER)

    async def service_worker(request: Request) -> Response:
        """``/sw.js``: the installable app's service worker, at the root so that its scope is the site."""
        return FileResponse(static / "sw.js", media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    async def manifest(request: Request) -> Response:
        return FileResponse(static / "manifest.webmanifest", media_type="application/manifest+json")

    async def record(request: Request) -> Response:
        room: Room = state["room"]
        tid = request.path_params["table"]
        rec = room.store.record(tid)
        if rec is None:
            if room.unfinished(tid):
                return JSONResponse({"error": "the game is not over: its record is published at the end"},
                                    status_code=409)
            return JSONResponse({"error": f"no finished game {tid!r}"}, status_code=404)
        return JSONResponse(rec, headers={"Content-Disposition": f'attachment; filename="{tid}.json"'})

    async def replay(request: Request) -> Response:
        room: Room = state["room"]
        tid = request.path_params["table"]
        rec = room.store.record(tid)
        if rec is None:
            return await record(request)  # the same 409 / 404 as the record
        try:
            seat = parse_int(request.query_params, "seat", None)
            start = parse_int(request.query_params, "from", 0)
            count = parse_int(request.query_params, "count", None)
            assert start is not None
            # Replaying takes milliseconds to a few hundred: off the event loop.
            page = await run_in_threadpool(replay_page, rec, seat, start, count, limits.replay_page)
        except ReplayError as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        return JSONResponse(page)

    async def replay_page_route(request: Request) -> Response:
        """``/replay/{table}`` is the viewer's address: the client routes on the hash."""
        tid = quote(request.path_params["table"], safe="")
        seat = request.query_params.get("seat")
        suffix = f"?seat={quote(seat, safe='')}" if seat else ""
        return RedirectResponse(f"/#/replay/{tid}{suffix}", status_code=302)

    async def player_page(request: Request) -> Response:
        room: Room = state["room"]
        before = request.query_params.get("before")
        try:
            cursor = float(before) if before is not None else None
        except ValueError:
            return JSONResponse({"error": "before: a number (the `next` of the previous page)"}, status_code=400)
        page = profiles.profile(room.store, request.path_params["player"], cursor)
        if page is None:
            return JSONResponse({"error": f"no player {request.path_params['player']!r}"}, status_code=404)
        return JSONResponse(page)

    async def leaderboard(request: Request) -> Response:
        room: Room = state["room"]
        board = profiles.leaderboard(room.store, request.path_params["game"])
        if board is None:
            return JSONResponse({"error": f"no game {request.path_params['game']!r}"}, status_code=404)
        return JSONResponse(board)

    async def games(request: Request) -> Response:
        return JSONResponse({"games": [{**game, "bot_levels": describe_levels(game["name"])} for game in catalog()]})

    async def tables(request: Request) -> Response:
        room: Room = state["room"]
        return JSONResponse(room.lobby_message()["tables"])

    async def ws_endpoint(scope: Scope, receive: Receive, send: Send) -> None:
        ws = WebSocket(scope, receive, send)
        room: Room = state["room"]
        address = client_address(ws.client.host if ws.client else "",
                                 (v for k, v in ws.scope["headers"] if k == b"x-forwarded-for"), trusted)
        refusal = None
        if room.connections >= limits.max_connections:
            refusal = f"the room is full: at most {limits.max_connections} sockets"
        elif sockets_of[address] >= limits.max_sockets_per_address:
            refusal = f"at most {limits.max_sockets_per_address} sockets per address"
        await ws.accept()
        if refusal is not None:  # accepted first so that the client sees the code, not a bare 403
            await ws.close(1013, refusal)
            return
        room.connections += 1
        sockets_of[address] += 1
        send_now = scope.get("extensions", {}).get("feltroom.send_now")
        frames = DirectFrames(ws, receive, send, send_now) if send_now is not None else Frames(ws, receive, send)
        conn = Connection(frames, limits, time.monotonic(), address, before_write=room.store.flush)
        loop = asyncio.get_running_loop()
        writer = loop.create_task(conn.writer())
        hello_due = loop.call_later(limits.hello_timeout, _hello_overdue, conn, limits.hello_timeout)
        try:
            await serve_socket(room, conn, frames, limits)
        finally:
            hello_due.cancel()
            room.connections -= 1
            sockets_of[address] -= 1
            if not sockets_of[address]:
                del sockets_of[address]
            room.closed(conn)
            conn.close(1000)
            try:
                await asyncio.wait_for(writer, 2.0)
            except (TimeoutError, asyncio.CancelledError):
                writer.cancel()

    routes = [
        Route("/", index),
        Route("/sw.js", service_worker),
        Route("/manifest.webmanifest", manifest),
        Route("/api/games", games),
        Route("/api/games/{table}/record", record),
        Route("/api/games/{table}/replay", replay),
        Route("/replay/{table}", replay_page_route),
        Route("/api/tables", tables),
        Route("/api/players/{player}", player_page),
        Route("/api/leaderboard/{game}", leaderboard),
        WebSocketRoute("/ws", BareEndpoint(ws_endpoint)),
        Mount("/static", StaticFiles(directory=static, check_dir=False), name="static"),
    ]
    security = Middleware(BrowserSecurity, allow_origins=tuple(allow_origins))
    return Starlette(routes=routes, lifespan=lifespan, middleware=[security])


class BareEndpoint:
    """An ASGI app as a ``WebSocketRoute``'s endpoint: a plain function there would be wrapped in
    Starlette's ``WebSocket`` session, and its frames in the ``WebSocket``'s methods."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)


class Frames:
    """A socket's frames through the server's own ASGI ``receive`` and ``send``. Starlette's
    ``WebSocket`` checks the socket's state around every frame: about 12 µs of a move's one frame
    in and four out (docs/engine-speed.md). It still does the handshake and the close."""

    def __init__(self, ws: WebSocket, receive: Receive, send: Send) -> None:
        self.ws = ws
        self._receive = receive
        self._send = send

    async def receive(self) -> Message:
        return await self._receive()

    async def send_text(self, data: str) -> None:
        await self._send({"type": "websocket.send", "text": data})

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        await self.ws.close(code, reason)


class DirectFrames(Frames):
    """``Frames`` on our own server's socket, which can also write a frame at once (sockets.py)."""

    def __init__(self, ws: WebSocket, receive: Receive, send: Send, send_now: Callable[[str], bool]) -> None:
        super().__init__(ws, receive, send)
        self.send_now = send_now


async def serve_socket(room: Room, conn: Connection, ws: Frames, limits: Limits) -> None:
    """Read frames until the client goes or is closed for abuse."""
    while not conn.closing:
        try:
            msg = await ws.receive()
        except (WebSocketDisconnect, RuntimeError, OSError):  # a server may raise rather than report the disconnect
            return
        if msg["type"] == "websocket.disconnect":
            return
        received = room.clock.now()
        text = msg.get("text")
        if text is None:
            data = msg.get("bytes") or b""
            if len(data) > limits.max_message:
                conn.send(p.error("too_large", f"a message is at most {limits.max_message} bytes"))
                conn.close(1009)
                return
            conn.send(p.error("bad_message", "send text frames: one JSON object each"))
            continue
        if len(text) > limits.max_message or (len(text) * 4 > limits.max_message
                                              and len(text.encode()) > limits.max_message):
            conn.send(p.error("too_large", f"a message is at most {limits.max_message} bytes"))
            conn.close(1009)
            return
        if not conn.bucket.take(time.monotonic()):
            conn.strikes += 1
            conn.send(p.error("rate_limited", f"at most {limits.rate:g} messages a second: slow down", None,
                              _id_of(text)))
            if conn.strikes >= limits.abuse_strikes:
                conn.close(1008)
                return
            continue
        conn.strikes = 0
        await room.receive(conn, text, received)


def _hello_overdue(conn: Connection, timeout: float) -> None:
    if conn.player is None:
        conn.close(1008, f"say hello (or login) within {timeout:g} s")


def _id_of(text: str) -> Any:
    try:
        return p.message_id(json.loads(text))
    except (ValueError, RecursionError):
        return None
