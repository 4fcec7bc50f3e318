"""The PostgreSQL store (psycopg 3, synchronous): the SQLite store's semantics on a server.

Decisions beyond the ``Store`` interface:

- One connection in autocommit mode: every write is one statement that PostgreSQL commits (and
  flushes, with its default ``synchronous_commit=on``) before the call returns, so an action is
  durable on return, as with SQLite. Calls are serialised by a lock, as the room is one thread.
- Settings, seats, records and a seat's name are ``json`` (not ``jsonb``): PostgreSQL keeps the
  text as written, so a table reads back key for key as it was saved, as from SQLite.
- A broken connection (the server restarted, the network dropped) fails the call that found it
  and is opened again by the next call; nothing is retried, so no write can be applied twice.
- The schema is migrated at open (``migrations.migrate``), under an advisory lock so that several
  room processes that start at once on one database apply each migration once.
"""

from __future__ import annotations

import threading
from typing import Any

import psycopg
from psycopg.types.json import Json

from .migrations import Migration, migrate, statements
from .store import UNFINISHED, DuplicateId, PlayerRow, TableRow

#: The schema's history; migration N makes the same change as ``sqlite_store.MIGRATIONS``' N.
MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "players, tables and actions", statements("""
        CREATE TABLE IF NOT EXISTS players (
            id text PRIMARY KEY, name text NOT NULL, token_hash text NOT NULL UNIQUE);
        CREATE TABLE IF NOT EXISTS tables (
            id text PRIMARY KEY, game text NOT NULL, players integer NOT NULL, options json NOT NULL,
            host text NOT NULL, seats json NOT NULL, state text NOT NULL, seed bigint, salt text, fair text,
            created double precision NOT NULL, started double precision, ended double precision,
            extra json NOT NULL DEFAULT '{}', record json);
        CREATE INDEX IF NOT EXISTS tables_state ON tables (state);
        CREATE TABLE IF NOT EXISTS actions (
            table_id text NOT NULL, seq integer NOT NULL, seat json NOT NULL, action text NOT NULL,
            at double precision NOT NULL, PRIMARY KEY (table_id, seq));
    """)),
)

#: The advisory lock key migrations hold (any constant; this one spells "feltroom" in ASCII).
MIGRATION_LOCK = 0x66656C74726F6F6D

CONNECT_TIMEOUT = 10  # seconds to reach the server, unless the URL sets connect_timeout

TABLE_COLUMNS = "id, game, players, options, host, seats, state, seed, salt, fair, created, started, ended, extra"


class PostgresStore:
    """``Store`` on a PostgreSQL database given by a ``postgresql://user@host:port/db`` URL."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._lock = threading.Lock()
        self._closed = False
        self._db = self._connect()
        migrate(self._db, MIGRATIONS, lock=f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")

    def _connect(self) -> psycopg.Connection[Any]:
        params: dict[str, Any] = {} if "connect_timeout" in self.url else {"connect_timeout": CONNECT_TIMEOUT}
        return psycopg.connect(self.url, autocommit=True, **params)

    def _conn(self) -> psycopg.Connection[Any]:
        """The connection, opened again if the last one broke (call with the lock held)."""
        if self._closed:
            raise RuntimeError("the store is closed")
        if self._db.broken or self._db.closed:
            self._db = self._connect()
        return self._db

    def _one(self, sql: str, params: tuple[Any, ...]) -> tuple[Any, ...] | None:
        with self._lock:
            row: tuple[Any, ...] | None = self._conn().execute(sql, params).fetchone()
            return row

    def _all(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._conn().execute(sql, params).fetchall()

    def _write(self, sql: str, params: tuple[Any, ...]) -> None:
        with self._lock:
            self._conn().execute(sql, params)

    # players
    def find_player(self, token_hash: str) -> PlayerRow | None:
        row = self._one("SELECT id, name, token_hash FROM players WHERE token_hash = %s", (token_hash,))
        return PlayerRow(*row) if row else None

    def get_player(self, player_id: str) -> PlayerRow | None:
        row = self._one("SELECT id, name, token_hash FROM players WHERE id = %s", (player_id,))
        return PlayerRow(*row) if row else None

    def add_player(self, player: PlayerRow) -> None:
        try:
            self._write("INSERT INTO players (id, name, token_hash) VALUES (%s, %s, %s)",
                        (player.id, player.name, player.token_hash))
        except psycopg.errors.UniqueViolation as e:
            raise DuplicateId(f"player {player.id}") from e

    # tables
    def add_table(self, t: TableRow) -> None:
        try:
            self._write(
                f"INSERT INTO tables ({TABLE_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (t.id, t.game, t.players, Json(t.options), t.host, Json(t.seats), t.state, t.seed, t.salt, t.fair,
                 t.created, t.started, t.ended, Json(t.extra)))
        except psycopg.errors.UniqueViolation as e:
            raise DuplicateId(f"table {t.id}") from e

    def save_table(self, t: TableRow, record: dict[str, Any] | None = None) -> None:
        """Update a table added before; a final state is only ever written with its record."""
        self._write(
            "UPDATE tables SET host = %s, seats = %s, state = %s, seed = %s, salt = %s, fair = %s, started = %s,"
            " ended = %s, extra = %s, record = %s WHERE id = %s",
            (t.host, Json(t.seats), t.state, t.seed, t.salt, t.fair, t.started, t.ended, Json(t.extra),
             None if record is None else Json(record), t.id))

    def delete_table(self, table_id: str) -> None:
        with self._lock:
            db = self._conn()
            with db.transaction():
                db.execute("DELETE FROM tables WHERE id = %s", (table_id,))
                db.execute("DELETE FROM actions WHERE table_id = %s", (table_id,))

    def append_action(self, table_id: str, seq: int, seat: int | str, action: str, at: float) -> None:
        self._write("INSERT INTO actions (table_id, seq, seat, action, at) VALUES (%s, %s, %s, %s, %s)",
                    (table_id, seq, Json(seat), action, at))

    def actions(self, table_id: str) -> list[tuple[int | str, str]]:
        rows = self._all("SELECT seat, action FROM actions WHERE table_id = %s ORDER BY seq", (table_id,))
        return [(seat, action) for seat, action in rows]

    def unfinished_tables(self) -> list[TableRow]:
        rows = self._all(f"SELECT {TABLE_COLUMNS} FROM tables WHERE state IN (%s, %s) ORDER BY created",
                         UNFINISHED)
        return [TableRow(*r) for r in rows]

    def finish(self, t: TableRow, record: dict[str, Any]) -> None:
        # one statement: the final state and the record are stored together or not at all
        self.save_table(t, record)

    def record(self, table_id: str) -> dict[str, Any] | None:
        row = self._one("SELECT record FROM tables WHERE id = %s AND state NOT IN (%s, %s)",
                        (table_id, *UNFINISHED))
        if not row or row[0] is None:
            return None
        result: dict[str, Any] = row[0]
        return result

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._db.close()
