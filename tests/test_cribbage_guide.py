"""``bench/cribbage_guide.py``: a guide for the Cribbage search whose heads-up discards count the whole
crib (``SearchSpec.guide``; the variant bench's ``guide``). Its table is the crib's exact mean, and it
changes the heuristic's discards only where the whole crib says so; the play variant's expected reply
is exact."""

from __future__ import annotations

import itertools
from typing import Any

from feltroom.bots import make_bot
from feltroom.bots.cribbage import CribbageBot, _pegs_after
from feltroom.cards import parse_cards
from feltroom.games.cribbage_scoring import RANK_VALUE, rank_points

from .helpers import bench_module

GUIDE = bench_module("cribbage_guide")


def _crib_points_by_ranks(low: int, high: int) -> int:
    """The crib's points summed over every way the other two discards and the starter fall, counted
    by ranks (how many cards of each rank are left), each five-rank crib scored once."""
    left = [0] + [4] * 13
    left[low] -= 1
    left[high] -= 1
    total = 0
    for a in range(1, 14):
        for b in range(a, 14):
            pairs = left[a] * (left[a] - 1) // 2 if a == b else left[a] * left[b]
            for c in range(1, 14):
                starters = left[c] - (c == a) - (c == b)
                if pairs > 0 and starters > 0:
                    ranks = sorted((low, high, a, b, c))
                    cards = [4 * (r - 1) + ranks[:i].count(r) for i, r in enumerate(ranks)]  # a new suit per copy
                    total += pairs * starters * rank_points(cards)
    return total


def test_the_whole_crib_table_is_the_cribs_points_over_every_draw() -> None:
    """Every entry is the sum, over the 58,800 ways the other discards and the starter fall, of the
    crib's fifteens, pairs and runs (CRIB-SCORE-2..4)."""
    assert GUIDE.CRIB_DRAWS == 58_800
    for low in range(1, 14):
        assert len(GUIDE.WHOLE_CRIB[low - 1]) == 14 - low
        for high in range(low, 14):
            assert GUIDE.WHOLE_CRIB[low - 1][high - low] == _crib_points_by_ranks(low, high), (low, high)


def test_the_whole_crib_table_agrees_with_the_real_cards() -> None:
    """One entry counted card by card, not by ranks: a five and a jack thrown (5H JS)."""
    out = parse_cards("5H JS")
    rest = [c for c in range(52) if c not in out]
    total = sum(rank_points([*out, a, b, s]) for a, b in itertools.combinations(rest, 2)
                for s in rest if s not in (a, b))
    assert total == GUIDE.WHOLE_CRIB[5 - 1][11 - 5]
    assert round(total / GUIDE.CRIB_DRAWS, 2) == 6.99


KING_SAFER_HAND = ["3S", "10S", "KS", "2S", "5S", "2C"]
KING_SAFER: dict[str, Any] = {"hand": KING_SAFER_HAND, "dealer": 0, "sides": [[0], [1]], "seat": 1}
ALL_DISCARDS = [f"discard {a} {b}" for a, b in itertools.combinations(KING_SAFER_HAND, 2)]


def test_the_guide_counts_the_whole_crib_heads_up() -> None:
    """The pone keeps 3S 2S 5S 10S either way; the heuristic sees its two throws score alike with any
    starter, the guide sees that a king gives the dealer's crib fewer runs than a ten."""
    heuristic = make_bot("heuristic", "cribbage", 1, 2, {}, 0)
    guide = GUIDE.CribbageGuide(1, 2, {}, 0)
    assert heuristic.choose(KING_SAFER, ALL_DISCARDS) == "discard 10S 2C"
    assert guide.choose(KING_SAFER, ALL_DISCARDS) == "discard KS 2C"
    assert GUIDE.WHOLE_CRIB[2 - 1][13 - 2] < GUIDE.WHOLE_CRIB[2 - 1][10 - 2]


def test_with_more_players_the_guide_discards_as_the_heuristic() -> None:
    """The table is for two discards of a heads-up crib; at 3 players the guide is the heuristic."""
    view = {**KING_SAFER, "hand": KING_SAFER_HAND[:5], "sides": [[0], [1], [2]]}
    legal = [f"discard {c}" for c in view["hand"]]
    heuristic = make_bot("heuristic", "cribbage", 1, 3, {}, 0)
    assert GUIDE.CribbageGuide(1, 3, {}, 0).choose(view, legal) == heuristic.choose(view, legal)


def test_the_expected_reply_is_the_mean_of_the_next_players_best_reply() -> None:
    """``ExpectedReply`` (the play variant of the bench): the risk is the mean, over every hand the next
    player could hold among the unseen cards, of the most its cards would peg after the series
    (CRIB-PEG-4..7), those that fit under 31 only; the heuristic's own risk is the largest single term."""
    series = (4, 5)  # count 9: a six pegs 5 (fifteen and a run), a three 3 (a run), a five 2 (a pair)
    by_rank = {6: 2, 3: 3, 5: 2, 10: 3, 13: 1, 2: 4}  # unseen cards per rank
    cards = [r for r, n in by_rank.items() for _ in range(n)]
    pegs = _pegs_after(series)
    assert (pegs[6], pegs[3], pegs[5], pegs[10]) == (5, 3, 2, 0)
    for holding in (1, 2, 3, 4):
        hands = list(itertools.combinations(range(len(cards)), holding))
        best = [max((pegs[cards[i]] for i in hand if 9 + RANK_VALUE[cards[i]] <= 31), default=0) for hand in hands]
        exact = sum(best) / len(hands)
        assert abs(GUIDE.ExpectedReply._reply_risk(series, 9, by_rank, len(cards), holding) - exact) < 1e-12
        assert CribbageBot._reply_risk(series, 9, by_rank, len(cards), holding) < exact
