"""What a knowledge sample costs (feltroom.knowledge, #15), mid-game and late in the game.

Plays heuristic games, stops them at fractions of their length, and times, for the seat to
act: a fresh tracker's first sample (reading the whole game), the first sample after the
last few actions' events (what a bot that observes as it plays pays once per decision), and
the following samples (what search pays per playout).

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

TABLES = {"crisp": (2, 4, 6), "craits": (2, 4, 5)}  # Craits: one deck (two decks: bench/craits_two_decks.py)


def measure(name: str, players: int, seed: int, fraction: float, samples: int) -> tuple[float, float, float]:
    """(fresh first sample, first after new events, mean of the next ``samples``) in ms, at
    ``fraction`` of a heuristic game."""
    bots = [make_bot("heuristic", name, s, players, {}, seed + s) for s in range(players)]
    whole = play_out(feltroom.new_game(name, players=players, seed=seed), bots)
    game = feltroom.new_game(name, players=players, seed=seed)
    cut = int(len(whole.actions) * fraction)
    for seat, action in whole.actions[:cut - players]:
        game.apply(seat, action)
    earlier = len(game.log)
    for seat, action in whole.actions[cut - players:cut]:
        game.apply(seat, action)
    me = game.to_act[0] if game.to_act else 0
    t = time.perf_counter()
    fresh = tracker(name, me, players, {})
    fresh.observe(events_for(game.log, me))
    fresh.sample(random.Random(0))
    whole_read = time.perf_counter() - t
    k = tracker(name, me, players, {})
    k.observe(events_for(game.log[:earlier], me))
    k.sample(random.Random(0))
    t = time.perf_counter()
    k.observe(events_for(game.log[earlier:], me))
    k.sample(random.Random(0))
    update = time.perf_counter() - t
    rng = random.Random(1)
    t = time.perf_counter()
    for _ in range(samples):
        k.sample(rng)
    return whole_read * 1000, update * 1000, (time.perf_counter() - t) / samples * 1000


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
                fresh, update, each = ([g[i] for g in got] for i in range(3))
                print(f"{name:8} {players}p {when:8}: a sample {statistics.mean(each):6.2f} ms "
                      f"(max {max(each):6.2f}); after a round of actions {statistics.mean(update):6.1f} ms "
                      f"(max {max(update):6.1f}); a fresh tracker {statistics.mean(fresh):6.1f} ms "
                      f"(max {max(fresh):6.1f})", flush=True)


if __name__ == "__main__":
    main()
