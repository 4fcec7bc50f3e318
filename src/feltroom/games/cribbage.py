"""Cribbage for 2–6 players (rules: ``shared/rules/cribbage.md``, notation: notation.md "Cribbage").

The module holds the rules engine (``Cribbage``), and the scorer every part of the room
shares: ``score_hand`` for a hand or crib with the starter, ``peg_points`` for one card of
the play, and ``distribution`` for the exhaustive table of hand scores.

Where notation.md leaves room, this module writes:

- each breakdown entry (``count`` event, the view's ``show``/``counted``) as ``[kind, cards,
  points]`` with ``cards`` the combination's cards in card order, e.g. ``["fifteen", ["5S", "JH"], 2]``;
- in the view, ``series`` and ``played`` as ``[seat, card]`` lists plus ``series_start`` (the
  index in ``played`` where the current series begins); ``played`` and ``series`` are empty
  in the show (the cards were taken back); ``sides`` as the list of each side's seats; extra
  keys ``stock_size``, ``turn`` and ``last_hand`` (the previous hand's dealer, starter and
  counts: history, for the hotkeys once the game is over);
- a ``go`` event once per series for each seat passed over that still holds cards (a seat with
  no cards is skipped silently, and the player of the card that ends a series gets the point,
  not a ``go``).

>>> score_hand(["5H", "5D", "5C", "JS"], "5S").total
29
>>> score_hand("4C 5S 6D JH", "4H").parts
[['fifteen', 6], ['pair', 2], ['run', 6], ['nobs', 1]]
>>> game = Cribbage(2, seed=1, options={"first_dealer": 0, "counting": "automatic"})
>>> game.phase, game.to_act, len(game.legal_actions(1))
('discard', (0, 1), 15)
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Sequence
from operator import itemgetter
from typing import Any, ClassVar, NamedTuple

from ..cards import NAMES, parse_card
from ..errors import IllegalAction, InvalidAction
from ..fastgame import attach_core
from ..game import CLOCK, Event, Game, Seat
from ..options import Option
from ..registry import register

__all__ = [
    "Cribbage", "HandScore", "distribution", "exhaustive_distribution", "peg_points", "score_hand",
    "score_ids", "score_total", "warm_tables",
]

# ---------------------------------------------------------------------------- cards

#: Rank number 1–13 (A … K) of each card id.
RANK: tuple[int, ...] = tuple(c // 4 + 1 for c in range(52))
#: Count value (CRIB-SETUP-2) of each card id.
VALUE: tuple[int, ...] = tuple(min(c // 4 + 1, 10) for c in range(52))
#: Count value of each rank number (index 0 unused).
RANK_VALUE: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
#: Each card's contribution to a packed rank-multiset key (3 bits per rank).
RANK_BIT: tuple[int, ...] = tuple(1 << (3 * (c // 4)) for c in range(52))
JACK = 11

PLAY_ACTION: tuple[str, ...] = tuple("play " + n for n in NAMES)
DISCARD1_ACTION: tuple[str, ...] = tuple("discard " + n for n in NAMES)
DISCARD2_ACTION: dict[tuple[int, int], str] = {
    (a, b): f"discard {NAMES[a]} {NAMES[b]}" for a in range(52) for b in range(a + 1, 52)
}

# ---------------------------------------------------------------------------- the scorer

Template = tuple[tuple[str, tuple[int, ...], int], ...]


def _rank_template(ranks: tuple[int, ...]) -> tuple[int, Template]:
    """Fifteens, pairs and runs of a counting set given by its sorted ranks.

    The template names each combination by the positions of its cards in the sorted set
    (cards sorted by id are sorted by rank), so it serves every set with these ranks.
    """
    n = len(ranks)
    combos: list[tuple[str, tuple[int, ...], int]] = []
    values = [RANK_VALUE[r] for r in ranks]
    for size in range(2, n + 1):  # CRIB-SCORE-2
        for idx in itertools.combinations(range(n), size):
            if sum(values[i] for i in idx) == 15:
                combos.append(("fifteen", idx, 2))
    for i, j in itertools.combinations(range(n), 2):  # CRIB-SCORE-3
        if ranks[i] == ranks[j]:
            combos.append(("pair", (i, j), 2))
    by_rank: dict[int, list[int]] = {}
    for i, r in enumerate(ranks):
        by_rank.setdefault(r, []).append(i)
    r = 1
    while r <= 13:  # CRIB-SCORE-4: maximal blocks of consecutive ranks
        if r in by_rank:
            end = r
            while end + 1 in by_rank:
                end += 1
            if end - r + 1 >= 3:
                block = [by_rank[x] for x in range(r, end + 1)]
                for idx in itertools.product(*block):
                    combos.append(("run", tuple(idx), len(idx)))
            r = end + 1
        else:
            r += 1
    return sum(p for _, _, p in combos), tuple(combos)


#: packed rank multiset -> (points of fifteens, pairs and runs, template)
_RANK_TABLE: dict[int, tuple[int, Template]] = {}


def _rank_entry(cards: Sequence[int]) -> tuple[int, Template]:
    key = 0
    for c in cards:
        key += RANK_BIT[c]
    entry = _RANK_TABLE.get(key)
    if entry is None:
        entry = _RANK_TABLE[key] = _rank_template(tuple(sorted(RANK[c] for c in cards)))
    return entry


def _flush_nobs(hand: Sequence[int], starter: int, crib_five: bool) -> tuple[int, int]:
    """Flush points (CRIB-SCORE-5/6) and nobs (CRIB-SCORE-1) of ``hand`` with ``starter``."""
    suit = hand[0] & 3
    flush = 0
    if all(c & 3 == suit for c in hand):
        same = starter & 3 == suit
        if same:
            flush = len(hand) + 1
        elif not crib_five:
            flush = len(hand)
    nobs_card = 40 + (starter & 3)  # the jack of the starter's suit; never the starter itself
    return flush, 1 if nobs_card in hand and starter != nobs_card else 0


def score_total(hand: Sequence[int], starter: int, crib_five: bool = False) -> int:
    """The score of ``hand`` (card ids) with ``starter``: the fast path (no breakdown).

    >>> from feltroom.cards import parse_cards
    >>> score_total(parse_cards("5H 5D 5C JS"), parse_card("5S"))
    29
    """
    key = RANK_BIT[starter]
    for c in hand:
        key += RANK_BIT[c]
    entry = _RANK_TABLE.get(key)
    if entry is None:
        entry = _rank_entry([*hand, starter])
    flush, nobs = _flush_nobs(hand, starter, crib_five)
    return entry[0] + flush + nobs


class HandScore(NamedTuple):
    """A counting set's score: ``total`` and ``breakdown``, a list of ``[kind, cards, points]``.

    ``kind`` is ``fifteen``, ``pair``, ``run``, ``flush`` or ``nobs``; ``cards`` are canonical
    names in card order. One entry per combination (CRIB-SCORE-1..7).
    """

    total: int
    breakdown: list[list[Any]]

    @property
    def parts(self) -> list[list[Any]]:
        """Points per kind, in the order fifteen, pair, run, flush, nobs (kinds that score)."""
        sums: dict[str, int] = {}
        for kind, _, pts in self.breakdown:
            sums[kind] = sums.get(kind, 0) + pts
        return [[k, sums[k]] for k in ("fifteen", "pair", "run", "flush", "nobs") if k in sums]


def score_ids(hand: Sequence[int], starter: int, crib_five: bool = False) -> HandScore:
    """``score_hand`` on card ids."""
    cards = sorted([*hand, starter])
    points, template = _rank_entry(cards)
    names = [NAMES[c] for c in cards]
    breakdown: list[list[Any]] = [[kind, [names[i] for i in idx], pts] for kind, idx, pts in template]
    flush, nobs = _flush_nobs(hand, starter, crib_five)
    if flush:
        suited = sorted(hand) if flush == len(hand) else cards
        breakdown.append(["flush", [NAMES[c] for c in suited], flush])
    if nobs:
        breakdown.append(["nobs", [NAMES[c] for c in sorted((40 + (starter & 3), starter))], 1])
    return HandScore(points + flush + nobs, breakdown)


#: rank key -> (points, [(kind, itemgetter of the combination's positions, points)], parts)
_COUNT_TABLE: dict[int, tuple[int, list[Any], list[list[Any]]]] = {}


def _count_entry(key: int, cards: Sequence[int]) -> tuple[int, list[Any], list[list[Any]]]:
    points, template = _rank_entry(cards)
    getters: list[Any] = [(kind, itemgetter(*idx), pts) for kind, idx, pts in template]
    sums = {"fifteen": 0, "pair": 0, "run": 0}
    for kind, _, pts in template:
        sums[kind] += pts
    entry = _COUNT_TABLE[key] = (points, getters, [[k, v] for k, v in sums.items() if v])
    return entry


def _count_ids(hand: Sequence[int], starter: int, crib_five: bool) -> tuple[int, list[list[Any]], list[list[Any]]]:
    """Total, breakdown (each combination's cards as names, for events and views), and parts."""
    cards = [*hand, starter]
    cards.sort()
    key = 0
    for c in cards:
        key += RANK_BIT[c]
    entry = _COUNT_TABLE.get(key)
    if entry is None:
        entry = _count_entry(key, cards)
    points, getters, base_parts = entry
    names = [NAMES[c] for c in cards]
    breakdown: list[list[Any]] = [[kind, list(get(names)), pts] for kind, get, pts in getters]
    suit = hand[0] & 3
    flush = 0
    for c in hand:
        if c & 3 != suit:
            break
    else:  # CRIB-SCORE-5/6
        if starter & 3 == suit:
            flush = len(hand) + 1
        elif not crib_five:
            flush = len(hand)
    jack = 40 + (starter & 3)  # CRIB-SCORE-1: never the starter itself
    nobs = jack in hand
    if not flush and not nobs:
        return points, breakdown, base_parts  # shared parts: never mutated
    parts = list(base_parts)
    if flush:
        suited = sorted(hand) if flush == len(hand) else cards
        breakdown.append(["flush", [NAMES[c] for c in suited], flush])
        parts.append(["flush", flush])
    if nobs:
        breakdown.append(["nobs", [NAMES[c] for c in sorted((jack, starter))], 1])
        parts.append(["nobs", 1])
    return points + flush + nobs, breakdown, parts


def score_hand(cards: Iterable[str | int] | str, starter: str | int, *, crib: bool = False) -> HandScore:
    """Score a hand or crib (4 or 5 cards) with the starter (CRIB-SCORE-1..7).

    ``cards`` are notation strings (a list, or one space-separated string; ints are card
    ids). ``crib=True`` applies the five-card crib-flush rule (``crib_flush: five``,
    CRIB-SCORE-6); a crib under the default ``hand`` rule is scored with ``crib=False``.

    >>> s = score_hand(["3S", "3H", "4D", "5C"], "9S")
    >>> s.total, s.parts
    (12, [['fifteen', 4], ['pair', 2], ['run', 6]])
    >>> score_hand("2H 6H 9H KH", "4C", crib=True).total, score_hand("2H 6H 9H KH", "4C").total
    (4, 8)
    """
    items = cards.split() if isinstance(cards, str) else list(cards)
    hand = [c if isinstance(c, int) else parse_card(c) for c in items]
    start = starter if isinstance(starter, int) else parse_card(starter)
    if len(set([*hand, start])) != len(hand) + 1:
        raise ValueError("a counting set cannot hold the same card twice")
    if not 1 <= len(hand) <= 5:
        raise ValueError(f"a hand or crib has 4 or 5 cards, not {len(hand)}")
    return score_ids(hand, start, crib)


def distribution(progress: Callable[[int, int], None] | None = None) -> dict[int, int]:
    """How many of the 12,994,800 (4-card hand, starter) pairs score each total.

    Exact: it enumerates the 1,820 rank multisets of a hand and the 13 starter ranks with
    their multiplicities, and counts the suit patterns for flush and nobs combinatorially.

    >>> d = distribution()
    >>> sum(d.values()), d[29], d[0], d.get(19, 0)
    (12994800, 4, 1009008, 0)
    """
    from math import comb

    out: dict[int, int] = {}
    multisets = list(itertools.combinations_with_replacement(range(1, 14), 4))
    for done, hand in enumerate(multisets):
        counts = [0] * 14
        for r in hand:
            counts[r] += 1
        if max(counts) > 4:
            continue
        ways = 1
        for r in range(1, 14):
            ways *= comb(4, counts[r])
        distinct = max(counts) == 1
        jacks = counts[JACK]
        for s in range(1, 14):
            if counts[s] == 4:
                continue
            ranks = tuple(sorted((*hand, s)))
            base = _rank_cached(ranks)
            total = ways * (4 - counts[s])
            f4 = 12 if distinct else 0  # 4 suits for the hand, 3 starters of another suit
            f5 = 4 if distinct and counts[s] == 0 else 0
            f5_nobs = f5 if jacks and s != JACK else 0
            nobs = total * jacks // 4 if s != JACK else 0  # the starter's suit is one of the jacks'
            plain_nobs = nobs - f5_nobs
            plain = total - f4 - f5 - plain_nobs
            for pts, n in ((base, plain), (base + 1, plain_nobs), (base + 4, f4),
                           (base + 5, f5 - f5_nobs), (base + 6, f5_nobs)):
                if n:
                    out[pts] = out.get(pts, 0) + n
        if progress is not None:
            progress(done + 1, len(multisets))
    return dict(sorted(out.items()))


def exhaustive_distribution(progress: Callable[[int, int], None] | None = None) -> dict[int, int]:
    """Score each of the 270,725 hands with each of its 48 starters (12,994,800 pairs).

    Every hand is visited once. Its starters are scored by rank (one table look-up per
    starter rank) and, for flush and nobs, by suit. Hands that score alike with every
    starter are tallied together first: a hand with no jack and no flush by its rank
    pattern, a hand with jacks by its rank pattern and which of its cards share a jack's
    suit (those cannot be starters that give nobs).
    """
    warm_tables()
    table = {k: v[0] for k, v in _RANK_TABLE.items()}
    out = [0] * 30
    bits = RANK_BIT
    rank_bits = [(r, 1 << (3 * r), 3 * r) for r in range(13)]
    plain: dict[int, int] = {}
    jacks: dict[tuple[int, int, tuple[int, ...]], int] = {}
    done = 0
    for a in range(49):
        ka = bits[a]
        sa = a & 3
        for b in range(a + 1, 50):
            kb = ka + bits[b]
            fb = b & 3 == sa
            for c in range(b + 1, 51):
                kc = kb + bits[c]
                fc = fb and c & 3 == sa
                for d in range(c + 1, 52):
                    key = kc + bits[d]
                    if fc and d & 3 == sa:  # a flush: score each starter by suit
                        hand = (a, b, c, d)
                        jack_suits = [x & 3 for x in hand if 40 <= x < 44]
                        for r, bit, shift in rank_bits:
                            if (key >> shift) & 7 == 4:
                                continue
                            pts = table[key + bit]
                            for st in range(4 * r, 4 * r + 4):
                                if st not in hand:
                                    p = pts + (5 if st & 3 == sa else 4)
                                    out[p + (1 if r != 10 and (st & 3) in jack_suits else 0)] += 1
                    elif d < 40 or not (40 <= d < 44 or 40 <= c < 44 or 40 <= b < 44 or 40 <= a < 44):
                        plain[key] = plain.get(key, 0) + 1  # no jack
                    else:
                        hand = (a, b, c, d)
                        js = [x & 3 for x in hand if 40 <= x < 44]
                        blocked = tuple(x >> 2 for x in hand if x & 3 in js and not 40 <= x < 44)
                        sig = (key, len(js), blocked)
                        jacks[sig] = jacks.get(sig, 0) + 1
                done += 51 - c
            if progress is not None:
                progress(done, 270725)
    for key, m in plain.items():
        for _, bit, shift in rank_bits:
            n = 4 - ((key >> shift) & 7)
            if n:
                out[table[key + bit]] += m * n
    for (key, nj, blocked), m in jacks.items():
        for r, bit, shift in rank_bits:
            held = (key >> shift) & 7
            if held == 4:
                continue
            pts = table[key + bit]
            nobs = 0 if r == 10 else nj - blocked.count(r)  # starters of a jack's suit, not in the hand
            out[pts] += m * (4 - held - nobs)
            out[pts + 1] += m * nobs
    return {s: n for s, n in enumerate(out) if n}


def warm_tables() -> None:
    """Fill the scoring tables for every 5-card rank pattern at once (about 0.3 s) instead of lazily."""
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        if any(ranks.count(r) > 4 for r in set(ranks)):
            continue
        cards = [4 * r + i for i, r in _suited(ranks)]
        key = sum(RANK_BIT[c] for c in cards)
        if key not in _COUNT_TABLE:
            _count_entry(key, cards)


def _suited(ranks: Sequence[int]) -> list[tuple[int, int]]:
    """Give each rank of a multiset a distinct suit index (for building card ids)."""
    seen: dict[int, int] = {}
    out = []
    for r in ranks:
        out.append((seen.get(r, 0), r))
        seen[r] = seen.get(r, 0) + 1
    return out


_BY_RANKS: dict[tuple[int, ...], int] = {}


def _rank_cached(ranks: tuple[int, ...]) -> int:
    got = _BY_RANKS.get(ranks)
    if got is None:
        got = _BY_RANKS[ranks] = _rank_template(ranks)[0]
    return got


# ---------------------------------------------------------------------------- pegging

#: packed ranks of a series (4 bits per card, oldest first) -> see ``_peg_memo``
_PEG_MEMO: dict[int, Any] = {}
_PEG_MEMO_LIMIT = 500_000


def _peg_compute(ranks: Sequence[int]) -> tuple[int, tuple[tuple[str, int], ...]]:
    count = sum(RANK_VALUE[r] for r in ranks)
    parts: list[tuple[str, int]] = []
    if count == 15:  # CRIB-PEG-7
        parts.append(("fifteen", 2))
    elif count == 31:  # CRIB-PEG-4
        parts.append(("thirty_one", 2))
    last = ranks[-1]
    same = 0
    for r in reversed(ranks[:-1]):  # CRIB-PEG-8
        if r != last:
            break
        same += 1
    if same:
        parts.append(("pair", (0, 2, 6, 12)[min(same, 3)]))
    for k in range(len(ranks), 2, -1):  # CRIB-PEG-9: the longest run ending now
        window = ranks[-k:]
        if len(set(window)) == k and max(window) - min(window) == k - 1:
            parts.append(("run", k))
            break
    return sum(p for _, p in parts), tuple(parts)


def peg_points(series: Sequence[str | int]) -> tuple[int, list[list[Any]]]:
    """Points for the last card of a series of the play (fifteen, 31, pairs, runs).

    Go and last card are not included: they depend on the other players' hands.

    >>> peg_points(["5C", "4D", "6H"])
    (5, [['fifteen', 2], ['run', 3]])
    >>> peg_points(["5C", "4D", "6H", "6S"])
    (2, [['pair', 2]])
    """
    ids = [c if isinstance(c, int) else parse_card(c) for c in series]
    pts, parts = _peg_compute([RANK[c] for c in ids])
    return pts, [[k, p] for k, p in parts]


# ---------------------------------------------------------------------------- the cut

def cut_for_dealer(players: int, draw: Callable[[int], list[int]]) -> tuple[list[list[list[Any]]], int]:
    """The cut for the first dealer (CRIB-DEALER-1): ``draw(k)`` gives k cards of a fresh shuffle.

    Lowest rank deals (ace low, suits do not matter); tied players draw again, in seat order.

    >>> script = iter([[parse_card(c) for c in "7H 3C 3D".split()], [parse_card(c) for c in "9S AH".split()]])
    >>> cut_for_dealer(3, lambda k: next(script))
    ([[[0, '7H'], [1, '3C'], [2, '3D']], [[1, '9S'], [2, 'AH']]], 2)
    """
    contenders = list(range(players))
    rounds: list[list[list[Any]]] = []
    while True:
        cards = draw(len(contenders))
        rounds.append([[s, NAMES[c]] for s, c in zip(contenders, cards, strict=True)])
        low = min(RANK[c] for c in cards)
        contenders = [s for s, c in zip(contenders, cards, strict=True) if RANK[c] == low]
        if len(contenders) == 1:
            return rounds, contenders[0]


# ---------------------------------------------------------------------------- the engine

TEAM_SIDES = {"none": 0, "2x2": 2, "2x3": 2, "3x2": 3}


def teams_for(players: int) -> tuple[str, ...]:
    """The ``teams`` values ``players`` may choose (CRIB-OPT-3, CRIB-AMB-1).

    >>> teams_for(3), teams_for(4), teams_for(6)
    (('none',), ('none', '2x2'), ('none', '2x3', '3x2'))
    """
    return {4: ("none", "2x2"), 6: ("none", "2x3", "3x2")}.get(players, ("none",))
_CLAIMS: dict[int, list[str]] = {m: [f"claim {i}" for i in range(m + 1)] for m in (29, 46)}
_TIMEOUT = ["timeout"]
_NONE: list[str] = []


def _deal_pattern(players: int, dealer: int) -> tuple[int, ...]:
    """The seat receiving each dealt card, in dealing order (CRIB-DEAL-1..3)."""
    per = 6 if players in (2, 6) else 5
    order = [(dealer + 1 + i) % players for i in range(players)]  # dealer last
    seats: list[int] = []
    for rnd in range(per):
        for s in order:
            if s == dealer and players >= 5 and rnd == per - 1:
                continue
            seats.append(s)
    return tuple(seats)


def _deal_plan(players: int, dealer: int) -> tuple[int, list[Any], tuple[int, ...], tuple[int, ...]]:
    """Cards needed (hands, 3-player crib card, starter), a getter per seat for its dealt cards,
    the seats that discard in turn order from the dealer's left, and ``to_act`` for the discard."""
    pattern = _deal_pattern(players, dealer)
    getters = []
    for seat in range(players):
        idx = [i for i, s in enumerate(pattern) if s == seat]
        getters.append(itemgetter(*idx))
    first = (dealer + 1) % players
    to_discard = tuple(s for s in ((first + i) % players for i in range(players))
                       if not (players >= 5 and s == dealer))
    need = len(pattern) + (2 if players == 3 else 1)
    return need, getters, to_discard, tuple(sorted(to_discard))


_PLANS: dict[tuple[int, int], tuple[int, list[Any], tuple[int, ...], tuple[int, ...]]] = {}
#: (players, dealer) -> the show order (CRIB-SHOW-1/2): (owner, is_crib) from the dealer's left, the crib last
_SHOW_ORDERS: dict[tuple[int, int], tuple[tuple[int, bool], ...]] = {}


@register
class Cribbage(Game):
    """Cribbage (CRIB-*): 2–6 players, teams, automatic or manual counting with muggins.

    ``to_act`` and ``is_over`` are plain attributes here, kept up to date by every state
    change (they are read after every action, so they cost nothing to read).
    """

    name: ClassVar[str] = "cribbage"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    default_players: ClassVar[int] = 2
    lobby_rank: ClassVar[int] = 3
    title: ClassVar[str] = "Cribbage"
    blurb: ClassVar[str] = "Pegging, fifteens and runs on the board."
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option("target", 121, choices=(61, 91, 121, 241), label="Target"),
        Option("counting", "manual", choices=("manual", "automatic"), label="Counting"),
        Option("teams", "none", choices=("none", "2x2", "2x3", "3x2"), label="Teams", values_at=teams_for),
        Option("crib_flush", "hand", choices=("hand", "five"), label="Crib flush"),
        Option("turn_time", None, choices=(None, 30, 45, 60), label="Turn timer", unit="s"),
        Option("first_dealer", None, seat=True),
    )

    to_act: tuple[int, ...] = ()
    is_over: bool = False

    # state (set in _setup)
    sides_n: int
    side_of: tuple[int, ...]
    side_scores: list[int]
    target: int
    manual: bool
    crib_five: bool
    turn_time: int | None
    dealer: int
    hand_no: int
    phase: str
    hands: list[list[int]]
    kept: list[list[int]]
    discards: list[list[int]]
    crib: list[int]
    starter: int | None
    next_starter: int
    to_discard: list[int]
    count: int
    series: list[list[Any]]
    series_key: int
    played: list[list[Any]]
    go: list[int]
    turn: int
    cards_left: int
    show_order: list[tuple[int, bool]]
    show_i: int
    #: the counting set being counted or last counted: (owner, crib, cards, claim, score, breakdown)
    show: tuple[int, bool, list[str], int | None, int | None, list[list[Any]] | None] | None
    counted: list[tuple[int, bool, list[str], int | None, int | None, list[list[Any]] | None]]
    #: the hand just over (hand number, dealer, starter, counted) for ``last_hand``
    _last: tuple[int, int, int, list[Any]] | None
    crib_shown: bool
    win_side: int | None
    cut_cards: list[int]
    #: the seat whose legal list is cached for the current state (``_NO_SEAT``: none) and that list
    _legal_seat: object
    _legal: list[str]
    claims: list[str]

    def check_options(self) -> None:
        teams = self.options["teams"]
        allowed = teams_for(self.players)
        if teams not in allowed:  # CRIB-OPT-3, CRIB-AMB-1
            raise ValueError(
                f"option 'teams' cannot be \"{teams}\" with {self.players} players: allowed values are "
                + ", ".join(f'"{t}"' for t in allowed)
            )

    def pack(self) -> tuple[int, ...]:
        return _PACK

    # ------------------------------------------------------------------ setup and deal

    def _setup(self) -> None:
        n = self.players
        o = self.options
        k = TEAM_SIDES[o["teams"]] or n
        self.sides_n = k
        self.side_of = tuple(s % k for s in range(n))
        self.side_scores = [0] * k
        self.target = o["target"]
        self.manual = o["counting"] == "manual"
        self.crib_five = o["crib_flush"] == "five"
        self.turn_time = o["turn_time"]
        self.claims = _CLAIMS[46 if n == 6 else 29]
        self.win_side = None
        self.cut_cards = []
        self._legal_seat = _NO_SEAT
        dealer = o["first_dealer"]
        if dealer is None:
            rounds, dealer = cut_for_dealer(n, self._cut_draw)
            self.log.append({"type": "cut", "to": "all", "draws": rounds, "dealer": dealer})
        self.dealer = dealer
        self.hand_no = 0
        self._deal()

    def _cut_draw(self, k: int) -> list[int]:
        """``k`` cut cards from a freshly shuffled pack (CRIB-DEALER-1: each re-draw reshuffles)."""
        cards = self.rng.sample(_PACK, k)
        self.cut_cards.extend(cards)
        return cards

    def _draw(self, k: int) -> list[int]:
        """The top ``k`` cards of a uniformly shuffled pack, from one random number."""
        bound, bits, sizes = _DRAWS[k]
        getrandbits = self.rng.getrandbits
        r = getrandbits(bits)
        while r >= bound:
            r = getrandbits(bits)
        deck = list(_PACK)
        out: list[int] = []
        append = out.append
        for size in sizes:  # 52, 51, …: the cards not yet drawn
            r, j = divmod(r, size)
            append(deck[j])
            deck[j] = deck[size - 1]
        return out

    def _deal(self) -> None:
        """Shuffle, deal the hands (and the 3-player crib card), open the discard phase."""
        n = self.players
        dealer = self.dealer
        deal_index = self.hand_no
        if deal_index:  # the hand just over, as history (CRIB-KEY-1 once the game is over)
            assert self.starter is not None
            self._last = (deal_index, (dealer - 1) % n, self.starter, self.counted)  # built when read
        else:
            self._last = None
        self.hand_no += 1
        plan = _PLANS.get((n, dealer))
        if plan is None:
            plan = _PLANS[(n, dealer)] = _deal_plan(n, dealer)
        need, getters, to_discard, to_act = plan
        order = self.deal_order(deal_index)[:need] if deal_index < len(self._stacks) else self._draw(need)
        hands = [sorted(get(order)) for get in getters]
        self.hands = hands
        self.kept = [[] for _ in range(n)]
        self.discards = [[] for _ in range(n)]
        self.crib = [order[15]] if n == 3 else []  # CRIB-DEAL-4: the card after the 15 dealt
        self.next_starter = order[-1]  # CRIB-START-1: the top card of the stock after the deal
        self.starter = None
        self.crib_shown = False
        self.played = []
        self.series = []
        self.series_key = 0
        self.go = []
        self.count = 0
        self.turn = -1
        self.show = None
        self.counted = []
        self.show_order = []
        self.show_i = 0
        self.to_discard = list(to_discard)
        self.to_act = to_act
        self.phase = "discard"
        log = self.log
        log.append({"type": "hand_start", "to": "all", "hand": self.hand_no, "dealer": dealer,
                    "crib_side": self.side_of[dealer], "sizes": list(map(len, hands))})
        for s in range(n):
            log.append({"type": "reveal", "to": [s], "seat": s, "cards": [NAMES[c] for c in hands[s]],
                        "why": "deal"})
        if n == 3:
            log.append({"type": "crib_card", "to": "all"})
        if self.turn_time:
            log.append({"type": "timer", "to": "all", "action": "timeout", "seconds": self.turn_time})

    # ------------------------------------------------------------------ the contract

    def legal_actions(self, seat: Seat) -> list[str]:
        if seat is self._legal_seat:  # by identity: True == 1, but True is no seat
            return self._legal
        out = _NONE
        if type(seat) is int:  # True == 1 (and hashes alike), but True is no seat
            phase = self.phase
            if phase == "play":
                if seat == self.turn:
                    room = 31 - self.count
                    hand = self.hands[seat]
                    if VALUE[hand[-1]] <= room:
                        out = [PLAY_ACTION[c] for c in hand]
                    else:
                        k = len(hand) - 1
                        while VALUE[hand[k - 1]] > room:  # sorted by rank: the playable cards are a prefix
                            k -= 1
                        out = [PLAY_ACTION[c] for c in hand[:k]]
            elif phase == "discard":
                if seat in self.to_discard:
                    hand = self.hands[seat]
                    if self.players == 2:
                        a, b, c, d, e, f = hand  # sorted, so each pair is in card order
                        rows = _DISCARD2_ROWS
                        ra, rb, rc, rd, re = rows[a], rows[b], rows[c], rows[d], rows[e]
                        out = [ra[b], ra[c], ra[d], ra[e], ra[f], rb[c], rb[d], rb[e], rb[f],
                               rc[d], rc[e], rc[f], rd[e], rd[f], re[f]]
                    else:
                        out = [DISCARD1_ACTION[c] for c in hand]
            elif phase == "show" and self.to_act and seat == self.to_act[0]:
                out = self.claims
        elif seat == CLOCK:
            phase = self.phase
            if self.turn_time and phase != "over" and (phase != "show" or self.manual):
                out = _TIMEOUT
        else:
            return []
        self._legal_seat = seat
        self._legal = out
        return out

    def canonical(self, seat: Seat, action: str) -> str:
        tokens = action.split()
        if not tokens:
            raise InvalidAction("empty action: the actions are discard, play and claim")
        verb = tokens[0].lower()
        args = tokens[1:]
        if verb == "discard":
            if not 1 <= len(args) <= 2:
                raise InvalidAction("discard names 1 card (2 with two players), e.g. 'discard 5H JS'")
            return "discard " + " ".join(NAMES[c] for c in sorted(_parse_cards(args)))
        if verb == "play":
            if len(args) != 1:
                raise InvalidAction("play names one card, e.g. 'play 5H'")
            return PLAY_ACTION[_parse_cards(args)[0]]
        if verb == "claim":
            limit = 46 if self.players == 6 else 29
            if len(args) != 1 or not (args[0].isascii() and args[0].isdigit()) or int(args[0]) > limit:
                raise InvalidAction(f"a claim is one number 0–{limit}, e.g. 'claim 12' (CRIB-COUNT-2)")
            return f"claim {int(args[0])}"
        if verb == "timeout":
            if args:
                raise InvalidAction("timeout takes no arguments")
            return "timeout"
        if verb == "go":
            raise InvalidAction("there is no go action: the engine says go for you when no card fits (CRIB-PEG-3)")
        raise InvalidAction(f"unknown action {tokens[0]!r}: the actions are discard, play and claim")

    def illegal(self, seat: Seat, action: str) -> IllegalAction:
        verb = action.split()[0]
        phase = self.phase
        if verb == "discard":
            if phase == "discard" and self.players >= 5 and seat == self.dealer:
                return IllegalAction("CRIB-DEAL-3", "with 5 or 6 players the dealer puts nothing in the crib")
            if phase != "discard":
                return IllegalAction("CRIB-DEAL-5", "it is not the discard phase")
            if seat not in self.to_discard:
                return IllegalAction("CRIB-DEAL-5", "you have already discarded (or do not discard)")
            need = 2 if self.players == 2 else 1
            if len(action.split()) - 1 != need:
                return IllegalAction("CRIB-DEAL-5", f"discard exactly {need} card{'s' if need > 1 else ''}")
            return IllegalAction("CRIB-DEAL-5", "you can only discard cards from your own hand")
        if verb == "play":
            if phase != "play":
                return IllegalAction("CRIB-PEG-2", "cards are played only during the play")
            if seat != self.turn:
                return IllegalAction("CRIB-PEG-2", f"it is P{self.turn}'s turn to play")
            card = parse_card(action.split()[1])
            if type(seat) is not int or card not in self.hands[seat]:
                return IllegalAction("CRIB-PEG-2", f"you do not hold {NAMES[card]}")
            return IllegalAction(
                "CRIB-PEG-2", f"{NAMES[card]} would take the count to {self.count + VALUE[card]}, over 31")
        if verb == "claim":
            if not self.manual:
                return IllegalAction("CRIB-COUNT-1", "counting is automatic at this table: there are no claims")
            return IllegalAction("CRIB-COUNT-2", "only the owner of the set being counted may claim, during the show")
        return IllegalAction("CRIB-ONL-1", "no timed decision is due")

    def apply(self, seat: Seat, action: str) -> list[Event]:
        """As ``Game.apply``; the legal list is cached per state, so a listed action costs one scan."""
        if seat is self._legal_seat:  # by identity: True == 1, but True is no seat
            legal = self._legal
        else:
            if type(seat) is not int and seat != CLOCK:
                self.check_seat(seat)
            legal = self.legal_actions(seat)
        if action not in legal:
            action = self._verify(seat, action, legal)
        log = self.log
        start = len(log)
        self._legal_seat = _NO_SEAT
        if type(seat) is int:
            card = _CARD_OF_PLAY.get(action)
            if card is not None:  # "play X"
                self._play(seat, card)
            elif action[0] == "d":  # "discard …"
                self._discard(seat, _DISCARD_CARDS[action])
            else:  # "claim N"
                self._resolve(int(action[6:]), seat)
        else:  # the clock
            self._timeout()
        self.actions.append([seat, action])
        return log[start:]

    def _apply(self, seat: Seat, action: str) -> None:
        """The base class hook (``apply`` above inlines the same dispatch)."""
        self._legal_seat = _NO_SEAT
        if seat == CLOCK:
            self._timeout()
        elif type(seat) is int:
            c = action[0]
            if c == "p":
                self._play(seat, _CARD_OF_PLAY[action])
            elif c == "d":
                self._discard(seat, _DISCARD_CARDS[action])
            else:
                self._resolve(int(action[6:]), seat)

    # ------------------------------------------------------------------ discard and starter

    def _discard(self, seat: int, cards: tuple[int, ...]) -> None:
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
        self.crib.extend(cards)
        self.discards[seat] = list(cards)
        self.to_discard.remove(seat)
        self.log.append({"type": "discard", "to": "all", "seat": seat, "n": len(cards)})
        left = self.to_discard
        if left:
            self.to_act = _ALONE[left[0]] if len(left) == 1 else tuple(sorted(left))
        else:
            self._turn_starter()

    def _turn_starter(self) -> None:
        """CRIB-START-1/2, then the play begins (CRIB-PEG-1)."""
        starter = self.next_starter
        self.starter = starter
        self.kept = [list(h) for h in self.hands]
        self.cards_left = sum(map(len, self.hands))
        self.log.append({"type": "starter", "to": "all", "card": NAMES[starter]})
        if RANK[starter] == JACK and self._score(self.dealer, 2, "heels", _HEELS):
            return
        self.phase = "play"
        turn = self.turn = (self.dealer + 1) % self.players
        self.to_act = (turn,)
        if self.turn_time:
            self.log.append({"type": "timer", "to": "all", "action": "timeout", "seconds": self.turn_time,
                             "seat": turn})

    # ------------------------------------------------------------------ the play

    def _play(self, seat: int, card: int) -> None:
        hands = self.hands
        hands[seat].remove(card)
        count = self.count = self.count + VALUE[card]
        name = NAMES[card]
        pair = [seat, name]
        self.series.append(pair)
        self.played.append(pair)
        key = self.series_key = (self.series_key << 4) | RANK[card]
        left = self.cards_left = self.cards_left - 1
        log = self.log
        log.append({"type": "play", "to": "all", "seat": seat, "card": name, "count": count})
        memo = _PEG_MEMO.get(key)
        if memo is None:
            memo = _peg_memo(key)
        n = self.players
        if not left:  # CRIB-PEG-6: the last card
            if count != 31:
                points, parts = memo[3]
            else:
                points, parts = memo[0], memo[1]
            if points and self._score(seat, points, "play", parts):
                return
            self._end_play()
            return
        nxt = -1
        if count != 31:
            room = 31 - count
            go = self.go
            if n == 2:  # the loop below, unrolled: the other seat, then this one
                q = 1 - seat
                h = hands[q]
                if h:
                    if VALUE[h[0]] <= room:
                        nxt = q
                    elif q not in go:  # CRIB-PEG-3: the engine says go
                        go.append(q)
                        log.append({"type": "go", "to": "all", "seat": q})
                if nxt < 0:
                    h = hands[seat]
                    if h and VALUE[h[0]] <= room:
                        nxt = seat
            else:
                q = seat
                for _ in range(n):
                    q = q + 1 if q + 1 < n else 0
                    h = hands[q]
                    if h:
                        if VALUE[h[0]] <= room:
                            nxt = q
                            break
                        if q != seat and q not in go:  # CRIB-PEG-3: the engine says go
                            go.append(q)
                            log.append({"type": "go", "to": "all", "seat": q})
            if nxt < 0:
                points, parts = memo[2]  # CRIB-PEG-4: one for the go
            else:
                points, parts = memo[0], memo[1]
        else:
            points, parts = memo[0], memo[1]
        if points:  # ``_score``, inlined
            side = self.side_of[seat]
            total = self.side_scores[side] = self.side_scores[side] + points
            log.append({"type": "score", "to": "all", "seat": seat, "side": side, "points": points,
                        "reason": "play", "parts": parts})
            if total >= self.target:
                self._finish(side)
                return
        if nxt < 0:  # CRIB-PEG-5: reset; the next series is led from the left of the last card
            self.count = 0
            self.series = []
            self.series_key = 0
            self.go = []
            log.append({"type": "reset", "to": "all"})
            q = seat
            for _ in range(n):
                q = q + 1 if q + 1 < n else 0
                if hands[q]:
                    nxt = q
                    break
        self.turn = nxt
        self.to_act = _ALONE[nxt]
        if self.turn_time:
            log.append({"type": "timer", "to": "all", "action": "timeout", "seconds": self.turn_time, "seat": nxt})

    # ------------------------------------------------------------------ the show

    def _end_play(self) -> None:
        """CRIB-SHOW-1/2: take the cards back and count in order, the crib last."""
        self.phase = "show"
        self.turn = -1
        self.to_act = ()
        n = self.players
        d = self.dealer
        order = _SHOW_ORDERS.get((n, d))
        if order is None:
            order = _SHOW_ORDERS[(n, d)] = tuple([((d + i) % n, False) for i in range(1, n + 1)] + [(d, True)])
        self.show_order = list(order)
        self.show_i = 0
        self._next_count()

    def _auto_show(self) -> None:
        """The whole show in ``automatic`` mode (CRIB-COUNT-1): ``_next_count`` + ``_resolve``, fused."""
        starter = self.starter
        assert starter is not None
        log = self.log
        sname = NAMES[starter]
        side_of = self.side_of
        scores = self.side_scores
        target = self.target
        counted = self.counted
        for owner, is_crib in self.show_order:
            if is_crib:
                self.crib_shown = True  # public before the show event (CRIB-INFO-2)
                hand = self.crib
            else:
                hand = self.kept[owner]
            shown = [NAMES[c] for c in sorted(hand)]
            log.append({"type": "show", "to": "all", "owner": owner, "crib": is_crib, "cards": shown,
                        "starter": sname})
            points, breakdown, parts = _count_ids(hand, starter, is_crib and self.crib_five)
            done = (owner, is_crib, shown, None, points, breakdown)
            self.show = done
            counted.append(done)
            self.show_i += 1
            log.append({"type": "count", "to": "all", "owner": owner, "crib": is_crib, "score": points,
                        "breakdown": breakdown})
            if points:
                side = side_of[owner]
                total = scores[side] = scores[side] + points
                log.append({"type": "score", "to": "all", "seat": owner, "side": side, "points": points,
                            "reason": "crib" if is_crib else "hand", "parts": parts})
                if total >= target:
                    self._finish(side)
                    return
        self.dealer = (self.dealer + 1) % self.players  # CRIB-DEALER-2
        self._deal()

    def _next_count(self) -> None:
        if not self.manual:
            self._auto_show()
            return
        starter = self.starter
        assert starter is not None
        log = self.log
        order = self.show_order
        while self.show_i < len(order):
            owner, is_crib = order[self.show_i]
            if is_crib:
                self.crib_shown = True  # public before the show event (CRIB-INFO-2)
                cards = self.crib
            else:
                cards = self.kept[owner]
            names = [NAMES[c] for c in sorted(cards)]
            self.show = (owner, is_crib, names, None, None, None)
            log.append({"type": "show", "to": "all", "owner": owner, "crib": is_crib, "cards": names,
                        "starter": NAMES[starter]})
            if self.manual:
                self.to_act = (owner,)
                if self.turn_time:
                    log.append({"type": "timer", "to": "all", "action": "timeout",
                                "seconds": self.turn_time, "seat": owner})
                return
            if self._resolve(None, owner):
                return
        self.dealer = (self.dealer + 1) % self.players  # CRIB-DEALER-2
        self._deal()

    def _resolve(self, claim: int | None, by: Seat) -> bool:
        """Score the pending count (CRIB-COUNT-1/3..8); True if the game ended."""
        show = self.show
        assert show is not None and self.starter is not None
        owner, is_crib = self.show_order[self.show_i]
        cards = self.crib if is_crib else self.kept[owner]
        c, breakdown, parts = _count_ids(cards, self.starter, is_crib and self.crib_five)
        side = self.side_of[owner]
        own = c
        mug = 0
        mug_seat = -1
        event: Event = {"type": "count", "to": "all", "owner": owner, "crib": is_crib, "score": c,
                        "breakdown": breakdown}
        if claim is not None:
            self.to_act = ()
            own = min(claim, c)
            mug = abs(claim - c)
            if mug:
                n = self.players
                mug_seat = next(q for q in ((owner + i) % n for i in range(1, n)) if self.side_of[q] != side)
                if self.side_scores[side] + own >= self.target:  # CRIB-COUNT-7: the owner wins first
                    mug = 0
            event["claim"] = claim
            event["by"] = by
            event["muggins"] = ({"seat": mug_seat, "side": self.side_of[mug_seat], "points": mug}
                                if mug else None)
        done = (owner, is_crib, show[2], claim, c, breakdown)
        self.show = done
        self.counted.append(done)
        self.show_i += 1
        self.log.append(event)
        if own and self._score(owner, own, "crib" if is_crib else "hand", parts):
            return True
        if mug and self._score(mug_seat, mug, "muggins", [["muggins", mug]]):
            return True
        if claim is not None:
            self._next_count()
        return False

    # ------------------------------------------------------------------ scoring, end, clock

    def _score(self, seat: int, points: int, reason: str, parts: list[list[Any]]) -> bool:
        """Add ``points`` to ``seat``'s side; end the game at the target (CRIB-END-1). True if over."""
        side = self.side_of[seat]
        total = self.side_scores[side] = self.side_scores[side] + points
        self.log.append({"type": "score", "to": "all", "seat": seat, "side": side, "points": points,
                         "reason": reason, "parts": parts})
        if total < self.target:
            return False
        self._finish(side)
        return True

    def _finish(self, side: int) -> None:
        """CRIB-END-1: ``side`` has reached the target."""
        self.phase = "over"
        self.is_over = True
        self.to_act = ()
        self.win_side = side
        self.turn = -1
        self.to_discard = []
        self.log.append({"type": "game_end", "to": "all", "scores": self.scores,
                         "side_scores": list(self.side_scores), "winners": self.winners})
        if self.turn_time:
            self.log.append({"type": "timer_stop", "to": "all", "action": "timeout"})

    def _timeout(self) -> None:
        """CRIB-ONL-2..4: the fixed choice for every seat whose timed decision is due."""
        phase = self.phase
        log = self.log
        if phase == "discard":
            seats = list(self.to_discard)  # turn order from the dealer's left
            log.append({"type": "timeout", "to": "all", "seats": seats})
            need = 2 if self.players == 2 else 1
            for s in seats:
                self._discard(s, tuple(self.hands[s][-need:]))
        elif phase == "play":
            seat = self.turn
            log.append({"type": "timeout", "to": "all", "seats": [seat]})
            self._play(seat, self.hands[seat][0])  # the lowest card is always playable if any is
        else:
            assert self.show is not None
            log.append({"type": "timeout", "to": "all", "seats": [self.show[0]]})
            self._resolve(0, CLOCK)

    # ------------------------------------------------------------------ reading the state

    @property
    def scores(self) -> list[int]:
        ss = self.side_scores
        return [ss[s] for s in self.side_of]

    @property
    def winners(self) -> list[int]:
        w = self.win_side
        return [] if w is None else [s for s in range(self.players) if self.side_of[s] == w]

    @property
    def sides(self) -> list[list[int]]:
        return [[s for s in range(self.players) if self.side_of[s] == k] for k in range(self.sides_n)]

    @property
    def last_hand(self) -> dict[str, Any] | None:
        """The previous hand's number, dealer, starter and counts (history; None in the first hand)."""
        last = self._last
        if last is None:
            return None
        hand, dealer, starter_id, counted = last
        starter = NAMES[starter_id]
        return {"hand": hand, "dealer": dealer, "starter": starter,
                "counted": [_public_show(c, starter) for c in counted]}

    def _own_hand(self, seat: int) -> list[int]:
        return self.kept[seat] if self.show_order else self.hands[seat]

    def view(self, seat: int | None) -> dict[str, Any]:
        self.check_view_seat(seat)
        v = self.base_view(seat, self.phase)
        started = bool(self.show_order)
        show = self.show
        starter_name = None if self.starter is None else NAMES[self.starter]
        v.update({
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "sides": self.sides,
            "side_scores": list(self.side_scores),
            "target": self.target,
            "hand": [] if seat is None else [NAMES[c] for c in self._own_hand(seat)],
            "discards": [] if seat is None else [NAMES[c] for c in sorted(self.discards[seat])],
            "hand_sizes": [len(self.kept[s]) if started else len(self.hands[s]) for s in range(self.players)],
            "crib_size": len(self.crib),
            "stock_size": 52 - sum(len(h) for h in self.hands) - len(self.played) - len(self.crib)
            - (self.starter is not None),
            "to_discard": list(self.to_discard),
            "starter": None if self.starter is None else NAMES[self.starter],
            "count": self.count,
            "series": [] if started else [list(p) for p in self.series],
            "played": [] if started else [list(p) for p in self.played],
            "series_start": len(self.played) - len(self.series),
            "go": list(self.go),
            "turn": None if self.turn < 0 else self.turn,
            "show": _public_show(show, starter_name) if show is not None else None,
            "counted": [_public_show(c, starter_name) for c in self.counted],
            "last_hand": self.last_hand,
        })
        return v

    def audit_cards(self) -> list[int]:
        located = [c for h in self.hands for c in h]
        located += [parse_card(card) for _, card in self.played]
        located += self.crib
        if self.starter is not None:
            located.append(self.starter)
        held = set(located)
        return located + [c for c in range(52) if c not in held]  # the rest is the stock

    def audit_hidden(self, seat: int | None) -> list[int]:
        """Stock, other seats' unplayed cards, and crib cards not yet shown (own discards excepted)."""
        known = {parse_card(card) for _, card in self.played}
        if seat is not None:
            known.update(self.hands[seat])
            known.update(self.discards[seat])
        if self.starter is not None:
            known.add(self.starter)
        if self.crib_shown:
            known.update(self.crib)
        return [c for c in range(52) if c not in known]

    def copy(self) -> Cribbage:
        """An independent copy (hand-written: bots call it a lot)."""
        new = object.__new__(Cribbage)
        new.__dict__.update(self.__dict__)
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        new.rng = rng
        new.log = list(self.log)
        new.actions = [list(a) for a in self.actions]
        new.options = dict(self.options)
        new.meta = dict(self.meta)
        new.side_scores = list(self.side_scores)
        new.hands = [list(h) for h in self.hands]
        new.kept = [list(h) for h in self.kept]
        new.discards = [list(h) for h in self.discards]
        new.crib = list(self.crib)
        new.to_discard = list(self.to_discard)
        new.series = list(self.series)
        new.played = list(self.played)
        new.go = list(self.go)
        new.show_order = list(self.show_order)
        new.counted = list(self.counted)
        new.cut_cards = list(self.cut_cards)
        new._legal_seat = _NO_SEAT
        return new


def _public_show(show: tuple[Any, ...], starter: str | None) -> dict[str, Any]:
    """A counting set as a view shows it: C and the breakdown only once known (CRIB-INFO-4)."""
    owner, crib, cards, claim, score, breakdown = show
    return {"owner": owner, "crib": crib, "cards": list(cards), "starter": starter, "claim": claim,
            "score": score, "breakdown": None if breakdown is None else [list(b) for b in breakdown]}


def _draw_bounds(k: int) -> tuple[int, int, tuple[int, ...]]:
    bound = 1
    for i in range(k):
        bound *= 52 - i
    return bound, bound.bit_length(), tuple(range(52, 52 - k, -1))


_PACK: tuple[int, ...] = tuple(range(52))
_NO_SEAT = object()  # no legal list cached
_ALONE: tuple[tuple[int], ...] = tuple((s,) for s in range(6))  # ``to_act`` of one seat
_DRAWS: dict[int, tuple[int, int, tuple[int, ...]]] = {k: _draw_bounds(k) for k in range(1, 53)}
_HEELS: list[list[Any]] = [["heels", 2]]


PegMemo = tuple[int, list[list[Any]], tuple[int, list[list[Any]]], tuple[int, list[list[Any]]]]


def _peg_memo(key: int) -> PegMemo:
    """Points and parts of the last card of the series ``key`` (packed ranks), alone, with one
    for the go, and with one for the last card. The parts lists are shared: never mutate them."""
    rv = RANK_VALUE
    last = key & 15
    count = rv[last]
    k = key >> 4
    same = 0  # CRIB-PEG-8: cards of the last card's rank just before it
    while k & 15 == last:
        same += 1
        count += rv[last]
        k >>= 4
    run = 0  # CRIB-PEG-9: the longest run ending now (all cards distinct, so only without a pair)
    if not same:
        seen = 1 << last
        lo = hi = last
        n = 1
        while k:
            r = k & 15
            count += rv[r]
            k >>= 4
            if seen >> r & 1:
                break
            seen |= 1 << r
            n += 1
            if r < lo:
                lo = r
            elif r > hi:
                hi = r
            if n >= 3 and hi - lo == n - 1:
                run = n
    while k:
        count += rv[k & 15]
        k >>= 4
    base: list[list[Any]] = []
    if count == 15:  # CRIB-PEG-7
        base.append(["fifteen", 2])
    elif count == 31:  # CRIB-PEG-4
        base.append(["thirty_one", 2])
    if same:
        base.append(["pair", (0, 2, 6, 12)[min(same, 3)]])
    if run:
        base.append(["run", run])
    points = sum(p for _, p in base)
    if len(_PEG_MEMO) >= _PEG_MEMO_LIMIT:  # a long-running room must not grow without bound
        _PEG_MEMO.clear()
    memo = _PEG_MEMO[key] = (points, base, (points + 1, [*base, ["go", 1]]), (points + 1, [*base, ["last", 1]]))
    return memo


def _parse_cards(args: Sequence[str]) -> list[int]:
    try:
        return [parse_card(a) for a in args]
    except ValueError as e:
        raise InvalidAction(str(e)) from None


_CARD_OF_PLAY: dict[str, int] = {PLAY_ACTION[c]: c for c in range(52)}
#: ``_DISCARD2_ROWS[a][b]``: the action discarding cards a < b
_DISCARD2_ROWS: list[list[str]] = [[DISCARD2_ACTION.get((a, b), "") for b in range(52)] for a in range(52)]
_DISCARD_CARDS: dict[str, tuple[int, ...]] = {DISCARD1_ACTION[c]: (c,) for c in range(52)}
_DISCARD_CARDS.update({s: p for p, s in DISCARD2_ACTION.items()})


attach_core(Cribbage, "feltroom.games._cribbage_core", "CribbageCore")  # new_game uses the compiled core when built
