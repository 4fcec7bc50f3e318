"""The SQLite store: one file, WAL, each action committed before it is broadcast."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from typing import Any

from .migrations import Migration, migrate, statements
from .store import UNFINISHED, DuplicateId, PlayerRow, TableRow

SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, players INTEGER NOT NULL, options TEXT NOT NULL,
    host TEXT NOT NULL, seats TEXT NOT NULL, state TEXT NOT NULL, seed INTEGER, salt TEXT, fair TEXT,
    created REAL NOT NULL, started REAL, ended REAL, extra TEXT NOT NULL DEFAULT '{}', record TEXT);
CREATE INDEX IF NOT EXISTS tables_state ON tables(state);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL, seq INTEGER NOT NULL, seat TEXT NOT NULL, action TEXT NOT NULL, at REAL NOT NULL,
    PRIMARY KEY (table_id, seq)) WITHOUT ROWID;
"""

#: The schema's history (``migrations.py``); migration N makes the same change as ``postgres_store.MIGRATIONS``' N.
MIGRATIONS: tuple[Migration, ...] = (Migration(1, "players, tables and actions", statements(SCHEMA)),)


class SQLiteStore:
    """``Store`` on a SQLite file (stdlib ``sqlite3``; WAL, synchronous=NORMAL: a killed
    process loses nothing that was committed)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA busy_timeout=5000")
        migrate(self._db, MIGRATIONS, begin="BEGIN IMMEDIATE")
        # Checkpoints (the only writes that fsync with synchronous=NORMAL) run in a thread of their
        # own, so that a slow disk never stalls a commit on the event loop.
        self._db.execute("PRAGMA wal_autocheckpoint=0")
        self._stop = threading.Event()
        self._checkpointer = threading.Thread(target=self._checkpoint_loop, name="sqlite-checkpoint", daemon=True)
        self._checkpointer.start()

    def _checkpoint_loop(self, every: float = 1.0) -> None:
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            db.execute("PRAGMA busy_timeout=5000")
            while not self._stop.wait(every):
                with contextlib.suppress(sqlite3.Error):
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error:
            pass
        finally:
            db.close()

    # players
    def find_player(self, token_hash: str) -> PlayerRow | None:
        with self._lock:
            row = self._db.execute("SELECT id, name, token_hash FROM players WHERE token_hash=?",
                                   (token_hash,)).fetchone()
        return PlayerRow(*row) if row else None

    def get_player(self, player_id: str) -> PlayerRow | None:
        with self._lock:
            row = self._db.execute("SELECT id, name, token_hash FROM players WHERE id=?", (player_id,)).fetchone()
        return PlayerRow(*row) if row else None

    def add_player(self, player: PlayerRow) -> None:
        with self._lock:
            try:
                self._db.execute("INSERT INTO players (id, name, token_hash) VALUES (?, ?, ?)",
                                 (player.id, player.name, player.token_hash))
            except sqlite3.IntegrityError as e:
                raise DuplicateId(f"player {player.id}") from e

    # tables
    def add_table(self, t: TableRow) -> None:
        with self._lock:
            try:
                self._db.execute(
                    "INSERT INTO tables (id, game, players, options, host, seats, state, seed, salt, fair,"
                    " created, started, ended, extra) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (t.id, t.game, t.players, json.dumps(t.options), t.host, json.dumps(t.seats), t.state, t.seed,
                     t.salt, t.fair, t.created, t.started, t.ended, json.dumps(t.extra)))
            except sqlite3.IntegrityError as e:
                raise DuplicateId(f"table {t.id}") from e

    def save_table(self, t: TableRow, record: dict[str, Any] | None = None) -> None:
        """Update a table added before; a final state is only ever written with its record."""
        with self._lock:
            self._db.execute(
                "UPDATE tables SET host=?, seats=?, state=?, seed=?, salt=?, fair=?, started=?, ended=?, extra=?,"
                " record=? WHERE id=?",
                (t.host, json.dumps(t.seats), t.state, t.seed, t.salt, t.fair, t.started, t.ended,
                 json.dumps(t.extra), None if record is None else json.dumps(record), t.id))

    def delete_table(self, table_id: str) -> None:
        with self._lock:
            self._db.execute("DELETE FROM tables WHERE id=?", (table_id,))
            self._db.execute("DELETE FROM actions WHERE table_id=?", (table_id,))

    def append_action(self, table_id: str, seq: int, seat: int | str, action: str, at: float) -> None:
        with self._lock:
            self._db.execute("INSERT INTO actions (table_id, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                             (table_id, seq, json.dumps(seat), action, at))

    def actions(self, table_id: str) -> list[tuple[int | str, str]]:
        with self._lock:
            rows = self._db.execute("SELECT seat, action FROM actions WHERE table_id=? ORDER BY seq",
                                    (table_id,)).fetchall()
        return [(json.loads(seat), action) for seat, action in rows]

    def unfinished_tables(self) -> list[TableRow]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, game, players, options, host, seats, state, seed, salt, fair, created, started, ended,"
                " extra FROM tables WHERE state IN (?, ?) ORDER BY created", UNFINISHED).fetchall()
        return [TableRow(r[0], r[1], r[2], json.loads(r[3]), r[4], json.loads(r[5]), r[6], r[7], r[8], r[9],
                         r[10], r[11], r[12], json.loads(r[13])) for r in rows]

    def finish(self, t: TableRow, record: dict[str, Any]) -> None:
        # one statement: the final state and the record are stored together or not at all
        self.save_table(t, record)

    def record(self, table_id: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._db.execute("SELECT record FROM tables WHERE id=? AND state NOT IN (?, ?)",
                                   (table_id, *UNFINISHED)).fetchone()
        if not row or row[0] is None:
            return None
        result: dict[str, Any] = json.loads(row[0])
        return result

    def close(self) -> None:
        self._stop.set()
        self._checkpointer.join(10)
        with self._lock:
            self._db.close()
