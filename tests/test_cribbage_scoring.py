"""Cribbage hand scoring (CRIB-SCORE-*, CRIB-SETUP-2/3/4) and pegging points (CRIB-PEG-7..9, 12)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from feltroom.cards import NAMES, parse_card
from feltroom.games.cribbage import (
    distribution,
    exhaustive_distribution,
    peg_points,
    score_hand,
    score_ids,
    score_total,
)

# ---------------------------------------------------------------- a brute-force reference scorer


def reference(hand: list[int], starter: int, crib_five: bool = False) -> int:
    """Every rule of §9 written the slow, obvious way."""
    cards = [*hand, starter]
    rank = [c // 4 + 1 for c in cards]
    value = [min(r, 10) for r in rank]
    pts = 0
    for k in range(2, len(cards) + 1):  # fifteens
        for sub in itertools.combinations(range(len(cards)), k):
            if sum(value[i] for i in sub) == 15:
                pts += 2
    for i, j in itertools.combinations(range(len(cards)), 2):  # pairs
        if rank[i] == rank[j]:
            pts += 2
    runs = []
    for k in range(3, len(cards) + 1):
        for sub in itertools.combinations(range(len(cards)), k):
            rs = sorted(rank[i] for i in sub)
            if len(set(rs)) == k and rs[-1] - rs[0] == k - 1:
                runs.append(set(sub))
    for run in runs:  # a run counts unless a longer run contains it
        if not any(run < other for other in runs):
            pts += len(run)
    suits = {c % 4 for c in hand}
    if len(suits) == 1:
        if starter % 4 in suits:
            pts += len(hand) + 1
        elif not crib_five:
            pts += len(hand)
    for c in hand:
        if c // 4 + 1 == 11 and c % 4 == starter % 4:
            pts += 1
    return pts


def ids(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


# ---------------------------------------------------------------- worked examples


def test_source_example_15_breakdown() -> None:
    """CRIB-SCORE-8: 4C 5S 6D JH + 4H = 15 with this breakdown; CRIB-SCORE-7 the sum of the parts."""
    s = score_hand(["4C", "5S", "6D", "JH"], "4H")
    assert s.total == 15
    assert s.parts == [["fifteen", 6], ["pair", 2], ["run", 6], ["nobs", 1]]
    assert sum(p for _, _, p in s.breakdown) == s.total  # CRIB-SCORE-7
    assert ["run", ["4C", "5S", "6D"], 3] in s.breakdown and ["run", ["4H", "5S", "6D"], 3] in s.breakdown
    assert ["fifteen", ["5S", "JH"], 2] in s.breakdown
    assert ["nobs", ["4H", "JH"], 1] in s.breakdown


def test_29_hand_and_zero_hand() -> None:
    """CRIB-SCN-17, CRIB-SCORE-9: the 29 hand; CRIB-SCORE-10: 2C 7D 9S KH + AC = 0 ("nineteen")."""
    s = score_hand("5H 5D 5C JS", "5S")
    assert s.total == 29
    assert s.parts == [["fifteen", 16], ["pair", 12], ["nobs", 1]]
    assert score_hand("2C 7D 9S KH", "AC").total == 0


@pytest.mark.parametrize(("hand", "starter", "total", "parts"), [
    # CRIB-SCN-16, CRIB-SCORE-2 fifteens, CRIB-SCORE-3 pairs, CRIB-SCORE-4 runs
    ("3S 3H 4D 5C", "9S", 12, [["fifteen", 4], ["pair", 2], ["run", 6]]),
    ("3C 4D 5S 6H", "6C", 16, [["fifteen", 6], ["pair", 2], ["run", 8]]),
    # CRIB-SETUP-3: A-2-3 is a run, Q-K-A is not
    ("AC 2D 3S KH", "QC", 7, [["fifteen", 4], ["run", 3]]),
    ("8C 8D 7H 7S", "AC", 14, [["fifteen", 10], ["pair", 4]]),
])
def test_hand_breakdowns(hand: str, starter: str, total: int, parts: list[list[object]]) -> None:
    s = score_hand(hand, starter)
    assert (s.total, s.parts) == (total, parts)


def test_runs_count_once_per_maximal_block() -> None:
    """CRIB-SCORE-4: 3-4-5-6 is 4, not 4 + 3 + 3; 3 3 4 5 is two runs of three."""
    assert score_hand("3C 4D 5S 6H", "KC").parts == [["fifteen", 4], ["run", 4]]
    assert ["run", 6] in score_hand("3C 3D 4S 5H", "KC").parts
    assert score_hand("QC KD AS 8H", "9C").parts == []  # CRIB-SETUP-3: no Q-K-A
    assert score_hand("QC KD AS 2H", "3C").parts == [["fifteen", 4], ["run", 3]]  # A-2-3 only


def test_pairs_by_rank_not_value() -> None:
    """CRIB-SETUP-4 / CRIB-SCORE-3: KH and QH are no pair although both count 10 (CRIB-SETUP-2)."""
    assert score_hand("KH QH 2C 9S", "7D").parts == []
    assert score_hand("KH KS 2C 9S", "7D").parts == [["pair", 2]]
    assert score_hand("KH QH JD 5C", "AS").parts == [["fifteen", 6], ["run", 3]]  # J Q K each with 5


def test_nobs() -> None:
    """CRIB-SCORE-1: a jack of the starter's suit scores 1; a jack starter gives nobs to nobody."""
    assert score_hand("JH AC 7S 9D", "KH").parts == [["nobs", 1]]
    assert score_hand("JH AC 7S 9D", "KS").parts == []
    s = score_hand("JH 3C 7S 9D", "JD")  # CRIB-SCN-7: pair of jacks, no nobs
    assert s.total == 2 and s.parts == [["pair", 2]]


def test_flushes() -> None:
    """CRIB-SCN-18, CRIB-SCORE-5 hand flush, CRIB-SCORE-6 and CRIB-OPT-5 crib flush rules."""
    assert score_hand("2H 6H 9H KH", "4C").parts == [["fifteen", 4], ["flush", 4]]
    assert score_hand("2H 6H 9H KH", "4C", crib=False).total == 8  # crib_flush: hand
    assert score_hand("2H 6H 9H KH", "4C", crib=True).total == 4  # crib_flush: five
    assert score_hand("2H 6H 9H KH", "4H", crib=True).total == 9
    assert score_hand("2H 6H 9H KH", "4H").total == 9
    assert score_hand("2H 6H 9H KC", "4H").total == 4  # three hearts and the starter: no flush
    assert score_hand("JS 10S 9S 8S", "7S").parts == [["fifteen", 2], ["run", 5], ["flush", 5], ["nobs", 1]]


def test_six_card_sets() -> None:
    """CRIB-SCN-5 and CRIB-SCN-19, CRIB-SCORE-11: 6-card counting sets (6 players); 46 is the maximum."""
    s = score_hand("4C 4D 5S 5H 6C", "6D")
    assert s.total == 46 and s.parts == [["fifteen", 16], ["pair", 6], ["run", 24]]
    assert score_hand("5H 5D 5C JS JD", "5S").total == 39  # the source's 39, not the maximum
    assert score_hand("2H 4H 6H 8H 10H", "KS").total == 5  # CRIB-SCORE-5: 5-card hand flush
    assert score_hand("2H 4H 6H 8H 10H", "KS", crib=True).total == 0  # crib_flush five: no flush
    assert score_hand("2H 4H 6H 8H 10H", "KH", crib=True).total == 6
    assert score_hand("2H 4H 6H 8H 10H", "KH").total == 6


def test_score_hand_input_checks() -> None:
    with pytest.raises(ValueError):
        score_hand("5H 5H 5C JS", "5S")
    with pytest.raises(ValueError):
        score_hand("5H XX 5C JS", "5S")


# ---------------------------------------------------------------- pegging points


def test_peg_points() -> None:
    """CRIB-PEG-7 fifteen, CRIB-PEG-8 pairs, CRIB-PEG-9 runs in any order, CRIB-PEG-12 source example."""
    assert peg_points(["5C", "4D", "6H"]) == (5, [["fifteen", 2], ["run", 3]])  # CRIB-PEG-12
    assert peg_points(["5C", "4D", "6H", "6S"]) == (2, [["pair", 2]])  # 5 4 6 6 is no run
    assert peg_points(["7C", "7D", "7H"]) == (6, [["pair", 6]])
    assert peg_points(["2C", "2D", "2H", "2S"]) == (12, [["pair", 12]])
    assert peg_points(["3C", "5S", "4D", "6C", "2H", "7H"]) == (6, [["run", 6]])
    assert peg_points(["KH", "QH"]) == (0, [])  # CRIB-SETUP-4: no pair
    assert peg_points(["10C", "10S"]) == (2, [["pair", 2]])
    assert peg_points(["3C", "4C", "4D", "5C"]) == (0, [])  # a repeated rank breaks the run
    assert peg_points(["10H", "7S", "7D", "7C"]) == (8, [["thirty_one", 2], ["pair", 6]])
    assert peg_points(["QC", "KC", "AC"]) == (0, [])  # CRIB-SETUP-3: ace low only


# ---------------------------------------------------------------- the distribution


def test_distribution_matches_the_published_table() -> None:
    """CRIB-SCORE-10, CRIB-SCN-17: over all 12,994,800 hand+starter pairs, no 19, 25, 26, 27; max 29."""
    d = distribution()
    assert sum(d.values()) == 12994800
    assert (d[0], d[1], d[2], d[24], d[28], d[29]) == (1009008, 99792, 2813796, 3680, 76, 4)
    assert [s for s in range(30) if s not in d] == [19, 25, 26, 27]
    assert max(d) == 29
    assert round(sum(s * n for s, n in d.items()) / 12994800, 4) == 4.7692


def test_distribution_by_rank_pattern_agrees_with_a_sample_of_real_hands() -> None:
    """The fast count is checked against the reference scorer on a fixed sample of hands."""
    import random

    rng = random.Random(3)
    for _ in range(300):
        cards = rng.sample(range(52), 5)
        assert score_total(cards[:4], cards[4]) == reference(cards[:4], cards[4])


def test_exhaustive_distribution_equals_the_pattern_count() -> None:
    assert exhaustive_distribution() == distribution()


# ---------------------------------------------------------------- properties

five = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True)
six = st.lists(st.integers(0, 51), min_size=6, max_size=6, unique=True)


@settings(max_examples=300, deadline=None)
@given(five, st.booleans())
def test_matches_the_reference_scorer(cards: list[int], crib: bool) -> None:
    """CRIB-SCORE-1..7 against the brute-force reference, 5-card sets, both crib rules."""
    s = score_ids(cards[:4], cards[4], crib)
    assert s.total == reference(cards[:4], cards[4], crib) == score_total(cards[:4], cards[4], crib)
    assert s.total == sum(p for _, _, p in s.breakdown)
    assert 0 <= s.total <= 29 and s.total not in (19, 25, 26, 27)  # CRIB-SCORE-10


@settings(max_examples=150, deadline=None)
@given(six, st.booleans())
def test_six_cards_match_the_reference_scorer(cards: list[int], crib: bool) -> None:
    """CRIB-SCORE-11: 6-card sets use the same rules; never above 46."""
    s = score_hand([NAMES[c] for c in cards[:5]], NAMES[cards[5]], crib=crib)
    assert s.total == reference(cards[:5], cards[5], crib) <= 46


@settings(max_examples=200, deadline=None)
@given(five, st.permutations(range(4)))
def test_permutation_invariance(cards: list[int], order: list[int]) -> None:
    hand = cards[:4]
    assert score_hand([NAMES[hand[i]] for i in order], NAMES[cards[4]]) == score_hand(
        [NAMES[c] for c in hand], NAMES[cards[4]])


@settings(max_examples=200, deadline=None)
@given(five, st.permutations(range(4)))
def test_a_suit_renaming_changes_nothing(cards: list[int], perm: list[int]) -> None:
    renamed = [c - c % 4 + perm[c % 4] for c in cards]
    assert score_total(renamed[:4], renamed[4]) == score_total(cards[:4], cards[4])


@settings(max_examples=200, deadline=None)
@given(five, st.lists(st.integers(0, 3), min_size=5, max_size=5))
def test_suits_matter_only_for_flush_and_nobs(cards: list[int], suits: list[int]) -> None:
    """Re-suit each card freely: with no flush and no nobs before and after, the score is the same."""
    resuited = [c - c % 4 + s for c, s in zip(cards, suits, strict=True)]
    if len(set(resuited)) < 5:
        return
    a, b = score_ids(cards[:4], cards[4]), score_ids(resuited[:4], resuited[4])
    kinds = {k for k, _, _ in a.breakdown} | {k for k, _, _ in b.breakdown}
    if not kinds & {"flush", "nobs"}:
        assert a.total == b.total
