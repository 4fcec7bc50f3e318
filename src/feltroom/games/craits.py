"""Craits: a Crazy Eights descendant over 15 hands (rules/craits.md, notation.md#craits).

Cards are ints (``feltroom.cards``). The stock is kept top *last* (``stock[-1]`` is the
next card drawn), the discard pile bottom first. Hidden draws happen inside ``apply``;
the only decisions are ``play``, ``draw``, ``suit`` (8/9 upcard), ``one`` (ONEDEAL) and the
CLOCK actions ``close`` and ``timeout``.

>>> import feltroom
>>> g = feltroom.new_game("craits", players=3, seed=7, options={"first_dealer": 0})
>>> g.view(1)["hand_no"], g.view(1)["cards_per_hand"], len(g.view(1)["hand"])
(1, 8, 8)
>>> hand_score(parse_cards("AH 3S 3D 6C 7H 9S KD"))
37
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from ..cards import DECK, DOUBLE_DECK, NAMES, SUIT_NAMES, card_list, parse_card, parse_cards
from ..errors import IllegalAction, InvalidAction
from ..fastgame import attach_core
from ..game import CLOCK, Game, Seat, plain_copy
from ..options import Option
from ..registry import register

__all__ = ["POINTS", "Craits", "choose_dealer", "hand_score", "hand_size", "parse_cards", "score_hand"]

#: Card points by rank number 1–13 (CRAITS-SCORE-1); index 0 unused.
POINTS = (0, 1, 20, 3, 15, 30, 30, 20, 50, 30, 25, 10, 10, 10)
_CARD_POINTS = tuple(POINTS[c // 4 + 1] for c in range(52))
_RANK = tuple(c // 4 + 1 for c in range(52))
_QS = 11 * 4  # queen of spades
_SUITS = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♤": 0, "♥": 1, "♡": 1, "♦": 2, "♢": 2, "♣": 3, "♧": 3}
_CUT_RANK = (0, 14, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)  # ace high (CRAITS-SETUP-2)

#: The optional rules (CRAITS-VAR-*), each with its label in the lobby.
VARIANT_LABELS = {
    "short_game": "Short game (hands 1–8)",
    "dealer_follows_direction": "Dealer follows the direction of play",
    "remove_kq_small": "Remove kings and queens (2–3 players)",
    "one_card_on_one_card_deal": "“One card” on the one-card deal",
    "idiot_card": "Idiot card (draw at once)",
    "count_out_continues": "Going out during the count continues it",
    "threes_cancel_eights": "Threes cancel eights",
    "punitive_scoring": "Punitive scoring",
    "going_out_minus_10": "Going out scores −10",
    "face_card_functions": "Face cards have functions",
}
VARIANTS = tuple(VARIANT_LABELS)
VARIANT_HINTS = {
    "short_game": "Play only the first eight hands, from 8 cards down to 1.",
    "dealer_follows_direction": "The next dealer is the neighbour in the direction play ended in.",
    "remove_kq_small": "With 2 or 3 players, take the kings and queens out of the deck.",
    "one_card_on_one_card_deal": "On a hand of one card each, everyone must say “one card” after the deal.",
    "idiot_card": "Forgetting “one card” costs one card drawn at once instead of a lost turn.",
    "count_out_continues": "Going out during a count does not end the hand if you must pick up.",
    "threes_cancel_eights": "A three left in hand may also cancel an eight.",
    "punitive_scoring": "Threes cannot cancel aces, and a spare three scores 100.",
    "going_out_minus_10": "The player who goes out scores −10 instead of 0.",
    "face_card_functions": "Jacks make the next player draw, the queen of spades draws five, a king plays three.",
}


def decks_for(players: int) -> tuple[int, ...]:
    """The numbers of decks ``players`` may play with: only 6 players choose (CRAITS-SETUP-1).

    >>> decks_for(5), decks_for(6), decks_for(7)
    ((1,), (1, 2), (2,))
    """
    return (1,) if players <= 5 else (1, 2) if players == 6 else (2,)


def hand_size(hand: int) -> int:
    """N(h), the cards dealt to each player in hand ``h`` (CRAITS-GAME-1).

    >>> [hand_size(h) for h in range(1, 16)]
    [8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8]
    """
    return 9 - hand if hand <= 8 else hand - 7


def score_hand(cards: Iterable[int], eights: bool = False, punitive: bool = False) -> tuple[int, list[int]]:
    """The hand score and the cards the threes cancel (CRAITS-SCORE-3/4, VAR-THREE8/PUNITIVE).

    >>> score_hand(parse_cards("3S 3H"))
    (-100, [])
    >>> s, cancelled = score_hand(parse_cards("AH 3S 3D KC"), punitive=True)
    >>> s, [NAMES[c] for c in cancelled]
    (104, ['KC'])
    """
    held = list(cards)
    if not any(8 <= c < 12 for c in held):  # no threes (the usual case): just the points
        return sum(_CARD_POINTS[c] for c in held), []
    threes = sum(1 for c in held if _RANK[c] == 3)
    if held and threes == len(held):
        return -50 * threes, []
    others = [c for c in held if _RANK[c] != 3]
    total = sum(_CARD_POINTS[c] for c in others)
    eligible = [c for c in others if (eights or _RANK[c] != 8) and not (punitive and _RANK[c] == 1)]
    eligible.sort(key=lambda c: (-_CARD_POINTS[c], c))
    k = min(threes, len(eligible))
    cancelled = eligible[:k]
    total -= sum(_CARD_POINTS[c] for c in cancelled)
    total += 3 * k + (100 if punitive else 3) * (threes - k)
    return total, sorted(cancelled)


def hand_score(cards: Iterable[int], eights: bool = False, punitive: bool = False) -> int:
    """Just the score of :func:`score_hand`."""
    return score_hand(cards, eights, punitive)[0]


def choose_dealer(seats: int, draw: Callable[[], int]) -> tuple[list[list[list[Any]]], int]:
    """The cut for the first dealer (CRAITS-DEALER-1): ``draws`` (rounds of ``[seat, card]``) and the dealer.

    ``draw`` returns the next card of the shuffled pack. The lowest card deals, the ace is
    high and the 2 lowest (CRAITS-SETUP-2); tied players alone draw again.

    >>> cards = iter(parse_cards("4S 4H JD KC 3D"))
    >>> draws, dealer = choose_dealer(3, lambda: next(cards))
    >>> dealer, [[NAMES[c] for _, c in r] for r in draws]
    (1, [['4S', '4H', 'JD'], ['KC', '3D']])
    """
    drawing = list(range(seats))
    rounds: list[list[list[Any]]] = []
    while True:
        got = [(s, draw()) for s in drawing]
        rounds.append([[s, c] for s, c in got])
        low = min(_CUT_RANK[_RANK[c]] for _, c in got)
        drawing = [s for s, c in got if _CUT_RANK[_RANK[c]] == low]
        if len(drawing) == 1:
            return rounds, drawing[0]


# ---------------------------------------------------------------- precomputed action strings

def _forms(card: int) -> tuple[str, ...]:
    name = NAMES[card]
    own = card & 3
    rank = _RANK[card]
    if rank == 8:
        return (f"play {name}", *(f"play {name} suit {SUIT_NAMES[s]}" for s in range(4) if s != own))
    if rank == 9:
        return (f"play {name}", f"play {name} suit {SUIT_NAMES[3 - own]}")
    return (f"play {name}",)


_FORMS: tuple[tuple[str, ...], ...] = tuple(_forms(c) for c in range(52))
_FORMS_ONE: tuple[tuple[str, ...], ...] = tuple(tuple(x for f in _FORMS[c] for x in (f, f + " one")) for c in range(52))
_SUIT_ACTIONS = tuple(f"suit {s}" for s in SUIT_NAMES)
# canonical action string -> (kind, card, suit, one); kinds: 0 play, 1 draw, 2 suit, 3 one, 4 close, 5 timeout
_INFO: dict[str, tuple[int, int, int, bool]] = {"draw": (1, -1, -1, False), "one": (3, -1, -1, False),
                                                "close": (4, -1, -1, False), "timeout": (5, -1, -1, False)}
for _c in range(52):
    for _f in _FORMS_ONE[_c]:
        _parts = _f.split()
        _suit = _SUITS[_parts[3]] if len(_parts) > 3 and _parts[2] == "suit" else _c & 3
        _INFO[_f] = (0, _c, _suit, _parts[-1] == "one")
for _s in range(4):
    _INFO[_SUIT_ACTIONS[_s]] = (2, -1, _s, False)
_DIRS = {1: "cw", -1: "ccw"}
_SEATS = tuple((s,) for s in range(10))


class _HandEnded(Exception):
    def __init__(self, why: str) -> None:
        self.why = why


def _pack_for(players: int, options: dict[str, Any]) -> tuple[int, ...]:
    if options["decks"] == 2:
        return DOUBLE_DECK
    if options["remove_kq_small"] and players <= 3:
        return tuple(c for c in DECK if _RANK[c] < 12)
    return DECK


@register
class Craits(Game):
    """The Craits rules engine (CRAITS-*)."""

    name = "craits"
    min_players = 2
    max_players = 10
    default_players = 4
    lobby_rank = 2
    title = "Craits"
    blurb = "Shedding game of fifteen hands with special cards."
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        *(Option(v, False, (False, True), label=label, hint=VARIANT_HINTS[v]) for v, label in VARIANT_LABELS.items()),
        Option("decks", lambda n: decks_for(n)[-1], (1, 2), label="Decks", values_at=decks_for,
               hint="With 6 players: one deck, or two shuffled together."),
        Option("turn_time", None, (None, 30, 45, 60), label="Turn timer", unit="s",
               hint="Seconds for each decision; then you are treated as unable to play and draw."),
        Option("first_dealer", None, seat=True),
    )

    # state (annotations for mypy)
    hands: list[list[int]]
    stock: list[int]
    discard: list[int]
    totals: list[int]
    shuf_k: list[int]
    penalties: list[bool]
    went_out: set[int]
    declared: set[int]

    def check_options(self) -> None:
        n, decks = self.players, self.options["decks"]
        if decks not in decks_for(n):
            why = "only 6 players may choose (CRAITS-SETUP-1)" if n <= 5 else "7–10 players need 2 decks"
            raise ValueError(f"option 'decks' cannot be {decks} with {n} players: {why}")
        self._pack = _pack_for(n, self.options)

    def pack(self) -> tuple[int, ...]:
        return self._pack

    # ------------------------------------------------------------------ setup and hands

    def _setup(self) -> None:
        o = self.options
        self.n_hands = 8 if o["short_game"] else 15
        self.faces: bool = o["face_card_functions"]
        self.idiot_card: bool = o["idiot_card"]
        self.turn_time: int | None = o["turn_time"]
        self.totals = [0] * self.players
        self.shuf_k = [0] * self.players
        self.last_hand: dict[str, Any] | None = None
        self.hand_no = 0
        self.direction = 1
        self.phase = "play"
        self.turn: int | None = None
        self.hands = [[] for _ in range(self.players)]
        self.stock = []
        self.discard = []
        self.active = 0
        self.count = 0
        self.six = False
        self.run = 0
        self.streak = 0
        self.penalties = [False] * self.players
        self.went_out = set()
        self.declared = set()
        self.public_hands = False
        self.timer_on = False
        self._winners: list[int] = []
        dealer = o["first_dealer"]
        if dealer is None:
            pack = list(self._pack)
            self.rng.shuffle(pack)
            left = list(pack)

            def draw() -> int:
                nonlocal left
                if not left:
                    left = list(pack)
                    self.rng.shuffle(left)
                return left.pop()

            draws, dealer = choose_dealer(self.players, draw)
            self.log.append({"type": "cut", "to": "all",
                             "draws": [[[s, NAMES[c]] for s, c in r] for r in draws], "dealer": dealer})
        self.dealer: int = dealer
        self._start_hand()
        self._sync_timer()

    def _start_hand(self) -> None:
        """Deal hand ``hand_no + 1`` (CRAITS-DEAL-*), then turn the upcard (CRAITS-UP-*)."""
        n = self.players
        if self.hand_no:
            if self.options["dealer_follows_direction"]:
                self.dealer = (self.dealer + self.direction) % n
            else:
                self.direction = 1
                self.dealer = (self.dealer + 1) % n
        self.hand_no += 1
        size = hand_size(self.hand_no)
        d = self.direction
        order = self.deal_order(self.hand_no - 1)
        hands: list[list[int]] = [[] for _ in range(n)]
        dealt = size * n
        for i in range(n):  # one card at a time around the table, from the dealer's next
            hands[(self.dealer + d * (i + 1)) % n] = sorted(order[i:dealt:n])
        rest = order[dealt:]
        rest.reverse()
        self.hands, self.stock, self.discard = hands, rest, []
        self.count, self.six, self.run, self.streak = 0, False, 0, 0
        self.penalties = [False] * n
        self.went_out = set()
        self.declared = set()
        self.public_hands = False
        self.turn = None
        log = self.log
        log.append({"type": "hand_start", "to": "all", "hand": self.hand_no, "dealer": self.dealer,
                    "cards": size, "direction": _DIRS[d], "sizes": [size] * n})
        for s in range(n):
            log.append({"type": "reveal", "to": [s], "seat": s, "cards": card_list(hands[s]), "why": "deal"})
        if size == 1 and self.options["one_card_on_one_card_deal"]:
            self.phase = "declare"
            log.append({"type": "timer", "to": "all", "action": "close", "seconds": 5})
            return
        self.phase = "play"
        self._guarded(self._turn_up)

    def _turn_up(self) -> None:
        card = self.stock.pop()
        self.discard.append(card)
        self.active = card & 3
        self.streak = 1 if self.faces and _RANK[card] == 11 else 0
        self.log.append({"type": "upcard", "to": "all", "card": NAMES[card]})
        if _RANK[card] in (8, 9):
            self.phase = "suit"
            return
        self._function(self.dealer, card)

    def _guarded(self, step: Callable[..., None], *args: Any) -> None:
        try:
            step(*args)
        except _HandEnded as e:
            self._end_hand(e.why)

    def _end_hand(self, why: str) -> None:
        """Score the hand (CRAITS-OUT-5, CRAITS-SCORE-*), then deal the next or end the game."""
        o = self.options
        out10 = o["going_out_minus_10"]
        eights, punitive = o["threes_cancel_eights"], o["punitive_scoring"]
        counted_out = not o["count_out_continues"]
        hand_scores: list[int] = []
        cancelled: list[list[str]] = []
        went_out: list[int] = []
        for s, held in enumerate(self.hands):
            if not held or (counted_out and s in self.went_out):
                went_out.append(s)
                hand_scores.append(-10 if out10 else 0)
                cancelled.append([])
            else:
                score, cards = score_hand(held, eights, punitive)
                hand_scores.append(score)
                cancelled.append(card_list(cards))
        for s in range(self.players):
            self.totals[s] += hand_scores[s]
        self.public_hands = True
        self.turn = None
        self.phase = "over"
        last = {"hand": self.hand_no, "why": why, "hands": [card_list(h) for h in self.hands], "went_out": went_out,
                "cancelled": cancelled, "hand_scores": hand_scores, "scores": list(self.totals)}
        self.log.append({"type": "hand_end", "to": "all", **plain_copy(last)})
        self.last_hand = last
        if self.hand_no >= self.n_hands:
            low = min(self.totals)
            self._winners = [s for s, t in enumerate(self.totals) if t == low]
            self.log.append({"type": "game_end", "to": "all", "scores": list(self.totals),
                             "winners": list(self._winners)})
            return
        self._start_hand()

    def _sync_timer(self) -> None:
        """Start the turn timer for the decision now due, or stop it (notation.md §2.3)."""
        if self.turn_time is None:
            return
        if self.phase == "play" and self.turn is not None:
            seat = self.turn
        elif self.phase == "suit":
            seat = self.dealer
        else:
            if self.timer_on:
                self.timer_on = False
                self.log.append({"type": "timer_stop", "to": "all", "action": "timeout"})
            return
        self.timer_on = True
        self.log.append({"type": "timer", "to": "all", "action": "timeout", "seconds": self.turn_time, "seat": seat})

    # ------------------------------------------------------------------ turns and draws

    def _next(self, seat: int) -> int:
        return (seat + self.direction) % self.players

    def _begin_turn(self, seat: int) -> None:
        """Give ``seat`` its turn; a pending penalty turn is taken automatically (CRAITS-ONE-2/4)."""
        while self.penalties[seat]:
            self.penalties[seat] = False
            self.log.append({"type": "skip", "to": "all", "seat": seat, "why": "penalty"})
            self._draw(seat, 2, "penalty")
            if self.count:
                self._pick_up_count(seat)
            seat = self._next(seat)
        self.turn = seat

    def _skip(self, seat: int, why: str) -> None:
        """``seat`` misses a turn; a pending penalty is paid now (CRAITS-ONE-3)."""
        self.log.append({"type": "skip", "to": "all", "seat": seat, "why": why})
        if self.penalties[seat]:
            self.penalties[seat] = False
            self._draw(seat, 2, "penalty")

    def _draw(self, seat: int, n: int, why: str) -> None:
        """Draw ``n`` cards one at a time, rebuilding the stock as needed (CRAITS-SHUF-*)."""
        stock, hand = self.stock, self.hands[seat]
        got: list[int] = []
        for _ in range(n):
            if not stock:
                if got:
                    self._drew(seat, got, why)
                    got = []
                self._refill(seat)
                stock = self.stock
            card = stock.pop()
            insort(hand, card)
            got.append(card)
        if got:
            self._drew(seat, got, why)

    def _drew(self, seat: int, cards: list[int], why: str) -> None:
        log = self.log
        log.append({"type": "draw", "to": "all", "seat": seat, "n": len(cards), "why": why})
        log.append({"type": "reveal", "to": [seat], "seat": seat, "cards": card_list(cards), "why": "draw"})

    def _refill(self, seat: int) -> None:
        """The stock is empty and ``seat`` must draw: reshuffle (SHUF-1) or end the hand (SHUF-3)."""
        k = self.shuf_k[seat] + 1
        self.shuf_k[seat] = k
        points = 5 << (k - 1)
        if len(self.discard) < 2:
            self.totals[seat] += points
            self.log.append({"type": "shuffle_penalty", "to": "all", "seat": seat, "k": k, "points": points})
            raise _HandEnded("stock")
        top = self.discard.pop()
        stock = self.discard
        self.rng.shuffle(stock)
        self.stock, self.discard = stock, [top]
        self.log.append({"type": "reshuffle", "to": "all", "seat": seat, "stock_size": len(stock)})
        self.totals[seat] += points
        self.log.append({"type": "shuffle_penalty", "to": "all", "seat": seat, "k": k, "points": points})

    def _pick_up_count(self, seat: int) -> None:
        """``seat`` draws the count value; the count ends, with the end check (CRAITS-COUNT-4/7)."""
        value = self.count
        self._draw(seat, value, "count")
        self.count = 0
        self.log.append({"type": "count_end", "to": "all", "seat": seat, "value": value})
        if self.options["count_out_continues"]:
            if not all(self.hands):
                raise _HandEnded("count")
            self.went_out.clear()
        elif self.went_out:
            raise _HandEnded("count")

    # ------------------------------------------------------------------ plays

    def _play(self, seat: int, card: int, suit: int, one: bool) -> None:
        hand = self.hands[seat]
        hand.remove(card)
        self.discard.append(card)
        self.active = suit
        rank = _RANK[card]
        if self.faces:
            self.streak = self.streak + 1 if rank == 11 else 0
        in_count = self.count
        step = self.run
        self.six = False
        left = len(hand)
        log = self.log
        log.append({"type": "play", "to": "all", "seat": seat, "card": NAMES[card], "suit": SUIT_NAMES[suit],
                    "one": one and left == 1, "run": step or None})
        if left == 1 and not one:  # CRAITS-ONE-1/2, CRAITS-VAR-IDIOT
            if self.idiot_card:
                self.log.append({"type": "idiot", "to": "all", "seat": seat, "penalty": "card"})
                self._draw(seat, 1, "idiot_card")
            else:
                self.log.append({"type": "idiot", "to": "all", "seat": seat, "penalty": "turn"})
                self.penalties[seat] = True
        if in_count:  # CRAITS-COUNT-3
            self.count += rank
            self.log.append({"type": "count", "to": "all", "value": self.count})
            if not hand:
                self.went_out.add(seat)
            self._begin_turn((seat + self.direction) % self.players)
            return
        if step and step < 3:  # CRAITS-VAR-FACES-K(a): no function
            if not hand:
                raise _HandEnded("out")
            self.run = step + 1
            self.turn = seat
            return
        self.run = 0
        self._function(seat, card)

    def _function(self, seat: int, card: int) -> None:
        """Resolve ``card``'s function for ``seat``, check the hand end, and pass the turn (CRAITS-PLAY-5).

        Aces, 3s, 8s and 9s have no function (and the face cards none without ``face_card_functions``):
        the turn passes.
        """
        rank = _RANK[card]
        nxt = self._next
        after = (seat + self.direction) % self.players
        if rank == 2:  # CRAITS-COUNT-1
            self.count = 2
            self.went_out.clear()
            self.log.append({"type": "count", "to": "all", "value": 2})
            if not self.hands[seat]:  # went out with the 2 that starts the count (CRAITS-OUT-3)
                self.went_out.add(seat)
            self._begin_turn(after)
            return
        if rank == 4:  # CRAITS-CARD-4
            self._skip(after, "four")
            after = nxt(after)
        elif rank == 5:  # CRAITS-CARD-5
            victim = after
            for _ in range(self.players - 1):
                self._draw(victim, 1, "five")
                victim = nxt(victim)
        elif rank == 6:  # CRAITS-CARD-6: play again, or draw (no going out on a 6)
            self.six = True
            self.turn = seat
            return
        elif rank == 7:  # CRAITS-CARD-7
            self._draw(nxt(after) if self.players >= 4 else after, 1, "seven")
        elif rank == 10:  # CRAITS-CARD-10
            self.direction = -self.direction
            self.log.append({"type": "direction", "to": "all", "direction": _DIRS[self.direction]})
            after = nxt(seat)
        elif self.faces:
            if rank == 11:  # CRAITS-VAR-FACES-J
                self._draw(after, 2 * self.streak, "jack")
                self._skip(after, "jack")
                after = nxt(after)
            elif card == _QS:  # CRAITS-VAR-FACES-QS
                self._draw(after, 5, "queen_spades")
                self._skip(after, "queen_spades")
                after = nxt(after)
            elif rank == 13 and self.hands[seat]:  # CRAITS-VAR-FACES-K; a last king goes out (K(d))
                self.run = 1
                self.turn = seat
                return
        if not self.hands[seat]:  # CRAITS-OUT-1/2 (only the player can have no cards here)
            raise _HandEnded("out")
        self._begin_turn(after)

    # ------------------------------------------------------------------ the Game hooks

    @property
    def to_act(self) -> tuple[int, ...]:
        if self.phase == "play":
            return () if self.turn is None else _SEATS[self.turn]
        if self.phase == "suit":
            return (self.dealer,)
        if self.phase == "declare":
            return tuple(s for s in range(self.players) if s not in self.declared)
        return ()

    def legal_actions(self, seat: Seat) -> list[str]:
        phase = self.phase
        if seat == CLOCK:
            if phase == "declare":
                return ["close"]  # CRAITS-VAR-ONEDEAL
            if self.turn_time is not None and (phase == "suit" or (phase == "play" and self.turn is not None)):
                return ["timeout"]  # CRAITS-ONL-1
            return []
        if type(seat) is not int:
            return []  # unknown seats (True, 1.0, "P1") act for nobody
        if phase == "play":
            return self._plays(seat) if seat == self.turn else []
        if phase == "suit":
            if seat != self.dealer:
                return []
            up = self.discard[-1]
            if _RANK[up] == 8:  # CRAITS-UP-3: any suit for an 8
                return list(_SUIT_ACTIONS)
            return [_SUIT_ACTIONS[s] for s in sorted((up & 3, 3 - (up & 3)))]  # a 9: its suit or its colour's other
        if phase == "declare":
            return ["one"] if 0 <= seat < self.players and seat not in self.declared else []
        return []

    def _plays(self, seat: int) -> list[str]:
        """Every way ``seat`` may play a card now, or ``draw`` if none fits (CRAITS-PLAY-1/2, CRAITS-COUNT-2)."""
        out: list[str] = []
        for c in sorted(set(self.hands[seat])):  # a double deck's twin cards give one action
            if self._fits(c):
                out += _FORMS_ONE[c] if len(self.hands[seat]) == 2 else _FORMS[c]
        return out or ["draw"]

    def _fits(self, card: int) -> bool:
        """In the count only an ace or a 2 (CRAITS-COUNT-2); else the active suit, the upcard's rank,
        an 8 or a 9 (CRAITS-PLAY-1)."""
        if self.count:
            return _RANK[card] <= 2
        return card & 3 == self.active or _RANK[card] == _RANK[self.discard[-1]] or _RANK[card] in (8, 9)

    def canonical(self, seat: Seat, action: str) -> str:
        parts = action.split()
        if not parts:
            raise InvalidAction("empty action: try 'play 7S', 'draw', 'suit H' or 'one'")
        verb = parts[0].lower()
        args = parts[1:]
        if verb in ("draw", "one", "close", "timeout"):
            if args:
                raise InvalidAction(f"'{verb}' takes no arguments")
            return verb
        if verb == "suit":
            if len(args) != 1:
                raise InvalidAction("write 'suit X' with one suit: S, H, D or C")
            return _SUIT_ACTIONS[_parse_suit(args[0])]
        if verb != "play":
            raise InvalidAction(f"unknown action {parts[0]!r}: Craits has play, draw, suit, one")
        if not args:
            raise InvalidAction("play which card? e.g. 'play 7S'")
        try:
            card = parse_card(args[0])
        except ValueError as e:
            raise InvalidAction(str(e)) from None
        suit: int | None = None
        one = False
        i = 1
        while i < len(args):
            word = args[i].lower()
            if word == "one" and not one:
                one = True
                i += 1
            elif word == "suit" and suit is None and i + 1 < len(args):
                suit = _parse_suit(args[i + 1])
                i += 2
            else:
                raise InvalidAction(f"unexpected {args[i]!r}: write 'play C [suit X] [one]'")
        if suit is not None and _RANK[card] not in (8, 9):
            raise InvalidAction(f"only an 8 or a 9 takes a suit, not {NAMES[card]}")
        text = f"play {NAMES[card]}"
        if suit is not None and suit != card & 3:
            text += f" suit {SUIT_NAMES[suit]}"
        if one and type(seat) is int and 0 <= seat < self.players and len(self.hands[seat]) == 2:
            text += " one"
        return text

    def illegal(self, seat: Seat, action: str) -> IllegalAction:
        verb = action.split()[0]
        if verb == "close":
            return IllegalAction("CRAITS-VAR-ONEDEAL", "only the clock closes the one-card declarations, "
                                 "and only while they are open")
        if verb == "timeout":
            return IllegalAction("CRAITS-ONL-1", "no timed decision is due for the clock to settle")
        if verb == "one":
            return IllegalAction("CRAITS-VAR-ONEDEAL", "'one' is declared only after a one-card deal, once")
        if verb == "suit" and self.phase != "suit":
            return IllegalAction("CRAITS-UP-3", "a suit is chosen this way only for an 8 or 9 upcard; "
                                 "to change suit, write it in the play: 'play 8S suit H'")
        if seat == CLOCK or seat not in self.to_act:
            if self.phase == "over":
                return IllegalAction("CRAITS-PLAY-6", "the game is over")
            if seat == CLOCK:
                return IllegalAction("CRAITS-PLAY-6", "the clock plays only 'timeout' and 'close'")
            return IllegalAction("CRAITS-PLAY-6", "it is not {seat}'s turn", {"seat": seat})
        assert type(seat) is int
        if self.phase == "suit":
            if verb == "suit":
                return IllegalAction("CRAITS-CARD-9", "a 9 allows only its own suit or the other suit of its colour")
            return IllegalAction("CRAITS-UP-3", "first choose the suit for the upcard: 'suit X'")
        if self.phase == "declare":
            return IllegalAction("CRAITS-VAR-ONEDEAL", "declare 'one' first; play starts after the upcard")
        hand = self.hands[seat]
        if verb == "draw":
            if self.count:
                return IllegalAction("CRAITS-COUNT-2", "you hold an ace or a 2: you must answer the count")
            return IllegalAction("CRAITS-PLAY-2", "you hold a card you can play, so you may not draw")
        card = parse_card(action.split()[1])
        if card not in hand:
            return IllegalAction("CRAITS-PLAY-2", "you do not hold {card}", {"card": NAMES[card]})
        if self.count:
            return IllegalAction("CRAITS-COUNT-2", "in the count only an ace or a 2 may be played, not {card}",
                                 {"card": NAMES[card]})
        top = self.discard[-1]
        if not ((card & 3) == self.active or _RANK[card] == _RANK[top] or _RANK[card] in (8, 9)):
            rule = "CRAITS-VAR-FACES-K" if self.run else "CRAITS-PLAY-1"
            return IllegalAction(rule, "{card} does not match {top_card} with {suit} active: play the same rank, "
                                 "the active suit, an 8 or a 9",
                                 {"card": NAMES[card], "top_card": NAMES[top], "suit": SUIT_NAMES[self.active]})
        return IllegalAction("CRAITS-CARD-9", "a 9 may name only the other suit of its own colour")

    def _apply(self, seat: Seat, action: str) -> None:
        kind, card, suit, one = _INFO[action]
        if kind == 0:
            assert type(seat) is int
            try:
                self._play(seat, card, suit, one)
            except _HandEnded as e:
                self._end_hand(e.why)
        elif kind == 1:
            assert type(seat) is int
            try:
                self._draw_turn(seat)
            except _HandEnded as e:
                self._end_hand(e.why)
        elif kind == 2:
            self._guarded(self._choose_suit, suit)
        elif kind == 3:
            assert type(seat) is int
            self.declared.add(seat)
            self.log.append({"type": "declare", "to": "all", "seat": seat})
            if len(self.declared) == self.players:
                self._guarded(self._close)
        elif kind == 4:
            self._guarded(self._close)
        else:
            owner = self.dealer if self.phase == "suit" else self.turn
            self.log.append({"type": "timeout", "to": "all", "seats": [owner]})
            if self.phase == "suit":
                self._guarded(self._choose_suit, self.discard[-1] & 3)
            else:
                assert owner is not None
                self._guarded(self._draw_turn, owner)
        if self.turn_time is not None:
            self._sync_timer()

    def _draw_turn(self, seat: int) -> None:
        """``draw``: 1 card (or the count value), and the turn ends (CRAITS-PLAY-3, CRAITS-COUNT-4)."""
        self.six = False
        self.run = 0
        if self.count:
            self._pick_up_count(seat)
        else:
            self._draw(seat, 1, "turn")
        after = (seat + self.direction) % self.players
        if self.penalties[after]:
            self._begin_turn(after)
        else:
            self.turn = after

    def _choose_suit(self, suit: int) -> None:
        self.active = suit
        self.phase = "play"
        self.log.append({"type": "suit", "to": "all", "seat": self.dealer, "suit": SUIT_NAMES[suit]})
        self._begin_turn(self._next(self.dealer))

    def _close(self) -> None:
        """End the one-card-deal declarations (CRAITS-VAR-ONEDEAL), then turn the upcard."""
        self.log.append({"type": "timer_stop", "to": "all", "action": "close"})
        self.phase = "play"
        for s in range(self.players):
            if s in self.declared:
                continue
            if self.idiot_card:
                self.log.append({"type": "idiot", "to": "all", "seat": s, "penalty": "card"})
                self._draw(s, 1, "idiot_card")
            else:
                self.log.append({"type": "idiot", "to": "all", "seat": s, "penalty": "turn"})
                self.penalties[s] = True
        self._turn_up()

    # ------------------------------------------------------------------ views and results

    def own_view(self, seat: int | None) -> dict[str, Any]:
        """The seat and its hand (a spectator's view has no ``hand``)."""
        self.check_view_seat(seat)
        if seat is None:
            return {"seat": None}
        return {"seat": seat, "hand": card_list(self.hands[seat])}

    def public_view(self) -> dict[str, Any]:
        v = self.base_public_view("over" if self.is_over else self.phase)
        top = self.discard[-1] if self.discard else None
        v.update({
            "hand_no": self.hand_no,
            "cards_per_hand": hand_size(self.hand_no),
            "dealer": self.dealer,
            "turn": self.turn,
            "hand_sizes": [len(h) for h in self.hands],
            "stock_size": len(self.stock),
            "discard_top": None if top is None else NAMES[top],
            "discard_size": len(self.discard),
            "active_suit": None if top is None else SUIT_NAMES[self.active],
            "direction": _DIRS[self.direction],
            "count": self.count or None,
            "six": self.six,
            "run": self.run or None,
            "jack_streak": self.streak,
            "penalties": [s for s in range(self.players) if self.penalties[s]],
            "declared": sorted(self.declared),
            "shuffle_penalties": list(self.shuf_k),
            "last_hand": plain_copy(self.last_hand),
        })
        return v

    @property
    def is_over(self) -> bool:
        return bool(self._winners)

    @property
    def scores(self) -> list[int]:
        return list(self.totals)

    @property
    def winners(self) -> list[int]:
        return list(self._winners)

    def audit_cards(self) -> list[int]:
        return [c for h in self.hands for c in h] + self.stock + self.discard

    def audit_hidden(self, seat: int | None) -> list[int]:
        hidden = list(self.stock)
        if not self.public_hands:
            for s, h in enumerate(self.hands):
                if s != seat:
                    hidden.extend(h)
        return hidden

    def copy(self) -> Craits:
        g = object.__new__(Craits)
        d = dict(self.__dict__)
        g.__dict__ = d
        g.log = list(self.log)
        g.actions = [list(a) for a in self.actions]
        g.meta = dict(self.meta)
        g.options = dict(self.options)
        g.rng = self.rng.copy()
        g.hands = [list(h) for h in self.hands]
        g.stock = list(self.stock)
        g.discard = list(self.discard)
        g.totals = list(self.totals)
        g.shuf_k = list(self.shuf_k)
        g.penalties = list(self.penalties)
        g.went_out = set(self.went_out)
        g.declared = set(self.declared)
        g._winners = list(self._winners)
        return g


def _parse_suit(text: str) -> int:
    suit = _SUITS.get(text.replace("\ufe0f", "").upper())
    if suit is None:
        raise InvalidAction(f"not a suit: {text!r} (S, H, D or C)")
    return suit


attach_core(Craits, "feltroom.games._craits_core", "CraitsCore")  # new_game uses the compiled core when built
