"""What one Krypkasino seat knows, and deals drawn from it (``feltroom.knowledge``).

Every card a seat does not hold passes face up before it goes anywhere hidden: laid on the
table, played, taken (the ``play`` event names the taken cards before they go face down,
KRYP-CONV-3), awarded. So a seat that follows the events knows every capture pile card by
card, and what it cannot know is exactly the other hands and the stock. Those are placed
uniformly among the placements that fit what it saw:

- a seat that played a card that does not sweep, while a sweep was on the table, held no
  sweeping card (KRYP-SWEEP-2, a compulsory sweep), so the cards it still holds from that
  packet sweep nothing of that table either;
- a seat whose play the clock made (KRYP-ONL-2: the first legal play, i.e. the lowest card
  among the sweepers, or among the whole hand) held no lower such card.

Decided here: a sample is built directly in the present (the engine's fields set from the
seat's view and the tracked piles), with no replay; the stock's order is a uniform
shuffle of the cards left. Its log is the events this seat saw (``events_for(sample.log,
seat)`` equals them), its ``actions`` are empty and its seed is drawn from ``rng``, so its
record does not rebuild it (a sample is an imagined world, not a game to store).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import DOUBLE_DECK, parse_card
from ..game import Event, Game
from ..knowledge import Allowed, Knowledge, deal_hidden, register_knowledge, sample_seed
from .krypkasino import HAND_VALUE, Krypkasino, largest_size


def sweep_values(table: Sequence[int]) -> frozenset[int]:
    """Hand values (2–14) whose largest capture takes the whole non-empty ``table`` (KRYP-SWEEP-1)."""
    if not table:
        return frozenset()
    total = sum((c >> 2) + 1 for c in table)
    n = len(table)
    return frozenset(v for v in range(2, 15) if total % v == 0 and largest_size(v, table) == n)


@register_knowledge
class KrypkasinoKnowledge(Knowledge):
    """One seat's knowledge of a Krypkasino match: the events it saw and its latest view.

    ``see`` must be given the seat's current view before ``sample``.
    """

    game = "krypkasino"

    def __init__(self, seat: int, players: int, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(seat, players, options)
        self.log: list[Event] = []
        self.piles: list[list[int]] = [[] for _ in range(players)]
        self.table: list[int] = []
        #: this packet's plays by others: (seat, card, sweep values of the table before, by the clock)
        self.plays: list[tuple[int, int, frozenset[int], bool]] = []
        self.clock = False
        self.view: Mapping[str, Any] | None = None
        self._plan: tuple[Any, ...] | None = None  # what every draw shares, until the next observe or see

    def observe(self, events: Sequence[Event]) -> None:
        self._plan = None
        self.log.extend(events)
        for e in events:
            kind = e["type"]
            if kind == "deal_start":
                self.piles = [[] for _ in range(self.players)]
                self.table = []
                self.plays = []
            elif kind == "table":
                self.table.extend(parse_card(c) for c in e["cards"])
            elif kind == "remove":
                for c in (*e["spades"], *e["dead"]):
                    self.table.remove(parse_card(c))
            elif kind == "packet":
                self.plays = []
            elif kind == "timeout":
                self.clock = True
            elif kind == "play":
                seat, card = e["seat"], parse_card(e["card"])
                if seat != self.seat:
                    self.plays.append((seat, card, sweep_values(self.table), self.clock))
                self.clock = False
                taken = [parse_card(c) for c in e["taken"]]
                if taken:
                    for c in taken:
                        self.table.remove(c)
                    self.piles[seat].extend(taken)
                    self.piles[seat].append(card)
                else:
                    self.table.append(card)
            elif kind == "award":
                self.piles[e["seat"]].extend(parse_card(c) for c in (*e["cards"], *e["spade_faces"]))
                self.table = []

    def see(self, view: Mapping[str, Any]) -> None:
        self.view = view
        self._plan = None

    def sample(self, rng: random.Random) -> Game:
        view = self.view
        if view is None:
            raise ValueError("a Krypkasino sample needs the seat's view (see)")
        if self._plan is None:
            self._plan = self._prepare(view)
        hand, table, spade_faces, dead, pool, others, groups = self._plan
        placed = deal_hidden(pool, groups, rng)
        hands: list[list[int]] = [[] for _ in range(self.players)]
        hands[self.seat] = list(hand)
        for q, cards in zip(others, placed, strict=False):
            hands[q] = sorted(cards)
        return self._build(view, hands, placed[-1], list(table), list(spade_faces), list(dead), rng)

    def _prepare(self, view: Mapping[str, Any]) -> tuple[Any, ...]:
        n = self.players
        me = self.seat
        hand = [parse_card(c) for c in view["hand"]]
        table = [parse_card(c) for c in view["table"]]
        spade_faces = [parse_card(c) for c in view["spade_faces"]]
        dead = [parse_card(c) for c in view["dead"]]
        known = Counter(hand) + Counter(table) + Counter(spade_faces) + Counter(dead)
        for pile in self.piles:
            known.update(pile)
        left = Counter(DOUBLE_DECK)
        left.subtract(known)
        pool = sorted(left.elements())
        others = [q for q in range(n) if q != me]
        sizes = view["hand_sizes"]
        groups: list[tuple[int, Allowed]] = [(sizes[q], self._allowed(q)) for q in others]
        if len(pool) != view["stock_size"] + sum(size for size, _ in groups):
            raise RuntimeError("the tracked cards do not add up to the view's (a knowledge-tracking bug)")
        return hand, table, spade_faces, dead, pool, others, groups

    def _allowed(self, seat: int) -> Allowed:
        """The test every card ``seat`` still holds must pass (the module docstring)."""
        rules: list[tuple[frozenset[int], int]] = []  # (values it cannot hold, below this id only)
        for q, card, sweeps, clock in self.plays:
            if q != seat:
                continue
            sweeper = HAND_VALUE[card] in sweeps
            if sweeps and not sweeper:
                rules.append((sweeps, 99))
            if clock:
                rules.append((sweeps if sweeper else frozenset(range(2, 15)), card))
        if not rules:
            return None
        fits = frozenset(c for c in range(52) if not any(HAND_VALUE[c] in values and c < below
                                                         for values, below in rules))
        return fits.__contains__

    def _build(self, view: Mapping[str, Any], hands: list[list[int]], stock: list[int], table: list[int],
               spade_faces: list[int], dead: list[int], rng: random.Random) -> Krypkasino:
        n = self.players
        g = Krypkasino.__new__(Krypkasino)
        options = dict(view["options"])
        g._configure(n, sample_seed(rng), options, None)
        deal_no = view["deal_no"] - 1
        g.first_dealer = (view["dealer"] - deal_no) % n
        g.deals = view["deals"]
        g.deal_no = deal_no
        g.dealer = view["dealer"]
        g.turn = view["to_act"][0]
        g.packet = view["packet"]
        g.packets = view["packets"]
        g.last_packet = view["last_packet"]
        g.hands = hands
        g.table = sorted(table)
        g.stock = stock
        g.piles = [list(p) for p in self.piles]
        g.markers = [[parse_card(c) for c in p["markers"]] for p in view["piles"]]
        g.spade_faces = spade_faces
        g.dead = dead
        g.last_capturer = view["last_capturer"]
        g.ledger = [dict(e, cards=list(e["cards"])) for e in view["ledger"]]
        transfers = [0] * n
        for e in g.ledger:
            transfers[e["seat"]] += e["points"]
            transfers[e["previous"]] -= e["points"]
        g.transfers = transfers
        g.deal_scores = [list(s) for s in view["deal_scores"]]
        g.totals = [sum(s[q] for s in g.deal_scores) for q in range(n)]
        g.card_points = None
        g.over = False
        g._legal = None
        g._moves = {}
        g.log = list(self.log)
        g.actions = []
        return g
