"""The engine's common model: a ``Game`` is one table's state, driven by ``apply``.

Each rules module subclasses ``Game`` and fills in the hooks marked "per game". The base
class owns what every game shares: players, options, seed and stacked decks, the one code
path that checks and applies an action (notation.md §2.2), the event log, records and
copies. It has no clock, no I/O and no global randomness: all chance comes from
``self.rng``, the dealer (``feltroom.dealing``) of the record ``format`` seeded from ``seed``.
"""

from __future__ import annotations

import copy as _copy
import secrets
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from .cards import card_str, parse_card
from .dealing import CURRENT_FORMAT, Dealer, dealer_for
from .errors import IllegalAction, InvalidAction
from .options import Option, normalise

#: The pseudo-seat that applies timed actions (notation.md §2.3).
CLOCK = "CLOCK"

Seat = int | str  # a player seat (int) or CLOCK
Event = dict[str, Any]
MAX_SEED = 2**53

_PRIVATE_STATE = ("log", "actions")


class Game:
    """One game in progress.

    Per game, subclasses set ``name``, ``min_players``, ``max_players`` and ``OPTIONS``, what
    people and lobbies read (``title``, ``blurb``, ``default_players``, ``lobby_rank``:
    ``feltroom.catalog``), and implement ``pack``, ``_setup``, ``to_act``, ``legal_actions``,
    ``canonical``, ``illegal``, ``_apply``, ``view`` (or its two parts ``public_view`` and
    ``own_view``), ``is_over``, ``scores``, ``winners`` and the two audit hooks ``audit_cards``
    and ``audit_hidden``.
    """

    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    OPTIONS: ClassVar[tuple[Option, ...]]
    #: the game's name for people, and one line about it (the lobby's game picker)
    title: ClassVar[str]
    blurb: ClassVar[str]
    #: the seats a new table (and ``feltroom play``/``sim``) starts with
    default_players: ClassVar[int]
    #: where the lobby lists the game, lowest first (the first is the one it shows first)
    lobby_rank: ClassVar[int] = 100
    #: the same game with its hot path compiled (``feltroom.fastgame``), if built; ``new_game`` prefers it
    fast_class: ClassVar[type[Game] | None] = None

    def __init__(
        self,
        players: int,
        *,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        deck: Sequence[Any] | None = None,
        format: int = CURRENT_FORMAT,
    ) -> None:
        self._configure(players, seed, options, deck, format)
        self.log: list[Event] = []
        self.actions: list[list[Any]] = []
        self._setup()

    def _configure(
        self, players: int, seed: int | None, options: Mapping[str, Any] | None, deck: Sequence[Any] | None,
        format: int = CURRENT_FORMAT,
    ) -> None:
        """Validate and set players, seed, options, the dealer ``rng`` (of record ``format``), meta and the deck."""
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"{self.name} is for {self.min_players}–{self.max_players} players, not {players!r}"
            )
        if seed is None:
            seed = secrets.randbelow(MAX_SEED)
        elif type(seed) is not int or not 0 <= seed < MAX_SEED:
            raise ValueError(f"seed must be an integer 0 ≤ seed < 2**53, not {seed!r}")
        self.players = players
        self.seed = seed
        self.options: dict[str, Any] = normalise(self.OPTIONS, options, players)
        self.check_options()
        self.format = format
        self.rng: Dealer = dealer_for(format, seed)
        self.meta: dict[str, Any] = {}
        self._stacks = self._parse_deck(deck)
        self.deck_spec: Any = _deck_spec(deck, self._stacks)

    # ------------------------------------------------------------------ per game

    def check_options(self) -> None:
        """Checks across options (per game); raise ``ValueError`` naming what is allowed."""

    def pack(self) -> tuple[int, ...]:
        """Every card id this game plays with (a multiset for double decks)."""
        raise NotImplementedError

    def _setup(self) -> None:
        """Deal the first deal and emit the events of ``new_game`` (per game)."""
        raise NotImplementedError

    @property
    def to_act(self) -> tuple[int, ...]:
        raise NotImplementedError

    def legal_actions(self, seat: Seat) -> list[str]:
        """Every action ``seat`` may apply now, canonical and sorted; ``[]`` if none."""
        raise NotImplementedError

    def canonical(self, seat: Seat, action: str) -> str:
        """Parse ``action`` and write it canonically; raise ``InvalidAction`` if malformed."""
        raise NotImplementedError

    def illegal(self, seat: Seat, action: str) -> IllegalAction:
        """Why the canonical ``action`` is not legal for ``seat`` now (first match of the rejection table)."""
        raise NotImplementedError

    def _apply(self, seat: Seat, action: str) -> None:
        """Apply a canonical legal action, appending its events to ``self.log``."""
        raise NotImplementedError

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) may see now, as a JSON-able dict.

        Per game: either this, or the two parts it is made of, ``public_view`` and ``own_view``
        (then the server builds and encodes the public part once for every recipient)."""
        self.check_view_seat(seat)
        v = self.public_view()
        v.update(self.own_view(seat))
        return v

    def public_view(self) -> dict[str, Any]:
        """The part of every view that is the same for every seat and a spectator: it shows only
        what a spectator may see. ``{}`` for a game that builds whole views (overrides ``view``)."""
        return {}

    def own_view(self, seat: int | None) -> dict[str, Any]:
        """The rest of ``seat``'s view (keys not in ``public_view``): ``view(seat)`` is both parts."""
        return self.view(seat)

    @property
    def is_over(self) -> bool:
        raise NotImplementedError

    @property
    def scores(self) -> list[int]:
        raise NotImplementedError

    @property
    def winners(self) -> list[int]:
        raise NotImplementedError

    @property
    def sides(self) -> list[list[int]]:
        """The seats that score together (partnerships); every seat alone unless a game has teams."""
        return [[s] for s in range(self.players)]

    def audit_cards(self) -> list[int]:
        """Every card in every location now; conformance checks it equals ``pack()``."""
        raise NotImplementedError

    def audit_hidden(self, seat: int | None) -> list[int]:
        """The cards ``seat`` may not know now (stock, others' hidden cards).

        Conformance checks that no event or view reaching ``seat`` names more copies of a
        card than ``pack() - audit_hidden(seat)`` holds.
        """
        raise NotImplementedError

    def audit_view_hidden(self, seat: int | None) -> list[int]:
        """The cards ``seat``'s *view* may not show; more than ``audit_hidden`` where a game
        has a memory rule (Crisp: own slot cards reach the seat as events only)."""
        return self.audit_hidden(seat)

    # ------------------------------------------------------------------ shared

    def apply(self, seat: Seat, action: str) -> list[Event]:
        """Apply ``action`` for ``seat`` and return the new events.

        Raises ``InvalidAction`` if ``action`` is malformed and ``IllegalAction`` if the
        rules forbid it now; either way nothing changes.
        """
        if type(seat) is not int and seat != CLOCK:  # True == 1, but True is no seat
            self.check_seat(seat)
        legal = self.legal_actions(seat)
        if action not in legal:
            action = self._verify(seat, action, legal)
        start = len(self.log)
        self._apply(seat, action)
        self.actions.append([seat, action])
        return self.log[start:]

    def verify(self, seat: Seat, action: str) -> str:
        """The canonical form of ``action`` if ``seat`` may apply it now; raise otherwise."""
        legal = self.legal_actions(seat)
        return action if action in legal else self._verify(seat, action, legal)

    def can_apply(self, seat: Seat, action: str) -> bool:
        try:
            self.verify(seat, action)
        except ValueError:
            return False
        return True

    def _verify(self, seat: Seat, action: str, legal: list[str]) -> str:
        if not isinstance(action, str):
            raise InvalidAction(f"an action is a string, not {type(action).__name__}")
        self.check_seat(seat)
        canon = self.canonical(seat, action)
        if canon not in legal:
            raise self.illegal(seat, canon)
        return canon

    def check_seat(self, seat: Any) -> None:
        if seat != CLOCK and (type(seat) is not int or not 0 <= seat < self.players):
            raise InvalidAction(f"no seat {seat!r}: seats are 0–{self.players - 1} and {CLOCK!r}")

    def check_view_seat(self, seat: Any) -> None:
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.players):
            raise ValueError(f"no seat {seat!r}: seats are 0–{self.players - 1}, or None for a spectator")

    def base_view(self, seat: int | None, phase: str) -> dict[str, Any]:
        """The keys common to every game's view (notation.md §5)."""
        v = self.base_public_view(phase)
        v["seat"] = seat
        return v

    def base_public_view(self, phase: str) -> dict[str, Any]:
        """``base_view`` less ``seat``: the common keys of a ``public_view``."""
        return {
            "game": self.name,
            "players": self.players,
            "options": dict(self.options),
            "phase": phase,
            "to_act": list(self.to_act),
            "scores": list(self.scores),
            "over": self.is_over,
            "winners": list(self.winners),
        }

    @property
    def record(self) -> dict[str, Any]:
        """Everything that rebuilds this game exactly (notation.md §6)."""
        return {
            "format": self.format,
            "name": self.name,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
            "deck": _copy.deepcopy(self.deck_spec),
            "actions": [list(a) for a in self.actions],
            "meta": _copy.deepcopy(self.meta),
        }

    def copy(self) -> Game:
        """An independent copy. The log's events are shared: they are never mutated."""
        memo: dict[int, Any] = {id(self.log): list(self.log), id(self.actions): [list(a) for a in self.actions]}
        return _copy.deepcopy(self, memo)

    # ------------------------------------------------------------------ decks

    def _parse_deck(self, deck: Sequence[Any] | None) -> list[list[int]]:
        if deck is None:
            return []
        if isinstance(deck, str) or not isinstance(deck, Sequence):
            raise ValueError("deck must be null, a list of cards, or a list of such lists")
        lists = list(deck) if deck and not isinstance(deck[0], str) else [deck]
        pack = Counter(self.pack())
        stacks = []
        for i, cards in enumerate(lists):
            if isinstance(cards, str) or not isinstance(cards, Sequence):
                raise ValueError(f"deck list {i + 1} must be a list of cards")
            try:
                ids = [parse_card(c) if isinstance(c, str) else _not_a_card(c) for c in cards]
            except ValueError as e:
                raise ValueError(f"deck list {i + 1}: {e}") from None
            if len(ids) > len(self.pack()):
                raise ValueError(f"deck list {i + 1} has {len(ids)} cards; the pack has {len(self.pack())}")
            for card, n in Counter(ids).items():
                if n > pack[card]:
                    have = "is not in the pack" if not pack[card] else f"is in the pack {pack[card]} time(s)"
                    raise ValueError(f"deck list {i + 1}: {card_str(card)} appears {n} time(s) but {have}")
            stacks.append(ids)
        return stacks

    def deal_order(self, deal: int) -> list[int]:
        """The whole pack in dealing order (top first) for deal ``deal`` (0-based).

        A stacked list for that deal comes first; the rest follows in seeded shuffled order.
        """
        cards = list(self.pack())
        if deal < len(self._stacks):
            top = self._stacks[deal]
            rest = Counter(cards)
            rest.subtract(top)
            cards = list(rest.elements())
            self.rng.shuffle(cards)
            return top + cards
        self.rng.shuffle(cards)
        return cards

    def is_stacked(self, deal: int) -> bool:
        return deal < len(self._stacks)


def plain_copy(value: Any) -> Any:
    """A copy of plain data (dicts, lists, tuples and scalars), for a view or an event that must not
    share a list with the state: several times faster than ``copy.deepcopy``, which keeps a memo
    for shared and cyclic parts that plain data has none of.

    >>> last = {"hands": [["AS", "2H"]], "scores": [3]}
    >>> copied = plain_copy(last)
    >>> copied == last and copied["hands"][0] is not last["hands"][0]
    True
    """
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _SCALARS else plain_copy(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _SCALARS else plain_copy(v) for v in value]
    if kind is tuple:
        return tuple(v if type(v) in _SCALARS else plain_copy(v) for v in value)
    return value


_SCALARS = frozenset({str, int, float, bool, type(None)})


def _not_a_card(value: Any) -> int:
    raise ValueError(f"not a card: {value!r}")


def _deck_spec(deck: Sequence[Any] | None, stacks: list[list[int]]) -> Any:
    """The deck as the record keeps it: the caller's shape, canonical cards."""
    if deck is None:
        return None
    as_names = [[card_str(c) for c in s] for s in stacks]
    nested = bool(deck) and not isinstance(deck[0], str)
    return as_names if nested else (as_names[0] if as_names else [])
