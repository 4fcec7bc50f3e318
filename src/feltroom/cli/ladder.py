"""``feltroom ladder``: bot levels against each other, seat-rotated, with intervals and ratings.

Decided here:

- the matches: with two seats, every pair of levels; with more, every ordered pair (a, b): one
  seat of a against the other seats all b (as "1 search vs 3 heuristic"). The games are dealt
  to the matches in turn, and in each match the lone level's seat moves one place every game;
- a level's score in a game is 1 if it wins alone, 1/k if k sides share the win, else 0; its
  win rate is the mean score, with a Wilson 95 % interval (ties counted as fractions, as the
  interval's "successes");
- ratings: OpenSkill (Plackett–Luce) over every game's ranking exactly as the room rates bot
  levels (``feltroom.server.ratings.settle``), each level one identity, the games rated in the
  order they were dealt (the same order for any ``--jobs``);
- every game's seed comes from ``--seed``, so the same command gives the same figures on any
  machine and with any number of worker processes.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

import feltroom
from feltroom.bots import make_bot
from feltroom.bots.runner import play_out
from feltroom.server.ratings import Rating, settle

from .support import check_levels, default_players

Z95 = 1.959964


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``successes`` of ``n``).

    >>> [round(x, 3) for x in wilson(600, 1000)]
    [0.569, 0.63]
    """
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def matches(levels: list[str], players: int) -> list[tuple[str, str]]:
    """The (lone level, the others' level) of every match.

    >>> matches(["search", "heuristic", "random"], 2)
    [('search', 'heuristic'), ('search', 'random'), ('heuristic', 'random')]
    >>> len(matches(["search", "heuristic", "random"], 4))
    6
    """
    if players == 2:
        return list(itertools.combinations(levels, 2))
    return list(itertools.permutations(levels, 2))


def seating(match: tuple[str, str], players: int, index: int) -> list[str]:
    """The level in each seat of the match's game number ``index``: the lone level rotates."""
    lone, rest = match
    seat = index % players
    return [lone if s == seat else rest for s in range(players)]


def shares(winners: list[int], sides: list[list[int]], players: int) -> list[float]:
    """Each seat's share of the win: 1/k for k winning sides.

    >>> shares([0, 1], [[0], [1]], 2), shares([1, 3], [[0, 2], [1, 3]], 4)
    ([0.5, 0.5], [0.0, 1.0, 0.0, 1.0])
    """
    won = set(winners)
    k = sum(1 for side in sides if won & set(side))
    return [1.0 / k if s in won else 0.0 for s in range(players)]


@dataclass(frozen=True)
class Deal:
    """One game of the ladder: which match, its levels by seat, its seed."""

    number: int
    match: int
    levels: list[str]
    seed: int
    bot_seeds: list[int]


def plan(name: str, players: int, games: int, levels: list[str], seed: int) -> list[Deal]:
    rng = random.Random(seed)
    pairs = matches(levels, players)
    played = [0] * len(pairs)
    out = []
    for g in range(games):
        m = g % len(pairs)
        out.append(Deal(g, m, seating(pairs[m], players, played[m]), rng.randrange(2**53),
                        [rng.randrange(2**32) for _ in range(players)]))
        played[m] += 1
    return out


def play_deal(name: str, players: int, options: dict[str, Any], budget: int | None,
              deal: Deal) -> tuple[list[int], list[int], list[list[int]], float]:
    """Play one ladder game: (scores, winners, sides, seconds)."""
    start = time.process_time()
    game = feltroom.new_game(name, players=players, seed=deal.seed, options=options)
    bots = [make_bot(level, name, seat, players, game.options, deal.bot_seeds[seat],
                     budget=budget if getattr(_factory(level, name), "takes_budget", False) else None)
            for seat, level in enumerate(deal.levels)]
    play_out(game, bots)
    return game.scores, game.winners, game.sides, time.process_time() - start


def _factory(level: str, name: str) -> Any:
    from feltroom.bots import BOTS

    games = BOTS.get(level, {})
    return games.get(name) or games.get("*")


@dataclass
class Tally:
    """A match's results: games and the lone level's share of wins."""

    games: int = 0
    lone: float = 0.0
    seconds: float = 0.0


@dataclass
class Ladder:
    name: str
    players: int
    levels: list[str]
    pairs: list[tuple[str, str]]
    tallies: list[Tally] = field(default_factory=list)
    level_games: dict[str, int] = field(default_factory=dict)
    level_wins: dict[str, float] = field(default_factory=dict)
    ratings: dict[str, Rating] = field(default_factory=dict)
    games: int = 0
    seconds: float = 0.0

    def add(self, deal: Deal, scores: list[int], winners: list[int], sides: list[list[int]], seconds: float) -> None:
        self.games += 1
        self.seconds += seconds
        tally = self.tallies[deal.match]
        tally.games += 1
        tally.seconds += seconds
        lone, _ = self.pairs[deal.match]
        seat = deal.levels.index(lone)
        share = shares(winners, sides, self.players)
        tally.lone += share[seat]
        for level in set(deal.levels):
            seats = [s for s, lv in enumerate(deal.levels) if lv == level]
            self.level_games[level] = self.level_games.get(level, 0) + 1
            self.level_wins[level] = self.level_wins.get(level, 0.0) + sum(share[s] for s in seats)
        done = settle(self.name, scores, winners, sides, list(deal.levels), self.ratings)
        self.ratings.update(done.after)


def run_ladder(name: str, players: int, games: int, levels: list[str], seed: int, options: dict[str, Any],
               budget: int | None, jobs: int, progress: Progress | None = None) -> Ladder:
    deals = plan(name, players, games, levels, seed)
    pairs = matches(levels, players)
    ladder = Ladder(name, players, levels, pairs, [Tally() for _ in pairs])
    task = progress.add_task(f"{name} ladder", total=games) if progress else None
    for deal, result in zip(deals, _results(name, players, options, budget, deals, jobs), strict=True):
        ladder.add(deal, *result)
        if progress is not None and task is not None:
            progress.advance(task)
    return ladder


def _results(name: str, players: int, options: dict[str, Any], budget: int | None, deals: list[Deal],
             jobs: int) -> Iterator[tuple[list[int], list[int], list[list[int]], float]]:
    if jobs <= 1:
        for deal in deals:
            yield play_deal(name, players, options, budget, deal)
        return
    with ProcessPoolExecutor(jobs) as pool:
        futures = [pool.submit(play_deal, name, players, options, budget, deal) for deal in deals]
        for future in futures:
            yield future.result()


def tables(ladder: Ladder, wall: float) -> list[Table]:
    n = ladder.players
    head = Table(title=f"{ladder.name}, {n} players: {ladder.games} games, {wall:.0f} s "
                       f"({ladder.seconds / max(ladder.games, 1):.2f} s of CPU a game)")
    head.add_column("match")
    head.add_column("games", justify="right")
    head.add_column("lone level's win rate", justify="right")
    head.add_column("Wilson 95 %", justify="right")
    head.add_column("even share", justify="right")
    for (lone, rest), tally in zip(ladder.pairs, ladder.tallies, strict=True):
        if not tally.games:
            continue
        lo, hi = wilson(tally.lone, tally.games)
        vs = f"{lone} vs {rest}" if n == 2 else f"1 {lone} vs {n - 1} {rest}"
        head.add_row(vs, str(tally.games), f"{tally.lone / tally.games:.1%}", f"{lo:.1%}–{hi:.1%}", f"{1 / n:.1%}")
    levels = Table(title="levels (OpenSkill, Plackett–Luce, as the room rates them)")
    levels.add_column("level")
    levels.add_column("games", justify="right")
    levels.add_column("win share", justify="right")
    levels.add_column("Wilson 95 %", justify="right")
    levels.add_column("rating", justify="right")
    levels.add_column("μ ± σ", justify="right")
    for level in sorted(ladder.level_games, key=lambda lv: -ladder.ratings.get(lv, Rating()).display):
        games = ladder.level_games[level]
        wins = ladder.level_wins[level]
        lo, hi = wilson(min(wins, games), games)
        r = ladder.ratings.get(level, Rating())
        levels.add_row(level, str(games), f"{wins / games:.1%}", f"{lo:.1%}–{hi:.1%}", str(r.display),
                       f"{r.mu:.2f} ± {r.sigma:.2f}")
    levels.caption = "win share: a level's wins over the games it sat in (all its seats together)"
    return [head, levels]


def run(args: argparse.Namespace, console: Console | None = None) -> int:
    console = console or Console()
    players = args.players or default_players(args.game)
    levels = [s.strip() for s in args.bots.split(",") if s.strip()]
    if len(levels) < 2 or len(set(levels)) != len(levels):
        raise ValueError("--bots needs two or more different levels, e.g. search,heuristic,random")
    if args.games < 1:
        raise ValueError("--games must be at least 1")
    options = dict(args.option)
    feltroom.new_game(args.game, players=players, seed=0, options=options)  # checks the options
    check_levels(args.game, players, options, levels)
    seed = args.seed if args.seed is not None else random.randrange(2**53)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    start = time.perf_counter()
    with Progress(*columns, console=console, transient=True) as progress:
        ladder = run_ladder(args.game, players, args.games, levels, seed, options, args.budget, args.jobs, progress)
    for table in tables(ladder, time.perf_counter() - start):
        console.print(table)
    console.print(f"seed {seed} — rerun with --seed {seed} to get the same games")
    return 0


def add_command(sub: Any) -> None:
    from .main import add_game_arguments

    p = sub.add_parser("ladder", help="bot levels against each other: win rates with intervals, ratings")
    add_game_arguments(p)
    p.add_argument("--games", type=int, default=200, help="how many games in all (default 200)")
    p.add_argument("--bots", default="search,heuristic,random",
                   help="the levels, comma-separated (default search,heuristic,random)")
    p.add_argument("--budget", type=int, default=None,
                   help="playouts per decision for the searching levels (default: the lobby's)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1; the figures do not depend on it)")
    p.set_defaults(run=run)
