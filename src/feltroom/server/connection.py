"""One client socket (its outgoing queue and rate limit) and the player behind it."""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket

from .limits import Limits, TokenBucket

log = logging.getLogger("feltroom.server")


@dataclass(eq=False)
class Player:
    """A guest: a public ``id``, a name, and the hash of the secret token it reconnects with."""

    id: str
    name: str
    token_hash: str
    conns: set[Connection] = field(default_factory=set)
    tables: set[str] = field(default_factory=set)  # unfinished tables where it sits


class Connection:
    """A WebSocket: messages go out through a bounded queue written by one task, so a slow
    client never holds up a table."""

    def __init__(self, ws: WebSocket | None, limits: Limits, now: float, address: str = "") -> None:
        self.ws = ws
        self.address = address  # the client's address (rate limits per address)
        self.limits = limits
        self.player: Player | None = None
        self.watching: set[str] = set()
        self.lobby = False
        self.bucket = TokenBucket(limits.rate, limits.burst, now)
        self.strikes = 0
        self.closing = False
        self.queue: asyncio.Queue[str | int] = asyncio.Queue()

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message (a dict, or JSON text already serialised)."""
        if self.closing:
            return
        if self.queue.qsize() >= self.limits.max_queue:
            log.warning("dropping a client that does not read its messages")
            self.close(1008)
            return
        self.queue.put_nowait(message if isinstance(message, str) else dumps(message))

    def close(self, code: int = 1000) -> None:
        """Send what is queued, then close with ``code``."""
        if not self.closing:
            self.closing = True
            self.queue.put_nowait(code)

    async def writer(self) -> None:
        assert self.ws is not None
        try:
            while True:
                item = await self.queue.get()
                if isinstance(item, int):
                    await self.ws.close(item)
                    return
                await self.ws.send_text(item)
        except Exception:  # the socket is gone
            self.closing = True


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))  # ASCII escapes: twice as fast as ensure_ascii=False


def dumps_list(items: list[Any]) -> str:
    return json.dumps(items, separators=(",", ":"))


def dumps_str(text: str) -> str:
    return json.dumps(text)


def with_id(text: str, mid: Any) -> str:
    """``text`` (a serialised object) with ``"id": mid`` added first.

    >>> with_id('{"type":"update"}', 4)
    '{"id":4,"type":"update"}'
    """
    return text if mid is None else '{"id":' + json.dumps(mid) + "," + text[1:]
