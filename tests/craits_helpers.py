"""Helpers for the Craits tests: stacked deals and set positions.

Both build the pure-Python reference engine (``Craits(...)``, not ``new_game``, which may give
the compiled core): positions are set on its state directly.

``stacked`` builds a real deal from a stacked deck (``deck=``): the holdings are dealt one
card at a time from the dealer's left, then the upcard is turned and the stock follows.
Hands other than hand 1 are dealt through the engine's own ``_start_hand`` with the deck
list for that hand, after winding the hand counter back.

``position`` sets a mid-hand position that the scenario states directly ("Top 3H, P1 holds
…, stock …"): it starts from a stacked deal and then places the listed cards, keeping
every other card of the pack at the bottom of the stock (or dropping them with
``rest=False`` where a scenario's fixture holds only the cards shown).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from feltroom import CLOCK
from feltroom.cards import NAMES, parse_cards
from feltroom.game import Game
from feltroom.games.craits import Craits, hand_size

SUITS = {"S": 0, "H": 1, "D": 2, "C": 3}


def deck_for(players: int, dealer: int, hands: dict[int, str], upcard: str, stock: str = "",
             direction: int = 1) -> list[str]:
    """The stacked deck (top first) that deals ``hands``, turns ``upcard`` and leaves ``stock`` on top."""
    held = {s: parse_cards(c) for s, c in hands.items()}
    sizes = {len(c) for c in held.values()}
    assert len(sizes) == 1 and len(held) == players, "every seat gets the same number of cards"
    size = sizes.pop()
    order = [(dealer + direction * (i + 1)) % players for i in range(players)]
    deck = [held[s][k] for k in range(size) for s in order]
    deck += parse_cards(upcard) + parse_cards(stock)
    return [NAMES[c] for c in deck]


def stacked(players: int, dealer: int, hands: dict[int, str], upcard: str, stock: str = "",
            options: dict[str, Any] | None = None, seed: int = 1) -> Craits:
    """A game whose current hand was dealt from a stacked deck (the hand number from the hand size)."""
    size = len(parse_cards(next(iter(hands.values()))))
    hand = {8: 1, 7: 2, 6: 3, 5: 4, 4: 5, 3: 6, 2: 7, 1: 8}[size]
    deck = deck_for(players, dealer, hands, upcard, stock)
    opts = {"first_dealer": dealer, **(options or {})}
    if hand == 1:
        return Craits(players, seed=seed, options=opts, deck=deck)
    game = Craits(players, seed=seed, options=opts, deck=[[] for _ in range(hand - 1)] + [deck])
    game.hand_no = hand - 1
    game.dealer = (dealer - 1) % players  # _start_hand passes the deal to the left
    game.log.clear()
    game._start_hand()
    game._sync_timer()
    assert game.hand_no == hand and hand_size(hand) == size and game.dealer == dealer
    return game


def position(players: int, turn: int, hands: dict[int, str], top: str, stock: str = "",
             active: str | None = None, dealer: int = 0, options: dict[str, Any] | None = None,
             count: int = 0, direction: int = 1, rest: bool = True, hand_no: int = 1) -> Craits:
    """A mid-hand position: ``top`` is the discard pile bottom → top; ``stock`` is top first."""
    game = Craits(players, seed=1, options={"first_dealer": dealer, **(options or {})})
    held = [sorted(parse_cards(hands.get(s, ""))) for s in range(players)]
    discard = parse_cards(top)
    stock_top = parse_cards(stock)
    left = Counter(game.pack())
    for c in [*discard, *stock_top, *(c for h in held for c in h)]:
        left[c] -= 1
        assert left[c] >= 0, f"{NAMES[c]} used twice"
    bottom = sorted(left.elements()) if rest else []
    game.hands = held
    game.discard = discard
    game.stock = list(reversed(stock_top + bottom))
    game.active = SUITS[active] if active else discard[-1] & 3
    game.turn, game.phase, game.count, game.direction = turn, "play", count, direction
    game.six, game.run, game.hand_no = False, 0, hand_no
    game.log.clear()
    return game


def hand(game: Craits, seat: int) -> str:
    return " ".join(game.view(seat)["hand"])


def events(game: Game, start: int = 0, kind: str | None = None) -> list[dict[str, Any]]:
    return [e for e in game.log[start:] if kind is None or e["type"] == kind]


def play(game: Craits, seat: int | str, action: str) -> list[dict[str, Any]]:
    return game.apply(CLOCK if seat == CLOCK else seat, action)


def srt(cards: str) -> str:
    """``cards`` in card order (rank, then suit S H D C), as views write hands."""
    return " ".join(NAMES[c] for c in sorted(parse_cards(cards)))
