"""Krypkasino invariants over many random games, and the shared conformance check."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import feltroom
from feltroom import CLOCK
from feltroom.games.krypkasino import POINTS, Krypkasino

from .conformance import check_random_game

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestDeprecationWarning")

PACK = sorted(feltroom.cards.DOUBLE_DECK)


def play_match(players: int, seed: int, rounds: int = 1) -> Krypkasino:
    """A random match; after every action all 104 cards are somewhere (KRYP-PACKET-5)."""
    g = feltroom.new_game("krypkasino", players=players, seed=seed, options={"dealer_rounds": rounds})
    assert isinstance(g, Krypkasino)
    rng = random.Random(seed)
    while not g.is_over:
        seat = g.to_act[0]
        legal = g.legal_actions(seat)
        g.apply(seat, legal[rng.randrange(len(legal))])
        assert sorted(g.audit_cards()) == PACK
    return g


@pytest.mark.slow
@settings(max_examples=250, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**40))
def test_every_deal_keeps_42_and_all_104_cards(players: int, seed: int) -> None:
    """KRYP-SCORE-2, KRYP-SCORE-4, KRYP-SCORE-5, KRYP-PACKET-5, KRYP-MATCH-3, KRYP-SCN-19:
    card points total 42 and transfers 0 in every deal, and totals sum to 42 × deals."""
    g = play_match(players, seed)
    ends = [e for e in g.log if e["type"] == "deal_end"]
    assert len(ends) == players
    sweeps = [e for e in g.log if e["type"] in ("sweep", "deal_end")]
    balance = [0] * players
    for e in sweeps:
        if e["type"] == "sweep":
            balance[e["seat"]] += e["points"]
            balance[e["previous"]] -= e["points"]
            assert e["previous"] == (e["seat"] - 1) % players and e["points"] == (10 if e["double"] else 5)
        else:
            assert e["transfers"] == balance and sum(balance) == 0
            assert sum(e["card_points"]) == 42
            assert e["deal_scores"] == [p + t for p, t in zip(e["card_points"], balance, strict=True)]
            balance = [0] * players
    assert sum(g.scores) == 42 * players
    assert g.winners == [s for s in range(players) if g.scores[s] == min(g.scores)]


@pytest.mark.slow
def test_thousands_of_deals() -> None:
    """KRYP-SCORE-2, KRYP-PACKET-5 over 1,000 more matches, 4,000 deals (plain loop: quicker than hypothesis)."""
    deals = 0
    for seed in range(1000):
        players = 2 + seed % 5
        g = play_match(players, 10_000 + seed)
        for e in g.log:
            if e["type"] == "deal_end":
                assert sum(e["card_points"]) == 42 and sum(e["transfers"]) == 0
                deals += 1
        piles = [sum(POINTS[c] for c in p) for p in g.piles]
        assert piles == g.card_points
    assert deals == 4000


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_conformance_defaults(players: int) -> None:
    """The shared contract (tests/conformance.py) for every player count (KRYP-SETUP-1)."""
    check_random_game("krypkasino", players, seed=players)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_conformance_with_turn_time_and_rounds(players: int) -> None:
    """The contract with turn_time (CLOCK timeouts mixed in, KRYP-ONL-1/2) and a fixed first dealer."""
    opts = {"turn_time": [30, 45, 60][players % 3], "first_dealer": players - 1}
    check_random_game("krypkasino", players, seed=100 + players, options=opts)


def test_conformance_two_rounds() -> None:
    check_random_game("krypkasino", 2, seed=7, options={"dealer_rounds": 2, "turn_time": 30})


def test_replay_is_exact() -> None:
    g = play_match(3, 77)
    again = feltroom.replay(g.record)
    assert again.scores == g.scores and list(again.log) == list(g.log)
    assert again.legal_actions(CLOCK) == [] and again.is_over
