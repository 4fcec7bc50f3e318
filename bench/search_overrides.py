"""Per-decision diagnostics of the ``search`` level's overrides: paired, on the same positions.

Usage: ``python bench/search_overrides.py GAME [--games G] [--minutes M] [--ref R] [--variants V,...]``

Heads-up games of two heuristics; at every decision of seat 0 with more than one legal action
(a Cribbage claim excepted: the search trusts it), each variant of the search is asked from the
same bot state (the same knowledge, the same seed), so the variants are compared on the same
positions. Where some variant plays another action than the heuristic, every action chosen is
valued afresh on ``R`` worlds drawn from the seat's knowledge (a separate rng; every action in
the same worlds with the same playout seeds), and a variant's gain at the decision is the
reference value of its choice minus the heuristic's. Prints per variant and decision kind the
decisions, the overrides, the mean gain per decision (and per override) with its standard error,
in value units (Cribbage: 1 = 60 points of hand margin, or a whole game won within the hand).

This measures the search against its own evaluation (the spec's horizon and value, heuristic
playouts), with the selection's noise and bias removed, not whether that evaluation wins games:
a win-rate bench (``search_strength.py``) decides that.

``--truth`` values the actions in the true state instead (a bench may look at it; the bots never
do): the heuristic continues from each action to the spec's horizon in a copy of the real game, so
the gain is what the override is worth given every hidden card, with the game's own future. A
Cribbage playout draws nothing (the heuristic is deterministic), so one playout values an action,
and a decision before the cut is valued over every starter the game could cut
(``search_games._crib_starters_value``): the gain is then exact, given the hands, for the
heuristic's play from there on. This reads what the honest search's worlds cannot: how close its
choices come to the ones a player who saw the cards in play would make.

A variant is ``BUDGET`` with optional parts after colons: ``nN`` (``min_worlds``) or any part of
``bench/search_variants.py``'s variants (``fresh``, ``zX``, for Cribbage ``plain``, ``redeal``,
``starters``, ``weigh``, ``missX``, ``poolN``, ``cluster`` …), e.g.
``180,180:fresh,300:fresh:z1.0,400:plain,400:plain:redeal:starters``.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import math
import os
import random
import re
import time

import feltroom
import search_variants
from feltroom.bots import make_bot, search_games
from feltroom.bots.search import SPECS, SearchBot, SearchSpec, mean
from feltroom.fastgame import FastGame
from feltroom.game import CLOCK
from feltroom.views import events_for


def parse_variant(name: str, text: str) -> tuple[int, SearchSpec, dict[str, float]]:
    """``BUDGET[:PART...]``: the budget, the spec and the ``search_games`` constants it sets. ``nN`` is
    ``min_worlds``; every other part is one of ``search_variants.py``'s (read there, one meaning)."""
    budget, *flags = text.split(":")
    min_worlds = [int(f[1:]) for f in flags if re.fullmatch(r"n\d+", f)]
    parts = [f for f in flags if not re.fullmatch(r"n\d+", f)]
    spec, constants = search_variants.make(name, "+".join(["base", *parts]))
    if min_worlds:
        spec = dataclasses.replace(spec, min_worlds=min_worlds[-1])
    return int(budget), spec, constants


def report(name: str, played: int, decisions: int, ref: str, start: float, load: list[float],
           gains: dict[str, dict[str, list[tuple[float, bool]]]]) -> None:
    print(f"{name}: {played} games, {decisions} decisions of seat 0, reference {ref}, "
          f"{time.perf_counter() - start:.0f} s wall, load {min(load):.1f}–{max(load):.1f}", flush=True)
    for label, by_kind in gains.items():
        for kind, rows in sorted(by_kind.items()):
            n = len(rows)
            g = [x for x, _ in rows]
            m = sum(g) / n
            se = math.sqrt(sum((x - m) ** 2 for x in g) / (n - 1) / n) if n > 1 else float("nan")
            over = [x for x, o in rows if o]
            per = sum(over) / len(over) if over else 0.0
            bad = sum(1 for x in over if x < 0)
            print(f"  {label:>16} {kind:>8}: {n:4d} decisions, {len(over):3d} overrides ({bad} valued worse); "
                  f"gain/decision {m * 1000:+.2f} ± {se * 1000:.2f} milli, per override {per * 1000:+.1f} milli",
                  flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--minutes", type=float, default=None)
    parser.add_argument("--ref", type=int, default=300, help="worlds per reference valuation")
    parser.add_argument("--variants", default="180,180:fresh,300,300:fresh")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--every", type=int, default=0, help="also report after every N games")
    parser.add_argument("--truth", action="store_true",
                        help="value the actions in the true state (Cribbage: one playout, over every starter "
                             "before the cut) instead of on --ref worlds from the seat's knowledge")
    args = parser.parse_args()
    name = args.game
    base = SPECS.get(name) or SearchSpec()
    variants = [(v, *parse_variant(name, v)) for v in args.variants.split(",")]
    rng = random.Random(args.seed)
    start = time.perf_counter()
    load = [os.getloadavg()[0]]
    # variant -> kind -> list of (gain, overridden)
    gains: dict[str, dict[str, list[tuple[float, bool]]]] = {v: {} for v, _, _, _ in variants}
    decisions = 0
    played = 0
    reference = "the true state" if args.truth else f"{args.ref} worlds"
    while played < args.games and (args.minutes is None or time.perf_counter() - start < args.minutes * 60):
        game = feltroom.new_game(name, players=2, seed=rng.randrange(2**53))
        searcher = make_bot("search", name, 0, 2, game.options, rng.randrange(2**32))
        assert isinstance(searcher, SearchBot)
        other = make_bot("heuristic", name, 1, 2, game.options, rng.randrange(2**32))
        seen = [0, 0]
        while not game.is_over:
            if not game.to_act:
                game.apply(CLOCK, game.legal_actions(CLOCK)[0])
                continue
            seat = game.to_act[0]
            legal = game.legal_actions(seat)
            view = game.view(seat)
            events = events_for(game.log[seen[seat]:], seat)
            seen[seat] = len(game.log)
            if seat == 1:
                other.observe(events)
                game.apply(seat, other.choose(view, legal))
                continue
            searcher.observe(events)
            if len(legal) == 1 or base.trust(legal):
                game.apply(seat, searcher.guide.choose(view, legal))
                continue
            decisions += 1
            searcher.rng.getrandbits(64)  # a fresh seed per decision, shared by the variants
            first = copy.deepcopy(searcher.guide).choose(view, legal)
            choices: dict[str, str] = {}
            for label, budget, spec, constants in variants:
                bot = copy.deepcopy(searcher)
                bot.budget = budget
                SPECS[name] = spec
                try:
                    with search_variants.constants_set(constants):
                        choices[label] = bot.choose(view, legal)
                finally:
                    SPECS[name] = base
            kind = search_variants.kind_of(name, legal)
            chosen = sorted(set(choices.values()) - {first})
            ref: dict[str, float] = {first: 0.0}
            if chosen and args.truth:
                probe = copy.deepcopy(searcher)
                real = game._ref_now() if isinstance(game, FastGame) else game
                if name == "cribbage":
                    SPECS[name] = dataclasses.replace(base, value=search_games._crib_starters_value)
                try:
                    tries = 1 if name == "cribbage" else args.ref
                    seeds = [rng.getrandbits(32) for _ in range(tries)]
                    ref = {a: mean([probe.playout(real.copy(), a, random.Random(seed)) for seed in seeds])
                           for a in [first, *chosen]}
                finally:
                    SPECS[name] = base
            elif chosen:
                probe = copy.deepcopy(searcher)
                assert probe.knowledge is not None
                probe.knowledge.see(view)
                wrng = random.Random(rng.getrandbits(64))
                vals: dict[str, list[float]] = {a: [] for a in [first, *chosen]}
                for _ in range(args.ref):
                    world = probe.knowledge.sample(wrng)
                    seed = wrng.getrandbits(32)
                    for a in vals:
                        vals[a].append(probe.playout(world.copy(), a, random.Random(seed)))
                ref = {a: mean(v) for a, v in vals.items()}
            for label, choice in choices.items():
                gains[label].setdefault(kind, []).append((ref[choice] - ref[first], choice != first))
            game.apply(seat, searcher.guide.choose(view, legal))
        played += 1
        load.append(os.getloadavg()[0])
        if args.every and played % args.every == 0:
            report(name, played, decisions, reference, start, load, gains)
    report(name, played, decisions, reference, start, load, gains)

if __name__ == "__main__":
    main()
