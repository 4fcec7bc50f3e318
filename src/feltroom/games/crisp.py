"""Crisp: the memory card game of three face-down cards (rules/crisp.md, notation.md#crisp).

Cards are ints (``feltroom.cards``). The deck is stored top card LAST (``deck[-1]`` is the
top, so a draw is ``pop()``); the discard pile is stored bottom first (``discard[-1]`` is
the top), as CRISP-CONV-4 writes it.

>>> import feltroom
>>> g = feltroom.new_game("crisp", players=2, seed=3, options={"first_dealer": 0},
...                       deck=["9S", "AD", "4H", "6C", "2C", "3S", "KS"])
>>> g.to_act, g.legal_actions(1)
((1,), ['draw'])
>>> [e["type"] for e in g.apply(1, "DRAW deck")]
['draw', 'reveal']
>>> g.legal_actions(1)
['king']
>>> g.apply(1, "king")[0]["pending"]
2
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from ..cards import NAMES
from ..errors import IllegalAction, InvalidAction
from ..game import CLOCK, Game, Seat, plain_copy
from ..options import Option
from ..registry import register

SLOTS = ("L", "C", "R")
_SLOT_INDEX = {"L": 0, "C": 1, "R": 2}
#: Points of each card id (CRISP-VAL-1): A = 1, 2–9 face value, 10 J Q K = 10.
VALUE: tuple[int, ...] = tuple(min(c // 4 + 1, 10) for c in range(52))
#: Rank number 1–13 of each card id.
RANK: tuple[int, ...] = tuple(c // 4 + 1 for c in range(52))
JACK, QUEEN, KING = 11, 12, 13
DECK_SRC, DISCARD_SRC = 0, 1
_SOURCE = ("deck", "discard")

SWAPS = ["swap L", "swap C", "swap R"]
_DRAW = ["draw"]
_DRAW_BOTH = ["draw", "draw discard"]
_RESOLVE_CARD = [*SWAPS, "discard"]
_JACK = ["discard", "jack"]
_KING = ["king"]
_WINDOW = ["crisp", "decline"]
_NOARG = frozenset({"discard", "jack", "king", "crisp", "decline", "timeout", "release"})
_CLOCK_VERBS = frozenset({"timeout", "release", "close"})
_RANK_LETTER = {JACK: "J", QUEEN: "Q", KING: "K"}
_VERB_RANK = {"jack": JACK, "queen": QUEEN, "king": KING}
_VERBS = "draw, draw discard, swap L|C|R, discard, jack, queen S O T, king, crisp, decline"

_QUEENS: dict[tuple[int, int], list[str]] = {}


def queen_actions(players: int, actor: int) -> list[str]:
    """The 9·(n−1) ``queen`` actions of ``actor``, canonical and sorted (notation.md §2.2).

    >>> queen_actions(2, 0)[:4]
    ['queen L 1 L', 'queen L 1 C', 'queen L 1 R', 'queen C 1 L']
    >>> len(queen_actions(4, 2))
    27
    """
    key = (players, actor)
    acts = _QUEENS.get(key)
    if acts is None:
        acts = [f"queen {s} {o} {t}" for s in SLOTS for o in range(players) if o != actor for t in SLOTS]
        _QUEENS[key] = acts
    return acts


def hand_total(cards: list[int]) -> int:
    """A hand's total (CRISP-VAL-3); every J/Q/K in a slot counts 10 (CRISP-VAL-2).

    >>> from feltroom.cards import parse_cards
    >>> hand_total(parse_cards("KD AH 3S"))
    14
    """
    return sum(VALUE[c] for c in cards)


def _short(text: str) -> str:
    return repr(text if len(text) <= 30 else text[:27] + "...")


@register
class Crisp(Game):
    """The Crisp rules engine (one round after another until the end limit)."""

    name: ClassVar[str] = "crisp"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    default_players: ClassVar[int] = 4
    lobby_rank: ClassVar[int] = 1
    title: ClassVar[str] = "Crisp"
    blurb: ClassVar[str] = "Memory and bluff: three face-down cards, lowest total wins."
    # The lobby offers three end limits (CRISP-ONL-2) and runs the clock itself.
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option("end_limit", 100, lo=1, hi=1000, label="End limit", lobby_choices=(50, 100, 150),
               hint="The game ends after the round in which someone reaches this many points."),
        Option("draw_time", None, choices=(None, 30, 45, 60), label="Draw timer", unit="s",
               hint="Seconds for each draw; when they run out, the rest of the turn is lost."),
        Option("draw_from_discard", False, choices=(False, True), label="Draw from the discard pile",
               hint="Any draw may take the top discard instead, which must then be swapped in."),
        Option("clock", False, choices=(False, True), fixed=True),
        Option("first_dealer", None, seat=True),
    )

    # state (set in _setup / _deal); declared for mypy
    hands: list[list[int]]
    deck: list[int]
    discard: list[int]
    kings: list[int]
    round_no: int
    dealer: int
    turn: int
    pending: int
    held: int
    held_src: int
    last_turn: bool
    declarer: int | None
    last_turns: list[int]
    windows: list[int]
    win_closed: list[bool]
    hold: bool
    hold_owner: int
    revealed: bool
    over: bool
    _scores: list[int]
    _winners: list[int]
    last_round: dict[str, Any] | None
    _legal: dict[Seat, list[str]]
    _to_act: tuple[int, ...] | None

    def check_options(self) -> None:
        if self.options["draw_time"] is not None and not self.options["clock"]:
            raise ValueError("option 'draw_time' needs 'clock': true (a draw timer only runs with the clock); "
                             "allowed: draw_time null, or clock true with draw_time 30, 45 or 60")

    def pack(self) -> tuple[int, ...]:
        return tuple(range(52))

    # ------------------------------------------------------------------ setup and rounds

    def _setup(self) -> None:
        n = self.players
        self.clock: bool = self.options["clock"]
        self.draw_time: int | None = self.options["draw_time"]
        self.from_discard: bool = self.options["draw_from_discard"]
        self.end_limit: int = self.options["end_limit"]
        first = self.options["first_dealer"]
        self.dealer = self.rng.below(n) if first is None else first  # CRISP-DEAL-1, CRISP-AMB-1
        self._scores = [0] * n
        self._winners = []
        self.over = False
        self.last_round = None
        self.round_no = 0
        self.win_closed = [False] * n
        self._legal = {}
        self._to_act = None
        self._deal()

    def _deal(self) -> None:
        """Deal a round (CRISP-DEAL-2..7) and emit its opening events."""
        n = self.players
        self.round_no += 1
        if self.round_no > 1:
            self.dealer = (self.dealer + 1) % n  # CRISP-DEAL-2
        order = self.deal_order(self.round_no - 1)  # top first, CRISP-SETUP-2
        dealer = self.dealer
        hands: list[list[int]] = [[0, 0, 0] for _ in range(n)]
        k = 0
        for slot in range(3):  # CRISP-DEAL-3/4: three passes from the dealer's left
            for i in range(1, n + 1):
                hands[(dealer + i) % n][slot] = order[k]
                k += 1
        self.hands = hands
        rest = order[k:]
        rest.reverse()
        self.deck = rest  # top last
        self.discard = []  # CRISP-DEAL-5: no upcard
        self.kings = []
        self.held = -1
        self.held_src = DECK_SRC
        self.declarer = None
        self.last_turns = []
        self.windows = []
        self.win_closed = [False] * n
        self.hold = False
        self.hold_owner = -1
        self.revealed = False
        first = (dealer + 1) % n  # CRISP-DEAL-7
        log = self.log
        log.append({"type": "round_start", "to": "all", "round": self.round_no, "dealer": dealer, "first": first})
        for i in range(1, n + 1):  # CRISP-DEAL-6: the peek at L and R, automatic
            s = (dealer + i) % n
            for slot in (0, 2):
                self.log.append({"type": "reveal", "to": [s], "seat": s, "cards": [NAMES[hands[s][slot]]],
                                 "slot": SLOTS[slot], "why": "deal"})
        self._start_turn(first, False)

    def _start_turn(self, seat: int, last: bool) -> None:
        self.turn = seat
        self.pending = 1  # CRISP-TURN-2
        self.held = -1
        self.last_turn = last
        self.hold = False
        self.win_closed[seat] = False
        self.log.append({"type": "turn_start", "to": "all", "seat": seat, "last": last})
        if self.draw_time is not None:  # CRISP-ONL-TIME-2
            self.log.append({"type": "timer", "to": "all", "action": "timeout", "seconds": self.draw_time,
                             "seat": seat})

    # ------------------------------------------------------------------ who acts, what is legal

    @property
    def to_act(self) -> tuple[int, ...]:
        acts = self._to_act
        if acts is None:
            if self.over:
                acts = ()
            elif self.hold:
                acts = tuple(self.windows)
            else:
                acts = (*self.windows, self.turn)
            self._to_act = acts
        return acts

    def legal_actions(self, seat: Seat) -> list[str]:
        if type(seat) is not int and seat != CLOCK:
            return []
        cached = self._legal.get(seat)
        if cached is None:
            cached = self._legal[seat] = self._compute_legal(seat)
        return list(cached)

    def _compute_legal(self, seat: Seat) -> list[str]:
        if self.over:
            return []
        if seat == CLOCK:
            if not self.clock:
                return []
            acts: list[str] = []
            if self.draw_time is not None and not self.hold:
                acts.append("timeout")
            if self.hold:
                acts.append("release")
            acts.extend(f"close {s}" for s in sorted(self.windows))
            return acts
        if type(seat) is not int:
            return []
        if seat in self.windows:
            return list(_WINDOW)
        if seat != self.turn or self.hold:
            return []
        held = self.held
        if held < 0:
            return list(_DRAW_BOTH) if self.from_discard and self.discard else list(_DRAW)
        if self.held_src == DISCARD_SRC:
            return list(SWAPS)  # CRISP-ONL-DISC-2/3
        rank = RANK[held]
        if rank <= 10:
            return list(_RESOLVE_CARD)
        if rank == JACK:
            return list(_JACK)
        if rank == QUEEN:
            return ["discard", *queen_actions(self.players, seat)]
        return list(_KING)  # CRISP-SPEC-3

    # ------------------------------------------------------------------ parsing

    def _parse_seat(self, token: str, what: str) -> int:
        t = token[1:] if token[:1] in ("p", "P") else token
        if not t.isdigit() or not t.isascii():
            raise InvalidAction(f"{what} must be a seat number 0–{self.players - 1} (or P0…), not {_short(token)}")
        s = int(t)
        if s >= self.players:
            raise InvalidAction(f"there is no seat {s}: seats are 0–{self.players - 1}")
        return s

    @staticmethod
    def _parse_slot(token: str) -> str:
        slot = token.upper()
        if slot not in _SLOT_INDEX:
            raise InvalidAction(f"a slot is L, C or R, not {_short(token)}")
        return slot

    def canonical(self, seat: Seat, action: str) -> str:
        """Parse ``action`` (notation.md §2.1) and write it canonically.

        >>> import feltroom
        >>> g = feltroom.new_game("crisp", players=4, seed=1)
        >>> g.canonical(0, "  Queen r p3   c ")
        'queen R 3 C'
        >>> g.canonical(0, "draw deck")
        'draw'
        """
        if not isinstance(action, str):
            raise InvalidAction(f"an action is a string, not {type(action).__name__}")
        toks = action.split()
        if not toks:
            raise InvalidAction(f"empty action: Crisp actions are {_VERBS}")
        verb = toks[0].lower()
        args = toks[1:]
        if verb == "draw":
            if not args:
                return "draw"
            if len(args) == 1 and args[0].lower() in ("deck", "discard"):
                return "draw" if args[0].lower() == "deck" else "draw discard"
            raise InvalidAction(f"'draw' takes nothing, 'deck' or 'discard', not {_short(' '.join(args))}")
        if verb in _NOARG:
            if args:
                raise InvalidAction(f"{verb!r} takes no arguments (got {_short(' '.join(args))})")
            return verb
        if verb == "swap":
            if len(args) != 1:
                raise InvalidAction("'swap' takes one slot: swap L, swap C or swap R")
            return "swap " + self._parse_slot(args[0])
        if verb == "queen":
            if len(args) != 3:
                raise InvalidAction("'queen' takes your slot, another seat and its slot, e.g. queen L 2 R")
            s = self._parse_slot(args[0])
            o = self._parse_seat(args[1], "the Queen's target")
            t = self._parse_slot(args[2])
            return f"queen {s} {o} {t}"
        if verb == "close":
            if len(args) != 1:
                raise InvalidAction("'close' takes one seat, e.g. close 1")
            return f"close {self._parse_seat(args[0], 'close')}"
        raise InvalidAction(f"unknown action {_short(toks[0])}: Crisp actions are {_VERBS}")

    # ------------------------------------------------------------------ rejections

    def illegal(self, seat: Seat, action: str) -> IllegalAction:
        """Why ``action`` (canonical) is not legal now: the first row of the rejection table."""
        verb, *args = action.split()
        if verb in _CLOCK_VERBS:
            rule = {"timeout": "CRISP-ONL-TIME-1", "release": "CRISP-ONL-WIN-2", "close": "CRISP-ONL-WIN-1"}[verb]
            if seat != CLOCK:
                return IllegalAction(rule, "only the table's clock applies '{action}', not a player",
                                     {"action": action})
            if not self.clock:
                return IllegalAction(rule, "this table plays without a clock (option clock is false)")
            if self.over:
                return IllegalAction(rule, "the game is over")
            if verb == "timeout":
                if self.draw_time is None:
                    return IllegalAction(rule, "no draw timer at this table")
                return IllegalAction(rule, "no draw timer is running now")
            if verb == "release":
                return IllegalAction(rule, "no player is being held after a turn end")
            return IllegalAction(rule, "{seat} has no open crisp window", {"seat": int(args[0])})
        if seat == CLOCK:
            return IllegalAction("CRISP-TURN-1", "the clock only applies timeout, release and close S")
        assert isinstance(seat, int)
        if self.over:
            return IllegalAction("CRISP-TURN-1", "the game is over")
        if verb in ("crisp", "decline"):
            if verb == "crisp" and self.declarer is not None:
                if self.declarer == seat:
                    return IllegalAction("CRISP-CALL-5", "only one crisp per round: you already declared it, "
                                         "and no one may declare after a last turn")
                return IllegalAction("CRISP-CALL-5", "only one crisp per round: {seat} already declared it, "
                                     "and no one may declare after a last turn", {"seat": self.declarer})
            if self.win_closed[seat]:
                rule = "CRISP-ONL-WIN-1" if self.clock else "CRISP-CALL-2"
                if self.clock:
                    return IllegalAction(rule, "your crisp window has closed: a declaration must come right "
                                         "after your turn (within {seconds} s)", {"seconds": 3})
                return IllegalAction(rule, "your crisp window has closed: a declaration must come right "
                                     "after your turn, before the next draw")
            if verb == "crisp":
                return IllegalAction("CRISP-CALL-1", "you may declare crisp only right after your own turn ends "
                                     "normally (not before your turn, during one, or after a timeout)")
            return IllegalAction("CRISP-CALL-1", "you have no crisp window to decline: it opens only "
                                 "right after your own turn ends normally")
        if seat != self.turn:
            return IllegalAction("CRISP-TURN-1", "it is not your turn: {seat} is to play", {"seat": self.turn})
        if self.hold:
            return IllegalAction("CRISP-ONL-WIN-2", "wait: {seat}'s crisp window holds your turn for {seconds} s",
                                 {"seat": (self.turn - 1) % self.players, "seconds": 2})
        held = self.held
        if verb == "draw":
            if held >= 0:
                return IllegalAction("CRISP-TURN-4", "you already hold {card}: resolve it first "
                                     "(swap, discard or use it)", {"card": NAMES[held]})
            if not self.from_discard:
                return IllegalAction("CRISP-TURN-3", "drawing from the discard pile is off at this table: "
                                     "draw from the deck")
            return IllegalAction("CRISP-ONL-DISC-4", "the discard pile is empty: draw from the deck")
        if held < 0:
            return IllegalAction("CRISP-TURN-3", "draw a card first")
        rank = RANK[held]
        if verb == "swap" and self.held_src == DECK_SRC and rank >= JACK:
            return IllegalAction("CRISP-SPEC-1", "{card} was drawn from the deck: a J, Q or K from the "
                                 "deck can never be swapped into a slot", {"card": NAMES[held]})
        if verb == "discard" and self.held_src == DECK_SRC and rank == KING:
            return IllegalAction("CRISP-SPEC-3", "a King from the deck must be used: play 'king' with {card}",
                                 {"card": NAMES[held]})
        if self.held_src == DISCARD_SRC and verb != "swap":
            return IllegalAction("CRISP-ONL-DISC-2", "{card} came from the discard pile: it must be "
                                 "swapped into one of your slots (swap L, swap C or swap R)", {"card": NAMES[held]})
        if verb in _VERB_RANK and rank != _VERB_RANK[verb]:
            return IllegalAction("CRISP-TURN-4", "you hold {card}, not a {rank}",
                                 {"card": NAMES[held], "rank": _RANK_LETTER[_VERB_RANK[verb]]})
        if verb == "queen" and int(args[1]) == seat:
            return IllegalAction("CRISP-SPEC-7", "a Queen swaps one of your cards with a card of ANOTHER player")
        return IllegalAction("CRISP-TURN-4", "'{action}' is not possible now", {"action": action})

    # ------------------------------------------------------------------ applying

    def _apply(self, seat: Seat, action: str) -> None:
        self._legal = {}
        self._to_act = None
        handler = _HANDLERS.get(action)
        if handler is not None:
            handler(self, seat)
            self._dirty()
            return
        verb, *args = action.split()
        if verb == "swap":
            self._swap(_SLOT_INDEX[args[0]])
        elif verb == "queen":
            self._queen(_SLOT_INDEX[args[0]], int(args[1]), _SLOT_INDEX[args[2]])
        else:  # close S
            self._close(int(args[0]), "clock", deadline_passed=True)
        self._legal = {}
        self._to_act = None

    def _dirty(self) -> None:
        self._legal = {}
        self._to_act = None

    def _close(self, s: int, why: str, deadline_passed: bool = False) -> None:
        """Close ``s``'s window; stop its ``close S`` timer unless that deadline is what closed it."""
        self.windows.remove(s)
        self.win_closed[s] = True
        self.log.append({"type": "window_close", "to": "all", "seat": s, "why": why})
        if self.clock and not deadline_passed:
            self.log.append({"type": "timer_stop", "to": "all", "action": f"close {s}"})
        self._dirty()

    def _flip(self) -> bool:
        """Turn the discard pile over into the deck (CRISP-DECK-1); False if it is empty too."""
        if not self.discard:  # CRISP-AMB-11: cannot happen (CRISP-DECK-3)
            return False
        self.deck = self.discard[::-1]  # oldest discard becomes the top (deck[-1])
        self.discard = []
        self.log.append({"type": "flip", "to": "all", "size": len(self.deck)})
        return True

    def _draw(self, source: int) -> None:
        seat = self.turn
        if self.windows and not self.clock:  # CRISP-CALL-2: the next player's first draw closes it
            for w in list(self.windows):
                self._close(w, "draw")
        if source == DISCARD_SRC:
            card = self.discard.pop()
            self.held = card
            self.held_src = DISCARD_SRC
            self.log.append({"type": "draw", "to": "all", "seat": seat, "source": "discard", "card": NAMES[card]})
        else:
            if not self.deck and not self._flip():
                self._round_end()
                return
            card = self.deck.pop()
            self.held = card
            self.held_src = DECK_SRC
            self.log.append({"type": "draw", "to": "all", "seat": seat, "source": "deck"})
            self.log.append({"type": "reveal", "to": [seat], "seat": seat, "cards": [NAMES[card]],
                             "slot": None, "why": "draw"})
        self._dirty()

    def _resolved(self) -> None:
        """One pending draw resolved (CRISP-TURN-4): end the turn or time the next draw."""
        self._dirty()
        if self.pending == 0:
            self._end_turn("done", 0)
        elif self.draw_time is not None:  # CRISP-ONL-TIME-1/2: every extra draw has its own limit
            self.log.append({"type": "timer", "to": "all", "action": "timeout", "seconds": self.draw_time,
                             "seat": self.turn})

    def _swap(self, slot: int) -> None:
        seat = self.turn
        hand = self.hands[seat]
        out = hand[slot]
        hand[slot] = self.held
        self.held = -1
        self.discard.append(out)
        self.pending -= 1
        self.log.append({"type": "swap", "to": "all", "seat": seat, "slot": SLOTS[slot], "out": NAMES[out]})
        self._resolved()

    def _discard(self, seat: Seat) -> None:
        card = self.held
        self.held = -1
        self.discard.append(card)
        self.pending -= 1
        self.log.append({"type": "discard", "to": "all", "seat": self.turn, "card": NAMES[card], "why": "play"})
        self._resolved()

    def _jack(self, seat: Seat) -> None:
        s = self.turn
        card = self.held
        self.held = -1
        self.discard.append(card)
        self.pending -= 1
        self.log.append({"type": "reveal", "to": [s], "seat": s, "cards": [NAMES[self.hands[s][1]]],
                         "slot": "C", "why": "jack"})  # CRISP-SPEC-4
        self.log.append({"type": "jack", "to": "all", "seat": s, "card": NAMES[card]})
        self._resolved()

    def _queen(self, slot: int, other: int, tslot: int) -> None:
        s = self.turn
        card = self.held
        mine, theirs = self.hands[s], self.hands[other]
        mine[slot], theirs[tslot] = theirs[tslot], mine[slot]  # CRISP-SPEC-5
        self.held = -1
        self.discard.append(card)
        self.pending -= 1
        log = self.log
        log.append({"type": "queen", "to": "all", "seat": s, "card": NAMES[card], "slot": SLOTS[slot],
                    "target": other, "target_slot": SLOTS[tslot]})
        if slot != 1:  # CRISP-SPEC-6
            log.append({"type": "reveal", "to": [s], "seat": s, "cards": [NAMES[mine[slot]]],
                        "slot": SLOTS[slot], "why": "queen"})
        if tslot != 1:
            log.append({"type": "reveal", "to": [other], "seat": other, "cards": [NAMES[theirs[tslot]]],
                        "slot": SLOTS[tslot], "why": "queen"})
        self._resolved()

    def _king(self, seat: Seat) -> None:
        card = self.held
        self.held = -1
        self.kings.append(card)  # CRISP-SPEC-8: in use beside the pile
        self.pending += 1  # −1 for this draw, +2 extra draws
        self.log.append({"type": "king", "to": "all", "seat": self.turn, "card": NAMES[card],
                         "pending": self.pending})
        self._resolved()

    def _crisp(self, seat: Seat) -> None:
        assert isinstance(seat, int)
        n = self.players
        self.declarer = seat
        nxt = (seat + 1) % n
        if self.hold and self.hold_owner == nxt and nxt != seat:
            # CRISP-ONL-WIN-3, CRISP-AMB-18: the next player's turn already finished: it was their last turn
            order = [(seat + k) % n for k in range(2, n)]
        else:
            order = [(seat + k) % n for k in range(1, n)]  # CRISP-CALL-3
        self.last_turns = order
        self.last_turn = True  # the turn in progress, or the held one, is a last turn
        self.log.append({"type": "crisp", "to": "all", "seat": seat, "last_turns": list(order)})
        self._close(seat, "crisp")
        for w in list(self.windows):  # CRISP-CALL-5: every other window is void
            self._close(w, "void")
        if not order:
            self._round_end()
        self._dirty()

    def _decline(self, seat: Seat) -> None:
        assert isinstance(seat, int)
        self._close(seat, "decline")

    def _release(self, seat: Seat) -> None:
        for w in list(self.windows):  # in real time every older window closed before this release
            if w != self.hold_owner:
                self._close(w, "clock")
        self._start_turn(self.turn, self.last_turn)
        self._dirty()

    def _timeout(self, seat: Seat) -> None:
        """CRISP-ONL-TIME-4 (a)–(d)."""
        s = self.turn
        for w in list(self.windows):  # in real time every window closed long before
            self._close(w, "clock")
        if self.held < 0:
            if not self.deck and not self._flip():
                self._round_end()
                return
            card = self.deck.pop()  # (a) always from the deck
            self.log.append({"type": "draw", "to": "all", "seat": s, "source": "deck"})
        else:
            card = self.held  # (b) a discard-pile card goes back on top
            self.held = -1
        self.discard.append(card)
        self.log.append({"type": "discard", "to": "all", "seat": s, "card": NAMES[card], "why": "timeout"})
        lost = self.pending - 1
        self.pending = 0
        self._end_turn("timeout", lost)

    def _end_turn(self, why: str, lost: int) -> None:
        """CRISP-TURN-7: the Kings in use go onto the pile; then the window, last turns or round end."""
        n = self.players
        seat = self.turn
        kings = self.kings
        self.discard.extend(kings)
        self.kings = []
        self.pending = 0
        self._dirty()
        log = self.log
        if self.draw_time is not None:
            log.append({"type": "timer_stop", "to": "all", "action": "timeout"})
        log.append({"type": "turn_end", "to": "all", "seat": seat, "why": why, "lost": lost,
                    "kings": [NAMES[k] for k in kings]})
        nxt = (seat + 1) % n
        if self.last_turn:
            if self.last_turns and self.last_turns[0] == seat:
                self.last_turns.pop(0)
            if not self.last_turns:  # CRISP-CALL-6
                self._round_end()
                return
            self._start_turn(self.last_turns[0], True)  # CRISP-ONL-WIN-5: no window, no hold
            return
        if why == "timeout":  # CRISP-ONL-TIME-4d: no window
            self._start_turn(nxt, False)
            return
        self.windows.append(seat)  # CRISP-CALL-1/2
        self.win_closed[seat] = False
        log.append({"type": "window_open", "to": "all", "seat": seat})
        if self.clock:  # CRISP-ONL-WIN-1/2
            self.hold = True
            self.hold_owner = seat
            self.turn = nxt
            self.pending = 1
            self.held = -1
            self.last_turn = False
            self._dirty()
            log.append({"type": "timer", "to": "all", "action": "release", "seconds": 2, "seat": nxt})
            log.append({"type": "timer", "to": "all", "action": f"close {seat}", "seconds": 3, "seat": seat})
        else:
            self._start_turn(nxt, False)
        self._dirty()

    def _round_end(self) -> None:
        """Reveal, score (CRISP-SCORE-*), check the end (CRISP-END-*), deal the next round."""
        n = self.players
        self.revealed = True  # hands public before round_end is emitted
        self.held = -1
        self.pending = 0
        self.discard.extend(self.kings)
        self.kings = []
        self.hold = False
        self.windows = []
        self._dirty()
        totals = [hand_total(h) for h in self.hands]
        round_scores = list(totals)
        d = self.declarer
        if d is not None:
            lowest = all(totals[d] < totals[o] for o in range(n) if o != d)
            round_scores[d] += -5 if lowest else 5
        for i in range(n):
            self._scores[i] += round_scores[i]
        summary: dict[str, Any] = {
            "round": self.round_no, "hands": [[NAMES[c] for c in h] for h in self.hands],
            "totals": totals, "declarer": d, "round_scores": round_scores, "scores": list(self._scores),
        }
        self.last_round = summary
        self.log.append({"type": "round_end", "to": "all", **plain_copy(summary)})
        if max(self._scores) >= self.end_limit:  # CRISP-END-2
            self.over = True
            low = min(self._scores)
            self._winners = [i for i in range(n) if self._scores[i] == low]  # CRISP-END-3
            self.log.append({"type": "game_end", "to": "all", "scores": list(self._scores),
                             "winners": list(self._winners)})
            self._dirty()
            return
        self._deal()
        self._dirty()

    # ------------------------------------------------------------------ reading the state

    def own_view(self, seat: int | None) -> dict[str, Any]:
        """The seat, and the card in hand: a card drawn from the deck shows only to the seat drawing it."""
        self.check_view_seat(seat)
        held: dict[str, Any] | None = None
        if self.held >= 0:
            src = self.held_src
            held = {"source": _SOURCE[src],
                    "card": NAMES[self.held] if src == DISCARD_SRC or seat == self.turn else None}
        return {"seat": seat, "held": held}

    def public_view(self) -> dict[str, Any]:
        v = self.base_public_view("over" if self.over else "play")
        v.update({
            "round": self.round_no, "dealer": self.dealer, "turn": self.turn, "last_turn": self.last_turn,
            "pending": self.pending, "deck_size": len(self.deck),
            "discard_top": NAMES[self.discard[-1]] if self.discard else None,
            "discard_size": len(self.discard), "kings_in_use": [NAMES[k] for k in self.kings],
            "crisp": self.declarer, "last_turns": list(self.last_turns), "windows": list(self.windows),
            "hold": self.hold, "last_round": plain_copy(self.last_round),
        })
        return v

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def scores(self) -> list[int]:
        return list(self._scores)

    @property
    def winners(self) -> list[int]:
        return list(self._winners)

    def totals(self) -> list[int]:
        """Every seat's hand total now (for tests and analysis; not for players)."""
        return [hand_total(h) for h in self.hands]

    def audit_cards(self) -> list[int]:
        cards = [c for h in self.hands for c in h]
        cards += self.deck
        cards += self.discard
        cards += self.kings
        if self.held >= 0:
            cards.append(self.held)
        return cards

    def audit_hidden(self, seat: int | None) -> list[int]:
        hidden = list(self.deck)
        if not self.revealed:
            for s, hand in enumerate(self.hands):
                if s != seat:
                    hidden += hand
        if self.held >= 0 and self.held_src == DECK_SRC and seat != self.turn:
            hidden.append(self.held)
        return hidden

    def audit_view_hidden(self, seat: int | None) -> list[int]:
        hidden = self.audit_hidden(seat)
        if seat is not None and not self.revealed:
            hidden += self.hands[seat]  # the memory rule (CRISP-CONV-5)
        return hidden

    def copy(self) -> Crisp:
        g: Crisp = object.__new__(Crisp)
        d = g.__dict__
        d.update(self.__dict__)
        g.rng = self.rng.copy()
        g.options = dict(self.options)
        g.log = list(self.log)
        g.actions = [list(a) for a in self.actions]
        g.meta = dict(self.meta)
        g.hands = [list(h) for h in self.hands]
        g.deck = list(self.deck)
        g.discard = list(self.discard)
        g.kings = list(self.kings)
        g.last_turns = list(self.last_turns)
        g.windows = list(self.windows)
        g.win_closed = list(self.win_closed)
        g._scores = list(self._scores)
        g._winners = list(self._winners)
        g._legal = {}
        g._to_act = None
        return g


_HANDLERS: dict[str, Callable[[Crisp, Seat], None]] = {
    "draw": lambda g, s: g._draw(DECK_SRC),
    "draw discard": lambda g, s: g._draw(DISCARD_SRC),
    "discard": Crisp._discard,
    "jack": Crisp._jack,
    "king": Crisp._king,
    "crisp": Crisp._crisp,
    "decline": Crisp._decline,
    "release": Crisp._release,
    "timeout": Crisp._timeout,
}
