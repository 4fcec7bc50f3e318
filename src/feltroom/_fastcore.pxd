cdef class Events:
    cdef object game
    cdef Py_ssize_t action
    cdef list cached
    cdef list _list(self)


cdef Events new_events(object game, Py_ssize_t action)


# Slots of the Fast classes (``to_act``, ``is_over``), written from C without an attribute lookup.
cdef Py_ssize_t slot_offset(object cls, str name) except -1
cdef void set_slot(object obj, Py_ssize_t offset, object value) noexcept

# ``Random._randbelow(n)`` for a plain ``random.Random``: the same ``getrandbits`` calls, from C.
cdef int randbelow(object getrandbits, int n) except -1
