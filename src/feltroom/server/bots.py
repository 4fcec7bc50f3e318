"""Server-side bot seats: a bot sees what a human in the seat would (views and its events).

A bot that searches (the ``search`` level) thinks for up to a second a move; its decisions
run in a pool of worker processes (``Thinkers``), so the event loop — every other table, and
this table's humans — never waits for it. Decided here: the bot object travels to a worker
with the view and legal actions and comes back with its choice and its new memory (one
pickle each way, a few hundred kilobytes at most); the pool's processes are spawned, not
forked (the room's sockets and database handles stay in the room), when the first search
decision comes; a worker that fails is logged and the seat plays its first legal action, as
a failing bot always has.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import secrets
import signal
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from ..bots import Bot, levels_for, make_bot
from ..game import Game
from ..views import events_for

__all__ = ["DEFAULT_THINKERS", "BotSeat", "Thinkers", "levels_for", "standin_level"]

log = logging.getLogger("feltroom.server")

#: worker processes for searching bots (``feltroom serve --bot-workers``): every core but one for the room
DEFAULT_THINKERS = max(1, (os.cpu_count() or 2) - 1)


def _ignore_interrupts() -> None:
    """In a new worker: leave Ctrl-C to the room. A terminal sends SIGINT to the whole process
    group, workers included; the room stops them itself (``Thinkers.close``), while a worker that
    took the signal would die mid-decision with a traceback and break the pool."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def think(bot: Bot, view: dict[str, Any] | None, legal: list[str]) -> tuple[str, Bot]:
    """In a worker: the bot's choice, and the bot as it is after choosing."""
    return bot.choose(view, legal), bot


class Thinkers:
    """The room's pool of worker processes for bots that search (created when first needed)."""

    def __init__(self, workers: int = DEFAULT_THINKERS) -> None:
        if type(workers) is not int or workers < 1:
            raise ValueError(f"bot workers must be a whole number ≥ 1, not {workers!r}")
        self.workers = workers
        self.thinking = 0  # decisions in the workers now
        self.decisions = 0  # decisions made there so far
        self._pool: Executor | None = None

    def pool(self) -> Executor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_ignore_interrupts)
        return self._pool

    def close(self) -> None:
        """Stop the workers and wait for them (a decision in progress takes at most about a second):
        a pool left to the interpreter's exit leaves its queues' semaphores to the resource tracker,
        which warns of them as leaked."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class BotSeat:
    """Drives one ``Bot`` for one seat: feeds it the seat's events, asks it for an action."""

    def __init__(self, level: str, game: Game, seat: int) -> None:
        self.level = level
        self.seat = seat
        self.bot: Bot = make_bot(level, game.name, seat, game.players, dict(game.options),
                                 seed=secrets.randbelow(2**53))
        self.seen = 0

    @property
    def thinks(self) -> bool:
        """Whether this bot's decisions go to the worker pool (it searches)."""
        return bool(getattr(self.bot, "takes_budget", False))

    def prepare(self, game: Game) -> tuple[dict[str, Any] | None, list[str]]:
        """Feed the bot the seat's new events; the view and legal actions it will choose from."""
        log_ = game.log
        if len(log_) > self.seen:
            self.bot.observe(events_for(log_[self.seen:], self.seat))
            self.seen = len(log_)
        legal = game.legal_actions(self.seat)
        return (game.view(self.seat) if self.bot.needs_view else None), legal

    def choose(self, game: Game) -> str:
        view, legal = self.prepare(game)
        try:
            action = self.bot.choose(view, legal)
        except Exception:  # a faulty bot must not stop the table
            log.exception("bot %s failed in seat %s; playing the first legal action", self.level, self.seat)
            return legal[0]
        return action if game.can_apply(self.seat, action) else legal[0]

    async def think(self, game: Game, thinkers: Thinkers) -> tuple[str, list[str]]:
        """The bot's choice from a worker process, and the legal actions it chose among.

        The caller must not hold the table's lock while awaiting, and must check that the game
        is where it was before applying the choice.
        """
        view, legal = self.prepare(game)
        thinkers.thinking += 1
        try:
            action, bot = await asyncio.get_running_loop().run_in_executor(
                thinkers.pool(), think, self.bot, view, legal)
        except Exception:
            log.exception("bot %s failed in seat %s; playing the first legal action", self.level, self.seat)
            return legal[0], legal
        finally:
            thinkers.thinking -= 1
        thinkers.decisions += 1
        self.bot = bot
        return (action if action in legal else legal[0]), legal


def standin_level(game: str) -> str:
    """The level that plays for an absent player."""
    levels = levels_for(game)
    return "heuristic" if "heuristic" in levels else "random"
