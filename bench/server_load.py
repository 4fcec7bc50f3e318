"""Load test of the room: simulated clients over real WebSockets on 127.0.0.1.

Each of ``--tables`` 4-seat tables of ``--game`` (default Crisp) gets four client sockets (host creates, three join,
host starts); every client plays random legal moves from its ``update.legal`` until the game
is over. The room runs in its own process under uvicorn, on a SQLite file in a temporary
directory, with a clock that runs ``--speed`` times faster than real time (default 1: the real 2 s holds
and 3 s windows of Crisp; the rules are unchanged either way). Before
that, the same number of sockets runs a bare WebSocket echo on the same stack (Starlette on
uvicorn) for ``--echo-seconds``: the ceiling.

Then, on the same server, ``--echo-seconds`` of the shape of a move without the room: groups of
four sockets take turns, one sends a frame and the server sends it on to all four (``bcast``).
Both bare phases print the server's CPU per round (the room's floor on this stack).

The clients are ``bench/ws_client.py``'s (one asyncio protocol per socket, a callback per frame),
so that one client process keeps up with a saturated room: at ``--speed 1000`` the tables' starts
(``--stagger`` seconds of the room's clock) fall within milliseconds, and ``--options`` makes the
games long enough for few tables (docs/engine-speed.md gives figures at 50 and 200 tables).

Prints moves/s and the move round-trip (``act`` sent → its ``update`` back) p50/p99, the echo
and bcast figures, and their ratios. The room's CPU per player move counts the play only (seating
the players before is printed apart); it and ``bcast+``'s are split into user and system time.
Bounded: it stops by itself after ``--limit`` seconds.
``bcast`` sends on frames of an action's size; the room's updates are 15–25 times larger,
so after the room, ``bcast+`` runs the same shape with the four frames out padded to the room's
mean update (its bytes measured in the room phase), and ``ratio+`` compares with that.

``--shares`` times, in the room's process, every call that a compiled core building events and views
would answer instead of the reference engine (bench/call_shares.py), and prints what they cost a move,
the room's CPU a move without them (and without the timers' own cost), and ``bcast+``'s CPU a move ÷
that: the most such a core could bring ``ratio+`` to (docs/engine-speed.md). The calls made while the
players were seated count too: well under a µs a move.

``--cluster 1,2`` then plays the same tables on clusters of 1 and of 2 nodes (``feltroom serve
--redis``): a PostgreSQL and a Redis of the bench's own (``pg_local``, ``redis_local``; commits
with ``synchronous_commit=off``, see docs/deploy.md), the nodes, and HAProxy in front (the clients
connect to it only, so a table's players land on different nodes). It prints the same figures
for each, with the CPU of the nodes, Redis, HAProxy and PostgreSQL per player move.

    .venv/bin/python bench/server_load.py --tables 500
    .venv/bin/python bench/server_load.py --game cribbage --tables 50 --speed 1000 --options '{"target": 241}'
    .venv/bin/python bench/server_load.py --tables 100 --speed 4 --cluster 1,2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing
import os
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

import orjson

from feltroom.server.gc_tuning import DEFAULT_GC_THRESHOLD
from feltroom.server.local_service import free_port
from ws_client import WsClient, connect

if TYPE_CHECKING:  # imported where used: every process the bench spawns imports this module, the bare servers too
    from call_shares import Shares

HOST = "127.0.0.1"


class ScaledClock:
    """Server time that runs ``speed`` times faster than the wall clock."""

    def __init__(self, speed: float, t0: float | None = None) -> None:
        self.speed = speed
        self.t0 = time.time() if t0 is None else t0  # the nodes of a cluster share one

    def now(self) -> float:
        return self.t0 + (time.time() - self.t0) * self.speed

    async def sleep_until(self, when: float) -> None:
        while (left := when - self.now()) > 0:
            await asyncio.sleep(left / self.speed)


def serve_room(port: int, db: str, speed: float, profile: str | None = None, redis: str | None = None,
               t0: float | None = None, gc_threshold: int = DEFAULT_GC_THRESHOLD,
               shares: tuple[str, str] | None = None) -> None:
    """The room on ``port``; ``shares``: (game, file) to time the calls a core could answer in
    (bench/call_shares.py) and write what they took to the file when the room stops."""
    import signal

    import uvicorn

    from call_shares import time_shares
    from feltroom.server import Limits, create_app
    from feltroom.server.address import TrustedProxies
    from feltroom.server.gc_tuning import tune_gc
    from feltroom.server.sockets import uvicorn_config

    limits = Limits(max_connections=50_000, max_sockets_per_address=50_000, rate=1_000, burst=1_000,
                    new_players_per_minute=100_000, new_tables_per_hour=100_000,
                    max_tcp_connections=15_000, max_tcp_per_address=15_000)  # one client address plays every seat
    app = create_app(db, clock=ScaledClock(speed, t0), limits=limits, bot_delay=0, grace=3600, redis=redis)
    # the room's own protocols, as `feltroom serve` runs them (its frames written straight to the socket)
    config = uvicorn_config(app, limits, TrustedProxies(()), host=HOST, port=port, log_level="error", backlog=4096)
    server = uvicorn.Server(config)
    timed = None
    if shares is not None:
        game, shares_file = shares
        timed = time_shares(game)
    tune_gc(gc_threshold)  # as feltroom serve does
    if profile is None and timed is None:
        server.run()
        return
    # uvicorn raises the SIGTERM it caught again once it has stopped: this handler lets the
    # process go on to write what it measured
    signal.signal(signal.SIGTERM, lambda *_: setattr(server, "should_exit", True))
    if profile is not None:
        import cProfile

        prof = cProfile.Profile()
        prof.runcall(server.run)
        prof.dump_stats(profile)
    else:
        server.run()
    if timed is not None:
        with open(shares_file, "w") as f:
            json.dump({"spent": timed.spent, "core": timed.core, "calls": timed.calls, "per_call": timed.per_call}, f)


def serve_echo(port: int) -> None:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    groups: dict[str, list[WebSocket]] = {}

    async def echo(ws: WebSocket) -> None:
        await ws.accept()
        with contextlib.suppress(WebSocketDisconnect):
            while True:
                await ws.send_text(await ws.receive_text())

    async def broadcast(ws: WebSocket) -> None:
        """A frame in, sent on to every socket of the group: a move's shape, without the room (``size``:
        the frame sent on is padded with spaces to that many bytes, as large as the room's updates)."""
        await ws.accept()
        group = groups.setdefault(ws.query_params["group"], [])
        group.append(ws)
        size = int(ws.query_params.get("size", 0))
        with contextlib.suppress(WebSocketDisconnect):
            while True:
                text = await ws.receive_text()
                if len(text) < size:
                    text += " " * (size - len(text))
                for other in group:
                    await other.send_text(text)

    uvicorn.run(Starlette(routes=[WebSocketRoute("/ws", echo), WebSocketRoute("/broadcast", broadcast)]), host=HOST,
                port=port, log_level="error", backlog=4096, ws_per_message_deflate=False)


def start(target: Any, *args: Any) -> Any:
    proc = multiprocessing.get_context("spawn").Process(target=target, args=args, daemon=True)
    proc.start()
    return proc


async def wait_up(port: int, timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            _, w = await asyncio.open_connection(HOST, port)
            w.close()
            return
        except OSError:
            await asyncio.sleep(0.05)
    raise RuntimeError("the server did not start")


def cpu_times(pid: int | None) -> tuple[float, float]:
    """User and system CPU seconds of a process (Linux /proc; zeros elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        tick = os.sysconf("SC_CLK_TCK")
        return int(fields[11]) / tick, int(fields[12]) / tick
    except (OSError, ValueError, IndexError):
        return 0.0, 0.0


def cpu_since(pid: int | None, before: tuple[float, float]) -> tuple[float, float]:
    """User and system CPU seconds of a process since ``cpu_times`` gave ``before``."""
    user, system = cpu_times(pid)
    return user - before[0], system - before[1]


def cpu_seconds(pid: int | None) -> float:
    """User + system CPU seconds of a process (Linux /proc; 0 elsewhere)."""
    return sum(cpu_times(pid))


def print_shares(shares: Shares, moves: int, room_cpu: float, bare_cpu: float) -> None:
    """The room's calls that a core could answer, per move, and the room without them (and without
    the timers' own cost) beside the bare broadcast (``bare_cpu``: its CPU seconds a move): the most
    a core building events and views could bring the room to. At saturation moves/s go as the
    inverse of the CPU a move costs."""
    micros = 1e6 / max(1, moves)  # µs a move per second of the run
    per_move, core, timers = room_cpu * micros, shares.core * micros, shares.timers * micros
    without = per_move - core - timers
    parts = ", ".join(f"{label} {each:.1f}" for label, each in shares.per_move(moves))
    print(f"shares : the calls a core could answer {core:.0f} µs of the room's {per_move:.0f} a move ({parts}); "
          f"the timers' own cost {timers:.0f}; the room without either {without:.0f} µs a move, "
          f"{1e6 * bare_cpu / without:.3f}× bcast+'s moves/s at most")


def split_per_move(user: float, system: float, moves: int) -> str:
    """``"157 user + 40 system"``: CPU µs per move, split."""
    return f"{1e6 * user / max(1, moves):.0f} user + {1e6 * system / max(1, moves):.0f} system"


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


# ---------------------------------------------------------------------------- echo

#: the frame of the bare phases: the size and shape of a player's action
ACTION = json.dumps({"type": "act", "table": "t0000000", "action": "swap L", "seq": 12, "id": 1})


async def connect_all(count: int, connect_one: Callable[[int], Awaitable[Any]]) -> list[Any]:
    """``connect_one(k)`` for k < count, at most 100 handshakes at a time."""
    sem = asyncio.Semaphore(100)

    async def one(k: int) -> Any:
        async with sem:
            return await connect_one(k)

    return list(await asyncio.gather(*(one(k) for k in range(count))))


async def echo_phase(port: int, clients: int, seconds: float) -> tuple[float, list[float]]:
    """Every socket sends a frame, waits for it to come back, sends again."""
    loop = asyncio.get_running_loop()
    rtts: list[float] = []
    done = loop.create_future()
    stop_at = [math.inf]
    sent: list[float] = [0.0] * clients
    running = [clients]
    sockets: list[WsClient] = []

    def on_text(k: int, _data: bytes) -> None:
        now = time.perf_counter()
        rtts.append(now - sent[k])
        if time.monotonic() < stop_at[0]:
            sent[k] = now
            sockets[k].send_text(ACTION)
        else:
            running[0] -= 1
            if not running[0]:
                done.set_result(None)

    sockets.extend(await connect_all(clients, lambda k: connect(HOST, port, "/ws", partial(on_text, k))))
    t0 = time.monotonic()
    stop_at[0] = t0 + seconds
    for k, ws in enumerate(sockets):
        sent[k] = time.perf_counter()
        ws.send_text(ACTION)
    await done
    elapsed = time.monotonic() - t0
    for ws in sockets:
        ws.close()
    return len(rtts) / elapsed, rtts


async def broadcast_phase(port: int, clients: int, seconds: float,
                          size: int = 0) -> tuple[float, list[float], float]:
    """Groups of four sockets take turns: one sends, the server sends the frame to all four, and
    when all four have it the next one sends (a table's move, with nothing of the room); with
    ``size``, the four frames out are padded to that many bytes. Moves/s, round trips, and the
    mean size of the frames received."""
    loop = asyncio.get_running_loop()
    rtts: list[float] = []
    done = loop.create_future()
    stop_at = [math.inf]
    count = max(1, clients // 4)
    groups: list[list[WsClient]] = [[] for _ in range(count)]
    got = [0] * count
    turn = [0] * count
    sent = [0.0] * count
    running = [count]
    received = [0, 0]  # frames, bytes

    def send(g: int) -> None:
        sent[g] = time.perf_counter()
        groups[g][turn[g] % 4].send_text(ACTION)

    def on_text(g: int, data: bytes) -> None:
        received[0] += 1
        received[1] += len(data)
        got[g] += 1
        if got[g] < 4:
            return
        got[g] = 0
        rtts.append(time.perf_counter() - sent[g])
        turn[g] += 1
        if time.monotonic() < stop_at[0]:
            send(g)
        else:
            running[0] -= 1
            if not running[0]:
                done.set_result(None)

    async def connect_one(k: int) -> None:
        g = k // 4
        groups[g].append(await connect(HOST, port, f"/broadcast?group={g}&size={size}", partial(on_text, g)))

    await connect_all(4 * count, connect_one)
    t0 = time.monotonic()
    stop_at[0] = t0 + seconds
    for g in range(count):
        send(g)
    await done
    elapsed = time.monotonic() - t0
    for group in groups:
        for ws in group:
            ws.close()
    return len(rtts) / elapsed, rtts, received[1] / max(1, received[0])


def bare_broadcast(clients: int, seconds: float, size: int) -> tuple[float, list[float], float, tuple[float, float]]:
    """``broadcast_phase`` on a bare server of its own: moves/s, round trips, the mean frame received
    (bytes), the server's user and system CPU seconds."""
    port = free_port()
    server = start(serve_echo, port)
    try:
        asyncio.run(wait_up(port))
        before = cpu_times(server.pid)
        rate, rtts, frame = asyncio.run(broadcast_phase(port, clients, seconds, size))
        return rate, rtts, frame, cpu_since(server.pid, before)
    finally:
        server.terminate()
        server.join(5)


# ---------------------------------------------------------------------------- games


@dataclass
class Stats:
    moves: int = 0
    rejected: int = 0
    games: int = 0
    rtts: list[float] = field(default_factory=list)
    updates: int = 0
    update_bytes: int = 0


class Seat:
    """One player: requests answered by id while seating; then it plays a random legal action
    whenever its latest update offers one and none of its actions is in flight (callbacks only)."""

    def __init__(self, rng: random.Random, stats: Stats) -> None:
        self.ws: WsClient | None = None
        self.rng = rng
        self.stats = stats
        self.next_id = 0
        self.pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.inflight: tuple[int, float] | None = None
        self.latest: dict[str, Any] | None = None
        self.table = ""
        self.playing = False
        self.finished: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def send(self, msg: dict[str, Any]) -> int:
        assert self.ws is not None
        self.next_id += 1
        self.ws.send_text(orjson.dumps({**msg, "id": self.next_id}).decode())
        return self.next_id

    async def request(self, msg: dict[str, Any]) -> dict[str, Any]:
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[self.send(msg)] = fut
        reply = await fut
        if reply["type"] == "error":
            raise RuntimeError(reply)
        return reply

    def on_text(self, data: bytes) -> None:
        msg = orjson.loads(data)
        kind = msg.get("type")
        mid = msg.get("id")
        if mid in self.pending:
            self.pending.pop(mid).set_result(msg)
        if kind == "update":
            self.latest = msg
        if not self.playing:
            return
        mine = self.inflight is not None and mid == self.inflight[0]
        if kind == "update":
            self.stats.updates += 1
            self.stats.update_bytes += len(data)
            if mine:
                assert self.inflight is not None
                self.stats.rtts.append(time.perf_counter() - self.inflight[1])
                self.stats.moves += 1
                self.inflight = None
            if msg["view"]["over"]:
                self.stop()
                return
        elif kind == "error" and mine:  # another seat moved first: act on the latest update
            self.stats.rejected += 1
            self.inflight = None
        self.maybe_act()

    def maybe_act(self) -> None:
        u = self.latest
        if self.playing and self.inflight is None and u is not None and u["legal"] and not u["view"]["over"]:
            mid = self.send({"type": "act", "table": self.table, "seq": u["seq"],
                             "action": self.rng.choice(u["legal"])})
            self.inflight = (mid, time.perf_counter())

    def play(self, table: str) -> None:
        self.table = table
        self.playing = True
        self.maybe_act()

    def stop(self) -> None:
        self.playing = False
        if not self.finished.done():
            self.finished.set_result(None)


#: the options each game's tables are created with (short games, so that many finish)
GAME_OPTIONS: dict[str, dict[str, Any]] = {"crisp": {"end_limit": 50}, "cribbage": {"target": 61}, "craits": {},
                                           "krypkasino": {}}


async def table_phase(port: int, game: str, tables: int, limit: float, seed: int,
                      stagger: float, on_ready: Any = None) -> tuple[Stats, float, int]:
    stats = Stats()
    ready: list[tuple[list[Seat], str]] = []
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()

    async def setup(k: int) -> None:
        seats = []
        for i in range(4):
            s = Seat(random.Random(rng.random()), stats)
            s.ws = await connect(HOST, port, "/ws", s.on_text)
            await s.request({"type": "hello", "protocol": 1, "name": f"t{k}p{i}", "token": None})
            seats.append(s)
        t = await seats[0].request({"type": "create", "game": game, "seats": 4, "options": GAME_OPTIONS[game]})
        for s in seats[1:]:
            await s.request({"type": "join", "table": t["table"]})
        ready.append((seats, t["table"]))

    await connect_all(tables, setup)
    if on_ready is not None:  # the seats are taken: what follows is play
        on_ready()
    t0 = time.monotonic()
    everyone = [s for seats, _ in ready for s in seats]
    for seats, tid in ready:
        for s in seats:
            s.play(tid)
        # the starts are spread over ``stagger`` seconds of the room's clock, as real tables would be
        # (all at once, the 2 s holds of 500 tables would end in the same millisecond, every turn);
        # the caller passes wall-clock seconds: ``--stagger`` divided by ``--speed``
        loop.call_later(rng.uniform(0, stagger), seats[0].send, {"type": "start", "table": tid})
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*(s.finished for s in everyone)), limit)
    for s in everyone:
        s.stop()
    elapsed = time.monotonic() - t0
    finished = sum(1 for seats, _ in ready if seats[0].latest and seats[0].latest["view"]["over"])
    for s in everyone:
        assert s.ws is not None
        s.ws.close()
    return stats, elapsed, finished


# ---------------------------------------------------------------------------- a cluster


def children_cpu(parent: int) -> float:
    """CPU seconds of ``parent`` and its children (PostgreSQL's postmaster and its backends)."""
    total = cpu_seconds(parent)
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                if int(fields[1]) == parent:
                    total += cpu_seconds(int(entry))
    return total


def cluster_phase(nodes: int, game: str, tables: int, speed: float, limit: float, seed: int,
                  stagger: float) -> tuple[Stats, float, int, dict[str, float]]:
    import subprocess

    from feltroom.server.local_cluster import find_haproxy, haproxy_config
    from feltroom.server.pg_local import LocalPostgres
    from feltroom.server.redis_local import LocalRedis

    with tempfile.TemporaryDirectory() as tmp, LocalPostgres(fsync=False) as pg, LocalRedis() as redis:
        db = pg.create_database("load") + "?options=-c%20synchronous_commit%3Doff"
        ports = [free_port() for _ in range(nodes)]
        t0 = time.time()
        procs = [start(serve_room, p, db, speed, None, redis.url, t0) for p in ports]
        front = free_port()
        cfg = os.path.join(tmp, "haproxy.cfg")
        with open(cfg, "w") as f:
            f.write(haproxy_config(HOST, front, ports))
        proxy = subprocess.Popen([find_haproxy(), "-f", cfg, "-db"], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        try:
            for p in [*ports, front]:
                asyncio.run(wait_up(p))
            time.sleep(2)  # HAProxy's first health checks
            with open(pg.data / "postmaster.pid") as f:
                postmaster = int(f.readline())
            assert redis.proc is not None
            redis_pid = redis.proc.pid

            def cpu() -> dict[str, float]:
                return {"nodes": sum(cpu_seconds(p.pid) for p in procs), "redis": cpu_seconds(redis_pid),
                        "haproxy": cpu_seconds(proxy.pid), "postgres": children_cpu(postmaster)}

            before = cpu()
            stats, elapsed, finished = asyncio.run(table_phase(front, game, tables, limit, seed, stagger))
            after = cpu()
        finally:
            proxy.terminate()
            proxy.wait(10)
            for proc in procs:
                proc.terminate()
                proc.join(30)
    return stats, elapsed, finished, {k: after[k] - before[k] for k in after}


# ---------------------------------------------------------------------------- main


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="crisp", choices=sorted(GAME_OPTIONS))
    ap.add_argument("--tables", type=int, default=100, help="4-seat tables (clients = 4 × tables; max 1000)")
    ap.add_argument("--speed", type=float, default=1.0,
                    help="the room's clock runs this many times faster (above ~5 under heavy load, crisp windows "
                         "close before declarations arrive and rounds stop ending)")
    ap.add_argument("--echo-seconds", type=float, default=10.0)
    ap.add_argument("--limit", type=float, default=300.0, help="stop the game phase after this many seconds")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--options", type=json.loads, default=None, metavar="JSON",
                    help='the tables\' options, merged over the bench\'s short ones (e.g. \'{"target": 241}\' for '
                         "longer Cribbage games, so that fewer tables play long enough)")
    ap.add_argument("--stagger", type=float, default=2.0,
                    help="spread the tables' starts over this many seconds of the room's clock (so over "
                         "STAGGER / SPEED seconds of the wall clock: a sped-up clock saturates the room at once)")
    ap.add_argument("--profile", help="write a cProfile of the room process to this file")
    ap.add_argument("--gc-threshold", type=int, default=DEFAULT_GC_THRESHOLD,
                    help="the room process's cycle collector, as feltroom serve --gc-threshold (0: Python's own)")
    ap.add_argument("--shares", action="store_true",
                    help="time the room's calls that a compiled core could answer (bench/call_shares.py), and print "
                         "what the room would cost without them")
    ap.add_argument("--cluster", default="", metavar="N,N",
                    help="then play on clusters of these many nodes (PostgreSQL, Redis, HAProxy in front), e.g. 1,2")
    args = ap.parse_args()
    if args.options:
        GAME_OPTIONS[args.game] = {**GAME_OPTIONS[args.game], **args.options}
    tables = max(1, min(args.tables, 1000))
    clients = 4 * tables
    with contextlib.suppress(ValueError, OSError):
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4 * clients + 256)), hard))
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    print(f"{clients} clients, {tables} {args.game} tables of 4, python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cores; "
          f"room clock ×{args.speed:g}")

    port = free_port()
    echo = start(serve_echo, port)
    try:
        asyncio.run(wait_up(port))
        echo_cpu0 = cpu_seconds(echo.pid)
        echo_rate, echo_rtts = asyncio.run(echo_phase(port, clients, args.echo_seconds))
        echo_cpu = cpu_seconds(echo.pid) - echo_cpu0  # connecting the clients included
        bcast_cpu0 = cpu_seconds(echo.pid)
        bcast_rate, bcast_rtts, _ = asyncio.run(broadcast_phase(port, clients, args.echo_seconds))
        bcast_cpu = cpu_seconds(echo.pid) - bcast_cpu0
    finally:
        echo.terminate()
        echo.join(5)
    print(f"echo   : {echo_rate:9.0f} msgs/s   rtt p50 {pct(echo_rtts, .5) * 1e3:7.2f} ms   "
          f"p99 {pct(echo_rtts, .99) * 1e3:7.2f} ms   ({len(echo_rtts)} round trips; server CPU "
          f"{1e6 * echo_cpu / max(1, len(echo_rtts)):.0f} µs per frame in and out)")
    print(f"bcast  : {bcast_rate:9.0f} moves/s  rtt p50 {pct(bcast_rtts, .5) * 1e3:7.2f} ms   "
          f"p99 {pct(bcast_rtts, .99) * 1e3:7.2f} ms   ({len(bcast_rtts)} frames in, 4 out each; server CPU "
          f"{1e6 * bcast_cpu / max(1, len(bcast_rtts)):.0f} µs per move of this shape)")

    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        shares_file = os.path.join(tmp, "shares.json")
        room = start(serve_room, port, os.path.join(tmp, "load.sqlite"), args.speed, args.profile, None, None,
                     args.gc_threshold, (args.game, shares_file) if args.shares else None)
        try:
            asyncio.run(wait_up(port))
            room_cpu0 = cpu_times(room.pid)
            own0 = time.process_time()
            seated = [room_cpu0]

            def ready() -> None:
                seated[0] = cpu_times(room.pid)

            stats, elapsed, finished = asyncio.run(
                table_phase(port, args.game, tables, args.limit, args.seed, args.stagger / args.speed, ready))
            room_user, room_system = cpu_since(room.pid, seated[0])
            room_cpu = room_user + room_system
            setup_cpu = sum(seated[0]) - sum(room_cpu0)
            own = time.process_time() - own0
        finally:
            room.terminate()
            room.join(30)
        shares = None
        if args.shares:
            from call_shares import Shares

            with open(shares_file) as f:
                shares = Shares(**json.load(f))
    rate = stats.moves / elapsed
    print(f"room   : {rate:9.0f} moves/s  rtt p50 {pct(stats.rtts, .5) * 1e3:7.2f} ms   "
          f"p99 {pct(stats.rtts, .99) * 1e3:7.2f} ms   ({stats.moves} moves, {stats.rejected} raced, "
          f"{stats.updates} updates received, {finished}/{tables} games finished in {elapsed:.1f} s)")
    print(f"cpu    : room process {room_cpu:.1f} s ({100 * room_cpu / elapsed:.0f}% of one core, "
          f"{1e6 * room_cpu / max(1, stats.moves):.0f} µs per player move = "
          f"{split_per_move(room_user, room_system, stats.moves)}, CLOCK actions and fan-out included; "
          f"not counted: {setup_cpu:.1f} s seating the players before); clients {own:.1f} s")
    print(f"ratio  : moves/s ÷ bcast moves/s = {rate / bcast_rate:.3f};  "
          f"moves/s ÷ echo msgs/s = {rate / echo_rate:.3f};  messages the room sent/s "
          f"({stats.updates / elapsed:.0f}) ÷ echo msgs/s = {stats.updates / elapsed / echo_rate:.3f};  "
          f"p50 rtt ÷ echo p50 = {pct(stats.rtts, .5) / pct(echo_rtts, .5):.1f}")
    if stats.updates:
        # the same shape in size too: the four frames out as large as the room's updates were on average
        size = round(stats.update_bytes / stats.updates)
        sized_rate, sized_rtts, frame, (sized_user, sized_system) = bare_broadcast(clients, args.echo_seconds, size)
        sized_cpu = sized_user + sized_system
        print(f"bcast+ : {sized_rate:9.0f} moves/s  rtt p50 {pct(sized_rtts, .5) * 1e3:7.2f} ms   "
              f"p99 {pct(sized_rtts, .99) * 1e3:7.2f} ms   (frames out of {frame:.0f} bytes, the room's mean update "
              f"{size}; "
              f"server CPU {1e6 * sized_cpu / max(1, len(sized_rtts)):.0f} µs per move of this shape = "
              f"{split_per_move(sized_user, sized_system, len(sized_rtts))})")
        print(f"ratio+ : moves/s ÷ bcast+ moves/s = {rate / sized_rate:.3f}")
        if shares is not None:
            print_shares(shares, stats.moves, room_cpu, sized_cpu / max(1, len(sized_rtts)))
    for nodes in [int(n) for n in args.cluster.split(",") if n.strip()]:
        stats, elapsed, finished, cpu = cluster_phase(nodes, args.game, tables, args.speed, args.limit, args.seed,
                                                      args.stagger / args.speed)
        rate = stats.moves / elapsed
        per_move = {k: 1e3 * v / max(1, stats.moves) for k, v in cpu.items()}
        label = f"{nodes} node{'s' if nodes > 1 else ' '}"
        print(f"{label}: {rate:9.0f} moves/s  rtt p50 {pct(stats.rtts, .5) * 1e3:7.2f} ms   "
              f"p99 {pct(stats.rtts, .99) * 1e3:7.2f} ms   ({stats.moves} moves, {stats.rejected} raced, "
              f"{finished}/{tables} games finished in {elapsed:.1f} s; via HAProxy, PostgreSQL and Redis)")
        print(f"cpu    : nodes {cpu['nodes']:.1f} s ({per_move['nodes']:.2f} ms per player move), "
              f"redis {per_move['redis']:.3f}, haproxy {per_move['haproxy']:.3f}, postgres {per_move['postgres']:.3f} "
              f"ms per move; all {sum(per_move.values()):.2f} ms per move;  moves/s ÷ echo = {rate / echo_rate:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
