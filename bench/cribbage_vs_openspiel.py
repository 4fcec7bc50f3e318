"""Cribbage random games per second: feltroom's public API against OpenSpiel's ``cribbage``.

Both sides play 2-player games to 121 with uniformly random choices: feltroom through
``new_game`` / ``to_act`` / ``legal_actions`` / ``apply`` (automatic counting, events logged),
OpenSpiel through ``new_initial_state`` / ``legal_actions`` / ``apply_action`` (its chance
nodes deal the cards one by one). Small batches alternate A B A B in one process, so both
sides see the same machine load; each side's games/s is its games over its summed time.

``new_game`` gives the compiled core (``feltroom.fastgame``) when it is built; ``--all`` adds
the pure-Python reference engine and the core with ``game.log`` read after each game.

Run: ``.venv/bin/python bench/cribbage_vs_openspiel.py [--seconds 20] [--batch 10] [--all]``
(needs ``.venv/bin/pip install open-spiel``).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import feltroom
from feltroom.games.cribbage import Cribbage

OPTIONS = {"counting": "automatic"}


def feltroom_games(n: int, seed: int, make: Callable[..., Any] = feltroom.new_game, read_log: bool = False) -> int:
    """Play ``n`` random games; return the number of actions applied."""
    rng = random.Random(seed)
    rand = rng.randrange
    actions = 0
    for i in range(n):
        game = make("cribbage", 2, seed=seed * 1_000_003 + i, options=OPTIONS)
        while not game.is_over:
            seat = game.to_act[0]
            legal = game.legal_actions(seat)
            game.apply(seat, legal[rand(len(legal))])
        actions += len(game.actions)
        if read_log:
            _ = len(game.log)  # every event built, as a logger or a replay viewer would
    return actions


def reference_games(n: int, seed: int) -> int:
    """The same games on the pure-Python reference engine (no compiled core)."""
    return feltroom_games(n, seed, lambda name, players, **kw: Cribbage(players, **kw))


def logged_games(n: int, seed: int) -> int:
    """The same games, reading ``game.log`` at the end of each (the events are built lazily)."""
    return feltroom_games(n, seed, read_log=True)


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


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=20.0, help="total run time (default 20 s)")
    parser.add_argument("--batch", type=int, default=10, help="games per batch; batches alternate A B A B")
    parser.add_argument("--all", action="store_true",
                        help="also run the pure-Python reference engine, and the core with the log read")
    args = parser.parse_args(argv)
    engine = type(feltroom.new_game("cribbage", 2, seed=1, options=OPTIONS))
    print(f"feltroom engine: {engine.__name__}" + (" (compiled core)" if engine is not Cribbage else " (pure Python)"))
    feltroom_games(200, 1)  # warm up
    openspiel_games(20, 1)
    clock = time.perf_counter
    runs: list[tuple[str, Callable[[int, int], int]]] = [("feltroom", feltroom_games), ("openspiel", openspiel_games)]
    if args.all:
        runs += [("reference", reference_games), ("with log", logged_games)]
    spent = {name: 0.0 for name, _ in runs}
    games = {name: 0 for name, _ in runs}
    start = clock()
    batch = 0
    while clock() - start < args.seconds:
        for name, fn in runs:  # A B A B …: both sides see the same machine load
            t = clock()
            fn(args.batch, 1000 + batch)
            spent[name] += clock() - t
            games[name] += args.batch
        batch += 1
    ours = games["feltroom"] / spent["feltroom"]
    theirs = games["openspiel"] / spent["openspiel"]
    print(f"feltroom  {ours:8.1f} games/s ({games['feltroom']} games, {spent['feltroom']:.1f} s)")
    print(f"OpenSpiel {theirs:8.1f} games/s ({games['openspiel']} games, {spent['openspiel']:.1f} s)")
    print(f"ratio     {ours / theirs:8.2f}x (target >= 4x)")
    for name in list(spent)[2:]:
        rate = games[name] / spent[name]
        share = rate / theirs
        print(f"{name:9} {rate:8.1f} games/s ({games[name]} games, {spent[name]:.1f} s) = {share:.2f}x OpenSpiel")
    return {"feltroom": ours, "openspiel": theirs, "ratio": ours / theirs}


if __name__ == "__main__":
    main()
