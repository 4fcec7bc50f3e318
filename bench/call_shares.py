"""Timers around the room's calls that a compiled core could answer, and a few of its own.

``time_shares(game)`` wraps, in this process, the reference engine's ``apply`` and legal actions,
the table's public and own views and the events' redaction (what a core building events and views
would answer instead: docs/engine-speed.md), and the action's insert and the deadlines (the room's
own), with accumulating timers. ``Shares.core`` counts the core's calls once each: ``apply`` checks
legality through the legal actions, and that nested call is in ``apply``'s time already. The timers
cost about 0.3 µs a call themselves, a few µs a move: ``Shares.timers``, from their cost measured
when they are set up, so that a figure of the whole can take them back. bench/move_path.py
(``--shares``) and bench/server_load.py (``--shares``, in the room's process at saturation) print
them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import feltroom.server.table as table_module
from feltroom.registry import GAMES
from feltroom.server.sqlite_store import SQLiteStore
from feltroom.server.table import Table


@dataclass
class Shares:
    """Seconds spent in each timed call, in the core's calls counted once each, and what the
    timers cost themselves."""

    spent: dict[str, float] = field(default_factory=dict)
    core: float = 0.0
    calls: int = 0         # timed calls made
    per_call: float = 0.0  # the timers' own CPU seconds a call (measured when they are set up)
    _depth: int = 0        # core calls open now (a nested one is in its caller's time)

    @property
    def timers(self) -> float:
        """What the timers have cost themselves, in seconds: in the figures of the whole they wrap."""
        return self.calls * self.per_call

    def per_move(self, moves: int) -> list[tuple[str, float]]:
        """(label, µs a move), the costliest first."""
        return [(label, 1e6 * s / max(1, moves)) for label, s in sorted(self.spent.items(), key=lambda kv: -kv[1])]


def _timed(shares: Shares, inner: Callable[..., Any], label: str, core: bool) -> Callable[..., Any]:
    spent = shares.spent
    clock = time.perf_counter

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        t0 = clock()
        shares.calls += 1
        if core:
            shares._depth += 1
        try:
            return inner(*args, **kwargs)
        finally:
            took = clock() - t0
            spent[label] = spent.get(label, 0.0) + took
            if core:
                shares._depth -= 1
                if not shares._depth:
                    shares.core += took

    return wrapper


def _cost_of_a_timer(calls: int = 50_000) -> float:
    """CPU seconds a timer adds to a call: a call that does nothing, timed, less the same call bare
    (the least of three tries)."""

    def nothing() -> None:
        return None

    timed = _timed(Shares(), nothing, "nothing", core=True)
    tries = []
    for _ in range(3):
        t0 = time.process_time()
        for _ in range(calls):
            nothing()
        t1 = time.process_time()
        for _ in range(calls):
            timed()
        tries.append((time.process_time() - t1 - (t1 - t0)) / calls)
    return max(0.0, min(tries))


def time_shares(game: str) -> Shares:
    """Wrap the calls with accumulating timers (for the rest of the process); what they have taken."""
    shares = Shares(per_call=_cost_of_a_timer())
    rules = GAMES[game]  # the reference engine: the room plays on it (new_game(compiled=False))
    core_calls = [(rules, "apply", "the engine's apply"), (rules, "legal_actions", "its legal actions"),
                  (table_module, "public_view", "the public view"), (table_module, "own_view", "the own views"),
                  (table_module, "events_for", "the events' redaction")]
    room_calls = [(SQLiteStore, "append_action", "the action's insert"),
                  (Table, "_next_due", "the deadlines (_next_due)")]
    for owner, name, label in core_calls:
        setattr(owner, name, _timed(shares, getattr(owner, name), label, core=True))
    for owner, name, label in room_calls:
        setattr(owner, name, _timed(shares, getattr(owner, name), label, core=False))
    return shares
