"""Cribbage for 2–6 players (rules: ``shared/rules/cribbage.md``, notation: notation.md "Cribbage").

The rules engine (``Cribbage``). It scores through ``cribbage_scoring`` (a counting set, a
card of the play), the one scorer of the room; the names of that module and of
``cribbage_distribution`` are re-exported here.

Where notation.md leaves room, this module writes:

- each breakdown entry (``count`` event, the view's ``show``/``counted``) as ``[kind, cards,
  points]`` with ``cards`` the combination's cards in card order, e.g. ``["fifteen", ["5S", "JH"], 2]``;
- in the view, ``series`` and ``played`` as ``[seat, card]`` lists plus ``series_start`` (the
  index in ``played`` where the current series begins); ``played`` and ``series`` are empty
  in the show (the cards were taken back); ``sides`` as the list of each side's seats; extra
  keys ``stock_size``, ``turn`` and ``last_hand`` (the previous hand's dealer, starter and
  counts: history, for the hotkeys once the game is over);
- a ``go`` event once per series for each seat passed over that still holds cards (a seat with
  no cards is skipped silently, and the player of the card that ends a series gets the point,
  not a ``go``).

>>> score_hand(["5H", "5D", "5C", "JS"], "5S").total
29
>>> score_hand("4C 5S 6D JH", "4H").parts
[['fifteen', 6], ['pair', 2], ['run', 6], ['nobs', 1]]
>>> game = Cribbage(2, seed=1, options={"first_dealer": 0, "counting": "automatic"})
>>> game.phase, game.to_act, len(game.legal_actions(1))
('discard', (0, 1), 15)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any, ClassVar

from ..cards import NAMES, parse_card
from ..errors import IllegalAction, InvalidAction
from ..fastgame import attach_core
from ..game import CLOCK, Event, Game, Seat
from ..options import Option
from ..registry import register
from .cribbage_distribution import distribution, exhaustive_distribution
from .cribbage_scoring import JACK, RANK, VALUE, HandScore, peg_points, score_hand, score_ids, score_total

__all__ = [
    "Cribbage", "HandScore", "distribution", "exhaustive_distribution", "peg_points", "score_hand",
    "score_ids", "score_total",
]


# ---------------------------------------------------------------------------- the cut

def cut_for_dealer(players: int, draw: Callable[[int], list[int]]) -> tuple[list[list[list[Any]]], int]:
    """The cut for the first dealer (CRIB-DEALER-1): ``draw(k)`` gives k cards of a fresh shuffle.

    Lowest rank deals (ace low, suits do not matter); tied players draw again, in seat order.

    >>> script = iter([[parse_card(c) for c in "7H 3C 3D".split()], [parse_card(c) for c in "9S AH".split()]])
    >>> cut_for_dealer(3, lambda k: next(script))
    ([[[0, '7H'], [1, '3C'], [2, '3D']], [[1, '9S'], [2, 'AH']]], 2)
    """
    contenders = list(range(players))
    rounds: list[list[list[Any]]] = []
    while True:
        cards = draw(len(contenders))
        rounds.append([[s, NAMES[c]] for s, c in zip(contenders, cards, strict=True)])
        low = min(RANK[c] for c in cards)
        contenders = [s for s, c in zip(contenders, cards, strict=True) if RANK[c] == low]
        if len(contenders) == 1:
            return rounds, contenders[0]


# ---------------------------------------------------------------------------- the engine

TEAM_SIDES = {"none": 0, "2x2": 2, "2x3": 2, "3x2": 3}


def teams_for(players: int) -> tuple[str, ...]:
    """The ``teams`` values ``players`` may choose (CRIB-OPT-3, CRIB-AMB-1).

    >>> teams_for(3), teams_for(4), teams_for(6)
    (('none',), ('none', '2x2'), ('none', '2x3', '3x2'))
    """
    return {4: ("none", "2x2"), 6: ("none", "2x3", "3x2")}.get(players, ("none",))


#: the claims of a count, by the highest score a counting set can make (CRIB-COUNT-2, CRIB-SCORE-11)
_CLAIMS: dict[int, tuple[str, ...]] = {m: tuple(f"claim {i}" for i in range(m + 1)) for m in (29, 46)}


def _deal_pattern(players: int, dealer: int) -> tuple[int, ...]:
    """The seat receiving each dealt card, in dealing order (CRIB-DEAL-1..3)."""
    per = 6 if players in (2, 6) else 5
    order = [(dealer + 1 + i) % players for i in range(players)]  # dealer last
    seats: list[int] = []
    for rnd in range(per):
        for s in order:
            if s == dealer and players >= 5 and rnd == per - 1:
                continue
            seats.append(s)
    return tuple(seats)


def _deal_plan(players: int, dealer: int) -> tuple[int, list[Any], tuple[int, ...], tuple[int, ...]]:
    """Cards needed (hands, 3-player crib card, starter), a getter per seat for its dealt cards,
    the seats that discard in turn order from the dealer's left, and ``to_act`` for the discard."""
    pattern = _deal_pattern(players, dealer)
    getters = []
    for seat in range(players):
        idx = [i for i, s in enumerate(pattern) if s == seat]
        getters.append(itemgetter(*idx))
    first = (dealer + 1) % players
    to_discard = tuple(s for s in ((first + i) % players for i in range(players))
                       if not (players >= 5 and s == dealer))
    need = len(pattern) + (2 if players == 3 else 1)
    return need, getters, to_discard, tuple(sorted(to_discard))


_PLANS: dict[tuple[int, int], tuple[int, list[Any], tuple[int, ...], tuple[int, ...]]] = {}


@register
class Cribbage(Game):
    """Cribbage (CRIB-*): 2–6 players, teams, automatic or manual counting with muggins.

    ``to_act`` and ``is_over`` are plain attributes, kept up to date by every state change.
    """

    name: ClassVar[str] = "cribbage"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    default_players: ClassVar[int] = 2
    lobby_rank: ClassVar[int] = 3
    title: ClassVar[str] = "Cribbage"
    blurb: ClassVar[str] = "Pegging, fifteens and runs on the board."
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option("target", 121, choices=(61, 91, 121, 241), label="Target",
               hint="The first side to reach this score wins at once."),
        Option("counting", "manual", choices=("manual", "automatic"), label="Counting",
               hint="Manual: you claim your hand's points and missed points go to the others (muggins)."),
        Option("teams", "none", choices=("none", "2x2", "2x3", "3x2"), label="Teams", values_at=teams_for,
               hint="Play in partnerships that share one score (4 or 6 players)."),
        Option("crib_flush", "hand", choices=("hand", "five"), label="Crib flush",
               hint="Hand: the crib scores a flush like a hand; five: only with the starter of the same suit."),
        Option("turn_time", None, choices=(None, 30, 45, 60), label="Turn timer", unit="s",
               hint="Seconds for each decision; then the room plays for you (a manual count claims 0)."),
        Option("first_dealer", None, seat=True),
    )

    to_act: tuple[int, ...] = ()
    is_over: bool = False

    # state (set in _setup)
    sides_n: int
    side_of: tuple[int, ...]
    side_scores: list[int]
    target: int
    manual: bool
    crib_five: bool
    turn_time: int | None
    dealer: int
    hand_no: int
    phase: str
    hands: list[list[int]]
    kept: list[list[int]]
    discards: list[list[int]]
    crib: list[int]
    starter: int | None
    next_starter: int
    to_discard: list[int]
    count: int
    series: list[list[Any]]
    played: list[list[Any]]
    go: list[int]
    turn: int
    cards_left: int
    show_order: list[tuple[int, bool]]
    show_i: int
    #: the counting set being counted or last counted: (owner, crib, cards, claim, score, breakdown)
    show: tuple[int, bool, list[str], int | None, int | None, list[list[Any]] | None] | None
    counted: list[tuple[int, bool, list[str], int | None, int | None, list[list[Any]] | None]]
    #: the hand just over (hand number, dealer, starter, counted) for ``last_hand``
    _last: tuple[int, int, int, list[Any]] | None
    crib_shown: bool
    win_side: int | None
    cut_cards: list[int]
    claims: tuple[str, ...]

    def check_options(self) -> None:
        teams = self.options["teams"]
        allowed = teams_for(self.players)
        if teams not in allowed:  # CRIB-OPT-3, CRIB-AMB-1
            raise ValueError(
                f"option 'teams' cannot be \"{teams}\" with {self.players} players: allowed values are "
                + ", ".join(f'"{t}"' for t in allowed)
            )

    def pack(self) -> tuple[int, ...]:
        return _PACK

    # ------------------------------------------------------------------ setup and deal

    def _setup(self) -> None:
        n = self.players
        o = self.options
        k = TEAM_SIDES[o["teams"]] or n
        self.sides_n = k
        self.side_of = tuple(s % k for s in range(n))
        self.side_scores = [0] * k
        self.target = o["target"]
        self.manual = o["counting"] == "manual"
        self.crib_five = o["crib_flush"] == "five"
        self.turn_time = o["turn_time"]
        self.claims = _CLAIMS[46 if n == 6 else 29]
        self.win_side = None
        self.cut_cards = []
        dealer = o["first_dealer"]
        if dealer is None:
            rounds, dealer = cut_for_dealer(n, self._cut_draw)
            self.log.append({"type": "cut", "to": "all", "draws": rounds, "dealer": dealer})
        self.dealer = dealer
        self.hand_no = 0
        self._deal()

    def _cut_draw(self, k: int) -> list[int]:
        """``k`` cut cards from a freshly shuffled pack (CRIB-DEALER-1: each re-draw reshuffles)."""
        cards = self.rng.sample(_PACK, k)
        self.cut_cards.extend(cards)
        return cards

    def _draw(self, k: int) -> list[int]:
        """The top ``k`` cards of a uniformly shuffled pack (``Dealer.top``)."""
        return self.rng.top(_PACK, k)

    def _deal(self) -> None:
        """Shuffle, deal the hands (and the 3-player crib card), open the discard phase."""
        n = self.players
        dealer = self.dealer
        deal_index = self.hand_no
        if deal_index:  # the hand just over, as history (CRIB-KEY-1 once the game is over)
            assert self.starter is not None
            self._last = (deal_index, (dealer - 1) % n, self.starter, self.counted)  # built when read
        else:
            self._last = None
        self.hand_no += 1
        plan = _PLANS.get((n, dealer))
        if plan is None:
            plan = _PLANS[(n, dealer)] = _deal_plan(n, dealer)
        need, getters, to_discard, to_act = plan
        order = self.deal_order(deal_index)[:need] if deal_index < len(self._stacks) else self._draw(need)
        hands = [sorted(get(order)) for get in getters]
        self.hands = hands
        self.kept = [[] for _ in range(n)]
        self.discards = [[] for _ in range(n)]
        self.crib = [order[15]] if n == 3 else []  # CRIB-DEAL-4: the card after the 15 dealt
        self.next_starter = order[-1]  # CRIB-START-1: the top card of the stock after the deal
        self.starter = None
        self.crib_shown = False
        self.played = []
        self.series = []
        self.go = []
        self.count = 0
        self.turn = -1
        self.show = None
        self.counted = []
        self.show_order = []
        self.show_i = 0
        self.to_discard = list(to_discard)
        self.to_act = to_act
        self.phase = "discard"
        log = self.log
        log.append({"type": "hand_start", "to": "all", "hand": self.hand_no, "dealer": dealer,
                    "crib_side": self.side_of[dealer], "sizes": list(map(len, hands))})
        for s in range(n):
            log.append({"type": "reveal", "to": [s], "seat": s, "cards": [NAMES[c] for c in hands[s]],
                        "why": "deal"})
        if n == 3:
            log.append({"type": "crib_card", "to": "all"})
        if self.turn_time:
            log.append({"type": "timer", "to": "all", "action": "timeout", "seconds": self.turn_time})

    # ------------------------------------------------------------------ the contract

    def legal_actions(self, seat: Seat) -> list[str]:
        phase = self.phase
        if seat == CLOCK:  # CRIB-ONL-1: a timed decision is due (a claim only in manual counting)
            timed = self.turn_time and phase != "over" and (phase != "show" or self.manual)
            return ["timeout"] if timed else []
        if type(seat) is not int:  # True == 1, but True is no seat
            return []
        if phase == "discard" and seat in self.to_discard:  # CRIB-DEAL-5
            size = 2 if self.players == 2 else 1
            return ["discard " + " ".join(NAMES[c] for c in cards)
                    for cards in itertools.combinations(self.hands[seat], size)]
        if phase == "play" and seat == self.turn:  # CRIB-PEG-2: a card that keeps the count to 31
            return ["play " + NAMES[c] for c in self.hands[seat] if self.count + VALUE[c] <= 31]
        if phase == "show" and seat in self.to_act:  # CRIB-COUNT-2
            return list(self.claims)
        return []

    def canonical(self, seat: Seat, action: str) -> str:
        tokens = action.split()
        if not tokens:
            raise InvalidAction("empty action: the actions are discard, play and claim")
        verb = tokens[0].lower()
        args = tokens[1:]
        if verb == "discard":
            if not 1 <= len(args) <= 2:
                raise InvalidAction("discard names 1 card (2 with two players), e.g. 'discard 5H JS'")
            return "discard " + " ".join(NAMES[c] for c in sorted(_parse_cards(args)))
        if verb == "play":
            if len(args) != 1:
                raise InvalidAction("play names one card, e.g. 'play 5H'")
            return "play " + NAMES[_parse_cards(args)[0]]
        if verb == "claim":
            limit = 46 if self.players == 6 else 29
            if len(args) != 1 or not (args[0].isascii() and args[0].isdigit()) or int(args[0]) > limit:
                raise InvalidAction(f"a claim is one number 0–{limit}, e.g. 'claim 12' (CRIB-COUNT-2)")
            return f"claim {int(args[0])}"
        if verb == "timeout":
            if args:
                raise InvalidAction("timeout takes no arguments")
            return "timeout"
        if verb == "go":
            raise InvalidAction("there is no go action: the engine says go for you when no card fits (CRIB-PEG-3)")
        raise InvalidAction(f"unknown action {tokens[0]!r}: the actions are discard, play and claim")

    def illegal(self, seat: Seat, action: str) -> IllegalAction:
        verb = action.split()[0]
        phase = self.phase
        if verb == "discard":
            if phase == "discard" and self.players >= 5 and seat == self.dealer:
                return IllegalAction("CRIB-DEAL-3", "with 5 or 6 players the dealer puts nothing in the crib")
            if phase != "discard":
                return IllegalAction("CRIB-DEAL-5", "it is not the discard phase")
            if seat not in self.to_discard:
                return IllegalAction("CRIB-DEAL-5", "you have already discarded (or do not discard)")
            need = 2 if self.players == 2 else 1
            if len(action.split()) - 1 != need:
                return IllegalAction("CRIB-DEAL-5", "discard exactly {n} card" if need == 1
                                     else "discard exactly {n} cards", {"n": need})
            return IllegalAction("CRIB-DEAL-5", "you can only discard cards from your own hand")
        if verb == "play":
            if phase != "play":
                return IllegalAction("CRIB-PEG-2", "cards are played only during the play")
            if seat != self.turn:
                return IllegalAction("CRIB-PEG-2", "it is {seat}'s turn to play", {"seat": self.turn})
            card = parse_card(action.split()[1])
            if type(seat) is not int or card not in self.hands[seat]:
                return IllegalAction("CRIB-PEG-2", "you do not hold {card}", {"card": NAMES[card]})
            return IllegalAction("CRIB-PEG-2", "{card} would take the count to {count}, over 31",
                                 {"card": NAMES[card], "count": self.count + VALUE[card]})
        if verb == "claim":
            if not self.manual:
                return IllegalAction("CRIB-COUNT-1", "counting is automatic at this table: there are no claims")
            return IllegalAction("CRIB-COUNT-2", "only the owner of the set being counted may claim, during the show")
        return IllegalAction("CRIB-ONL-1", "no timed decision is due")

    def _apply(self, seat: Seat, action: str) -> None:
        verb, *args = action.split()
        if verb == "timeout":
            self._timeout()
            return
        assert type(seat) is int
        if verb == "discard":
            self._discard(seat, tuple(parse_card(a) for a in args))
        elif verb == "play":
            self._play(seat, parse_card(args[0]))
        else:
            self._resolve(int(args[0]), seat)

    # ------------------------------------------------------------------ discard and starter

    def _discard(self, seat: int, cards: tuple[int, ...]) -> None:
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
        self.crib.extend(cards)
        self.discards[seat] = list(cards)
        self.to_discard.remove(seat)
        self.log.append({"type": "discard", "to": "all", "seat": seat, "n": len(cards)})
        if self.to_discard:
            self.to_act = tuple(sorted(self.to_discard))
        else:
            self._turn_starter()

    def _turn_starter(self) -> None:
        """CRIB-START-1/2, then the play begins (CRIB-PEG-1)."""
        starter = self.next_starter
        self.starter = starter
        self.kept = [list(h) for h in self.hands]
        self.cards_left = sum(map(len, self.hands))
        self.log.append({"type": "starter", "to": "all", "card": NAMES[starter]})
        if RANK[starter] == JACK and self._score(self.dealer, 2, "heels", [["heels", 2]]):
            return
        self.phase = "play"
        turn = self.turn = (self.dealer + 1) % self.players
        self.to_act = (turn,)
        if self.turn_time:
            self.log.append({"type": "timer", "to": "all", "action": "timeout", "seconds": self.turn_time,
                             "seat": turn})

    # ------------------------------------------------------------------ the play

    def _play(self, seat: int, card: int) -> None:
        """CRIB-PEG-2..6: ``seat`` plays ``card``; score it, then find who plays next."""
        hands = self.hands
        hands[seat].remove(card)
        self.count += VALUE[card]
        name = NAMES[card]
        self.series.append([seat, name])
        self.played.append([seat, name])
        self.cards_left -= 1
        self.log.append({"type": "play", "to": "all", "seat": seat, "card": name, "count": self.count})
        points, parts = peg_points([c for _, c in self.series])
        if not self.cards_left:  # CRIB-PEG-6: the last card
            if self.count != 31:
                points += 1
                parts.append(["last", 1])
            if not (points and self._score(seat, points, "play", parts)):
                self._end_play()
            return
        nxt = -1 if self.count == 31 else self._next_to_play(seat)
        if nxt < 0 and self.count != 31:  # CRIB-PEG-4: one for the go
            points += 1
            parts.append(["go", 1])
        if points and self._score(seat, points, "play", parts):
            return
        if nxt < 0:  # CRIB-PEG-5: reset; the next series is led from the left of the last card
            self.count = 0
            self.series = []
            self.go = []
            self.log.append({"type": "reset", "to": "all"})
            nxt = next(q for q in self._seats_after(seat) if hands[q])
        self.turn = nxt
        self.to_act = (nxt,)
        if self.turn_time:
            self.log.append({"type": "timer", "to": "all", "action": "timeout", "seconds": self.turn_time,
                             "seat": nxt})

    def _next_to_play(self, seat: int) -> int:
        """The first seat after ``seat`` (``seat`` itself last) with a card that fits the count, or -1.

        Each seat passed over that still holds cards says go, once per series (CRIB-PEG-3).
        """
        for q in self._seats_after(seat):
            hand = self.hands[q]
            if not hand:
                continue
            if self.count + VALUE[hand[0]] <= 31:  # hands are sorted: the first card is the lowest
                return q
            if q != seat and q not in self.go:
                self.go.append(q)
                self.log.append({"type": "go", "to": "all", "seat": q})
        return -1

    def _seats_after(self, seat: int) -> list[int]:
        """Every seat in turn order from ``seat``'s left, ``seat`` itself last."""
        n = self.players
        return [(seat + i) % n for i in range(1, n + 1)]

    # ------------------------------------------------------------------ the show

    def _end_play(self) -> None:
        """CRIB-SHOW-1/2: take the cards back and count in order from the dealer's left, the crib last."""
        self.phase = "show"
        self.turn = -1
        self.to_act = ()
        self.show_order = [(q, False) for q in self._seats_after(self.dealer)] + [(self.dealer, True)]
        self.show_i = 0
        self._next_count()

    def _next_count(self) -> None:
        """Show the next counting set: its owner claims (manual, CRIB-COUNT-2) or the engine counts it
        (automatic, CRIB-COUNT-1); after the crib the deal passes left (CRIB-DEALER-2)."""
        starter = self.starter
        assert starter is not None
        while self.show_i < len(self.show_order):
            owner, is_crib = self.show_order[self.show_i]
            if is_crib:
                self.crib_shown = True  # public before the show event (CRIB-INFO-2)
                cards = self.crib
            else:
                cards = self.kept[owner]
            names = [NAMES[c] for c in sorted(cards)]
            self.show = (owner, is_crib, names, None, None, None)
            self.log.append({"type": "show", "to": "all", "owner": owner, "crib": is_crib, "cards": list(names),
                             "starter": NAMES[starter]})
            if self.manual:
                self.to_act = (owner,)
                if self.turn_time:
                    self.log.append({"type": "timer", "to": "all", "action": "timeout",
                                     "seconds": self.turn_time, "seat": owner})
                return
            if self._resolve(None, owner):
                return
        self.dealer = (self.dealer + 1) % self.players  # CRIB-DEALER-2
        self._deal()

    def _resolve(self, claim: int | None, by: Seat) -> bool:
        """Score the pending count (CRIB-COUNT-1/3..8); True if the game ended.

        ``claim`` is None in automatic counting; after a claim the show goes on.
        """
        show = self.show
        assert show is not None and self.starter is not None
        owner, is_crib = self.show_order[self.show_i]
        cards = self.crib if is_crib else self.kept[owner]
        score = score_ids(cards, self.starter, is_crib and self.crib_five)
        c = score.total
        side = self.side_of[owner]
        own = c
        mug = 0
        mug_seat = -1
        event: Event = {"type": "count", "to": "all", "owner": owner, "crib": is_crib, "score": c,
                        "breakdown": _breakdown_copy(score.breakdown)}
        if claim is not None:
            self.to_act = ()
            own = min(claim, c)
            mug = abs(claim - c)
            if mug:  # CRIB-COUNT-6: the first seat to the owner's left not on the owner's side
                mug_seat = next(q for q in self._seats_after(owner) if self.side_of[q] != side)
                if self.side_scores[side] + own >= self.target:  # CRIB-COUNT-7: the owner wins first
                    mug = 0
            event["claim"] = claim
            event["by"] = by
            event["muggins"] = ({"seat": mug_seat, "side": self.side_of[mug_seat], "points": mug}
                                if mug else None)
        done = (owner, is_crib, show[2], claim, c, score.breakdown)
        self.show = done
        self.counted.append(done)
        self.show_i += 1
        self.log.append(event)
        if own and self._score(owner, own, "crib" if is_crib else "hand", score.parts):
            return True
        if mug and self._score(mug_seat, mug, "muggins", [["muggins", mug]]):
            return True
        if claim is not None:
            self._next_count()
        return False

    # ------------------------------------------------------------------ scoring, end, clock

    def _score(self, seat: int, points: int, reason: str, parts: list[list[Any]]) -> bool:
        """Add ``points`` to ``seat``'s side; end the game at the target (CRIB-END-1). True if over."""
        side = self.side_of[seat]
        total = self.side_scores[side] = self.side_scores[side] + points
        self.log.append({"type": "score", "to": "all", "seat": seat, "side": side, "points": points,
                         "reason": reason, "parts": parts})
        if total < self.target:
            return False
        self._finish(side)
        return True

    def _finish(self, side: int) -> None:
        """CRIB-END-1: ``side`` has reached the target."""
        self.phase = "over"
        self.is_over = True
        self.to_act = ()
        self.win_side = side
        self.turn = -1
        self.to_discard = []
        self.log.append({"type": "game_end", "to": "all", "scores": self.scores,
                         "side_scores": list(self.side_scores), "winners": self.winners})
        if self.turn_time:
            self.log.append({"type": "timer_stop", "to": "all", "action": "timeout"})

    def _timeout(self) -> None:
        """CRIB-ONL-2..4: the fixed choice for every seat whose timed decision is due."""
        phase = self.phase
        log = self.log
        if phase == "discard":
            seats = list(self.to_discard)  # turn order from the dealer's left
            log.append({"type": "timeout", "to": "all", "seats": seats})
            need = 2 if self.players == 2 else 1
            for s in seats:
                self._discard(s, tuple(self.hands[s][-need:]))
        elif phase == "play":
            seat = self.turn
            log.append({"type": "timeout", "to": "all", "seats": [seat]})
            self._play(seat, self.hands[seat][0])  # the lowest card is always playable if any is
        else:
            assert self.show is not None
            log.append({"type": "timeout", "to": "all", "seats": [self.show[0]]})
            self._resolve(0, CLOCK)

    # ------------------------------------------------------------------ reading the state

    @property
    def scores(self) -> list[int]:
        ss = self.side_scores
        return [ss[s] for s in self.side_of]

    @property
    def winners(self) -> list[int]:
        w = self.win_side
        return [] if w is None else [s for s in range(self.players) if self.side_of[s] == w]

    @property
    def sides(self) -> list[list[int]]:
        k = self.sides_n
        return [list(range(side, self.players, k)) for side in range(k)]  # side_of[s] is s % k

    @property
    def last_hand(self) -> dict[str, Any] | None:
        """The previous hand's number, dealer, starter and counts (history; None in the first hand)."""
        last = self._last
        if last is None:
            return None
        hand, dealer, starter_id, counted = last
        starter = NAMES[starter_id]
        return {"hand": hand, "dealer": dealer, "starter": starter,
                "counted": [_public_show(c, starter) for c in counted]}

    def _own_hand(self, seat: int) -> list[int]:
        return self.kept[seat] if self.show_order else self.hands[seat]

    def own_view(self, seat: int | None) -> dict[str, Any]:
        """The seat's own cards: its hand and its discards (a spectator: none)."""
        self.check_view_seat(seat)
        return {
            "seat": seat,
            "hand": [] if seat is None else [NAMES[c] for c in self._own_hand(seat)],
            "discards": [] if seat is None else [NAMES[c] for c in sorted(self.discards[seat])],
        }

    def public_view(self) -> dict[str, Any]:
        v = self.base_public_view(self.phase)
        started = bool(self.show_order)
        show = self.show
        starter_name = None if self.starter is None else NAMES[self.starter]
        v.update({
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "sides": self.sides,
            "side_scores": list(self.side_scores),
            "target": self.target,
            "hand_sizes": [len(self.kept[s]) if started else len(self.hands[s]) for s in range(self.players)],
            "crib_size": len(self.crib),
            "stock_size": 52 - sum(len(h) for h in self.hands) - len(self.played) - len(self.crib)
            - (self.starter is not None),
            "to_discard": list(self.to_discard),
            "starter": None if self.starter is None else NAMES[self.starter],
            "count": self.count,
            "series": [] if started else [list(p) for p in self.series],
            "played": [] if started else [list(p) for p in self.played],
            "series_start": len(self.played) - len(self.series),
            "go": list(self.go),
            "turn": None if self.turn < 0 else self.turn,
            "show": _public_show(show, starter_name) if show is not None else None,
            "counted": [_public_show(c, starter_name) for c in self.counted],
            "last_hand": self.last_hand,
        })
        return v

    def audit_cards(self) -> list[int]:
        located = [c for h in self.hands for c in h]
        located += [parse_card(card) for _, card in self.played]
        located += self.crib
        if self.starter is not None:
            located.append(self.starter)
        held = set(located)
        return located + [c for c in range(52) if c not in held]  # the rest is the stock

    def audit_hidden(self, seat: int | None) -> list[int]:
        """Stock, other seats' unplayed cards, and crib cards not yet shown (own discards excepted)."""
        known = {parse_card(card) for _, card in self.played}
        if seat is not None:
            known.update(self.hands[seat])
            known.update(self.discards[seat])
        if self.starter is not None:
            known.add(self.starter)
        if self.crib_shown:
            known.update(self.crib)
        return [c for c in range(52) if c not in known]

    def copy(self) -> Cribbage:
        """An independent copy (hand-written: bots call it a lot)."""
        new = object.__new__(Cribbage)
        new.__dict__.update(self.__dict__)
        new.rng = self.rng.copy()
        new.log = list(self.log)
        new.actions = [list(a) for a in self.actions]
        new.options = dict(self.options)
        new.meta = dict(self.meta)
        new.side_scores = list(self.side_scores)
        new.hands = [list(h) for h in self.hands]
        new.kept = [list(h) for h in self.kept]
        new.discards = [list(h) for h in self.discards]
        new.crib = list(self.crib)
        new.to_discard = list(self.to_discard)
        new.series = list(self.series)
        new.played = list(self.played)
        new.go = list(self.go)
        new.show_order = list(self.show_order)
        new.counted = list(self.counted)
        new.cut_cards = list(self.cut_cards)
        return new


def _public_show(show: tuple[Any, ...], starter: str | None) -> dict[str, Any]:
    """A counting set as a view shows it: C and the breakdown only once known (CRIB-INFO-4)."""
    owner, crib, cards, claim, score, breakdown = show
    return {"owner": owner, "crib": crib, "cards": list(cards), "starter": starter, "claim": claim,
            "score": score, "breakdown": None if breakdown is None else _breakdown_copy(breakdown)}


def _breakdown_copy(breakdown: list[list[Any]]) -> list[list[Any]]:
    """A breakdown for an event or a view, sharing no list with the state."""
    return [[kind, list(cards), points] for kind, cards, points in breakdown]


_PACK: tuple[int, ...] = tuple(range(52))


def _parse_cards(args: Sequence[str]) -> list[int]:
    try:
        return [parse_card(a) for a in args]
    except ValueError as e:
        raise InvalidAction(str(e)) from None


attach_core(Cribbage, "feltroom.games._cribbage_core", "CribbageCore")  # new_game uses the compiled core when built
