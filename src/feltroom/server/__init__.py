"""The online room: protocol, lobby, tables, clocks and store (``create_app``)."""

from __future__ import annotations

from .app import create_app
from .clock import Clock, FakeClock, RealClock
from .limits import Limits

__all__ = ["Clock", "FakeClock", "Limits", "RealClock", "create_app"]
