"""Crisp set-up, deal, peeks and card values (rules/crisp.md §1–§3)."""

from __future__ import annotations

from collections import Counter

import pytest

import feltroom
from feltroom.cards import NAMES, parse_cards
from feltroom.games.crisp import VALUE, hand_total

from .crisp_helpers import deal_deck, hands, new, of, simple_round, std


@pytest.mark.parametrize("players", range(2, 9))
def test_two_to_eight_players(players: int) -> None:
    """CRISP-SETUP-1."""
    g = feltroom.new_game("crisp", players=players, seed=players)
    assert len(g.view(None)["scores"]) == players


@pytest.mark.parametrize("players", [0, 1, 9, 10, "3", 2.0])
def test_other_player_counts_are_refused(players: object) -> None:
    """CRISP-SETUP-1."""
    with pytest.raises(ValueError, match="2–8"):
        feltroom.new_game("crisp", players=players, seed=1)  # type: ignore[arg-type]


def test_one_52_card_deck_reshuffled_every_round() -> None:
    """CRISP-SETUP-2: 52 distinct cards, no jokers; every round deals from all 52, shuffled again."""
    g = new(4, None, seed=11, end_limit=1000)
    assert sorted(g.audit_cards()) == list(range(52)) and g.pack() == tuple(range(52))
    first = [list(h) for h in g.hands]
    simple_round(g, declarer=1)
    assert g.round_no == 2 and sorted(g.audit_cards()) == list(range(52))
    assert g.discard == [] and len(g.deck) == 52 - 12 and g.kings == []  # CRISP-DEAL-5 again
    assert [list(h) for h in g.hands] != first  # a fresh shuffle, not the old deck order
    decks = {tuple(new(4, None, seed=s).hands[0]) for s in range(20)}
    assert len(decks) == 20


def test_lowest_cumulative_score_wins() -> None:
    """CRISP-SETUP-3, CRISP-END-3."""
    g = new(3, deal_deck(3, 0, {1: "AS 2S 3S", 2: "10S 10H 10D", 0: "5S 5H 5D"}, "4C 4D 4H"), end_limit=20)
    simple_round(g, declarer=1)
    assert g.is_over and g.scores == [15, 1, 30] and g.winners == [1]


def test_first_dealer_is_an_option_or_chosen_by_the_seeded_rng() -> None:
    """CRISP-DEAL-1 (CRISP-AMB-1): the option fixes the dealer; null picks uniformly with the seeded RNG."""
    for d in range(5):
        g = new(5, None, dealer=d)
        assert g.dealer == d and of(g.log, "round_start")[0]["dealer"] == d
    dealers = Counter(feltroom.new_game("crisp", players=4, seed=s).view(None)["dealer"] for s in range(400))
    assert set(dealers) == {0, 1, 2, 3} and min(dealers.values()) > 60
    same = [feltroom.new_game("crisp", players=4, seed=9).view(None)["dealer"] for _ in range(3)]
    assert len(set(same)) == 1


def test_the_dealer_moves_left_each_round() -> None:
    """CRISP-DEAL-2, CRISP-DEAL-7."""
    g = new(4, None, dealer=3, end_limit=1000, seed=3)
    seen = []
    for _ in range(5):
        seen.append((g.dealer, g.turn))
        simple_round(g, declarer=g.turn)
    assert seen == [(3, 0), (0, 1), (1, 2), (2, 3), (3, 0)]


@pytest.mark.parametrize(("players", "dealer"), [(2, 0), (2, 1), (5, 3), (8, 7)])
def test_deal_three_passes_from_the_dealers_left_into_l_c_r(players: int, dealer: int) -> None:
    """CRISP-DEAL-3, CRISP-DEAL-4, CRISP-DEAL-5."""
    top = [NAMES[c] for c in range(3 * players + 2)]
    g = new(players, top, dealer=dealer)
    k = 0
    for slot in range(3):
        for i in range(1, players + 1):
            seat = (dealer + i) % players
            assert NAMES[g.hands[seat][slot]] == top[k]
            k += 1
    assert [NAMES[c] for c in reversed(g.deck[-2:])] == top[-2:]
    assert len(g.deck) == 52 - 3 * players and g.discard == [] and g.view(0)["discard_top"] is None


@pytest.mark.parametrize("players", [2, 4, 8])
def test_each_player_peeks_at_l_and_r_every_round_and_never_c(players: int) -> None:
    """CRISP-DEAL-6 (CRISP-AMB-4): automatic reveals at every deal; no one waits for them."""
    g = new(players, None, seed=players, end_limit=1000)
    for _ in range(2):
        start = max(i for i, e in enumerate(g.log) if e["type"] == "round_start")
        reveals = [e for e in g.log[start:] if e["type"] == "reveal"]
        assert len(reveals) == 2 * players
        for e in reveals:
            s = e["seat"]
            assert e["to"] == [s] and e["why"] == "deal" and e["slot"] in ("L", "R")
            assert e["cards"] == [NAMES[g.hands[s][0 if e["slot"] == "L" else 2]]]
        assert g.to_act == ((g.dealer + 1) % players,)
        simple_round(g, declarer=g.turn)


@pytest.mark.parametrize(("card", "value"), [
    ("AS", 1), ("2H", 2), ("5D", 5), ("9C", 9), ("10S", 10), ("JH", 10), ("QD", 10), ("KC", 10),
])
def test_card_values(card: str, value: int) -> None:
    """CRISP-VAL-1, CRISP-VAL-2: every J/Q/K in a slot counts 10."""
    assert VALUE[parse_cards(card)[0]] == value


def test_hand_total_is_the_sum_of_the_three_slots() -> None:
    """CRISP-VAL-3 and CRISP-VAL-2 (a dealt King counts 10)."""
    assert hand_total(parse_cards("AS KD 9C")) == 20
    g = new(2, deal_deck(2, 0, {1: "KS QS JS", 0: "AS AH 2D"}, ""))
    assert g.totals() == [4, 30] and hands(g) == ["AS/AH/2D", "KS/QS/JS"]


def test_std_helper_is_sane() -> None:
    g = std(8, "KS QS")
    assert all(hand_total(h) < 30 for h in g.hands) and [NAMES[c] for c in reversed(g.deck[-2:])] == ["KS", "QS"]
