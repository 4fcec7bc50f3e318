# cython: language_level=3
"""What the compiled cores (``feltroom.fastgame``) share: lazy events, slot writes, the dealing.

A core applies actions without building events; ``apply`` returns an ``Events``: a read-only
sequence that asks the game for the events of its action (``game._events_of(action)``) the
first time it is read, and keeps them.

A core also writes ``to_act`` and ``is_over`` after every action into two slots of its Fast
class; ``set_slot`` stores into a slot at its offset, without the attribute lookup of
``setattr`` (the slot's offset comes from its member descriptor, once per game).

The cores deal with ``feltroom.dealing``'s format 2 generator, PCG32, written in C in
``_fastcore.pxd`` (inline, so each core compiles it in): a deal loads the dealer's two words
with ``pcg32_load``, draws, and writes the state back with ``pcg32_store``, so the dealer
object stays the one source of the game's chance (copies, the shadow, the record).
"""

cimport cython

from collections.abc import Sequence

from cpython.long cimport PyLong_AsUnsignedLongLong, PyLong_FromUnsignedLongLong
from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF


cdef extern from "Python.h":
    ctypedef struct PyMemberDef:
        int type
        Py_ssize_t offset
    ctypedef struct PyMemberDescrObject:
        PyMemberDef* d_member
    void Py_XDECREF(PyObject*)
    int T_OBJECT_EX

_MemberDescriptor = type(type("_Slots", (), {"__slots__": ("x",)}).__dict__["x"])


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


cdef Py_ssize_t slot_offset(object cls, str name) except -1:
    """The offset of the object slot ``name`` of ``cls`` (a ``__slots__`` entry); 0 if it is none."""
    descr = getattr(cls, name, None)
    if type(descr) is not _MemberDescriptor or (<PyMemberDescrObject*>descr).d_member.type != T_OBJECT_EX:
        return 0
    return (<PyMemberDescrObject*>descr).d_member.offset


cdef void set_slot(object obj, Py_ssize_t offset, object value) noexcept:
    """``obj.<slot at offset> = value`` (``offset`` from ``slot_offset``, not 0)."""
    cdef PyObject** slot = <PyObject**>((<char*><PyObject*>obj) + offset)
    cdef PyObject* old = slot[0]
    Py_INCREF(value)
    slot[0] = <PyObject*>value
    Py_XDECREF(old)


cdef int pcg32_load(object dealer, Pcg32* rng) except -1:
    """Copy a ``Pcg32Dealer``'s ``state`` and ``inc`` into ``rng``."""
    rng.state = <uint64_t>PyLong_AsUnsignedLongLong(dealer.state)
    rng.inc = <uint64_t>PyLong_AsUnsignedLongLong(dealer.inc)
    return 0


cdef int pcg32_store(object dealer, Pcg32* rng) except -1:
    """Write ``rng``'s state back into the ``Pcg32Dealer`` it was loaded from."""
    dealer.state = PyLong_FromUnsignedLongLong(rng.state)
    return 0


@cython.boundscheck(False)
@cython.wraparound(False)
def pcg32_shuffle(dealer, list items):
    """``Pcg32Dealer.shuffle`` on a list, in C (the reference engines' deals use it when built)."""
    cdef Pcg32 rng
    cdef Py_ssize_t i, j
    pcg32_load(dealer, &rng)
    for i in range(len(items), 1, -1):
        j = pcg32_below(&rng, <uint32_t>i)
        items[j], items[i - 1] = items[i - 1], items[j]
    pcg32_store(dealer, &rng)


@cython.boundscheck(False)
@cython.wraparound(False)
def pcg32_sample(dealer, population, Py_ssize_t k):
    """``Pcg32Dealer.sample`` (``0 <= k <= len(population)``), in C."""
    cdef list pool = list(population)
    cdef Py_ssize_t n = len(pool), i, j
    cdef list out = []
    cdef Pcg32 rng
    pcg32_load(dealer, &rng)
    for i in range(n, n - k, -1):
        j = pcg32_below(&rng, <uint32_t>i)
        out.append(pool[j])
        pool[j] = pool[i - 1]
    pcg32_store(dealer, &rng)
    return out
