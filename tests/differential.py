"""Differential testing of a compiled core against its reference engine (``feltroom.fastgame``).

``check_differential`` plays one seeded random game twice, side by side: with the game
``new_game`` gives (the core) and with the pure-Python rules class (the reference). After
every action it compares every hot member for every seat, and now and then it throws the
same rejected action at both (junk, another seat's action, a misspelling) and compares the
exceptions; it reads some ``apply`` results at once and others later (they are lazy), copies
the game midway, and at the end compares the logs, views and records.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import feltroom
from feltroom import CLOCK
from feltroom.fastgame import FastGame
from feltroom.game import Game

JUNK: tuple[Any, ...] = ("", "x", "play", "play ZZ", "discard", "claim 99", "timeout", "draw", "pass", "8", None, 7,
                         ["play", "AS"], "PLAY AS", " play  AS ", "claim -1", "claim 1.5")


def _hot(game: Game, seats: Sequence[Any]) -> tuple[Any, ...]:
    return (game.to_act, game.is_over, game.scores, game.winners, [game.legal_actions(s) for s in seats])


def _outcome(game: Game, seat: Any, action: Any) -> tuple[Any, ...]:
    try:
        events = game.apply(seat, action)
    except Exception as e:  # the type, rule and message must match
        return ("raised", type(e).__name__, getattr(e, "rule", None), str(e))
    return ("applied", list(events))


def check_differential(
    name: str,
    players: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    deck: Sequence[Any] | None = None,
    *,
    junk_rate: float = 0.15,
    clock_rate: float = 0.0,
    copy_at: int | None = None,
    max_actions: int = 20_000,
) -> int:
    """Play one random game on both engines; assert they agree throughout. Returns the actions played.

    ``clock_rate``: the chance of applying a legal CLOCK action when one exists (the core
    hands those to the reference: this tests the hand-over).
    """
    fast = feltroom.new_game(name, players, seed=seed, options=options, deck=deck)
    assert isinstance(fast, FastGame), f"{name} {options}: new_game did not give the compiled core"
    ref = feltroom.GAMES[name](players, seed=seed, options=options, deck=deck)
    assert not isinstance(ref, FastGame)
    rng = random.Random(seed)
    seats: list[Any] = [*range(-1, players + 1), CLOCK, True, "x", None]
    pending: list[tuple[Any, list[Any]]] = []  # lazy results read later
    played = 0
    while True:
        assert _hot(fast, seats) == _hot(ref, seats), f"hot members differ after {played} actions"
        if ref.is_over or played >= max_actions:
            break
        if rng.random() < junk_rate:
            seat = rng.choice(seats)
            others = [a for s in range(players) for a in ref.legal_actions(s)]
            pool = [*JUNK, *rng.sample(others, min(3, len(others)))]
            action = rng.choice(pool)
            if isinstance(action, str) and rng.random() < 0.3:
                action = action.lower()
            got = _outcome(fast, seat, action)
            want = _outcome(ref, seat, action)
            assert got == want, f"{seat!r} {action!r}: {got} != {want}"
            if got[0] == "applied":
                played += 1
            continue
        clock = ref.legal_actions(CLOCK)
        if clock and (not ref.to_act or rng.random() < clock_rate):
            seat, legal = CLOCK, clock
        else:
            seat = rng.choice(ref.to_act)
            legal = ref.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        if rng.random() < 0.05:  # a spelling the core must hand to the reference
            got = _outcome(fast, seat, action.lower())
            assert got == _outcome(ref, seat, action.lower())
            played += got[0] == "applied"
            continue
        got_events = fast.apply(seat, action)
        want_events = ref.apply(seat, action)
        played += 1
        if rng.random() < 0.5:
            assert list(got_events) == want_events
        else:
            pending.append((got_events, want_events))
        if copy_at is not None and played == copy_at:
            fast, ref = fast.copy(), ref.copy()  # the copies play on; the core's copy must be whole
    for lazy, wanted in pending:
        assert list(lazy) == wanted
    if fast.core_active:  # the core drew its chance from its rng exactly as the reference did
        assert fast.rng.getstate() == ref.rng.getstate()
    assert fast.log == ref.log
    for seat in [*range(players), None]:
        assert fast.view(seat) == ref.view(seat)
    assert fast.record == ref.record
    assert feltroom.replay(fast.record).log == ref.log
    return played
