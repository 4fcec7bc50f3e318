"""Heads-up strength of the ``search`` level against ``heuristic``, and the omniscient measuring stick.

Usage: ``python bench/search_strength.py GAME [--games G] [--budget B] [--players N] [--omniscient fair|full]
[--paired] [--jobs J] [--seed S] [--start K] [--minutes M] [--every K] [--out FILE.jsonl]``, and
``python bench/search_strength.py GAME [--players N] --summary FILE.jsonl ...``

Seat-rotated games (2 players unless ``--players``: then one search seat among N − 1 heuristics,
its seat rotating), search against the game's heuristic, or with ``--omniscient`` the
same search given more than its seat knows — a measuring stick of how much a game's luck leaves
to skill, never a bot level:

- ``--omniscient fair``: every world holds every hand, the crib or capture piles and the past
  exactly as they are, but the cards not yet dealt or turned (Cribbage's starter before it is
  cut and the rest of the pack; Krypkasino's stock; Crisp's draw pile) are drawn afresh in each world, uniformly
  from the cards no one holds, and the world's own future deals get a fresh seed. It knows
  what a player who saw every card on the table would know, not the cards to come.
- ``--omniscient full``: every world is the true state copied, the cards to come included
  (Cribbage's starter is drawn at the deal, Krypkasino's stock is in order), so it overstates
  what skill can win. ``--omniscient`` alone means ``full`` (as before ``fair`` existed).

Ties count half (a win shared by k, 1/k). Prints the win rate with a Wilson 95 % interval, the
games played, CPU seconds, the search's decision CPU time (p50/p95/max over its decisions with
more than one legal action), and the load. The same seed gives the same games for all three, so the figures
compare like with like. ``--start K`` skips a seed's first K games (a run stopped after K games
goes on with the next ones, seats still rotated by the game's number), and ``--out`` writes one
JSON line per game (its number, seed, the searcher's seat and share, and the paired share), so
that runs can be pooled exactly: ``--summary`` reads such files (a game met twice, the same seed
and number, counts once) and prints the pooled win rate, its interval and the paired difference.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, TypeVar

import feltroom
from feltroom.bots import make_bot
from feltroom.bots.search import SearchBot
from feltroom.cards import parse_card
from feltroom.cli.ladder import wilson
from feltroom.dealing import dealer_for
from feltroom.fastgame import FastGame
from feltroom.game import CLOCK, Event, Game
from feltroom.knowledge import Knowledge, sample_seed
from feltroom.views import events_for


def _crib_redraw(game: Any, rng: random.Random) -> None:
    """Cribbage: the starter, if not yet cut, drawn from the cards no hand, crib or play holds."""
    if game.starter is None:
        held = {c for h in game.hands for c in h}
        held.update(parse_card(card) for _, card in game.played)
        held.update(game.crib)
        game.next_starter = rng.choice([c for c in range(52) if c not in held])


def _kryp_redraw(game: Any, rng: random.Random) -> None:
    """Krypkasino: the stock shuffled afresh (its cards are the ones no hand, table or pile holds)."""
    rng.shuffle(game.stock)


def _crisp_redraw(game: Any, rng: random.Random) -> None:
    """Crisp: the draw pile shuffled afresh (its cards are the ones no hand, discard pile or drawn card holds)."""
    rng.shuffle(game.deck)


#: game -> how a fair world redraws the cards to come, in place, on a copy of the true state
REDRAW: dict[str, Callable[[Any, random.Random], None]] = {
    "cribbage": _crib_redraw, "crisp": _crisp_redraw, "krypkasino": _kryp_redraw}


class TrueState(Knowledge):
    """Not a knowledge: the real game (the omniscient stick; bench only).

    ``fair``: a copy with the cards to come redrawn per world and the world's future deals
    reseeded (``REDRAW``); otherwise the true state copied, future cards and all.
    """

    def __init__(self, game: str, seat: int, players: int, fair: bool = False) -> None:
        super().__init__(seat, players)
        if fair and game not in REDRAW:
            raise ValueError(f"no fair omniscient stick for {game!r}: {', '.join(sorted(REDRAW))}")
        self.game = game  # type: ignore[misc]
        self.fair = fair
        self.truth: Game | None = None

    def observe(self, events: list[Event]) -> None:  # type: ignore[override]
        pass

    def sample(self, rng: random.Random) -> Game:
        assert self.truth is not None
        real = self.truth._ref_now() if isinstance(self.truth, FastGame) else self.truth
        world = real.copy()
        if self.fair:
            REDRAW[self.game](world, rng)
            world.rng = dealer_for(world.format, sample_seed(rng))
        return world


#: one game's result: the searcher's share of the win, CPU seconds, its decisions' CPU seconds, and
#: with ``--paired`` the share of heuristic in the same seat on the same deals
Result = tuple[float, float, list[float], float | None]


def play(name: str, seed: int, hero: int, budget: int | None, omniscient: str | None,
         paired: bool = False, players: int = 2) -> Result:
    """One game: (the searcher's share of the win, CPU seconds, the searcher's decision CPU seconds,
    and with ``paired`` the share of ``heuristic`` in the searcher's seat in the game of the same
    seed: the same deals, since a hand's shuffle does not depend on the play)."""
    start = time.process_time()
    share, decisions = one_game(name, seed, hero, "search", budget, omniscient, players)
    cpu = time.process_time() - start
    twin = one_game(name, seed, hero, "heuristic", None, None, players)[0] if paired else None
    return share, cpu, decisions, twin


def one_game(name: str, seed: int, hero: int, level: str, budget: int | None, omniscient: str | None,
             players: int = 2) -> tuple[float, list[float]]:
    """One game of ``level`` in seat ``hero`` against heuristics: ``hero``'s share of the win, and the
    CPU seconds of its decisions that had more than one legal action."""
    rng = random.Random(seed)
    game = feltroom.new_game(name, players=players, seed=rng.randrange(2**53))
    bots = [make_bot(level, name, s, players, game.options, rng.randrange(2**32),
                     **({"budget": budget} if level == "search" else {})) if s == hero
            else make_bot("heuristic", name, s, players, game.options, rng.randrange(2**32))
            for s in range(players)]
    truth = TrueState(name, hero, players, fair=omniscient == "fair") if omniscient else None
    if truth is not None:
        searcher = bots[hero]
        assert isinstance(searcher, SearchBot)
        searcher.knowledge = truth
    seen = [0] * players
    decisions: list[float] = []
    while not game.is_over:
        if not game.to_act:
            game.apply(CLOCK, game.legal_actions(CLOCK)[0])
            continue
        seat = game.to_act[0]
        bot = bots[seat]
        bot.observe(events_for(game.log[seen[seat]:], seat))
        seen[seat] = len(game.log)
        if truth is not None:
            truth.truth = game
        legal = game.legal_actions(seat)
        clock = time.process_time()
        action = bot.choose(game.view(seat), legal)
        if seat == hero and len(legal) > 1:
            decisions.append(time.process_time() - clock)
        game.apply(seat, action)
    return (0.0 if hero not in game.winners else 1.0 / len(game.winners)), decisions


def run_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that choose and pace a run's games, the same in every strength bench."""
    parser.add_argument("--games", type=int, default=100, help="the seed's games 0 to GAMES - 1")
    parser.add_argument("--start", type=int, default=0, help="skip the seed's first K games (to go on with a run)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=None, help="stop submitting new games after this long")


def game_seeds(seed: int, games: int) -> list[int]:
    """The seed's sequence of game seeds: game ``g`` is the same game in every run and bench of that seed."""
    rng = random.Random(seed)
    return [rng.randrange(2**53) for _ in range(games)]


T = TypeVar("T")


def run_games(work: Callable[..., T], args_of: Callable[[int], tuple[Any, ...]], games: range, jobs: int,
              minutes: float | None, on_result: Callable[[int, T], None],
              initializer: Callable[..., None] | None = None, initargs: tuple[Any, ...] = ()) -> None:
    """Play ``work(*args_of(g))`` for each game number ``g`` of ``games`` on ``jobs`` processes and hand each
    result to ``on_result`` as it ends; after ``minutes`` no new game starts (those in flight end).

    Games are submitted as others end, at most ``jobs`` in flight: a pool marks every queued call running,
    so had all been submitted at once, ``cancel`` could not stop them and ``minutes`` would go unheeded.
    """
    start = time.perf_counter()
    with ProcessPoolExecutor(jobs, initializer=initializer, initargs=initargs) as pool:
        queued = iter(games)
        running: dict[Future[T], int] = {}
        while True:
            while len(running) < jobs and (minutes is None or time.perf_counter() - start < minutes * 60):
                g = next(queued, None)
                if g is None:
                    break
                running[pool.submit(work, *args_of(g))] = g
            if not running:
                break
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                on_result(running.pop(future), future.result())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--budget", type=int, default=None)
    parser.add_argument("--players", type=int, default=2, help="one search seat among PLAYERS - 1 heuristics")
    parser.add_argument("--omniscient", nargs="?", const="full", choices=["fair", "full"], default=None,
                        help="the measuring stick: fair (hands seen, cards to come redrawn) or full (the true state)")
    run_arguments(parser)
    parser.add_argument("--paired", action="store_true",
                        help="also play heuristic in the searcher's seat on the same seeds (the same deals) and "
                             "report the paired difference")
    parser.add_argument("--every", type=int, default=0, help="also report after every N games")
    parser.add_argument("--out", default=None, help="append one JSON line per game to this file")
    parser.add_argument("--summary", nargs="+", default=None, metavar="FILE",
                        help="pool the games of these --out files instead of playing")
    args = parser.parse_args()
    if args.summary:
        print(summary(args.game, args.players, args.summary))
        return
    seeds = game_seeds(args.seed, args.games)
    start = time.perf_counter()
    load = [os.getloadavg()[0]]
    results: list[Result] = []

    def ended(g: int, result: Result) -> None:
        results.append(result)
        if args.out:
            share, cpu, _, twin = result
            with open(args.out, "a") as out:
                out.write(json.dumps({"name": args.game, "players": args.players, "budget": args.budget,
                                      "game": g, "seed": seeds[g], "hero": g % args.players, "share": share,
                                      "cpu": round(cpu, 3), "twin": twin}) + "\n")
        load.append(os.getloadavg()[0])
        if args.every and len(results) % args.every == 0:
            report(args, results, start, load)

    run_games(play, lambda g: (args.game, seeds[g], g % args.players, args.budget, args.omniscient, args.paired,
                               args.players), range(args.start, args.games), args.jobs, args.minutes, ended)
    report(args, results, start, load)


def report(args: argparse.Namespace, results: list[Result], start: float, load: list[float]) -> None:
    n = len(results)
    wins = sum(r[0] for r in results)
    lo, hi = wilson(wins, n)
    times = sorted(t for r in results for t in r[2])
    p50, p95, top = (times[int(0.5 * len(times))], times[min(len(times) - 1, int(0.95 * len(times)))],
                     times[-1]) if times else (0.0, 0.0, 0.0)
    who = f"omniscient ({args.omniscient}) search" if args.omniscient else "search"
    versus = "heuristic" if args.players == 2 else f"{args.players - 1} heuristics"
    print(f"{args.game}: {who} (budget {args.budget or 'lobby'}) vs {versus}, {n} seat-rotated games: "
          f"{wins / max(n, 1):.1%} (Wilson 95 % {lo:.1%}–{hi:.1%}); "
          f"{sum(r[1] for r in results):.0f} s of CPU (the searcher's games), "
          f"search decisions p50 {p50:.3f} s, p95 {p95:.3f} s, max {top:.3f} s of CPU over {len(times)}, "
          f"{time.perf_counter() - start:.0f} s wall, load {min(load):.1f}–{max(load):.1f}", flush=True)
    twins = [(r[0], r[3]) for r in results if r[3] is not None]
    if len(twins) > 1:
        print(paired_report(twins, 1 / args.players), flush=True)


def summary(name: str, players: int, paths: list[str]) -> str:
    """The pooled result of ``--out`` files: each game (seed, number) once; games of another game
    name or table size (where the lines say) are refused, not mixed in."""
    games: dict[tuple[int, int], dict[str, Any]] = {}
    for path in paths:
        with open(path) as lines:
            for line in lines:
                row = json.loads(line)
                if row.get("name", name) != name or row.get("players", players) != players:
                    raise SystemExit(f"{path}: a game of {row.get('name')} with {row.get('players')} players, "
                                     f"not {name} with {players}")
                games[row["seed"], row["game"]] = row
    n = len(games)
    wins = sum(row["share"] for row in games.values())
    lo, hi = wilson(wins, n)
    text = (f"{name}, {players} players: search won {wins:g} of {n} seat-rotated games, {wins / max(n, 1):.1%} "
            f"(Wilson 95 % {lo:.1%}–{hi:.1%}), from {len(paths)} file(s)")
    twins = [(row["share"], row["twin"]) for row in games.values() if row.get("twin") is not None]
    if len(twins) > 1:
        text += "\n" + paired_report(twins, 1 / players)
    return text


def mean_se(d: list[float]) -> tuple[float, float]:
    """The mean of ``d`` and its standard error (nan for fewer than two)."""
    n = len(d)
    m = sum(d) / n
    return m, math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1) / n) if n > 1 else float("nan")


def paired_report(twins: list[tuple[float, float]], even: float = 0.5) -> str:
    """The searcher's share minus heuristic's in the same seat on the same deals, with its standard error.

    Heuristic against heuristics wins ``even`` (1 / players) in expectation (seat-rotated, the same
    policy in every seat), so ``even + mean(d)`` estimates the searcher's win rate with the deals'
    luck partly cancelled (a control variate): its standard error is below the plain one's when the
    paired outcomes correlate above 0.5.
    """
    n = len(twins)
    d = [s - t for s, t in twins]
    m, se = mean_se(d)
    ms = sum(s for s, _ in twins) / n
    mt = sum(t for _, t in twins) / n
    vs = sum((s - ms) ** 2 for s, _ in twins) / (n - 1)
    vt = sum((t - mt) ** 2 for _, t in twins) / (n - 1)
    cov = sum((s - ms) * (t - mt) for s, t in twins) / (n - 1)
    rho = cov / math.sqrt(vs * vt) if vs > 0 and vt > 0 else float("nan")
    plain = math.sqrt(ms * (1 - ms) / n)
    return (f"paired on the same deals: heuristic in the searcher's seat {mt:.1%}; search − heuristic "
            f"{m:+.1%} ± {1.96 * se:.1%} (95 %), so {even:.0%} + difference = {even + m:.1%} "
            f"(95 % {even + m - 1.96 * se:.1%}–{even + m + 1.96 * se:.1%}; standard error {se:.1%} against the plain "
            f"{plain:.1%}; outcome correlation {rho:.2f}; the outcomes differ in {sum(1 for x in d if x):d} of {n} "
            "pairs)")


if __name__ == "__main__":
    main()
