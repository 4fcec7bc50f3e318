"""One rules module per game; importing this package registers them all."""

from . import craits, cribbage, crisp, krypkasino  # noqa: F401
