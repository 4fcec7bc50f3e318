"""How well ``CrispReader`` reads the others' cards: at each of its Queens, every other seat's card it
cannot place, its estimate (``_their_value``) beside the card's true value.

One reader seat against heuristics, seats rotated (game ``i`` has seed ``i`` and the reader in seat
``i mod players``: bench/crisp_bot.py's ``seat_rotated``). The bench reads the true state after the reader chose; the
reader never sees it. Prints the mean true value per rounded estimate, the correlation, the error's
variance beside the cards' own, and the same for the seat that declared crisp (whose cards the
heuristic holds to its declaring limit, which the reader does not read): docs/bots.md, "What is left
in the reader's reading".

Then what a Queen's target is worth: at each Queen, the true value of the card the reader values lowest,
of the lowest card there was, and of the card valued lowest by a table learned from the reader's own
facts (the true mean per estimate to half a point, bounds, whether the holder had seen it, slot, holder
the declarer, the holder's swaps this round up to 3), fitted on the first half of the games and used on
the second: how much better any reading of those facts could choose.

    .venv/bin/python bench/crisp_reader_calibration.py [--games 20000] [--players 4] [--jobs 2]
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, NamedTuple

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from crisp_bot import seat_rotated
from feltroom.bots.crisp import CrispReader
from feltroom.bots.runner import play_out
from feltroom.games.crisp import VALUE

CHUNK = 500


class Row(NamedTuple):
    """One card the reader cannot place, at one of its Queens."""

    estimate: float  # the reader's (``_their_value``)
    truth: int  # the card's true value
    declarer: bool  # its holder declared crisp
    queen: tuple[int, int]  # (the game's number, the Queen's number in it)
    facts: tuple[int, ...]  # what the reader knows of it: the learned table's key


#: a fact's bucket needs this many training cards before the learned table is used for it
LEARNED_MIN = 10


class _Recording(CrispReader):
    """The reader, noting at each Queen its estimate of every card it cannot place and that card's truth."""

    game: Any = None  # the true Crisp game, read by the bench only (its ``hands``)
    rows: list[Row]

    number: int = 0  # the game's number
    queens: int = 0  # its Queens so far

    def _queen(self, values: list[float], mean: float, legal: list[str]) -> str:
        hands = self.game.hands
        self.queens += 1
        for o in range(self.players):
            if o != self.seat:
                for slot in range(3):
                    if self.known[o][slot] is None:
                        truth = VALUE[hands[o][slot]]
                        estimate = self._their_value(o, slot, mean)
                        declarer = o == self.declarer
                        facts = (round(estimate * 2), self.low[o][slot], self.high[o][slot], self.seen[o][slot], slot,
                                 declarer, min(self.swaps[o], 3))
                        self.rows.append(Row(estimate, truth, declarer, (self.number, self.queens), facts))
        return super()._queen(values, mean, legal)


def play(games: range, players: int) -> list[Row]:
    rows: list[Row] = []
    for i in games:
        game, bots, reader = seat_rotated(i, players, "heuristic", {}, _Recording)
        bot = bots[reader]
        assert isinstance(bot, _Recording)
        bot.game, bot.rows, bot.number = game, rows, i
        play_out(game, bots)
    return rows


def report(rows: list[Row], title: str) -> None:
    n = len(rows)
    if n < 2:
        print(f"{title}: {n} estimates")
        return
    est = [r.estimate for r in rows]
    true = [r.truth for r in rows]
    me, mt = sum(est) / n, sum(true) / n
    cov = sum((a - me) * (b - mt) for a, b in zip(est, true, strict=True))
    var_e = sum((a - me) ** 2 for a in est)
    var_t = sum((b - mt) ** 2 for b in true)
    corr = cov / math.sqrt(var_e * var_t) if var_e and var_t else float("nan")
    err = sum((a - b) ** 2 for a, b in zip(est, true, strict=True)) / n
    print(f"{title}: {n:,} estimates, correlation {corr:.3f}, squared error {err:.2f} (the cards' variance"
          f" {var_t / n:.2f})")
    by: dict[int, list[int]] = defaultdict(list)
    for e, t in zip(est, true, strict=True):
        by[round(e)].append(t)
    for k in sorted(by):
        print(f"  estimate {k:2d}: {len(by[k]):7,} cards, true mean {sum(by[k]) / len(by[k]):5.2f}")


def target_values(rows: list[Row], games: int, learned_min: int = LEARNED_MIN) -> tuple[int, dict[str, float]]:
    """At each Queen of the second half of the games, the true value of the card taken by three choices, on
    average: the reader's lowest estimate, the lowest by a table of the true mean per ``facts`` learned on the
    first half (the reader's estimate where a fact has fewer than ``learned_min`` cards), the lowest truth.
    Returns the number of Queens and those means."""
    half = games // 2
    table: dict[tuple[int, ...], list[float]] = defaultdict(lambda: [0, 0.0])
    for row in rows:
        if row.queen[0] < half:
            cell = table[row.facts]
            cell[0] += 1
            cell[1] += row.truth

    def learned(row: Row) -> float:
        cell = table.get(row.facts)
        return cell[1] / cell[0] if cell is not None and cell[0] >= learned_min else row.estimate

    queens: dict[tuple[int, int], list[Row]] = defaultdict(list)
    for row in rows:
        if row.queen[0] >= half:
            queens[row.queen].append(row)
    picks: dict[str, Callable[[Row], float]] = {
        "the reader's lowest estimate": lambda r: r.estimate, "the learned table's lowest": learned,
        "the lowest card there was": lambda r: r.truth}
    n = len(queens)
    return n, {label: sum(min(q, key=key).truth for q in queens.values()) / n if n else float("nan")
               for label, key in picks.items()}


def report_targets(rows: list[Row], games: int) -> None:
    n, values = target_values(rows, games)
    if not n:
        return
    half = games // 2
    print(f"At its {n:,} Queens of games {half:,}–{games - 1:,}, the true value of the card it cannot place"
          f" that is lowest by (the table learned on games 0–{half - 1:,}):")
    for label, value in values.items():
        print(f"  {label:30s} {value:5.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    chunks = [range(k, min(args.games, k + CHUNK)) for k in range(0, args.games, CHUNK)]
    rows: list[Row] = []
    columns = (TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns) as bar, ProcessPoolExecutor(args.jobs) as pool:
        task = bar.add_task("games", total=args.games)
        for chunk, part in zip(chunks, pool.map(play, chunks, [args.players] * len(chunks)), strict=True):
            rows += part
            bar.advance(task, len(chunk))
    print(f"CrispReader against {args.players - 1} heuristics, {args.games:,} games, at its Queens:")
    report(rows, "every card it cannot place")
    report([r for r in rows if r.declarer], "the declarer's")
    report([r for r in rows if not r.declarer], "the others'")
    report_targets(rows, args.games)


if __name__ == "__main__":
    main()
