"""One rules module per game; importing this package registers them all (and their knowledge samplers)."""

from . import craits, cribbage, crisp, krypkasino  # noqa: F401
from . import craits_knowledge, crisp_knowledge  # noqa: F401  (after the rules modules they sample)
