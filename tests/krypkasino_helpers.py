"""Stacked decks for Krypkasino tests: write hands and tables, get the deck (KRYP-DEAL-3 order)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import feltroom
from feltroom.cards import NAMES, parse_card
from feltroom.games.krypkasino import INITIAL, Krypkasino

#: Cards used to fill hands the test does not care about (a seat that never acts).
FILLER = [f"{r}{s}" for r in ("8", "9", "7", "6", "10", "4", "3", "5", "2") for s in "CDHS"] * 2


def initial_deck(players: int, dealer: int, hands: Mapping[int, Sequence[str]], table: Sequence[str],
                 packets: Sequence[Mapping[int, Sequence[str]]] = ()) -> list[str]:
    """The top of the deck that deals ``hands`` (seat → cards) and lays ``table``, then the later
    ``packets`` (seat → 4 cards). Seats missing from ``hands`` get filler cards."""
    first, second, size = INITIAL[players]
    assert len(table) == size, f"the table has {size} cards with {players} players"
    used = Counter(parse_card(c) for h in hands.values() for c in h)
    used.update(parse_card(c) for c in table)
    for p in packets:
        used.update(parse_card(c) for h in p.values() for c in h)
    full: dict[int, list[str]] = {}
    spare = iter(FILLER)
    for seat in range(players):
        if seat in hands:
            full[seat] = list(hands[seat])
            assert len(full[seat]) == first + second, f"P{seat} needs {first + second} cards"
        else:
            cards: list[str] = []
            while len(cards) < first + second:
                c = next(spare)
                if used[parse_card(c)] < 2:
                    used[parse_card(c)] += 1
                    cards.append(c)
            full[seat] = cards
    order = [(dealer + i) % players for i in range(1, players + 1)]
    deck = [c for s in order for c in full[s][:first]]
    deck += [c for s in order for c in full[s][first:]]
    deck += list(table)
    for p in packets:
        deck += [c for s in order for c in p[s][:2]]
        deck += [c for s in order for c in p[s][2:]]
    return deck


def game(players: int, dealer: int, hands: Mapping[int, Sequence[str]], table: Sequence[str],
         packets: Sequence[Mapping[int, Sequence[str]]] = (), **options: Any) -> Krypkasino:
    deck = initial_deck(players, dealer, hands, table, packets)
    g = feltroom.new_game("krypkasino", players=players, seed=0, options={"first_dealer": dealer, **options},
                          deck=deck)
    assert isinstance(g, Krypkasino)
    return g


def play(g: feltroom.Game, seat: int, action: str) -> dict[str, Any]:
    """Apply a play and return its ``play`` event."""
    events = g.apply(seat, action)
    return next(e for e in events if e["type"] == "play")


def sweep_of(events: list[dict[str, Any]]) -> dict[str, Any] | None:
    return next((e for e in events if e["type"] == "sweep"), None)


# ---------------------------------------------------------------------------- whole scripted deals


class Script:
    """A 2-player deal (dealer P0, so P1 leads every packet) written play by play.

    Each packet is a list of ``(seat, card)`` plays; a seat's hand in that packet is the cards
    it plays. ``deck`` is the stacked deck that deals exactly those hands.
    """

    def __init__(self, table: Sequence[str]) -> None:
        self.table = list(table)
        self.packets: list[list[tuple[int, str]]] = []
        self.pool = Counter({c: 2 for c in range(52)})
        self.take(*table)

    def take(self, *cards: str) -> None:
        for c in cards:
            card = parse_card(c)
            assert self.pool[card] > 0, f"no {c} left"
            self.pool[card] -= 1

    def reserve(self, *cards: str) -> None:
        self.take(*cards)

    def card(self, rank: int, avoid_suit: int | None = None) -> str:
        """A free card of ``rank`` (0 = ace), preferring a suit other than ``avoid_suit``."""
        cands = [rank * 4 + s for s in range(4) if self.pool[rank * 4 + s] > 0]
        assert cands, f"no card of rank {rank + 1} left"
        cands.sort(key=lambda c: (c & 3) == avoid_suit)
        self.pool[cands[0]] -= 1
        return NAMES[cands[0]]

    def pair(self) -> list[tuple[int, str]]:
        """P1 trails a number card; P0 sweeps it with a card of the same rank."""
        for rank in range(12, 0, -1):  # 2s last: the ace packets need them
            if sum(self.pool[rank * 4 + s] for s in range(4)) >= 2:
                x = self.card(rank)
                y = self.card(rank, avoid_suit=parse_card(x) & 3)
                return [(1, x), (0, y)]
        raise AssertionError("no pair left")

    def pairs_packet(self, k: int = 4) -> None:
        self.packets.append([p for _ in range(k) for p in self.pair()])

    def ace_packet(self) -> None:
        """Aces cannot be taken alone: two are trailed and a 2 takes both (P1, then P0), then a pair."""
        plays = [(1, self.card(0)), (0, self.card(0)), (1, self.card(1)),
                 (0, self.card(0)), (1, self.card(0)), (0, self.card(1))]
        self.packets.append(plays + self.pair())

    def add(self, plays: Sequence[tuple[int, str]]) -> None:
        self.take(*(c for _, c in plays))
        self.packets.append(list(plays))

    @property
    def deck(self) -> list[str]:
        hands = [{s: [c for t, c in p if t == s] for s in (0, 1)} for p in self.packets]
        return initial_deck(2, 0, hands[0], self.table, hands[1:])

    def game(self, **options: Any) -> Krypkasino:
        g = feltroom.new_game("krypkasino", players=2, seed=0, options={"first_dealer": 0, **options},
                              deck=self.deck)
        assert isinstance(g, Krypkasino)
        return g

    def run(self, g: feltroom.Game, packets: int) -> None:
        """Play the first ``packets`` packets as written (each play must be legal)."""
        for plays in self.packets[:packets]:
            for seat, card in plays:
                assert g.to_act == (seat,), (g.to_act, seat, card)
                g.apply(seat, "play " + card)
