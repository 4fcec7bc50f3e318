"""The capture solver against a brute-force reference (KRYP-CAPTURE-1..4, KRYP-VAL-1..3)."""

from __future__ import annotations

import time
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from feltroom.cards import parse_cards
from feltroom.games.krypkasino import HAND_VALUE, is_capture, largest_captures, largest_size

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestDeprecationWarning")


def table_value(card: int) -> int:
    return card // 4 + 1  # KRYP-VAL-2: ace 1


def splits(values: list[int], value: int) -> bool:
    """Whether ``values`` split into disjoint groups each summing to ``value`` (brute force)."""
    if not values:
        return True
    first, rest = values[0], values[1:]
    for k in range(len(rest) + 1):
        for idx in combinations(range(len(rest)), k):
            if first + sum(rest[i] for i in idx) == value and splits(
                    [rest[i] for i in range(len(rest)) if i not in idx], value):
                return True
    return False


def brute_force(value: int, table: list[int]) -> list[tuple[int, ...]]:
    """Every largest capture as a multiset: try all subsets, largest first (KRYP-CAPTURE-3/4)."""
    for size in range(len(table), 0, -1):
        found = {tuple(sorted(table[i] for i in idx)) for idx in combinations(range(len(table)), size)
                 if splits([table_value(table[i]) for i in idx], value)}
        if found:
            return sorted(found)
    return []


# Tables of up to 9 cards from a double deck, with small ranks over-represented so that groups abound.
card = st.one_of(st.integers(0, 51), st.integers(0, 27))
tables = st.lists(card, max_size=9).filter(lambda t: max(Counter(t).values(), default=0) <= 2)


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(table=tables, value=st.integers(2, 14))
def test_solver_matches_brute_force(table: list[int], value: int) -> None:
    """KRYP-CAPTURE-1, KRYP-CAPTURE-2, KRYP-CAPTURE-3, KRYP-CAPTURE-4: the exact largest captures."""
    expected = brute_force(value, table)
    assert largest_captures(value, table) == expected
    assert largest_size(value, table) == (len(expected[0]) if expected else 0)
    for capture in expected:
        assert is_capture(value, list(capture))


@settings(max_examples=300, deadline=None)
@given(cards=st.lists(st.integers(0, 51), min_size=1, max_size=8), value=st.integers(2, 14))
def test_is_capture_matches_brute_force(cards: list[int], value: int) -> None:
    """KRYP-CAPTURE-1: a capture is a set of table cards split into groups of the played value."""
    assert is_capture(value, cards) == splits([table_value(c) for c in cards], value)


def subset_dp(value: int, table: list[int]) -> list[tuple[int, ...]]:
    """A second, independent reference for mid-size tables: which subsets (bit masks) of the
    table split into groups of ``value``, by dynamic programming over the masks."""
    n = len(table)
    full = 1 << n
    sums = [0] * full
    for m in range(1, full):
        low = m & -m
        sums[m] = sums[m ^ low] + table_value(table[low.bit_length() - 1])
    by_low: dict[int, list[int]] = {}
    for g in range(1, full):
        if sums[g] == value:
            by_low.setdefault(g & -g, []).append(g)
    ok = [False] * full
    ok[0] = True
    for m in range(1, full):
        if sums[m] % value == 0:
            ok[m] = any(g & m == g and ok[m ^ g] for g in by_low.get(m & -m, ()))
    best = max((m.bit_count() for m in range(full) if ok[m]), default=0)
    if not best:
        return []
    return sorted({tuple(sorted(table[i] for i in range(n) if m >> i & 1))
                   for m in range(full) if ok[m] and m.bit_count() == best})


mid_tables = st.lists(st.integers(0, 39), min_size=10, max_size=13).filter(
    lambda t: max(Counter(t).values()) <= 2)


@settings(max_examples=120, deadline=None)
@given(table=mid_tables, value=st.integers(2, 14))
def test_solver_matches_subset_dp_on_mid_size_tables(table: list[int], value: int) -> None:
    """KRYP-CAPTURE-3, KRYP-CAPTURE-4 on 10–13 aces and number cards (where groups abound)."""
    assert largest_captures(value, table) == subset_dp(value, table)


def test_largest_capture_includes_every_equal_single() -> None:
    """KRYP-CAPTURE-3: the largest capture always includes every equal single."""
    for capture in largest_captures(5, parse_cards("5H 5S 2C 3D 4H AC")):
        assert Counter(capture)[parse_cards("5H")[0]] == 1 and Counter(capture)[parse_cards("5S")[0]] == 1


def test_hand_values() -> None:
    """KRYP-VAL-1: 2-10 face value, J 11, Q 12, K 13, A 14 from the hand."""
    assert [HAND_VALUE[c] for c in parse_cards("AS 2H 10D JC QS KH")] == [14, 2, 10, 11, 12, 13]
    assert largest_captures(14, parse_cards("AD")) == []  # KRYP-VAL-3
    assert largest_captures(14, parse_cards("KC AH")) == [tuple(parse_cards("AH KC"))]


def test_crowded_tables_are_fast() -> None:
    """The solver stays exact and quick on a crowded table (30 low cards, every hand value)."""
    table = parse_cards("AS AH 2S 2H 2D 3S 3H 3D 4S 4H 4D 5S 5H 5D 6S 6H 7S 7H 8S 8H 9S 9H 10S 10H "
                        "AD AC 2C 3C 4C 5C")
    start = time.perf_counter()
    sizes = [largest_size(v, table) for v in range(2, 15)]
    caps = [largest_captures(v, table) for v in range(2, 15)]
    assert time.perf_counter() - start < 10
    # 140 in all: ten 14s (10+4, 9+5, 8+6, 7+5+2 twice each, 3+3+4+4, 3+3+A+A+A+A+2+2) and
    # fourteen 10s both take the whole table.
    assert sizes[12] == 30 and sizes[8] == 30
    assert all(len(c[0]) == s for c, s in zip(caps, sizes, strict=True) if c)
    assert sizes == [len(c[0]) if c else 0 for c in caps]
