"""The Crisp heuristic bot: remembers what it was shown, keeps its total low, declares when low.

It sees only its own view and the events delivered to its seat (architecture: never the
state). From them it keeps:

- the cards it knows in its own slots (peeks, drawn cards it swapped in, Jack and Queen
  reveals), forgetting a slot when someone's Queen takes it;
- the cards it knows in other seats' slots (cards they took from the public discard pile,
  cards it gave away with a Queen), moved along by every Queen swap;
- the public cards: the discard pile and the Kings in use.

Unknown cards are estimated at the mean value of the cards it cannot place. ``CrispGuide``, the
search's guide (not a lobby level), also reads the others' swaps: a card a seat drew from the deck
and swapped in is likely low.

>>> from feltroom.bots import make_bot
>>> bot = make_bot("heuristic", "crisp", seat=0, players=2)
>>> type(bot).__name__
'CrispHeuristic'
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..cards import CARD_IDS, parse_card
from ..game import Event
from ..games.crisp import VALUE
from .base import Bot, register_bot

SLOTS = "LCR"
_IDX = {"L": 0, "C": 1, "R": 2}
_PACK_VALUE = sum(VALUE[c] for c in range(52))



@register_bot("heuristic", "crisp")
class CrispHeuristic(Bot):
    """Swap out high cards, peek with Jacks, give high cards away with Queens, declare when low."""

    #: declare when the estimated total is at most this (by number of players)
    DECLARE: ClassVar[dict[int, float]] = {2: 8.0, 3: 8.0, 4: 8.0, 5: 7.0, 6: 6.0, 7: 6.0, 8: 5.0}
    #: how much bolder per own turn past the sixth (a round only ends by a declaration, CRISP-CALL-7)
    BOLDER: ClassVar[float] = 1.0
    #: a Queen swap must gain at least this (estimated points) to be made
    QUEEN_GAIN: ClassVar[float] = 1.5

    def __init__(self, seat: int, players: int, options: dict[str, Any], seed: int | None = None) -> None:
        super().__init__(seat, players, options, seed)
        self._reset()

    def _reset(self) -> None:
        n = self.players
        #: known[seat][slot]: a card id, or None if unknown to this bot
        self.known: list[list[int | None]] = [[None, None, None] for _ in range(n)]
        self.pile: list[int] = []
        self.kings: list[int] = []
        self.held: int | None = None
        self.held_other: int | None = None
        self.turns = 0
        #: swaps each seat made this round: a seat that swaps a lot is probably getting low
        self.swaps = [0] * n
        self.declarer: int | None = None
        self._mean: float | None = None  # unknown_mean, until the next events

    # ------------------------------------------------------------------ memory

    def observe(self, events: list[Event]) -> None:
        me = self.seat
        card_of = CARD_IDS
        if events:
            self._mean = None  # what it can place may change
        for e in events:
            kind = e["type"]
            if kind == "reveal":
                card = card_of[e["cards"][0]]
                if e["slot"] is None:
                    self.held = card
                else:
                    self.known[me][_IDX[e["slot"]]] = card
            elif kind == "draw":
                if e["source"] == "discard":
                    if self.pile:
                        self.pile.pop()
                    if e["seat"] == me:
                        self.held = card_of[e["card"]]
                    else:
                        self.held_other = card_of[e["card"]]
                else:
                    self.held_other = None
            elif kind == "swap":
                seat, slot = e["seat"], _IDX[e["slot"]]
                self.pile.append(card_of[e["out"]])
                if seat == me:
                    self.known[me][slot] = self.held
                    self.held = None
                else:
                    self.known[seat][slot] = self.held_other
                    self.swaps[seat] += 1
            elif kind in ("discard", "jack"):
                self.pile.append(card_of[e["card"]])
                if e["seat"] == me:
                    self.held = None
            elif kind == "queen":
                self.pile.append(card_of[e["card"]])
                a, s = e["seat"], _IDX[e["slot"]]
                b, t = e["target"], _IDX[e["target_slot"]]
                ka, kb = self.known[a], self.known[b]
                ka[s], kb[t] = kb[t], ka[s]
                if a == me:
                    self.held = None
            elif kind == "king":
                self.kings.append(card_of[e["card"]])
                if e["seat"] == me:
                    self.held = None
            elif kind == "turn_end":
                self.pile.extend(card_of[k] for k in e["kings"])
                self.kings = []
                if e["seat"] == me:
                    self.turns += 1
                    self.held = None
            elif kind == "crisp":
                self.declarer = e["seat"]
            elif kind == "flip":
                self.pile = []
            elif kind == "round_start":
                self._reset()

    # ------------------------------------------------------------------ estimates

    def placed(self) -> set[int]:
        """The cards this bot can place: the pile, the Kings in use, its held card, every card it knows in a slot."""
        placed = {*self.pile, *self.kings}
        if self.held is not None:
            placed.add(self.held)
        for hand in self.known:
            placed.update(c for c in hand if c is not None)
        return placed

    def unknown_mean(self) -> float:
        """Mean value of the cards this bot cannot place (candidates for any unknown card); kept
        until the next events."""
        if self._mean is not None:
            return self._mean
        placed = self.placed()
        rest = 52 - len(placed)  # whole values: the same mean as summing the rest card by card
        self._mean = (_PACK_VALUE - sum(VALUE[c] for c in placed)) / rest if rest else 6.5
        return self._mean

    def slot_values(self, mean: float) -> list[float]:
        return [mean if c is None else float(VALUE[c]) for c in self.known[self.seat]]

    def estimate(self) -> float:
        """The estimated total of this bot's hand."""
        return sum(self.slot_values(self.unknown_mean()))

    # ------------------------------------------------------------------ choosing

    def choose(self, view: dict[str, Any] | None, legal: list[str]) -> str:
        if len(legal) == 1:
            return legal[0]
        if "crisp" in legal:
            # a round only ends by a declaration (CRISP-CALL-7): grow bolder as the round drags on
            limit = self.DECLARE.get(self.players, 6.0) + self.BOLDER * max(0, self.turns - 6)
            return "crisp" if self.estimate() <= limit else "decline"
        mean = self.unknown_mean()
        values = self.slot_values(mean)
        worst = max(range(3), key=lambda i: (values[i], self.known[self.seat][i] is not None))
        if "draw" in legal:
            top = view.get("discard_top") if view else None
            if "draw discard" in legal and top is not None:
                v = VALUE[parse_card(top)]
                if v <= values[worst] - 3 and v <= 4:
                    return "draw discard"
            return "draw"
        held = view["held"]["card"] if view and view.get("held") else None
        card = parse_card(held) if held else self.held
        if card is None:  # should not happen: the view shows our own held card
            return legal[0]
        if legal[0].startswith("swap") and "discard" not in legal:  # a card from the pile
            return f"swap {SLOTS[worst]}"
        if "jack" in legal:
            return "jack" if self.known[self.seat][1] is None else "discard"
        if any(a.startswith("queen") for a in legal):
            return self._queen(values, mean, legal)
        v = VALUE[card]
        if v < values[worst] - (0.5 if self.known[self.seat][worst] is None else 0.0):
            return f"swap {SLOTS[worst]}"
        return "discard"

    def _queen(self, values: list[float], mean: float, legal: list[str]) -> str:
        me = self.seat
        mine = max(range(3), key=lambda i: (values[i], self.known[me][i] is not None))
        best: tuple[float, int, int] | None = None
        for o in range(self.players):
            if o == me:
                continue
            # prefer the declarer (a high card may break the crisp), then the seat likely to declare
            bias = 3.0 if o == self.declarer else 0.1 * self.swaps[o]
            for t in range(3):
                gain = values[mine] - self._their_value(o, t, mean) + bias
                if best is None or gain > best[0]:
                    best = (gain, o, t)
        assert best is not None
        gain, o, t = best
        if gain < self.QUEEN_GAIN:
            return "discard"
        action = f"queen {SLOTS[mine]} {o} {SLOTS[self._slot_to_take(o, t)]}"
        return action if action in legal else "discard"

    def _their_value(self, seat: int, slot: int, mean: float) -> float:
        """What the card in another ``seat``'s ``slot`` is worth, as far as this bot can tell."""
        card = self.known[seat][slot]
        return float(VALUE[card]) if card is not None else mean

    def _slot_to_take(self, seat: int, slot: int) -> int:
        """The slot of ``seat`` a Queen takes, its best being ``slot``."""
        # unknown anyway: take their centre, which they cannot see either, and give mine there
        return slot if self.known[seat][slot] is not None else 1


class CrispGuide(CrispHeuristic):
    """The search's guide at Crisp, not a lobby level: the heuristic with three changes, each measured
    against it (``bench/crisp_bot.py --guide``, docs/bots.md: one seat against three heuristics 30.1 %
    where the heuristic's seat wins 25.6 %, heads-up 60.9 %), the lobby's ``heuristic`` left as it is.

    - **Fresh cards**: it remembers which of the others' slots hold a card that seat drew from the
      deck and swapped in (unseen by this bot; moved along by Queen swaps). The heuristic swaps a drawn
      card in only below its worst slot, so such a card is likely low: a Queen values it at
      ``FRESH`` and takes it, where the heuristic valued every unknown card at the mean and took the
      centre.
    - A Queen swap is made for a gain of ``QUEEN_GAIN`` = 0.5 (the heuristic's 1.5).
    - With 4 players it declares at an estimated 7, half a point bolder per turn past the sixth
      (the heuristic: 8, a point).
    """

    DECLARE: ClassVar[dict[int, float]] = {**CrispHeuristic.DECLARE, 4: 7.0}
    BOLDER: ClassVar[float] = 0.5
    QUEEN_GAIN: ClassVar[float] = 0.5
    #: what a card another seat drew from the deck and swapped in is taken to be worth
    FRESH: ClassVar[float] = 3.0

    def _reset(self) -> None:
        super()._reset()
        #: fresh[seat][slot]: the card there is one that seat drew from the deck and swapped in
        self.fresh: list[list[bool]] = [[False, False, False] for _ in range(self.players)]

    def observe(self, events: list[Event]) -> None:
        for e in events:
            kind = e["type"]
            if kind == "swap" and e["seat"] != self.seat:
                # before the heuristic takes the swap in: a card drawn from the pile is known (held_other)
                self.fresh[e["seat"]][_IDX[e["slot"]]] = self.held_other is None
            elif kind == "queen":
                a, s = self.fresh[e["seat"]], _IDX[e["slot"]]
                b, t = self.fresh[e["target"]], _IDX[e["target_slot"]]
                a[s], b[t] = b[t], a[s]
            super().observe([e])  # one at a time: a swap's freshness reads what came before it

    def _their_value(self, seat: int, slot: int, mean: float) -> float:
        if self.known[seat][slot] is None and self.fresh[seat][slot]:
            return self.FRESH
        return super()._their_value(seat, slot, mean)

    def _slot_to_take(self, seat: int, slot: int) -> int:
        if self.known[seat][slot] is None and self.fresh[seat][slot]:
            return slot
        return super()._slot_to_take(seat, slot)


class CrispReader(CrispHeuristic):
    """The heuristic with ``CrispGuide``'s thresholds, reading the others' choices as the heuristic's (its
    bounds replace the guide's fresh cards), not a lobby level: what each other
    seat did bounds the value of each card it holds, and its Queens and crisp windows read those bounds.

    For each seat and slot it keeps bounds on the card's value and whether the seat has seen that card
    (its L and R at the deal, CRISP-DEAL-6; a card it drew and swapped in; its centre after a Jack; a card
    a Queen put in its L or R, CRISP-SPEC-6). Read as ``CrispHeuristic`` plays (its worst slot swapped
    out, a drawn card swapped in only below it):

    - a seat swapped out a card it had seen, worth ``w`` (public): the other cards it had seen are worth
      at most ``w``, and the card it drew from the deck and swapped in at most ``w - 1`` (``UNSEEN_AT``
      and ``FRESH_UNSEEN`` for a card it had not seen, which it values at the mean of the cards it cannot
      place, about 6.5);
    - a seat discarded a plain card it drew, worth ``v``: below ``UNSEEN_AT`` it would have swapped it for
      any card it had not seen or any higher one, so all three of its cards are worth at most ``v``;
      otherwise the cards it had seen, at most ``max(v, UNSEEN_AT)``;
    - a card a seat gave away with a Queen, having seen it, is worth at least ``GIVEN_LO`` (the heuristic
      gives its worst card, for a gain of at least 1.5 over a card it values at the mean).

    A card no one has shown is worth the mean of the cards this bot cannot place within its bounds; that
    values the others' cards (which card a Queen takes) and its own unseen ones (a card a Queen put in its
    centre keeps the bounds it had). With 3 or 4 players it also declares at an estimated total up to
    ``RELATIVE[players][0]`` when that is at least ``RELATIVE[players][1]`` below every other seat's
    estimate, and with 4 it declares at 6 (CrispGuide: 7). Each change was measured with
    ``bench/crisp_bot.py --reader`` (docs/bots.md). The variant bench's ``reader`` and ``readerplays``
    make it the search's guide; the lobby's search does not use it: guiding the search on seed 7172's
    deals it won +1.2 points over the lobby's spec (standard error 1.2), short of the rule it ran under,
    and no more than the reader alone.
    """

    DECLARE: ClassVar[dict[int, float]] = {**CrispGuide.DECLARE, 4: 6.0}
    BOLDER: ClassVar[float] = CrispGuide.BOLDER
    QUEEN_GAIN: ClassVar[float] = CrispGuide.QUEEN_GAIN
    #: what the others are taken to value a card they have not seen at (whole points: a swapped-out card)
    UNSEEN_AT: ClassVar[int] = 6
    #: the most a card is worth that a seat drew and swapped in for a card it had not seen
    FRESH_UNSEEN: ClassVar[int] = 5
    #: the least a card is worth that a seat gave away with a Queen, having seen it
    GIVEN_LO: ClassVar[int] = 8
    #: players -> (the highest estimate it declares at on the others' estimates, the margin below them)
    RELATIVE: ClassVar[dict[int, tuple[float, float]]] = {3: (9.0, 5.0), 4: (9.0, 5.0)}

    def _reset(self) -> None:
        super()._reset()
        n = self.players
        self.low: list[list[int]] = [[1, 1, 1] for _ in range(n)]
        self.high: list[list[int]] = [[10, 10, 10] for _ in range(n)]
        self.seen: list[list[bool]] = [[True, False, True] for _ in range(n)]  # CRISP-DEAL-6
        self.from_deck = False  # the seat to act drew its card from the deck
        self._counts: list[int] | None = None  # cards it cannot place, by value, until the next events

    def observe(self, events: list[Event]) -> None:
        for e in events:
            kind = e["type"]
            seat = e.get("seat")
            if kind == "queen":
                self._queen_moves(e)
            elif seat is not None and seat != self.seat:
                self._read(e, kind, seat)
            super().observe([e])
            self._counts = None

    def _read(self, e: Event, kind: str, seat: int) -> None:
        """Bounds from another seat's choice (``CrispHeuristic.choose`` as the model)."""
        if kind == "draw":
            self.from_deck = e["source"] == "deck"
        elif kind == "swap":
            slot = _IDX[e["slot"]]
            out = VALUE[CARD_IDS[e["out"]]]
            had_seen = self.seen[seat][slot]
            self._cap_seen(seat, out if had_seen else self.UNSEEN_AT, but=slot)
            # a card from the pile is known exactly (``known``); one from the deck was below the worst
            self.low[seat][slot] = 1
            self.high[seat][slot] = (out - 1 if had_seen else self.FRESH_UNSEEN) if self.from_deck else 10
            self.seen[seat][slot] = True
        elif kind == "discard" and e["why"] == "play" and self.from_deck and e["card"][0] not in "JQK":
            v = VALUE[CARD_IDS[e["card"]]]
            if v < self.UNSEEN_AT:
                for slot in range(3):
                    self.high[seat][slot] = min(self.high[seat][slot], v)
            else:
                self._cap_seen(seat, v)
        elif kind == "jack":
            self.seen[seat][1] = True  # CRISP-SPEC-4

    def _cap_seen(self, seat: int, value: int, but: int = -1) -> None:
        for slot in range(3):
            if slot != but and self.seen[seat][slot]:
                self.high[seat][slot] = min(self.high[seat][slot], value)

    def _queen_moves(self, e: Event) -> None:
        """The two cards change places with their bounds (CRISP-SPEC-5); each is seen by its new holder
        in L or R (CRISP-SPEC-6). A card a seat gave away, having seen it, was its worst."""
        a, s = e["seat"], _IDX[e["slot"]]
        b, t = e["target"], _IDX[e["target_slot"]]
        given_seen = a != self.seat and self.seen[a][s]
        for bounds in (self.low, self.high):
            bounds[a][s], bounds[b][t] = bounds[b][t], bounds[a][s]
        self.seen[a][s] = s != 1
        self.seen[b][t] = t != 1
        if given_seen:
            self.low[b][t] = max(self.low[b][t], self.GIVEN_LO)
            self.high[b][t] = max(self.high[b][t], self.low[b][t])

    def _unplaced_counts(self) -> list[int]:
        """How many cards of each value (index 1–10) this bot cannot place; kept until the next events."""
        if self._counts is None:
            placed = self.placed()
            counts = [0] * 11
            for c in range(52):
                if c not in placed:
                    counts[VALUE[c]] += 1
            self._counts = counts
        return self._counts

    def _their_value(self, seat: int, slot: int, mean: float) -> float:
        card = self.known[seat][slot]
        if card is not None:
            return float(VALUE[card])
        counts = self._unplaced_counts()
        lo, hi = self.low[seat][slot], self.high[seat][slot]
        n = sum(counts[lo:hi + 1])
        if not n:
            return (lo + hi) / 2
        return sum(v * counts[v] for v in range(lo, hi + 1)) / n

    def _slot_to_take(self, seat: int, slot: int) -> int:
        return slot  # the best card by its bounds

    def slot_values(self, mean: float) -> list[float]:
        return [self._their_value(self.seat, slot, mean) for slot in range(3)]

    def choose(self, view: dict[str, Any] | None, legal: list[str]) -> str:
        relative = self.RELATIVE.get(self.players)
        if "crisp" in legal and relative is not None and super().choose(view, legal) == "decline":
            mean = self.unknown_mean()
            own = self.estimate()
            others = min(sum(self._their_value(o, slot, mean) for slot in range(3))
                         for o in range(self.players) if o != self.seat)
            return "crisp" if own <= relative[0] and own + relative[1] <= others else "decline"
        return super().choose(view, legal)
