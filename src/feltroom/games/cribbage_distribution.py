"""The distribution of Cribbage hand scores (``feltroom cribbage-distribution``), counted two ways.

``distribution`` counts by rank patterns with their multiplicities; ``exhaustive_distribution``
visits every hand. Both score through ``cribbage_scoring.rank_points`` (fifteens, pairs, runs)
and add flush and nobs by counting suits. The exhaustive count looks points up in a table of
every 5-card rank pattern (6,175 of them), built once per call: 12,994,800 hand+starter pairs
cannot each be scored from scratch in a command-line wait.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from math import comb

from .cribbage_scoring import JACK, rank_points

__all__ = ["distribution", "exhaustive_distribution"]

#: Each card's contribution to a packed rank-multiset key (3 bits per rank).
RANK_BIT: tuple[int, ...] = tuple(1 << (3 * (c // 4)) for c in range(52))


def _cards_of(ranks: Sequence[int]) -> list[int]:
    """Card ids with these rank numbers (1–13), each copy of a rank in another suit."""
    copies: dict[int, int] = {}
    cards = []
    for r in ranks:
        cards.append(4 * (r - 1) + copies.get(r, 0))
        copies[r] = copies.get(r, 0) + 1
    return cards


def _five_card_table() -> dict[int, int]:
    """Packed rank key (``RANK_BIT``) -> points of fifteens, pairs and runs, for every 5-card rank pattern."""
    table = {}
    for ranks in itertools.combinations_with_replacement(range(1, 14), 5):
        if max(ranks.count(r) for r in ranks) <= 4:
            cards = _cards_of(ranks)
            table[sum(RANK_BIT[c] for c in cards)] = rank_points(cards)
    return table


def distribution(progress: Callable[[int, int], None] | None = None) -> dict[int, int]:
    """How many of the 12,994,800 (4-card hand, starter) pairs score each total.

    Exact: it enumerates the 1,820 rank multisets of a hand and the 13 starter ranks with
    their multiplicities, and counts the suit patterns for flush and nobs combinatorially.

    >>> d = distribution()
    >>> sum(d.values()), d[29], d[0], d.get(19, 0)
    (12994800, 4, 1009008, 0)
    """
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
            base = rank_points(_cards_of(ranks))
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
    table = _five_card_table()
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

