"""Heads-up Cribbage: the chance to win from the scores between two hands.

A search playout stops at the end of a hand (``search_games``). Worth its margin of points, a
playout scores 10 points the same at 0–0 and at 110–115, where they decide the game. Worth the
chance to win from the scores it reached, it values a hand as the rest of the game does: how
far each side is from the target, and who deals next (the dealer counts last and owns the crib).

``win_chance(target)[mine][theirs]`` is that chance for the seat that is the pone (does not deal)
in the next hand, with ``mine`` points against ``theirs`` (both under the target). Decided here:

- a hand's points are drawn from the ``heuristic``'s heads-up hands (``cribbage_hands``: what the
  pone and the dealer peg, his heels included, and what they show, the dealer's crib included),
  the same at every score (the heuristic plays without reading them) and independent from
  hand to hand. The pegging and the show are drawn independently of each other, and so are the
  pone's and the dealer's totals when neither reaches the target: two small tables instead of
  every hand, and a table filled in 0.14 s (121; 0.37 s for 241) instead of seconds. The first
  dealer's chance is 0.561 this way and 0.562 with the hands' joint totals (0.577 ± 0.018 of the
  3,000 games the table comes from: ``bench/cribbage_hands.py``);
- within a hand the pegging comes first: a side that pegs out wins, and when both would (their
  order is not in the table) each wins half; then the pone's show, then the dealer's hand and
  crib (CRIB-SHOW-1, CRIB-END-1);
- a hand in which neither side scores is left out (the next one would be the same with the
  deal passed: rare, and it would make the table's order circular).

The table is filled once per target, from the far end (both near the target) back to 0–0, and
cached for the process.

>>> odds = win_chance(121)
>>> round(1 - odds[0][0], 2)  # the first dealer's chance, as in the heuristic's own games
0.56
>>> odds[115][0] > odds[0][115]
True
"""

from __future__ import annotations

from functools import cache

from .cribbage_hands import PEGGED, SHOWN


def _immediate(target: int) -> list[list[float]]:
    """``won[a][b]``: the chance that the pone, ``a`` points short of the target against the
    dealer's ``b``, wins within the hand (indices 1..target). Each (pegging, show) outcome adds
    its weight over a rectangle of (a, b): a two-dimensional difference array."""
    size = target + 2
    diff = [[0.0] * size for _ in range(size)]

    def add(a0: int, a1: int, b0: int, b1: int, weight: float) -> None:
        a0, b0, a1, b1 = max(a0, 1), max(b0, 1), min(a1, target), min(b1, target)
        if a0 <= a1 and b0 <= b1:
            diff[a0][b0] += weight
            diff[a0][b1 + 1] -= weight
            diff[a1 + 1][b0] -= weight
            diff[a1 + 1][b1 + 1] += weight

    pegs, shows = sum(PEGGED.values()), sum(SHOWN.values())
    for (pone_peg, dealer_peg), n in PEGGED.items():
        pegged = n / pegs
        add(1, pone_peg, 1, dealer_peg, 0.5 * pegged)  # both would peg out: their order is not known
        add(1, pone_peg, dealer_peg + 1, target, pegged)  # the pone pegs out
        for (pone_show, _), m in SHOWN.items():  # the pone counts out first (CRIB-SHOW-1)
            add(pone_peg + 1, pone_peg + pone_show, dealer_peg + 1, target, pegged * m / shows)
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
    pegs, shows = sum(PEGGED.values()), sum(SHOWN.values())
    pone = [0.0] * (1 + max(a for a, _ in PEGGED) + max(a for a, _ in SHOWN))
    dealer = [0.0] * (1 + max(b for _, b in PEGGED) + max(b for _, b in SHOWN))
    for (pone_peg, dealer_peg), n in PEGGED.items():
        for (pone_show, dealer_show), m in SHOWN.items():
            pone[pone_peg + pone_show] += n * m / (pegs * shows)
            dealer[dealer_peg + dealer_show] += n * m / (pegs * shows)
    return pone, dealer


@cache
def win_chance(target: int) -> tuple[tuple[float, ...], ...]:
    """The next hand's pone's chance to win with ``mine`` points against ``theirs``: ``[mine][theirs]``."""
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
