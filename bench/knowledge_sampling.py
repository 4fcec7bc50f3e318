"""What a knowledge sample costs (feltroom.knowledge, #15), mid-game and late in the game.

Plays heuristic games, stops them at fractions of their length, feeds the seat to act a
tracker, and times its first sample (reading the events and settling what is public) and the
following ones (what search pays per playout).

    .venv/bin/python bench/knowledge_sampling.py [--games 5] [--samples 200] [--games-of crisp,craits]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import feltroom
from feltroom.bots import make_bot
from feltroom.bots.runner import play_out
from feltroom.knowledge import KNOWLEDGE, tracker
from feltroom.views import events_for

TABLES = {"crisp": (2, 4, 6), "craits": (2, 4, 6)}


def measure(name: str, players: int, seed: int, fraction: float, samples: int) -> tuple[float, float]:
    """(first sample, mean of the next ``samples``) in ms, at ``fraction`` of a heuristic game."""
    bots = [make_bot("heuristic", name, s, players, {}, seed + s) for s in range(players)]
    whole = play_out(feltroom.new_game(name, players=players, seed=seed), bots)
    game = feltroom.new_game(name, players=players, seed=seed)
    for seat, action in whole.actions[:int(len(whole.actions) * fraction)]:
        game.apply(seat, action)
    me = game.to_act[0] if game.to_act else 0
    k = tracker(name, me, players, {})
    k.observe(events_for(game.log, me))
    t = time.perf_counter()
    k.sample(random.Random(0))
    first = time.perf_counter() - t
    rng = random.Random(1)
    t = time.perf_counter()
    for _ in range(samples):
        k.sample(rng)
    return first * 1000, (time.perf_counter() - t) / samples * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--games-of", default=",".join(sorted(KNOWLEDGE)))
    args = ap.parse_args()
    for name in args.games_of.split(","):
        for players in TABLES.get(name, (2, 4)):
            for fraction, when in ((0.3, "mid-game"), (0.9, "late")):
                got = [measure(name, players, 1000 + g, fraction, args.samples) for g in range(args.games)]
                firsts = [f for f, _ in got]
                each = [e for _, e in got]
                print(f"{name:8} {players}p {when:8}: a sample {statistics.mean(each):6.2f} ms "
                      f"(max {max(each):6.2f}); the first after new events {statistics.mean(firsts):7.1f} ms "
                      f"(max {max(firsts):7.1f})", flush=True)


if __name__ == "__main__":
    main()
