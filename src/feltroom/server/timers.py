"""Deadlines from the engine's ``timer``/``timer_stop`` events (notation.md §2.3).

A table keeps at most one deadline per CLOCK action string. ``timer`` starts (or restarts)
it ``seconds`` after the moment the event is produced; ``timer_stop`` cancels it.

>>> dl: dict[str, Deadline] = {}
>>> apply_timer_events(dl, [{"type": "timer", "to": "all", "action": "close 1", "seconds": 3, "seat": 1},
...                         {"type": "timer", "to": "all", "action": "release", "seconds": 2}], base=100.0)
>>> [(d.action, d.at) for d in sorted(dl.values())]
[('release', 102.0), ('close 1', 103.0)]
>>> apply_timer_events(dl, [{"type": "timer_stop", "to": "all", "action": "close 1"}], base=101.0)
>>> list(dl)
['release']
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

_order = itertools.count()


@dataclass(order=True, slots=True)
class Deadline:
    """A CLOCK action due at ``at`` (server epoch seconds); ``seat`` is whose clock it is."""

    at: float
    n: int = field(default_factory=lambda: next(_order))
    action: str = field(default="", compare=False)
    seat: int | None = field(default=None, compare=False)

    def public(self) -> dict[str, Any]:
        return {"action": self.action, "seat": self.seat, "at": round(self.at, 3)}


def apply_timer_events(deadlines: dict[str, Deadline], events: Iterable[dict[str, Any]], base: float) -> None:
    """Start, restart and stop deadlines as ``events`` say, counting from ``base``."""
    for e in events:
        kind = e["type"]
        if kind == "timer":
            seat = e.get("seat")
            deadlines.pop(e["action"], None)
            deadlines[e["action"]] = Deadline(base + float(e["seconds"]), action=e["action"],
                                              seat=seat if type(seat) is int else None)
        elif kind == "timer_stop":
            deadlines.pop(e["action"], None)


def running(events: Iterable[dict[str, Any]], base: float) -> dict[str, Deadline]:
    """The deadlines still running after a whole log, each restarted in full from ``base``
    (how a restarted server restarts the clocks of a resumed table)."""
    deadlines: dict[str, Deadline] = {}
    apply_timer_events(deadlines, events, base)
    return deadlines
