"""Win rate of the Crisp heuristic bot against random bots (4-player games, seats rotated).

``--declare X`` makes the measured seat declare crisp at an estimated total of at most X (its
``DECLARE`` threshold at this table size; the heuristic's is 8 up to 4 players): with ``--opponent
heuristic``, what another threshold is worth against the heuristic's.

    .venv/bin/python bench/crisp_bot.py [--games 1000] [--players 4] [--opponent random] [--declare X]
"""

from __future__ import annotations

import argparse
import time

import feltroom
from feltroom.bots import make_bot
from feltroom.bots.crisp import CrispHeuristic
from feltroom.bots.runner import play_out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--opponent", default="random")
    ap.add_argument("--options", default="")
    ap.add_argument("--declare", type=float, default=None, help="the measured seat's declaring threshold")
    args = ap.parse_args()
    opts: dict[str, object] = {}
    for part in filter(None, args.options.split(",")):
        k, v = part.split("=")
        opts[k] = {"true": True, "false": False}.get(v, int(v) if v.isdigit() else v)
    n = args.players
    declaring = None if args.declare is None else type(
        "Declaring", (CrispHeuristic,), {"DECLARE": {**CrispHeuristic.DECLARE, n: args.declare}})
    wins = sole = 0
    score_gap = 0.0
    t0 = time.perf_counter()
    for i in range(args.games):
        hero = i % n
        game = feltroom.new_game("crisp", players=n, seed=i, options=opts)
        bots = [make_bot("heuristic" if s == hero else args.opponent, "crisp", s, n, opts, seed=i * 10 + s)
                for s in range(n)]
        if declaring is not None:
            bots[hero] = declaring(hero, n, opts, seed=i * 10 + hero)
        play_out(game, bots)
        if hero in game.winners:
            wins += 1
            sole += len(game.winners) == 1
        others = [game.scores[s] for s in range(n) if s != hero]
        score_gap += sum(others) / len(others) - game.scores[hero]
    dt = time.perf_counter() - t0
    who = "heuristic" if args.declare is None else f"heuristic declaring at {args.declare:g}"
    print(f"{who} vs {n - 1} {args.opponent}: {wins}/{args.games} wins ({100 * wins / args.games:.1f}%, "
          f"sole {100 * sole / args.games:.1f}%), mean score lead {score_gap / args.games:.1f}, {dt:.0f} s")


if __name__ == "__main__":
    main()
