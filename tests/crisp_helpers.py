"""Helpers shared by the Crisp tests: stacked games, scripted play, event filters."""

from __future__ import annotations

from typing import Any

import feltroom
from feltroom import CLOCK
from feltroom.cards import NAMES
from feltroom.game import Event
from feltroom.games.crisp import Crisp


def new(players: int, deck: list[str] | list[list[str]] | str | None = None, dealer: int = 0, seed: int = 1,
        **options: Any) -> Crisp:
    """A Crisp game with ``first_dealer=dealer`` and a stacked first deal."""
    if isinstance(deck, str):
        deck = deck.split()
    game = feltroom.new_game("crisp", players=players, seed=seed, options={"first_dealer": dealer, **options},
                             deck=deck)
    assert isinstance(game, Crisp)
    return game


def deal_deck(players: int, dealer: int, hands: dict[int, str], rest: str) -> list[str]:
    """A stacked deck (top first) that deals ``hands`` (seat -> "L C R") and then has ``rest`` on top."""
    order = [(dealer + i) % players for i in range(1, players + 1)]
    cards = {s: h.split() for s, h in hands.items()}
    deck = [cards[s][slot] for slot in range(3) for s in order]
    return deck + rest.split()


def act(game: Crisp, *steps: str) -> list[Event]:
    """Apply steps written "SEAT action" (SEAT an int or CLOCK); return all their events."""
    events: list[Event] = []
    for step in steps:
        who, action = step.split(" ", 1)
        seat: Any = CLOCK if who == "CLOCK" else int(who)
        events += game.apply(seat, action)
    return events


def turn(game: Crisp, seat: int, *resolutions: str, decline: bool = True) -> list[Event]:
    """A whole turn: for each resolution, draw then resolve; then decline the window if one opened."""
    events: list[Event] = []
    for r in resolutions:
        draw = "draw discard" if r.startswith("!") else "draw"
        events += game.apply(seat, draw)
        events += game.apply(seat, r.lstrip("!"))
    if decline and seat in game.windows and not game.clock:
        events += game.apply(seat, "decline")
    return events


def hands(game: Crisp) -> list[str]:
    """Every hand as "L/C/R"."""
    return ["/".join(NAMES[c] for c in h) for h in game.hands]


def discard(game: Crisp) -> list[str]:
    return [NAMES[c] for c in game.discard]


def deck_top(game: Crisp, k: int = 1) -> list[str]:
    """The top ``k`` deck cards, top first."""
    return [NAMES[c] for c in reversed(game.deck[-k:])] if k else []


def of(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e["type"] == kind]


def strip(event: Event) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k not in ("type", "to")}


ALL = [NAMES[c] for c in range(52)]


def filler(used: list[str] | str, k: int | None = None, kings: bool = False) -> str:
    """Cards not in ``used``, in card order, without Kings unless asked: safe draw-and-discard fodder."""
    taken = set(used.split() if isinstance(used, str) else used)
    cards = [c for c in ALL if c not in taken and (kings or not c.startswith("K"))]
    return " ".join(cards if k is None else cards[:k])


def round_deck(players: int, dealer: int, hands_: dict[int, str], top: str = "") -> list[str]:
    """A stacked deal: ``hands_``, then ``top``, then every other non-King card (Kings last, shuffled)."""
    head = deal_deck(players, dealer, hands_, top)
    return head + filler(head).split()


def simple_round(game: Crisp, declarer: int | None) -> list[Event]:
    """Play the current round: everyone draws and discards; ``declarer`` declares after its first turn."""
    rnd = game.round_no
    events: list[Event] = []
    while game.round_no == rnd and not game.is_over:
        seat = game.turn
        if game.hold:
            events += game.apply(CLOCK, "release")
            continue
        while game.turn == seat and game.pending and not game.hold and game.round_no == rnd:
            events += game.apply(seat, "draw")
            events += game.apply(seat, "king" if game.legal_actions(seat) == ["king"] else "discard")
        if seat in game.windows:
            if seat == declarer and game.declarer is None:
                events += game.apply(seat, "crisp")
            else:
                events += game.apply(seat, "decline")
    return events


def std(players: int, top: str = "", dealer: int = 0, **options: Any) -> Crisp:
    """A game whose hands are low non-special cards and whose deck starts with ``top`` (then no Kings)."""
    pool = filler(top + " J Q").split()
    pool = [c for c in pool if c[0] not in "JQ"]
    hands_ = {s: " ".join(pool[3 * s: 3 * s + 3]) for s in range(players)}
    return new(players, round_deck(players, dealer, hands_, top), dealer=dealer, **options)
