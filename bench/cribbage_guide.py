"""A Cribbage guide for the search that counts the whole crib, and what it is worth against the heuristic.

Usage: ``python bench/cribbage_guide.py [--games G] [--seed S]``

``CribbageGuide`` is the heuristic with one change: a heads-up discard counts the whole crib's mean
(all five cards' fifteens, pairs and runs, the other seat's two discards and the starter unknown:
``WHOLE_CRIB``) where the heuristic counts only its own two discards' points with each starter. The
pegging and the claims are the heuristic's. It is the ``guide`` part of ``search_variants.py``'s
Cribbage variants (``SearchSpec.guide``: the choice the search must beat).

This script plays it against the lobby's heuristic, seat-rotated heads-up games (the guide deals
first in every other game), each game's seed drawn from ``--seed``; prints the guide's win rate with
its Wilson 95 % interval, the discards in which the two differ (each guide discard asked of the
heuristic too, from the same view) and the CPU per game.

    .venv/bin/python bench/cribbage_guide.py --games 20000 --seed 3
"""

from __future__ import annotations

import argparse
import random
import time

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

import feltroom
from feltroom.bots.base import Bot
from feltroom.bots.cribbage import CribbageBot
from feltroom.bots.runner import play_out
from feltroom.cli.ladder import wilson
from feltroom.games.cribbage_scoring import RANK

#: the ways the crib's other two cards and the starter can fall from the 50 cards left beside two discards
CRIB_DRAWS = 50 * 49 // 2 * 48
#: the crib's points from fifteens, pairs and runs (no flush, no nobs) when a seat's two discards have
#: ranks r1 ≤ r2 (1–13), summed over the ``CRIB_DRAWS`` equally likely ways the other two discards and the
#: starter fall from the 50 cards left: ``WHOLE_CRIB[r1 - 1][r2 - r1] / CRIB_DRAWS`` is its mean
#: (5-5 8.96 points, 5-J 6.99, A-K 3.70). tests/test_cribbage_guide.py rebuilds it from ``rank_points``.
WHOLE_CRIB = (
    (323064, 258564, 265620, 319056, 334506, 247866, 237390, 239940, 234996, 230172, 230556, 224172, 217788),
    (340320, 399552, 282444, 336234, 254256, 249258, 246432, 240756, 236784, 237168, 230784, 224400),
    (360072, 320724, 375366, 248754, 253524, 249708, 239466, 241212, 241596, 235212, 228828),
    (358560, 408834, 289524, 243174, 250488, 244620, 241008, 241392, 235008, 228624),
    (526560, 414414, 374574, 335910, 334722, 410598, 410982, 404598, 398214),
    (367656, 323124, 285588, 325404, 223224, 223608, 217224, 210840),
    (356952, 395220, 253428, 216540, 220476, 214092, 207708),
    (329112, 287412, 250524, 215976, 213144, 206760),
    (322944, 282372, 247824, 206508, 203676),
    (319032, 280800, 239484, 198168),
    (319224, 278568, 237252),
    (306456, 230868),
    (293688,),
)


class CribbageGuide(CribbageBot):
    """The heuristic with the whole crib's mean in its heads-up discards (the module docstring)."""

    def _crib_points(self, out: list[int], starters: list[int]) -> float:
        if self.players != 2 or len(out) != 2:  # the table is a heads-up crib's: two discards a seat
            return super()._crib_points(out, starters)
        low, high = sorted(RANK[c] for c in out)
        return sum(starters) * WHOLE_CRIB[low - 1][high - low] / CRIB_DRAWS  # summed over the starters, as the base


class Compared(CribbageGuide):
    """The guide, counting the discards in which the heuristic would have chosen otherwise."""

    def __init__(self, seat: int, players: int, options: dict[str, object], seed: int | None = None) -> None:
        super().__init__(seat, players, options, seed)
        self.twin = CribbageBot(seat, players, options, seed)
        self.discards = self.differ = 0

    def choose(self, view: dict[str, object] | None, legal: list[str]) -> str:
        choice = super().choose(view, legal)
        if len(legal) > 1 and legal[0].startswith("discard"):
            self.discards += 1
            self.differ += choice != self.twin.choose(view, legal)
        return choice


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    wins = discards = differ = 0
    start = time.process_time()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("cribbage guide vs heuristic", total=args.games)
        for g in range(args.games):
            game = feltroom.new_game("cribbage", players=2, seed=rng.randrange(2**53))
            guide = g % 2
            bots: list[Bot] = []
            for seat in range(2):
                cls = Compared if seat == guide else CribbageBot
                bots.append(cls(seat, 2, game.options, rng.randrange(2**32)))
            play_out(game, bots)
            wins += guide in game.winners
            compared = bots[guide]
            assert isinstance(compared, Compared)
            discards += compared.discards
            differ += compared.differ
            progress.advance(task)
    low, high = wilson(wins, args.games)
    cpu = time.process_time() - start
    print(f"cribbage guide vs heuristic, heads-up, seed {args.seed}: {args.games} games, guide won "
          f"{wins / args.games:.1%} (Wilson 95 % {low:.1%}–{high:.1%}); its discards differed in {differ} of "
          f"{discards} ({differ / max(1, discards):.1%}); {1e3 * cpu / args.games:.1f} ms of CPU a game")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
