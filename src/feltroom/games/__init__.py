"""One rules module per game; importing this package registers them all (and their knowledge samplers)."""

from . import craits, craits_knowledge, cribbage, crisp, crisp_knowledge, krypkasino  # noqa: F401  # noqa: F401  (after the rules modules they sample)
