"""Checks every game's knowledge sampler must pass (``feltroom.knowledge``), shared by the per-game tests.

``follow_and_sample`` plays a seeded random game, feeding one tracker per seat with exactly
the events and views that seat gets, and at every decision checks a sample against the real
game: the seat's view and legal actions, the events the seat saw, a full pack, and a state
that plays on to its end. ``chi_square_limit`` is the test's threshold (no SciPy here).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

import feltroom
from feltroom import CLOCK
from feltroom.game import Game
from feltroom.knowledge import Knowledge, sample_state, tracker
from feltroom.views import events_for


def feed(trackers: list[Knowledge], game: Game, seen: list[int]) -> None:
    for seat, know in enumerate(trackers):
        know.observe(events_for(game.log[seen[seat]:], seat))
        seen[seat] = len(game.log)


def check_sample(game: Game, seat: int, sample: Game) -> None:
    assert sample.view(seat) == game.view(seat)
    assert sample.legal_actions(seat) == game.legal_actions(seat)
    assert sample.legal_actions(CLOCK) == game.legal_actions(CLOCK)
    assert events_for(sample.log, seat) == events_for(game.log, seat)
    assert events_for(sample.log, None) == events_for(game.log, None)  # the public history
    assert sorted(sample.audit_cards()) == sorted(game.pack())


def play_on(sample: Game, rng: random.Random) -> None:
    """A sample is a legal state: random play takes it to its end."""
    for _ in range(5000):
        if sample.is_over:
            return
        seats = sample.to_act
        if not seats:
            sample.apply(CLOCK, sample.legal_actions(CLOCK)[0])
            continue
        seat = rng.choice(seats)
        sample.apply(seat, rng.choice(sample.legal_actions(seat)))
    raise AssertionError("a sample did not end")


def follow_and_sample(name: str, players: int, seed: int, options: dict[str, Any] | None = None,
                      clock_rate: float = 0.0, play_on_every: int = 7) -> int:
    """Play a random game; check a sample at every decision; return the samples checked."""
    game = feltroom.new_game(name, players=players, seed=seed, options=options)
    rng = random.Random(seed)
    trackers = [tracker(name, s, players, options) for s in range(players)]
    seen = [0] * players
    checked = 0
    while not game.is_over:
        feed(trackers, game, seen)
        clock = game.legal_actions(CLOCK)
        if clock and (not game.to_act or rng.random() < clock_rate):
            game.apply(CLOCK, clock[0])
            continue
        seat = rng.choice(game.to_act)
        know = trackers[seat]
        know.see(game.view(seat))
        sample = sample_state(name, players, options, know, random.Random(checked))
        check_sample(game, seat, sample)
        if checked % play_on_every == 0:
            play_on(sample, random.Random(checked))
        checked += 1
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return checked


def chi_square(counts: Counter[Any], expected: dict[Any, float]) -> float:
    return sum((counts[k] - e) ** 2 / e for k, e in expected.items())


def chi_square_limit(cells: int, z: float = 3.09) -> float:
    """The chi-square quantile for ``cells - 1`` degrees of freedom at one-sided normal ``z``
    (Wilson–Hilferty; z = 3.09: p = 0.001)."""
    k = cells - 1
    return float(k * (1 - 2 / (9 * k) + z * math.sqrt(2 / (9 * k))) ** 3)


def placements(samples: Iterable[Game], where: Any) -> Counter[int]:
    """How often each card lies in the place ``where(sample)`` (a list of card ids) over ``samples``."""
    counts: Counter[int] = Counter()
    for sample in samples:
        counts.update(where(sample))
    return counts
