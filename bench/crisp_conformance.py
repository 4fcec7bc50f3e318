"""A long random-play conformance run for Crisp, outside the test suite.

Runs ``tests.conformance.check_random_game`` (every check after every action) over
2–8 players and the option mixes of ``tests/test_crisp_conformance.py``, with seeds that
the suite does not use, and reports failures with everything needed to reproduce them.

    .venv/bin/python bench/crisp_conformance.py --games 100000 [--start 1000000] [--reject-every 23]
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.conformance import check_random_game

MIXES: list[dict[str, Any]] = [
    {"end_limit": 10},
    {"end_limit": 20, "draw_from_discard": True},
    {"end_limit": 15, "clock": True},
    {"end_limit": 25, "clock": True, "draw_time": 30},
    {"end_limit": 20, "clock": True, "draw_time": 60, "draw_from_discard": True},
    {"end_limit": 40, "clock": True, "draw_from_discard": True},
    {"end_limit": 100, "clock": True, "draw_time": 45},
]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--start", type=int, default=1_000_000)
    ap.add_argument("--reject-every", type=int, default=23)
    args = ap.parse_args()
    t0 = time.perf_counter()
    failures: list[str] = []
    actions = rounds = 0
    for i in range(args.games):
        seed = args.start + i
        players = 2 + i % 7
        options = MIXES[(i // 7) % len(MIXES)]
        try:
            game = check_random_game("crisp", players, seed, options, reject_every=args.reject_every)
        except Exception:  # report, keep going
            failures.append(f"players={players} seed={seed} options={options}\n{traceback.format_exc()}")
            continue
        actions += len(game.actions)
        rounds += sum(1 for e in game.log if e["type"] == "round_end")
        if (i + 1) % 10_000 == 0:
            print(f"{i + 1} games, {time.perf_counter() - t0:.0f} s, {len(failures)} failures", flush=True)
    dt = time.perf_counter() - t0
    print(f"{args.games} games ({rounds} rounds, {actions} actions) in {dt:.0f} s "
          f"({args.games / dt:.0f} games/s); failures: {len(failures)}")
    for f in failures[:20]:
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
