"""Heads-up strength of the ``search`` level against ``heuristic``, and the omniscient measuring stick.

Usage: ``python bench/search_strength.py GAME [--games G] [--budget B] [--players N] [--omniscient] [--jobs J]
[--seed S] [--minutes M]``

Seat-rotated games (2 players unless ``--players``: then one search seat among N − 1 heuristics,
its seat rotating), search (or, with ``--omniscient``, the same search given the true
state: every hidden card — never a bot level, only a measure of how much a game's luck leaves
to skill) against the game's heuristic. Ties count half (a win shared by k, 1/k). Prints the win rate with a Wilson 95 %
interval, the games played, CPU seconds, the search's decision CPU time (p50/p95/max over its
decisions with more than one legal action), and the load. The same seed gives the same games for
both, so the two figures compare like with like.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

import feltroom
from feltroom.bots import make_bot
from feltroom.bots.search import SearchBot
from feltroom.cli.ladder import wilson
from feltroom.fastgame import FastGame
from feltroom.game import CLOCK, Event, Game
from feltroom.knowledge import Knowledge
from feltroom.views import events_for


class TrueState(Knowledge):
    """Not a knowledge: the real game, copied (the omniscient stick; bench only)."""

    def __init__(self, game: str, seat: int, players: int) -> None:
        super().__init__(seat, players)
        self.game = game  # type: ignore[misc]
        self.truth: Game | None = None

    def observe(self, events: list[Event]) -> None:  # type: ignore[override]
        pass

    def sample(self, rng: random.Random) -> Game:
        assert self.truth is not None
        real = self.truth._ref_now() if isinstance(self.truth, FastGame) else self.truth
        return real.copy()


def play(name: str, seed: int, hero: int, budget: int | None, omniscient: bool,
         players: int = 2) -> tuple[float, float, list[float]]:
    """One game: (the searcher's share of the win, CPU seconds, the searcher's decision CPU seconds)."""
    start = time.process_time()
    rng = random.Random(seed)
    game = feltroom.new_game(name, players=players, seed=rng.randrange(2**53))
    bots = [make_bot("search", name, s, players, game.options, rng.randrange(2**32), budget=budget) if s == hero
            else make_bot("heuristic", name, s, players, game.options, rng.randrange(2**32))
            for s in range(players)]
    searcher = bots[hero]
    assert isinstance(searcher, SearchBot)
    truth = TrueState(name, hero, players) if omniscient else None
    if truth is not None:
        searcher.knowledge = truth
    seen = [0] * players
    decisions: list[float] = []
    while not game.is_over:
        if not game.to_act:
            game.apply(CLOCK, game.legal_actions(CLOCK)[0])
            continue
        seat = game.to_act[0]
        bot = bots[seat]
        bot.observe(events_for(game.log[seen[seat]:], seat))
        seen[seat] = len(game.log)
        if truth is not None:
            truth.truth = game
        legal = game.legal_actions(seat)
        clock = time.process_time()
        action = bot.choose(game.view(seat), legal)
        if seat == hero and len(legal) > 1:
            decisions.append(time.process_time() - clock)
        game.apply(seat, action)
    share = 0.0 if hero not in game.winners else 1.0 / len(game.winners)
    return share, time.process_time() - start, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--budget", type=int, default=None)
    parser.add_argument("--players", type=int, default=2, help="one search seat among PLAYERS - 1 heuristics")
    parser.add_argument("--omniscient", action="store_true")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--minutes", type=float, default=None, help="stop submitting new games after this long")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    seeds = [rng.randrange(2**53) for _ in range(args.games)]
    start = time.perf_counter()
    load = [os.getloadavg()[0]]
    results: list[tuple[float, float, list[float]]] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        # Games are submitted as others end, at most ``jobs`` in flight: a pool marks every queued call
        # running (so ``cancel`` could not stop them) and --minutes went unheeded.
        queued = iter(enumerate(seeds))
        running: set[Future[tuple[float, float, list[float]]]] = set()
        while True:
            while len(running) < args.jobs and (args.minutes is None
                                                or time.perf_counter() - start < args.minutes * 60):
                g, seed = next(queued, (-1, 0))
                if g < 0:
                    break
                running.add(pool.submit(play, args.game, seed, g % args.players, args.budget, args.omniscient,
                                        args.players))
            if not running:
                break
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                results.append(future.result())
                load.append(os.getloadavg()[0])
    n = len(results)
    wins = sum(r[0] for r in results)
    times = sorted(t for r in results for t in r[2])
    p50, p95, top = (times[int(0.5 * len(times))], times[min(len(times) - 1, int(0.95 * len(times)))],
                     times[-1]) if times else (0.0, 0.0, 0.0)
    lo, hi = wilson(wins, n)
    who = "omniscient search" if args.omniscient else "search"
    versus = "heuristic" if args.players == 2 else f"{args.players - 1} heuristics"
    print(f"{args.game}: {who} (budget {args.budget or 'lobby'}) vs {versus}, {n} seat-rotated games: "
          f"{wins / max(n, 1):.1%} (Wilson 95 % {lo:.1%}–{hi:.1%}); {sum(r[1] for r in results):.0f} s of CPU, "
          f"search decisions p50 {p50:.3f} s, p95 {p95:.3f} s, max {top:.3f} s of CPU over {len(times)}, "
          f"{time.perf_counter() - start:.0f} s wall, load {min(load):.1f}–{max(load):.1f}")


if __name__ == "__main__":
    main()
