"""Win share of the Craits heuristic bot against random bots (one heuristic seat, rotating).

    .venv/bin/python bench/craits_bot_winrate.py [--games 1000] [--players 4] [--short]

A tie counts as a fraction of a win (1/number of winners); an even share is 1/players.
"""

from __future__ import annotations

import argparse
import time

import feltroom
from feltroom.bots import make_bot
from feltroom.bots.runner import play_out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--short", action="store_true", help="short_game: hands 1-8 only")
    args = parser.parse_args()
    n = args.players
    options = {"short_game": args.short}
    wins = 0.0
    start = time.perf_counter()
    for i in range(args.games):
        seat = i % n
        game = feltroom.new_game("craits", players=n, seed=i, options=options)
        bots = [make_bot("heuristic" if s == seat else "random", "craits", s, n, options, seed=i * 10 + s)
                for s in range(n)]
        play_out(game, bots)
        if seat in game.winners:
            wins += 1 / len(game.winners)
    print(f"heuristic win share {wins / args.games:.3f} over {args.games} {n}-player games "
          f"(short_game={args.short}; even share {1 / n:.3f}) in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
