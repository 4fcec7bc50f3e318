"""Crisp ``search`` spec variants against heuristics, one line per game (paired by seed across variants).

Usage: ``python bench/crisp_variants.py VARIANT --out FILE.jsonl [--players N] [--games G] [--skip K]
[--seed S] [--jobs J] [--minutes M]``, then ``python bench/crisp_variants.py --summary FILE.jsonl ...``.

Plays the games of ``bench/search_strength.py`` (the same seeds, seat rotation and ``--paired`` twin:
heuristic in the searcher's seat on the same deals) with ``SPECS["crisp"]`` swapped in each worker
for a variant, and appends per game the searcher's share, the twin's, the decision CPU times and how
often the search overrode its guide per decision kind. Per game, not only in aggregate, so that two
variants can be compared on the same games. ``--summary`` prints per variant, players and seed the
win rate with its Wilson 95 % interval, the twin's, the paired difference, and the overrides.

A variant is parts joined by ``+``: ``base`` (the spec as it is), a value — ``mean`` (the round's
margin against the others' mean, ``_low_round_value``), ``best`` (against the lowest round gain of the
others), ``lead`` (the change of the deficit to the lowest other total), ``winp`` (a win probability
from the totals after the round, each other seat's lead over the rounds left taken as normal) —,
``noweigh`` (worlds straight from the knowledge, no weighting), ``weighN`` (worlds weighted at
tables of up to N players, ``weigh_players``; ``weigh8`` is the Crisp spec before it was 2),
``missX`` (the weighting's miss factor, ``CRISP_MISS``, for every table), ``fresh`` (``fresh_gate``),
``zX`` (``margin_z``), ``bX`` (budget).
"""

from __future__ import annotations

import argparse
import collections
import copy
import dataclasses
import json
import math
import random
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

import search_strength
from feltroom.bots import search_games
from feltroom.bots.search import SPECS, SearchBot, SearchSpec, win_value
from feltroom.cli.ladder import wilson
from feltroom.game import Game

#: 4 heuristics: the standard deviation of two seats' round score difference, and the highest total's growth a round
PAIR_SD = 8.4
GROWTH = 12.0


def _others(values: list[int] | list[float], seat: int) -> list[float]:
    return [float(v) for i, v in enumerate(values) if i != seat]


def best_value(game: Game, seat: int, mark: list[int]) -> float:
    """The round's margin against the other seat that gained least (lower is better)."""
    if game.is_over:
        return win_value(game, seat, mark)
    gains = [float(a - b) for a, b in zip(game.scores, mark, strict=True)]
    return search_games._clip(0.5 - (gains[seat] - min(_others(gains, seat))) / (2 * search_games.ROUND_SCALE))


def lead_value(game: Game, seat: int, mark: list[int]) -> float:
    """How much the round changed the seat's deficit to the lowest other total."""
    if game.is_over:
        return win_value(game, seat, mark)
    scores = game.scores
    before = mark[seat] - min(_others(mark, seat))
    after = scores[seat] - min(_others(scores, seat))
    return search_games._clip(0.5 - (after - before) / (2 * search_games.ROUND_SCALE))


def winp_value(game: Game, seat: int, mark: list[int]) -> float:
    """A win probability from the totals after the round (each other seat's lead over the rounds left
    is normal, independently)."""
    if game.is_over:
        return win_value(game, seat, mark)
    scores = game.scores
    left = max(1.0, (game.end_limit - max(scores)) / GROWTH)  # type: ignore[attr-defined]
    sd = PAIR_SD * math.sqrt(left)
    p = 1.0
    for other in _others(scores, seat):
        p *= 0.5 * (1 + math.erf((other - scores[seat]) / sd / math.sqrt(2)))
    return p


VALUES = {"mean": search_games._low_round_value, "best": best_value, "lead": lead_value, "winp": winp_value}


def make(variant: str) -> tuple[SearchSpec, float | None]:
    """The spec of ``variant``, and the miss factor it sets (None: as it is)."""
    spec = SPECS["crisp"]
    miss = None
    for part in variant.split("+"):
        if part == "base":
            continue
        if part in VALUES:
            spec = dataclasses.replace(spec, value=VALUES[part])
        elif part == "noweigh":
            spec = dataclasses.replace(spec, weigh=None, pool=0)
        elif part.startswith("weigh"):
            spec = dataclasses.replace(spec, weigh_players=int(part[5:]))
        elif part == "fresh":
            spec = dataclasses.replace(spec, fresh_gate=True)
        elif part.startswith("miss"):
            miss = float(part[4:])
        elif part.startswith("z"):
            spec = dataclasses.replace(spec, margin_z=float(part[1:]))
        elif part.startswith("b"):
            spec = dataclasses.replace(spec, budget=int(part[1:]))
        else:
            raise ValueError(f"unknown variant part {part!r}")
    return spec, miss


#: in a worker: (players, kind, overridden) -> decisions, since the last game
COUNTS: collections.Counter[tuple[int, str, bool]] = collections.Counter()


def init(variant: str) -> None:
    """A worker: the variant's spec, and the search's overrides counted."""
    spec, miss = make(variant)
    SPECS["crisp"] = spec
    if miss is not None:
        search_games.CRISP_MISS = miss
    real = SearchBot.choose

    def choose(self: SearchBot, view: dict[str, Any] | None, legal: list[str]) -> str:
        action = real(self, view, legal)
        if len(legal) > 1:
            first = copy.deepcopy(self.guide).choose(view, legal)
            kind = "crisp" if "crisp" in legal else "queen" if any(a.startswith("queen") for a in legal) \
                else legal[0].split(" ", 1)[0]
            COUNTS[(self.players, kind, action != first)] += 1
        return action

    SearchBot.choose = choose  # type: ignore[method-assign]


def game(seed: int, hero: int, players: int) -> tuple[search_strength.Result, dict[str, list[int]]]:
    result = search_strength.play("crisp", seed, hero, None, None, True, players)
    kinds: dict[str, list[int]] = {}
    for (_, kind, over), n in COUNTS.items():
        kinds.setdefault(kind, [0, 0])[0 if over else 1] += n
    COUNTS.clear()
    return result, kinds


def summary(paths: list[str]) -> None:
    groups: dict[tuple[str, int, int], dict[int, dict[str, Any]]] = collections.defaultdict(dict)
    for path in paths:
        for line in Path(path).read_text().splitlines():
            row = json.loads(line)
            groups[(row["variant"], row["players"], row["seed"])][row["game"]] = row
    for (variant, players, seed), rows in sorted(groups.items()):
        n = len(rows)
        wins = sum(r["share"] for r in rows.values())
        lo, hi = wilson(wins, n)
        d = [r["share"] - r["twin"] for r in rows.values()]
        m = sum(d) / n
        se = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1) / n) if n > 1 else float("nan")
        times = sorted(t for r in rows.values() for t in r["decisions"])
        over: dict[str, list[int]] = {}
        for r in rows.values():
            for kind, (o, k) in r["overrides"].items():
                over.setdefault(kind, [0, 0])
                over[kind][0] += o
                over[kind][1] += o + k
        print(f"{variant} ({players} players, seed {seed}): {n} games {wins / n:.1%} (Wilson 95 % {lo:.1%}–{hi:.1%}); "
              f"heuristic in its seat {sum(r['twin'] for r in rows.values()) / n:.1%}, difference {m:+.1%} ± "
              f"{1.96 * se:.1%}; decisions p50 {times[len(times) // 2]:.3f} s, p95 "
              f"{times[int(0.95 * len(times))]:.3f} s, max {times[-1]:.3f} s of CPU over {len(times)}; overrides "
              + ", ".join(f"{k} {o}/{t}" for k, (o, t) in sorted(over.items())))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", nargs="?")
    parser.add_argument("--out")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--skip", type=int, default=0, help="begin at this game of the seed's sequence")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=None, help="stop submitting new games after this long")
    parser.add_argument("--summary", nargs="+", metavar="FILE")
    args = parser.parse_args()
    if args.summary:
        summary(args.summary)
        return
    if not args.variant or not args.out:
        parser.error("a variant and --out, or --summary")
    make(args.variant)  # fails here, not in a worker
    rng = random.Random(args.seed)
    seeds = [rng.randrange(2**53) for _ in range(args.skip + args.games)]  # search_strength's sequence
    start = time.perf_counter()
    with ProcessPoolExecutor(args.jobs, initializer=init, initargs=(args.variant,)) as pool, \
            open(args.out, "a") as out:
        queued = iter(range(args.skip, args.skip + args.games))
        running: dict[Future[tuple[search_strength.Result, dict[str, list[int]]]], int] = {}
        while True:
            while len(running) < args.jobs and (args.minutes is None
                                                or time.perf_counter() - start < args.minutes * 60):
                g = next(queued, -1)
                if g < 0:
                    break
                running[pool.submit(game, seeds[g], g % args.players, args.players)] = g
            if not running:
                break
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                g = running.pop(future)
                (share, cpu, decisions, twin), kinds = future.result()
                out.write(json.dumps({"variant": args.variant, "players": args.players, "seed": args.seed, "game": g,
                                      "share": share, "twin": twin, "cpu": round(cpu, 3),
                                      "decisions": [round(t, 4) for t in decisions], "overrides": kinds}) + "\n")
                out.flush()


if __name__ == "__main__":
    main()
