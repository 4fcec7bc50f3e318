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

    def unknown_mean(self) -> float:
        """Mean value of the cards this bot cannot place (candidates for any unknown card); kept
        until the next events."""
        if self._mean is not None:
            return self._mean
        seen: set[int | None] = {*self.pile, *self.kings, self.held}
        for hand in self.known:
            seen.update(hand)
        placed = [c for c in seen if c is not None]
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
