"""Cribbage ``search`` spec variants against ``heuristic`` heads-up, one line per game (paired by seed).

Usage: ``python bench/cribbage_variants.py VARIANT --out FILE.jsonl [--games G] [--skip K] [--seed S]
[--jobs J] [--minutes M]``, then ``python bench/cribbage_variants.py --summary FILE.jsonl ... [--against A]``.

Plays the games of ``bench/search_strength.py cribbage --paired`` (the same seeds, seat rotation and
twin: heuristic in the searcher's seat on the same deals) with ``SPECS["cribbage"]`` swapped in each
worker for a variant, and appends per game the searcher's share, the twin's, the decision CPU times,
the search's overrides of its guide (discards and plays) and, for a weighted variant, each weighted
decision's effective number of worlds in its pool ((Σw)² / Σw²). ``--summary`` prints per variant the
win rate with its Wilson 95 % interval, the twin's and the paired difference, and with ``--against A``
each variant minus variant ``A`` on the games both played (the same deals and seats).

A variant is parts joined by ``+``: ``base`` (the lobby's spec), ``weigh`` (worlds weighted by the
other seat's choices, ``search_games.CRIB_WEIGHED``), ``missX`` (its miss factor, ``CRIB_MISS``),
``poolN`` (its pool), ``zX`` (``margin_z``), ``bX`` (budget).
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
from feltroom.bots.search import SPECS, SearchBot, SearchSpec
from feltroom.cli.ladder import wilson


def make(variant: str) -> tuple[SearchSpec, float | None]:
    """The spec of ``variant``, and the miss factor it sets (None: as it is)."""
    spec = SPECS["cribbage"]
    miss = None
    for part in variant.split("+"):
        if part == "base":
            continue
        if part == "weigh":
            spec = dataclasses.replace(spec, weigh=search_games.CRIB_WEIGHED.weigh, pool=search_games.CRIB_WEIGHED.pool,
                                       weigh_players=search_games.CRIB_WEIGHED.weigh_players)
        elif part.startswith("miss"):
            miss = float(part[4:])
        elif part.startswith("pool"):
            spec = dataclasses.replace(spec, pool=int(part[4:]))
        elif part.startswith("z"):
            spec = dataclasses.replace(spec, margin_z=float(part[1:]))
        elif part.startswith("b"):
            spec = dataclasses.replace(spec, budget=int(part[1:]))
        else:
            raise ValueError(f"unknown variant part {part!r}")
    return spec, miss


#: in a worker, since the last game: (kind, overridden) -> decisions; and the weighted pools' effective sizes
COUNTS: collections.Counter[tuple[str, bool]] = collections.Counter()
ESS: list[float] = []


def init(variant: str) -> None:
    """A worker: the variant's spec, the search's overrides counted and its pools' effective sizes kept."""
    spec, miss = make(variant)
    SPECS["cribbage"] = spec
    if miss is not None:
        search_games.CRIB_MISS = miss
    weigh = spec.weigh
    if weigh is not None:
        pool: list[float] = []

        def spy(world: Any, seat: int) -> float:
            w = weigh(world, seat)
            pool.append(w)
            if len(pool) == spec.pool:
                ESS.append(sum(pool) ** 2 / sum(x * x for x in pool))
                pool.clear()
            return w

        SPECS["cribbage"] = dataclasses.replace(spec, weigh=spy)
    real = SearchBot.choose

    def choose(self: SearchBot, view: dict[str, Any] | None, legal: list[str]) -> str:
        action = real(self, view, legal)
        if len(legal) > 1:
            first = copy.deepcopy(self.guide).choose(view, legal)
            COUNTS[(legal[0].split(" ", 1)[0], action != first)] += 1
        return action

    SearchBot.choose = choose  # type: ignore[method-assign]


def game(seed: int, hero: int) -> tuple[search_strength.Result, dict[str, list[int]], list[float]]:
    result = search_strength.play("cribbage", seed, hero, None, None, True, 2)
    kinds: dict[str, list[int]] = {}
    for (kind, over), n in COUNTS.items():
        kinds.setdefault(kind, [0, 0])[0 if over else 1] += n
    COUNTS.clear()
    ess = list(ESS)
    ESS.clear()
    return result, kinds, ess


def _diff(d: list[float]) -> str:
    n = len(d)
    m = sum(d) / n
    se = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1) / n) if n > 1 else float("nan")
    return f"{m:+.1%} (standard error {se:.1%}; 95 % ± {1.96 * se:.1%}; differ in {sum(1 for x in d if x)} of {n})"


def summary(paths: list[str], against: str | None) -> None:
    groups: dict[tuple[str, int], dict[int, dict[str, Any]]] = collections.defaultdict(dict)
    for path in paths:
        for line in Path(path).read_text().splitlines():
            row = json.loads(line)
            groups[(row["variant"], row["seed"])][row["game"]] = row
    for (variant, seed), rows in sorted(groups.items()):
        n = len(rows)
        wins = sum(r["share"] for r in rows.values())
        lo, hi = wilson(wins, n)
        times = sorted(t for r in rows.values() for t in r["decisions"])
        over: dict[str, list[int]] = {}
        for r in rows.values():
            for kind, (o, k) in r["overrides"].items():
                over.setdefault(kind, [0, 0])
                over[kind][0] += o
                over[kind][1] += o + k
        ess = sorted(x for r in rows.values() for x in r.get("ess", []))
        line = (f"{variant} (seed {seed}): {n} games {wins / n:.1%} (Wilson 95 % {lo:.1%}–{hi:.1%}); heuristic in "
                f"its seat {sum(r['twin'] for r in rows.values()) / n:.1%}, search − heuristic "
                f"{_diff([r['share'] - r['twin'] for r in rows.values()])}; "
                f"decisions p50 {times[len(times) // 2]:.3f} s, "
                f"p95 {times[int(0.95 * len(times))]:.3f} s, max {times[-1]:.3f} s of CPU over {len(times)}; overrides "
                + ", ".join(f"{k} {o}/{t}" for k, (o, t) in sorted(over.items())))
        if ess:
            line += (f"; effective worlds per pool median {ess[len(ess) // 2]:.1f}, p10 {ess[len(ess) // 10]:.1f}, "
                     f"min {ess[0]:.1f} over {len(ess)} decisions")
        print(line)
        base = groups.get((against, seed)) if against else None
        if base and variant != against:
            both = sorted(set(rows) & set(base))
            if len(both) > 1:
                print(f"  {variant} − {against} on the same {len(both)} games: "
                      f"{_diff([rows[g]['share'] - base[g]['share'] for g in both])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", nargs="?")
    parser.add_argument("--out")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--skip", type=int, default=0, help="begin at this game of the seed's sequence")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=None, help="stop submitting new games after this long")
    parser.add_argument("--summary", nargs="+", metavar="FILE")
    parser.add_argument("--against", help="with --summary: each variant minus this one on the same games")
    args = parser.parse_args()
    if args.summary:
        summary(args.summary, args.against)
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
        running: dict[Future[tuple[search_strength.Result, dict[str, list[int]], list[float]]], int] = {}
        while True:
            while len(running) < args.jobs and (args.minutes is None
                                                or time.perf_counter() - start < args.minutes * 60):
                g = next(queued, -1)
                if g < 0:
                    break
                running[pool.submit(game, seeds[g], g % 2)] = g
            if not running:
                break
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                g = running.pop(future)
                (share, cpu, decisions, twin), kinds, ess = future.result()
                out.write(json.dumps({"variant": args.variant, "seed": args.seed, "game": g, "share": share,
                                      "twin": twin, "cpu": round(cpu, 3), "decisions": [round(t, 4) for t in decisions],
                                      "overrides": kinds, "ess": [round(x, 1) for x in ess]}) + "\n")
                out.flush()


if __name__ == "__main__":
    main()
