cimport cython
from libc.stdint cimport uint32_t, uint64_t


cdef class Events:
    cdef object game
    cdef Py_ssize_t action
    cdef list cached
    cdef list _list(self)


cdef Events new_events(object game, Py_ssize_t action)


# Slots of the Fast classes (``to_act``, ``is_over``), written from C without an attribute lookup.
cdef Py_ssize_t slot_offset(object cls, str name) except -1
cdef void set_slot(object obj, Py_ssize_t offset, object value) noexcept

# The format 2 dealing (``feltroom.dealing.Pcg32Dealer``) in C: PCG32 as ``pcg_basic.c``. A core
# loads the dealer's ``state`` and ``inc`` into a ``Pcg32``, draws, and stores ``state`` back.
ctypedef struct Pcg32:
    uint64_t state
    uint64_t inc


cdef int pcg32_load(object dealer, Pcg32* rng) except -1
cdef int pcg32_store(object dealer, Pcg32* rng) except -1


cdef inline uint32_t pcg32_next(Pcg32* rng) noexcept nogil:
    """``pcg32_random_r``: the next 32-bit output."""
    cdef uint64_t old = rng.state
    rng.state = old * 6364136223846793005ULL + rng.inc
    cdef uint32_t mixed = <uint32_t>(((old >> 18) ^ old) >> 27)
    cdef uint32_t rot = <uint32_t>(old >> 59)
    return (mixed >> rot) | (mixed << ((32 - rot) & 31))


@cython.cdivision(True)
cdef inline uint32_t pcg32_below(Pcg32* rng, uint32_t n) noexcept nogil:
    """``pcg32_boundedrand_r``: uniform in ``[0, n)``, ``n >= 1``: reject outputs below ``2**32 mod n``."""
    cdef uint32_t threshold = (0x100000000ULL % n)
    cdef uint32_t r = pcg32_next(rng)
    while r < threshold:
        r = pcg32_next(rng)
    return r % n
