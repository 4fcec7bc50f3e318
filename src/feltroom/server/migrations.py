"""Schema migrations: a ``schema_version`` table and an ordered list of migrations that a store
applies by itself when it opens. Each store keeps its own list (the SQL dialects differ) and runs
it with ``migrate``; SQLite and PostgreSQL share the mechanism and the numbering.

Decisions beyond the task:

- Migration N means the same change in every store: a new migration is added to the list of each
  store (``sqlite_store.MIGRATIONS`` and ``postgres_store.MIGRATIONS``) under the same number.
- Every pending migration and its ``schema_version`` row are applied in ONE transaction: a failure
  leaves the database as it was, and the next start tries again.
- Migrations are applied under a lock, so two processes that start at once on one database apply
  each migration once (SQLite: ``BEGIN IMMEDIATE`` takes the write lock; PostgreSQL: an advisory
  lock held to the end of the transaction).
- A database whose version is newer than the program's list is refused (``SchemaTooNew``): an
  older program must not write to a schema it does not know.
- A database created before ``schema_version`` existed is at version 0 and may already hold part
  of what migrations 1 and 2 make (SQLite files of earlier releases): those two create with
  ``IF NOT EXISTS`` and add a column only where it is missing, so they adopt such a file. Later
  migrations start from a known schema and need no such care.
- A migration is never edited once released: a change is a new migration with the next number.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

#: A step of a migration: a statement (run without parameters), or a function given the store's own
#: connection, for what SQL alone cannot do (filling a new column from Python, checking a column).
Step = str | Callable[[Any], None]


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    what: str               # one line for people reading ``schema_version``
    steps: tuple[Step, ...]  # run in order, in the migration's transaction


class SchemaTooNew(RuntimeError):
    """The database was migrated by a newer program than this one."""


class Connection(Protocol):
    """What ``migrate`` needs of a connection: ``sqlite3`` (isolation_level=None) and psycopg
    (autocommit) both fit; the runner issues BEGIN/COMMIT itself."""

    def execute(self, sql: Any, /) -> Any: ...


SCHEMA_VERSION = ("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, what TEXT NOT NULL,"
                  " applied TEXT NOT NULL)")


def check_order(migrations: Sequence[Migration]) -> None:
    """Versions run 1, 2, 3, … with no gap (a list that breaks this is a programming error)."""
    versions = [m.version for m in migrations]
    if versions != list(range(1, len(versions) + 1)):
        raise ValueError(f"migrations must be numbered 1, 2, 3, … in order: {versions}")


def schema_version(db: Connection) -> int:
    """The version a database is at (0 when it has no ``schema_version`` rows)."""
    row = db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()
    return int(row[0])


def migrate(db: Connection, migrations: Sequence[Migration], *, begin: str = "BEGIN",
            lock: str | None = None) -> list[int]:
    """Bring ``db`` to the last version of ``migrations``; the versions applied now (none when it
    was up to date). ``begin`` opens the transaction, ``lock`` (a statement) is run first in it."""
    check_order(migrations)
    latest = len(migrations)
    db.execute(begin)
    try:
        if lock is not None:
            db.execute(lock)
        db.execute(SCHEMA_VERSION)
        current = schema_version(db)
        if current > latest:
            raise SchemaTooNew(f"the database is at schema version {current}, newer than this program's "
                               f"{latest}: run a newer feltroom on it")
        applied = []
        for m in migrations[current:]:
            for step in m.steps:
                if isinstance(step, str):
                    db.execute(step)
                else:
                    step(db)
            what = m.what.replace("'", "''")
            db.execute(f"INSERT INTO schema_version (version, what, applied) "
                       f"VALUES ({int(m.version)}, '{what}', CURRENT_TIMESTAMP)")
            applied.append(m.version)
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return applied


def statements(script: str) -> tuple[str, ...]:
    """The statements of a script of ``;``-separated DDL (no ``;`` inside a statement).

    >>> statements("CREATE TABLE a (x INT);\\n CREATE INDEX i ON a(x);\\n")
    ('CREATE TABLE a (x INT)', 'CREATE INDEX i ON a(x)')
    """
    return tuple(s.strip() for s in script.split(";") if s.strip())
