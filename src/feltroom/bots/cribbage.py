"""The Cribbage heuristic bot: discards by expected value, pegs with a one-reply lookahead, claims right.

It reads only its view (architecture.md: bots never see the state):

- **Discard**: for every legal discard, the mean over every possible starter of the kept
  hand's score, plus the discards' points with that starter when the crib is its side's,
  minus them when it is an opponent's.
- **Play**: the points the card scores now (fifteen, 31, pairs, runs, go and last card
  estimated), minus the best reply the next player could make with the unseen cards, weighted
  by the chance that they hold such a card. Ties keep the higher cards for later.
- **Claim** (manual counting): exactly the score of the set being counted.
"""

from __future__ import annotations

from math import comb
from operator import mul
from typing import Any

from ..cards import NAMES
from ..games.cribbage_scoring import (
    RANK,
    RANK_VALUE,
    VALUE,
    peg_points,
    rank_points,
    score_hand,
    score_sum,
    score_total,
)
from .base import Bot, register_bot

try:  # the compiled core's scorer gives the same totals, many times faster (the search's playouts discard a lot)
    from ..games._cribbage_core import _score_sum as fast_sum
    from ..games._cribbage_core import _score_total as fast_total
except ImportError:  # pragma: no cover - without a C compiler
    fast_sum, fast_total = score_sum, score_total

_ID = {name: i for i, name in enumerate(NAMES)}
_PARTIAL: dict[tuple[int, ...], tuple[int, ...]] = {}


def _partial_crib(out: list[int]) -> tuple[int, ...]:
    """Fifteens, pairs and runs among the discards ``out`` and a starter of each rank (index 1–13;
    0 unused): what the discards are sure to score in the crib, its other cards unknown.

    Only ranks count, so the values are memoised by the discards' sorted ranks.
    """
    key = tuple(sorted(RANK[c] for c in out))
    found = _PARTIAL.get(key)
    if found is None:
        found = _PARTIAL[key] = (0, *(rank_points([*out, _card_of_rank(r)]) for r in range(1, 14)))
    return found


def _card_of_rank(rank: int) -> int:
    """A card of ``rank`` (1–13): in the play only ranks score, so any suit does."""
    return 4 * (rank - 1)


_MEMO_LIMIT = 200_000
_PEGS: dict[tuple[int, ...], tuple[int, ...]] = {}


def _pegs_after(ranks: tuple[int, ...]) -> tuple[int, ...]:
    """The points a card of each rank (index 1–13; index 0 unused) would peg played after the
    series ``ranks`` (the count is not checked: the caller knows whether the card fits under 31).

    Only ranks score in the play, so the answer is memoised by the series' ranks: the search's
    playouts ask for the same series many times.
    """
    found = _PEGS.get(ranks)
    if found is None:
        if len(_PEGS) > _MEMO_LIMIT:
            _PEGS.clear()
        series = [_card_of_rank(r) for r in ranks]
        found = _PEGS[ranks] = (0, *(peg_points([*series, _card_of_rank(r)])[0] for r in range(1, 14)))
    return found


@register_bot("heuristic", "cribbage")
class CribbageBot(Bot):
    """Heuristic Cribbage bot (see the module docstring)."""

    def choose(self, view: dict[str, Any] | None, legal: list[str]) -> str:
        assert view is not None
        if len(legal) == 1:
            return legal[0]
        verb = legal[0].split()[0]
        if verb == "claim":
            return self._claim(view, legal)
        if verb == "discard":
            return self._discard(view, legal)
        if verb == "play":
            return self._play(view, legal)
        return legal[0]

    # ------------------------------------------------------------------ claims

    def _claim(self, view: dict[str, Any], legal: list[str]) -> str:
        show = view["show"]
        crib_five = bool(show["crib"]) and view["options"]["crib_flush"] == "five"
        total = score_hand(show["cards"], view["starter"], crib=crib_five).total
        action = f"claim {total}"
        return action if action in legal else legal[0]

    # ------------------------------------------------------------------ discards

    def _discard(self, view: dict[str, Any], legal: list[str]) -> str:
        values = self.discard_values(view, legal)
        return legal[max(range(len(legal)), key=values.__getitem__)]  # the first of the best

    def discard_values(self, view: dict[str, Any], legal: list[str]) -> list[float]:
        """What each of the ``legal`` discards is worth to this bot, in their order (the module docstring)."""
        hand = [_ID[c] for c in view["hand"]]
        unseen = [c for c in range(52) if c not in hand]
        starters = [0] * 14  # the unseen cards per rank: each may be the starter
        for c in unseen:
            starters[RANK[c]] += 1
        mine = self._side_of(view, self.seat) == self._side_of(view, view["dealer"])
        sign = 1.0 if mine else -1.0
        values = []
        for action in legal:
            out = [_ID[c] for c in action.split()[1:]]
            kept = [c for c in hand if c not in out]
            # whole points summed in any order: the same float as summing world by world
            total = float(fast_sum(kept, unseen)) + sign * self._crib_points(out, starters)
            values.append(total / len(unseen) + 0.01 * sum(VALUE[c] for c in out) * (-sign))
        return values

    def _crib_points(self, out: list[int], starters: list[int]) -> float:
        """What the discards ``out`` give the crib, summed over the possible starters (``starters``:
        the unseen cards per rank): their own fifteens, pairs and runs with each starter, the crib's
        other cards unknown (``bench/cribbage_guide.py`` counts the whole crib instead)."""
        return float(sum(map(mul, starters, _partial_crib(out))))  # both per rank, 0 to 13

    # ------------------------------------------------------------------ the play

    def _play(self, view: dict[str, Any], legal: list[str]) -> str:
        played = view["played"]
        series = [_ID[c] for _, c in played[view["series_start"]:]]
        count = view["count"]
        hand = [_ID[c] for c in view["hand"]]
        known = set(hand) | {_ID[c] for _, c in played} | {_ID[c] for c in view["discards"]}
        if view["starter"]:
            known.add(_ID[view["starter"]])
        unseen = [c for c in range(52) if c not in known]
        n = view["players"]
        sizes = view["hand_sizes"]
        nxt = next(((self.seat + i) % n for i in range(1, n) if sizes[(self.seat + i) % n] > 0), None)
        holding = sizes[nxt] if nxt is not None else 0
        opponent_next = nxt is not None and self._side_of(view, nxt) != self._side_of(view, self.seat)
        by_rank: dict[int, int] = {}
        for c in unseen:
            by_rank[RANK[c]] = by_rank.get(RANK[c], 0) + 1
        ranks = tuple(RANK[c] for c in series)
        pegs = _pegs_after(ranks)
        best, best_value = legal[0], float("-inf")
        for action in legal:
            card = _ID[action[5:]]
            now = count + VALUE[card]
            value = float(pegs[RANK[card]])
            if sum(sizes) == 1 and now != 31:
                value += 1  # the last card of the play
            if opponent_next and holding and now < 31:
                value -= self._reply_risk((*ranks, RANK[card]), now, by_rank, len(unseen), holding)
            value += 0.001 * VALUE[card] if series else -0.001 * VALUE[card]
            if not series and RANK_VALUE[RANK[card]] == 5:
                value -= 0.5  # leading a five invites a fifteen
            if value > best_value:
                best, best_value = action, value
        return best

    @staticmethod
    def _reply_risk(ranks: tuple[int, ...], count: int, by_rank: dict[int, int], unseen: int, holding: int) -> float:
        """Expected best reply: for each rank, its points times the chance the next player holds one."""
        risk = 0.0
        pegs = _pegs_after(ranks)
        for r, copies in by_rank.items():
            if count + RANK_VALUE[r] > 31:
                continue
            pts = pegs[r]
            if not pts:
                continue
            p_hold = 1.0 - comb(unseen - copies, holding) / comb(unseen, holding) if unseen >= holding else 1.0
            risk = max(risk, pts * p_hold)
        return risk

    @staticmethod
    def _side_of(view: dict[str, Any], seat: int) -> int:
        for i, members in enumerate(view["sides"]):
            if seat in members:
                return i
        return seat


__all__ = ["CribbageBot", "fast_total"]
