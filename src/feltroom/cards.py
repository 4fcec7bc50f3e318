"""Cards as small ints, and their canonical notation (notation.md §1).

A card is ``rank_index * 4 + suit_index`` with ranks ``A 2 … 10 J Q K`` (0–12) and
suits ``S H D C`` (0–3), so sorting ints sorts in card order (notation.md §1.1).
Double decks hold each id twice: no copy index ever leaves the engine.

>>> parse_card("t♥")
37
>>> card_str(37)
'10H'
>>> cards_str(sorted(parse_cards("JS 10d 2C as")))
'AS 2C 10D JS'
>>> Card.parse("qs")
Card('QS')
>>> Card.parse("QS").rank, Card.parse("QS").suit
(<Rank.QUEEN: 12>, <Suit.SPADES: 0>)
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable

RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_NAMES = ("S", "H", "D", "C")


class Rank(enum.IntEnum):
    """Rank by its natural number: ACE = 1 … KING = 13."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    def __str__(self) -> str:
        return RANK_NAMES[self - 1]


class Suit(enum.IntEnum):
    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    def __str__(self) -> str:
        return SUIT_NAMES[self]

    @property
    def red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


#: Canonical name of every card id 0–51.
NAMES: tuple[str, ...] = tuple(r + s for r in RANK_NAMES for s in SUIT_NAMES)
_BY_NAME: dict[str, int] = {name: i for i, name in enumerate(NAMES)}

#: The 52 ids of one deck, in card order.
DECK: tuple[int, ...] = tuple(range(52))
#: The 104 ids of two identical decks.
DOUBLE_DECK: tuple[int, ...] = DECK + DECK

_SUIT_SYMBOLS = {"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C"}
_LENIENT = re.compile(r"(A|[2-9]|10|T|J|Q|K)([SHDC])")


def rank_of(card: int) -> int:
    """The rank number 1–13 of a card id."""
    return card // 4 + 1


def suit_of(card: int) -> int:
    """The suit index 0–3 (S H D C) of a card id."""
    return card & 3


def make_card(rank: int, suit: int) -> int:
    """The id of the card of rank 1–13 and suit 0–3."""
    return (rank - 1) * 4 + suit


def card_str(card: int) -> str:
    return NAMES[card]


def cards_str(cards: Iterable[int]) -> str:
    return " ".join(NAMES[c] for c in cards)


def card_list(cards: Iterable[int]) -> list[str]:
    """Canonical names of ``cards`` in card order (every list the engine writes)."""
    return [NAMES[c] for c in sorted(cards)]


class _CardIds(dict[str, int]):
    """Card ids by name: the canonical names at once, any other spelling through ``parse_card``."""

    def __missing__(self, text: str) -> int:
        return parse_card(text)


#: ``CARD_IDS[name]``: ``parse_card(name)`` without a call for a canonical name (bots in playouts read many).
CARD_IDS: dict[str, int] = _CardIds(_BY_NAME)


def parse_card(text: str) -> int:
    """Parse one card leniently (notation.md §1.2); raise ``ValueError`` if it is not one.

    >>> [card_str(parse_card(s)) for s in ("qs", "TH", "A♠️", "k♧")]
    ['QS', '10H', 'AS', 'KC']
    >>> parse_card("H10")
    Traceback (most recent call last):
    ...
    ValueError: not a card: 'H10' (write rank then suit, e.g. 10H, QS, A♠)
    """
    card = _BY_NAME.get(text)
    if card is not None:
        return card
    norm = text.replace("\ufe0f", "")
    if norm and norm[-1] in _SUIT_SYMBOLS:
        norm = norm[:-1] + _SUIT_SYMBOLS[norm[-1]]
    match = _LENIENT.fullmatch(norm.upper())
    if match is None:
        raise ValueError(f"not a card: {text!r} (write rank then suit, e.g. 10H, QS, A♠)")
    rank = "10" if match[1] == "T" else match[1]
    return _BY_NAME[rank + match[2]]


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Parse a whitespace-separated string, or a list of strings, into card ids."""
    parts = text.split() if isinstance(text, str) else list(text)
    return [parse_card(p) for p in parts]


class Card(int):
    """A card id with a friendly face: ``Card.parse("10h")``, ``str(card)``, ``card.rank``."""

    __slots__ = ()

    @classmethod
    def parse(cls, text: str) -> Card:
        return cls(parse_card(text))

    @property
    def rank(self) -> Rank:
        return Rank(rank_of(self))

    @property
    def suit(self) -> Suit:
        return Suit(suit_of(self))

    def __str__(self) -> str:
        return NAMES[self]

    def __repr__(self) -> str:
        return f"Card({NAMES[self]!r})"
