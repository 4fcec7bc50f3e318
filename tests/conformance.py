"""The generic random-play conformance check that every registered game must pass.

``check_random_game`` plays one seeded random game and, after every action, checks the
contract of architecture.md and notation.md: cards are conserved, views and events are
JSON, no event or view reaching a seat names a card that seat may not know (nor the public
part of a view a card a spectator may not know), the driver
invariant holds, a rejected action changes nothing, and ``replay(record)`` rebuilds the
same game.
"""

from __future__ import annotations

import json
import random
import re
import weakref
from collections import Counter
from collections.abc import Callable
from typing import Any

import feltroom
from feltroom import CLOCK, IllegalAction, InvalidAction
from feltroom.cards import NAMES
from feltroom.fastgame import FastGame
from feltroom.game import Event, Game
from feltroom.views import events_for, own_view, public_view

from .helpers import check_params, snapshot

JUNK = ["", "   ", "fly", "draw draw draw", "play", "play 1Z", "swap X", "queen L 99 R", "claim -1",
        "play 10 H", "discard ZZ", "take", "\x00", "play AS take", "suit Q", "DRAW now", "x" * 300]
_ID = {name: i for i, name in enumerate(NAMES)}
#: View keys that repeat earlier public events (the previous round's result), not the table now.
HISTORY_KEYS = frozenset({"last_round", "last_hand"})
#: Events whose cards were public when they happened and went back into the pack (the cut).
HISTORY_EVENTS = frozenset({"cut"})
_PACKS: weakref.WeakKeyDictionary[Game, Counter[int]] = weakref.WeakKeyDictionary()


def cards_in(obj: Any, skip: frozenset[str] = frozenset(("type", "to"))) -> dict[int, int]:
    """The cards a JSON dict names, as the most copies of each card that any one place names.

    A place is one list of cards (a hand, a pile, a combination) or one card-valued field.
    Copies matter within a place (a double deck's ``3D 3D``); a card named in two places of one
    message (a hand and the combinations counted in it) is one card. Plain dicts, not Counters:
    the random-play suites call this for every view and event (a Counter per list was a fifth of
    a search-bot game's checks).
    """
    most: dict[int, int] = {}
    ids = _ID

    def walk(value: Any) -> None:
        if isinstance(value, str):
            card = ids.get(value)
            if card is not None and card not in most:
                most[card] = 1
        elif isinstance(value, list):
            here: dict[int, int] = {}
            for v in value:
                if isinstance(v, str):
                    card = ids.get(v)
                    if card is not None:
                        here[card] = here.get(card, 0) + 1
                else:
                    walk(v)
            for card, n in here.items():
                if n > most.get(card, 0):
                    most[card] = n
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)

    for key, value in obj.items():
        if key not in skip:
            walk(value)
    return most


def assert_within(game: Game, seen: dict[int, int], hidden: list[int], what: str) -> None:
    pack = _PACKS.get(game)
    if pack is None:
        pack = _PACKS[game] = Counter(game.pack())
    hidden_count = Counter(hidden)
    leaked = {NAMES[c]: n for c, n in seen.items() if n > pack[c] - hidden_count[c]}
    assert not leaked, f"{what} shows cards it may not know: {leaked}"


class AuditLog(list[Event]):
    """A log that checks each event against the hidden cards at the moment it is emitted."""

    def __init__(self, game: Game, events: list[Event]) -> None:
        super().__init__(events)
        self.game = game

    def append(self, event: Event) -> None:
        audit_event(self.game, event)
        super().append(event)

    def extend(self, events: Any) -> None:
        for e in events:
            self.append(e)


def audit_event(game: Game, event: Event) -> None:
    to = event["to"]
    assert to == "all" or (isinstance(to, list) and to == sorted(set(to)) and
                           all(type(s) is int and 0 <= s < game.players for s in to)), event
    if event["type"] == "reveal":
        assert to == [event["seat"]], f"a reveal goes to its seat alone: {event}"
    if event["type"] in HISTORY_EVENTS:
        return
    seen = cards_in(event)
    if not seen:
        return
    for seat in (range(game.players) if to == "all" else to):
        assert_within(game, seen, game.audit_hidden(seat), f"event {event} to seat {seat}")
    if to == "all":
        assert_within(game, seen, game.audit_hidden(None), f"public event {event}")


def check_state(game: Game) -> None:
    assert sorted(game.audit_cards()) == sorted(game.pack()), "cards are not conserved"
    assert game.is_over or game.to_act or game.legal_actions(CLOCK), "nobody can act and the game is not over"
    if game.is_over:
        assert not game.to_act and not game.legal_actions(CLOCK)
        assert game.winners
    public = public_view(game)  # what every seat and a spectator see alike
    assert_within(game, cards_in(public, HISTORY_KEYS), game.audit_view_hidden(None), "the public view")
    for seat in [*range(game.players), None]:
        view = game.view(seat)
        for key in ("game", "seat", "players", "options", "phase", "to_act", "scores", "over", "winners"):
            assert key in view, f"view lacks {key!r}"
        assert "seed" not in view and "rng" not in view
        json.dumps(view, allow_nan=False)
        seen = cards_in(view, HISTORY_KEYS)
        assert_within(game, seen, game.audit_view_hidden(seat), f"view of seat {seat}")
        own = own_view(game, seat)  # the server encodes the two parts of a view apart
        assert not own.keys() & public.keys(), f"the two parts of the view share {own.keys() & public.keys()}"
        assert {**public, **own} == view, f"the two parts of seat {seat}'s view are not its view"
    for seat in [*range(game.players), CLOCK]:
        legal = game.legal_actions(seat)
        assert len(legal) == len(set(legal)), f"duplicate legal actions: {legal}"
        if seat != CLOCK:
            assert bool(legal) == (seat in game.to_act), (seat, game.to_act, legal)


def try_rejected(game: Game, rng: random.Random) -> None:
    """Apply something that must be rejected and check that nothing changed."""
    before = snapshot(game)
    seat: Any = rng.choice([*range(game.players), CLOCK])
    others = [a for s in [*range(game.players), CLOCK] if s != seat for a in game.legal_actions(s)]
    candidates = [a for a in others if a not in game.legal_actions(seat)] + JUNK
    action = rng.choice(candidates)
    try:
        canon = game.canonical(seat, action)
    except InvalidAction:
        canon = None
    if canon is not None and canon in game.legal_actions(seat):
        return  # another form of a legal action
    try:
        game.apply(seat, action)
    except IllegalAction as e:
        assert canon is not None and re.fullmatch(r"(CRISP|CRAITS|CRIB|KRYP)(-[A-Z0-9]+)+", e.rule), e
        assert str(e)
        check_params(game, e)
    except InvalidAction as e:
        assert canon is None and str(e)
    else:
        raise AssertionError(f"{seat} {action!r} was accepted but is not legal")
    assert snapshot(game) == before, f"rejected {action!r} by {seat} changed the game"


def random_step(game: Game, rng: random.Random, clock_rate: float = 0.05) -> tuple[Any, str]:
    clock = game.legal_actions(CLOCK)
    if clock and (not game.to_act or rng.random() < clock_rate):
        return CLOCK, rng.choice(clock)
    seat = rng.choice(game.to_act)
    return seat, rng.choice(game.legal_actions(seat))


def check_random_game(name: str, players: int, seed: int, options: dict[str, Any] | None = None,
                      reject_every: int = 7, max_actions: int = 20_000) -> Game:
    game = feltroom.new_game(name, players=players, seed=seed, options=options)
    rng = random.Random(seed)
    for event in game.log:
        audit_event(game, event)
    json.dumps(game.log, allow_nan=False)
    audited = game._ref_now() if isinstance(game, FastGame) else game  # a compiled core's events come from its shadow
    audited.log = AuditLog(audited, audited.log)
    check_state(game)
    for step in range(max_actions):
        if game.is_over:
            break
        if step % reject_every == 0:
            try_rejected(game, rng)
        seat, action = random_step(game, rng)
        assert game.canonical(seat, action) == action, f"{action!r} is listed but not canonical"
        n = len(game.log)
        events = game.apply(seat, action)
        assert events == game.log[n:]
        json.dumps(list(events), allow_nan=False)
        check_state(game)
    else:
        raise AssertionError(f"{name} not over after {max_actions} actions")
    again = feltroom.replay(json.loads(json.dumps(game.record)))
    assert again.scores == game.scores and again.winners == game.winners
    assert list(again.log) == list(game.log)
    for seat in [*range(game.players), None]:
        assert again.view(seat) == game.view(seat)
        assert events_for(again.log, seat) == events_for(game.log, seat)
    return game


def check_bot_game(name: str, players: int, seed: int, options: dict[str, Any] | None, bots: list[Any],
                   max_actions: int = 20_000, checked: Callable[[int], bool] | None = None) -> Game:
    """``check_random_game`` with bots choosing: each bot gets only its seat's events and view,
    must choose a legal action, and every state passes ``check_state``; the record replays.
    With ``checked``, ``check_state`` runs only before the decisions of the seats it accepts (the
    bot under test: the other seats' states are the general conformance check's) and at the end."""
    game = feltroom.new_game(name, players=players, seed=seed, options=options)
    audited = game._ref_now() if isinstance(game, FastGame) else game
    audited.log = AuditLog(audited, audited.log)
    seen = [0] * players
    for _ in range(max_actions):
        seats = game.to_act
        if game.is_over or checked is None or (seats and checked(seats[0])):
            check_state(game)
        if game.is_over:
            break
        if not seats:
            game.apply(CLOCK, game.legal_actions(CLOCK)[0])
            continue
        seat = seats[0]
        bot = bots[seat]
        bot.observe(events_for(game.log[seen[seat]:], seat))
        seen[seat] = len(game.log)
        legal = game.legal_actions(seat)
        action = bot.choose(game.view(seat), legal)
        assert action in legal, f"{type(bot).__name__} chose {action!r}, not one of {legal}"
        game.apply(seat, action)
    else:
        raise AssertionError(f"{name} not over after {max_actions} actions")
    again = feltroom.replay(json.loads(json.dumps(game.record)))
    assert again.scores == game.scores and list(again.log) == list(game.log)
    return game
