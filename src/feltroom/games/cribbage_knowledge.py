"""What one Cribbage seat knows, and hands drawn from it (``feltroom.knowledge``).

Every hand is dealt from a freshly shuffled pack (CRIB-DEAL-1), so only the current hand
hides anything: the seat knows its own dealt cards and discards, every card played, the
starter once turned and every set shown. The cards it does not know (the others' unplayed
cards and discards, the 3-player crib card, the starter still in the stock) are placed
uniformly among the placements that fit what it saw:

- a seat that said go (CRIB-PEG-3) at count c held no card worth 31 − c or less, and still
  holds none (its unplayed cards are all worth more);
- a seat whose play the clock made (CRIB-ONL-3) held no card below the one played;
- anything else (a clock's discard, CRIB-ONL-2) is checked by replaying the hand and
  comparing its events with the ones seen, and the draw repeated if they differ.

Decided here: a sample is built at the start of the current hand — a reference ``Cribbage``
dealt from a stacked deck, with the scores, the hand number and the previous hand's counts
(``last_hand``) of the real game — and the hand's public actions are replayed on it. Its log
is the events this seat saw before the hand followed by the replayed hand's events (for
every seat), so ``events_for(sample.log, seat)`` equals what the seat was shown; its
``actions`` hold the current hand's actions only and its seed is drawn from ``rng``, so its
record does not rebuild it (a sample is an imagined world, not a game to store).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import NAMES, parse_card
from ..dealing import CURRENT_FORMAT, dealer_for
from ..errors import IllegalAction
from ..game import CLOCK, Event, Game, Seat
from ..knowledge import Allowed, Knowledge, deal_hidden, register_knowledge, sample_seed
from .cribbage import Cribbage, _deal_pattern
from .cribbage_scoring import VALUE

#: draws tried before ``sample`` gives up (a knowledge that nothing fits is a bug)
TRIES = 500


@register_knowledge
class CribbageKnowledge(Knowledge):
    """One seat's knowledge of a Cribbage game: the events it saw and its latest view.

    ``see`` must be given the seat's current view before ``sample`` (it names the seat's own
    discards, which no event does).
    """

    game = "cribbage"

    def __init__(self, seat: int, players: int, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(seat, players, options)
        self.before: list[Event] = []  # the events seen before the current hand
        self.hand: list[Event] = []  # the current hand's events, from its hand_start
        self.side_scores: list[int] = []  # every side's score now, from the score events
        self.start_scores: list[int] = []  # ... when the current hand began
        self.view: Mapping[str, Any] | None = None
        self._plan: _Plan | None = None  # what every draw shares, until the next observe or see

    def observe(self, events: Sequence[Event]) -> None:
        self._plan = None
        for e in events:
            kind = e["type"]
            if kind == "hand_start":
                self.before.extend(self.hand)
                self.hand = []
                if not self.side_scores:
                    self.side_scores = [0] * len(_sides(self.players, self.options))
                self.start_scores = list(self.side_scores)
            elif kind == "score":
                self.side_scores[e["side"]] += e["points"]
            (self.hand if self.hand or kind == "hand_start" else self.before).append(e)

    def see(self, view: Mapping[str, Any]) -> None:
        self.view = view
        self._plan = None

    def sample(self, rng: random.Random) -> Game:
        view = self.view
        if view is None or not self.hand:
            raise ValueError("a Cribbage sample needs the seat's view (see) and the events of the current hand")
        plan = self._plan
        if plan is None:
            plan = self._plan = _Plan(self, view)
        for _ in range(TRIES):
            game = plan.build(rng)
            if game is not None:
                return game
        raise RuntimeError("no deal fits what this seat saw (a knowledge-tracking bug)")


def _sides(players: int, options: Mapping[str, Any]) -> list[list[int]]:
    k = {"none": 0, "2x2": 2, "2x3": 2, "3x2": 3}[options.get("teams") or "none"] or players
    return [[s for s in range(players) if s % k == side] for side in range(k)]


class _Plan:
    """The fixed part of a draw: what is known of the current hand, its actions, the hidden places."""

    def __init__(self, know: CribbageKnowledge, view: Mapping[str, Any]) -> None:
        n = know.players
        me = know.seat
        self.know = know
        self.options = dict(view["options"])
        start = know.hand[0]
        self.dealer: int = start["dealer"]
        self.sizes: list[int] = start["sizes"]
        self.hand_no: int = start["hand"]
        nd = 2 if n == 2 else 1
        played: list[list[int]] = [[] for _ in range(n)]
        discarded = [False] * n
        go_limit = [0] * n  # the seat's unplayed cards are all worth more than this
        low_id = [-1] * n  # ... and all have a higher id than this (a clock's play)
        actions: list[tuple[Seat, str]] = []
        mine: list[int] = []
        starter: int | None = None
        crib_shown: list[int] | None = None
        phase = "discard"
        count = 0
        skip = 0
        clock_play = False
        for e in know.hand:
            kind = e["type"]
            if kind == "reveal" and e["seat"] == me:
                mine = [parse_card(c) for c in e["cards"]]
            elif kind == "timeout":
                actions.append((CLOCK, "timeout"))
                if phase == "discard":
                    skip = len(e["seats"])
                elif phase == "play":
                    clock_play = True
            elif kind == "discard":
                discarded[e["seat"]] = True
                if skip:
                    skip -= 1
                else:
                    actions.append((e["seat"], ""))  # the cards are filled in per draw
            elif kind == "starter":
                starter = parse_card(e["card"])
                phase = "play"
            elif kind == "play":
                seat, card = e["seat"], parse_card(e["card"])
                if clock_play:
                    low_id[seat] = max(low_id[seat], card)
                    clock_play = False
                else:
                    actions.append((seat, "play " + e["card"]))
                played[seat].append(card)
                count = e["count"]
            elif kind == "reset":
                count = 0
            elif kind == "go":
                go_limit[e["seat"]] = max(go_limit[e["seat"]], 31 - count)
            elif kind == "show":
                phase = "show"
                if e["crib"]:
                    crib_shown = [parse_card(c) for c in e["cards"]]
            elif kind == "count" and e.get("claim") is not None and e["by"] != CLOCK:
                actions.append((e["by"], f"claim {e['claim']}"))
        self.actions = actions
        self.mine = mine
        my_discards = [parse_card(c) for c in view["discards"]]
        self.my_discards = my_discards
        self.starter = starter
        self.played = played
        self.discarded = discarded
        others = [q for q in range(n) if q != me]
        needs = [0 if (n >= 5 and q == self.dealer) else nd for q in range(n)]
        self.needs = needs
        known = set(mine)
        for q in others:
            known.update(played[q])
        if starter is not None:
            known.add(starter)
        crib_rest: list[int] = []
        if crib_shown is not None:
            known.update(crib_shown)
            crib_rest = sorted(set(crib_shown) - set(my_discards))
        self.pool = [c for c in range(52) if c not in known]
        self.crib_rest = crib_rest
        self.crib_shown = crib_shown is not None
        groups: list[tuple[int, Allowed]] = []
        index: dict[tuple[str, int], int] = {}
        for q in others:
            down = discarded[q] and needs[q]
            unplayed = self.sizes[q] - len(played[q]) - (needs[q] if discarded[q] else 0)
            index["hand", q] = len(groups)
            groups.append((unplayed, _allowed(go_limit[q], low_id[q])))
            if down and not self.crib_shown:
                index["crib", q] = len(groups)
                groups.append((needs[q], None))
        if n == 3 and not self.crib_shown:
            index["crib_card", -1] = len(groups)
            groups.append((1, None))
        if starter is None:
            index["starter", -1] = len(groups)
            groups.append((1, None))
        self.groups = groups
        self.index = index
        self.pattern = _deal_pattern(n, self.dealer)
        self.need = len(self.pattern) + (2 if n == 3 else 1)
        self.setup_options = dict(self.options, first_dealer=self.dealer)
        last = view.get("last_hand")
        self.last: Any = None
        if last is not None:  # the previous hand, as ``Cribbage._deal`` keeps it (read-only: shared by every draw)
            self.last = (last["hand"], last["dealer"], parse_card(last["starter"]),
                         [(c["owner"], c["crib"], list(c["cards"]), c["claim"], c["score"],
                           None if c["breakdown"] is None else [[k, list(cs), p] for k, cs, p in c["breakdown"]])
                          for c in last["counted"]])

    def build(self, rng: random.Random) -> Game | None:
        """One draw: the deck, the game at the hand's start, the hand replayed; None if it does not fit."""
        know = self.know
        n = know.players
        me = know.seat
        placed = deal_hidden(self.pool, self.groups, rng)
        index = self.index
        discards: dict[int, list[int]] = {me: self.my_discards}
        crib_card: int | None = None
        if self.crib_shown:
            crib_groups: list[tuple[int, Allowed]] = [(self.needs[q], None) for q in range(n)
                                                      if q != me and self.discarded[q] and self.needs[q]]
            if n == 3:
                crib_groups.append((1, None))
            rest = deal_hidden(self.crib_rest, crib_groups, rng)
            k = 0
            for q in range(n):
                if q != me and self.discarded[q] and self.needs[q]:
                    discards[q] = rest[k]
                    k += 1
            if n == 3:
                crib_card = rest[k][0]
        else:
            for q in range(n):
                if ("crib", q) in index:
                    discards[q] = placed[index["crib", q]]
            if n == 3:
                crib_card = placed[index["crib_card", -1]][0]
        starter = self.starter if self.starter is not None else placed[index["starter", -1]][0]
        dealt: list[list[int]] = []
        for q in range(n):
            if q == me:
                dealt.append(list(self.mine))
            else:
                dealt.append(self.played[q] + placed[index["hand", q]] + discards.get(q, []))
        order = [0] * self.need
        at = [0] * n
        for i, q in enumerate(self.pattern):
            order[i] = dealt[q][at[q]]
            at[q] += 1
        if n == 3:
            assert crib_card is not None
            order[15] = crib_card
        order[-1] = starter
        game = self._start(order, rng)
        try:
            for seat, action in self.actions:
                if not action:
                    action = "discard " + " ".join(NAMES[c] for c in sorted(discards[int(seat)]))
                game.apply(seat, action)
        except IllegalAction:
            return None
        seen = [e for e in game.log[len(know.before):] if e["to"] == "all" or me in e["to"]]
        if seen != know.hand:
            return None
        return game

    def _start(self, order: list[int], rng: random.Random) -> Cribbage:
        """A reference game at the current hand's deal: the real scores, hand number and history.

        Built as ``Cribbage.__init__`` does, with the options already normalised and the
        deck already parsed (a draw is on the search's hot path).
        """
        know = self.know
        game = Cribbage.__new__(Cribbage)
        seed = sample_seed(rng)
        game.players = know.players
        game.seed = seed
        game.options = dict(self.setup_options)
        game.format = CURRENT_FORMAT
        game.rng = dealer_for(CURRENT_FORMAT, seed)
        game.meta = {}
        game._stacks = [order]
        game.deck_spec = None
        game.log = []
        game.actions = []
        game._setup()
        game.options = dict(self.options)
        game.hand_no = self.hand_no
        game.side_scores = list(know.start_scores)
        game._last = self.last
        game.log = [*know.before, know.hand[0], *game.log[1:]]
        return game


def _allowed(go_limit: int, low_id: int) -> Allowed:
    if not go_limit and low_id < 0:
        return None
    return frozenset(c for c in range(52) if VALUE[c] > go_limit and c > low_id).__contains__
