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
         "--echo-seconds", "0.3", "--limit", "60", "--options", '{"target": 61}'],
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
