"""Cards: canonical form, card order and the lenient input forms of notation.md §1."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from feltroom.cards import (
    DECK,
    DOUBLE_DECK,
    NAMES,
    Card,
    Rank,
    Suit,
    card_list,
    card_str,
    cards_str,
    make_card,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)


def test_canonical_names_are_rank_then_suit() -> None:
    assert len(NAMES) == 52 == len(set(NAMES))
    assert card_str(make_card(10, Suit.HEARTS)) == "10H"
    assert card_str(make_card(1, Suit.SPADES)) == "AS"
    assert card_str(make_card(12, Suit.CLUBS)) == "QC"
    assert card_str(make_card(2, Suit.DIAMONDS)) == "2D"


def test_card_order_is_rank_then_suit_s_h_d_c() -> None:
    cards = parse_cards("JS 10D 2C AS 10H")
    assert cards_str(sorted(cards)) == "AS 2C 10H 10D JS"
    assert card_list(cards) == ["AS", "2C", "10H", "10D", "JS"]


@pytest.mark.parametrize(("text", "canonical"), [
    ("qs", "QS"), ("Qs", "QS"), ("aH", "AH"), ("TH", "10H"), ("td", "10D"),
    ("10♥", "10H"), ("A♠️", "AS"), ("k♧", "KC"), ("2♢", "2D"), ("J♤", "JS"), ("9♡", "9H"), ("5♣", "5C"),
])
def test_lenient_input_forms(text: str, canonical: str) -> None:
    assert card_str(parse_card(text)) == canonical


@pytest.mark.parametrize("text", ["1", "0", "11", "1O", "H10", "SA", "10 H", "JOKER", "", "1H", "0S", "11H", "AX"])
def test_rejected_forms(text: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        parse_card(text)


@given(st.sampled_from(DECK))
def test_every_card_round_trips(card: int) -> None:
    assert parse_card(card_str(card)) == card
    assert parse_card(card_str(card).lower()) == card
    assert make_card(rank_of(card), suit_of(card)) == card


def test_card_object() -> None:
    card = Card.parse("t♦")
    assert str(card) == "10D" and card.rank is Rank.TEN and card.suit is Suit.DIAMONDS
    assert card.suit.red and not Card.parse("AC").suit.red
    assert str(Rank.ACE) == "A" and str(Suit.CLUBS) == "C"


def test_double_deck_is_a_multiset() -> None:
    assert len(DOUBLE_DECK) == 104 and sorted(set(DOUBLE_DECK)) == list(DECK)
