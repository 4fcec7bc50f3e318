"""Krypkasino knowledge sampling (feltroom.games.krypkasino_knowledge, issue #15): samples agree with
what the seat saw, never depend on what it could not, and place the unknown cards uniformly."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from feltroom.cards import DOUBLE_DECK, parse_card
from feltroom.game import Game
from feltroom.games.krypkasino_knowledge import sweep_values
from feltroom.knowledge import Knowledge, sample_state, tracker
from feltroom.views import events_for

from .knowledge_checks import check_sample, chi_square, chi_square_limit, follow_and_sample, placements
from .krypkasino_helpers import game as stacked_game


def test_samples_agree_with_the_seat() -> None:
    """KRYP-CONV-3: every sample shows the seat its real view, legal actions and events, and plays on."""
    assert follow_and_sample("krypkasino", 2, seed=5, play_on_every=40) > 90


@pytest.mark.slow
@pytest.mark.parametrize(("players", "options"), [
    (2, {"dealer_rounds": 2}), (3, {}), (4, {"turn_time": 30}), (5, {}), (6, {"turn_time": 30}),
])
def test_samples_agree_over_whole_matches(players: int, options: dict[str, object]) -> None:
    """KRYP-MATCH-1, KRYP-ONL-2: deals carry over, and the clock's plays are covered."""
    assert follow_and_sample("krypkasino", players, seed=players, options=options, clock_rate=0.05,
                             play_on_every=60) > 90


def _seat0(game: Game) -> Knowledge:
    know = tracker("krypkasino", 0, game.players)
    know.observe(events_for(game.log, 0))
    know.see(game.view(0))
    return know


HAND0 = ["2C", "3D", "5H", "7S", "9C", "10H"]
TABLE = ["4C", "6D", "8H", "JS"]


def test_hidden_cards_do_not_change_the_samples() -> None:
    """Two deals that differ only in P1's hand and the stock, followed by P0, give equal samples."""
    a = stacked_game(2, 1, {0: HAND0, 1: ["AH", "AD", "KC", "KD", "QH", "QD"]}, TABLE)
    b = stacked_game(2, 1, {0: HAND0, 1: ["2H", "3H", "4H", "5D", "6C", "7C"]}, TABLE)
    assert events_for(a.log, 0) == events_for(b.log, 0) and a.view(0) == b.view(0)
    for seed in range(20):
        x = sample_state("krypkasino", 2, a.options, _seat0(a), random.Random(seed))
        y = sample_state("krypkasino", 2, b.options, _seat0(b), random.Random(seed))
        assert x.audit_cards() == y.audit_cards() and x.view(1) == y.view(1)
        check_sample(a, 0, x)


def test_hidden_cards_are_placed_uniformly() -> None:
    """At the first turn, each unseen physical card is in P1's hand 6/94 of the time (chi-square, p = 0.001)."""
    g = stacked_game(2, 1, {0: HAND0}, ["4C", "6D", "8H", "9S"])
    know = _seat0(g)
    rng = random.Random(2026)
    n = 3000
    counts = placements((know.sample(rng) for _ in range(n)), lambda s: s.hands[1])  # type: ignore[attr-defined]
    left = Counter(DOUBLE_DECK)
    left.subtract(parse_card(c) for c in [*HAND0, "4C", "6D", "8H", "9S"])
    assert set(counts) == set(+left)
    expected = {c: n * k * 6 / 94 for c, k in left.items() if k}
    assert chi_square(counts, expected) < chi_square_limit(len(expected))


def test_a_refused_sweep_tells_the_seat_what_the_other_lacks() -> None:
    """KRYP-SWEEP-2: P1 trailed while a 10 would have swept 4C 6D (a compulsory sweep), so it holds
    no 10: no sample gives it one, and the cards it may hold are placed uniformly (chi-square)."""
    g = stacked_game(2, 0, {0: HAND0, 1: ["2D", "3S", "5C", "7H", "9H", "KD"]}, ["4C", "6D", "QH", "KH"])
    assert sweep_values([parse_card("4C"), parse_card("6D")]) == {10}
    g.apply(1, "play 9H")  # trails: a sweep by 10 was on the table, so P1 holds no 10
    know = _seat0(g)
    rng = random.Random(3)
    samples = [know.sample(rng) for _ in range(1500)]
    for s in samples[:30]:
        check_sample(g, 0, s)
    counts = placements(samples, lambda s: s.hands[1])  # type: ignore[attr-defined]
    assert not [c for c in counts if c // 4 + 1 == 10]
    left = Counter(DOUBLE_DECK)
    left.subtract(parse_card(c) for c in [*HAND0, "4C", "6D", "9H", "QH", "KH"])
    allowed = {c: k for c, k in left.items() if k and c // 4 + 1 != 10}
    expected = {c: 1500 * k * 5 / sum(allowed.values()) for c, k in allowed.items()}
    assert chi_square(counts, expected) < chi_square_limit(len(expected))
