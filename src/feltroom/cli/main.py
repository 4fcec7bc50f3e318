"""The ``feltroom`` command: ``play``, ``sim``, ``ladder``, the room's ``serve`` and per-game commands."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence
from typing import Any

import feltroom

from . import ladder, play, sim
from .support import game_support

EXTRA_COMMANDS = ["feltroom.server.cli"]


def parse_option(text: str) -> tuple[str, Any]:
    """``key=value`` with a JSON value (``true``, ``null``, ``50``); other values are strings.

    >>> parse_option("end_limit=50"), parse_option("counting=manual"), parse_option("draw_time=null")
    (('end_limit', 50), ('counting', 'manual'), ('draw_time', None))
    """
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"options are key=value, not {text!r}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=sorted(feltroom.GAMES), help="which game")
    parser.add_argument("--players", type=int, default=None, help="number of seats (default: the game's usual)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the first game (default: random)")
    parser.add_argument("--option", "-o", type=parse_option, action="append", default=[], metavar="KEY=VALUE",
                        help="a table option, e.g. -o end_limit=50 -o draw_from_discard=true (repeatable)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="feltroom", description="feltroom: an online card room")
    parser.add_argument("--version", action="version", version=f"feltroom {feltroom.__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("play", help="play a game in the terminal against bots")
    add_game_arguments(p)
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument("--bots", default="heuristic", help="bot level for the other seats, or a comma list per seat")
    p.set_defaults(run=play.run)

    s = sub.add_parser("sim", help="simulate many bot games and summarise them")
    add_game_arguments(s)
    s.add_argument("--games", type=int, default=1000, help="how many games (default 1000)")
    s.add_argument("--bots", default="heuristic,random",
                   help="bot levels by seat, comma-separated; the last fills the remaining seats; "
                        "seats rotate every game (default heuristic,random)")
    s.add_argument("--plot", metavar="PNG", help="also save a chart of the results (needs matplotlib)")
    s.add_argument("--db", metavar="DATABASE",
                   help="also store every game and rate the bot levels in this room database (e.g. feltroom.sqlite)")
    s.set_defaults(run=sim.run)

    ladder.add_command(sub)

    for name in sorted(feltroom.GAMES):
        module = game_support(name)
        if module is not None and hasattr(module, "add_commands"):
            module.add_commands(sub)
    for path in EXTRA_COMMANDS:
        try:
            module = importlib.import_module(path)
        except ModuleNotFoundError as e:
            if e.name != path:
                raise
            continue
        module.add_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        print()
        return 130
    except ValueError as e:
        print(f"feltroom: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
