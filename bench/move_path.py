"""The room's own work per move, without the network: engine, views, store, encoding, fan-out.

A real ``Room`` on a SQLite file in a temporary folder and a fake clock; four (``--seats``)
players, each behind a ``Connection`` with no socket, play random legal moves of ``--game``
through ``Room.receive`` (the same JSON text a client sends), a millisecond apart on the clock;
the tasks a move starts or cancels (timers, bots) take their step inside the measured time. What
each connection would send is dropped after every move. Prints CPU µs per move
(``time.process_time``, so other jobs on the machine change it little) and what the moves
produced, then a cProfile top list with ``--profile``.

``--shares`` also times, inside the moves, each call that a compiled core could answer instead of
the reference engine (``apply``, the legal actions, the public and own views, the events'
redaction) and a few of the room's own (the action's insert, the deadlines), and prints each one's
µs a move and the core's calls together, each counted once (bench/call_shares.py): the most a core
building events and views could save (docs/engine-speed.md). The timers add a few µs to the move;
it prints how many.

This is the part of bench/server_load.py's "server CPU per player move" that the room owns; the
rest is the WebSocket stack (uvicorn, framing, the event loop: its ``bcast`` phase), receiving and
validating the frame, and the cycle collector (docs/engine-speed.md, "The room's CPU per move").

    .venv/bin/python bench/move_path.py --game cribbage --moves 20000
    .venv/bin/python bench/move_path.py --game krypkasino --moves 10000 --shares
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import random
import tempfile
import time
from pathlib import Path

from call_shares import time_shares
from feltroom.server import FakeClock, Limits
from feltroom.server.connection import Connection
from feltroom.server.room import Room
from feltroom.server.store import open_store
from feltroom.server.table import Table

OPTIONS = {"crisp": {"end_limit": 50}, "cribbage": {}, "krypkasino": {}, "craits": {}}


async def play(
    game: str, seats: int, moves: int, seed: int, profile: cProfile.Profile | None
) -> tuple[float, int, int]:
    """CPU seconds spent in the room, moves applied, messages queued."""
    limits = Limits(new_players_per_minute=10**6, new_tables_per_hour=10**6, rate=10**6, burst=10**6)
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        clock = FakeClock()
        room = Room(open_store(str(Path(tmp) / "move.sqlite")), clock, limits, grace=10**6, bot_delay=0)
        conns = [Connection(None, limits, clock.now(), "127.0.0.1") for _ in range(seats)]
        for i, c in enumerate(conns):
            await room.receive(c, json.dumps({"type": "hello", "protocol": 1, "name": f"p{i}", "token": None}),
                               clock.now())
        spent = 0.0
        done = sent = 0
        while done < moves:
            await room.receive(conns[0], json.dumps({"type": "create", "game": game, "seats": seats,
                                                     "options": OPTIONS.get(game, {})}), clock.now())
            table: Table = next(t for t in room.tables.values() if t.state == "waiting")
            for c in conns[1:]:
                await room.receive(c, json.dumps({"type": "join", "table": table.id}), clock.now())
            await room.receive(conns[0], json.dumps({"type": "start", "table": table.id}), clock.now())
            while table.state == "playing" and done < moves:
                assert table.game is not None
                actors = [s for s in range(seats) if table._legal[s]]
                if not actors:  # only the clock can move the game on (a hold, a window, a timer)
                    due = min(d.at for d in table.deadlines.values())
                    clock.set(due + 0.001, wake=False)
                    table.run_due(clock.now())
                    continue
                seat = rng.choice(actors)
                clock.set(clock.now() + 0.001, wake=False)  # time goes on between moves (the idle deadlines move)
                text = json.dumps({"type": "act", "table": table.id, "seq": table.seq,
                                   "action": rng.choice(table._legal[seat])})
                if profile is not None:
                    profile.enable()
                t0 = time.process_time()
                await room.receive(conns[seat], text, clock.now())
                await asyncio.sleep(0)  # the tasks the move started or cancelled (timers, bots) take their step
                spent += time.process_time() - t0
                if profile is not None:
                    profile.disable()
                done += 1
                for c in conns:
                    sent += len(c.queue)
                    c.queue.clear()
                    c.queued_bytes = 0
            table.stop()
            room.tables.pop(table.id, None)
            for c in conns:
                assert c.player is not None
                c.player.tables.discard(table.id)
        return spent, done, sent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="cribbage", choices=sorted(OPTIONS))
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--moves", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", action="store_true", help="print the top of a cProfile of the moves")
    ap.add_argument("--shares", action="store_true", help="time the engine's calls and a few of the room's")
    args = ap.parse_args()
    profile = cProfile.Profile() if args.profile else None
    shares = time_shares(args.game) if args.shares else None
    spent, done, sent = asyncio.run(play(args.game, args.seats, args.moves, args.seed, profile))
    print(f"{args.game}, {args.seats} seats: {done} moves, {1e6 * spent / done:.0f} µs of CPU per move in the room "
          f"({sent / done:.1f} messages queued per move)")
    if shares is not None:
        for label, micros in shares.per_move(done):
            print(f"  {label:28s} {micros:6.1f} µs a move")
        print(f"  {'the calls a core could answer':28s} {1e6 * shares.core / done:6.1f} µs a move (each counted once)")
        print(f"  {'the timers themselves':28s} {1e6 * shares.timers / done:6.1f} µs a move ({shares.calls / done:.1f} "
              f"calls at {1e6 * shares.per_call:.2f} µs; in the move's figure above)")
    if profile is not None:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
