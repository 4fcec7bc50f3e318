"""Random-playout speed of every registered game through the public API.

Prints games/s and actions/s per game: the loop a simulation or a bot's rollouts run
(``to_act`` → ``legal_actions`` → ``apply``, CLOCK actions when nobody is to act).

    .venv/bin/python bench/engine.py [--seconds 3] [--game crisp]
"""

from __future__ import annotations

import argparse
import random
import time

from rich.console import Console
from rich.table import Table

import feltroom
from feltroom import CLOCK

PLAYERS = {"crisp": 4, "craits": 4, "cribbage": 2, "krypkasino": 4}
OPTIONS: dict[str, dict[str, object]] = {"cribbage": {"counting": "automatic"}}


def playout(name: str, players: int, seed: int, options: dict[str, object]) -> int:
    """Play one random game to the end; return the number of actions applied."""
    game = feltroom.new_game(name, players=players, seed=seed, options=options)
    rng = random.Random(seed)
    actions = 0
    while not game.is_over:
        seats = game.to_act
        seat = seats[0] if seats else CLOCK
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])
        actions += 1
    return actions


def measure(name: str, seconds: float) -> tuple[int, int, float]:
    players = PLAYERS.get(name, feltroom.GAMES[name].min_players)
    options = OPTIONS.get(name, {})
    games = actions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        actions += playout(name, players, games, options)
        games += 1
    return games, actions, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per game (default 3)")
    parser.add_argument("--game", choices=sorted(feltroom.GAMES), action="append", help="only these games")
    args = parser.parse_args()
    table = Table(title="random playouts through the public API (one core)")
    for column in ("game", "players", "games/s", "actions/s", "actions/game"):
        table.add_column(column, justify="right" if column != "game" else "left")
    for name in args.game or sorted(feltroom.GAMES):
        games, actions, elapsed = measure(name, args.seconds)
        table.add_row(name, str(PLAYERS.get(name, feltroom.GAMES[name].min_players)),
                      f"{games / elapsed:,.1f}", f"{actions / elapsed:,.0f}", f"{actions / max(games, 1):.1f}")
    Console().print(table)


if __name__ == "__main__":
    main()
