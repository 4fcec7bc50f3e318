# cython: language_level=3
"""The events of one action, built only when somebody reads them.

A compiled core (``feltroom.fastgame``) applies actions without building events; ``apply``
returns an ``Events``: a read-only sequence that asks the game for the events of its action
(``game._events_of(action)``) the first time it is read, and keeps them.
"""

cimport cython

from collections.abc import Sequence


@cython.no_gc  # one per action: not tracked by the cycle collector (nothing it holds refers back to it)
cdef class Events:
    """The events of the ``action``-th action of ``game``: a read-only sequence of event dicts."""

    cdef list _list(self):
        if self.cached is None:
            self.cached = self.game._events_of(self.action)
        return self.cached

    def __len__(self):
        return len(self._list())

    def __getitem__(self, i):
        return self._list()[i]

    def __iter__(self):
        return iter(self._list())

    def __reversed__(self):
        return reversed(self._list())

    def __contains__(self, item):
        return item in self._list()

    def __eq__(self, other):
        if isinstance(other, Events):
            return self._list() == (<Events>other)._list()
        if isinstance(other, list):
            return self._list() == other
        return NotImplemented

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __add__(self, other):
        return self._list() + list(other)

    def __radd__(self, other):
        return list(other) + self._list()

    def __repr__(self):
        return repr(self._list())

    def index(self, value, *args):
        return self._list().index(value, *args)

    def count(self, value):
        return self._list().count(value)


Sequence.register(Events)


cdef Events new_events(object game, Py_ssize_t action):
    cdef Events events = Events.__new__(Events)
    events.game = game
    events.action = action
    return events


def lazy_events(game, Py_ssize_t action):
    """``new_events`` for Python callers (the compiled cores call the C function)."""
    return new_events(game, action)
