"""feltroom serve's cycle collector setting (server/gc_tuning.py, --gc-threshold)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from feltroom.server.cli import main
from feltroom.server.gc_tuning import DEFAULT_GC_THRESHOLD

PROBE = """
import gc, sys
from feltroom.server.gc_tuning import tune_gc
before = gc.get_threshold()
tune_gc(*map(int, sys.argv[1:]))
print(before[0], gc.get_threshold()[0], gc.get_freeze_count() > 0)
"""


def probe(*args: int) -> list[str]:
    """The collector's youngest threshold before and after tune_gc, and whether anything is frozen,
    in a process of its own (the setting is the whole process's)."""
    out = subprocess.run([sys.executable, "-c", PROBE, *map(str, args)], capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_the_default_freezes_start_up_and_raises_the_youngest_threshold() -> None:
    assert probe() == ["700", str(DEFAULT_GC_THRESHOLD), "True"]


def test_a_threshold_set_low_is_what_the_collector_runs_with() -> None:
    assert probe(50) == ["700", "50", "True"]


def test_zero_leaves_pythons_own_collector() -> None:
    assert probe(0) == ["700", "700", "False"]


def test_a_negative_threshold_is_refused() -> None:
    from feltroom.server.gc_tuning import tune_gc

    with pytest.raises(ValueError, match=r"0 .* or more"):
        tune_gc(-1)


def test_serve_refuses_a_negative_threshold_before_it_starts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--gc-threshold", "-1", "--port", "1"]) == 2
    assert "--gc-threshold must be 0 or more" in capsys.readouterr().err
