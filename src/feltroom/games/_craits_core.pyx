# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled Craits core: the state machine behind the hot members (interface: compiled cores).

``CraitsCore`` re-implements what ``to_act``, ``is_over``, ``scores``, ``winners``,
``legal_actions`` and ``apply`` need, with C arrays for the hands, stock and discard pile.
Everything else (events, views, records, errors) comes from the reference engine
``feltroom.games.craits.Craits`` replayed by ``FastGame`` ("the shadow"). The core consumes
``self.rng`` exactly as the reference does (the same shuffles of the same lists, in the same
order), so the shadow deals the same cards.

Covered: every option of ``Craits.OPTIONS`` (all the variants, ``decks``, ``first_dealer``,
``turn_time``). The CLOCK actions (``close``, ``timeout``) go through ``self._degrade``.
"""

import random as _random

from cpython.list cimport PyList_New, PyList_SET_ITEM, PyList_GET_ITEM, PyList_GET_SIZE
from cpython.ref cimport PyObject, Py_INCREF
from cpython.object cimport PyObject_RichCompareBool, Py_EQ
from libc.string cimport memset

from feltroom._fastcore cimport new_events, randbelow, set_slot, slot_offset


from feltroom.games.craits import VARIANTS as _VARIANTS
from feltroom.games.craits import _FORMS, _FORMS_ONE, _INFO, _SUIT_ACTIONS, _pack_for

cdef enum:
    MAXP = 10
    MAXC = 104
    MAXLEGAL = 512
    # phases
    PLAY = 0
    SUIT = 1
    DECLARE = 2
    OVER = 3
    # action codes: plays are card * 8 + suit * 2 + one; then these
    C_DRAW = 416
    C_SUIT = 417  # + suit
    C_ONE = 421
    C_CLOSE = 422
    C_TIMEOUT = 423
    QS = 44  # the queen of spades

ctypedef struct St:
    # configuration
    int n
    int n_hands
    int faces
    int idiot
    int countout
    int eights
    int punitive
    int out10
    int dirdeal
    int onedeal
    int timer
    int n_stacks
    int npack
    # state
    int hand_no
    int direction
    int phase
    int turn          # -1: None
    int dealer
    int active
    int count
    int run
    int streak
    int over
    int nstock
    int ndiscard
    int went_out      # bit mask of seats
    int declared      # bit mask of seats
    int hsize[MAXP]
    int shuf_k[MAXP]
    unsigned char penalties[MAXP]
    unsigned char hands[MAXP][MAXC]
    unsigned char stock[MAXC]
    unsigned char discard[MAXC]
    unsigned char pack[MAXC]


# ---------------------------------------------------------------- precomputed strings and tables

cdef PyObject* FORM_PTR[52][2][8]
cdef int FORM_CODE[52][2][8]
cdef int FORM_N[52][2]
cdef int POINTS[14]
cdef unsigned char QUIET[2][52]

_POINTS = (0, 1, 20, 3, 15, 30, 30, 20, 50, 30, 25, 10, 10, 10)
cdef tuple SEATS = tuple((s,) for s in range(MAXP))  # to_act of one seat
cdef tuple SEAT_INTS = tuple(range(MAXP))
_OPTION_KEYS = frozenset((*_VARIANTS, "decks", "turn_time", "first_dealer"))
_Random = _random.Random

cdef str S_DRAW = "draw"
cdef str S_ONE = "one"
cdef str S_CLOSE = "close"
cdef str S_TIMEOUT = "timeout"
cdef str S_CLOCK = "CLOCK"
cdef tuple SUIT_ACTIONS = tuple(_SUIT_ACTIONS)


cdef int _code_of(str action) except -2:
    kind, card, suit, one = _INFO[action]
    if kind == 0:
        return card * 8 + suit * 2 + (1 if one else 0)
    if kind == 1:
        return C_DRAW
    if kind == 2:
        return C_SUIT + suit
    if kind == 3:
        return C_ONE
    if kind == 4:
        return C_CLOSE
    return C_TIMEOUT


cdef void _init_tables() except *:
    cdef int c, j, r
    for r in range(14):
        POINTS[r] = _POINTS[r]
    for c in range(52):
        r = c // 4 + 1
        QUIET[0][c] = r in (1, 3, 8, 9) or r >= 11
        QUIET[1][c] = r in (1, 3, 8, 9) or (r == 12 and c != QS)
        for j, forms in enumerate((_FORMS[c], _FORMS_ONE[c])):
            FORM_N[c][j] = len(forms)
            for i, f in enumerate(forms):
                FORM_PTR[c][j][i] = <PyObject*>f
                FORM_CODE[c][j][i] = _code_of(f)


_init_tables()


cdef inline int _hand_size(int h) noexcept:
    return 9 - h if h <= 8 else h - 7


cdef int _score(unsigned char* held, int size, int eights, int punitive) noexcept:
    """score_hand(...)[0] of the reference (CRAITS-SCORE-3/4, VAR-THREE8/PUNITIVE)."""
    cdef int i, c, r, p, threes = 0, total = 0, ne = 0, k, j, best, bi, t
    cdef int elig[MAXC]
    for i in range(size):
        if 8 <= held[i] < 12:
            threes += 1
    if threes == 0:
        for i in range(size):
            total += POINTS[held[i] // 4 + 1]
        return total
    if threes == size:
        return -50 * threes
    for i in range(size):
        c = held[i]
        r = c // 4 + 1
        if r == 3:
            continue
        p = POINTS[r]
        total += p
        if (eights or r != 8) and not (punitive and r == 1):
            elig[ne] = p
            ne += 1
    k = threes if threes < ne else ne
    for j in range(k):  # take the k highest eligible values
        best = -1
        bi = 0
        for i in range(j, ne):
            if elig[i] > best:
                best = elig[i]
                bi = i
        t = elig[j]
        elig[j] = elig[bi]
        elig[bi] = t
        total -= best
    total += 3 * k + (100 if punitive else 3) * (threes - k)
    return total


cdef inline void _insort(unsigned char* hand, int* size, unsigned char card) noexcept:
    cdef int i = size[0]
    while i > 0 and hand[i - 1] > card:
        hand[i] = hand[i - 1]
        i -= 1
    hand[i] = card
    size[0] += 1


cdef inline void _remove(unsigned char* hand, int* size, unsigned char card) noexcept:
    cdef int i = 0, n = size[0]
    while hand[i] != card:
        i += 1
    while i < n - 1:
        hand[i] = hand[i + 1]
        i += 1
    size[0] = n - 1


cdef int _shuffle(object rng, unsigned char* a, int length) except -1:
    """``rng.shuffle`` on the list ``a[:length]``, with the same result and the same RNG use."""
    cdef int i, j
    cdef list tmp
    if type(rng) is _Random:  # Random.shuffle with _randbelow_with_getrandbits, called from C
        getrandbits = rng.getrandbits
        for i in range(length - 1, 0, -1):
            j = randbelow(getrandbits, i + 1)
            a[i], a[j] = a[j], a[i]
        return 0
    tmp = [a[i] for i in range(length)]
    rng.shuffle(tmp)
    for i in range(length):
        a[i] = tmp[i]
    return 0


# ---------------------------------------------------------------- the core

cdef class CraitsCore:
    """The Craits state machine in C (see the module docstring)."""

    cdef public list actions
    cdef public bint core_active
    cdef St st
    cdef Py_ssize_t _to_act_at  # the offset of the ``to_act`` slot (0: set it as an attribute)
    cdef list totals
    cdef list _winners
    cdef object _legal
    cdef object _legal_seat
    # the codes of the list last computed (``_legal``), and the strings put in it: a list its
    # reader has changed since no longer matches them, and is computed again (``_legal_intact``)
    cdef int nlegal
    cdef int codes[MAXLEGAL]
    cdef PyObject* lptr[MAXLEGAL]

    @staticmethod
    def supports(players, options):
        """Whether the core covers this game (raw options, before normalisation)."""
        if type(players) is not int or not 2 <= players <= 10:
            return False
        if options is None:
            return True
        if type(options) is not dict:
            return False
        for key in options:
            if key not in _OPTION_KEYS:
                return False
        return True

    # ------------------------------------------------------------ setup

    def _core_setup(self):
        cdef St* st = &self.st
        cdef int n = self.players
        cdef int i, dealer, low, r, nd, nleft, c
        cdef int drawing[MAXP]
        cdef int got[MAXP]
        cdef unsigned char left[MAXC]
        cdef unsigned char* cut
        o = self.options
        memset(st, 0, sizeof(St))
        st.n = n
        st.n_hands = 8 if o["short_game"] else 15
        st.faces = 1 if o["face_card_functions"] else 0
        st.idiot = 1 if o["idiot_card"] else 0
        st.countout = 1 if o["count_out_continues"] else 0
        st.eights = 1 if o["threes_cancel_eights"] else 0
        st.punitive = 1 if o["punitive_scoring"] else 0
        st.out10 = 1 if o["going_out_minus_10"] else 0
        st.dirdeal = 1 if o["dealer_follows_direction"] else 0
        st.onedeal = 1 if o["one_card_on_one_card_deal"] else 0
        st.timer = 0 if o["turn_time"] is None else 1
        st.n_stacks = len(self._stacks)
        pack = _pack_for(n, o)
        st.npack = len(pack)
        for i in range(st.npack):
            st.pack[i] = pack[i]
        st.direction = 1
        st.turn = -1
        self.totals = [0] * n
        self._winners = []
        self._legal = None
        self._legal_seat = None
        self.core_active = True
        first = o["first_dealer"]
        if first is None:  # the cut (choose_dealer of the reference, CRAITS-DEALER-1)
            cut = st.stock  # scratch: the shuffled pack (the stock is dealt afresh below)
            for i in range(st.npack):
                cut[i] = st.pack[i]
            _shuffle(self.rng, cut, st.npack)
            for i in range(st.npack):
                left[i] = cut[i]
            nleft = st.npack
            nd = n
            for i in range(n):
                drawing[i] = i
            while True:
                low = 99
                for i in range(nd):
                    if nleft == 0:
                        for c in range(st.npack):
                            left[c] = cut[c]
                        nleft = st.npack
                        _shuffle(self.rng, left, nleft)
                    nleft -= 1
                    r = left[nleft] // 4 + 1
                    got[i] = 14 if r == 1 else r
                    if got[i] < low:
                        low = got[i]
                r = 0
                for i in range(nd):
                    if got[i] == low:
                        drawing[r] = drawing[i]
                        r += 1
                nd = r
                if nd == 1:
                    break
            dealer = drawing[0]
        else:
            dealer = first
        st.dealer = dealer
        self.is_over = False
        self._to_act_at = slot_offset(type(self), "to_act")
        self._new_hand()
        self._publish()

    def _core_copy(self, other):
        cdef CraitsCore g = <CraitsCore?>other
        g.st = self.st
        g.actions = [list(a) for a in self.actions]
        g.core_active = self.core_active
        g.totals = list(self.totals)
        g._winners = list(self._winners)
        g._legal = None
        g._legal_seat = None
        g._to_act_at = self._to_act_at
        g.to_act = self.to_act
        g.is_over = self.is_over

    # ------------------------------------------------------------ hands

    cdef int _new_hand(self) except -1:
        """Deal hands until one is under way, or the game is over (a hand may end at its upcard)."""
        while True:
            self._deal()
            if self.st.phase == DECLARE:
                return 0
            if not self._turn_up():
                return 0
            if self._score_hand():
                return 0

    cdef int _finish_hand(self) except -1:
        if not self._score_hand():
            self._new_hand()
        return 0

    cdef int _score_hand(self) except -1:
        """Score the hand (CRAITS-OUT-5, CRAITS-SCORE-*); 1 if the game is over."""
        cdef St* st = &self.st
        cdef int s, hs
        cdef list totals = self.totals
        for s in range(st.n):
            if st.hsize[s] == 0 or (not st.countout and st.went_out & (1 << s)):
                hs = -10 if st.out10 else 0
            else:
                hs = _score(st.hands[s], st.hsize[s], st.eights, st.punitive)
            if hs:
                totals[s] = totals[s] + hs
        st.turn = -1
        st.phase = OVER
        if st.hand_no >= st.n_hands:
            low = min(totals)
            self._winners = [s for s in range(st.n) if totals[s] == low]
            st.over = 1
            return 1
        return 0

    cdef int _deal(self) except -1:
        """Deal hand ``hand_no + 1`` (CRAITS-DEAL-*)."""
        cdef St* st = &self.st
        cdef int n = st.n, i, j, seat, size, dealt, d, c, m
        cdef unsigned char order[MAXC]
        cdef list lst
        if st.hand_no:
            if st.dirdeal:
                st.dealer = (st.dealer + st.direction + n) % n
            else:
                st.direction = 1
                st.dealer = (st.dealer + 1) % n
        st.hand_no += 1
        size = _hand_size(st.hand_no)
        d = st.direction
        m = st.npack
        if st.hand_no - 1 < st.n_stacks:
            lst = self.deal_order(st.hand_no - 1)
            for i in range(m):
                order[i] = lst[i]
        else:
            for i in range(m):
                order[i] = st.pack[i]
            _shuffle(self.rng, order, m)
        dealt = size * n
        for i in range(n):
            seat = ((st.dealer + d * (i + 1)) % n + n) % n
            st.hsize[seat] = 0
            j = i
            while j < dealt:
                _insort(st.hands[seat], &st.hsize[seat], order[j])
                j += n
        st.nstock = m - dealt
        for i in range(st.nstock):
            st.stock[i] = order[m - 1 - i]
        st.ndiscard = 0
        st.count = 0
        st.run = 0
        st.streak = 0
        for i in range(n):
            st.penalties[i] = 0
        st.went_out = 0
        st.declared = 0
        st.turn = -1
        if size == 1 and st.onedeal:
            st.phase = DECLARE
        else:
            st.phase = PLAY
        return 0

    cdef int _turn_up(self) except -1:
        cdef St* st = &self.st
        st.nstock -= 1
        cdef int card = st.stock[st.nstock]
        cdef int rank = card // 4 + 1
        st.discard[st.ndiscard] = card
        st.ndiscard += 1
        st.active = card & 3
        st.streak = 1 if st.faces and rank == 11 else 0
        if rank == 8 or rank == 9:
            st.phase = SUIT
            return 0
        return self._function(st.dealer, card)

    # ------------------------------------------------------------ draws and turns

    cdef inline int _next(self, int seat) noexcept:
        return (seat + self.st.direction + self.st.n) % self.st.n

    cdef int _draw(self, int seat, int k) except -1:
        """Draw ``k`` cards one at a time (CRAITS-SHUF-*); 1 if the hand ended."""
        cdef St* st = &self.st
        cdef int i
        for i in range(k):
            if st.nstock == 0:
                if self._refill(seat):
                    return 1
            st.nstock -= 1
            _insort(st.hands[seat], &st.hsize[seat], st.stock[st.nstock])
        return 0

    cdef int _refill(self, int seat) except -1:
        """Reshuffle (SHUF-1) or end the hand (SHUF-3), with the shuffle penalty (SHUF-2)."""
        cdef St* st = &self.st
        cdef int k = st.shuf_k[seat] + 1
        cdef int i, top
        st.shuf_k[seat] = k
        points = (<object>5) << (k - 1)
        if st.ndiscard < 2:
            self.totals[seat] = self.totals[seat] + points
            return 1
        top = st.discard[st.ndiscard - 1]
        st.nstock = st.ndiscard - 1
        for i in range(st.nstock):
            st.stock[i] = st.discard[i]
        _shuffle(self.rng, st.stock, st.nstock)
        st.discard[0] = top
        st.ndiscard = 1
        self.totals[seat] = self.totals[seat] + points
        return 0

    cdef int _pick_up_count(self, int seat) except -1:
        cdef St* st = &self.st
        cdef int s
        if self._draw(seat, st.count):
            return 1
        st.count = 0
        if st.countout:
            for s in range(st.n):
                if st.hsize[s] == 0:
                    return 1
            st.went_out = 0
        elif st.went_out:
            return 1
        return 0

    cdef int _begin_turn(self, int seat) except -1:
        cdef St* st = &self.st
        while st.penalties[seat]:
            st.penalties[seat] = 0
            if self._draw(seat, 2):
                return 1
            if st.count:
                if self._pick_up_count(seat):
                    return 1
            seat = self._next(seat)
        st.turn = seat
        return 0

    cdef int _skip(self, int seat) except -1:
        if self.st.penalties[seat]:
            self.st.penalties[seat] = 0
            return self._draw(seat, 2)
        return 0

    cdef int _draw_turn(self, int seat) except -1:
        cdef St* st = &self.st
        cdef int after
        st.run = 0
        if st.count:
            if self._pick_up_count(seat):
                return 1
        elif self._draw(seat, 1):
            return 1
        after = self._next(seat)
        if st.penalties[after]:
            return self._begin_turn(after)
        st.turn = after
        return 0

    cdef int _close(self) except -1:
        """End the one-card-deal declarations (CRAITS-VAR-ONEDEAL), then turn the upcard."""
        cdef St* st = &self.st
        cdef int s
        st.phase = PLAY
        for s in range(st.n):
            if st.declared & (1 << s):
                continue
            if st.idiot:
                if self._draw(s, 1):
                    return 1
            else:
                st.penalties[s] = 1
        return self._turn_up()

    # ------------------------------------------------------------ plays

    cdef int _play(self, int seat, int card, int suit, int one) except -1:
        cdef St* st = &self.st
        cdef int rank = card // 4 + 1
        cdef int in_count, step, after
        _remove(st.hands[seat], &st.hsize[seat], card)
        st.discard[st.ndiscard] = card
        st.ndiscard += 1
        st.active = suit
        if st.faces:
            st.streak = st.streak + 1 if rank == 11 else 0
        in_count = st.count
        step = st.run
        if st.hsize[seat] == 1 and not one:  # CRAITS-ONE-1/2, CRAITS-VAR-IDIOT
            if st.idiot:
                if self._draw(seat, 1):
                    return 1
            else:
                st.penalties[seat] = 1
        if in_count:  # CRAITS-COUNT-3
            st.count += rank
            if st.hsize[seat] == 0:
                st.went_out |= 1 << seat
            return self._begin_turn(self._next(seat))
        if step and step < 3:  # CRAITS-VAR-FACES-K(a)
            if st.hsize[seat] == 0:
                return 1
            st.run = step + 1
            st.turn = seat
            return 0
        st.run = 0
        if QUIET[st.faces][card]:
            if st.hsize[seat] == 0:
                return 1
            after = self._next(seat)
            if st.penalties[after]:
                return self._begin_turn(after)
            st.turn = after
            return 0
        return self._function(seat, card)

    cdef int _function(self, int seat, int card) except -1:
        """The card's function, the hand-end check and the next turn (CRAITS-PLAY-5)."""
        cdef St* st = &self.st
        cdef int rank = card // 4 + 1
        cdef int after = self._next(seat)
        cdef int victim, i
        if rank == 1 or rank == 3 or rank == 8 or rank == 9:
            if st.hsize[seat] == 0:
                return 1
            if st.penalties[after]:
                return self._begin_turn(after)
            st.turn = after
            return 0
        if rank == 2:  # CRAITS-COUNT-1
            st.count = 2
            st.went_out = 0
            if st.hsize[seat] == 0:
                st.went_out |= 1 << seat
            return self._begin_turn(after)
        if rank == 4:
            if self._skip(after):
                return 1
            after = self._next(after)
        elif rank == 5:
            victim = after
            for i in range(st.n - 1):
                if self._draw(victim, 1):
                    return 1
                victim = self._next(victim)
        elif rank == 6:
            st.turn = seat
            return 0
        elif rank == 7:
            if self._draw(self._next(after) if st.n >= 4 else after, 1):
                return 1
        elif rank == 10:
            st.direction = -st.direction
            after = self._next(seat)
        elif st.faces:
            if rank == 11:
                if self._draw(after, 2 * st.streak):
                    return 1
                if self._skip(after):
                    return 1
                after = self._next(after)
            elif card == QS:
                if self._draw(after, 5):
                    return 1
                if self._skip(after):
                    return 1
                after = self._next(after)
            elif rank == 13 and st.hsize[seat]:
                st.run = 1
                st.turn = seat
                return 0
        if st.hsize[seat] == 0:
            return 1
        return self._begin_turn(after)

    # ------------------------------------------------------------ legal actions

    cdef list _plays(self, int seat):
        cdef St* st = &self.st
        cdef unsigned char* hand = st.hands[seat]
        cdef int size = st.hsize[seat]
        cdef int one = 1 if size == 2 else 0
        cdef int i, j, c, prev = -1, nl = 0, top, trank, active = st.active, count = st.count
        cdef PyObject* tmp[MAXLEGAL]
        cdef list out
        cdef object item
        top = st.discard[st.ndiscard - 1] >> 2
        for i in range(size):
            c = hand[i]
            if c == prev:
                continue
            if count:
                if c >= 8:
                    break
            elif not ((c & 3) == active or (c >> 2) == top or 28 <= c < 36):
                continue
            prev = c
            for j in range(FORM_N[c][one]):
                tmp[nl] = FORM_PTR[c][one][j]
                self.lptr[nl] = tmp[nl]
                self.codes[nl] = FORM_CODE[c][one][j]
                nl += 1
        if nl == 0:
            self.codes[0] = C_DRAW
            self.lptr[0] = <PyObject*>S_DRAW
            self.nlegal = 1
            return [S_DRAW]
        out = PyList_New(nl)
        for i in range(nl):
            item = <object>tmp[i]
            Py_INCREF(item)
            PyList_SET_ITEM(out, i, item)
        self.nlegal = nl
        return out

    cdef list _compute_legal(self, seat):
        cdef St* st = &self.st
        cdef int phase = st.phase, up, s
        if type(seat) is not int and seat == S_CLOCK:
            if phase == DECLARE:
                self.codes[0] = C_CLOSE
                self.lptr[0] = <PyObject*>S_CLOSE
                self.nlegal = 1
                return [S_CLOSE]
            if st.timer and (phase == SUIT or (phase == PLAY and st.turn >= 0)):
                self.codes[0] = C_TIMEOUT
                self.lptr[0] = <PyObject*>S_TIMEOUT
                self.nlegal = 1
                return [S_TIMEOUT]
            self.nlegal = 0
            return []
        self.nlegal = 0
        if type(seat) is not int:
            return []
        if phase == PLAY:
            if st.turn < 0 or seat != st.turn:
                return []
            return self._plays(st.turn)
        if phase == SUIT:
            if seat != st.dealer:
                return []
            up = st.discard[st.ndiscard - 1]
            if up // 4 + 1 == 8:
                for s in range(4):
                    self.codes[s] = C_SUIT + s
                    self.lptr[s] = <PyObject*>SUIT_ACTIONS[s]
                self.nlegal = 4
                return list(SUIT_ACTIONS)
            s = up & 3
            if 3 - s < s:
                s = 3 - s
            self.codes[0] = C_SUIT + s
            self.codes[1] = C_SUIT + 3 - s
            self.lptr[0] = <PyObject*>SUIT_ACTIONS[s]
            self.lptr[1] = <PyObject*>SUIT_ACTIONS[3 - s]
            self.nlegal = 2
            return [SUIT_ACTIONS[s], SUIT_ACTIONS[3 - s]]
        if phase == DECLARE:
            if 0 <= seat < st.n and not st.declared & (1 << <int>seat):
                self.codes[0] = C_ONE
                self.lptr[0] = <PyObject*>S_ONE
                self.nlegal = 1
                return [S_ONE]
            return []
        return []

    cdef bint _legal_intact(self) noexcept:
        """Whether the cached list still holds the actions as built: a caller that changed the
        list it was given gets a new one, and changes nothing in the game."""
        cdef list legal = self._legal
        cdef Py_ssize_t i
        if PyList_GET_SIZE(legal) != self.nlegal:
            return False
        for i in range(self.nlegal):
            if PyList_GET_ITEM(legal, i) != self.lptr[i]:
                return False
        return True

    def legal_actions(self, seat):
        cdef list legal
        cdef object cached = self._legal
        if not self.core_active:
            return self._ref_now().legal_actions(seat)
        if cached is not None and seat is self._legal_seat and self._legal_intact():  # seat by identity: True == 1
            return cached
        if (type(seat) is int and self.st.phase == PLAY and self.st.turn >= 0
                and (seat is SEAT_INTS[self.st.turn] or seat == self.st.turn)):
            legal = self._plays(self.st.turn)
        else:
            legal = self._compute_legal(seat)
        self._legal = legal
        self._legal_seat = seat
        return legal

    # ------------------------------------------------------------ apply

    def apply(self, seat, action):
        cdef St* st = &self.st
        cdef object legal
        cdef Py_ssize_t i, nl
        cdef int code, r, s
        if not self.core_active:
            return self._degrade(seat, action)
        if type(seat) is not int and seat != S_CLOCK:  # True == 1, but True is no seat
            self.check_seat(seat)
        legal = self._legal
        if legal is None or seat is not self._legal_seat or not self._legal_intact():
            legal = self.legal_actions(seat)
        code = -1
        nl = PyList_GET_SIZE(legal)
        for i in range(nl):
            if <object>PyList_GET_ITEM(legal, i) is action:
                code = self.codes[i]
                break
        else:
            for i in range(nl):
                if PyObject_RichCompareBool(<object>PyList_GET_ITEM(legal, i), action, Py_EQ):
                    code = self.codes[i]
                    break
        if code < 0:
            action = self._slow_verify(seat, action)
            legal = self._legal
            if legal is None or seat is not self._legal_seat or not self._legal_intact():
                legal = self.legal_actions(seat)
            nl = PyList_GET_SIZE(legal)
            for i in range(nl):
                if PyObject_RichCompareBool(<object>PyList_GET_ITEM(legal, i), action, Py_EQ):
                    code = self.codes[i]
                    break
            if code < 0:  # _slow_verify returned an action the reference lists: the lists differ
                raise AssertionError(f"the core does not list {action!r} for {seat!r}, the reference does")
        if code >= C_CLOSE:  # the CLOCK actions: the shadow takes over
            return self._degrade(seat, action)
        self._legal = None
        self._legal_seat = None
        if code < C_DRAW:
            r = self._play(seat, code >> 3, (code >> 1) & 3, code & 1)
        elif code == C_DRAW:
            r = self._draw_turn(seat)
        elif code < C_ONE:
            st.active = code - C_SUIT
            st.phase = PLAY
            r = self._begin_turn(self._next(st.dealer))
        else:
            st.declared |= 1 << <int>seat
            r = 0
            if st.declared == (1 << st.n) - 1:
                r = self._close()
        if r:
            self._finish_hand()
        self.actions.append([seat, action])
        self._publish()
        return new_events(self, len(self.actions) - 1)

    # ------------------------------------------------------------ the hot members

    cdef void _publish(self) except *:
        """Write ``to_act`` and ``is_over`` into the instance's slots (``FastGame``): a bot or a
        playout reads them after every action, and a slot read is the cheapest attribute read."""
        cdef St* st = &self.st
        cdef object to_act
        if st.phase == PLAY:
            to_act = () if st.turn < 0 else SEATS[st.turn]
        elif st.phase == SUIT:
            to_act = SEATS[st.dealer]
        elif st.phase == DECLARE:
            to_act = tuple([s for s in range(st.n) if not st.declared & (1 << s)])
        else:
            to_act = ()
        if self._to_act_at:
            set_slot(self, self._to_act_at, to_act)
        else:
            self.to_act = to_act
        if st.over:
            self.is_over = True

    @property
    def scores(self):
        if not self.core_active:
            return self._ref_now().scores
        return list(self.totals)

    @property
    def winners(self):
        if not self.core_active:
            return self._ref_now().winners
        return list(self._winners)
