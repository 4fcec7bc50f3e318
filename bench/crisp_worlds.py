"""How near the search's Crisp worlds put the others' totals to the truth, by world model (#15).

Plays heuristic games (seat ``i mod players`` watched in game ``i``, seeds from ``--seed``); at each
crisp window of the watched seat, draws ``--worlds`` worlds from its knowledge with each model and
compares every other seat's total (CRISP-SCORE-1: the sum of its three cards) in the worlds' mean with
the true one; and at each of its decisions in a last turn (CRISP-CALL-3), the declarer's. Prints, per
model, the mean of (worlds − truth), the bias, and of its absolute value. The models: ``uniform`` (the
knowledge's sample, what the lobby's search drew with 3+ players until 5 December 2026), ``below`` and ``kept``
(``search_games._crisp_below`` and ``_crisp_below_kept``: the cards the others swapped in, and kept,
held below what they let go) and ``declared`` (``_crisp_below_declared``: ``kept``, and the declarer's
cards worth at most what the heuristic declares at; the lobby's with 3+ players since).

    .venv/bin/python bench/crisp_worlds.py [--games 200] [--players 4] [--worlds 10] [--seed 1000]
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Callable

from rich.progress import track

import feltroom
from feltroom.bots import make_bot, search_games
from feltroom.game import CLOCK, Game
from feltroom.games.crisp import VALUE, Crisp
from feltroom.knowledge import Knowledge, tracker
from feltroom.views import events_for

MODELS: dict[str, Callable[[Knowledge, random.Random], Game]] = {
    "uniform": lambda knowledge, rng: knowledge.sample(rng),
    "below": search_games._crisp_below,
    "kept": search_games._crisp_below_kept,
    "declared": search_games._crisp_below_declared,
}
MOMENTS = ("windows", "last turns")


def total(game: Game, seat: int) -> int:
    assert isinstance(game, Crisp)
    return sum(VALUE[c] for c in game.hands[seat])


def errors(seed: int, watched: int, players: int, worlds: int) -> dict[str, dict[str, list[float]]]:
    """Per moment and model, (worlds' mean − truth): for every other seat at each of ``watched``'s crisp
    windows, for the declarer at each of its decisions in a last turn."""
    game = feltroom.new_game("crisp", players=players, seed=seed)
    assert isinstance(game, Crisp)
    bots = [make_bot("heuristic", "crisp", s, players, seed=s) for s in range(players)]
    know = tracker("crisp", watched, players, {})
    out: dict[str, dict[str, list[float]]] = {moment: {m: [] for m in MODELS} for moment in MOMENTS}
    fed = [0] * players  # how much of the log each bot has been shown (bots.runner.play_out's loop)
    seen = 0
    while not game.is_over:
        if not game.to_act:
            game.apply(CLOCK, game.legal_actions(CLOCK)[0])
            continue
        seat = game.to_act[0]
        bots[seat].observe(events_for(game.log[fed[seat]:], seat))
        fed[seat] = len(game.log)
        legal = game.legal_actions(seat)
        declarer = game.declarer
        last_turn = declarer is not None and declarer != watched and len(legal) > 1
        if seat == watched and ("crisp" in legal or last_turn):
            know.observe(events_for(game.log[seen:], watched))
            seen = len(game.log)
            if declarer is not None and last_turn:
                moment, truth = "last turns", {declarer: total(game, declarer)}
            else:
                moment, truth = "windows", {s: total(game, s) for s in range(players) if s != watched}
            for name, model in MODELS.items():
                drawn = [model(know, random.Random(i)) for i in range(worlds)]
                out[moment][name] += [statistics.mean(total(w, s) for w in drawn) - t for s, t in truth.items()]
        game.apply(seat, bots[seat].choose(game.view(seat), legal))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--worlds", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1000)
    args = ap.parse_args()
    pooled: dict[str, dict[str, list[float]]] = {moment: {m: [] for m in MODELS} for moment in MOMENTS}
    for i in track(range(args.games), description="games"):
        for moment, models in errors(args.seed + i, i % args.players, args.players, args.worlds).items():
            for name, errs in models.items():
                pooled[moment][name] += errs
    print(f"Crisp, {args.players} players, {args.games} heuristic games, {args.worlds} worlds each time:")
    for moment, models in pooled.items():
        whose = "every other seat's total" if moment == "windows" else "the declarer's total"
        print(f"  at the watched seat's {moment}, {whose} ({len(models['uniform'])} totals):")
        for name, errs in models.items():
            print(f"    {name:8s} bias {statistics.mean(errs):+.2f}, mean absolute error "
                  f"{statistics.mean(abs(e) for e in errs):.2f} points")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
