"""Helpers for the knowledge-sampling tests (#15): random play, the checks (a) and (b), chi-square.

The chi-square critical value is the Wilson–Hilferty approximation of the chi-square
quantile (no scipy here): ``df · (1 − 2/(9 df) + z·√(2/(9 df)))³``, with ``z = 3.719`` for a
one-sided p = 0.0001. With a fixed seed the tests are deterministic; the low p keeps a true
uniform sampler far inside the bound while a biased one lands far outside.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import feltroom
from feltroom import CLOCK
from feltroom.game import Game
from feltroom.knowledge import Knowledge, tracker
from feltroom.views import events_for

Z_P0001 = 3.719


def chi2_critical(df: int, z: float = Z_P0001) -> float:
    """The chi-square value exceeded with probability ~p (Wilson–Hilferty)."""
    h = 2.0 / (9.0 * df)
    return df * (1.0 - h + z * math.sqrt(h)) ** 3


def chi2(observed: Sequence[float], expected: Sequence[float]) -> float:
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True) if e > 0)


def random_points(game: Game, rng: random.Random, every: int, max_steps: int = 4000,
                  clock_rate: float = 0.1) -> Iterator[Game]:
    """Play ``game`` with random legal actions (CLOCK ones now and then), yielding it every ``every`` steps."""
    for step in range(1, max_steps + 1):
        if game.is_over:
            yield game
            return
        if step % every == 0:
            yield game
        seats = game.to_act
        clock = game.legal_actions(CLOCK)
        if clock and (not seats or rng.random() < clock_rate):
            game.apply(CLOCK, rng.choice(clock))
            continue
        if not seats:
            return
        seat = rng.choice(seats)
        game.apply(seat, rng.choice(game.legal_actions(seat)))


def knowing(game: Game, seat: int, options: dict[str, Any]) -> Knowledge:
    """A tracker for ``seat`` fed what ``seat`` was shown of ``game`` so far."""
    k = tracker(game.name, seat, game.players, options)
    k.observe(events_for(game.log, seat))
    return k


def check_sample(real: Game, sample: Game, seat: int) -> None:
    """(a): the seat's view, its and the clock's legal actions, and the history it saw are the real ones."""
    assert sample.view(seat) == real.view(seat)
    assert sample.legal_actions(seat) == real.legal_actions(seat)
    assert sample.legal_actions(CLOCK) == real.legal_actions(CLOCK)
    assert sample.to_act == real.to_act
    assert events_for(sample.log, None) == events_for(real.log, None)
    assert events_for(sample.log, seat) == events_for(real.log, seat)
    assert sorted(sample.audit_cards()) == sorted(real.audit_cards())


def same_sample(a: Game, b: Game) -> bool:
    """Whether two samples are the same state: every seat's view, every card's place, the log."""
    return (a.audit_cards() == b.audit_cards() and a.log == b.log
            and all(a.view(s) == b.view(s) for s in range(a.players)))


def new(name: str, players: int, seed: int, options: dict[str, Any], deck: Any = None) -> Game:
    return feltroom.new_game(name, players=players, seed=seed, options=options, deck=deck)


Cheat = Callable[[Game], Game]
