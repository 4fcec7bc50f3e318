"""``append_action`` speed of the stores: SQLite and PostgreSQL, one caller, each append durable on
return as the room needs it (the call that a player's move waits for).

Prints appends/s and the p50/p99 latency of one append for: SQLite (a temporary file; WAL,
synchronous=NORMAL, the store's settings), PostgreSQL on a server of its own started here
(Debian's binaries, PostgreSQL's defaults: every commit flushed to the disk), the same server with
``synchronous_commit=off`` set in the URL (a PostgreSQL crash may lose the last ~0.6 s of commits,
never corrupt; see docs/deploy.md) and, for comparison, with ``fsync=off`` (what the tests run).
``--db URL`` measures an existing PostgreSQL database instead of the local ones (the benchmark's
table ids are new; nothing else is touched).

    .venv/bin/python bench/store.py [--appends 2000] [--db postgresql://user@host:port/db]
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from rich.console import Console
from rich.table import Table

from feltroom.server.pg_local import LocalPostgres
from feltroom.server.store import Store, TableRow, open_store, printable


def measure(store: Store, appends: int) -> tuple[float, float, float]:
    """appends/s, p50 and p99 of one append in ms, over ``appends`` appends to one new table."""
    tid = "bench-" + secrets.token_hex(6)
    store.add_table(TableRow(tid, "crisp", 4, {}, "bench", [{}, {}, {}, {}], state="playing", created=time.time()))
    for seq in range(20):  # warm up: connections, prepared statements, the file
        store.append_action(tid, seq, seq % 4, "draw", time.time())
    latencies = []
    start = time.perf_counter()
    for seq in range(20, 20 + appends):
        before = time.perf_counter()
        store.append_action(tid, seq, seq % 4, "play 7h", time.time())
        latencies.append(time.perf_counter() - before)
    elapsed = time.perf_counter() - start
    assert len(store.actions(tid)) == appends + 20
    store.delete_table(tid)
    cuts = statistics.quantiles(latencies, n=100)
    return appends / elapsed, cuts[49] * 1000, cuts[98] * 1000


ASYNC_COMMIT = "?options=-c%20synchronous_commit%3Doff"  # libpq's options parameter, URL-encoded


@contextmanager
def local_postgres(fsync: bool, url_suffix: str = "") -> Iterator[str]:
    with LocalPostgres(fsync=fsync) as pg:
        yield pg.create_database("bench") + url_suffix


@contextmanager
def sqlite_file() -> Iterator[str]:
    with tempfile.TemporaryDirectory() as folder:
        yield str(Path(folder) / "bench.sqlite")


@contextmanager
def given(url: str) -> Iterator[str]:
    yield url


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--appends", type=int, default=2000, help="appends per store (default 2000)")
    parser.add_argument("--db", help="an existing PostgreSQL database to measure instead of local servers")
    args = parser.parse_args()
    cases = [("SQLite (WAL, synchronous=NORMAL)", sqlite_file())]
    if args.db:
        cases.append((f"PostgreSQL {printable(args.db)}", given(args.db)))
    else:
        cases.append(("PostgreSQL, local, defaults (fsync on)", local_postgres(fsync=True)))
        cases.append(("PostgreSQL, local, URL synchronous_commit=off", local_postgres(True, ASYNC_COMMIT)))
        cases.append(("PostgreSQL, local, fsync=off", local_postgres(fsync=False)))
    table = Table(title=f"append_action, one caller, {args.appends} appends")
    for column in ("store", "appends/s", "p50 ms", "p99 ms"):
        table.add_column(column, justify="left" if column == "store" else "right")
    for name, database in cases:
        with database as db:
            store = open_store(db)
            try:
                rate, p50, p99 = measure(store, args.appends)
            finally:
                store.close()
        table.add_row(name, f"{rate:,.0f}", f"{p50:.3f}", f"{p99:.3f}")
    Console().print(table)


if __name__ == "__main__":
    main()
