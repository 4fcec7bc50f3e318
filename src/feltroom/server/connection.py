"""One client socket (its outgoing queue and rate limit) and the player behind it."""

from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson

from .limits import Limits, TokenBucket

log = logging.getLogger("feltroom.server")


class Socket(Protocol):
    """Where a connection's frames go: ``app.Frames`` (a socket of the server), or a test's stand-in."""

    async def send_text(self, data: str) -> None: ...
    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


@dataclass(eq=False)
class Player:
    """A guest: a public ``id``, a name, and the hash of the secret token it reconnects with."""

    id: str
    name: str
    token_hash: str
    conns: set[Connection] = field(default_factory=set)
    tables: set[str] = field(default_factory=set)  # unfinished tables where it sits


class Connection:
    """A WebSocket: messages go out through a queue written by one task, so a slow client never
    holds up a table.

    The queue is bounded in bytes (``Limits.max_queue_bytes``): a message that would take it
    over the bound drops the client (close 1013, what was queued is discarded). A message always
    fits in an empty queue, so one large lobby never drops a client that reads. The lobby is
    coalesced: at most one lobby message waits per socket, and a newer one replaces it in place.
    """

    def __init__(self, ws: Socket | None, limits: Limits, now: float, address: str,
                 before_write: Callable[[], None] | None = None) -> None:
        self.ws = ws
        # called before each frame goes out (the room's ``store.flush``: what a frame tells is stored first)
        self.before_write = before_write
        self.limits = limits
        self.address = address  # the client's network address (see address.py)
        self.player: Player | None = None
        self.watching: set[str] = set()
        self.lobby = False
        self.bucket = TokenBucket(limits.rate, limits.burst, now)
        self.strikes = 0
        self.closing = False
        self.queue: deque[str | None] = deque()  # None: the place of the pending lobby message
        self.queued_bytes = 0
        self.pending_lobby: str | None = None
        self.close_code: int | None = None
        self.close_reason = ""
        # what the writer waits on when the queue is empty: a bare future, set by the next message
        # (an asyncio.Event made and dropped a future and a waiter list entry for every frame)
        self._waiter: asyncio.Future[None] | None = None
        # A socket that can write a frame at once (``send_now(text) -> bool``: app.DirectFrames)
        # gets one callback per loop turn that writes what the turn queued (_flush): no future,
        # no task step and no ASGI message per frame. The writer task still takes what must wait,
        # and the close; while it holds a frame it writes the rest too, in order (_writing).
        send_now = getattr(ws, "send_now", None)
        self._send_now: Callable[[str], bool] | None = send_now if callable(send_now) else None
        self._writing = False
        self._flush_due = False

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message (a dict, or JSON text already serialised)."""
        if self.closing:
            return
        text = message if isinstance(message, str) else dumps(message)
        if self._fits(len(text)):
            self.queue.append(text)
            self.queued_bytes += len(text)
            self._wake()

    def send_lobby(self, text: str) -> None:
        """Queue the lobby's table list, replacing one that has not gone out yet."""
        if self.closing:
            return
        old = len(self.pending_lobby) if self.pending_lobby is not None else 0
        self.queued_bytes -= old
        if not self._fits(len(text)):
            return
        if self.pending_lobby is None:
            self.queue.append(None)
        self.pending_lobby = text
        self.queued_bytes += len(text)
        self._wake()

    def _wake(self) -> None:
        if self._send_now is not None and not self._writing:
            if not self._flush_due:
                self._flush_due = True
                asyncio.get_running_loop().call_soon(self._flush)
            return
        self._wake_writer()

    def _flush(self) -> None:
        """Write the queue straight to the socket while it takes frames at once; what it cannot
        take now, and the close, are left to the writer task. The frames of one loop turn go out
        together, as the writer task sent them (one by one they would wake the client for each)."""
        self._flush_due = False
        send_now = self._send_now
        assert send_now is not None
        queue = self.queue
        while queue and not self._writing:
            item = queue[0]
            text = item if item is not None else self.pending_lobby
            if text is not None:
                if self.before_write is not None:
                    self.before_write()
                try:
                    sent = send_now(text)
                except Exception:  # the socket broke: the writer task finds out and closes the connection
                    sent = False
                if not sent:
                    break
                self.queued_bytes -= len(text)
                if item is None:
                    self.pending_lobby = None
            queue.popleft()
        if queue or self.close_code is not None:
            self._wake_writer()

    def _wake_writer(self) -> None:
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    def _fits(self, size: int) -> bool:
        if self.queued_bytes and self.queued_bytes + size > self.limits.max_queue_bytes:
            log.warning("dropping a client that does not read its messages (%s)", self.address)
            self.close(1013, "the client does not read its messages")
            return False
        return True

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Send what is queued, then close with ``code`` (1013: drop the queue and close now)."""
        if not self.closing:
            self.closing = True
            self.close_code = code
            self.close_reason = reason
            if code == 1013:
                self.queue.clear()
                self.pending_lobby = None
                self.queued_bytes = 0
            self._wake()

    async def writer(self) -> None:
        assert self.ws is not None
        loop = asyncio.get_running_loop()
        try:
            while True:
                if not self.queue:
                    if self.close_code is not None:
                        await self.ws.close(self.close_code, self.close_reason)
                        return
                    self._writing = False
                    self._waiter = loop.create_future()
                    await self._waiter
                    continue
                self._writing = True
                item = self.queue.popleft()
                if item is None:
                    item, self.pending_lobby = self.pending_lobby, None
                    if item is None:  # dropped by a close
                        continue
                self.queued_bytes -= len(item)
                if self.before_write is not None:
                    self.before_write()
                await self.ws.send_text(item)
        except Exception:  # the socket is gone
            self.closing = True


# orjson writes compact UTF-8 JSON five to ten times faster than the json module; the room
# serialises every view for every seat after every move, so this is most of its encoding time.
def dumps(message: dict[str, Any]) -> str:
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def dumps_list(items: list[Any]) -> str:
    return orjson.dumps(items, option=orjson.OPT_NON_STR_KEYS).decode()


def dumps_str(text: str) -> str:
    return orjson.dumps(text).decode()


def with_id(text: str, mid: Any) -> str:
    """``text`` (a serialised object) with ``"id": mid`` added first.

    >>> with_id('{"type":"update"}', 4)
    '{"id":4,"type":"update"}'
    >>> with_id('{"type":"update"}', "m-1")
    '{"id":"m-1","type":"update"}'
    """
    if mid is None:
        return text
    # an id is an int (of any size) or a short string (protocol.message_id); str() of an int is its
    # JSON, thirty times faster than json.dumps, which every acknowledged move went through
    return '{"id":' + (str(mid) if type(mid) is int else json.dumps(mid)) + "," + text[1:]
