"""A heuristic Krypkasino bot: low totals win (rules/krypkasino.md, KRYP-CONV-5).

It scores every legal play by its expected cost to itself, from what a human in its seat
knows (its view and the public events it has seen):

- card points it would take now (the played card goes into its pile too), and the sweep
  penalty (+5/+10) if the play sweeps;
- minus the chance that the next player holds a card that sweeps the table left behind
  (that sweep is compulsory, and the previous player, this bot, earns −5), weighted by
  ``SWEEP_GIFT``;
- plus +5 × the chance that, after the next player answers with one of the unseen cards
  (capturing as the rules force, or trailing), one of its own remaining cards must sweep;
- trailed cards cost nothing (``TRAIL_SHARE``), so point cards are trailed while that is safe;
  in the last packet it avoids becoming the last capturer of a table holding points and of
  the spade face cards.

The chance of a sweeping card is hypergeometric over the cards the bot has not seen this deal.
Weights were tuned in heads-up duels (see ``bench/krypkasino_bot.py``).

>>> bot = KrypkasinoBot(0, 2, {}, seed=1)
>>> bot.choose({"hand": ["2C", "9D"], "table": ["2H", "7S"], "hand_sizes": [2, 2], "players": 2,
...             "seat": 0, "last_packet": False, "spade_faces": [], "stock_size": 80}, ["play 9D"])
'play 9D'
"""

from __future__ import annotations

from math import comb
from typing import Any

from ..cards import CARD_IDS, parse_card
from ..game import Event
from ..games.krypkasino import HAND_VALUE, POINTS, largest_captures, largest_size
from .base import Bot, register_bot

_BY_VALUE: dict[int, list[int]] = {v: [c for c in range(52) if HAND_VALUE[c] == v] for v in range(2, 15)}
# Only a card's value counts for the odds below: the bot counts the cards it has seen per value
# (index value − 2; 8 cards of each in the double deck), not per card.
_COPIES_PER_VALUE = 8



_SWEEPS: dict[tuple[int, ...], list[int]] = {}
_SWEEPS_LIMIT = 200_000


def _sweep_values(table: list[int]) -> list[int]:
    """Hand values (2–14) whose largest capture takes the whole non-empty ``table``.

    Memoised by the table's ranks (only ranks count on the table, KRYP-VAL-2): the search's
    playouts ask for the same tables many times.
    """
    if not table:
        return []
    key = tuple(sorted(c >> 2 for c in table))
    found = _SWEEPS.get(key)
    if found is None:
        if len(_SWEEPS) > _SWEEPS_LIMIT:
            _SWEEPS.clear()
        total = sum(r + 1 for r in key)
        n = len(table)
        found = _SWEEPS[key] = [v for v in range(2, 15) if total % v == 0 and largest_size(v, table) == n]
    return found


_ANSWERS: dict[tuple[int, ...], tuple[frozenset[int], ...]] = {}


def _answers(after: list[int]) -> tuple[frozenset[int], ...]:
    """For each value 2–14 the next player may answer with, the hand values that must then sweep
    the table it leaves: after its first largest capture (KRYP-CAPTURE-3), or with it trailed.

    Only ranks count on the table (KRYP-VAL-2), and the first largest capture in card order takes
    the lowest ranks the ties allow whatever the suits, so the answer is memoised by ``after``'s
    ranks; the search's playouts ask for the same tables many times.
    """
    key = tuple(sorted(c >> 2 for c in after))
    found = _ANSWERS.get(key)
    if found is None:
        if len(_ANSWERS) > _SWEEPS_LIMIT:
            _ANSWERS.clear()
        answers = []
        for value, cards in _BY_VALUE.items():
            caps = largest_captures(value, after) if after else []
            if caps:
                table = list(after)
                for c in caps[0]:
                    table.remove(c)
            else:
                table = [*after, cards[0]]  # any card of the value: the same rank
            answers.append(frozenset(_sweep_values(table)))
        found = _ANSWERS[key] = tuple(answers)
    return found


@register_bot("heuristic", "krypkasino")
class KrypkasinoBot(Bot):
    """Expected-cost play: avoid points, hand the next player a forced sweep, dodge own sweeps."""

    #: Weights of the cost model (points are penalties, lower is better).
    # Tuned in heads-up duels against earlier settings (the -5 itself, plus the table points the
    # sweeper takes and the empty table it leaves, make a gift worth about 10 to this bot).
    SWEEP_GIFT = 10.0  # what the next player's forced sweep is worth to this bot
    OWN_SWEEP_RISK = 1.5  # weight of +5 × the chance its own card must sweep after the next player's answer
    TRAIL_SHARE = 0.0  # × points / players: the share of a trailed card's points expected to come back
    LAST_CAPTURE_DECAY = 0.75  # chance per remaining play that nobody captures after this bot

    def __init__(self, seat: int, players: int, options: dict[str, Any], seed: int | None = None) -> None:
        super().__init__(seat, players, options, seed)
        self.seen = [0] * 13  # cards shown face up this deal (laid or played), per value − 2

    def observe(self, events: list[Event]) -> None:
        seen = self.seen
        card_of = CARD_IDS
        for e in events:
            kind = e["type"]
            if kind == "play":
                seen[HAND_VALUE[card_of[e["card"]]] - 2] += 1
            elif kind == "table":
                for c in e["cards"]:
                    seen[HAND_VALUE[card_of[c]] - 2] += 1
            elif kind == "deal_start":
                seen = self.seen = [0] * 13

    @staticmethod
    def _p_holds(values: list[int], unseen: list[int], total: int, size: int) -> float:
        """Chance that a hand of ``size`` of the ``total`` unseen cards (``unseen[v - 2]`` of value
        v) holds a card of one of ``values``."""
        if not values or size <= 0:
            return 0.0
        k = sum(unseen[v - 2] for v in values)
        if k == 0 or total <= 0:
            return 0.0
        size = min(size, total)
        return 1.0 - comb(total - k, size) / comb(total, size)

    def choose(self, view: dict[str, Any] | None, legal: list[str]) -> str:
        if len(legal) == 1 or view is None:
            return legal[0]
        hand = [parse_card(c) for c in view["hand"]]
        table = [parse_card(c) for c in view["table"]]
        n = view["players"]
        me = view["seat"]
        nxt = (me + 1) % n
        sizes = view["hand_sizes"]
        unseen = [_COPIES_PER_VALUE - k for k in self.seen]  # per value − 2, not seen and not in hand
        for c in hand:
            unseen[HAND_VALUE[c] - 2] -= 1
        unseen_total = sum(unseen)
        remaining_plays = sum(sizes) - 1
        endgame = view["last_packet"]
        spade_points = sum(POINTS[parse_card(c)] for c in view["spade_faces"])
        best, best_cost = legal[0], float("inf")
        for action in legal:
            parts = action.split()
            card = parse_card(parts[1])
            value = HAND_VALUE[card]
            if "take" in parts:
                taken = [parse_card(c) for c in parts[parts.index("take") + 1:]]
            else:
                taken = self._unique_take(value, table)
            after = list(table)
            if taken:
                for c in taken:
                    after.remove(c)
                cost = float(sum(POINTS[c] for c in taken) + POINTS[card])
                if not after:
                    double = len(table) == 1 and table[0] == card
                    cost += 10 if double else 5
            else:
                after.append(card)
                cost = self.TRAIL_SHARE * POINTS[card] / n  # someone captures it later; this bot only sometimes
            rest = list(hand)
            rest.remove(card)
            sweeps = _sweep_values(after)
            gift = self._p_holds(sweeps, unseen, unseen_total, sizes[nxt]) if sweeps else 0.0
            cost -= self.SWEEP_GIFT * gift
            if self.OWN_SWEEP_RISK and rest and gift < 1.0:
                risk = self._forced_back(after, rest, unseen, unseen_total)
                cost += 5 * self.OWN_SWEEP_RISK * (1.0 - gift) * risk
            if endgame and taken:  # the last capturer takes the rest and the spade faces
                left = sum(POINTS[c] for c in after) + spade_points
                cost += left * (self.LAST_CAPTURE_DECAY ** remaining_plays)
            cost += self.rng.random() * 1e-6
            if cost < best_cost:
                best, best_cost = action, cost
        return best

    @staticmethod
    def _forced_back(after: list[int], rest: list[int], unseen_by_value: list[int], total: int) -> float:
        """Chance that, after the next player answers with a card drawn from the unseen ones
        (``unseen_by_value[v - 2]`` of value v, ``total`` in all; captured as the rules say, or
        trailed), one of ``rest`` must sweep the table."""
        if not total:
            return 0.0
        mine = {HAND_VALUE[c] for c in rest}
        risk = 0
        for k, sweeps in zip(unseen_by_value, _answers(after), strict=True):
            if k and not mine.isdisjoint(sweeps):
                risk += k
        return risk / total

    @staticmethod
    def _unique_take(value: int, table: list[int]) -> list[int]:
        caps = largest_captures(value, table) if table else []
        return list(caps[0]) if caps else []
