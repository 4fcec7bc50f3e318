"""Cribbage random games per second: feltroom's public API against OpenSpiel's ``cribbage``.

Both sides play 2-player games to 121 with uniformly random choices: feltroom through
``new_game`` / ``to_act`` / ``legal_actions`` / ``apply`` (automatic counting, events logged),
OpenSpiel through ``new_initial_state`` / ``legal_actions`` / ``apply_action`` (its chance
nodes deal the cards one by one). Rounds alternate A B A B in one process; the best round of
each side is reported, with the ratio.

Run: ``.venv/bin/python bench/cribbage_vs_openspiel.py [--seconds 2] [--rounds 4]``
(needs ``.venv/bin/pip install open-spiel``).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import feltroom
from feltroom.games.cribbage import warm_tables

OPTIONS = {"counting": "automatic"}


def feltroom_games(n: int, seed: int) -> int:
    """Play ``n`` random games; return the number of actions applied."""
    rng = random.Random(seed)
    rand = rng.randrange
    actions = 0
    for i in range(n):
        game = feltroom.new_game("cribbage", 2, seed=seed * 1_000_003 + i, options=OPTIONS)
        while not game.is_over:
            seat = game.to_act[0]
            legal = game.legal_actions(seat)
            game.apply(seat, legal[rand(len(legal))])
        actions += len(game.actions)
    return actions


def openspiel_games(n: int, seed: int) -> int:
    import pyspiel

    game = pyspiel.load_game("cribbage")
    rng = random.Random(seed)
    rand = rng.randrange
    steps = 0
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()  # at chance nodes: the outcomes, all equally likely
            state.apply_action(legal[rand(len(legal))])
            steps += 1
    return steps


def rate(fn: Callable[[int, int], int], seconds: float, seed: int) -> tuple[float, int]:
    """Games per second of ``fn`` over about ``seconds``."""
    games = 0
    steps = 0
    start = time.perf_counter()
    while True:
        steps += fn(20, seed + games)
        games += 20
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games / elapsed, steps // games


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=2.0, help="length of each round (default 2 s)")
    parser.add_argument("--rounds", type=int, default=4, help="rounds per side, alternating (default 4)")
    args = parser.parse_args(argv)
    ours: list[float] = []
    theirs: list[float] = []
    warm_tables()  # the rank-pattern tables, filled lazily otherwise
    feltroom_games(200, 1)  # and the pegging memo
    for r in range(args.rounds):
        a, a_len = rate(feltroom_games, args.seconds, 1000 * r)
        b, b_len = rate(openspiel_games, args.seconds, 1000 * r)
        ours.append(a)
        theirs.append(b)
        print(f"round {r + 1}: feltroom {a:8.1f} games/s ({a_len} actions/game) · "
              f"OpenSpiel {b:8.1f} games/s ({b_len} steps/game)")
    best_a, best_b = max(ours), max(theirs)
    print(f"feltroom  {best_a:8.1f} games/s (best of {args.rounds})")
    print(f"OpenSpiel {best_b:8.1f} games/s (best of {args.rounds})")
    print(f"ratio     {best_a / best_b:8.2f}× (target ≥ 4×)")
    return {"feltroom": best_a, "openspiel": best_b, "ratio": best_a / best_b}


if __name__ == "__main__":
    main()
