"""The room's commands: ``feltroom serve`` and ``feltroom verify``.

``add_commands(subparsers)`` adds them to an ``argparse`` sub-parser set (the ``feltroom``
entry point calls it; ``python -m feltroom.server`` too).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from dataclasses import replace
from typing import Any

from .bots import DEFAULT_THINKERS
from .gc_tuning import DEFAULT_GC_THRESHOLD, tune_gc
from .leases import FLAGS as LEASE_FLAGS
from .leases import Leases
from .limits import Limits

LIMIT_FLAGS = {  # the Limits an operator sets from the command line
    "max_connections": "WebSockets in the room; beyond, closed with 1013",
    "max_sockets_per_address": "WebSockets of one client address; beyond, closed with 1013",
    "hello_timeout": "seconds a new WebSocket may take to say hello",
    "max_tcp_connections": "TCP connections of every kind; beyond, HTTP 503",
    "max_tcp_per_address": "TCP connections of one peer that is not a trusted proxy; beyond, HTTP 503",
    "head_timeout": "seconds to send an HTTP request head",
    "keep_alive": "seconds an idle HTTP keep-alive connection stays open",
    "max_queue_bytes": "bytes queued for a client that does not read before it is dropped",
    "write_stall": "seconds a client's writes may stay blocked before it is dropped",
}


def add_commands(subparsers: Any) -> None:
    serve = subparsers.add_parser("serve", help="run the online room (web client and WebSocket protocol)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--db", default="feltroom.sqlite",
                       help="the store: a SQLite file or sqlite:///path (default feltroom.sqlite), or a PostgreSQL "
                            "database postgresql://user[:password]@host[:port]/database (its schema is created "
                            "and migrated at start-up)")
    serve.add_argument("--redis", default=None, metavar="URL",
                       help="redis://host[:port][/db]: run as one node of several that share the --db (PostgreSQL) "
                            "and this Redis; each table is owned by one node, any node serves any client "
                            "(docs/deploy.md). Default: none, this process is the whole room")
    serve.add_argument("--grace", type=float, default=60.0,
                       help="seconds a disconnected player keeps the seat before a bot plays it (default 60)")
    serve.add_argument("--bot-delay", type=float, default=0.6, help="a bot's think time in seconds (default 0.6)")
    serve.add_argument("--bot-workers", type=int, default=DEFAULT_THINKERS,
                       help="worker processes for the bots that search (default: the cores but one, at least 1; "
                            f"here {DEFAULT_THINKERS})")
    serve.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                       help="a web origin (https://host[:port]) besides the room's own whose pages may connect; "
                            "repeatable (e.g. the public origin behind a TLS proxy)")
    serve.add_argument("--log-level", default="warning", help="uvicorn log level (default warning)")
    serve.add_argument("--gc-threshold", type=int, default=DEFAULT_GC_THRESHOLD, metavar="N",
                       help="freeze the start-up objects and run the cycle collector's youngest generation every "
                            f"N allocations; 0: Python's own collector settings (default {DEFAULT_GC_THRESHOLD}, "
                            "server/gc_tuning.py)")
    serve.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDRESS",
                       help="a reverse proxy (address or network, repeatable) whose X-Forwarded-For names the "
                            "client (default: none; the header is ignored)")
    defaults = Limits()
    for name, what in LIMIT_FLAGS.items():
        default = getattr(defaults, name)
        seconds = isinstance(default, float)
        serve.add_argument("--" + name.replace("_", "-"), type=type(default), default=default,
                           metavar="SECONDS" if seconds else "N", help=f"{what} (default {default:g})" if seconds
                           else f"{what} (default {default})")
    leases = Leases()
    for name, (flag, what) in LEASE_FLAGS.items():
        default = getattr(leases, name)
        serve.add_argument(flag, dest="lease_" + name, type=type(default), default=default,
                           metavar={"renewals": "N", "valid": "SHARE"}.get(name, "SECONDS"),
                           help=f"with --redis: {what} (default {default:g})")
    serve.set_defaults(run=cmd_serve)

    ratings = subparsers.add_parser(
        "ratings", help="rebuild every rating from the stored finished games, or check the stored ones against that")
    ratings.add_argument("--db", default="feltroom.sqlite", help="the room's database (default feltroom.sqlite)")
    ratings.add_argument("--recompute", action="store_true", help="replay every finished game and rate it again")
    ratings.add_argument("--check", action="store_true",
                         help="with --recompute: compare with the stored ratings (exit 1 on a difference) "
                              "instead of storing the recomputed ones")
    ratings.set_defaults(run=cmd_ratings)

    verify = subparsers.add_parser(
        "verify", help="check that a finished game's deal was fair: its hash, and that it follows from the seed")
    verify.add_argument("record", help="the record JSON (GET /api/games/TABLE/record)")
    verify.add_argument("--fair", help="the hash published at the start (default: the record's meta.fair)")
    verify.add_argument("--events", help="JSON list of the events your client received, to compare with the replay")
    verify.add_argument("--seat", type=int, default=None, help="the seat those events were for (default: spectator)")
    verify.set_defaults(run=cmd_verify)


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from .address import TrustedProxies
    from .app import create_app
    from .sockets import uvicorn_config
    from .store import printable

    limits = replace(Limits(), **{name: getattr(args, name) for name in LIMIT_FLAGS})
    try:
        trusted = TrustedProxies(args.trusted_proxy)
    except ValueError as e:
        print(f"feltroom serve: --trusted-proxy: {e}", file=sys.stderr)
        return 2
    if args.bot_workers < 1:
        print("feltroom serve: --bot-workers must be at least 1", file=sys.stderr)
        return 2
    if args.gc_threshold < 0:
        print("feltroom serve: --gc-threshold must be 0 or more", file=sys.stderr)
        return 2
    try:
        leases = Leases(**{name: getattr(args, "lease_" + name) for name in LEASE_FLAGS})
    except ValueError as e:
        print(f"feltroom serve: {e}", file=sys.stderr)
        return 2
    app = create_app(args.db, grace=args.grace, bot_delay=args.bot_delay, bot_workers=args.bot_workers, limits=limits,
                     allow_origins=args.allow_origin, trusted_proxies=args.trusted_proxy, redis=args.redis,
                     leases=leases)
    tune_gc(args.gc_threshold)
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"feltroom is open at http://{host}:{args.port}/  (WebSocket ws://{host}:{args.port}/ws, "
          f"store {printable(args.db)}{', cluster ' + args.redis if args.redis else ''})", flush=True)
    server = uvicorn.Server(uvicorn_config(app, limits, trusted, host=args.host, port=args.port,
                                           log_level=args.log_level))
    # uvicorn shuts down on Ctrl-C, then raises the signal again for the exit status, which asyncio
    # turns into KeyboardInterrupt: the room has already shut down, so stop quietly (as uvicorn.run does)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    return 0


def cmd_ratings(args: argparse.Namespace) -> int:
    from .ratings import recompute
    from .store import open_store

    if not args.recompute:
        print("feltroom ratings: say --recompute (and --check to compare instead of storing)", file=sys.stderr)
        return 2
    store = open_store(args.db)
    try:
        rebuilt = recompute(store)
        if not args.check:
            for game, ratings in rebuilt.items():
                store.set_ratings(game, ratings)
            print(f"stored the recomputed ratings of {sum(map(len, rebuilt.values()))} players in {len(rebuilt)} games")
            return 0
        differences = 0
        for game in sorted({*rebuilt, *(g for g in _games_rated(store))}):
            stored = {p: r for p, _, r in store.leaderboard(game, 0, 10**9)}
            for player in sorted({*stored, *rebuilt.get(game, {})}):
                a, b = stored.get(player), rebuilt.get(game, {}).get(player)
                if a is None or b is None or a.games != b.games or abs(a.mu - b.mu) > 1e-9 \
                        or abs(a.sigma - b.sigma) > 1e-9:
                    differences += 1
                    print(f"{game} {player}: stored {a}, recomputed {b}")
        if differences:
            print(f"FAILED: {differences} ratings differ from the stored games", file=sys.stderr)
            return 1
        print(f"ok  {sum(map(len, rebuilt.values()))} ratings in {len(rebuilt)} games equal their recomputation "
              f"from {len(store.finished_games())} finished games")
        return 0
    finally:
        store.close()


def _games_rated(store: Any) -> list[str]:
    from ..registry import GAMES

    return [g for g in GAMES if store.leaderboard(g, 0, 1)]


def cmd_verify(args: argparse.Namespace) -> int:
    from .fair import verify_record

    try:
        with open(args.record, encoding="utf-8") as f:
            record = json.load(f)
        events = None
        if args.events:
            with open(args.events, encoding="utf-8") as f:
                events = json.load(f)
        for line in verify_record(record, args.fair, events, args.seat):
            print("ok  " + line)
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"FAILED: {e}", file=sys.stderr)
        return 1
    print("the deal is fair: it follows from the committed seed")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="feltroom", description="feltroom online room")
    add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    result: int = args.run(args)
    return result
