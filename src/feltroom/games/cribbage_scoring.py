"""Cribbage scoring: a counting set in the show (CRIB-SCORE-*) and a card of the play (CRIB-PEG-*).

The one scorer of the room: the engine (``feltroom.games.cribbage``), the Cribbage bot, the
distribution (``cribbage_distribution``) and the tests all score through it. The compiled
core (``_cribbage_core.pyx``) keeps its own C scorer; ``tests/test_cribbage_core.py`` and the
differential games keep the two equal.

Where the rules leave room, this module writes:

- each breakdown entry as ``[kind, cards, points]``, ``cards`` the combination's cards in card
  order, e.g. ``["fifteen", ["5S", "JH"], 2]``; the entries in the order fifteens (smaller
  combinations first), pairs, runs, flush, nobs;
- the parts of a card of the play as ``[kind, points]`` in the order fifteen or thirty_one,
  pair, run.

Every call returns new lists: a caller may keep or change what it gets.

>>> score_hand(["5H", "5D", "5C", "JS"], "5S").total
29
>>> peg_points(["5C", "4D", "6H"])
(5, [['fifteen', 2], ['run', 3]])
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from ..cards import NAMES, parse_card

__all__ = [
    "JACK", "RANK", "RANK_VALUE", "VALUE", "HandScore", "combinations", "peg_points", "rank_points",
    "score_hand", "score_ids", "score_sum", "score_total",
]

#: Rank number 1–13 (A … K) of each card id (CRIB-SETUP-3: the ace is low).
RANK: tuple[int, ...] = tuple(c // 4 + 1 for c in range(52))
#: Count value (CRIB-SETUP-2) of each card id.
VALUE: tuple[int, ...] = tuple(min(c // 4 + 1, 10) for c in range(52))
#: Count value of each rank number (index 0 unused).
RANK_VALUE: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
JACK = 11

#: One scoring combination: kind, its card ids in card order, points.
Combination = tuple[str, tuple[int, ...], int]


# ---------------------------------------------------------------------------- the show

def _rank_combinations(cards: list[int]) -> list[Combination]:
    """Fifteens, pairs and runs among ``cards`` (sorted card ids: sorted by rank too)."""
    found: list[Combination] = []
    for size in range(2, len(cards) + 1):  # CRIB-SCORE-2
        for combo in itertools.combinations(cards, size):
            if sum(VALUE[c] for c in combo) == 15:
                found.append(("fifteen", combo, 2))
    for a, b in itertools.combinations(cards, 2):  # CRIB-SCORE-3: by rank, not by value
        if RANK[a] == RANK[b]:
            found.append(("pair", (a, b), 2))
    by_rank: dict[int, list[int]] = {}
    for c in cards:
        by_rank.setdefault(RANK[c], []).append(c)
    low = 1
    while low <= 13:  # CRIB-SCORE-4: each maximal block of 3+ consecutive ranks, once per choice of cards
        high = low
        while high in by_rank and high + 1 in by_rank:
            high += 1
        if low in by_rank and high - low + 1 >= 3:
            for run in itertools.product(*(by_rank[r] for r in range(low, high + 1))):
                found.append(("run", run, len(run)))
        low = high + 1
    return found


def combinations(hand: Sequence[int], starter: int, crib_five: bool = False) -> list[Combination]:
    """Every scoring combination of ``hand`` (card ids) with ``starter`` (CRIB-SCORE-1..6).

    ``crib_five``: the five-card crib-flush rule (``crib_flush: five``, CRIB-SCORE-6).
    """
    cards = sorted([*hand, starter])
    found = _rank_combinations(cards)
    suit = hand[0] & 3
    if all(c & 3 == suit for c in hand):  # CRIB-SCORE-5/6
        if starter & 3 == suit:
            found.append(("flush", tuple(cards), len(cards)))
        elif not crib_five:
            found.append(("flush", tuple(sorted(hand)), len(hand)))
    jack = 40 + (starter & 3)  # CRIB-SCORE-1: the jack of the starter's suit, never the starter itself
    if jack in hand:
        found.append(("nobs", (starter, jack) if starter < jack else (jack, starter), 1))
    return found


def rank_points(cards: Sequence[int]) -> int:
    """The points of fifteens, pairs and runs among ``cards`` (card ids): no flush, no nobs.

    >>> from feltroom.cards import parse_cards
    >>> rank_points(parse_cards("5H 5D JS"))
    6
    """
    return sum(points for _, _, points in _rank_combinations(sorted(cards)))


def score_total(hand: Sequence[int], starter: int, crib_five: bool = False) -> int:
    """The score of ``hand`` (card ids) with ``starter``, without its breakdown.

    >>> from feltroom.cards import parse_cards
    >>> score_total(parse_cards("5H 5D 5C JS"), parse_card("5S"))
    29
    """
    return sum(points for _, _, points in combinations(hand, starter, crib_five))


def score_sum(hand: Sequence[int], starters: Iterable[int], crib_five: bool = False) -> int:
    """``score_total(hand, s)`` summed over the card ids ``starters`` (the compiled core's
    ``_score_sum`` gives the same, in one C loop).

    >>> from feltroom.cards import parse_cards
    >>> score_sum(parse_cards("5H 5D 5C"), parse_cards("JS 5S"))  # 14 + 20
    34
    """
    return sum(score_total(hand, s, crib_five) for s in starters)


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
    found = combinations(hand, starter, crib_five)
    breakdown = [[kind, [NAMES[c] for c in cards], points] for kind, cards, points in found]
    return HandScore(sum(points for _, _, points in found), breakdown)


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


# ---------------------------------------------------------------------------- the play

def peg_points(series: Sequence[str | int]) -> tuple[int, list[list[Any]]]:
    """Points for the last card of a series of the play (CRIB-PEG-4, 7, 8, 9), and their parts.

    ``series`` is the current series, oldest card first (names or card ids). Go and last card
    are not included: they depend on the other players' hands.

    >>> peg_points(["5C", "4D", "6H", "6S"])
    (2, [['pair', 2]])
    >>> peg_points(["10H", "7S", "7D", "7C"])
    (8, [['thirty_one', 2], ['pair', 6]])
    """
    ranks = [RANK[c if isinstance(c, int) else parse_card(c)] for c in series]
    parts: list[list[Any]] = []
    count = sum(RANK_VALUE[r] for r in ranks)
    if count == 15:  # CRIB-PEG-7
        parts.append(["fifteen", 2])
    elif count == 31:  # CRIB-PEG-4
        parts.append(["thirty_one", 2])
    last = ranks[-1]
    same = 0  # CRIB-PEG-8: the cards of the last card's rank just before it
    while same + 1 < len(ranks) and ranks[-2 - same] == last:
        same += 1
    if same:
        parts.append(["pair", (0, 2, 6, 12)[min(same, 3)]])
    for length in range(len(ranks), 2, -1):  # CRIB-PEG-9: the longest run ending now, in any order
        window = ranks[-length:]
        if len(set(window)) == length and max(window) - min(window) == length - 1:
            parts.append(["run", length])
            break
    return sum(points for _, points in parts), parts
