"""Heads-up Cribbage's chance to win from the scores between two hands (``bench/cribbage_odds.py``), which
a ``search`` playout may be worth when it ends a hand short of the target (issue #15: the variant
bench's value ``odds``)."""

from __future__ import annotations

import itertools
from functools import cache

import pytest

import feltroom
from feltroom.bots import make_bot
from feltroom.bots.runner import play_out
from feltroom.bots.search_games import _crib_margin
from feltroom.games.cribbage import Cribbage

from .helpers import bench_module

ODDS = bench_module("cribbage_odds")
PEGGED, SHOWN = ODDS.counts()
win_chance = ODDS.win_chance


def _marginals() -> tuple[dict[int, float], dict[int, float], dict[int, float]]:
    """The pone's show, and the pone's and the dealer's totals, from the two tables (independent)."""
    pegs, shows = sum(PEGGED.values()), sum(SHOWN.values())
    pone_show: dict[int, float] = {}
    pone: dict[int, float] = {}
    dealer: dict[int, float] = {}
    for (ps, _), m in SHOWN.items():
        pone_show[ps] = pone_show.get(ps, 0.0) + m / shows
    for (pp, dp), n in PEGGED.items():
        for (ps, ds), m in SHOWN.items():
            w = n * m / (pegs * shows)
            pone[pp + ps] = pone.get(pp + ps, 0.0) + w
            dealer[dp + ds] = dealer.get(dp + ds, 0.0) + w
    return pone_show, pone, dealer


def test_the_table_is_its_model_worked_out_state_by_state() -> None:
    """Against the model computed the slow way, by recursion over every (pone, dealer) outcome:
    the pegging first (a side pegging out wins; both: half each), then the pone's show, then the
    dealer's (CRIB-SHOW-1, CRIB-END-1); otherwise the roles swap (the dealer is the next pone)."""
    target = 25
    pegs = sum(PEGGED.values())
    pone_show, pone, dealer = _marginals()

    def pone_wins_now(short: int, their_short: int) -> float:
        total = 0.0
        for (pp, dp), n in PEGGED.items():
            if pp >= short:
                total += n / pegs * (0.5 if dp >= their_short else 1.0)
            elif dp < their_short:
                total += n / pegs * sum(w for ps, w in pone_show.items() if pp + ps >= short)
        return total

    @cache
    def chance(mine: int, theirs: int) -> float:
        value = pone_wins_now(target - mine, target - theirs)
        for x, px in pone.items():
            for y, py in dealer.items():
                if (x or y) and mine + x < target and theirs + y < target:
                    value += px * py * (1.0 - chance(theirs + y, mine + x))
        return value

    table = win_chance(target)
    for mine in range(target):
        for theirs in range(target):
            assert table[mine][theirs] == pytest.approx(chance(mine, theirs), abs=1e-12), (mine, theirs)


@pytest.mark.parametrize("target", [61, 121])
def test_more_points_never_lower_the_chance(target: int) -> None:
    table = win_chance(target)
    for mine in range(target):
        for theirs in range(target):
            value = table[mine][theirs]
            assert -1e-12 <= value <= 1.0 + 1e-12
            if mine + 1 < target:
                assert table[mine + 1][theirs] >= value - 1e-12
            if theirs + 1 < target:
                assert table[mine][theirs + 1] <= value + 1e-12


def test_the_first_dealer_is_favoured_and_a_point_short_nearly_wins() -> None:
    """The dealer owns the crib and counts last (CRIB-SHOW-1): at 0–0 the first dealer is the
    favourite, by about what the first dealer won of the heuristic's own games (0.577 ± 0.018 of
    3,000, ``bench/cribbage_odds.py``). A pone one point short against a dealer at 0 wins but for
    hands of no points for it (it pegs or counts first, CRIB-END-1); a pone at 0 cannot reach 121
    in one hand, so against a dealer one point short it cannot win."""
    table = win_chance(121)
    assert 0.54 < 1.0 - table[0][0] < 0.60
    assert table[120][0] > 0.999
    assert table[0][120] < 1e-9


def test_heads_up_a_hands_end_is_worth_the_chance_to_win_from_its_scores() -> None:
    """``odds_worth``: heads-up, the seat's chance to win from the scores with the next dealer. At 0–0
    the next dealer is the favourite (the crib, the last count: CRIB-SHOW-1), a seat one point
    short with the other at 0 has all but won, and the same 10 points matter more at 110–100 than
    at 10–0. At a larger table it is the hand's margin."""
    worth = ODDS.odds_worth
    two = Cribbage(2, seed=1)
    assert worth(two, 0, [0, 0], [0, 0], 0) > 0.5 > worth(two, 0, [0, 0], [0, 0], 1)
    assert worth(two, 1, [0, 0], [0, 0], 1) == worth(two, 0, [0, 0], [0, 0], 0)
    assert worth(two, 0, [120, 0], [100, 0], 1) > 0.999 and worth(two, 1, [120, 0], [100, 0], 1) < 0.001
    late = worth(two, 0, [110, 100], [100, 100], 1) - worth(two, 0, [100, 100], [100, 100], 1)
    early = worth(two, 0, [10, 0], [0, 0], 1) - worth(two, 0, [0, 0], [0, 0], 1)
    assert late > early > 0
    three = Cribbage(3, seed=1)
    assert worth(three, 0, [10, 4, 4], [0, 0, 0], 1) == _crib_margin(three, 0, [10, 4, 4], [0, 0, 0], 1)


def test_the_tables_count_each_finished_hand_by_pone_and_dealer() -> None:
    """``bench/cribbage_odds.py`` (which writes the counts) splits a game's points by hand, by
    pone and dealer (his heels the dealer's, CRIB-START-2) and by pegging and show (the crib the
    dealer's): the hands' sums are the game's, less its last hand (unfinished: it is left out)."""
    game = feltroom.new_game("cribbage", 2, 7, {"counting": "automatic"})
    play_out(game, [make_bot("heuristic", "cribbage", s, 2, game.options, s) for s in range(2)])
    pegged, shown = ODDS.hands(game)
    starts = [i for i, e in enumerate(game.log) if e["type"] == "hand_start"]
    assert len(pegged) == len(shown) == len(starts) - 1
    for k, (begin, end) in enumerate(itertools.pairwise(starts)):
        dealer = game.log[begin]["dealer"]
        points = [0, 0]
        for e in game.log[begin:end]:
            if e["type"] == "score":
                points[e["seat"] == dealer] += e["points"]
        assert [pegged[k][0] + shown[k][0], pegged[k][1] + shown[k][1]] == points
        heels = sum(e["points"] for e in game.log[begin:end] if e["type"] == "score" and e["reason"] == "heels")
        assert pegged[k][1] >= heels
