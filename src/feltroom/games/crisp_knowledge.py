"""What one Crisp seat knows, and whole games drawn from it (feltroom.knowledge, #15).

A ``CrispKnowledge`` is fed the events delivered to its seat and rebuilds the game by
replaying the table's actions on stacked decks (``deck=``: one list per round). Only the
deals are chance in Crisp (a flip turns the public pile over, CRISP-DECK-1), so a round's
hidden information is exactly its deal order, and a sample is a deal order consistent with
what the seat saw, replayed. Decisions beyond the spec:

- **The actions are read back from the events.** Every action leaves a recognisable first
  event (notation.md#crisp). One pair cannot be told apart by a seat that is not the
  drawer: another seat's ``draw`` followed by the clock's ``timeout`` and a ``timeout``
  that draws for them give the same public events and the same state; they are read as
  ``draw`` then ``timeout``. The sample's ``actions`` may therefore differ from the real
  ones there, never its events for the seat or its public events.
- **Tokens.** A round is first replayed with the deal positions 0–51 standing in for the
  cards (``_apply`` does not look at ranks), so every card the round moved is followed by
  position; each event the seat saw that names a card (its peeks, its draws, Jack and
  Queen reveals, swaps out, discards, Kings, the discard-pile draws, the reveal at the
  round's end) ties a position to a card. A card another seat drew from the deck and
  swapped in is not named, but it is an A–10 (CRISP-SPEC-1): that is the only constraint
  on a hidden position beyond its card being unseen.
- **Uniform over what is possible.** The constrained positions get a uniformly random
  injection of the unseen A–10s, then every other hidden position a uniformly random
  permutation of the unseen cards left; every consistent deal order is equally likely.
  Other players' choices are not read as evidence (they may play any way they like).
- **A model may hold the swapped-in cards lower.** ``fresh_swaps()`` gives, for each hidden card
  another seat drew from the deck and swapped in, the card it replaced (public) and whether that
  seat had been shown it: facts. ``sample(rng, below)`` then holds each such card at most a value
  the caller's model gives (the search's model of the others, ``search_games._crisp_below``),
  uniformly among the deal orders that keep every bound. ``kept_over()`` gives, for each hidden card
  another seat had been shown and kept while it let a card go (discarded its drawn card, or swapped
  out another card it had been shown), the cards let go. Without ``below`` the sample is the uniform
  one above, draw for draw.
- **Past rounds are exact.** The reveal at a round's end names every card the round dealt or
  drew, so a finished round's deal is known except the cards nobody drew; those are placed
  in card order (they are in no location any more, only in the sample's record).
- **Seeds.** Each sample gets a fresh seed from ``rng`` whose dealer draws the real first
  dealer when ``first_dealer`` is not set, so ``sample.record`` replays to the sample and
  later rounds are dealt at random, not as the real game will deal them.
- **Cost.** What the events say is read once per new batch of events: the state before the
  action that dealt the current round (replayed once, kept) and the current round replayed on
  positions. A sample copies that replay and writes each position's card in (its state, its
  log and its record are those of replaying the round on the sampled deck, which
  ``strict = True`` does instead, and the tests compare); about 0.5 ms on this machine.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import NAMES, parse_card
from ..dealing import CURRENT_FORMAT, dealer_for
from ..game import CLOCK, MAX_SEED, Event, Game, Seat
from ..knowledge import Knowledge, register_knowledge
from ..options import normalise
from .crisp import DECK_SRC, RANK, VALUE, Crisp

__all__ = ["CrispKnowledge", "parse_actions"]

_IDENTITY = list(range(52))
_ID = {name: c for c, name in enumerate(NAMES)}
_NONFACE = frozenset(c for c in range(52) if RANK[c] <= 10)
#: event fields that name one card, and fields that name a list of cards
_CARD_FIELDS = ("card", "out")
_LIST_FIELDS = ("cards", "kings")
#: events after which a ``turn_start`` belongs to the same action (else it is a ``release``)
_TURN_CAUSES = frozenset({"turn_end", "window_open", "round_start"})

Action = tuple[Seat, str]


def parse_actions(events: Sequence[Event], seat: int) -> list[tuple[Seat, str, int]]:
    """The actions behind ``events`` (what ``seat`` was shown), each with the index of its first event."""
    out: list[tuple[Seat, str, int]] = []
    i, n = 0, len(events)

    def at(j: int) -> Event | None:
        return events[j] if j < n else None

    while i < n:
        e = events[i]
        t = e["type"]
        start = i
        action: Action | None = None
        if t == "window_close" and e["why"] == "draw":
            while (x := at(i)) is not None and x["type"] == "window_close" and x["why"] == "draw":
                i += 1
            action, i = _read_draw(events, i, seat)
        elif t == "window_close" and e["why"] == "clock":
            nxt = at(i + 1)
            if nxt is not None and nxt["type"] == "timer_stop":  # a release or a timeout closing windows first
                while (x := at(i)) is not None and x["type"] == "window_close" and x["why"] == "clock":
                    i += 2
                x = at(i)
                if x is not None and x["type"] == "turn_start":
                    action, i = (CLOCK, "release"), i + 1
                else:
                    i = _read_timeout(events, i)
                    action = (CLOCK, "timeout")
            else:
                action, i = (CLOCK, f"close {e['seat']}"), i + 1
        elif t == "window_close" and e["why"] == "decline":
            action, i = (e["seat"], "decline"), i + 1
        elif t == "crisp":
            action, i = (e["seat"], "crisp"), i + 1
        elif t in ("flip", "draw"):
            action, i = _read_draw(events, i, seat)
        elif t == "discard":
            action, i = ((CLOCK, "timeout") if e["why"] == "timeout" else (e["seat"], "discard")), i + 1
        elif t == "swap":
            action, i = (e["seat"], f"swap {e['slot']}"), i + 1
        elif t == "reveal" and e["why"] == "jack":
            action, i = (e["seat"], "jack"), i + 2
        elif t == "jack":
            action, i = (e["seat"], "jack"), i + 1
        elif t == "queen":
            action, i = (e["seat"], f"queen {e['slot']} {e['target']} {e['target_slot']}"), i + 1
        elif t == "king":
            action, i = (e["seat"], "king"), i + 1
        elif t == "turn_start":
            prev = events[i - 1] if i else None
            caused = prev is not None and (prev["type"] in _TURN_CAUSES
                                           or (prev["type"] == "reveal" and prev["why"] == "deal"))
            if not caused:
                action = (CLOCK, "release")
            i += 1
        else:
            i += 1
        if action is not None:
            out.append((action[0], action[1], start))
    return out


def _read_draw(events: Sequence[Event], i: int, seat: int) -> tuple[Action, int]:
    """A draw (after its window closes): ``draw``, ``draw discard``, or this seat's own timed-out draw."""
    if events[i]["type"] == "flip":
        i += 1
    d = events[i]
    i += 1
    if d["source"] == "discard":
        return (d["seat"], "draw discard"), i
    if d["seat"] == seat:
        nxt = events[i] if i < len(events) else None
        if nxt is not None and nxt["type"] == "reveal" and nxt["why"] == "draw":
            return (seat, "draw"), i + 1
        return (CLOCK, "timeout"), _read_timeout(events, i)  # no reveal: the clock drew for this seat
    return (d["seat"], "draw"), i


def _read_timeout(events: Sequence[Event], i: int) -> int:
    """Past a timeout's own events (a flip, the clock's draw, the discard)."""
    while i < len(events) and events[i]["type"] in ("flip", "draw"):
        i += 1
    return i + 1  # the discard


class _Round:
    """One round as the seat saw it: its actions, and what they tell of its deal order."""

    def __init__(self, number: int) -> None:
        self.number = number
        #: (seat, action, first event, end event): the action that dealt it comes first
        self.actions: list[tuple[Seat, str, int, int]] = []
        self.known: dict[int, int] = {}  # deal position -> card
        self.nonface: set[int] = set()  # positions another seat drew and swapped in
        #: such a position -> the position of the card it replaced, and whether the swapping seat had seen that card
        self.replaced: dict[int, tuple[int, bool]] = {}
        #: a position another seat held, having been shown it -> the positions of the cards it let go instead
        self.kept: dict[int, list[int]] = {}
        #: another seat's declaration: the seat, its hand's positions then, whether it had been shown each,
        #: and how many turns it had ended in the round
        self.declared: tuple[int, list[int], list[bool], int] | None = None
        self.ended = False
        self.analysed = -1  # how many actions ``known`` covers
        #: the round replayed on positions up to now, and its events that name positions (for ``sample``)
        self.template: Crisp | None = None
        self.naming: list[tuple[int, Event]] = []


@register_knowledge
class CrispKnowledge(Knowledge):
    """One Crisp seat's knowledge (see the module docstring)."""

    game = "crisp"
    #: build every sample by replaying the round on its deck, not by relabelling the positions' replay
    strict = False

    def __init__(self, seat: int, players: int, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(seat, players, options)
        self.options = normalise(Crisp.OPTIONS, options, players)
        self.events: list[Event] = []
        self._parsed: list[tuple[Seat, str, int]] = []
        self._rounds: list[_Round] = []
        self._dealer: int | None = None
        #: per finished round, its deal order; the state before the action dealing the next
        self._decks: list[list[int]] = []
        self._bases: list[Crisp | None] = [None]
        self._names: list[list[str]] = []
        self._seen = 0

    def observe(self, events: Sequence[Event]) -> None:
        for e in events:
            if e["to"] != "all" and self.seat not in e["to"]:
                raise ValueError(f"P{self.seat} was not shown {e['type']!r} (to {e['to']})")
        self.events.extend(events)

    # ------------------------------------------------------------------ reading the events

    def _update(self) -> None:
        """Parse new events into actions and rounds; analyse and cache what became public."""
        events = self.events
        if self._rounds and self._seen == len(events):
            return
        self._seen = len(events)
        if not events:
            raise ValueError("nothing observed yet: a Crisp seat is first shown its deal")
        if self._dealer is None:
            first = events[0]
            if first["type"] != "round_start":
                raise ValueError("the events must start at the game's start (a round_start)")
            self._dealer = first["dealer"]
        parsed = parse_actions(events, self.seat)
        bounds = [p[2] for p in parsed] + [len(events)]
        rounds: list[_Round] = []
        current = _Round(1)
        rounds.append(current)
        ends = [i for i, e in enumerate(events) if e["type"] == "round_end"]
        starts = [i for i, e in enumerate(events) if e["type"] == "round_start"]
        for k, (seat, action, start) in enumerate(parsed):
            end = bounds[k + 1]
            if any(start <= s < end for s in starts[1:]):
                current.ended = True
                current = _Round(current.number + 1)
                rounds.append(current)
            current.actions.append((seat, action, start, end))
        if ends and ends[-1] > (starts[-1] if starts else -1):
            current.ended = True
        old = self._rounds
        for r in rounds:  # keep what earlier calls learnt
            if r.number <= len(old) and len(old[r.number - 1].actions) == len(r.actions):
                prev = old[r.number - 1]
                r.known, r.nonface, r.analysed = prev.known, prev.nonface, prev.analysed
                r.replaced, r.kept, r.declared = prev.replaced, prev.kept, prev.declared
                r.template, r.naming = prev.template, prev.naming
        self._rounds = rounds
        self._parsed = parsed
        for r in rounds:
            if r.analysed != len(r.actions) + (1 if r.ended else 0):
                self._analyse(r)
            if r.number < len(rounds) and len(self._decks) < r.number:  # finished: its deck, the next base
                deck = self._complete(r)
                self._decks.append(deck)
                self._names.append([NAMES[c] for c in deck])
                self._bases.append(self._replay(r, deck, self._any_seed()))

    def _start(self, r: _Round, deck: list[int], seed: int) -> Crisp:
        """The state before round ``r``'s first action (a new game for round 1), dealing ``deck``."""
        if r.number == 1:
            opts = dict(self.options)
            g = Crisp.__new__(Crisp)
            g._configure(self.players, seed, opts, None, CURRENT_FORMAT)
            g._stacks = [deck]
            g.deck_spec = [[NAMES[c] for c in deck]]
            g.log = []
            g.actions = []
            g._setup()
            return g
        base = self._bases[r.number - 1]
        assert base is not None
        g = base.copy()
        g._stacks = [*self._decks[:r.number - 1], deck]
        g.deck_spec = [*self._names[:r.number - 1], [NAMES[c] for c in deck]]
        return g

    def _replay(self, r: _Round, deck: list[int], seed: int) -> Crisp:
        """Round ``r`` replayed on ``deck``: up to the action that deals the next round (excluded)."""
        g = self._start(r, deck, seed)
        for seat, action, _, _ in r.actions:
            g._apply(seat, action)
            g.actions.append([seat, action])
        return g

    def _analyse(self, r: _Round) -> None:
        """Replay round ``r`` on deal positions and read what the seat saw into ``known``/``nonface``."""
        seed = self._any_seed()
        g = self._start(r, list(_IDENTITY), seed)
        me = self.seat
        known: dict[int, int] = {}
        nonface: set[int] = set()
        acts = list(r.actions)
        nxt = self._rounds[r.number].actions[0] if r.number < len(self._rounds) else None
        if nxt is not None:
            acts.append(nxt)  # it emits this round's round_end
        events = self.events
        tokens = r.number == 1  # round 1's deal is in the constructor: tokens from the start
        if tokens:
            mine = [e for e in g.log if e["to"] == "all" or me in e["to"]]
            seen = events[:r.actions[0][2] if r.actions else len(events)]
            self._match(mine, seen, known, tokens=True)
        replaced: dict[int, tuple[int, bool]] = {}
        # the cards (positions) each seat was shown, read from the log only when that seat swaps
        shown: list[set[str]] = [set() for _ in range(self.players)]
        read = [0] * self.players
        begin = 0 if r.number == 1 else -1  # this round's round_start in the replay's log: earlier names are cards
        kept: dict[int, list[int]] = {}
        declared: tuple[int, list[int], list[bool], int] | None = None

        def shown_to(seat: int) -> set[str]:
            """What ``seat`` was shown this round, read up to now (the log before ``begin`` names old cards)."""
            shown[seat] |= _named(g.log[max(read[seat], begin):], seat)
            read[seat] = len(g.log)
            return shown[seat]

        for k, (seat, action, start, end) in enumerate(acts):
            # ``tokens``: this round's cards are positions (not yet for the action that deals it)
            other = seat if tokens and isinstance(seat, int) and seat != me else None
            swap = action.startswith("swap")
            if other is not None and action == "crisp":
                seen_by = shown_to(other)
                turns = sum(1 for e in g.log[begin:] if e["type"] == "turn_end" and e["seat"] == other)
                declared = (other, list(g.hands[other]), [NAMES[p] in seen_by for p in g.hands[other]], turns)
            elif other is not None and g.held >= 0 and (swap or (action == "discard" and g.held_src == DECK_SRC)):
                seen_by = shown_to(other)
                hand = g.hands[other]
                let_go = hand["LCR".index(action.split()[1][0].upper())] if swap else g.held
                if swap and g.held_src == DECK_SRC:
                    nonface.add(g.held)  # CRISP-SPEC-1: a card drawn from the deck and swapped in is an A–10
                    replaced[g.held] = (let_go, NAMES[let_go] in seen_by)
                if not swap or NAMES[let_go] in seen_by:  # it chose between cards it had seen
                    for p in hand:
                        if p != let_go and NAMES[p] in seen_by:
                            kept.setdefault(p, []).append(let_go)
            at = len(g.log)
            g._apply(seat, action)
            g.actions.append([seat, action])
            if begin < 0:
                begin = max((i for i in range(at, len(g.log)) if g.log[i]["type"] == "round_start"), default=-1)
            mine = [e for e in g.log[at:] if e["to"] == "all" or me in e["to"]]
            seen = events[start:end]
            closing = [j for j, e in enumerate(seen) if e["type"] == "round_end" and e["round"] == r.number]
            if closing:  # the token replay scores positions, not cards: compare up to this round's end
                mine, seen = mine[:closing[0] + 1], seen[:closing[0] + 1]
            if len(mine) != len(seen):
                raise AssertionError(f"crisp knowledge: {action!r} of P{seat} replays to {len(mine)} events "
                                     f"for P{me}, not the {len(seen)} it was shown")
            tokens = self._match(mine, seen, known, tokens=tokens, round_no=r.number,
                                 last=nxt is not None and k == len(acts) - 1)
        r.known, r.nonface = known, nonface - set(known)
        r.replaced = {p: v for p, v in replaced.items() if p in r.nonface}
        r.kept = {p: v for p, v in kept.items() if p not in known}
        r.declared = declared
        r.analysed = len(r.actions) + (1 if r.ended else 0)
        r.template, r.naming = None, []
        if not r.ended:
            first = max(i for i, e in enumerate(g.log) if e["type"] == "round_start")
            r.template = g
            r.naming = [(i, e) for i, e in enumerate(g.log) if i >= first and _names_cards(e)]

    def _match(self, mine: list[Event], seen: Sequence[Event], known: dict[int, int], tokens: bool,
               round_no: int = 1, last: bool = False) -> bool:
        """Tie positions (cards in the token replay) to the cards the seat was shown; return token mode."""
        for a, b in zip(mine, seen, strict=True):
            if a["type"] != b["type"]:
                raise AssertionError(f"crisp knowledge: replayed {a['type']!r} where P{self.seat} saw {b['type']!r}")
            if a["type"] == "round_start":
                tokens = a["round"] == round_no
                continue
            if not tokens:
                continue
            if a["type"] == "round_end":
                for ha, hb in zip(a["hands"], b["hands"], strict=True):
                    for x, y in zip(ha, hb, strict=True):
                        _tie(known, x, y)
                if last:
                    return False
                continue
            for f in _CARD_FIELDS:
                if f in a and a[f] is not None:
                    _tie(known, a[f], b[f])
            for f in _LIST_FIELDS:
                if f in a:
                    for x, y in zip(a[f], b[f], strict=True):
                        _tie(known, x, y)
        return tokens

    def _complete(self, r: _Round) -> list[int]:
        """A finished round's deal order: what was seen, the never-drawn rest in card order."""
        deck = [-1] * 52
        for pos, card in r.known.items():
            deck[pos] = card
        rest = iter(sorted(set(range(52)) - set(r.known.values())))
        return [c if c >= 0 else next(rest) for c in deck]

    def _any_seed(self) -> int:
        """A seed whose dealer picks the real first dealer (when the options leave it to chance)."""
        return self._seed_for(random.Random(0))

    def _seed_for(self, rng: random.Random) -> int:
        while True:
            seed = rng.randrange(MAX_SEED)
            if (self.options["first_dealer"] is not None
                    or dealer_for(CURRENT_FORMAT, seed).below(self.players) == self._dealer):
                return seed

    # ------------------------------------------------------------------ sampling

    def hidden(self) -> tuple[list[int], set[int], list[int]]:
        """The current round's hidden positions, the constrained ones among them, and the unseen cards."""
        self._update()
        r = self._rounds[-1]
        hidden = [p for p in range(52) if p not in r.known]
        unseen = sorted(set(range(52)) - set(r.known.values()))
        return hidden, r.nonface, unseen

    def fresh_swaps(self) -> dict[int, tuple[int, bool]]:
        """The current round's hidden cards another seat drew from the deck and swapped in: deal
        position -> the card each replaced (public: it went to the discard pile) and whether that seat
        had been shown the card it replaced. Facts only; what they say of the hidden card is a model of
        the other players (the search's, ``search_games``), not this tracker's."""
        self._update()
        r = self._rounds[-1]
        return {p: (r.known[out], saw) for p, (out, saw) in r.replaced.items() if out in r.known}

    def kept_over(self) -> dict[int, list[int]]:
        """The current round's hidden cards another seat had been shown and kept while it let a card go
        (the drawn card discarded, or another of its cards swapped out, one it had been shown): deal
        position -> the cards let go instead (public: they went to the discard pile). Facts, like
        ``fresh_swaps``."""
        self._update()
        r = self._rounds[-1]
        return {p: [r.known[q] for q in let_go if q in r.known] for p, let_go in r.kept.items()}

    def declaration(self) -> tuple[int, list[tuple[int, bool]], int] | None:
        """Another seat's declaration this round (CRISP-CALL-1), or ``None``: the seat, each card of its hand
        then (deal position, and whether that seat had been shown it) and how many turns it had ended in
        the round. Facts, like ``fresh_swaps``."""
        self._update()
        d = self._rounds[-1].declared
        if d is None:
            return None
        seat, hand, shown, turns = d
        return seat, list(zip(hand, shown, strict=True)), turns

    def sample(self, rng: random.Random, below: Mapping[int, int] | None = None,
               most: tuple[Sequence[int], int] | None = None) -> Game:
        """A sample (``Knowledge.sample``); with ``below`` (deal position -> a card value; 10 bounds
        nothing, every J, Q and K being worth 10), each such hidden position holds an A–10 worth at most
        that value, uniformly among the deal orders that keep every bound (where none fits, the position
        is left unbounded: a bound is a model's guess, never a rule). With ``most`` (deal positions, a
        total), those positions' cards are first drawn again until their values sum to at most the total,
        up to ``MOST_TRIES`` times (then the last draw stands). Without either, uniform over what is
        possible."""
        hidden, nonface, unseen = self.hidden()
        r = self._rounds[-1]
        deck = [-1] * 52
        for pos, card in r.known.items():
            deck[pos] = card
        faces_ok = [c for c in unseen if c in _NONFACE]
        constrained = [p for p in hidden if p in nonface]
        if len(faces_ok) < len(constrained):
            raise AssertionError("crisp knowledge: fewer unseen A–10s than positions that must hold one")
        if most is not None:
            _draw_most(rng, deck, most, below or {}, nonface, faces_ok, unseen, len(constrained))
            constrained = [p for p in constrained if deck[p] < 0]
        if below:
            # the tightest bound first: each position's cards (A–10s up to its bound) then contain every
            # card taken before it, so every deal order that keeps the bounds is drawn with the same chance
            bounded = sorted((p for p in hidden if below.get(p, 10) < 10 and deck[p] < 0), key=lambda p: (below[p], p))
            left = len(constrained)  # A–10s still owed to the constrained positions
            for p in bounded:
                fits = [c for c in faces_ok if VALUE[c] <= below[p]]
                if not fits or (p not in nonface and len(faces_ok) <= left):
                    continue
                card = fits[rng.randrange(len(fits))]
                faces_ok.remove(card)
                deck[p] = card
                left -= p in nonface
            constrained = [p for p in constrained if deck[p] < 0]
        rng.shuffle(faces_ok)
        chosen = faces_ok[:len(constrained)]
        for p, c in zip(constrained, chosen, strict=True):
            deck[p] = c
        taken = {c for c in deck if c >= 0}
        rest = [c for c in unseen if c not in taken]
        rng.shuffle(rest)
        free = (p for p in hidden if p not in nonface and deck[p] < 0)
        for p, c in zip(free, rest, strict=True):
            deck[p] = c
        seed = self._seed_for(rng)
        if r.template is not None and not self.strict:
            g = _relabel(r.template, deck, r.naming)
            g._stacks = [*self._decks[:r.number - 1], deck]
            g.deck_spec = [*self._names[:r.number - 1], [NAMES[c] for c in deck]]
        else:
            g = self._start(r, deck, seed)
            for seat, action, _, _ in r.actions:
                g._apply(seat, action)
                g.actions.append([seat, action])
        g.seed = seed
        g.rng = dealer_for(CURRENT_FORMAT, seed)
        if self.options["first_dealer"] is None:
            g.rng.below(self.players)
        return g


#: how many times ``sample`` draws the cards of ``most`` before it lets the last draw stand
MOST_TRIES = 50


def _draw_most(rng: random.Random, deck: list[int], most: tuple[Sequence[int], int], below: Mapping[int, int],
               nonface: set[int], faces_ok: list[int], unseen: list[int], owed: int) -> None:
    """Fill ``most``'s hidden positions in ``deck`` (each with the cards it may hold: an A–10 up to its bound,
    an A–10, or any unseen card) so that its positions' values sum to at most its total, drawing again up to
    ``MOST_TRIES`` times; take the cards drawn out of ``faces_ok``. ``owed``: how many open positions (these
    among them) must hold an A–10; a draw that would leave fewer A–10s than the others still need does not
    stand, and the positions stay open."""
    positions, total = most
    open_ = [p for p in positions if deck[p] < 0]
    room = total - sum(VALUE[deck[p]] for p in positions if deck[p] >= 0)
    if not open_ or room < len(open_):  # nothing to draw, or no draw can keep the total (every card is worth 1+)
        return
    picks: list[int] = []
    for _ in range(MOST_TRIES):
        picks = []
        for p in open_:
            bound = below.get(p, 10)
            pool = faces_ok if p in nonface or bound < 10 else unseen
            fits = ([c for c in pool if VALUE[c] <= bound and c not in picks]
                    or [c for c in faces_ok if c not in picks])  # no card fits its bound: a bound is a guess
            picks.append(fits[rng.randrange(len(fits))])
        if sum(VALUE[c] for c in picks) <= room:
            break
    still_owed = owed - sum(1 for p in open_ if p in nonface)
    if len(faces_ok) - sum(1 for c in picks if c in _NONFACE) < still_owed:
        return
    for p, c in zip(open_, picks, strict=True):
        deck[p] = c
        if c in _NONFACE:
            faces_ok.remove(c)


def _named(events: Sequence[Event], seat: int) -> set[str]:
    """The cards ``events`` name to ``seat`` (its own and the public ones)."""
    out: set[str] = set()
    for e in events:
        if e["to"] == "all" or seat in e["to"]:
            for f in _CARD_FIELDS:
                if e.get(f) is not None:
                    out.add(e[f])
            for f in _LIST_FIELDS:
                if f in e:
                    out.update(e[f])
    return out


def _names_cards(e: Event) -> bool:
    return any(e.get(f) is not None for f in _CARD_FIELDS) or any(e.get(f) for f in _LIST_FIELDS)


def _relabel(template: Crisp, deck: list[int], naming: list[tuple[int, Event]]) -> Crisp:
    """The round replayed on positions, with each position's card put in (the same as replaying on ``deck``)."""
    g = template.copy()
    g.hands = [[deck[p] for p in h] for h in g.hands]
    g.deck = [deck[p] for p in g.deck]
    g.discard = [deck[p] for p in g.discard]
    g.kings = [deck[p] for p in g.kings]
    if g.held >= 0:
        g.held = deck[g.held]
    names = [NAMES[c] for c in deck]
    log = g.log
    for i, e in naming:
        e = dict(e)
        for f in _CARD_FIELDS:
            if e.get(f) is not None:
                e[f] = names[_ID[e[f]]]
        for f in _LIST_FIELDS:
            if f in e:
                e[f] = [names[_ID[x]] for x in e[f]]
        log[i] = e
    return g


def _tie(known: dict[int, int], token: str, card: str) -> None:
    pos, real = parse_card(token), parse_card(card)
    old = known.setdefault(pos, real)
    if old != real:
        raise AssertionError(f"crisp knowledge: deal position {pos} seen as {NAMES[old]} and as {card}")
