"""Craits against OpenSpiel's crazy_eights: random actions/s, 4 players, one core.

Both sides run the same loop through their public API: list the legal actions, pick one
uniformly at random, apply it (OpenSpiel's chance nodes, its deals, count as actions too).
Rounds alternate A B A B … in one process so that machine noise hits both alike.

    .venv/bin/python bench/craits_vs_openspiel.py [--seconds 2] [--rounds 4] [--players 4] [--floor] [--all]

``new_game`` gives the compiled core (``feltroom.fastgame``) when it is built; ``--all`` adds
the pure-Python reference engine, ``--floor`` the loop over a do-nothing engine.

Needs ``open-spiel`` (``.venv/bin/pip install open-spiel``).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import feltroom
from feltroom import CLOCK
from feltroom.games.craits import Craits


def api_round(make_game: Callable[[int], Any], seconds: float, seed: int) -> tuple[int, int, float]:
    """Random games through the public API loop for ``seconds``: (games, actions, elapsed)."""
    rng = random.Random(seed)
    games = actions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        game = make_game(games)
        while not game.is_over:
            seats = game.to_act
            seat = seats[0] if seats else CLOCK
            legal = game.legal_actions(seat)
            game.apply(seat, legal[rng.randrange(len(legal))])
            actions += 1
        games += 1
    return games, actions, elapsed


def craits_round(seconds: float, players: int, seed: int) -> tuple[int, int, float]:
    """Random Craits games for ``seconds``: (games, actions, elapsed)."""
    return api_round(lambda i: feltroom.new_game("craits", players=players, seed=seed * 100_003 + i), seconds, seed)


def reference_round(seconds: float, players: int, seed: int) -> tuple[int, int, float]:
    """The same games on the pure-Python reference engine (no compiled core)."""
    return api_round(lambda i: Craits(players, seed=seed * 100_003 + i), seconds, seed)


def openspiel_round(seconds: float, players: int, seed: int) -> tuple[int, int, float]:
    """Random OpenSpiel crazy_eights games for ``seconds``: (games, actions, elapsed)."""
    import pyspiel  # optional dependency (the bench extra)

    game: Any = pyspiel.load_game("crazy_eights", {"players": players})
    rng = random.Random(seed)
    games = actions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
        games += 1
    return games, actions, elapsed


class _NullGame:
    """A do-nothing engine behind the same API (one event and one record entry per action): the loop's floor."""

    def __init__(self, length: int) -> None:
        self.left = length
        self.legal = ["play AS", "play 2S", "play 3S", "draw"]
        self.log: list[dict[str, Any]] = []
        self.actions: list[list[Any]] = []

    @property
    def is_over(self) -> bool:
        return self.left <= 0

    @property
    def to_act(self) -> tuple[int, ...]:
        return (0,)

    def legal_actions(self, seat: Any) -> list[str]:
        return self.legal

    def apply(self, seat: Any, action: str) -> list[dict[str, Any]]:
        if action not in self.legal:
            raise ValueError(action)
        start = len(self.log)
        self.log.append({"type": "play", "to": "all", "seat": seat, "card": action[5:], "suit": "S"})
        self.actions.append([seat, action])
        self.left -= 1
        return self.log[start:]


def null_round(seconds: float, players: int, seed: int) -> tuple[int, int, float]:
    """The same loop over ``_NullGame``: what the Python API loop alone costs."""
    return api_round(lambda i: _NullGame(1500), seconds, seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=2.0, help="length of each round (default 2)")
    parser.add_argument("--rounds", type=int, default=4, help="rounds per side, alternating (default 4)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--floor", action="store_true", help="also time the API loop over a do-nothing engine")
    parser.add_argument("--all", action="store_true", help="also time the pure-Python reference engine")
    args = parser.parse_args()
    engine = type(feltroom.new_game("craits", players=args.players, seed=1))
    print(f"feltroom engine: {engine.__name__}" + (" (compiled core)" if engine is not Craits else " (pure Python)"))
    sides: list[tuple[str, Any]] = [("craits", craits_round), ("openspiel", openspiel_round)]
    if args.all:
        sides.append(("reference", reference_round))
    if args.floor:
        sides.append(("null loop", null_round))
    totals = {name: [0, 0, 0.0] for name, _ in sides}
    for r in range(args.rounds):
        for name, run in sides:
            games, actions, elapsed = run(args.seconds, args.players, r)
            t = totals[name]
            t[0] += games
            t[1] += actions
            t[2] += elapsed
            print(f"round {r + 1} {name:10} {actions / elapsed:12,.0f} actions/s  {games / elapsed:9,.1f} games/s")
    rate = {name: t[1] / t[2] for name, t in totals.items()}
    print()
    print(f"{'':10}{'actions/s':>14}{'games/s':>11}{'actions/game':>14}")
    for name, t in totals.items():
        print(f"{name:10}{rate[name]:14,.0f}{t[0] / t[2]:11,.1f}{t[1] / max(t[0], 1):14,.0f}")
    print(f"\ncraits / openspiel = {rate['craits'] / rate['openspiel']:.2f}x  (actions/s, {args.players} players)")
    if args.floor:
        floor = rate["null loop"] / rate["openspiel"]
        print(f"null loop / openspiel = {floor:.2f}x  (the ceiling of a Python engine driven through this API)")


if __name__ == "__main__":
    main()
