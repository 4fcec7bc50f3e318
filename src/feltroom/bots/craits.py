"""The Craits heuristic bot: shed points, keep wild 8s, punish the leader, always call "one card".

It reads only its view (its own hand, the top card, the counters) and the legal actions.

>>> from feltroom.bots import make_bot
>>> bot = make_bot("heuristic", "craits", seat=0, players=3, seed=1)
>>> view = {"phase": "play", "hand": ["8S", "KH", "KD"], "discard_top": "KC", "active_suit": "C",
...         "count": None, "turn": 0, "direction": "cw", "hand_sizes": [3, 5, 5], "scores": [0, 0, 0]}
>>> bot.choose(view, ["play 8S", "play 8S suit H", "play 8S suit D", "play 8S suit C", "play KH", "play KD"])
'play KH'
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..cards import parse_card
from ..games.craits import POINTS
from .base import Bot, register_bot

_SUITS = "SHDC"


@register_bot("heuristic", "craits")
class CraitsHeuristic(Bot):
    """Greedy one-ply play by a hand-tuned score per candidate action."""

    def choose(self, view: dict[str, Any] | None, legal: list[str]) -> str:
        if len(legal) == 1 or view is None:
            return legal[0]
        if "one" in legal:
            return "one"
        hand: list[str] = view.get("hand") or []
        if legal[0].startswith("suit"):  # the dealer's choice for an 8 or 9 upcard
            held = Counter(c[-1] for c in hand)
            return max(legal, key=lambda a: (held[a[-1]], -legal.index(a)))
        table = _Table(view, hand)
        best, best_score = legal[0], float("-inf")
        for action in legal:
            score = table.score(action)
            if score > best_score:
                best, best_score = action, score
        return best


class _Table:
    """What scoring a choice reads from the view, worked out once per choice rather than once per
    legal action (the leader, the threats, who comes next); the scores are the same."""

    def __init__(self, view: dict[str, Any], hand: list[str]) -> None:
        self.hand = hand
        self.left = len(hand) - 1  # cards left after any play
        self.count = bool(view.get("count"))
        if self.count:
            return
        players = len(view["hand_sizes"])
        me = view["turn"]
        step = 1 if view["direction"] == "cw" else -1
        self.nxt = (me + step) % players
        self.after_next = (self.nxt + step) % players if players >= 4 else self.nxt  # a 7 skips one
        sizes, scores = view["hand_sizes"], view["scores"]
        leader = min(range(players), key=lambda s: (scores[s], sizes[s]))
        self.threat = {s for s in range(players) if s != me and (sizes[s] <= 2 or s == leader)}
        self.faces = bool((view.get("options") or {}).get("face_card_functions"))

    def score(self, action: str) -> float:
        parts = action.split()
        if parts[0] != "play":
            return -1000.0
        card = parts[1]
        rank = card[:-1]
        suit = parts[3] if "suit" in parts else card[-1]
        score = float(POINTS[parse_card(card) // 4 + 1])
        if parts[-1] == "one":
            score += 1000  # always declare "one card"
        if self.count:
            return score + (20 if rank == "2" else 0)  # pass a bigger count on
        # counts over the hand: the card played is counted out where it would count
        hand, left, threat, nxt = self.hand, self.left, self.threat, self.nxt
        if rank == "8":
            score -= 70 if left > 1 else 0  # keep the wild card for when stuck
        elif rank == "9":
            score -= 30 if left > 1 else 0
        elif rank == "3":
            score -= 45  # threes cancel cards at the end of the hand
        if rank in ("8", "9"):  # name the suit held most (its 8s and 9s aside)
            score += 4 * sum(1 for c in hand if c[-1] == suit and c[:-1] not in ("8", "9"))
        else:  # the rest of the hand that can follow it (the card itself is of its rank)
            score += 3 * (sum(1 for c in hand if c[-1] == suit or c[:-1] == rank) - 1)
        if rank == "4" and nxt in threat:
            score += 25
        elif rank == "7" and self.after_next in threat:
            score += 20
        elif rank == "5":
            score += 5 * len(threat)
        elif rank == "2":
            twos = sum(1 for c in hand if c[:-1] in ("A", "2")) - 1  # the other aces and 2s
            score += 15 + 10 * twos if nxt in threat or twos else 0
        elif rank == "6":
            score += 10 if left > 1 else -40
        elif rank == "10" and nxt in threat:
            score += 15
        if self.faces:
            if rank == "J" or card == "QS":
                score += 20 if nxt in threat else 8
            elif rank == "K":
                score += 5 * min(3, left)
        return score
