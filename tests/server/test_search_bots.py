"""Bots that search think in worker processes (server/bots.py ``Thinkers``): at a table of three
``search`` bots and a person, over a real uvicorn, the person's moves and pings are answered at
once while the bots think, and the room's event loop never blocks."""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from feltroom.server.bots import Thinkers
from feltroom.server.gc_tuning import DEFAULT_GC_THRESHOLD, tune_gc
from feltroom.server.local_service import free_port

from .served import Peer, Served, create_table
from .test_restart import start_server

#: the loop may spend at most this much of its thread's CPU between two 5 ms probe ticks (issue #15)
MAX_BLOCK = 0.050


class LoopProbe:
    """Ticks every 5 ms on the room's event loop and keeps the largest gap between ticks, both in
    wall time (which the machine's load stretches too) and in the loop thread's CPU time (what
    the loop itself spent: a callback that blocks shows here whatever else runs)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.wall = 0.0
        self.cpu = 0.0
        self.ticks = 0
        self.stop = threading.Event()
        self.future = asyncio.run_coroutine_threadsafe(self._run(), loop)

    async def _run(self) -> None:
        wall, cpu = time.perf_counter(), time.thread_time()
        while not self.stop.is_set():
            await asyncio.sleep(0.005)
            now_wall, now_cpu = time.perf_counter(), time.thread_time()
            self.wall = max(self.wall, now_wall - wall - 0.005)
            self.cpu = max(self.cpu, now_cpu - cpu)
            wall, cpu = now_wall, now_cpu
            self.ticks += 1

    def close(self) -> None:
        self.stop.set()
        self.future.result(5)


def group_alive(pgid: int) -> bool:
    """Whether any process of process group ``pgid`` is still running (zombies aside)."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                return True
    return False


def my_turn(update: dict[str, Any]) -> bool:
    return bool(update.get("legal"))


@pytest.fixture
def as_served() -> Iterator[None]:
    """The collector as ``feltroom serve`` sets it in its process (server/gc_tuning.py): what exists
    when the room starts is frozen out of the full passes. In a test worker what exists includes what
    earlier tests left (a heuristic's memo after many Krypkasino games: a full pass over about 100,000
    objects took 37–51 ms of CPU on an idle machine) that a room process would not hold at its start.
    That such a pass was the 126 ms the probe once saw, beside the search suite, is likely, not shown."""
    threshold = gc.get_threshold()
    tune_gc(DEFAULT_GC_THRESHOLD)
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)


@pytest.mark.slow
def test_a_person_is_answered_while_three_search_bots_think(tmp_path: Path, as_served: None) -> None:
    with Served(tmp_path / "r.sqlite", bot_workers=1) as served, Peer(served.port, "ann") as ann:
        probe = LoopProbe(served.server.servers[0].get_loop())
        tid = create_table(ann, "cribbage", 4, {"counting": "automatic", "target": 61},
                           bots={1: "search", 2: "search", 3: "search"})
        thinkers = served.room.thinkers
        answers: list[float] = []  # seconds from a request to its reply
        overlapped = 0  # requests answered while a bot was thinking
        moves = 0
        deadline = time.monotonic() + 120
        while moves < 8 and time.monotonic() < deadline:
            update = ann.updates.get(tid)
            if update is not None and my_turn(update):
                msg = {"type": "act", "table": tid, "action": update["legal"][0], "seq": update["seq"]}
                moves += 1
            else:
                msg = {"type": "ping"}
            busy = thinkers.thinking > 0
            start = time.perf_counter()
            reply = ann.request(msg)
            answers.append(time.perf_counter() - start)
            overlapped += busy and thinkers.thinking > 0
            assert reply["type"] in ("update", "pong") or reply.get("code") == "stale", reply
            if msg["type"] == "ping":
                time.sleep(0.1)  # under the room's 20 messages a second
        probe.close()
        assert moves == 8, "the person did not get 8 turns"
        assert thinkers.decisions >= 6 and overlapped >= 5
        assert probe.ticks > 100
        print(f"loop: most CPU between ticks {probe.cpu * 1e3:.1f} ms, most wall lag {probe.wall * 1e3:.1f} ms; "
              f"replies: {len(answers)}, slowest {max(answers) * 1e3:.0f} ms; bot decisions {thinkers.decisions}")
        assert probe.cpu <= MAX_BLOCK
        assert max(answers) < 1.0  # a search decision takes about a second: an answer never waited for one


@pytest.mark.parametrize("workers", [0, -1, 1.5])
def test_the_worker_count_is_a_whole_number_of_one_or_more(workers: Any) -> None:
    with pytest.raises(ValueError, match="bot workers"):
        Thinkers(workers)


@pytest.mark.slow
@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_the_room_stops_cleanly_after_its_bots_have_thought(tmp_path: Path, how: str) -> None:
    """Ctrl-C in a terminal signals the whole process group, the bots' workers too; a service
    manager sends SIGTERM to the room alone. Either way the room stops its workers itself: no
    worker's traceback, no pool broken mid-decision (a bot then playing its first legal action),
    no semaphores left to the resource tracker."""
    db = tmp_path / "room.sqlite"
    port = free_port()
    proc = start_server(db, port, new_session=True)
    try:
        with Peer(port, "ann") as ann:
            tid = create_table(ann, "krypkasino", 2, bots={1: "search"})
            seq = 0
            while seq < 4:  # the bot has decided at least once: its worker pool is running
                update = ann.recv_type("update")
                seq = update["seq"]
                if my_turn(update):
                    ann.send({"type": "act", "table": tid, "action": update["legal"][0], "seq": seq})
        sent = signal.SIGINT if how == "ctrl-c" else signal.SIGTERM
        if how == "ctrl-c":
            os.killpg(proc.pid, sent)
        else:
            proc.send_signal(sent)
        # uvicorn shuts down, then raises the signal again so that the exit status tells it
        assert proc.wait(30) in (0, -sent)
        deadline = time.monotonic() + 10  # the workers and the resource tracker leave with the room
        while group_alive(proc.pid):
            assert time.monotonic() < deadline, "a process of the room outlived it"
            time.sleep(0.05)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
    log = db.with_suffix(".log").read_text()  # the tracker, had it found leaks, would have said so by now
    for trouble in ("Traceback", "KeyboardInterrupt", "leaked", "failed"):
        assert trouble not in log, log
