"""What a heads-up Cribbage hand scores when ``heuristic`` plays both seats: writes ``bots/cribbage_hands.py``.

Usage: ``python bench/cribbage_hands.py [--games G] [--seed S] [--write]``.

Plays G heads-up games (target 121, automatic counting) and counts, over every hand played to its
end, what the pone and the dealer pegged (his heels with the dealer's) and what they showed (the
crib with the dealer's). Prints the means and, as a check of ``bots/cribbage_odds.py``'s model, the
first dealer's chance by the table beside the share of these games the first dealer won. With
``--write`` it rewrites the table module (``feltroom.bots.cribbage_odds`` reads it).
"""

from __future__ import annotations

import argparse
import math
import random
from collections import Counter
from pathlib import Path
from pprint import pformat

from rich.progress import track

import feltroom
from feltroom.bots import make_bot
from feltroom.bots.runner import play_out

TABLE = Path(feltroom.__file__).parent / "bots" / "cribbage_hands.py"
SHOW_REASONS = frozenset(("hand", "crib", "muggins"))


def hands(game: feltroom.Game) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Each finished hand's (pone, dealer) pegging and show points; the game's last hand is left out."""
    pegged: list[tuple[int, int]] = []
    shown: list[tuple[int, int]] = []
    dealer, points, crib_shown = -1, [0, 0, 0, 0], False
    for event in [*game.log, {"type": "hand_start", "dealer": -1}]:
        kind = event["type"]
        if kind == "hand_start":
            if crib_shown:
                pegged.append((points[0], points[1]))
                shown.append((points[2], points[3]))
            dealer, points, crib_shown = event["dealer"], [0, 0, 0, 0], False
        elif kind == "score" and dealer >= 0:
            points[(2 if event["reason"] in SHOW_REASONS else 0) + (event["seat"] == dealer)] += event["points"]
        elif kind == "show" and event["crib"]:
            crib_shown = True
    return pegged, shown


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=121)
    parser.add_argument("--write", action="store_true", help=f"rewrite {TABLE.name}")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    pegged: Counter[tuple[int, int]] = Counter()
    shown: Counter[tuple[int, int]] = Counter()
    first_dealer_won = 0
    options = {"counting": "automatic"}
    for _ in track(range(args.games), description="heuristic games"):
        game = feltroom.new_game("cribbage", 2, rng.randrange(2**53), options)
        bots = [make_bot("heuristic", "cribbage", seat, 2, game.options, rng.randrange(2**32)) for seat in range(2)]
        play_out(game, bots)
        first = next(e["dealer"] for e in game.log if e["type"] == "hand_start")
        first_dealer_won += first in game.winners
        p, s = hands(game)
        pegged.update(p)
        shown.update(s)
    n = sum(pegged.values())
    means = [sum(k[i] * c for k, c in table.items()) / n for table in (pegged, shown) for i in (0, 1)]
    print(f"{args.games} games, {n} hands: pone pegs {means[0]:.2f}, dealer pegs {means[1]:.2f} (heels too), "
          f"pone shows {means[2]:.2f}, dealer shows {means[3]:.2f} (crib too)")
    share = first_dealer_won / args.games
    print(f"the first dealer won {share:.3f} of the games (± {1.96 * math.sqrt(share * (1 - share) / args.games):.3f})")
    if args.write:
        TABLE.write_text(
            f'"""What a heads-up Cribbage hand scored, pone and dealer, in {n:,} hands of {args.games:,} games of\n'
            f'``heuristic`` against itself (``python bench/cribbage_hands.py --games {args.games} --seed {args.seed}'
            f' --write``\nwrote this file): (pone, dealer) points -> hands.\n\n'
            "``PEGGED``: the points pegged, the dealer's with his heels; ``SHOWN``: the points shown, the dealer's\n"
            'with the crib. ``cribbage_odds`` reads them."""\n\n'
            f"PEGGED = {pformat(dict(sorted(pegged.items())), width=118, compact=True)}\n\n"
            f"SHOWN = {pformat(dict(sorted(shown.items())), width=118, compact=True)}\n")
        from feltroom.bots import cribbage_odds  # the table just written
        print(f"wrote {TABLE}; first dealer's chance by the table: {1 - cribbage_odds.win_chance(121)[0][0]:.3f}")


if __name__ == "__main__":
    main()
