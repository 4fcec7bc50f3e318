"""Win rate of one Crisp bot seat against the others (random bots by default), seats rotated.

The measured seat plays the ``heuristic`` (or, with ``--guide``, ``CrispGuide``, the search's guide; with
``--reader``, ``CrispReader``, the guide reading the others' choices into bounds on their cards),
with any of its rules of thumb changed: ``--declare X`` (declare crisp at an estimated total of at most
X at this table size; the heuristic's is 8 up to 4 players), ``--bolder X`` (how much higher that
limit goes per own turn past the sixth; the heuristic's 1), ``--queen-gain X`` (the least estimated
gain a Queen swap must make; the heuristic's 1.5) and ``--fresh X`` (with ``--guide``: what another
seat's card it drew from the deck and swapped in is taken to be worth; the guide's 3). With
``--opponent heuristic``, what a change is worth against the heuristic's rules. Game ``i`` has seed
``i`` and the measured seat ``i mod players``, so two runs play the same deals.

    .venv/bin/python bench/crisp_bot.py [--games 1000] [--players 4] [--opponent random] [--guide | --reader]
        [--declare X] [--bolder X] [--queen-gain X] [--fresh X] [--jobs 2]
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

import feltroom
from feltroom.bots import Bot, make_bot
from feltroom.bots.crisp import CrispGuide, CrispHeuristic, CrispReader
from feltroom.bots.runner import play_out
from feltroom.cli.ladder import wilson
from feltroom.game import Game

CHUNK = 250


#: the measured seat's bot by name
MEASURED: dict[str, type[CrispHeuristic]] = {"heuristic": CrispHeuristic, "guide": CrispGuide, "reader": CrispReader}


def measured_class(measured: str, players: int, changes: dict[str, float]) -> type[CrispHeuristic]:
    """The measured seat's bot (``MEASURED``), with ``changes`` (``declare``, ``bolder``, ``queen_gain``,
    ``fresh``) to its rules of thumb."""
    base = MEASURED[measured]
    attrs: dict[str, Any] = {}
    if "declare" in changes:
        attrs["DECLARE"] = {**base.DECLARE, players: changes["declare"]}
    if "bolder" in changes:
        attrs["BOLDER"] = changes["bolder"]
    if "queen_gain" in changes:
        attrs["QUEEN_GAIN"] = changes["queen_gain"]
    if "fresh" in changes:
        if base is not CrispGuide:
            raise SystemExit("--fresh is the guide's (add --guide; the reader bounds those cards instead)")
        attrs["FRESH"] = changes["fresh"]
    return type("Measured", (base,), attrs) if attrs else base


def seat_rotated(i: int, players: int, opponent: str, options: dict[str, Any],
                 cls: type[CrispHeuristic]) -> tuple[Game, list[Bot], int]:
    """Game ``i``: its game (seed ``i``), its bots (``opponent`` everywhere but the measured seat's
    ``cls``) and the measured seat, ``i mod players``, so that two runs play the same deals."""
    hero = i % players
    game = feltroom.new_game("crisp", players=players, seed=i, options=options)
    bots = [make_bot(opponent, "crisp", s, players, options, seed=i * 10 + s) for s in range(players)]
    bots[hero] = cls(hero, players, options, seed=i * 10 + hero)
    return game, bots, hero


def play(games: range, players: int, opponent: str, options: dict[str, Any], measured: str,
         changes: dict[str, float]) -> tuple[int, int, float]:
    """Wins, sole wins and the summed score lead of the measured seat over ``games``."""
    cls = measured_class(measured, players, changes)
    wins = sole = 0
    lead = 0.0
    for i in games:
        game, bots, hero = seat_rotated(i, players, opponent, options, cls)
        play_out(game, bots)
        if hero in game.winners:
            wins += 1
            sole += len(game.winners) == 1
        others = [game.scores[s] for s in range(players) if s != hero]
        lead += sum(others) / len(others) - game.scores[hero]
    return wins, sole, lead


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--opponent", default="random")
    ap.add_argument("--options", default="")
    seat_bot = ap.add_mutually_exclusive_group()
    seat_bot.add_argument("--guide", action="store_true", help="the measured seat plays CrispGuide, the search's guide")
    seat_bot.add_argument("--reader", action="store_true", help="the measured seat plays CrispReader")
    ap.add_argument("--declare", type=float, help="the measured seat's declaring threshold")
    ap.add_argument("--bolder", type=float, help="how much bolder it declares per own turn past the sixth")
    ap.add_argument("--queen-gain", type=float, help="the least estimated gain of a Queen swap")
    ap.add_argument("--fresh", type=float, help="(--guide) another seat's swapped-in deck card is worth this")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    opts: dict[str, object] = {}
    for part in filter(None, args.options.split(",")):
        k, v = part.split("=")
        opts[k] = {"true": True, "false": False}.get(v, int(v) if v.isdigit() else v)
    n = args.players
    changes = {k: v for k in ("declare", "bolder", "queen_gain", "fresh") if (v := getattr(args, k)) is not None}
    measured = "reader" if args.reader else "guide" if args.guide else "heuristic"
    measured_class(measured, n, changes)  # refuses --fresh (the guide's alone) before any game
    chunks = [range(k, min(k + CHUNK, args.games)) for k in range(0, args.games, CHUNK)]
    wins = sole = 0
    lead = 0.0
    t0 = time.perf_counter()
    columns = (TextColumn("crisp games"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns) as progress, ProcessPoolExecutor(args.jobs) as pool:
        task = progress.add_task("games", total=args.games)
        futures = [(len(c), pool.submit(play, c, n, args.opponent, opts, measured, changes)) for c in chunks]
        for size, future in futures:
            w, s, g = future.result()
            wins, sole, lead = wins + w, sole + s, lead + g
            progress.advance(task, size)
    dt = time.perf_counter() - t0
    who = measured + "".join(f" {k}={v:g}" for k, v in changes.items())
    low, high = wilson(wins, args.games)
    print(f"{who} vs {n - 1} {args.opponent}: {wins}/{args.games} wins ({100 * wins / args.games:.1f}%, "
          f"Wilson 95 % {100 * low:.1f}–{100 * high:.1f}%; sole {100 * sole / args.games:.1f}%), "
          f"mean score lead {lead / args.games:.1f}, {dt:.0f} s")


if __name__ == "__main__":
    main()
