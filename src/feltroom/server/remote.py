"""A socket of another node, as the owner of a table sees it.

The owner's tables send to a ``RemoteConnection`` as to any socket: the text (already redacted
for that socket's seat by ``views.py`` on the owner) goes over the bus to the node holding the
real socket, which passes it on unread. Messages from the real socket come the other way and
are handled one at a time, in the order sent, as the room handles a local socket's frames.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from .connection import Connection, dumps
from .limits import Limits


class RemoteConnection(Connection):
    """The socket ``cid`` of node ``node``; ``deliver(node, op)`` carries what is sent to it."""

    def __init__(self, node: str, cid: str, address: str, limits: Limits,
                 deliver: Callable[[str, list[Any]], None]) -> None:
        super().__init__(None, limits, 0.0, address)
        self.node = node
        self.cid = cid
        self._deliver = deliver
        self.inbox: deque[str] = deque()
        self._draining: asyncio.Task[None] | None = None

    def send(self, message: dict[str, Any] | str) -> None:
        if not self.closing:
            self._deliver(self.node, ["send", self.cid, message if isinstance(message, str) else dumps(message)])

    def send_lobby(self, text: str) -> None:
        """Never subscribed to a remote lobby: each node serves its own sockets' lobby."""

    def close(self, code: int = 1000, reason: str = "") -> None:
        if not self.closing:
            self.closing = True
            self._deliver(self.node, ["close", self.cid, code, reason])

    def received(self, text: str, handle: Callable[[Connection, str], Awaitable[None]]) -> None:
        """Queue a frame of the real socket; ``handle`` takes them one at a time, in order."""
        self.inbox.append(text)
        if self._draining is None or self._draining.done():
            self._draining = asyncio.get_running_loop().create_task(self._drain(handle))

    async def _drain(self, handle: Callable[[Connection, str], Awaitable[None]]) -> None:
        while self.inbox:
            await handle(self, self.inbox.popleft())
