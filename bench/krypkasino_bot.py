"""Win rate of the Krypkasino heuristic bot against random bots.

Usage: ``python bench/krypkasino_bot.py [games] [players]``. Seats rotate so that the
heuristic bot deals first equally often; ties count as wins for every winner.
"""

from __future__ import annotations

import random
import sys
import time

import feltroom
from feltroom.bots import make_bot
from feltroom.bots.runner import play_out


def main(games: int = 1000, players: int = 2, seed: int = 1) -> None:
    rng = random.Random(seed)
    wins = 0.0
    shares = 0.0
    margin = 0.0
    start = time.perf_counter()
    for g in range(games):
        hero = g % players
        game = feltroom.new_game("krypkasino", players=players, seed=rng.randrange(2**53))
        bots = [make_bot("heuristic" if s == hero else "random", "krypkasino", s, players, game.options,
                         rng.randrange(2**32)) for s in range(players)]
        play_out(game, bots)
        if hero in game.winners:
            wins += 1
            shares += 1 / len(game.winners)
        others = [game.scores[s] for s in range(players) if s != hero]
        margin += sum(others) / len(others) - game.scores[hero]
    seconds = time.perf_counter() - start
    print(f"krypkasino heuristic vs {players - 1} random, {games} games, {seconds:.1f} s: "
          f"win rate {wins / games:.1%} (ties shared: {shares / games:.1%}; an even share is {1 / players:.1%}), "
          f"mean total {margin / games:.1f} points lower than the random seats'")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
