"""What one Craits seat knows, and whole games drawn from it (feltroom.knowledge, #15).

A ``CraitsKnowledge`` is fed the events delivered to its seat. Chance in Craits is the cut
for the first dealer (public), each hand's deal, and every reshuffle of the discard pile
into the stock (CRAITS-SHUF-1). A sample is one whole history consistent with what the
seat saw: a deal order per hand and an order per reshuffle, replayed through the reference
engine (``deck=`` stacks the deals; a scripted dealer gives the cut and the reshuffles).
Decisions beyond the spec:

- **The actions are read back from the events**, by following a *shadow* game: the
  reference engine replaying the actions with the seat's own cards right and the others'
  cards made up (moved into place when a seat plays them). It says whose decision each
  event answers; ``play``, ``suit``, ``one``, ``close`` and ``timeout`` name themselves, any
  other event at a player's turn is their ``draw``.
- **Positions.** Every card of a hand lies at a position: one of the deal order, or one of
  a reshuffle's new stock. A position the seat did not see holds one card of its pool (the
  pack for the deal; the known discards for a reshuffle) that the seat cannot place. What
  the seat knows is a set of rules for those positions: a card another seat played was at
  one of *its* positions, taken before the play, from a pool that held a copy; a seat that
  chose to ``draw`` (not a timeout, not a penalty) held no card it could play
  (CRAITS-PLAY-2, CRAITS-COUNT-2), so every position it held then avoids those cards; at a
  hand's end each seat held exactly the cards shown. Other players' choices are not
  evidence beyond what is legal.
- **One deck.** A played card's pool is the latest that held it; the pools are chosen by a
  maximum flow (copies per pool, the owner's positions per pool), then positions are matched
  within each pool.
- **Two decks** (7–10 players, or 6 with ``decks`` 2; CRAITS-SETUP-1): **built, and off**
  (``CraitsKnowledge.two_decks``; off, a two-deck table raises ``ValueError`` and the search bot
  plays as its heuristic) until the search-bot suite's 200 random-option Craits games can run
  with it on: its 97 two-deck games cost 651 s of CPU so, too much for CI, and the search falls
  back in 22 % of their decisions (``bench/search_suite_cost.py``, docs/bots.md). A card
  has two copies, possibly in several pools at once, and which copy a seat played is no fact of
  the game (the engine takes either): a history is the cards at the positions, and it is
  consistent when, per seat and card, the copies its positions took
  before each moment less its plays of the card before it are at least one at each play, none at
  each void covering the card, and what it showed at the hand's end (``_Placement``). A first
  consistent history is a bounded search, a function of the hand and the events seen
  (``_placement``): the cards played or shown are matched to their seats' positions within each
  pool's copies (``_req_matching``: augmenting paths, then evictions), which gives each a pool;
  each pool is matched exactly (``_two_deck_start``); a min-conflicts search over swaps within a
  pool mends what is left (``_Placement.settle``); at most ``START_TRIES`` starts, each of
  ``START_WORK`` positions looked at by the matching's paths and ``START_STEPS`` + 20 per bound
  position swaps, and then ``NoHistory`` (the search bot plays its heuristic's choice), raised
  at once from then on for the rest of that hand (of the game, for a finished hand): a search
  that gave up costs seconds and, with more knowledge, would most likely give up again. The
  chain then swaps within a pool, turns three positions round, and moves the source of a card a
  seat took from one pool to another (two swaps at once, with the Hastings ratio of their
  proposal both ways). Measured by ``bench/craits_two_decks.py`` (heuristic games at random-option
  tables, 7–10 players and 6 on two decks): see docs/bots.md for the failure rate and the costs
  (a sample about 30 ms at the median; the first of a decision, which pays for the start, 60–75 ms
  at the median, a few seconds when several finished hands of a big table are settled at once).
- **Uniform over what is possible.** Finished hands get one consistent history (any one:
  what happened in them no longer moves a card). The current hand's hidden positions are
  drawn uniformly among consistent histories by a Metropolis chain (a symmetric proposal:
  swap a constrained position's card with any position's, or turn three constrained
  positions' cards round), started from a consistent history found by augmenting paths from
  the knowledge alone and run ``SWEEPS`` steps per constrained position; then positions
  allowed exactly the same cards (the stock, most of all) are shuffled exactly. With no
  rule in play it is exact at once; with rules it is exact in the limit, and the tests
  measure the sweeps as enough (chi-square).
- **Seeds.** A sample's seed comes from ``rng`` and deals every later hand and reshuffle; its
  past chance was scripted (``ScriptedDealer``), so ``sample.record`` does not replay it
  (``meta["sampled"]``). Samples are reference ``Craits`` games, not the compiled core: the
  core cannot take scripted reshuffles.
- **A hand the setup dealt.** A hand can end inside its own deal (CRAITS-SHUF-3: six players on
  one deck leave hand 1 a 3-card stock, and a 5 upcard makes five seats draw), and then the
  setup deals the next hand too: no action deals it, so it is replayed from a new game given
  every deck up to it, not from the previous hand's end.
- **Cost.** The events are read once per new batch (the shadow goes on where it stopped; a
  finished hand's history and the state before the next hand are settled once and kept); a
  sample runs the chain and replays the current hand only.
"""

from __future__ import annotations

import itertools
import random
from bisect import bisect_left, insort
from collections import Counter, deque
from collections.abc import Mapping, MutableSequence, Sequence
from typing import Any, TypeVar

from ..cards import NAMES, parse_card
from ..dealing import CURRENT_FORMAT, Dealer, dealer_for
from ..game import CLOCK, MAX_SEED, Event, Game, Seat
from ..knowledge import Knowledge, NoHistory, register_knowledge
from ..options import normalise
from .craits import Craits

__all__ = ["CraitsKnowledge", "ScriptedDealer"]

T = TypeVar("T")
_RANK = tuple(c // 4 + 1 for c in range(52))
_SUIT = {"S": 0, "H": 1, "D": 2, "C": 3}
_WILD = sum(1 << c for c in range(52) if _RANK[c] in (8, 9))
_COUNT = sum(1 << c for c in range(52) if _RANK[c] <= 2)
_SUIT_MASK = tuple(sum(1 << c for c in range(52) if c & 3 == s) for s in range(4))
_RANK_MASK = tuple(sum(1 << c for c in range(52) if _RANK[c] == r) for r in range(14))
FREE, PLAYED, FINAL = 0, 1, 2
_NEVER = 1 << 60
#: the odds that ``_req_matching`` keeps a step that leaves one more card without a position (two: its square)
_KICK_NOISE = 0.3
#: a hidden position: (position in its segment, owner or -1 for the stock, event index it was taken at)
Token = tuple[int, int, int]
#: a card to place: (card, FREE/PLAYED/FINAL, the seat that played or kept it or -1, the event index it left by)
Item = tuple[int, int, int, int]
#: per segment: the items each position may hold (bitmasks), the constrained positions, the classes of alike ones
_Chain = tuple[list[int], list[int], list[list[int]]]


class ScriptedDealer:
    """A dealer that answers its next non-empty shuffles with given orders, then deals from ``inner``."""

    def __init__(self, inner: Dealer, script: Sequence[list[int] | None]) -> None:
        self.inner = inner
        self.format = inner.format
        self.script = list(script)

    def below(self, n: int) -> int:
        return self.inner.below(n)

    def shuffle(self, items: MutableSequence[T]) -> None:
        if len(items) and self.script:
            order = self.script.pop(0)
            if order is not None:
                if sorted(order) != sorted(items):  # type: ignore[type-var]
                    raise AssertionError("scripted shuffle: not a permutation of the cards shuffled")
                items[:] = order  # type: ignore[assignment]
                return
        self.inner.shuffle(items)

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        return self.inner.sample(population, k)

    def top(self, pack: Sequence[T], k: int) -> list[T]:
        return self.inner.top(pack, k)

    def copy(self) -> ScriptedDealer:
        return ScriptedDealer(self.inner.copy(), self.script)


class _Seg:
    """One deal order or one reshuffled stock: its pool, what the seat saw, who drew what."""

    def __init__(self, pool: Counter[int], at: int, first: int) -> None:
        self.pool = pool
        self.size = sum(pool.values())
        self.at = at  # event index it was made at
        self.next = first  # the position the next draw takes
        self.known: dict[int, int] = {}
        self.tokens: list[Token] = []  # (position, owner, event index taken)


class _Hand:
    def __init__(self, number: int) -> None:
        self.number = number
        self.actions: list[tuple[Seat, str]] = []
        self.segs: list[_Seg] = []
        self.voids: dict[int, list[tuple[int, int]]] = {}  # seat -> (event index, forbidden mask)
        self.played: list[tuple[int, int, int]] = []  # (seat, card, event index)
        self.finals: dict[int, list[int]] | None = None


@register_knowledge
class CraitsKnowledge(Knowledge):
    """One Craits seat's knowledge (see the module docstring)."""

    game = "craits"
    #: chain steps per hidden position of the current hand
    SWEEPS = 20
    #: replay samples with ``apply`` (legality checked) instead of ``_apply``: for tests
    strict = False
    #: sample two-deck tables (see the module docstring; off, they are refused with ``ValueError``)
    two_decks = False
    #: two decks: starts of the search for a first consistent history, and its swaps (+ 20 per bound position)
    START_TRIES = 3
    START_STEPS = 6000
    #: two decks: positions the searches for a path of ``_req_matching`` look at, per start
    START_WORK = 3_000_000

    def __init__(self, seat: int, players: int, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(seat, players, options)
        self.options = normalise(Craits.OPTIONS, options, players)
        probe = Craits.__new__(Craits)
        probe.players, probe.options = players, self.options
        probe.check_options()
        self.pack: tuple[int, ...] = probe.pack()
        self.decks: int = self.options["decks"]
        if self.decks == 2 and not self.two_decks:
            raise ValueError("Craits knowledge sampling of two decks (7–10 players, or 6 with decks 2) is "
                             "switched off (CraitsKnowledge.two_decks)")
        self.events: list[Event] = []
        self._seen = -1
        self._hands: list[_Hand] = []
        self._shadow: Craits | None = None
        self._shadow_stacks: list[list[int]] = []
        self._stacked_to = 0
        self._at = 0
        self._public = _Public()
        self._start: tuple[int, list[list[Token]], list[list[Item]], list[_Chain]] | None = None
        self._placed: tuple[int, list[list[Token]], _Placement, list[int]] | None = None  # two decks
        self._cut: list[int] = []
        self._bases: list[Craits | None] = [None]
        self._decks: list[list[int]] = []
        self._scripts: list[list[list[int]]] = []
        self._gave_up: set[tuple[int, bool]] = set()  # two decks: (hand, final) whose search gave up

    def observe(self, events: Sequence[Event]) -> None:
        for e in events:
            if e["to"] != "all" and self.seat not in e["to"]:
                raise ValueError(f"P{self.seat} was not shown {e['type']!r} (to {e['to']})")
        self.events.extend(events)

    # ------------------------------------------------------------------ building games

    def _new(self, seed: int, decks: list[list[int]], script: list[list[int] | None]) -> Craits:
        """A new game dealt from ``decks`` whose cut and first reshuffles follow ``script``."""
        g = Craits.__new__(Craits)
        g._configure(self.players, seed, dict(self.options), None, CURRENT_FORMAT)
        g._stacks = [list(d) for d in decks]
        g.deck_spec = None
        g.rng = ScriptedDealer(dealer_for(CURRENT_FORMAT, seed), [*self._cut_script(), *script])
        g.log = []
        g.actions = []
        g._setup()
        return g

    def _cut_script(self) -> list[list[int] | None]:
        """Shuffles that make the cut draw the cards it was seen to draw (CRAITS-DEALER-1)."""
        if not self._cut:
            return []
        pack = sorted(self.pack)
        out: list[list[int] | None] = []
        draws = list(self._cut)
        while draws:
            chunk, draws = draws[:len(pack)], draws[len(pack):]
            rest = Counter(pack)
            rest.subtract(chunk)
            out.append(sorted(rest.elements()) + chunk[::-1])  # drawn from the end
        return out

    # ------------------------------------------------------------------ reading the events

    def _update(self) -> None:
        """Read the new events (the shadow goes on from where it was); settle the finished hands."""
        events = self.events
        if self._seen == len(events):
            self._settle()
            return
        if not events:
            raise ValueError("nothing observed yet: a Craits seat is first shown its deal")
        self._seen = len(events)
        if self._shadow is None:
            cut = next((e for e in events if e["type"] == "cut"), None)
            self._cut = [parse_card(c) for r in cut["draws"] for _, c in r] if cut else []
            self._stack_hands(events)
            self._shadow = self._new(0, self._shadow_stacks, [])
            self._at = self._read(events, 0, len(_for(self._shadow.log, self.seat)), None)
            self._fix_mine(self._shadow, self._public.mine)
        self._parse(events)
        self._settle()

    def _settle(self) -> None:
        """Give each finished hand one consistent history and the state before the next hand (once;
        a finished two-deck hand whose search gave up raises ``NoHistory`` for the rest of the game)."""
        hands = self._hands
        while len(self._decks) < len(hands) - 1:  # a finished hand: one consistent history, the next base
            h = hands[len(self._decks)]
            if self.decks == 1:
                tokens, assign = self._matching(h, final=True)
                cards = [[item[0] for item in its] for its in assign]
            else:
                tokens, placed = self._placement(h, final=True)
                cards = [[placed.x[p] for p in span] for span in placed.spans]
            deck, script = self._orders(h, cards, tokens)
            self._decks.append(deck)
            self._scripts.append(script)
            self._bases.append(self._replay(h, 1, deck, script))

    def _stack_hands(self, events: Sequence[Event]) -> None:
        """Deal orders for the shadow: this seat's cards and the upcard where they were, per hand seen."""
        n, me = self.players, self.seat
        stacks = self._shadow_stacks
        for i in range(self._stacked_to, len(events)):
            e = events[i]
            if e["type"] != "hand_start":
                continue
            size, dealer, d = e["cards"], e["dealer"], 1 if e["direction"] == "cw" else -1
            order: list[int | None] = [None] * len(self.pack)
            mine = next(parse_card_list(x["cards"]) for x in events[i:] if x["type"] == "reveal" and x["why"] == "deal")
            slot = next(k for k in range(n) if (dealer + d * (k + 1)) % n == me)
            for j, c in enumerate(mine):
                order[slot + n * j] = c
            up = next((x for x in events[i + 1:] if x["type"] in ("upcard", "hand_start")), None)
            if up is not None and up["type"] == "upcard":
                order[n * size] = parse_card(up["card"])
            rest = Counter(self.pack)
            rest.subtract(c for c in order if c is not None)
            fill = iter(sorted(rest.elements()))
            stacks.append([c if c is not None else next(fill) for c in order])
        self._stacked_to = len(events)

    def _parse(self, events: Sequence[Event]) -> None:
        """Follow the shadow game through the new events: the actions per hand, and what they tell."""
        me = self.seat
        shadow = self._shadow
        assert shadow is not None
        self._stack_hands(events)
        shadow._stacks = self._shadow_stacks
        i = self._at
        while i < len(events):
            e = events[i]
            kind = e["type"]
            if kind == "timeout":
                seat: Seat = CLOCK
                action = "timeout"
            elif kind == "timer_stop" and e["action"] == "close":
                seat, action = CLOCK, "close"
            elif kind == "declare":
                seat, action = e["seat"], "one"
            elif kind == "suit":
                seat, action = shadow.dealer, f"suit {e['suit']}"
            elif kind == "play":
                seat, action = e["seat"], _play_action(e)
                if e["seat"] != me:
                    _bring(shadow, e["seat"], parse_card(e["card"]), me)
            elif shadow.phase == "play" and shadow.turn is not None:
                seat, action = shadow.turn, "draw"
            else:
                raise AssertionError(f"craits knowledge: no decision answers {kind!r} at event {i}")
            if shadow.phase == "declare" and action in ("close", "one"):
                _upcard_in_place(shadow, events, i, me)
            at = len(shadow.log)
            shadow._apply(seat, action)
            shadow.actions.append([seat, action])
            k = len(_for(shadow.log[at:], me))
            drawer = seat if action == "draw" and isinstance(seat, int) and seat != me else None
            i = self._read(events, i, k, drawer)
            self._hands[-1].actions.append((seat, action))  # an action that deals a hand is that hand's first
            self._fix_mine(shadow, self._public.mine)
        self._at = i

    def _read(self, events: Sequence[Event], i: int, k: int, drawer: int | None) -> int:
        """Take in the ``k`` events of one action from index ``i``; return the index after them."""
        me, n = self.seat, self.players
        hands, st = self._hands, self._public
        if drawer is not None and hands:  # CRAITS-PLAY-2/COUNT-2: the drawer held no card it could play
            mask = _COUNT if st.count else (_SUIT_MASK[st.active] | _RANK_MASK[_RANK[st.pile[-1]]] | _WILD)
            hands[-1].voids.setdefault(drawer, []).append((i, mask))
        for j in range(i, i + k):
            e = events[j]
            kind = e["type"]
            if kind == "hand_start":
                h = _Hand(e["hand"])
                hands.append(h)
                size, dealer, d = e["cards"], e["dealer"], 1 if e["direction"] == "cw" else -1
                seg = _Seg(Counter(self.pack), j, n * size)
                h.segs.append(seg)
                for k2 in range(n):
                    s = (dealer + d * (k2 + 1)) % n
                    if s != me:
                        seg.tokens.extend((k2 + n * x, s, j) for x in range(size))
                st.pile, st.count, st.hand = [], 0, h
                st.me_slot = next(k2 for k2 in range(n) if (dealer + d * (k2 + 1)) % n == me)
            elif kind == "reveal" and e["why"] == "deal":
                cards = parse_card_list(e["cards"])
                st.mine = Counter(cards)
                seg = st.hand.segs[0]
                for x, c in enumerate(cards):
                    seg.known[st.me_slot + n * x] = c
            elif kind == "upcard":
                c = parse_card(e["card"])
                seg = st.hand.segs[0]
                seg.known[seg.next] = c
                seg.next += 1
                st.pile.append(c)
                st.active = c & 3
            elif kind == "draw":
                seg = st.hand.segs[-1]
                first = seg.next
                seg.next += e["n"]
                if e["seat"] == me:
                    cards = parse_card_list(events[j + 1]["cards"])
                    st.mine.update(cards)
                    for x, c in enumerate(cards):
                        seg.known[first + x] = c
                else:
                    seg.tokens.extend((first + x, e["seat"], j) for x in range(e["n"]))
            elif kind == "reshuffle":
                pool = Counter(st.pile[:-1])
                st.pile = st.pile[-1:]
                st.hand.segs.append(_Seg(pool, j, 0))
            elif kind == "play":
                c = parse_card(e["card"])
                st.pile.append(c)
                st.active = _SUIT[e["suit"]]
                if e["seat"] == me:
                    st.mine[c] -= 1
                else:
                    st.hand.played.append((e["seat"], c, j))
            elif kind == "suit":
                st.active = _SUIT[e["suit"]]
            elif kind == "count":
                st.count = e["value"]
            elif kind == "count_end":
                st.count = 0
            elif kind == "hand_end":
                st.hand.finals = {s: parse_card_list(cards) for s, cards in enumerate(e["hands"]) if s != me}
        return i + k

    def _fix_mine(self, shadow: Craits, real: Counter[int]) -> None:
        """Give the shadow this seat's real cards, taking them from the stock or other hands."""
        me = self.seat
        have = Counter(shadow.hands[me])
        missing = list((real - have).elements())
        extra = list((have - real).elements())
        for want, spare in zip(missing, extra, strict=True):
            _swap_in(shadow, me, want, spare, me)

    # ------------------------------------------------------------------ the rules for positions

    @staticmethod
    def _positions(h: _Hand) -> tuple[list[list[Token]], list[Counter[int]]]:
        """Per segment: the hidden positions (position, owner or -1 for the stock, taken at) and the
        cards they hold between them (the pool less what the seat saw)."""
        tokens: list[list[Token]] = []
        avail: list[Counter[int]] = []
        for seg in h.segs:
            toks = list(seg.tokens)
            toks += [(p, -1, 0) for p in range(seg.next, seg.size)]
            tokens.append(toks)
            left = Counter(seg.pool)
            left.subtract(seg.known.values())
            avail.append(left)
        return tokens, avail

    def _placement(self, h: _Hand, final: bool) -> tuple[list[list[Token]], _Placement]:
        """Two decks: the hidden positions and a first consistent history of them (its search is seeded
        by the hand and the events seen, never by hidden cards, so equal knowledge finds the same).
        Raises ``NoHistory`` when the search gives up (``START_TRIES`` starts of ``START_STEPS`` steps),
        and at once for the rest of that hand (or, finished, of that game) once it has: its knowledge only
        grows, so a search that failed would most likely fail again, at the same cost of seconds."""
        if (h.number, final) in self._gave_up:
            raise NoHistory(f"craits knowledge: the search for a two-deck history of hand {h.number} gave up")
        tokens, avail = self._positions(h)
        ok = self._fits(h, final)
        reqs: list[Item] = [(card, PLAYED, seat, at) for seat, card, at in h.played]
        if final and h.finals is not None:
            reqs += [(c, FINAL, seat, _NEVER) for seat, cards in h.finals.items() for c in cards]
        rng = random.Random(h.number * 1_000_003 + len(self.events))
        placed = _Placement(h, tokens, avail, final)
        steps = self.START_STEPS + 20 * len(placed.moving)
        for _ in range(self.START_TRIES):
            # the pools of the cards played or kept from one matching of them to positions, or else from
            # a flow of copies (a card no pool and position can have given raises AssertionError: a bug,
            # not bad luck); each pool matched; then the search mends what is left
            segs = _req_matching(tokens, avail, reqs, ok, rng, self.START_WORK)
            if segs is None:
                segs = _segments_for(h, tokens, avail, reqs, rng, strict=False)
            if placed.settle(_two_deck_start(tokens, avail, reqs, ok, segs), rng, steps):
                return tokens, placed
        self._gave_up.add((h.number, final))
        raise NoHistory(f"craits knowledge: no two-deck history found in hand {h.number} "
                        f"({self.START_TRIES} starts of {steps} steps)")

    def _rules(self, h: _Hand, final: bool, pick: random.Random | None = None
               ) -> tuple[list[list[Token]], list[list[Item]]]:
        """Per segment: the hidden positions (``_positions``) and the cards to place there (card,
        FREE/PLAYED/FINAL, owner, until); one deck."""
        tokens, avail = self._positions(h)
        items: list[list[Item]] = [[] for _ in h.segs]
        reqs: list[Item] = [(card, PLAYED, seat, at) for seat, card, at in h.played]
        if final and h.finals is not None:
            reqs += [(c, FINAL, seat, _NEVER) for seat, cards in h.finals.items() for c in cards]
        for r, k in enumerate(_segments_for(h, tokens, avail, reqs, pick)):
            items[k].append(reqs[r])
            avail[k][reqs[r][0]] -= 1
        for k in range(len(h.segs)):
            for c in avail[k].elements():
                items[k].append((c, FREE, -1, _NEVER))
            if len(items[k]) != len(tokens[k]):
                raise AssertionError(f"craits knowledge: segment {k} has {len(items[k])} cards "
                                     f"for {len(tokens[k])} positions")
        return tokens, items

    def _matching(self, h: _Hand, final: bool) -> tuple[list[list[Token]], list[list[Item]]]:
        """One consistent placement: per segment, the item at each hidden position (augmenting paths)."""
        tokens, items = self._rules(h, final)
        ok = self._fits(h, final)
        placed: list[list[Item]] = []
        for toks, its in zip(tokens, items, strict=True):
            at = _max_matching(toks, its, ok, stock_first=False)
            if len(its) != len(toks) or -1 in at:
                raise AssertionError("craits knowledge: no history fits what the seat saw")
            placed.append([its[x] for x in at])
        return tokens, placed

    def _fits(self, h: _Hand, final: bool) -> Any:
        voids = h.voids
        cache: dict[tuple[int, int, int], int] = {}

        def forbidden(owner: int, taken: int, until: int) -> int:
            key = (owner, taken, until)
            m = cache.get(key)
            if m is None:
                m = 0
                for t, mask in voids.get(owner, ()):
                    if taken < t < until:
                        m |= mask
                cache[key] = m
            return m

        def ok(item: Item, token: Token) -> bool:
            card, kind, who, until = item
            _, owner, taken = token
            if owner < 0:
                return kind == FREE
            if kind == FREE:
                return not final and not forbidden(owner, taken, until) >> card & 1
            return who == owner and taken < until and not forbidden(owner, taken, until) >> card & 1

        return ok

    def _orders(self, h: _Hand, cards: list[list[int]],
                tokens: list[list[Token]]) -> tuple[list[int], list[list[int]]]:
        """The deal order and the reshuffle orders that put ``cards`` at the hidden positions ``tokens``."""
        orders: list[list[int]] = []
        for seg, toks, its in zip(h.segs, tokens, cards, strict=True):
            at = [-1] * seg.size
            for p, c in seg.known.items():
                at[p] = c
            for (p, _, _), card in zip(toks, its, strict=True):
                at[p] = card
            orders.append(at)
        deck = orders[0]
        script = [o[::-1] for o in orders[1:]]  # a reshuffled stock is drawn from its end
        return deck, script

    # ------------------------------------------------------------------ replaying

    def _replay(self, h: _Hand, seed: int, deck: list[int], script: list[list[int]]) -> Craits:
        """Hand ``h`` replayed on ``deck`` and ``script``, up to the action that deals the next hand."""
        n = h.number
        decks = [*self._decks[:n - 1], deck]
        if not any(self._hands[i].actions for i in range(n - 1)):
            # no action dealt this hand: the setup did, after every hand before it ended in its own deal
            # (CRAITS-SHUF-3: a 5 upcard draining hand 1's 3-card stock at six players, one deck), so the
            # setup needs every deck up to this one; those hands had no reshuffle (one discard: the upcard)
            g = self._new(seed, decks, [*(o for s in self._scripts[:n - 1] for o in s), *script])
            acts = h.actions
        else:
            base = self._bases[n - 1]
            assert base is not None and isinstance(base.rng, ScriptedDealer)
            g = base.copy()
            g._stacks = decks
            # the previous hand's reshuffles still to come (in the action that deals this one), then this hand's
            g.rng = ScriptedDealer(dealer_for(CURRENT_FORMAT, seed), [*base.rng.script, *script])
            acts = h.actions
        for seat, action in acts:
            if self.strict:
                g.apply(seat, action)
            else:
                g._apply(seat, action)
                g.actions.append([seat, action])
        return g

    # ------------------------------------------------------------------ sampling

    def hidden_state(self) -> tuple[_Hand, list[list[Token]], list[list[Item]]]:
        """The current hand, its hidden positions per segment, and one consistent placement."""
        self._update()
        h = self._hands[-1]
        if self._start is None or self._start[0] != len(self.events):
            final = h.finals is not None
            tokens, start = self._matching(h, final)
            ok = self._fits(h, final)
            chains: list[_Chain] = []
            for toks, its in zip(tokens, start, strict=True):
                # allowed[t]: the items (by index in ``its``) that position t may hold
                allowed = [0] * len(toks)
                for group in _positions_alike(toks):
                    mask = sum(1 << i for i, item in enumerate(its) if ok(item, toks[group[0]]))
                    for t in group:
                        allowed[t] = mask
                classes: dict[int, list[int]] = {}
                for t, mask in enumerate(allowed):
                    classes.setdefault(mask, []).append(t)
                # the stock's class, usually (none: a segment the seat saw whole, such as a reshuffle it drew entirely)
                plain = max(classes, key=lambda m: len(classes[m]), default=0)
                moving = [t for t, mask in enumerate(allowed) if mask != plain]
                chains.append((allowed, moving, [c for c in classes.values() if len(c) > 1]))
            self._start = (len(self.events), tokens, start, chains)
        return h, self._start[1], self._start[2]

    def sample(self, rng: random.Random) -> Game:
        if self.decks == 1:
            h, tokens, cards = self._sample_one_deck(rng)
        else:
            h, tokens, cards = self._sample_two_decks(rng)
        deck, script = self._orders(h, cards, tokens)
        seed = rng.randrange(MAX_SEED)
        g = self._replay(h, seed, deck, script)
        rng_now = g.rng
        g.rng = rng_now.inner if isinstance(rng_now, ScriptedDealer) else rng_now
        g.seed = seed
        g.meta = {"sampled": True}
        return g

    def _sample_two_decks(self, rng: random.Random) -> tuple[_Hand, list[list[Token]], list[list[int]]]:
        self._update()
        h = self._hands[-1]
        if self._placed is None or self._placed[0] != len(self.events):
            tokens, placed = self._placement(h, h.finals is not None)
            self._placed = (len(self.events), tokens, placed, list(placed.x))
        _, tokens, placed, start = self._placed
        placed.fill(start)
        placed.walk(rng, self.SWEEPS * len(placed.moving))
        x = placed.x
        for plain in placed.plain:  # positions bound by nothing: shuffle exactly
            held = [x[p] for p in plain]
            rng.shuffle(held)
            for p, c in zip(plain, held, strict=True):
                x[p] = c
        return h, tokens, [[x[p] for p in span] for span in placed.spans]

    def _sample_one_deck(self, rng: random.Random) -> tuple[_Hand, list[list[Token]], list[list[int]]]:
        h, tokens, start = self.hidden_state()
        assert self._start is not None
        assign: list[list[Item]] = []
        for its, (allowed, moving, classes) in zip(start, self._start[3], strict=True):
            at = list(range(len(its)))  # position -> item index
            if moving:
                _chain(rng, at, allowed, moving, self.SWEEPS * len(moving))
            for cls in classes:  # positions allowed the same items are interchangeable: shuffle exactly
                held = [at[t] for t in cls]
                rng.shuffle(held)
                for t, x in zip(cls, held, strict=True):
                    at[t] = x
            assign.append([its[x] for x in at])
        return h, tokens, [[item[0] for item in its] for its in assign]


class _Placement:
    """Two decks: a card at every hidden position of one hand, checked seat by seat and card by card.

    With copies, which copy a seat played is no fact of the game (the engine takes either), so a
    history is the cards at the positions, not a matching of plays to positions: seat ``s`` held
    card ``c`` at time ``τ`` as often as its positions taken before ``τ`` hold ``c``, less its plays
    of ``c`` before ``τ``. That count must be at least one at each play, zero at each of ``s``'s
    voluntary draws whose void covers ``c``, and, once the hand is over, what ``s`` showed. The count
    is kept per (seat, card), so a change of cards at a few positions is checked in a few lookups."""

    def __init__(self, h: _Hand, tokens: list[list[Token]], avail: list[Counter[int]], final: bool) -> None:
        self.avail = avail
        self.final = final
        self.seg: list[int] = []  # flat position -> its segment
        self.owner: list[int] = []
        self.taken: list[int] = []
        self.spans: list[range] = []  # segment -> its flat positions
        for k, toks in enumerate(tokens):
            start = len(self.seg)
            for _, owner, taken in toks:
                self.seg.append(k)
                self.owner.append(owner)
                self.taken.append(taken)
            self.spans.append(range(start, len(self.seg)))
        self.plays: dict[tuple[int, int], list[int]] = {}
        for seat, card, at in h.played:
            self.plays.setdefault((seat, card), []).append(at)
        self.voids = {s: sorted(v) for s, v in h.voids.items()}
        self.shown: dict[tuple[int, int], int] = {}
        if final:
            assert h.finals is not None
            for seat, cards in h.finals.items():
                for c in cards:
                    self.shown[seat, c] = self.shown.get((seat, c), 0) + 1
        # a seat with no play, no void and nothing to show is bound by nothing: its positions are plain
        bound = {s for s, _ in self.plays} | {s for s, v in self.voids.items() if v}
        if final:
            bound |= set(h.finals or ())
        self.moving = [p for p, o in enumerate(self.owner) if o in bound]
        self.plain = [[p for p in span if self.owner[p] not in bound] for span in self.spans]
        self.owned = [[p for p in span if self.owner[p] >= 0] for span in self.spans]
        self.mine: dict[tuple[int, int], list[int]] = {}  # (segment, seat) -> its positions there
        for p, o in enumerate(self.owner):
            if o >= 0:
                self.mine.setdefault((self.seg[p], o), []).append(p)
        self.by_seat: dict[int, list[int]] = {}
        for p, o in enumerate(self.owner):
            if o >= 0:
                self.by_seat.setdefault(o, []).append(p)
        # segments a played card's source can move between
        self.crossing = [k for k, own in enumerate(self.owned) if own and len(self.spans[k]) > 1]
        self._void_times: dict[tuple[int, int], list[int]] = {}
        self.x: list[int] = []
        self.hold: dict[tuple[int, int], list[int]] = {}

    # -- the counts

    def void_times(self, s: int, c: int) -> list[int]:
        key = (s, c)
        out = self._void_times.get(key)
        if out is None:
            out = self._void_times[key] = [t for t, mask in self.voids.get(s, ()) if mask >> c & 1]
        return out

    def viol(self, s: int, c: int) -> int:
        """How far (seat, card)'s count is from what the seat was seen to do (0: consistent)."""
        plays = self.plays.get((s, c), ())
        taken = self.hold.get((s, c), ())
        bad = 0
        for n, t in enumerate(plays):  # the n-th play needs n + 1 copies taken before it
            have = bisect_left(taken, t)
            if have <= n:
                bad += n + 1 - have
        for t in self.void_times(s, c):
            bad += abs(bisect_left(taken, t) - bisect_left(plays, t))
        if self.final:
            bad += abs(len(taken) - len(plays) - self.shown.get((s, c), 0))
        return bad

    def _set(self, p: int, card: int) -> None:
        old = self.x[p]
        self.x[p] = card
        s = self.owner[p]
        if s >= 0:
            a = self.taken[p]
            self.hold[s, old].remove(a)
            insort(self.hold.setdefault((s, card), []), a)

    def _keys(self, ps: Sequence[int]) -> set[tuple[int, int]]:
        return {(self.owner[p], self.x[p]) for p in ps if self.owner[p] >= 0}

    def _swap(self, u: int, v: int) -> None:
        cu, cv = self.x[u], self.x[v]
        self._set(u, cv)
        self._set(v, cu)

    def fill(self, x: list[int]) -> None:
        self.x = list(x)
        self.hold = {}
        for p, s in enumerate(self.owner):
            if s >= 0:
                insort(self.hold.setdefault((s, x[p]), []), self.taken[p])

    # -- a first consistent history

    #: the odds that ``settle`` keeps a swap that puts the counts one further off (two: its square, ...)
    NOISE = 0.05

    def settle(self, x: list[int], rng: random.Random, steps: int) -> bool:
        """From cards ``x`` (each segment's pool, any order), search for a consistent history; whether
        one was found (it is then in ``self.x``). A min-conflicts search: take a (seat, card) whose count
        is off; swap, within a segment, a position of that seat taken early enough with one holding the
        card (the seat lacks a copy), or one of its copies with any other card (it has one too many);
        keep the swap unless it puts the counts further off (now and then it may, by ``NOISE`` per
        count, off a plateau). Deterministic for ``rng``'s state, at most ``steps`` swaps tried."""
        self.fill(x)
        x, owner = self.x, self.owner
        seats = sorted({*self.by_seat, *(s for s, _ in self.plays), *(s for s, _ in self.shown)})
        off: dict[tuple[int, int], int] = {}
        for s in seats:
            for c in range(52):
                v = self.viol(s, c)
                if v:
                    off[s, c] = v
        rand = rng.random
        for _ in range(steps):
            if not off:
                break
            bad = list(off)
            swap = self._mend(bad[int(rand() * len(bad))], rng)
            if swap is None:
                continue
            p, q = swap
            keys = {(owner[u], c) for u in swap if owner[u] >= 0 for c in (x[p], x[q])}
            self._swap(p, q)
            after = {k: self.viol(*k) for k in keys}
            worse = sum(after.values()) - sum(off.get(k, 0) for k in keys)
            if worse > 0 and rand() >= self.NOISE ** worse:
                self._swap(p, q)
                continue
            for k, v in after.items():
                if v:
                    off[k] = v
                else:
                    off.pop(k, None)
        return not off

    def _mend(self, key: tuple[int, int], rng: random.Random) -> tuple[int, int] | None:
        """A swap within a segment toward mending (seat, card) ``key``'s count, at random, or None."""
        s, c = key
        x, rand = self.x, rng.random
        plays = self.plays.get(key, ())
        taken = self.hold.get(key, [])
        need = -1  # the time before which the seat lacks a copy (-1: it has one too many)
        for n, t in enumerate(plays):
            if bisect_left(taken, t) <= n:
                need = t
                break
        if need < 0:
            for t in self.void_times(s, c):
                if bisect_left(taken, t) < bisect_left(plays, t):
                    need = t
                    break
        if need < 0 and self.final and len(taken) - len(plays) < self.shown.get(key, 0):
            need = _NEVER
        mine = self.by_seat.get(s, [])
        if need >= 0:  # give it a copy: one of its positions taken before ``need`` gets one from its segment
            ps = [p for p in mine if self.taken[p] < need and x[p] != c and self.avail[self.seg[p]][c] > 0]
            if not ps:
                return None
            p = ps[int(rand() * len(ps))]
            holders = [q for q in self.spans[self.seg[p]] if x[q] == c]
            return (p, holders[int(rand() * len(holders))]) if holders else None
        # take one away: a copy it holds goes to another position of the segment
        ps = [p for p in mine if x[p] == c]
        if not ps:
            return None
        p = ps[int(rand() * len(ps))]
        span = self.spans[self.seg[p]]
        q = span[int(rand() * len(span))]
        return None if x[q] == c else (p, q)

    # -- the chain

    def walk(self, rng: random.Random, steps: int) -> None:
        """Metropolis–Hastings over consistent histories, uniform in the limit. Three proposals, chosen
        with fixed odds: swap a bound position's card with any of its segment's (symmetric); turn three
        bound positions of one segment round (symmetric); or move the source of a bound card from one
        segment to another (two swaps at once, weighted by ``_path`` both ways)."""
        moving, x, spans, seg = self.moving, self.x, self.spans, self.seg
        m = len(moving)
        if not m:
            return
        cross = len(self.crossing) > 1
        rand = rng.random
        for _ in range(steps):
            r = rand()
            if cross and r < 0.25:
                self._cross(rng)
                continue
            u = moving[int(rand() * m)]
            span = spans[seg[u]]
            if r < 0.45:
                b, c = moving[int(rand() * m)], moving[int(rand() * m)]
                if seg[b] != seg[u] or seg[c] != seg[u] or u in (b, c) or b == c:
                    continue
                ps = (u, b, c)
                cards = (x[u], x[b], x[c])
                touched = self._keys(ps)
                self._set(u, cards[1])
                self._set(b, cards[2])
                self._set(c, cards[0])
                touched |= self._keys(ps)
                if any(self.viol(*k) for k in touched):
                    self._set(u, cards[0])
                    self._set(b, cards[1])
                    self._set(c, cards[2])
                continue
            v = span[int(rand() * len(span))]
            if x[u] == x[v]:
                continue
            touched = self._keys((u, v))
            self._swap(u, v)
            touched |= self._keys((u, v))
            if any(self.viol(*k) for k in touched):
                self._swap(u, v)

    def _cross(self, rng: random.Random) -> None:
        """Seat ``s`` took card ``c`` at ``u`` in segment ``i``: propose that it took it at ``u2`` in
        segment ``j`` instead (a copy of ``c`` there, at ``v2``, moves to ``u2``; ``c`` at ``u`` goes to a
        random ``v`` of segment ``i``)."""
        x = self.x
        i, j = rng.choice(self.crossing), rng.choice(self.crossing)
        if i == j:
            return
        u = rng.choice(self.owned[i])
        s, c = self.owner[u], x[u]
        there = self.mine.get((j, s))
        if not there:
            return
        u2 = rng.choice(there)
        if x[u2] == c:
            return
        holders = [w for w in self.spans[j] if x[w] == c]
        if not holders:
            return
        v2 = rng.choice(holders)
        span = self.spans[i]
        v = span[int(rng.random() * len(span))]
        if v == u or x[v] == c:
            return
        ps = (u, v, u2, v2)
        before = {p: x[p] for p in ps}
        forward = self._paths(before, (u, v), (u2, v2))
        touched = self._keys(ps)
        self._swap(u, v)
        self._swap(u2, v2)
        touched |= self._keys(ps)
        if not any(self.viol(*k) for k in touched):
            back = self._paths({p: x[p] for p in ps}, (u, v), (u2, v2))
            if rng.random() * forward < back:
                return
        self._swap(u2, v2)
        self._swap(u, v)

    def _paths(self, at: dict[int, int], one: tuple[int, int], two: tuple[int, int]) -> float:
        """The chance that ``_cross`` proposes the two swaps ``one`` and ``two`` from cards ``at``, over
        every way it could pick them (each pair either way round, either segment first)."""
        total = 0.0
        for first, second in ((one, two), (two, one)):
            for a, b in (first, first[::-1]):
                for a2, b2 in (second, second[::-1]):
                    s = self.owner[a]
                    c = at[a]
                    if s < 0 or self.owner[a2] != s or at[b2] != c or at[b] == c or at[a2] == c:
                        continue
                    i, j = self.seg[a], self.seg[a2]
                    total += 1 / (len(self.owned[i]) * len(self.mine[j, s]) * self.avail[j][c]
                                  * len(self.spans[i]))
        return total


def _two_deck_start(tokens: list[list[Token]], avail: list[Counter[int]], reqs: list[Item], ok: Any,
                    segs: list[int]) -> list[int]:
    """Two decks: a start for ``_Placement.settle``, the card at each hidden position (flat, segment after
    segment), as consistent as one matching per segment makes it.

    Given the segment each played or kept card came from (``segs``, from ``_segments_for``), each
    segment is a bipartite matching of its positions to those cards and its other copies (free), by
    augmenting paths. A card more than its segment's copies is dropped; a position left unmatched
    gets one of its segment's cards left over: the start may break a few rules, which the search
    mends."""
    out: list[int] = []
    for k, toks in enumerate(tokens):
        left = Counter(avail[k])
        placed = []
        for r, item in enumerate(reqs):
            if segs[r] == k and left[item[0]] > 0:
                left[item[0]] -= 1
                placed.append(item)
        its = placed + [(c, FREE, -1, _NEVER) for c in sorted(left.elements())]
        match = _max_matching(toks, its, ok)
        cards = [its[i][0] if i >= 0 else -1 for i in match]
        spare = Counter(avail[k])
        spare.subtract(c for c in cards if c >= 0)
        rest = iter(sorted(spare.elements()))
        out += [c if c >= 0 else next(rest) for c in cards]
    return out


def _req_matching(tokens: list[list[Token]], avail: list[Counter[int]], reqs: list[Item], ok: Any,
                  rng: random.Random, budget: int) -> list[int] | None:
    """Two decks: the pool each card a seat played or showed came from, by one matching of those cards to
    the positions their seats took (a position each, taken in time, no void between), within each
    pool's copies; None if a card fits no position. (The copies left must still fit the other
    positions: ``_two_deck_start``.)

    Augmenting paths, breadth first, that respect the copies: a card moving into a position of pool
    ``k`` needs a copy there not yet taken (counting the card it displaces and the one that leaves);
    a path is checked whole once applied and undone if it took too many. A card no path places then
    takes a position anyway (one of three tried that evicts least), evicting its holder and, if
    pool ``k`` had no copy left, another card of its kind from ``k``; the evicted look for paths in
    turn; a step that leaves more cards without a position is undone, but for odds ``_KICK_NOISE``
    per card. The searches for a path look at ``budget`` positions at most, then it stops; a card
    still without a position gets a pool it fits, from the best matching seen (the search mends the
    rest). Deterministic for ``rng``'s state."""
    where: list[tuple[int, int]] = []  # owned position -> (segment, index in the segment)
    for k, toks in enumerate(tokens):
        where += [(k, t) for t, tok in enumerate(toks) if tok[1] >= 0]
    if len(where) < len(reqs):
        return None
    fits: list[list[int]] = []
    for item in reqs:
        qs = [q for q, (k, t) in enumerate(where) if avail[k][item[0]] > 0 and ok(item, tokens[k][t])]
        if not qs:
            return None
        rng.shuffle(qs)
        fits.append(qs)
    pos = [-1] * len(reqs)
    held = [-1] * len(where)
    work = [0]  # positions looked at by the searches for a path
    count: Counter[tuple[int, int]] = Counter()

    def augment(r0: int) -> bool:
        parent: dict[int, int] = {}
        queue = deque([r0])
        seen = {r0}
        while queue:
            r = queue.popleft()
            work[0] += len(fits[r])
            c = reqs[r][0]
            here = where[pos[r]][0] if pos[r] >= 0 else -1
            for q in fits[r]:
                if q in parent:
                    continue
                k = where[q][0]
                other = held[q]
                if count[k, c] + 1 - (other >= 0 and reqs[other][0] == c) - (here == k) > avail[k][c]:
                    continue
                parent[q] = r
                if other < 0:
                    moved = []
                    while True:
                        r = parent[q]
                        moved.append((r, pos[r]))
                        old = pos[r]
                        pos[r], held[q] = q, r
                        if old >= 0:
                            count[where[old][0], reqs[r][0]] -= 1
                        count[where[q][0], reqs[r][0]] += 1
                        if r == r0:
                            break
                        q = old
                    if all(count[key] <= avail[key[0]][key[1]] for key in count):
                        return True
                    for r, old in reversed(moved):  # the path took a copy twice: undo it
                        q = pos[r]
                        count[where[q][0], reqs[r][0]] -= 1
                        held[q] = -1
                        if old >= 0:
                            count[where[old][0], reqs[r][0]] += 1
                            held[old] = r
                        pos[r] = old
                    return False
                if other not in seen:
                    seen.add(other)
                    queue.append(other)
        return False

    order = list(range(len(reqs)))
    rng.shuffle(order)
    left = [r for r in order if not augment(r)]
    by_card: dict[int, list[int]] = {}
    for r, item in enumerate(reqs):
        by_card.setdefault(item[0], []).append(r)

    def evict(r: int) -> None:
        q = pos[r]
        count[where[q][0], reqs[r][0]] -= 1
        held[q], pos[r] = -1, -1
        left.append(r)

    best_pos, best_left = list(pos), list(left)
    while left and work[0] < budget:  # a card no path places takes a position anyway; what it evicts goes on
        was = (list(pos), list(held), Counter(count), list(left))
        r = left.pop(int(rng.random() * len(left)))
        c = reqs[r][0]
        best: tuple[int, int] | None = None
        for _ in range(3):
            q = fits[r][int(rng.random() * len(fits[r]))]
            cost = (held[q] >= 0) + (count[where[q][0], c] >= avail[where[q][0]][c])
            if best is None or cost < best[0]:
                best = (cost, q)
        assert best is not None
        q = best[1]
        k = where[q][0]
        if held[q] >= 0:
            evict(held[q])
        if count[k, c] >= avail[k][c]:
            rivals = [o for o in by_card[c] if pos[o] >= 0 and where[pos[o]][0] == k]
            evict(rivals[int(rng.random() * len(rivals))])
        pos[r], held[q] = q, r
        count[k, c] += 1
        left[:] = [o for o in left if not augment(o)]
        worse = len(left) - len(was[3])
        if worse > 0 and rng.random() >= _KICK_NOISE ** worse:  # more left without a position: undo, mostly
            pos[:], held[:], left[:] = was[0], was[1], was[3]
            count.clear()
            count.update(was[2])
        if len(left) < len(best_left):
            best_pos, best_left = list(pos), list(left)
    if len(left) > len(best_left):
        pos, left = best_pos, best_left
    # a card still without a position: a pool it fits (the search mends the rest)
    return [where[q][0] if q >= 0 else where[fits[r][0]][0] for r, q in enumerate(pos)]


def _positions_alike(toks: list[Token]) -> list[list[int]]:
    """The positions (indices in ``toks``) grouped by owner and draw: all that ``CraitsKnowledge._fits``'s
    ``ok`` reads of a position, so it is asked once per group (the stock's many positions are one)."""
    alike: dict[tuple[int, int], list[int]] = {}
    for t, tok in enumerate(toks):
        alike.setdefault(tok[1:], []).append(t)
    return list(alike.values())


def _max_matching(toks: list[Token], its: list[Item], ok: Any, stock_first: bool = True) -> list[int]:
    """A maximum matching of items to positions by Kuhn's augmenting paths: the item (index in ``its``)
    at each position, or -1. The played and kept cards are placed first, then the free ones; each item
    tries the positions ``ok`` allows it in a fixed order (items alike share the list; ``ok`` may read a
    position's owner and draw, not its place, so positions alike are asked once).

    Two uses, each with its own order (the matching found depends on it; keep each caller's, or the
    samples change for the same seeds):

    - two decks, ``_two_deck_start``: how many positions a choice of segments leaves unmatched (a
      maximum matching, short of perfect while the search goes on), and, once none is, the first
      history; the stock positions first (``stock_first``), where a free card goes straight away
      with no path needed;
    - one deck, ``CraitsKnowledge._matching``: the chain's start, which must place every item (a
      perfect matching; each segment has as many items as positions, so the caller checks that no
      position is left at -1); the positions in index order (``stock_first=False``)."""
    allowed: dict[Item, list[int]] = {}
    at = [-1] * len(toks)
    alike = _positions_alike(toks)

    def augment(x: int, seen: set[int]) -> bool:
        item = its[x]
        fits = allowed.get(item)
        if fits is None:
            fits = allowed[item] = sorted(t for group in alike if ok(item, toks[group[0]]) for t in group)
            if stock_first:
                fits.sort(key=lambda t: toks[t][1] >= 0)
        for t in fits:
            if t not in seen:
                seen.add(t)
                if at[t] < 0 or augment(at[t], seen):
                    at[t] = x
                    return True
        return False

    for x in sorted(range(len(its)), key=lambda x: its[x][1] == FREE):  # the played and kept cards first
        augment(x, set())
    return at


def _segments_for(h: _Hand, tokens: list[list[Token]], avail: list[Counter[int]], reqs: list[Item],
                  pick: random.Random | None, strict: bool = True) -> list[int]:
    """The segment each card a seat played or kept came from. It took a copy of itself from that
    segment's pool and one of its owner's positions there, taken in time; with one deck the segment
    is forced, with two decks copies may be in several pools. Start from the latest pool, then move
    cards off over-full pools and seats (``pick`` randomises the moves); raise if that fails (or, not
    ``strict``, return the last choice: a start for two decks' search)."""
    owners = [Counter(o for _, o, _ in toks) for toks in tokens]
    cands: list[list[int]] = []
    for card, _, owner, until in reqs:
        ks = [k for k, seg in enumerate(h.segs) if seg.at < until and avail[k][card] > 0
              and any(o == owner and a < until for _, o, a in tokens[k])]
        if not ks:
            raise AssertionError(f"craits knowledge: P{owner}'s {NAMES[card]} fits no position")
        cands.append(ks)
    at = _flow_start(reqs, cands, avail, owners, pick)
    copies: Counter[tuple[int, int]] = Counter((at[r], reqs[r][0]) for r in range(len(reqs)))
    slots: Counter[tuple[int, int]] = Counter((at[r], reqs[r][2]) for r in range(len(reqs)))
    rng = pick or random.Random(0)
    for _ in range(50 * len(reqs) + 50 if strict else 5 * len(reqs) + 50):
        over = [r for r in range(len(reqs)) if copies[at[r], reqs[r][0]] > avail[at[r]][reqs[r][0]]
                or slots[at[r], reqs[r][2]] > owners[at[r]][reqs[r][2]]]
        if not over:
            return at
        r = rng.choice(over)
        card, owner = reqs[r][0], reqs[r][2]
        room = [k for k in cands[r] if k != at[r] and copies[k, card] < avail[k][card]
                and slots[k, owner] < owners[k][owner]]
        others = [k for k in cands[r] if k != at[r]]
        if not (room or others):
            continue
        k = rng.choice(room or others)
        copies[at[r], card] -= 1
        slots[at[r], owner] -= 1
        at[r] = k
        copies[k, card] += 1
        slots[k, owner] += 1
    if not strict:
        return at
    raise AssertionError("craits knowledge: the cards seats played or kept fit no positions")


def _flow_start(reqs: list[Item], cands: list[list[int]], avail: list[Counter[int]], owners: list[Counter[int]],
                pick: random.Random | None) -> list[int]:
    """A first choice of segments: a maximum flow from each card played or kept, through a copy of it
    in a candidate segment's pool (as many as the pool has), to its owner's positions there (as many
    as the owner has). Two seats taking the same card from one pool can be crossed over in it, so the
    repair in ``_segments_for`` checks the owners again."""
    cap: dict[Any, dict[Any, int]] = {"s": {}, "t": {}}

    def edge(u: Any, v: Any, c: int) -> None:
        cap.setdefault(u, {})[v] = cap.get(u, {}).get(v, 0) + c
        cap.setdefault(v, {}).setdefault(u, 0)

    for r, (card, _, owner, _) in enumerate(reqs):
        edge("s", ("r", r), 1)
        ks = list(cands[r])
        if pick is not None:
            pick.shuffle(ks)
        else:
            ks.reverse()  # the latest pool first
        for k in ks:
            edge(("r", r), ("copy", k, card), 1)
            edge(("copy", k, card), ("out", k, card), 0)
            edge(("out", k, card), ("slot", k, owner), len(reqs))
            edge(("slot", k, owner), "t", 0)
    for u in cap:
        if isinstance(u, tuple) and u[0] == "copy":
            cap[u][("out", u[1], u[2])] = avail[u[1]][u[2]]
        elif isinstance(u, tuple) and u[0] == "slot":
            cap[u]["t"] = owners[u[1]][u[2]]

    def push(path: list[Any]) -> None:
        for u, v in itertools.pairwise(path):
            cap[u][v] -= 1
            cap[v][u] += 1

    # Most cards fit their first candidate pool straight away: take those paths first, so that the
    # breadth-first search below (a walk over the whole graph per path) runs only for the rest.
    for r, (card, _, owner, _) in enumerate(reqs):
        for copy in cap[("r", r)]:  # in the order of preference above
            if copy == "s":
                continue
            out, slot = ("out", copy[1], card), ("slot", copy[1], owner)
            if cap[copy][out] > 0 and cap[slot]["t"] > 0:
                push(["s", ("r", r), copy, out, slot, "t"])
                break
    while True:  # augmenting paths, breadth first
        prev: dict[Any, Any] = {"s": None}
        queue = deque(["s"])
        while queue and "t" not in prev:
            u = queue.popleft()
            for v, c in cap[u].items():
                if c > 0 and v not in prev:
                    prev[v] = u
                    queue.append(v)
        if "t" not in prev:
            break
        path = ["t"]
        while prev[path[-1]] is not None:
            path.append(prev[path[-1]])
        push(path[::-1])
    at = []
    for r, ks in enumerate(cands):
        used = [v[1] for v, c in cap[("r", r)].items() if v != "s" and c == 0]
        at.append(used[0] if used else ks[-1])
    return at


def _chain(rng: random.Random, at: list[int], allowed: list[int], moving: list[int], steps: int) -> None:
    """Metropolis over placements with a symmetric proposal (so uniform over the consistent ones): swap a
    constrained position's item with any position's, or turn three constrained positions' items round."""
    m, every = len(moving), len(at)
    rand = rng.random
    for _ in range(steps):
        r = rand()
        if m >= 3 and r < 0.3:
            a, b, c = moving[int(rand() * m)], moving[int(rand() * m)], moving[int(rand() * m)]
            if a in (b, c) or b == c:
                continue
            ia, ib, ic = at[a], at[b], at[c]
            if allowed[a] >> ib & 1 and allowed[b] >> ic & 1 and allowed[c] >> ia & 1:
                at[a], at[b], at[c] = ib, ic, ia
            continue
        u = moving[int(rand() * m)]
        v = int(rand() * every)
        if u == v:
            continue
        iu, iv = at[u], at[v]
        if allowed[u] >> iv & 1 and allowed[v] >> iu & 1:
            at[u], at[v] = iv, iu


class _Public:
    """What the events say of the table as they are read: the pile, the active suit, the count."""

    def __init__(self) -> None:
        self.pile: list[int] = []
        self.active = 0
        self.count = 0
        self.mine: Counter[int] = Counter()
        self.hand: _Hand = _Hand(0)
        self.me_slot = 0


def parse_card_list(names: Sequence[str]) -> list[int]:
    return [parse_card(c) for c in names]


def _for(log: Sequence[Event], seat: int) -> list[Event]:
    return [e for e in log if e["to"] == "all" or seat in e["to"]]


def _play_action(e: Event) -> str:
    card = parse_card(e["card"])
    text = f"play {e['card']}"
    if _RANK[card] in (8, 9) and _SUIT[e["suit"]] != card & 3:
        text += f" suit {e['suit']}"
    return text + (" one" if e["one"] else "")


def _upcard_in_place(g: Craits, events: Sequence[Event], i: int, me: int) -> None:
    """Before the one-card declarations close, put the upcard where the shadow will turn it."""
    drawn = 0
    for e in events[i:]:
        if e["type"] == "draw":
            drawn += e["n"]
        elif e["type"] == "upcard":
            card = parse_card(e["card"])
            at = len(g.stock) - 1 - drawn
            if g.stock[at] != card:
                if card in g.stock:
                    j = g.stock.index(card)
                    g.stock[j], g.stock[at] = g.stock[at], g.stock[j]
                else:
                    holder = next(s for s in range(g.players) if s != me and card in g.hands[s])
                    g.hands[holder].remove(card)
                    g.hands[holder].append(g.stock[at])
                    g.hands[holder].sort()
                    g.stock[at] = card
            return
        elif e["type"] in ("play", "hand_start"):
            return


def _bring(g: Craits, seat: int, card: int, me: int) -> None:
    """Make the shadow's ``seat`` hold ``card`` (which it is about to play)."""
    if card in g.hands[seat]:
        return
    spare = next(c for c in g.hands[seat])
    _swap_in(g, seat, card, spare, me)


def _swap_in(g: Craits, seat: int, want: int, spare: int, me: int) -> None:
    """Exchange ``seat``'s ``spare`` with a ``want`` from the shadow's stock or another seat's hand."""
    if want in g.stock:
        g.stock[g.stock.index(want)] = spare
    else:
        holder = next((s for s in range(g.players) if s not in (seat, me) and want in g.hands[s]), None)
        assert holder is not None, f"craits knowledge: the shadow has no {NAMES[want]} to give"
        g.hands[holder].remove(want)
        g.hands[holder].append(spare)
        g.hands[holder].sort()
    g.hands[seat].remove(spare)
    g.hands[seat].append(want)
    g.hands[seat].sort()

