"""Abuse limits: message size, a token bucket per connection, bounds per client and per address.

>>> bucket = TokenBucket(rate=1.0, burst=2.0, now=0.0)
>>> [bucket.take(0.0), bucket.take(0.0), bucket.take(0.0), bucket.take(1.0)]
[True, True, False, True]
>>> per_address = KeyedRate(count=2, period=60.0)
>>> [per_address.take("1.2.3.4", 0.0) for _ in range(3)], per_address.take("5.6.7.8", 0.0)
([True, True, False], True)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    """Every bound the room enforces; ``create_app(limits=…)`` overrides them."""

    max_message: int = 16 * 1024        # bytes of one text frame → too_large, then close
    rate: float = 20.0                  # messages per second, sustained …
    burst: float = 60.0                 # … with this many at once
    abuse_strikes: int = 30             # rate_limited answers in a row before the socket is closed
    max_name: int = 24                  # characters in a guest name
    max_chat: int = 300                 # characters in one chat message
    chat_rate: float = 1.0              # chat lines per second per player (all its sockets), sustained …
    chat_burst: int = 5                 # … with this many at once
    max_action: int = 200               # characters in one action string
    max_connections: int = 10_000       # WebSockets in the whole room (beyond: accepted, then closed 1013)
    max_sockets_per_address: int = 50   # WebSockets of one client address at once (beyond: closed 1013)
    hello_timeout: float = 10.0         # seconds a socket may wait before its hello (then closed 1008)
    max_tcp_connections: int = 12_000   # TCP connections of every kind (beyond: HTTP 503, closed at once)
    max_tcp_per_address: int = 100      # TCP connections of one direct peer that is not a trusted proxy (503)
    head_timeout: float = 10.0          # seconds to send a whole HTTP request head (then the TCP is closed)
    max_request_head: int = 16 * 1024   # bytes of an HTTP request line and headers (beyond: 431, closed)
    keep_alive: float = 5.0             # seconds an idle HTTP keep-alive connection stays open
    max_sockets_per_player: int = 8     # tabs of one player
    max_open_tables_per_player: int = 8  # unfinished tables a player sits at (or hosts)
    max_watch_per_socket: int = 32      # tables one socket spectates
    max_queue_bytes: int = 1024 * 1024  # bytes waiting for a slow client before it is dropped (1013)
    write_stall: float = 20.0           # seconds a socket's writes may stay blocked before it is dropped
    new_players_per_minute: int = 20    # new guest identities from one client address
    new_tables_per_hour: int = 30       # tables created from one client address
    idle_standin: float = 300.0         # seconds an untimed seat may owe an action while another human waits
    abandon_after: float = 300.0        # seconds past the grace period a table with every human away is kept
    replay_page: int = 500              # steps (views) in one page of GET /api/games/{table}/replay
    rematch_window: float = 60.0        # seconds a rematch offer waits for every player of the game
    failed_logins_per_minute: int = 5   # wrong passwords for one name before login answers rate_limited


class TokenBucket:
    """``rate`` tokens a second up to ``burst``; ``take`` spends one if it can."""

    __slots__ = ("burst", "last", "rate", "tokens")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.last = now

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class KeyedRate:
    """``count`` events per ``period`` seconds for each key (a client address), as token buckets.

    Buckets that have filled up again are the same as new ones, so they are dropped when the
    map grows past ``keep`` keys: the memory stays bounded by the keys active in one period."""

    __slots__ = ("buckets", "count", "keep", "period")

    def __init__(self, count: int, period: float, keep: int = 10_000) -> None:
        self.count = count
        self.period = period
        self.keep = keep
        self.buckets: dict[str, TokenBucket] = {}

    def allows(self, key: str, now: float) -> bool:
        """Whether ``take`` would succeed now (nothing is spent)."""
        b = self.buckets.get(key)
        return b is None or b.tokens + (now - b.last) * b.rate >= 1.0

    def take(self, key: str, now: float) -> bool:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self.keep:
                self._drop_full(now)
            bucket = self.buckets[key] = TokenBucket(self.count / self.period, self.count, now)
        return bucket.take(now)

    def _drop_full(self, now: float) -> None:
        for key, b in list(self.buckets.items()):
            if b.tokens + (now - b.last) * b.rate >= b.burst:
                del self.buckets[key]
