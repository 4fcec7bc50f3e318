"""A Cribbage guide for the search that counts the whole crib, and what it is worth against the heuristic.

Usage: ``python bench/cribbage_guide.py [--games G] [--seed S] [--discard whole|heuristic] [--reply max|expected]``

``CribbageGuide`` is the heuristic with one change: a heads-up discard counts the whole crib's mean
(all five cards' fifteens, pairs and runs, the other seat's two discards and the starter unknown:
``WHOLE_CRIB``) where the heuristic counts only its own two discards' points with each starter. The
pegging and the claims are the heuristic's. It is the ``guide`` part of ``search_variants.py``'s
Cribbage variants (``SearchSpec.guide``: the choice the search must beat).

This script plays it against the lobby's heuristic, seat-rotated heads-up games (the guide deals
first in every other game), each game's seed drawn from ``--seed``; prints the guide's win rate with
its Wilson 95 % interval, the choices in which the two differ (each asked of the heuristic too, from
the same view) and the CPU per game. ``--reply expected`` measures another change, in the play
(``ExpectedReply``), alone (``--discard heuristic``) or with the guide's discards.

    .venv/bin/python bench/cribbage_guide.py --games 20000 --seed 3
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from math import comb
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

import feltroom
from feltroom.bots.base import Bot
from feltroom.bots.cribbage import CribbageBot, _pegs_after
from feltroom.bots.runner import play_out
from feltroom.cli.ladder import wilson
from feltroom.games.cribbage_scoring import RANK, RANK_VALUE

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


class ExpectedReply(CribbageBot):
    """The heuristic's play with the reply risk as the expected points of the next player's best reply
    (the unseen cards' ranks taken in order of the points they would peg: the chance that the best the
    next player holds is of each), not the largest of points × the chance of holding that rank."""

    @staticmethod
    def _reply_risk(ranks: tuple[int, ...], count: int, by_rank: dict[int, int], unseen: int, holding: int) -> float:
        pegs = _pegs_after(ranks)
        scoring = sorted(((pegs[r], copies) for r, copies in by_rank.items()
                          if count + RANK_VALUE[r] <= 31 and pegs[r]), reverse=True)
        if not scoring or unseen < holding:
            return 0.0
        hands = comb(unseen, holding)
        risk, none_yet, excluded = 0.0, 1.0, 0
        for points, copies in scoring:
            excluded += copies
            none_after = comb(unseen - excluded, holding) / hands  # comb is 0 when too few cards are left
            risk += points * (none_yet - none_after)
            none_yet = none_after
        return risk


class GuideExpectedReply(CribbageGuide, ExpectedReply):
    """Both changes: the whole crib in the discards, the expected best reply in the play."""


#: ``--discard`` × ``--reply`` -> the measured bot
MEASURED: dict[tuple[str, str], type[CribbageBot]] = {
    ("whole", "max"): CribbageGuide, ("heuristic", "expected"): ExpectedReply,
    ("whole", "expected"): GuideExpectedReply}


class Compared(Bot):
    """The measured bot, counting its choices per kind and those in which the heuristic, asked from the
    same view, would have chosen otherwise."""

    def __init__(self, measured: CribbageBot) -> None:
        super().__init__(measured.seat, measured.players, measured.options)
        self.measured = measured
        self.twin = CribbageBot(measured.seat, measured.players, measured.options)
        self.made: Counter[str] = Counter()
        self.differ: Counter[str] = Counter()

    def choose(self, view: dict[str, Any] | None, legal: list[str]) -> str:
        choice = self.measured.choose(view, legal)
        if len(legal) > 1:
            kind = legal[0].split()[0]
            self.made[kind] += 1
            self.differ[kind] += choice != self.twin.choose(view, legal)
        return choice


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--discard", choices=["whole", "heuristic"], default="whole",
                    help="the measured bot's discards: the whole crib's mean (the guide's) or the heuristic's")
    ap.add_argument("--reply", choices=["max", "expected"], default="max",
                    help="its reply risk in the play: the heuristic's or the expected best reply (ExpectedReply)")
    args = ap.parse_args()
    if (args.discard, args.reply) not in MEASURED:
        ap.error("that is the heuristic itself: change --discard or --reply")
    measured = MEASURED[args.discard, args.reply]
    rng = random.Random(args.seed)
    wins = 0
    made: Counter[str] = Counter()
    differ: Counter[str] = Counter()
    start = time.process_time()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("cribbage: against the heuristic", total=args.games)
        for g in range(args.games):
            game = feltroom.new_game("cribbage", players=2, seed=rng.randrange(2**53))
            hero = g % 2
            seeds = [rng.randrange(2**32) for _ in range(2)]
            hero_bot = Compared(measured(hero, 2, game.options, seeds[hero]))
            bots: list[Bot] = [hero_bot if seat == hero else CribbageBot(seat, 2, game.options, seeds[seat])
                               for seat in range(2)]
            play_out(game, bots)
            wins += hero in game.winners
            made.update(hero_bot.made)
            differ.update(hero_bot.differ)
            progress.advance(task)
    low, high = wilson(wins, args.games)
    cpu = time.process_time() - start
    changed = ", ".join(f"{kind}s {differ[kind]} of {made[kind]} ({differ[kind] / made[kind]:.1%})"
                        for kind in ("discard", "play") if made[kind])
    print(f"cribbage, discards {args.discard}, reply {args.reply}, vs heuristic, heads-up, seed {args.seed}: "
          f"{args.games} games, won {wins / args.games:.1%} (Wilson 95 % {low:.1%}–{high:.1%}); "
          f"choices unlike the heuristic's: {changed}; {1e3 * cpu / args.games:.1f} ms of CPU a game")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
