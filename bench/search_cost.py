"""CPU per search game, and a fingerprint of every action played: for speeding the search up
without changing what it plays.

Plays ``--games`` heads-up games of ``GAME`` (search in seat ``g % 2`` against ``heuristic``, the
seeds of ``bench/search_strength.py``), prints the CPU seconds they took and a hash of every
action of every game. A change meant only to be faster must leave the hash as it was; run the
old and the new code alternately (the CPU figures of a shared machine move by a third from run
to run), e.g. with ``git stash``:

    .venv/bin/python bench/search_cost.py krypkasino --games 3 --budget 40
    .venv/bin/python bench/search_cost.py cribbage --games 2 --budget 60 --heuristic 30

``--heuristic N`` also hashes N heuristic-only games of 2–4 players (with ``--options``, JSON).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time
from typing import Any

import feltroom
from feltroom.bots import make_bot
from feltroom.bots.runner import play_out
from feltroom.game import Game
from search_strength import one_game


def heuristic_games(name: str, games: int, options: dict[str, Any] | None) -> tuple[str, float]:
    """Fingerprint of ``games`` heuristic self-play games (2, 3, 4 players in turn) and their CPU seconds."""
    digest = hashlib.sha256()
    start = time.process_time()
    for g in range(games):
        players = 2 + g % 3
        rng = random.Random(g)
        game = feltroom.new_game(name, players=players, seed=rng.randrange(2**53), options=options)
        bots = [make_bot("heuristic", name, s, players, game.options, rng.randrange(2**32)) for s in range(players)]
        digest.update(repr(play_out(game, bots).actions).encode())
    return digest.hexdigest()[:16], time.process_time() - start


def search_games(name: str, games: int, budget: int | None) -> tuple[str, float]:
    """Fingerprint of ``games`` search-vs-heuristic games and their CPU seconds."""
    played: list[Game] = []
    new_game = feltroom.new_game

    def keep(*args: Any, **kwargs: Any) -> Game:
        game = new_game(*args, **kwargs)
        played.append(game)
        return game

    feltroom.new_game = keep  # type: ignore[assignment]  # one_game makes its game through it
    digest = hashlib.sha256()
    start = time.process_time()
    try:
        for g in range(games):
            share, _ = one_game(name, 100 + g, g % 2, "search", budget, None)
            digest.update(repr((share, played[-1].actions)).encode())
    finally:
        feltroom.new_game = new_game  # type: ignore[assignment]
    return digest.hexdigest()[:16], time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--budget", type=int, default=None, help="playouts a decision (default: the lobby's)")
    parser.add_argument("--heuristic", type=int, default=0, help="also hash this many heuristic games")
    parser.add_argument("--options", type=json.loads, default=None, help="the heuristic games' options")
    args = parser.parse_args()
    if args.heuristic:
        digest, cpu = heuristic_games(args.game, args.heuristic, args.options)
        print(f"{args.game}: {args.heuristic} heuristic games, actions {digest}, {cpu:.2f} s of CPU")
    digest, cpu = search_games(args.game, args.games, args.budget)
    print(f"{args.game}: {args.games} search games (budget {args.budget or 'lobby'}), actions {digest}, "
          f"{cpu:.1f} s of CPU")


if __name__ == "__main__":
    main()
