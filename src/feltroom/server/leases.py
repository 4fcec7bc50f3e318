"""The timing of a cluster's table leases (cluster.py): how long a lease lasts, how often it is
renewed, how long its owner writes after a renewal, when a node whose event loop stopped turning
lets its leases go, and how often every node looks for tables without an owner.

One set per node, from ``feltroom serve --lease-ttl … --lease-renewals … --lease-valid …
--lease-stuck … --scan-every …`` (docs/deploy.md, "Several nodes"); every node of a cluster should
be given the same. With the defaults the tables of a killed node have a new owner within
``ttl + scan_every`` = 6 s.

Decisions beyond the issue: a set that cannot work is refused at start-up with the flag's name
(``ValueError``): an owner that renewed less often than it may write (``renewals · valid ≤ 1``)
would stop writing between two renewals.

>>> Leases().takeover
6.0
>>> Leases(ttl=1.0, scan_every=0.2).takeover
1.2
>>> Leases(renewals=1)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: --lease-renewals × --lease-valid must be over 1 (here 1 × 0.8): ...
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True, slots=True)
class Leases:
    """The lease timings of one node; every field has its flag in ``FLAGS``."""

    ttl: float = 5.0         # seconds a lease lasts in Redis without renewal (a killed node's tables move after it)
    renewals: int = 5        # renewals per TTL (all the node's leases in one call each time)
    valid: float = 0.8       # share of the TTL, counted from before a renewal was sent, during which the owner writes
    stuck: float = 3.0       # seconds without a turn of the event loop after which the node stops renewing
    scan_every: float = 1.0  # seconds between two scans for tables without an owner (and for nodes gone)

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not value > 0:
                raise ValueError(f"{FLAGS[f.name][0]} must be over 0 (here {value})")
        if not self.valid < 1:
            raise ValueError(f"--lease-valid must be under 1 (here {self.valid}): the owner would write "
                             "while another node may already hold the lease")
        if not self.renewals * self.valid > 1:
            raise ValueError(f"--lease-renewals × --lease-valid must be over 1 (here {self.renewals} × {self.valid}): "
                             "the owner would stop writing between two renewals")

    @property
    def takeover(self) -> float:
        """Seconds after which the tables of a killed node have a new owner, at the latest (the lease
        lapses, then the next scan claims it), beside the time to rebuild them."""
        return self.ttl + self.scan_every

    @property
    def beat(self) -> float:
        """Seconds between two signs of life of the event loop for the renewal thread."""
        return min(0.5, self.stuck / 4)


#: field → (flag of ``feltroom serve``, what it sets)
FLAGS = {
    "ttl": ("--lease-ttl", "seconds a table's lease lasts in Redis without renewal: a killed node's tables move "
                           "after about this long"),
    "renewals": ("--lease-renewals", "renewals of a node's leases per lease TTL"),
    "valid": ("--lease-valid", "share of the lease TTL, counted from before a renewal was sent, during which "
                               "the owner writes a table's changes"),
    "stuck": ("--lease-stuck", "seconds without a turn of a node's event loop after which it stops renewing "
                               "its leases (its tables move)"),
    "scan_every": ("--scan-every", "seconds between two looks of each node for tables without an owner and "
                                   "for nodes gone"),
}
