"""How the room's process runs Python's cycle collector (``feltroom serve --gc-threshold``).

What this module decides: a server process freezes what exists once it has imported and built
its app (modules, classes, the catalog: about 95,000 objects that live as long as the process),
so that the collector's full passes no longer walk them, and collects its youngest generation
after ``threshold`` net allocations instead of Python's 700. A move allocates views, events and
frames that reference counting frees at once; at 700 the collector ran about 30 times a second
under bench/server_load.py and promoted what was merely in flight to the older generations.
Measured there (docs/engine-speed.md): the collector's time per move 145 → 43 µs.
Objects are still freed by reference counting as before; only cycles wait a little longer.
"""

from __future__ import annotations

import gc

#: the youngest generation's threshold a server process runs with (Python's own is 700)
DEFAULT_GC_THRESHOLD = 5000


def tune_gc(threshold: int = DEFAULT_GC_THRESHOLD) -> None:
    """Freeze the objects that exist now and set the youngest generation's ``threshold``
    (0: leave the collector as Python set it)."""
    if threshold < 0:
        raise ValueError(f"the collector's threshold is 0 (Python's own) or more, not {threshold}")
    if threshold == 0:
        return
    gc.collect()  # what is garbage already is not frozen
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(threshold, older, oldest)
