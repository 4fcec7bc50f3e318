"""Scoring a round and the end of the game (rules/crisp.md §8–§9)."""

from __future__ import annotations

from typing import Any

import pytest

from .crisp_helpers import new, of, round_deck, simple_round


def one_round(hands: dict[int, str], declarer: int | None, players: int = 3, **options: Any) -> dict[str, Any]:
    g = new(players, round_deck(players, 0, hands), dealer=0, **options)
    return of(simple_round(g, declarer), "round_end")[0]


def test_round_score_is_the_hand_total() -> None:
    """CRISP-SCORE-1."""
    end = one_round({0: "AS KS 9S", 1: "2H 3H 4H", 2: "10D JD QD"}, declarer=1)
    assert end["totals"] == [20, 9, 30] and end["round_scores"][0] == 20 and end["round_scores"][2] == 30


def test_strictly_lowest_declarer_gets_minus_5() -> None:
    """CRISP-SCORE-2."""
    end = one_round({0: "AS KS 9S", 1: "2H 3H 4H", 2: "2D 3D 5D"}, declarer=1)
    assert end["totals"][1] == 9 and end["round_scores"][1] == 4


@pytest.mark.parametrize(("other", "why"), [("2D 3D 4D", "tie"), ("AD 2D 3D", "higher")])
def test_tied_or_higher_declarer_gets_plus_5(other: str, why: str) -> None:
    """CRISP-SCORE-3: a tie for lowest is not strictly lowest."""
    end = one_round({0: "AS KS 9S", 1: "2H 3H 4H", 2: other}, declarer=1)
    assert end["round_scores"][1] == 14, why


def test_scores_accumulate_and_may_be_negative() -> None:
    """CRISP-SCORE-4 (CRISP-AMB-15): no floor; A+A+2 = 4 gives −1."""
    end = one_round({0: "AS AH 2D", 1: "5H 3H 4H", 2: "9D 3D 4D"}, declarer=0, players=3)
    assert end["round_scores"] == [-1, 12, 16] and end["scores"] == [-1, 12, 16]


def test_end_limit_option_and_default() -> None:
    """CRISP-END-1: default 100; the limit is a table option."""
    assert new(2, None).options["end_limit"] == 100
    end = one_round({0: "AS AH 2D", 1: "5H 3H 4H", 2: "9D 3D 4D"}, declarer=0, end_limit=16)
    assert end["scores"] == [-1, 12, 16]


@pytest.mark.parametrize(("limit", "over"), [(15, True), (16, True), (17, False)])
def test_game_ends_when_a_score_reaches_the_limit(limit: int, over: bool) -> None:
    """CRISP-END-2 (CRISP-AMB-16): ≥ the limit ends the game; otherwise a new round."""
    g = new(3, round_deck(3, 0, {0: "AS AH 2D", 1: "5H 3H 4H", 2: "9D 3D 4D"}), dealer=0, end_limit=limit)
    ev = simple_round(g, 0)
    assert g.is_over is over and bool(of(ev, "game_end")) is over and (g.round_no == 1) is over
    assert g.view(None)["last_round"]["round_scores"] == [-1, 12, 16]


def test_shared_win() -> None:
    """CRISP-END-3: lowest cumulative wins; ties share, no tie-break."""
    g = new(3, round_deck(3, 0, {0: "9C 5C 2C", 1: "5H 3H 4H", 2: "7D 3D 2D"}), dealer=0, end_limit=10)
    simple_round(g, 2)
    assert g.scores == [16, 12, 17] and g.winners == [1]
    g = new(3, round_deck(3, 0, {0: "9C 5C 2C", 1: "5H 3H 4H", 2: "7D 3D 2D"}), dealer=0, end_limit=10)
    ev = simple_round(g, 1)
    assert g.scores == [16, 17, 12] and g.winners == [2]
    assert of(ev, "game_end")[0]["winners"] == g.winners
    g = new(3, round_deck(3, 0, {0: "9C 5C 2C", 1: "6H 4H 2H", 2: "5D 4D 3D"}), dealer=0, end_limit=10)
    ev = simple_round(g, 0)
    assert g.scores == [21, 12, 12] and g.winners == [1, 2]
