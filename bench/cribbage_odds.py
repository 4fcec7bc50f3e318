"""Heads-up Cribbage: the chance to win from the scores between two hands, as a ``search`` value.

Usage: ``python bench/cribbage_odds.py [--games G] [--seed S] [--write]``: plays G heads-up games of
``heuristic`` against itself (target 121, automatic counting), counts what each finished hand gave
the pone and the dealer, pegged (his heels the dealer's) and shown (the crib the dealer's), prints
the means and the first dealer's share of the games beside the table's chance, and with
``--write`` rewrites ``results/cribbage-hands.json``, the counts the table is built from.

A search playout stops at the end of a hand (``search_games``). Worth its margin of points, a
playout scores 10 points the same at 0–0 and at 110–100, where they decide the game. Worth the
chance to win from the scores it reached (``odds_worth``; the variant part ``odds`` of
``search_variants.py``), it values a hand as the rest of the game does: how far each side is from
the target, and who deals next (the dealer counts last and owns the crib). Tried as the lobby's
Cribbage value on 4 December 2026 and measured no better on the same 1,000 games (docs/bots.md,
"Where the search stands"), so it lives here, for the variant bench, not in the package.

``win_chance(target)[mine][theirs]`` is that chance for the seat that is the pone (does not deal)
in the next hand, with ``mine`` points against ``theirs`` (both under the target). The model:

- a hand's points are drawn from the ``heuristic``'s heads-up hands, the same at every score (the
  heuristic plays without reading them) and independent from hand to hand. The pegging and the
  show are drawn independently of each other, and so are the pone's and the dealer's totals when
  neither reaches the target: two small tables instead of every hand, and a table filled in 0.14 s
  (121; 0.37 s for 241) instead of seconds. The first dealer's chance is 0.561 this way and 0.562
  with the hands' joint totals (0.577 ± 0.018 of the 3,000 games the counts come from);
- within a hand the pegging comes first: a side that pegs out wins, and when both would (their
  order is not counted) each wins half; then the pone's show, then the dealer's hand and crib
  (CRIB-SHOW-1, CRIB-END-1);
- a hand in which neither side scores is left out (the next one would be the same with the deal
  passed: rare, and it would make the table's order circular).

The table is filled once per target, from the far end (both near the target) back to 0–0, and
cached for the process.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import random
from collections import Counter
from functools import cache
from pathlib import Path

from rich.progress import track

import feltroom
from feltroom.bots import make_bot
from feltroom.bots.runner import play_out
from feltroom.bots.search_games import _crib_margin, _crib_starters_value

COUNTS = Path(__file__).resolve().parent / "results" / "cribbage-hands.json"
SHOW_REASONS = frozenset(("hand", "crib", "muggins"))

#: (pone, dealer) points -> hands
Counts = dict[tuple[int, int], int]


@cache
def counts() -> tuple[Counts, Counts]:
    """The points pegged and the points shown per hand, (pone, dealer) -> hands, from ``COUNTS``."""
    data = json.loads(COUNTS.read_text())
    return ({(a, b): n for a, b, n in data["pegged"]}, {(a, b): n for a, b, n in data["shown"]})


def _immediate(target: int) -> list[list[float]]:
    """``won[a][b]``: the chance that the pone, ``a`` points short of the target against the
    dealer's ``b``, wins within the hand (indices 1..target). Each (pegging, show) outcome adds
    its weight over a rectangle of (a, b): a two-dimensional difference array."""
    pegged, shown = counts()
    size = target + 2
    diff = [[0.0] * size for _ in range(size)]

    def add(a0: int, a1: int, b0: int, b1: int, weight: float) -> None:
        a0, b0, a1, b1 = max(a0, 1), max(b0, 1), min(a1, target), min(b1, target)
        if a0 <= a1 and b0 <= b1:
            diff[a0][b0] += weight
            diff[a0][b1 + 1] -= weight
            diff[a1 + 1][b0] -= weight
            diff[a1 + 1][b1 + 1] += weight

    pegs, shows = sum(pegged.values()), sum(shown.values())
    for (pone_peg, dealer_peg), n in pegged.items():
        chance = n / pegs
        add(1, pone_peg, 1, dealer_peg, 0.5 * chance)  # both would peg out: their order is not known
        add(1, pone_peg, dealer_peg + 1, target, chance)  # the pone pegs out
        for (pone_show, _), m in shown.items():  # the pone counts out first (CRIB-SHOW-1)
            add(pone_peg + 1, pone_peg + pone_show, dealer_peg + 1, target, chance * m / shows)
    for row in diff:  # running sums along b, then along a
        total = 0.0
        for b in range(size):
            total += row[b]
            row[b] = total
    for a in range(1, size):
        above, row = diff[a - 1], diff[a]
        for b in range(size):
            row[b] += above[b]
    return diff


def _totals() -> tuple[list[float], list[float]]:
    """The chance of each total a hand gives the pone, and the dealer (pegged and shown), by points."""
    pegged, shown = counts()
    pegs, shows = sum(pegged.values()), sum(shown.values())
    pone = [0.0] * (1 + max(a for a, _ in pegged) + max(a for a, _ in shown))
    dealer = [0.0] * (1 + max(b for _, b in pegged) + max(b for _, b in shown))
    for (pone_peg, dealer_peg), n in pegged.items():
        for (pone_show, dealer_show), m in shown.items():
            pone[pone_peg + pone_show] += n * m / (pegs * shows)
            dealer[dealer_peg + dealer_show] += n * m / (pegs * shows)
    return pone, dealer


@cache
def win_chance(target: int) -> tuple[tuple[float, ...], ...]:
    """The next hand's pone's chance to win with ``mine`` points against ``theirs``: ``[mine][theirs]``
    (``tests/test_cribbage_odds.py``)."""
    won = _immediate(target)
    pone, dealer = _totals()
    # chance[m][t] = won + the sum, over the totals x, y that reach neither target, of pone[x] dealer[y]
    # (1 - chance[t + y][m + x]): the roles swap, the dealer is the next pone. The pone's total and the dealer's
    # independent, the double sum splits: reach[t][c] = the sum over y of dealer[y] chance[t + y][c], kept as each
    # chance is known (the far end first).
    chance = [[0.0] * target for _ in range(target)]
    reach = [[0.0] * target for _ in range(target)]  # reach[t][c]: over y >= 0 ...
    reach_on = [[0.0] * target for _ in range(target)]  # ... and over y >= 1 (x = y = 0 is left out)
    below = [sum(dealer[:short]) for short in range(target + 1)]  # the dealer's chance to stay short of ``short``
    for reached in range(2 * target - 2, -1, -1):
        diagonal = range(max(0, reached - target + 1), min(target - 1, reached) + 1)
        for t in diagonal:  # reach_on[t][c] on this diagonal: from the diagonals further on
            c = reached - t
            on = 0.0
            for y in range(1, min(target - t, len(dealer))):
                on += dealer[y] * chance[t + y][c]
            reach_on[t][c] = on
        for mine in diagonal:
            theirs = reached - mine
            short, their_short = target - mine, target - theirs
            later = pone[0] * (below[their_short] - dealer[0] - reach_on[theirs][mine])
            for x in range(1, min(short, len(pone))):
                later += pone[x] * (below[their_short] - reach[theirs][mine + x])
            chance[mine][theirs] = won[short][their_short] + later
        for t in diagonal:
            c = reached - t
            reach[t][c] = reach_on[t][c] + dealer[0] * chance[t][c]
    return tuple(tuple(row) for row in chance)


def odds_worth(game: feltroom.Game, seat: int, scores: list[int], start: list[int], dealer: int) -> float:
    """A ``search_games.CribWorth``: heads-up, the seat's chance to win from ``scores`` with ``dealer``
    dealing next; at larger tables the hand's margin (``_crib_margin``)."""
    if game.players != 2:
        return _crib_margin(game, seat, scores, start, dealer)
    odds = win_chance(game.target)  # type: ignore[attr-defined]
    mine, theirs = scores[seat], scores[1 - seat]
    return 1.0 - odds[theirs][mine] if dealer == seat else odds[mine][theirs]


#: the playout value of ``search_variants.py``'s part ``odds``: ``_crib_starters_value`` with ``odds_worth``
odds_value = functools.partial(_crib_starters_value, worth=odds_worth)


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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=121)
    parser.add_argument("--write", action="store_true", help=f"rewrite {COUNTS.name}")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    pegged: Counter[tuple[int, int]] = Counter()
    shown: Counter[tuple[int, int]] = Counter()
    first_dealer_won = 0
    for _ in track(range(args.games), description="heuristic games"):
        game = feltroom.new_game("cribbage", 2, rng.randrange(2**53), {"counting": "automatic"})
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
        COUNTS.write_text(json.dumps({
            "games": args.games, "seed": args.seed, "hands": n,
            "pegged": [[a, b, c] for (a, b), c in sorted(pegged.items())],
            "shown": [[a, b, c] for (a, b), c in sorted(shown.items())]}, separators=(",", ":")))
        counts.cache_clear()
        win_chance.cache_clear()
        print(f"wrote {COUNTS}")
    print(f"the first dealer's chance by the table: {1 - win_chance(121)[0][0]:.3f}")


if __name__ == "__main__":
    main()
