"""Cribbage knowledge sampling (feltroom.games.cribbage_knowledge, issue #15): samples agree with
what the seat saw, never depend on what it could not, and place the unknown cards uniformly."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import feltroom
from feltroom.cards import parse_card
from feltroom.game import Game
from feltroom.knowledge import Knowledge, sample_state, tracker
from feltroom.views import events_for

from .cribbage_helpers import discard, new, play
from .knowledge_checks import check_sample, chi_square, chi_square_limit, follow_and_sample, placements


def test_samples_agree_with_the_seat() -> None:
    """CRIB-INFO-1..4: every sample shows the seat its real view, legal actions and events, and plays on."""
    assert follow_and_sample("cribbage", 2, seed=22, options={"target": 61}) > 20


@pytest.mark.slow
@pytest.mark.parametrize(("players", "options"), [
    (2, {"target": 121}), (2, {"counting": "automatic"}), (3, {}), (4, {"teams": "2x2"}),
])
def test_samples_agree_over_whole_games(players: int, options: dict[str, object]) -> None:
    """CRIB-INFO-1..4 over several hands: the scores, the dealer and the last hand carry over."""
    assert follow_and_sample("cribbage", players, seed=players * 11, options={"target": 61, **options}) > 20


@pytest.mark.slow
@pytest.mark.parametrize(("players", "options"), [
    (5, {}), (6, {"teams": "3x2"}), (2, {"turn_time": 30}), (3, {"turn_time": 30, "counting": "automatic"}),
    (6, {"turn_time": 30}),
])
def test_samples_agree_at_every_count_and_with_the_clock(players: int, options: dict[str, object]) -> None:
    """CRIB-ONL-2/3: the clock's discards and plays are covered too (timeouts now and then)."""
    assert follow_and_sample("cribbage", players, seed=players, options={"target": 61, **options},
                             clock_rate=0.05) > 20


def _seat0(game: Game) -> Knowledge:
    know = tracker("cribbage", 0, 2)
    know.observe(events_for(game.log, 0))
    know.see(game.view(0))
    return know


def _hidden_state(game: Game) -> tuple[object, ...]:
    return (game.view(1)["hand"], game.view(1)["discards"], sorted(game.audit_cards()), game.audit_cards())


def test_hidden_cards_do_not_change_the_samples() -> None:
    """Two deals that differ only in P1's cards and the starter, followed by P0, give equal samples."""
    a = new(2, {0: "AS 2S 3S 4S 5S 6S", 1: "7H 8H 9H 10H JH QH"}, "KD", dealer=1)
    b = new(2, {0: "AS 2S 3S 4S 5S 6S", 1: "7C 8C 9C 10D JD QD"}, "KC", dealer=1)
    for game in (a, b):
        discard(game, {1: game.legal_actions(1)[0].split(" ", 1)[1]})
    assert events_for(a.log, 0) == events_for(b.log, 0) and a.view(0) == b.view(0)
    for seed in range(20):
        x = sample_state("cribbage", 2, a.options, _seat0(a), random.Random(seed))
        y = sample_state("cribbage", 2, b.options, _seat0(b), random.Random(seed))
        assert _hidden_state(x) == _hidden_state(y)
        assert x.view(0) == a.view(0)


def test_hidden_cards_are_placed_uniformly() -> None:
    """Before any play, each of the 46 unseen cards is in P1's hand 6/46 of the time (chi-square, p = 0.001)."""
    game = feltroom.new_game("cribbage", players=2, seed=3, options={"first_dealer": 1})
    know = tracker("cribbage", 0, 2)
    know.observe(events_for(game.log, 0))
    know.see(game.view(0))
    rng = random.Random(2026)
    n = 3000
    counts = placements((know.sample(rng) for _ in range(n)), lambda s: s.hands[1])  # type: ignore[attr-defined]
    unseen = [c for c in range(52) if c not in {parse_card(x) for x in game.view(0)["hand"]}]
    assert set(counts) == set(unseen)
    expected = {c: n * 6 / 46 for c in unseen}
    assert chi_square(counts, expected) < chi_square_limit(len(unseen))


def test_a_go_tells_the_seat_the_others_cards_are_high() -> None:
    """CRIB-PEG-3: P1 said go at 24, so its unplayed cards are all worth 8 or more; among
    those, each possible card is equally likely (chi-square, p = 0.001)."""
    game = new(2, {0: "10S JS 4H 5C 6D 7D", 1: "KH QC 9C 8H 2D AD"}, "3S", dealer=1)
    discard(game, {0: "6D 7D", 1: "2D AD"})
    play(game, "0:10S 1:KH 0:4H")  # 24: P1 holds QC 9C 8H, none fits
    assert [e["seat"] for e in game.log if e["type"] == "go"] == [1]
    know = tracker("cribbage", 0, 2)
    know.observe(events_for(game.log, 0))
    know.see(game.view(0))
    rng = random.Random(7)
    n = 2000
    samples = [know.sample(rng) for _ in range(n)]
    for s in samples[:50]:
        check_sample(game, 0, s)
    counts = placements(samples, lambda s: s.hands[1])  # type: ignore[attr-defined]
    known = {parse_card(c) for c in ["10S", "JS", "4H", "5C", "6D", "7D", "KH", "3S"]}
    allowed = [c for c in range(52) if c not in known and c // 4 + 1 >= 8]
    assert set(counts) == set(allowed)
    expected = {c: n * 3 / len(allowed) for c in allowed}
    assert chi_square(counts, expected) < chi_square_limit(len(allowed))
    assert Counter(len(s.hands[1]) for s in samples) == {3: n}  # type: ignore[attr-defined]
