"""Stacked-deck helpers for the Cribbage tests."""

from __future__ import annotations

import json
from typing import Any

from feltroom.cards import parse_card
from feltroom.game import Event
from feltroom.games.cribbage import Cribbage, _deal_pattern


def stacked_deck(players: int, dealer: int, dealt: dict[int, str], starter: str,
                 crib_card: str | None = None) -> list[str]:
    """The deck (top first) that deals ``dealt[seat]`` (in order) to each seat, then the
    3-player crib card, then ``starter`` (CRIB-DEAL-1..4, CRIB-START-1)."""
    queues = {s: cards.split() for s, cards in dealt.items()}
    deck = [queues[s].pop(0) for s in _deal_pattern(players, dealer)]
    assert all(not q for q in queues.values()), "dealt hands have the wrong sizes"
    if players == 3:
        assert crib_card is not None
        deck.append(crib_card)
    deck.append(starter)
    assert len(set(deck)) == len(deck)
    return deck


def new(players: int, dealt: dict[int, str], starter: str, *, dealer: int = 0, crib_card: str | None = None,
        **options: Any) -> Cribbage:
    opts = {"first_dealer": dealer, "counting": "automatic", **options}
    return Cribbage(players, seed=7, options=opts, deck=stacked_deck(players, dealer, dealt, starter, crib_card))


def discard(game: Cribbage, discards: dict[int, str]) -> None:
    for seat, cards in discards.items():
        game.apply(seat, f"discard {cards}")


def play(game: Cribbage, moves: str) -> list[Event]:
    """Apply ``seat:card`` moves (e.g. ``"1:5C 0:4D"``), checking each is the seat on turn."""
    events: list[Event] = []
    for move in moves.split():
        seat, card = move.split(":")
        assert game.to_act == (int(seat),), f"{move}: to act is {game.to_act}"
        events += game.apply(int(seat), f"play {card}")
    return events


def play_points(events: list[Event], players: int) -> list[int]:
    pts = [0] * players
    for e in events:
        if e["type"] == "score" and e["reason"] == "play":
            pts[e["seat"]] += e["points"]
    return pts


def scores_by(events: list[Event], reason: str | None = None) -> list[tuple[int, int, str]]:
    return [(e["seat"], e["points"], e["reason"]) for e in events
            if e["type"] == "score" and (reason is None or e["reason"] == reason)]


def play_lowest(game: Cribbage) -> list[Event]:
    """Play the play out, each seat playing its lowest playable card."""
    events: list[Event] = []
    while game.phase == "play":
        seat = game.to_act[0]
        events += game.apply(seat, game.legal_actions(seat)[0])
    return events


def names_in(obj: Any) -> set[str]:
    """Every card name written anywhere in ``obj`` (lists and space-joined strings alike)."""
    text = json.dumps(obj)
    out = set()
    for token in text.replace('"', " ").replace(",", " ").replace("[", " ").replace("]", " ").split():
        try:
            parse_card(token)
        except ValueError:
            continue
        if token.upper() == token:
            out.add(token)
    return out
