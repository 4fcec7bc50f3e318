"""The room's clock: real time in production, a fake one that tests move by hand.

The table never calls ``time`` or ``asyncio.sleep`` for deadlines itself: it asks its
``Clock`` for ``now()`` and waits with ``sleep_until``. ``FakeClock.advance`` wakes the
waiters whose time has come, from any thread (tests drive the app from another thread).

>>> clock = FakeClock(100.0)
>>> clock.now()
100.0
>>> clock.advance(2.5)
>>> clock.now()
102.5
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Protocol


class Clock(Protocol):
    """Server time in epoch seconds, and a way to wait for a moment of it."""

    def now(self) -> float: ...

    async def sleep_until(self, when: float) -> None: ...


class RealClock:
    """Wall-clock time (``time.time``) and ``asyncio.sleep``."""

    def now(self) -> float:
        return time.time()

    async def sleep_until(self, when: float) -> None:
        delay = when - time.time()
        while delay > 0:
            await asyncio.sleep(delay)
            delay = when - time.time()


class FakeClock:
    """A clock that only moves when a test calls ``advance`` or ``set``."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self._now = start
        self._lock = threading.Lock()
        self._waiters: list[tuple[float, asyncio.AbstractEventLoop, asyncio.Future[None]]] = []

    def now(self) -> float:
        return self._now

    async def sleep_until(self, when: float) -> None:
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        with self._lock:
            if when <= self._now:
                return
            self._waiters.append((when, loop, fut))
        await fut

    def advance(self, seconds: float) -> None:
        self.set(self._now + seconds)

    def set(self, when: float, *, wake: bool = True) -> None:
        """Move to ``when`` (never back); ``wake=False`` leaves the sleepers asleep until the
        next move, as if the loop were busy (so that only a message can find the deadline due)."""
        with self._lock:
            self._now = max(self._now, when)
            if not wake:
                return
            due = [w for w in self._waiters if w[0] <= self._now]
            self._waiters = [w for w in self._waiters if w[0] > self._now and not w[2].done()]
        for _, loop, fut in due:
            if not loop.is_closed():
                loop.call_soon_threadsafe(_wake, fut)


def _wake(fut: asyncio.Future[None]) -> None:
    if not fut.done():
        fut.set_result(None)
