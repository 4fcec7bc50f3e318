"""``feltroom sim``: many bot games, a progress bar, and a summary per bot level."""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

import feltroom
from feltroom.bots import make_bot
from feltroom.bots.runner import play_out
from feltroom.server.archive import archive_bot_game
from feltroom.server.store import Store, open_store

from .support import check_levels, default_players, game_support


def seat_levels(spec: str, players: int) -> list[str]:
    """Levels by seat from ``a,b,…``; the last one fills the remaining seats.

    >>> seat_levels("heuristic,random", 4)
    ['heuristic', 'random', 'random', 'random']
    """
    levels = [s.strip() for s in spec.split(",") if s.strip()]
    if not levels:
        raise ValueError("--bots needs at least one level")
    if len(levels) > players:
        raise ValueError(f"{len(levels)} bot levels for {players} seats")
    return levels + [levels[-1]] * (players - len(levels))


@dataclass
class Summary:
    """Figures per bot entry (``level`` or ``level#k`` when a level plays several seats)."""

    games: int = 0
    actions: int = 0
    seat_games: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    wins: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    score: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    extra: dict[str, dict[str, list[float]]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(list)))

    def add(self, game: feltroom.Game, levels: list[str], stats: dict[str, list[Any]]) -> None:
        self.games += 1
        self.actions += len(game.actions)
        for seat, level in enumerate(levels):
            self.seat_games[level] += 1
            self.wins[level] += seat in game.winners
            self.score[level] += game.scores[seat]
            for name, values in stats.items():
                if values[seat] is not None:
                    self.extra[name][level].append(float(values[seat]))


def simulate(name: str, players: int, games: int, levels: list[str], seed: int,
             options: dict[str, Any], progress: Progress | None = None, store: Store | None = None) -> Summary:
    """Play ``games`` bot games; with a ``store``, each is kept there as the room keeps its games
    (a record, each seat's result, the bot levels' new ratings)."""
    support = game_support(name)
    stats_of = getattr(support, "sim_stats", None)
    summary = Summary()
    rng = random.Random(seed)
    task = progress.add_task(f"{name} ×{games}", total=games) if progress else None
    for g in range(games):
        shift = g % players
        seated = levels[-shift:] + levels[:-shift] if shift else list(levels)
        game = feltroom.new_game(name, players=players, seed=rng.randrange(2**53), options=options)
        bots = [make_bot(level, name, seat, players, game.options, rng.randrange(2**32))
                for seat, level in enumerate(seated)]
        started = time.time()
        play_out(game, bots)
        if store is not None:
            archive_bot_game(store, game, seated, started, time.time())
        summary.add(game, seated, stats_of(game, seated) if stats_of else {})
        if progress is not None and task is not None:
            progress.advance(task)
    return summary


def summary_table(name: str, players: int, summary: Summary, seconds: float) -> Table:
    levels = sorted(summary.seat_games)
    table = Table(title=f"{name}, {players} players, {summary.games} games in {seconds:.1f} s "
                        f"(mean length {summary.actions / max(summary.games, 1):.1f} actions)")
    table.add_column("bot")
    table.add_column("seat-games", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("mean final score", justify="right")
    extras = sorted(summary.extra)
    for name_ in extras:
        table.add_column(name_, justify="right")
    for level in levels:
        n = summary.seat_games[level]
        row = [level, str(n), f"{summary.wins[level] / n:.1%}", f"{summary.score[level] / n:.2f}"]
        for name_ in extras:
            values = summary.extra[name_].get(level, [])
            row.append(f"{sum(values) / len(values):.3g}" if values else "—")
        table.add_row(*row)
    table.caption = f"an even share of wins would be {1 / players:.1%} per seat; ties count as wins for each winner"
    return table


def plot(summary: Summary, path: str, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    levels = sorted(summary.seat_games)
    rates = [summary.wins[lv] / summary.seat_games[lv] for lv in levels]
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.bar(levels, rates, color="#2e7d32")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    for x, rate in enumerate(rates):
        ax.text(x, rate + 0.02, f"{rate:.1%}", ha="center")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def run(args: argparse.Namespace, console: Console | None = None) -> int:
    console = console or Console()
    players = args.players or default_players(args.game)
    levels = seat_levels(args.bots, players)
    feltroom.new_game(args.game, players=players, seed=0, options=dict(args.option))  # checks the options
    check_levels(args.game, players, dict(args.option), levels)
    seed = args.seed if args.seed is not None else random.randrange(2**53)
    start = time.perf_counter()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    store = open_store(args.db) if args.db else None
    try:
        with Progress(*columns, console=console, transient=True) as progress:
            summary = simulate(args.game, players, args.games, levels, seed, dict(args.option), progress, store)
    finally:
        if store is not None:
            store.close()
    seconds = time.perf_counter() - start
    console.print(summary_table(args.game, players, summary, seconds))
    console.print(f"seed {seed} — rerun with --seed {seed} to get the same games")
    if args.db:
        console.print(f"games and ratings stored in {args.db} (see GET /api/leaderboard/{args.game})")
    if args.plot:
        try:
            plot(summary, args.plot, f"{args.game}, {players} players: win rate by bot")
        except ImportError:
            raise ValueError("--plot needs matplotlib: .venv/bin/pip install 'feltroom[bench]'") from None
        console.print(f"chart saved to {args.plot}")
    return 0
