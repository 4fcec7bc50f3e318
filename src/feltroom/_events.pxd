cdef class Events:
    cdef object game
    cdef Py_ssize_t action
    cdef list cached
    cdef list _list(self)


cdef Events new_events(object game, Py_ssize_t action)
