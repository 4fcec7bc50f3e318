"""bench/server_load.py, where the README's figures of the room under load come from, still runs:
its lean client (bench/ws_client.py) plays a few tables to the end over real sockets, and each
phase prints its figures."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_load_bench_plays_its_tables_to_the_end() -> None:
    run = subprocess.run(
        [sys.executable, "bench/server_load.py", "--game", "cribbage", "--tables", "3", "--speed", "1000",
         "--echo-seconds", "0.3", "--limit", "60", "--options", '{"target": 61}', "--shares"],
        cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stderr[-2000:]
    out = run.stdout
    assert re.search(r"^echo   : +\d+ msgs/s", out, re.M), out
    assert re.search(r"^bcast  : +\d+ moves/s", out, re.M), out
    room = re.search(r"^room   : +\d+ moves/s.*\((\d+) moves, (\d+) raced, (\d+) updates received, 3/3 games finished",
                     out, re.M)
    assert room is not None, out
    moves, updates = int(room.group(1)), int(room.group(3))
    assert moves > 3 * 30  # three games to 61 take dozens of moves each
    assert updates >= 4 * moves  # every move reaches the four seats
    # the CPU a move split into user and system time, for the room and for the bare broadcast
    cpu = re.search(r"^cpu    : room process .* (\d+) µs per player move = (\d+) user \+ (\d+) system", out, re.M)
    assert cpu is not None, out
    assert abs(int(cpu.group(2)) + int(cpu.group(3)) - int(cpu.group(1))) <= 1, out  # rounding apart
    bare = re.search(r"^bcast\+ .* (\d+) µs per move of this shape = (\d+) user \+ (\d+) system\)", out, re.M)
    assert bare is not None, out
    assert abs(int(bare.group(2)) + int(bare.group(3)) - int(bare.group(1))) <= 1, out
    # the bare broadcast again, its frames out as large as the room's updates were
    sized = re.search(r"^bcast\+ : +\d+ moves/s.*frames out of (\d+) bytes, the room's mean update (\d+);", out, re.M)
    assert sized is not None, out
    assert int(sized.group(1)) == int(sized.group(2)) > 500  # a Cribbage update is over a kilobyte
    assert re.search(r"^ratio\+ : moves/s ÷ bcast\+ moves/s = \d", out, re.M), out
    # the calls a core could answer, timed in the room's process: the room without them beside bcast+
    shares = re.search(r"^shares : the calls a core could answer (\d+) µs of the room's (\d+) a move \((.*)\); "
                       r"the timers' own cost (\d+); the room without either (\d+) µs a move, "
                       r"([\d.]+)× bcast\+'s moves/s at most$", out, re.M)
    assert shares is not None, out
    core, room_cpu, timers, without = (int(shares.group(k)) for k in (1, 2, 4, 5))
    assert room_cpu == int(cpu.group(1)) and 0 < core < room_cpu and 0 < timers < core, out
    assert abs(room_cpu - core - timers - without) <= 2, out  # each rounded apart
    parts = dict(re.findall(r"([a-z' ()_]+) ([\d.]+)(?:, |$)", shares.group(3)))
    assert "the engine's apply" in parts and "the action's insert" in parts, out
    assert abs(float(shares.group(6)) - int(bare.group(1)) / without) < 0.03, out


@pytest.mark.slow
def test_the_move_path_bench_times_the_calls_a_core_could_answer() -> None:
    """bench/move_path.py --shares: each timed call a move, and the core's together, a nested call
    counted once: Cribbage's ``apply`` checks legality through its legal actions (about a µs a move,
    in both rows), so the total falls short of the rows' sum."""
    run = subprocess.run([sys.executable, "bench/move_path.py", "--game", "cribbage", "--moves", "400", "--shares"],
                         cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stderr[-2000:]
    out = run.stdout
    assert re.search(r"^cribbage, 4 seats: 400 moves, \d+ µs of CPU per move in the room", out, re.M), out
    rows = dict(re.findall(r"^  (.+?) +([\d.]+) µs a move", out, re.M))
    core_labels = ["the engine's apply", "its legal actions", "the public view", "the own views",
                   "the events' redaction"]
    assert set(core_labels) | {"the action's insert", "the deadlines (_next_due)"} <= set(rows), out
    core = float(rows["the calls a core could answer"])
    parts = [float(rows[label]) for label in core_labels]
    assert max(parts) <= core <= sum(parts) - 0.5, out
    # the timers' own cost: over ten calls a move (apply, five legal lists, the views, the insert…) at
    # a few tenths of a µs each
    timers = re.search(r"^  the timers themselves +([\d.]+) µs a move \(([\d.]+) calls at ([\d.]+) µs;", out, re.M)
    assert timers is not None, out
    assert float(timers.group(2)) > 10 and 0 < float(timers.group(3)) < 5, out
    assert abs(float(timers.group(1)) - float(timers.group(2)) * float(timers.group(3))) < 0.2, out
