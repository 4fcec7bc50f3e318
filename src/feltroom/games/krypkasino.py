"""Krypkasino: Swedish reverse casino with a double deck (rules/krypkasino.md).

Cards are the usual ids 0–51 (``cards.py``); the pack holds each id twice. Two physical
copies of a card are never told apart: the only rule that mentions "the other copy", the
double sweep (KRYP-SWEEP-7), is settled by the state, because a card played from a hand and
a card lying on the table are always different physical cards (KRYP-CONV-3). So the engine
keeps multisets of ids and needs no copy index.

The capture solver works on *rank multisets*: on the table a card's value is its rank
number (ace 1, KRYP-VAL-2), so which cards can be split into groups of the played value
depends only on how many cards of each rank are taken. Rank counts are packed into one
int, 5 bits per rank (a guard bit above a 4-bit count), which makes "is this group on the
table" one subtraction, and the search memoises the best capture size per
(value, packed counts).

What this module fixes beyond notation.md#krypkasino:

- ``deal_start`` also carries ``table`` (cards laid) and ``stock``; ``packet`` also carries
  ``stock``; ``sizes`` are the hand sizes by seat.
- ``remove`` is emitted only when a face card actually leaves the table.
- ``play`` is emitted while the taken cards are still in the open, before they go face down
  into the pile; ``sweep`` follows it. ``award`` names the cards before they join the pile.
- View ``ledger`` entries also say whether the sweep was ``double``.
- A bare ``play C`` for a card with tied largest captures is refused with KRYP-CAPTURE-4
  (the rejection table has no row for it).

>>> from feltroom.cards import parse_cards, card_list
>>> [card_list(t) for t in largest_captures(6, parse_cards("AC 2D 3H 4S"))]
[['AC', '2D', '3H']]
>>> [card_list(t) for t in largest_captures(6, parse_cards("AC 2D 3H 3S"))]
[['AC', '2D', '3S'], ['AC', '2D', '3H']]
>>> largest_captures(14, parse_cards("AD"))
[]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any, ClassVar

from ..cards import DOUBLE_DECK, NAMES, parse_card
from ..errors import IllegalAction, InvalidAction
from ..game import CLOCK, Game, Seat
from ..options import Option
from ..registry import register

# ---------------------------------------------------------------------------- constants

#: (first round, second round, table) of the initial deal per player count (KRYP-DEAL-2).
INITIAL: dict[int, tuple[int, int, int]] = {2: (3, 3, 4), 3: (3, 2, 5), 4: (3, 2, 4), 5: (2, 2, 4), 6: (3, 2, 2)}
#: Packets in all per player count (KRYP-DEAL-2).
PACKETS: dict[int, int] = {2: 12, 3: 8, 4: 6, 5: 5, 6: 4}
PACKET_ROUND = 2  # later packets: 2 + 2 cards (KRYP-PACKET-1)

#: Card points of every card id (KRYP-SCORE-1): 10D 3, 2S 2, AS 2, other spades and aces 1.
POINTS: tuple[int, ...] = tuple(
    3 if c == 38 else 2 if c in (0, 4) else 1 if (c & 3) == 0 or c < 4 else 0 for c in range(52)
)
#: Capture value of a card played from a hand (KRYP-VAL-1): ace 14.
HAND_VALUE: tuple[int, ...] = tuple(14 if c < 4 else c // 4 + 1 for c in range(52))
#: Face cards (J Q K) and spade face cards (KRYP-FACE-1).
FACE: tuple[bool, ...] = tuple(c >= 40 for c in range(52))
SPADE_FACE: tuple[bool, ...] = tuple(c >= 40 and (c & 3) == 0 for c in range(52))
SWEEP_POINTS = 5
DOUBLE_POINTS = 10
DEAL_POINTS = 42

# ---------------------------------------------------------------------------- capture solver

_BITS = 5
_UNIT: tuple[int, ...] = tuple(1 << (_BITS * i) for i in range(13))  # field i: table value i + 1
_GUARD = sum(16 << (_BITS * i) for i in range(13))
_MASK = 31


def _partitions(total: int, largest: int) -> list[list[int]]:
    """Partitions of ``total`` into parts ≤ ``largest``, parts non-increasing."""
    if total == 0:
        return [[]]
    out: list[list[int]] = []
    for part in range(min(total, largest), 0, -1):
        out.extend([part, *rest] for rest in _partitions(total - part, part))
    return out


def _groups_for(value: int) -> list[tuple[tuple[int, int], ...]]:
    """``[top] -> ((packed, size), …)``: the groups of table values 1–13 summing to ``value``
    whose largest part is ``top`` (index = top value)."""
    table: list[tuple[tuple[int, int], ...]] = [()]
    for top in range(1, 14):
        groups = []
        if top <= value:
            for rest in _partitions(value - top, top):
                parts = [top, *rest]
                groups.append((sum(_UNIT[p - 1] for p in parts), len(parts)))
        groups.sort(key=lambda g: -g[1])  # more cards first: reaches the bound sooner
        table.append(tuple(groups))
    return table


_GROUPS: tuple[list[tuple[tuple[int, int], ...]], ...] = tuple(_groups_for(v) for v in range(15))
_BEST: dict[int, int] = {}
_OPT: dict[int, frozenset[int]] = {}
_CAPS: dict[tuple[int, tuple[int, ...]], tuple[tuple[int, ...], ...]] = {}
_MEMO_LIMIT = 2_000_000


def _best(value: int, packed: int, n: int, total: int) -> int:
    """The most cards of the rank multiset ``packed`` (``n`` cards worth ``total``, every
    value < ``value``) that split into disjoint groups summing to ``value``."""
    if n < 2:
        return 0
    key = packed << 4 | value
    found = _BEST.get(key)
    if found is not None:
        return found
    top = (packed.bit_length() - 1) // _BITS  # field of the highest value present
    # Taking everything needs a total that is a multiple of the value.
    bound = n if total % value == 0 else n - 1
    best = 0
    guarded = packed | _GUARD
    for group, size in _GROUPS[value][top + 1]:
        if (guarded - group) & _GUARD == _GUARD:
            got = size + _best(value, packed - group, n - size, total - value)
            if got > best:
                best = got
                if best >= bound:
                    break
    if best < n - 1:  # one card of the top value stays on the table
        got = _best(value, packed - _UNIT[top], n - 1, total - top - 1)
        if got > best:
            best = got
    _BEST[key] = best
    return best


def _leftovers(packed: int, size: int, field: int = 0) -> Iterable[tuple[int, int]]:
    """Every sub-multiset of ``packed`` with ``size`` cards, as (packed, total value), from ``field`` up."""
    if size == 0:
        yield 0, 0
        return
    for f in range(field, 13):
        have = (packed >> (_BITS * f)) & _MASK
        for k in range(1, min(have, size) + 1):
            for rest, rest_total in _leftovers(packed, size - k, f + 1):
                yield rest + k * _UNIT[f], rest_total + k * (f + 1)


def _optimal(value: int, packed: int, n: int, total: int) -> frozenset[int]:
    """Every packed sub-multiset of ``packed`` that reaches ``_best`` (arguments as there)."""
    best = _best(value, packed, n, total)
    if best == 0:
        return frozenset((0,))
    key = packed << 4 | value
    found = _OPT.get(key)
    if found is not None:
        return found
    if n - best <= 2:
        # Few cards stay behind: try each way to leave them (the rest must split completely).
        m = n - best
        out_left = {packed - left for left, left_total in _leftovers(packed, m)
                    if (total - left_total) % value == 0
                    and _best(value, packed - left, best, total - left_total) == best}
        result = frozenset(out_left)
        _OPT[key] = result
        return result
    top = (packed.bit_length() - 1) // _BITS
    out: set[int] = set()
    if best < n and _best(value, packed - _UNIT[top], n - 1, total - top - 1) == best:
        out.update(_optimal(value, packed - _UNIT[top], n - 1, total - top - 1))
    guarded = packed | _GUARD
    for group, size in _GROUPS[value][top + 1]:
        if (guarded - group) & _GUARD == _GUARD and size + _best(value, packed - group, n - size,
                                                                  total - value) == best:
            out.update(group + taken for taken in _optimal(value, packed - group, n - size, total - value))
    result = frozenset(out)
    _OPT[key] = result
    return result


def _trim_memo() -> None:
    if len(_BEST) > _MEMO_LIMIT:
        _BEST.clear()
    if len(_OPT) > _MEMO_LIMIT // 4:
        _OPT.clear()


def pack_counts(counts: Sequence[int]) -> int:
    """Pack 13 per-value counts (table values 1–13) into the solver's int."""
    return sum(k << (_BITS * i) for i, k in enumerate(counts))


def _split(value: int, table: Sequence[int]) -> tuple[int, int, int, int, int]:
    """(equal singles packed, their number, the rest that may form groups packed, its size,
    its total value)."""
    singles = rest = n_singles = n_rest = total = 0
    for card in table:
        v = (card >> 2) + 1
        if v == value:
            singles += _UNIT[v - 1]
            n_singles += 1
        elif v < value:
            rest += _UNIT[v - 1]
            n_rest += 1
            total += v
    return singles, n_singles, rest, n_rest, total


def largest_size(value: int, table: Sequence[int]) -> int:
    """How many table cards the largest capture of a card of ``value`` takes (0: none).

    >>> from feltroom.cards import parse_cards
    >>> largest_size(8, parse_cards("AS 2C 3D 4H 5S 6H"))
    5
    """
    _, n_singles, rest, n_rest, total = _split(value, table)
    _trim_memo()
    return n_singles + _best(value, rest, n_rest, total)


def largest_rank_sets(value: int, table: Sequence[int]) -> tuple[int, list[int]]:
    """(size, packed rank multisets) of every largest capture of ``value`` on ``table``."""
    singles, n_singles, rest, n_rest, total = _split(value, table)
    _trim_memo()
    size = n_singles + _best(value, rest, n_rest, total)
    if size == 0:
        return 0, []
    return size, sorted(singles + taken for taken in _optimal(value, rest, n_rest, total))


def largest_captures(value: int, table: Sequence[int]) -> list[tuple[int, ...]]:
    """Every largest capture (KRYP-CAPTURE-3/4) of a card of ``value`` (KRYP-VAL-1) on
    ``table`` (card ids), as distinct sorted multisets of card ids, in card order; ``[]``
    when the card has no capture."""
    ordered = tuple(sorted(table))
    key = (value, ordered)
    found = _CAPS.get(key)
    if found is not None:
        return list(found)
    if len(_CAPS) > _MEMO_LIMIT // 8:
        _CAPS.clear()
    size, rank_sets = largest_rank_sets(value, ordered)
    if not size:
        _CAPS[key] = ()
        return []
    by_rank: dict[int, list[int]] = {}
    for card in ordered:
        by_rank.setdefault(card >> 2, []).append(card)
    out: list[tuple[int, ...]] = []
    for packed in rank_sets:
        choices: list[list[tuple[int, ...]]] = []
        for r, cards in by_rank.items():
            k = (packed >> (_BITS * r)) & _MASK
            if k:
                choices.append(sorted(set(combinations(cards, k))) if k < len(cards) else [tuple(cards)])
        combos: list[tuple[int, ...]] = [()]
        for options in choices:
            combos = [c + o for c in combos for o in options]
        out.extend(tuple(sorted(c)) for c in combos)
    out.sort()
    _CAPS[key] = tuple(out)
    return out


def is_capture(value: int, cards: Sequence[int]) -> bool:
    """Whether ``cards`` (non-empty) split into disjoint groups each worth ``value`` (KRYP-CAPTURE-1).

    >>> from feltroom.cards import parse_cards
    >>> is_capture(6, parse_cards("2D 4S")), is_capture(6, parse_cards("AC 3H 4S"))
    (True, False)
    """
    if not cards:
        return False
    _, n_singles, rest, n_rest, total = _split(value, cards)
    if n_singles + n_rest < len(cards):
        return False
    return n_singles + _best(value, rest, n_rest, total) == len(cards)


# ---------------------------------------------------------------------------- the game


def _names(cards: Iterable[int]) -> list[str]:
    return [NAMES[c] for c in sorted(cards)]


def _remove(cards: list[int], taken: Iterable[int]) -> None:
    for c in taken:
        cards.remove(c)


@register
class Krypkasino(Game):
    """One Krypkasino match (rules/krypkasino.md, notation.md#krypkasino).

    >>> import feltroom
    >>> g = feltroom.new_game("krypkasino", players=4, seed=1, options={"first_dealer": 0})
    >>> g.view(1)["packet"], len(g.view(1)["hand"]), g.view(1)["stock_size"], g.to_act
    (1, 5, 80, (1,))
    """

    name = "krypkasino"
    min_players = 2
    max_players = 6
    # two, the classic casino game (the browser's lobby said 2 and the CLI 4 before one source)
    default_players = 2
    lobby_rank = 4
    title = "Krypkasino"
    blurb = "Swedish reverse casino: avoid the points."
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option("dealer_rounds", 1, choices=(1, 2, 3, 4), label="Dealer rounds",
               hint="How many times each player deals: the match lasts this many deals per player."),
        Option("turn_time", None, choices=(None, 30, 45, 60), label="Turn timer", unit="s",
               hint="Seconds for each turn; then your lowest legal card is played for you."),
        Option("first_dealer", None, seat=True),
    )

    # state (set in _setup / _start_deal)
    first_dealer: int
    deals: int
    deal_no: int
    dealer: int
    turn: int
    packet: int
    packets: int
    last_packet: bool
    hands: list[list[int]]
    table: list[int]
    stock: list[int]
    piles: list[list[int]]
    markers: list[list[int]]
    spade_faces: list[int]
    dead: list[int]
    last_capturer: int | None
    transfers: list[int]
    ledger: list[dict[str, Any]]
    totals: list[int]
    deal_scores: list[list[int]]
    card_points: list[int] | None
    over: bool
    _legal: list[str] | None
    _moves: dict[str, tuple[int, tuple[int, ...]]]

    # ------------------------------------------------------------------ setup

    def pack(self) -> tuple[int, ...]:
        return DOUBLE_DECK

    def _setup(self) -> None:
        n = self.players
        fd = self.options["first_dealer"]
        self.first_dealer = self.rng.below(n) if fd is None else fd  # KRYP-DEAL-1
        self.deals = self.options["dealer_rounds"] * n  # KRYP-OPT-1, KRYP-MATCH-1
        self.packets = PACKETS[n]
        self.totals = [0] * n
        self.deal_scores = []
        self.over = False
        self._legal = None
        self._moves = {}
        self._start_deal(0)
        self._start_timer()

    def _start_deal(self, deal: int) -> None:
        n = self.players
        log = self.log
        self.deal_no = deal
        self.dealer = (self.first_dealer + deal) % n  # KRYP-MATCH-1
        order = self.deal_order(deal)
        order.reverse()  # pop() takes the top card
        self.stock = order
        self.hands = [[] for _ in range(n)]
        self.piles = [[] for _ in range(n)]
        self.markers = [[] for _ in range(n)]
        self.spade_faces = []
        self.dead = []
        self.table = []
        self.last_capturer = None
        self.transfers = [0] * n
        self.ledger = []
        self.card_points = None
        self.packet = 1
        self.last_packet = False
        first, second, table_size = INITIAL[n]
        log.append({"type": "deal_start", "to": "all", "deal": deal + 1, "deals": self.deals,
                    "dealer": self.dealer, "sizes": [first + second] * n,
                    "table": table_size, "stock": len(self.stock) - n * (first + second) - table_size})
        self._deal_rounds((first, second))  # KRYP-DEAL-3
        for seat in range(n):
            log.append({"type": "reveal", "to": [seat], "seat": seat, "cards": _names(self.hands[seat]),
                        "why": "deal"})
        stock = self.stock
        laid = [stock.pop() for _ in range(table_size)]
        self.table = sorted(laid)
        log.append({"type": "table", "to": "all", "cards": _names(laid)})
        self._remove_faces()  # KRYP-DEAL-5, KRYP-FACE-1
        self.turn = (self.dealer + 1) % n  # KRYP-TURN-1

    def _deal_rounds(self, rounds: tuple[int, ...]) -> None:
        n = self.players
        stock = self.stock
        hands = self.hands
        for size in rounds:
            for i in range(1, n + 1):
                hand = hands[(self.dealer + i) % n]
                for _ in range(size):
                    hand.append(stock.pop())
        for hand in hands:
            hand.sort()

    def _remove_faces(self) -> None:
        """KRYP-FACE-1/2/3: face cards leave the table; spade faces are kept aside."""
        faces = [c for c in self.table if FACE[c]]
        if not faces:
            return
        self.table = [c for c in self.table if not FACE[c]]
        spades = [c for c in faces if SPADE_FACE[c]]
        dead = [c for c in faces if not SPADE_FACE[c]]
        self.spade_faces.extend(spades)
        self.spade_faces.sort()
        self.dead.extend(dead)
        self.dead.sort()
        self.log.append({"type": "remove", "to": "all", "spades": _names(spades), "dead": _names(dead)})

    def _next_packet(self) -> None:
        """KRYP-PACKET-1..4: remove faces, then 2 + 2 cards to each player."""
        self._remove_faces()  # KRYP-FACE-2
        self._deal_rounds((PACKET_ROUND, PACKET_ROUND))
        self.packet += 1
        self.last_packet = not self.stock  # KRYP-PACKET-4
        n = self.players
        log = self.log
        log.append({"type": "packet", "to": "all", "packet": self.packet, "last": self.last_packet,
                    "sizes": [len(h) for h in self.hands], "stock": len(self.stock)})
        for seat in range(n):
            log.append({"type": "reveal", "to": [seat], "seat": seat, "cards": _names(self.hands[seat]),
                        "why": "packet"})
        self.turn = (self.dealer + 1) % n  # KRYP-PACKET-3

    def _start_timer(self) -> None:
        seconds = self.options["turn_time"]
        if seconds is None:
            return
        if self.over:
            self.log.append({"type": "timer_stop", "to": "all", "action": "timeout"})
        else:
            self.log.append({"type": "timer", "to": "all", "action": "timeout", "seconds": seconds,
                             "seat": self.turn})

    # ------------------------------------------------------------------ legal actions

    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.over else (self.turn,)

    def _compute(self) -> list[str]:
        """Legal plays of the seat on turn (KRYP-TURN-2/3, KRYP-CAPTURE-3/4, KRYP-SWEEP-2)."""
        table = self.table
        hand = sorted(set(self.hands[self.turn]))
        caps: dict[int, list[tuple[int, ...]]] = {}
        for card in hand:
            v = HAND_VALUE[card]
            if v not in caps:
                caps[v] = largest_captures(v, table) if table else []
        n_table = len(table)
        sweepers = [c for c in hand if n_table and caps[HAND_VALUE[c]] and len(caps[HAND_VALUE[c]][0]) == n_table]
        moves: dict[str, tuple[int, tuple[int, ...]]] = {}
        for card in sweepers or hand:
            takes = caps[HAND_VALUE[card]]
            if len(takes) <= 1:
                moves["play " + NAMES[card]] = (card, takes[0] if takes else ())
            else:
                for take in takes:
                    moves["play " + NAMES[card] + " take " + " ".join(NAMES[c] for c in take)] = (card, take)
        self._moves = moves
        return list(moves)

    def legal_actions(self, seat: Seat) -> list[str]:
        if self.over:
            return []
        if seat == CLOCK:
            return ["timeout"] if self.options["turn_time"] is not None else []
        if type(seat) is not int or seat != self.turn:
            return []
        if self._legal is None:
            self._legal = self._compute()
        return list(self._legal)

    def _parse(self, action: str) -> tuple[str, int | None, list[int] | None]:
        """(verb, card, take) of an action string; raise ``InvalidAction`` if malformed."""
        if not isinstance(action, str):
            raise InvalidAction(f"an action is a string, not {type(action).__name__}")
        tokens = action.split()
        if not tokens:
            raise InvalidAction("empty action: write 'play C' or 'play C take T…'")
        verb = tokens[0].lower()
        if verb == "timeout":
            if len(tokens) > 1:
                raise InvalidAction("'timeout' takes no arguments")
            return "timeout", None, None
        if verb != "play":
            raise InvalidAction(f"unknown action {tokens[0]!r}: Krypkasino has 'play C [take T…]'")
        if len(tokens) < 2:
            raise InvalidAction("'play' needs a card, e.g. 'play 9D'")
        try:
            card = parse_card(tokens[1])
        except ValueError as e:
            raise InvalidAction(str(e)) from None
        if len(tokens) == 2:
            return "play", card, None
        if tokens[2].lower() != "take":
            raise InvalidAction(f"unexpected {tokens[2]!r}: after the card only 'take T…' may follow")
        if len(tokens) == 3:
            raise InvalidAction("'take' needs the table cards taken, e.g. 'take AC 2D 3H'")
        take = []
        for tok in tokens[3:]:
            try:
                take.append(parse_card(tok))
            except ValueError as e:
                raise InvalidAction(str(e)) from None
        return "play", card, sorted(take)

    def canonical(self, seat: Seat, action: str) -> str:
        verb, card, take = self._parse(action)
        if verb == "timeout":
            return "timeout"
        assert card is not None
        base = "play " + NAMES[card]
        if take is None:
            return base
        if not self.over and seat == self.turn and card in self.hands[self.turn]:
            caps = largest_captures(HAND_VALUE[card], self.table)
            if len(caps) == 1 and list(caps[0]) == take:
                return base  # a take naming the unique capture is dropped (notation.md)
        return base + " take " + " ".join(NAMES[c] for c in take)

    def illegal(self, seat: Seat, action: str) -> IllegalAction:
        verb, card, take = self._parse(action)
        if verb == "timeout":
            if seat != CLOCK:
                return IllegalAction("KRYP-ONL-1", "only the turn clock plays 'timeout'")
            return IllegalAction("KRYP-ONL-1", "there is no turn timer running (the table has no turn_time, "
                                 "or the match is over)")
        if self.over:
            return IllegalAction("KRYP-TURN-1", "not your turn: the match is over")
        if seat != self.turn:
            return IllegalAction("KRYP-TURN-1", "not your turn: it is {seat}'s turn", {"seat": self.turn})
        assert card is not None
        name = NAMES[card]
        if card not in self.hands[seat]:
            return IllegalAction("KRYP-TURN-2", "you do not hold {card}", {"card": name})
        self.legal_actions(seat)
        if not any(m[0] == card for m in self._moves.values()):
            sweepers = [NAMES[c] for c in sorted({m[0] for m in self._moves.values()})]
            return IllegalAction("KRYP-SWEEP-2", "a sweep is available, so you must play a sweeping card "
                                 "({sweep_cards}), not {card}", {"sweep_cards": sweepers, "card": name})
        value = HAND_VALUE[card]
        caps = largest_captures(value, self.table)
        if take is None:
            return IllegalAction("KRYP-CAPTURE-4", "{card} has several largest captures: name one with "
                                 "'take', e.g. '{action}'",
                                 {"card": name, "action": f"play {name} take " + " ".join(NAMES[c] for c in caps[0])})
        if not caps:
            return IllegalAction("KRYP-TRAIL-1", "{card} captures nothing, so it is trailed: write '{action}'",
                                 {"card": name, "action": f"play {name}"})
        avail = Counter(self.table)
        avail.subtract(take)
        if min(avail.values()) >= 0 and is_capture(value, take):
            return IllegalAction("KRYP-CAPTURE-3", "you must take the largest capture ({n} cards), not {taken}",
                                 {"n": len(caps[0]), "taken": len(take)})
        return IllegalAction("KRYP-CAPTURE-1", "{take_cards} is not a capture for {card} (table cards in groups "
                             "worth {value} each)",
                             {"take_cards": [NAMES[c] for c in take], "card": name, "value": value})

    # ------------------------------------------------------------------ playing

    def _apply(self, seat: Seat, action: str) -> None:
        log = self.log
        if seat == CLOCK:  # KRYP-ONL-2: the first legal action of the seat on turn
            log.append({"type": "timeout", "to": "all", "seats": [self.turn]})
            seat = self.turn
            action = self.legal_actions(seat)[0]
        elif self._legal is None:
            self.legal_actions(seat)
        assert isinstance(seat, int)
        card, take = self._moves[action]
        self._legal = None
        self._play(seat, card, take)
        self._start_timer()

    def _play(self, seat: int, card: int, take: tuple[int, ...]) -> None:
        log = self.log
        n = self.players
        hand = self.hands[seat]
        hand.remove(card)
        table = self.table
        before = len(table)
        if not take:  # KRYP-TRAIL-1
            table.append(card)
            table.sort()
            log.append({"type": "play", "to": "all", "seat": seat, "card": NAMES[card], "taken": []})
        else:
            lone = table[0] if before == 1 else -1
            _remove(table, take)
            # The play event comes while the cards are in the open, before they go face down.
            log.append({"type": "play", "to": "all", "seat": seat, "card": NAMES[card],
                        "taken": [NAMES[c] for c in take]})
            pile = self.piles[seat]
            pile.extend(take)
            pile.append(card)
            self.last_capturer = seat  # KRYP-CAPTURE-6
            if not table:  # KRYP-SWEEP-1
                double = lone == card and card >= 4  # KRYP-SWEEP-7: the other copy of a lone non-ace
                points = DOUBLE_POINTS if double else SWEEP_POINTS
                previous = (seat - 1) % n  # KRYP-SWEEP-4
                marks = [card, lone] if double else [card]
                self.markers[seat].extend(marks)
                self.markers[seat].sort()
                self.transfers[seat] += points
                self.transfers[previous] -= points
                names = _names(marks)
                self.ledger.append({"seat": seat, "previous": previous, "cards": names, "points": points,
                                    "double": double})
                log.append({"type": "sweep", "to": "all", "seat": seat, "previous": previous, "markers": list(names),
                            "points": points, "double": double})
        self.turn = (seat + 1) % n
        if any(self.hands):
            return
        if self.stock:
            self._next_packet()
        else:
            self._end_deal()

    def _end_deal(self) -> None:
        """KRYP-END-1..4 and KRYP-SCORE-*: the final award, scoring, the next deal."""
        n = self.players
        log = self.log
        seat = self.dealer if self.last_capturer is None else self.last_capturer  # KRYP-AMB-13
        rest, faces = self.table, self.spade_faces
        self.table, self.spade_faces = [], []
        log.append({"type": "award", "to": "all", "seat": seat, "cards": _names(rest),
                    "spade_faces": _names(faces)})
        self.piles[seat].extend(rest)
        self.piles[seat].extend(faces)
        points = [sum(POINTS[c] for c in pile) for pile in self.piles]
        assert sum(points) == DEAL_POINTS and sum(self.transfers) == 0  # KRYP-SCORE-5
        scores = [p + t for p, t in zip(points, self.transfers, strict=True)]
        self.card_points = points
        self.deal_scores.append(scores)
        self.totals = [a + b for a, b in zip(self.totals, scores, strict=True)]
        self.transfers = [0] * n
        log.append({"type": "deal_end", "to": "all", "deal": self.deal_no + 1, "card_points": list(points),
                    "transfers": [s - p for s, p in zip(scores, points, strict=True)], "deal_scores": list(scores),
                    "scores": list(self.totals)})
        if len(self.deal_scores) < self.deals:
            self._start_deal(self.deal_no + 1)
            return
        self.over = True
        log.append({"type": "game_end", "to": "all", "scores": list(self.totals), "winners": self.winners})

    # ------------------------------------------------------------------ results and views

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def scores(self) -> list[int]:
        """Completed deals plus the current deal's sweep transfers (notation.md §5)."""
        if self.over:
            return list(self.totals)
        return [a + b for a, b in zip(self.totals, self.transfers, strict=True)]

    @property
    def winners(self) -> list[int]:
        """KRYP-MATCH-2: everyone tied for the lowest total."""
        if not self.over:
            return []
        low = min(self.totals)
        return [s for s, t in enumerate(self.totals) if t == low]

    def own_view(self, seat: int | None) -> dict[str, Any]:
        """The seat and its hand (a spectator's view has no ``hand``)."""
        self.check_view_seat(seat)
        if seat is None:
            return {"seat": None}
        return {"seat": seat, "hand": _names(self.hands[seat])}

    def public_view(self) -> dict[str, Any]:
        v = self.base_public_view("over" if self.over else "play")
        v.update({
            "deal_no": self.deal_no + 1,
            "deals": self.deals,
            "dealer": self.dealer,
            "packet": self.packet,
            "packets": self.packets,
            "last_packet": self.last_packet,
            "hand_sizes": [len(h) for h in self.hands],
            "table": _names(self.table),
            "stock_size": len(self.stock),
            "spade_faces": _names(self.spade_faces),
            "dead": _names(self.dead),
            "piles": [{"size": len(p), "markers": _names(m)} for p, m in zip(self.piles, self.markers, strict=True)],
            "ledger": [{**e, "cards": list(e["cards"])} for e in self.ledger],  # fresh: shares no list
            "last_capturer": self.last_capturer,
            "deal_scores": [list(s) for s in self.deal_scores],
        })
        return v

    # ------------------------------------------------------------------ audits

    def audit_cards(self) -> list[int]:
        out = list(self.stock) + list(self.table) + list(self.spade_faces) + list(self.dead)
        for hand in self.hands:
            out.extend(hand)
        for pile in self.piles:
            out.extend(pile)
        return out

    def audit_hidden(self, seat: int | None) -> list[int]:
        """The stock, other hands and the face-down cards of every capture pile."""
        out = list(self.stock)
        for s, hand in enumerate(self.hands):
            if s != seat:
                out.extend(hand)
        for pile, marks in zip(self.piles, self.markers, strict=True):
            down = Counter(pile)
            down.subtract(marks)
            out.extend(down.elements())
        return out

    # ------------------------------------------------------------------ copies

    def copy(self) -> Krypkasino:
        g = object.__new__(Krypkasino)
        d = g.__dict__
        d.update(self.__dict__)
        g.log = list(self.log)
        g.actions = list(map(list, self.actions))
        g.meta = dict(self.meta)
        g.options = dict(self.options)
        g.rng = self.rng.copy()
        g.hands = [list(h) for h in self.hands]
        g.piles = [list(p) for p in self.piles]
        g.markers = [list(m) for m in self.markers]
        g.table = list(self.table)
        g.stock = list(self.stock)
        g.spade_faces = list(self.spade_faces)
        g.dead = list(self.dead)
        g.transfers = list(self.transfers)
        g.ledger = [dict(e) for e in self.ledger]
        g.totals = list(self.totals)
        g.deal_scores = [list(s) for s in self.deal_scores]
        g.card_points = None if self.card_points is None else list(self.card_points)
        g._moves = dict(self._moves)
        g._legal = None if self._legal is None else list(self._legal)
        return g
