# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled core of Cribbage: the state machine behind the hot members only.

``CribbageCore`` re-implements, on C arrays, exactly what ``Cribbage`` (the reference,
``feltroom/games/cribbage.py``) needs to answer ``to_act``, ``is_over``, ``legal_actions``,
``apply``, ``scores`` and ``winners``: the deal (the same draws), the discard, the
starter and his heels, the play (go, 31, reset, last card), the show (automatic, or manual
with claims and muggins), the end at the target and the dealer's rotation. Everything else
(events, views, records, audits, error messages) comes from the reference engine replayed
by ``FastGame`` (the "shadow"); the CLOCK's ``timeout`` degrades to it.

The totals of a counting set are computed here (fifteens by subset sums, pairs, runs,
flush, nobs); the breakdowns are the reference's business.
"""

from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE, PyList_New, PyList_SET_ITEM
from cpython.object cimport PyObject
from cpython.long cimport PyLong_AsLongAndOverflow
from cpython.ref cimport Py_INCREF
from libc.string cimport memset

from feltroom._fastcore cimport Pcg32, new_events, pcg32_below, pcg32_load, pcg32_store, set_slot, slot_offset

from feltroom.cards import NAMES

# ---------------------------------------------------------------------------- tables

DEF P_DISCARD = 0
DEF P_PLAY = 1
DEF P_SHOW = 2   # manual counting only: waiting for the owner's claim
DEF P_OVER = 3

# action codes (``_lcodes``): play c = c, discard c = 100 + c, discard a b = 200 + 52a + b,
# claim N = 10000 + N, timeout = 20000
DEF C_DISC1 = 100
DEF C_DISC2 = 200
DEF C_CLAIM = 10000
DEF C_TIMEOUT = 20000

cdef int VALUE[52]
cdef int RANK[52]
cdef int _i
for _i in range(52):
    RANK[_i] = _i // 4 + 1
    VALUE[_i] = min(_i // 4 + 1, 10)

cdef list _PLAY = ["play " + n for n in NAMES]
cdef list _DISC1 = ["discard " + n for n in NAMES]
cdef list _DISC2 = [f"discard {NAMES[a]} {NAMES[b]}" if a < b else None for a in range(52) for b in range(52)]
cdef list _CLAIMS46 = [f"claim {i}" for i in range(47)]
cdef str _TIMEOUT = "timeout"
#: action string -> code (for an action equal to a legal one but not the same object)
cdef dict _CODES = {_PLAY[c]: c for c in range(52)}
_CODES.update({_DISC1[c]: C_DISC1 + c for c in range(52)})
_CODES.update({_DISC2[c]: C_DISC2 + c for c in range(52 * 52) if _DISC2[c] is not None})
_CODES.update({_CLAIMS46[i]: C_CLAIM + i for i in range(47)})
_CODES[_TIMEOUT] = C_TIMEOUT
cdef tuple _EMPTY = ()
cdef tuple _ALONE = tuple((s,) for s in range(6))
#: ``to_act`` while discarding: the sorted seats of a bit mask
cdef tuple _MASK_TUPLES = tuple(tuple(s for s in range(6) if m >> s & 1) for m in range(64))
cdef object _NO_SEAT = object()

cdef dict _TEAM_SIDES = {"none": 0, "2x2": 2, "2x3": 2, "3x2": 3}


# ---------------------------------------------------------------------------- chance

cdef void _sample(Pcg32* rng, int k, int* out) noexcept nogil:
    """``Pcg32Dealer.sample(_PACK, k)`` (also its ``top``): the cut's cards and a deal's, into ``out``."""
    cdef int pool[52]
    cdef int i, j
    for i in range(52):
        pool[i] = i
    for i in range(k):
        j = pcg32_below(rng, 52 - i)
        out[i] = pool[j]
        pool[j] = pool[51 - i]


# ---------------------------------------------------------------------------- the state

cdef struct St:
    int n
    int nsides
    int target
    int manual
    int crib_five
    int timed
    int claim_max
    int n_stacks        # the stacked deals (``len(self._stacks)``)
    int dealer
    int hand_no
    int phase
    int side_of[6]
    int side_scores[6]
    int hands[6][6]     # sorted card ids
    int hlen[6]
    int kept[6][6]      # the hands as they were when the starter was turned
    int klen[6]
    int crib[6]
    int clen
    int starter
    int next_starter
    int todisc          # bit mask of the seats still to discard
    int count
    int turn
    int cards_left
    int series[32]      # the ranks of the current series
    int slen
    int show_i          # 0..n-1: the hands from the dealer's left, n: the crib
    int win_side


cdef inline int peg_points(St* s) noexcept nogil:
    """Points for the last card of the series (fifteen, 31, pairs, runs; not go or last)."""
    cdef int pts = 0
    cdef int n = s.slen
    cdef int last = s.series[n - 1]
    cdef int same = 0
    cdef int i = n - 2
    cdef int seen, lo, hi, m, run, r
    if s.count == 15 or s.count == 31:  # CRIB-PEG-7, CRIB-PEG-4
        pts = 2
    while i >= 0 and s.series[i] == last:  # CRIB-PEG-8
        same += 1
        i -= 1
    if same:
        if same == 1:
            pts += 2
        elif same == 2:
            pts += 6
        else:
            pts += 12
        return pts
    seen = 1 << last  # CRIB-PEG-9: the longest run of distinct ranks ending now
    lo = last
    hi = last
    m = 1
    run = 0
    i = n - 2
    while i >= 0:
        r = s.series[i]
        if (seen >> r) & 1:
            break
        seen |= 1 << r
        m += 1
        if r < lo:
            lo = r
        elif r > hi:
            hi = r
        if m >= 3 and hi - lo == m - 1:
            run = m
        i -= 1
    return pts + run


cdef int rank_points(int* ranks, int m) noexcept nogil:
    """Fifteens, pairs and runs (CRIB-SCORE-2..4) of ``m`` cards given by their ranks 1–13."""
    cdef int ways[16]
    cdef int cnt[15]
    cdef int i, v, t, r, pts, prod, length, end
    memset(ways, 0, sizeof(ways))
    memset(cnt, 0, sizeof(cnt))
    ways[0] = 1
    for i in range(m):  # CRIB-SCORE-2: subsets summing to 15
        r = ranks[i]
        cnt[r] += 1
        v = r if r < 10 else 10
        t = 15
        while t >= v:
            ways[t] += ways[t - v]
            t -= 1
    pts = 2 * ways[15]
    for r in range(1, 14):  # CRIB-SCORE-3
        pts += cnt[r] * (cnt[r] - 1)
    r = 1
    while r <= 13:  # CRIB-SCORE-4: maximal blocks of consecutive ranks
        if cnt[r]:
            end = r
            prod = cnt[r]
            while end + 1 <= 13 and cnt[end + 1]:
                end += 1
                prod *= cnt[end]
            length = end - r + 1
            if length >= 3:
                pts += length * prod
            r = end + 1
        else:
            r += 1
    return pts


#: fifteens, pairs and runs of 5 cards by their sorted ranks 0–12, in base 13
cdef unsigned char RANK5[371293]


cdef void _fill_rank5() noexcept:
    cdef int a, b, c, d, e
    cdef int ranks[5]
    for a in range(13):
        for b in range(a, 13):
            for c in range(b, 13):
                for d in range(c, 13):
                    for e in range(d, 13):
                        if a == e:
                            continue  # five of a rank: no such set
                        ranks[0] = a + 1
                        ranks[1] = b + 1
                        ranks[2] = c + 1
                        ranks[3] = d + 1
                        ranks[4] = e + 1
                        RANK5[(((a * 13 + b) * 13 + c) * 13 + d) * 13 + e] = <unsigned char>rank_points(ranks, 5)


_fill_rank5()


cdef int score_set(int* hand, int m, int starter, bint crib_five) noexcept nogil:
    """The total of a counting set (CRIB-SCORE-1..7): ``hand`` (m cards) with ``starter``."""
    cdef int ranks[7]
    cdef int i, j, x, pts, suit, v
    if m == 4:  # a table look-up by the sorted ranks
        ranks[0] = starter >> 2
        for i in range(4):
            x = hand[i] >> 2
            j = i
            while j >= 0 and ranks[j] > x:
                ranks[j + 1] = ranks[j]
                j -= 1
            ranks[j + 1] = x
        pts = RANK5[(((ranks[0] * 13 + ranks[1]) * 13 + ranks[2]) * 13 + ranks[3]) * 13 + ranks[4]]
    else:
        for i in range(m):
            ranks[i] = RANK[hand[i]]
        ranks[m] = RANK[starter]
        pts = rank_points(ranks, m + 1)
    suit = hand[0] & 3  # CRIB-SCORE-5/6
    for i in range(1, m):
        if hand[i] & 3 != suit:
            break
    else:
        if starter & 3 == suit:
            pts += m + 1
        elif not crib_five:
            pts += m
    v = 40 + (starter & 3)  # CRIB-SCORE-1: nobs
    for i in range(m):
        if hand[i] == v:
            pts += 1
            break
    return pts


def _score_total(hand, int starter, bint crib_five=False):
    """The C scorer on a list of card ids (for tests: it equals ``cribbage.score_total``)."""
    cdef int cards[6]
    cdef int m = len(hand)
    cdef int i
    if not 1 <= m <= 6:
        raise ValueError("a counting set has 1-6 cards besides the starter")
    for i in range(m):
        cards[i] = hand[i]
    return score_set(cards, m, starter, crib_five)


def _score_sum(hand, starters, bint crib_five=False):
    """``_score_total(hand, s, crib_five)`` summed over the card ids ``starters``, in one C loop
    (the heuristic's discards value each kept hand over every unseen starter)."""
    cdef int cards[6]
    cdef int m = len(hand)
    cdef int i
    cdef long total = 0
    if not 1 <= m <= 6:
        raise ValueError("a counting set has 1-6 cards besides the starter")
    for i in range(m):
        cards[i] = hand[i]
    for s in starters:
        total += score_set(cards, m, s, crib_five)
    return total


# ---------------------------------------------------------------------------- the core

cdef class CribbageCore:
    """The hot members of ``Cribbage`` on C state (see the module docstring).

    A subclass (``FastCribbage``) mixes in ``FastGame``, which sets ``players``, ``options``,
    ``rng``, ``_stacks`` and ``actions`` before calling ``_core_setup``, and provides
    ``_slow_verify``, ``_degrade`` and ``_ref_now``.
    """

    cdef public list actions
    cdef public bint core_active
    cdef St st
    cdef object _lseat     # the seat whose legal list is cached (``_NO_SEAT``: none)
    cdef list _legal
    cdef Py_ssize_t _to_act_at  # the offset of the ``to_act`` slot (0: set it as an attribute)
    cdef int _lcount       # the cached list's actions as built: their codes and string objects
    cdef int _lcodes[64]
    cdef PyObject* _lptrs[64]

    @staticmethod
    def supports(players, options):
        """True: the core covers every option (bad ones are refused by ``FastGame``'s set-up,
        with the reference's checks and messages)."""
        return True

    # ------------------------------------------------------------------ setup and deal

    def _core_setup(self):
        cdef St* s = &self.st
        cdef int n = self.players
        cdef int k, i, low, dealer, nc
        cdef int cont[6]
        cdef int drawn[6]
        cdef Pcg32 rng
        o = self.options
        memset(s, 0, sizeof(St))
        self._lseat = _NO_SEAT
        self._legal = None
        s.n = n
        k = _TEAM_SIDES[o["teams"]] or n
        s.nsides = k
        for i in range(n):
            s.side_of[i] = i % k
        s.target = o["target"]
        s.manual = o["counting"] == "manual"
        s.crib_five = o["crib_flush"] == "five"
        s.timed = 1 if o["turn_time"] else 0
        s.claim_max = 46 if n == 6 else 29
        s.n_stacks = len(self._stacks)
        s.win_side = -1
        s.turn = -1
        first = o["first_dealer"]
        if first is None:  # CRIB-DEALER-1: the cut, as ``cut_for_dealer`` with ``_cut_draw``
            for i in range(n):
                cont[i] = i
            nc = n
            pcg32_load(self.rng, &rng)
            while nc > 1:  # the lowest rank deals; tied players draw again, in seat order
                _sample(&rng, nc, drawn)
                low = 99
                for i in range(nc):
                    drawn[i] = RANK[drawn[i]]
                    if drawn[i] < low:
                        low = drawn[i]
                k = 0
                for i in range(nc):
                    if drawn[i] == low:
                        cont[k] = cont[i]
                        k += 1
                nc = k
            pcg32_store(self.rng, &rng)
            dealer = cont[0]
        else:
            dealer = first
        s.dealer = dealer
        s.hand_no = 0
        self._deal()
        self.core_active = True
        self.is_over = False
        self._to_act_at = slot_offset(type(self), "to_act")
        self._publish()

    cdef void _deal(self) except *:
        """Shuffle and deal as ``Cribbage._deal`` (the same draws), open the discard."""
        cdef St* s = &self.st
        cdef int n = s.n
        cdef int dealer = s.dealer
        cdef int deal_index = s.hand_no
        cdef int per = 6 if n == 2 or n == 6 else 5
        cdef int dealt = per * n - (1 if n >= 5 else 0)
        cdef int need = dealt + (2 if n == 3 else 1)
        cdef int order[52]
        cdef Pcg32 rng
        cdef int i, j, q, rnd, idx, x
        s.hand_no += 1
        if deal_index < s.n_stacks:
            cards = self.deal_order(deal_index)
            for i in range(need):
                order[i] = cards[i]
        else:  # ``Cribbage._draw``: the top ``need`` cards of a shuffled pack
            pcg32_load(self.rng, &rng)
            _sample(&rng, need, order)
            pcg32_store(self.rng, &rng)
        for q in range(n):
            s.hlen[q] = 0
            s.klen[q] = 0
        idx = 0
        for rnd in range(per):  # CRIB-DEAL-1..3: from the dealer's left, the dealer last
            for i in range(n):
                q = (dealer + 1 + i) % n
                if q == dealer and n >= 5 and rnd == per - 1:
                    continue
                s.hands[q][s.hlen[q]] = order[idx]
                s.hlen[q] += 1
                idx += 1
        for q in range(n):  # sort each hand (insertion sort: at most 6 cards)
            for i in range(1, s.hlen[q]):
                x = s.hands[q][i]
                j = i - 1
                while j >= 0 and s.hands[q][j] > x:
                    s.hands[q][j + 1] = s.hands[q][j]
                    j -= 1
                s.hands[q][j + 1] = x
        if n == 3:  # CRIB-DEAL-4
            s.crib[0] = order[15]
            s.clen = 1
        else:
            s.clen = 0
        s.next_starter = order[need - 1]  # CRIB-START-1
        s.starter = -1
        s.todisc = (1 << n) - 1
        if n >= 5:
            s.todisc &= ~(1 << dealer)
        s.count = 0
        s.slen = 0
        s.turn = -1
        s.show_i = 0
        s.phase = P_DISCARD

    # ------------------------------------------------------------------ the hot members

    cdef void _publish(self) except *:
        """Write ``to_act`` and ``is_over`` into the instance's slots (``FastGame``): a bot or a
        playout reads them after every action, and a slot read is the cheapest attribute read."""
        cdef St* s = &self.st
        cdef int ph = s.phase
        cdef object to_act
        if ph == P_PLAY:
            to_act = _ALONE[s.turn]
        elif ph == P_DISCARD:
            to_act = _MASK_TUPLES[s.todisc]
        elif ph == P_SHOW:
            to_act = _ALONE[self._show_owner()]
        else:
            to_act = _EMPTY
            self.is_over = True
        if self._to_act_at:
            set_slot(self, self._to_act_at, to_act)
        else:
            self.to_act = to_act

    @property
    def scores(self):
        if not self.core_active:
            return self._ref_now().scores
        cdef St* s = &self.st
        return [s.side_scores[s.side_of[q]] for q in range(s.n)]

    @property
    def winners(self):
        if not self.core_active:
            return self._ref_now().winners
        cdef St* s = &self.st
        if s.win_side < 0:
            return []
        return [q for q in range(s.n) if s.side_of[q] == s.win_side]

    def legal_actions(self, seat):
        if not self.core_active:
            return self._ref_now().legal_actions(seat)
        if seat is self._lseat and self._legal_intact():
            return self._legal
        return self._fill_legal(seat)

    cdef bint _legal_intact(self) noexcept:
        """Whether the cached list still holds the actions as built: a caller that changed the
        list it was given gets a new one, and changes nothing in the game."""
        cdef list out = self._legal
        cdef int i
        if PyList_GET_SIZE(out) != self._lcount:
            return False
        for i in range(self._lcount):
            if PyList_GET_ITEM(out, i) != self._lptrs[i]:
                return False
        return True

    cdef inline int _show_owner(self) noexcept:
        cdef St* s = &self.st
        if s.show_i >= s.n:
            return s.dealer
        return (s.dealer + 1 + s.show_i) % s.n

    cdef list _fill_legal(self, object seat):
        """The legal list of ``seat`` (as ``Cribbage.legal_actions``); cached with its codes."""
        cdef St* s = &self.st
        cdef list out
        cdef int q, k, i, j, m, room, c, ovf
        cdef long lq
        cdef int* h
        cdef int* codes = self._lcodes
        cdef PyObject** ptrs = self._lptrs
        if type(seat) is int:
            lq = PyLong_AsLongAndOverflow(seat, &ovf)
            q = -1 if ovf or not -1000 < lq < 1000 else <int>lq
            out = None
            if 0 <= q < s.n:
                if s.phase == P_PLAY:
                    if q == s.turn:
                        room = 31 - s.count
                        h = s.hands[q]
                        m = s.hlen[q]
                        k = m
                        while k > 0 and VALUE[h[k - 1]] > room:  # sorted by rank: a prefix plays
                            k -= 1
                        out = PyList_New(k)
                        for i in range(k):
                            c = h[i]
                            codes[i] = c
                            item = _PLAY[c]
                            ptrs[i] = <PyObject*>item
                            Py_INCREF(item)
                            PyList_SET_ITEM(out, i, item)
                elif s.phase == P_DISCARD:
                    if (s.todisc >> q) & 1:
                        h = s.hands[q]
                        m = s.hlen[q]
                        if s.n == 2:  # the pairs in ``itertools.combinations`` order
                            out = PyList_New(m * (m - 1) // 2)
                            k = 0
                            for i in range(m):
                                for j in range(i + 1, m):
                                    c = 52 * h[i] + h[j]
                                    codes[k] = C_DISC2 + c
                                    item = _DISC2[c]
                                    ptrs[k] = <PyObject*>item
                                    Py_INCREF(item)
                                    PyList_SET_ITEM(out, k, item)
                                    k += 1
                        else:
                            out = PyList_New(m)
                            for i in range(m):
                                c = h[i]
                                codes[i] = C_DISC1 + c
                                item = _DISC1[c]
                                ptrs[i] = <PyObject*>item
                                Py_INCREF(item)
                                PyList_SET_ITEM(out, i, item)
                elif s.phase == P_SHOW:
                    if q == self._show_owner():
                        out = _CLAIMS46[:s.claim_max + 1]
                        for i in range(s.claim_max + 1):
                            codes[i] = C_CLAIM + i
                            ptrs[i] = <PyObject*>_CLAIMS46[i]
            if out is None:
                out = []
        elif seat == "CLOCK":
            if s.timed and s.phase != P_OVER and (s.phase != P_SHOW or s.manual):
                out = [_TIMEOUT]
                codes[0] = C_TIMEOUT
                ptrs[0] = <PyObject*>_TIMEOUT
            else:
                out = []
        else:
            return []
        self._lseat = seat
        self._legal = out
        self._lcount = len(out)
        return out

    cdef int _code_of(self, object action) except -2:
        """The code of ``action`` if it is in the legal list as built for the cached seat, else -1.

        By identity first (the list's own strings), then by equality; a list the caller has
        reordered or changed does not change which action is applied.
        """
        cdef PyObject* p = <PyObject*>action
        cdef int i, code
        cdef int n = self._lcount
        for i in range(n):
            if self._lptrs[i] == p:
                return self._lcodes[i]
        if isinstance(action, str):
            got = _CODES.get(action)
            if got is not None:
                code = got
                for i in range(n):
                    if self._lcodes[i] == code:
                        return code
        return -1

    def apply(self, seat, action):
        if not self.core_active:
            return self._degrade(seat, action)
        cdef int code
        if seat is not self._lseat:
            if type(seat) is not int and seat != "CLOCK":
                action = self._slow_verify(seat, action)  # raises the reference's InvalidAction
                return self._degrade(seat, action)
            self._fill_legal(seat)
        code = self._code_of(action)
        if code < 0:  # not listed: the reference's error, or its canonical spelling (then listed)
            action = self._slow_verify(seat, action)
            self._fill_legal(seat)  # the check may have read other seats' lists
            code = self._code_of(action)
            if code < 0:
                return self._degrade(seat, action)
        if code == C_TIMEOUT:
            return self._degrade(seat, action)
        self._lseat = _NO_SEAT
        if code < C_DISC1:
            self._play(seat, code)
        elif code < C_DISC2:
            self._discard(seat, code - C_DISC1, -1)
        elif code < C_CLAIM:
            code -= C_DISC2
            self._discard(seat, code // 52, code % 52)
        else:
            self._claim(code - C_CLAIM)
        actions = self.actions
        actions.append([seat, action])
        self._publish()
        return new_events(self, len(actions) - 1)

    # ------------------------------------------------------------------ the state machine

    cdef void _discard(self, int seat, int a, int b) except *:
        cdef St* s = &self.st
        cdef int* h = s.hands[seat]
        cdef int m = s.hlen[seat]
        cdef int i, k = 0, q
        for i in range(m):
            if h[i] != a and h[i] != b:
                h[k] = h[i]
                k += 1
        s.hlen[seat] = k
        s.crib[s.clen] = a
        s.clen += 1
        if b >= 0:
            s.crib[s.clen] = b
            s.clen += 1
        s.todisc &= ~(1 << seat)
        if s.todisc:
            return
        # CRIB-START-1/2: the starter, then the play (CRIB-PEG-1)
        s.starter = s.next_starter
        s.cards_left = 0
        for q in range(s.n):
            s.klen[q] = s.hlen[q]
            for i in range(s.hlen[q]):
                s.kept[q][i] = s.hands[q][i]
            s.cards_left += s.hlen[q]
        if RANK[s.starter] == 11 and self._score(s.dealer, 2):  # his heels
            return
        s.phase = P_PLAY
        s.turn = (s.dealer + 1) % s.n

    cdef bint _score(self, int seat, int points) noexcept:
        """Add ``points`` to ``seat``'s side; True if the game ended (CRIB-END-1)."""
        cdef St* s = &self.st
        cdef int side = s.side_of[seat]
        s.side_scores[side] += points
        if s.side_scores[side] < s.target:
            return False
        s.phase = P_OVER
        s.win_side = side
        s.turn = -1
        s.todisc = 0
        return True

    cdef void _play(self, int seat, int card) except *:
        cdef St* s = &self.st
        cdef int n = s.n
        cdef int* h = s.hands[seat]
        cdef int m = s.hlen[seat]
        cdef int i, _seat, k = 0, q, nxt, room, points
        for i in range(m):
            if h[i] != card:
                h[k] = h[i]
                k += 1
        s.hlen[seat] = k
        s.count += VALUE[card]
        s.series[s.slen] = RANK[card]
        s.slen += 1
        s.cards_left -= 1
        points = peg_points(s)
        if s.cards_left == 0:  # CRIB-PEG-6: the last card
            if s.count != 31:
                points += 1
            if points and self._score(seat, points):
                return
            self._end_play()
            return
        nxt = -1
        if s.count != 31:
            room = 31 - s.count
            q = seat
            for _seat in range(n):  # the next seat that can play, this one last (CRIB-PEG-3)
                q = q + 1 if q + 1 < n else 0
                if s.hlen[q] and VALUE[s.hands[q][0]] <= room:
                    nxt = q
                    break
            if nxt < 0:
                points += 1  # CRIB-PEG-4: one for the go
        if points and self._score(seat, points):
            return
        if nxt < 0:  # CRIB-PEG-5: reset; the next series is led from the left of the last card
            s.count = 0
            s.slen = 0
            q = seat
            for _seat in range(n):
                q = q + 1 if q + 1 < n else 0
                if s.hlen[q]:
                    nxt = q
                    break
        s.turn = nxt

    cdef void _end_play(self) except *:
        """CRIB-SHOW-1/2: count in order from the dealer's left, the crib last."""
        cdef St* s = &self.st
        s.phase = P_SHOW
        s.turn = -1
        s.show_i = 0
        self._next_count()

    cdef void _next_count(self) except *:
        cdef St* s = &self.st
        cdef int owner, pts
        if s.manual:
            if s.show_i <= s.n:
                return  # wait for the owner's claim
        else:  # CRIB-COUNT-1: automatic
            while s.show_i <= s.n:
                if s.show_i == s.n:
                    pts = score_set(s.crib, s.clen, s.starter, s.crib_five)
                    owner = s.dealer
                else:
                    owner = (s.dealer + 1 + s.show_i) % s.n
                    pts = score_set(s.kept[owner], s.klen[owner], s.starter, False)
                s.show_i += 1
                if pts and self._score(owner, pts):
                    return
        s.dealer = (s.dealer + 1) % s.n  # CRIB-DEALER-2
        self._deal()

    cdef void _claim(self, int claim) except *:
        """CRIB-COUNT-3..8: the owner's claim of the set being counted; muggins."""
        cdef St* s = &self.st
        cdef int n = s.n
        cdef int owner = self._show_owner()
        cdef int side = s.side_of[owner]
        cdef int c, own, mug, mug_seat = -1, i, q
        if s.show_i == n:
            c = score_set(s.crib, s.clen, s.starter, s.crib_five)
        else:
            c = score_set(s.kept[owner], s.klen[owner], s.starter, False)
        own = claim if claim < c else c
        mug = claim - c if claim > c else c - claim
        if mug:
            for i in range(1, n):
                q = (owner + i) % n
                if s.side_of[q] != side:
                    mug_seat = q
                    break
            if s.side_scores[side] + own >= s.target:  # CRIB-COUNT-7: the owner wins first
                mug = 0
        s.show_i += 1
        if own and self._score(owner, own):
            return
        if mug and self._score(mug_seat, mug):
            return
        self._next_count()

    # ------------------------------------------------------------------ copies

    def _core_copy(self, other):
        cdef CribbageCore o = <CribbageCore?>other
        o.st = self.st
        o.core_active = self.core_active
        o.actions = [list(a) for a in self.actions]
        o._lseat = _NO_SEAT
        o._legal = None
        o._to_act_at = self._to_act_at
        o.to_act = self.to_act
        o.is_over = self.is_over
