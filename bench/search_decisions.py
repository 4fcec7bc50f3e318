"""Decision time of the ``search`` level at the lobby budget, per game: p50, p95, max.

Usage: ``python bench/search_decisions.py [--games G] [--seconds S] [--budget B] [--players N] [GAME ...]``
(default: every game with a knowledge tracker, 2 players, until G games or S seconds a game).
One search seat (rotating) plays the game's heuristic in the other seats; every decision with more
than one legal action is timed in CPU time of this process (one core; what the machine's load does not stretch) and in
wall time. The lobby budget (``SearchSpec.budget``) is chosen so that p95 ≤ 1 s of CPU.
"""

from __future__ import annotations

import argparse
import os
import random
import time

import feltroom
from feltroom.bots import make_bot
from feltroom.bots.search import SPECS, SearchBot, SearchSpec
from feltroom.knowledge import KNOWLEDGE
from feltroom.views import events_for


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench(name: str, games: int, seconds: float, budget: int | None, seed: int, players: int = 2) -> None:
    rng = random.Random(seed)
    cpu: list[float] = []
    wall: list[float] = []
    start = time.perf_counter()
    played = 0
    while played < games and time.perf_counter() - start < seconds:
        hero = played % players
        game = feltroom.new_game(name, players=players, seed=rng.randrange(2**53))
        bots = [make_bot("search", name, s, players, game.options, rng.randrange(2**32), budget=budget) if s == hero
                else make_bot("heuristic", name, s, players, game.options, rng.randrange(2**32))
                for s in range(players)]
        seen = [0] * players
        while not game.is_over and time.perf_counter() - start < seconds:
            seat = game.to_act[0]
            bot = bots[seat]
            bot.observe(events_for(game.log[seen[seat]:], seat))
            seen[seat] = len(game.log)
            legal = game.legal_actions(seat)
            view = game.view(seat)
            if isinstance(bot, SearchBot) and len(legal) > 1:
                c, w = time.process_time(), time.perf_counter()
                action = bot.choose(view, legal)
                cpu.append(time.process_time() - c)
                wall.append(time.perf_counter() - w)
            else:
                action = bot.choose(view, legal)
            game.apply(seat, action)
        played += 1
    used = budget if budget is not None else SPECS.get(name, SearchSpec()).budget
    if not cpu:
        print(f"{name}: no decision timed")
        return
    print(f"{name}, {players} players: budget {used} playouts, {len(cpu)} decisions in {played} games — CPU p50 "
          f"{percentile(cpu, 0.5):.3f} s, p95 {percentile(cpu, 0.95):.3f} s, max {max(cpu):.3f} s; wall p50 "
          f"{percentile(wall, 0.5):.3f} s, p95 {percentile(wall, 0.95):.3f} s, max {max(wall):.3f} s "
          f"(load {os.getloadavg()[0]:.1f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=sorted(KNOWLEDGE))
    parser.add_argument("--games", dest="count", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=180.0)
    parser.add_argument("--budget", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    for name in args.games:
        bench(name, args.count, args.seconds, args.budget, args.seed, args.players)


if __name__ == "__main__":
    main()
