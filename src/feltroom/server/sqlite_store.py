"""The SQLite store: one file, WAL, each action committed before it is broadcast.

While an event loop runs, the actions of one turn of the loop share one transaction, committed
at the turn's end or by ``flush()`` (which the room calls before anything it sends leaves the
process): a commit appends the WAL and takes its locks, 11 µs on this machine, and at saturation a
turn holds several moves of different tables. Without a running loop each action commits alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import threading
from typing import Any

from .migrations import Migration, migrate, statements
from .names import name_key
from .ratings import Rating, Settlement
from .store import UNFINISHED, DuplicateId, FinishedGame, GameLine, PlayerRow, TableRow

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

ACCOUNTS_AND_RATINGS = """
CREATE TABLE IF NOT EXISTS ratings (
    player TEXT NOT NULL, game TEXT NOT NULL, mu REAL NOT NULL, sigma REAL NOT NULL, games INTEGER NOT NULL,
    PRIMARY KEY (player, game)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS ratings_board ON ratings(game, games, mu);
CREATE TABLE IF NOT EXISTS results (
    table_id TEXT NOT NULL, seat INTEGER NOT NULL, player TEXT NOT NULL, side INTEGER NOT NULL,
    rank INTEGER NOT NULL, game TEXT NOT NULL, ended REAL NOT NULL,
    PRIMARY KEY (table_id, seat)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS results_player ON results(player, ended);
CREATE TABLE IF NOT EXISTS tokens (
    token_hash TEXT PRIMARY KEY, player TEXT NOT NULL) WITHOUT ROWID;
"""


def players_password_and_name_key(db: sqlite3.Connection) -> None:
    """Files from before accounts get the password column (every old player a guest); files from
    before name keys get the column, filled from the stored names. (Files made before migrations
    existed may have either already: hence the checks.)"""
    columns = {row[1] for row in db.execute("PRAGMA table_info(players)")}
    if "password" not in columns:
        db.execute("ALTER TABLE players ADD COLUMN password TEXT")
    if "name_key" not in columns:
        db.execute("ALTER TABLE players ADD COLUMN name_key TEXT")
    rows = db.execute("SELECT id, name FROM players WHERE name_key IS NULL").fetchall()
    db.executemany("UPDATE players SET name_key=? WHERE id=?", [(name_key(n), i) for i, n in rows])
    db.execute("CREATE INDEX IF NOT EXISTS players_name_key ON players(name_key)")


#: The schema's history (``migrations.py``); migration N makes the same change as ``postgres_store.MIGRATIONS``' N.
MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "players, tables and actions", statements(SCHEMA)),
    Migration(2, "accounts, name keys, ratings and results",
              (*statements(ACCOUNTS_AND_RATINGS), players_password_and_name_key)),
)


PLAYER = "id, name, token_hash, password"  # the columns of a PlayerRow


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
    def find_player_named(self, name: str) -> PlayerRow | None:
        with self._lock:
            row = self._db.execute(f"SELECT {PLAYER} FROM players WHERE name_key=? LIMIT 1",
                                   (name_key(name),)).fetchone()
        return PlayerRow(*row) if row else None

    def find_player(self, token_hash: str) -> PlayerRow | None:
        with self._lock:
            row = self._db.execute(
                f"SELECT {PLAYER} FROM players WHERE token_hash=?1"
                " OR id=(SELECT player FROM tokens WHERE token_hash=?1)", (token_hash,)).fetchone()
        return PlayerRow(*row) if row else None

    def get_player(self, player_id: str) -> PlayerRow | None:
        with self._lock:
            row = self._db.execute(f"SELECT {PLAYER} FROM players WHERE id=?", (player_id,)).fetchone()
        return PlayerRow(*row) if row else None

    def add_player(self, player: PlayerRow) -> None:
        with self._lock:
            try:
                self._db.execute("INSERT INTO players (id, name, token_hash, name_key) VALUES (?, ?, ?, ?)",
                                 (player.id, player.name, player.token_hash, name_key(player.name)))
            except sqlite3.IntegrityError as e:
                raise DuplicateId(f"player {player.id}") from e

    def set_password(self, player_id: str, password_hash: str) -> None:
        with self._lock:
            self._db.execute("UPDATE players SET password=? WHERE id=?", (password_hash, player_id))

    def add_token(self, player_id: str, token_hash: str) -> None:
        with self._lock:
            self._db.execute("INSERT INTO tokens (token_hash, player) VALUES (?, ?)", (token_hash, player_id))

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

    def save_table(self, t: TableRow) -> None:
        """Update a table added before (a final state is only written by ``finish``, with its record)."""
        with self._lock:
            self._update_table(t, None)

    def _update_table(self, t: TableRow, record: dict[str, Any] | None) -> None:
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
            self._group()
            self._db.execute("INSERT INTO actions (table_id, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                             (table_id, seq, str(seat) if type(seat) is int else json.dumps(seat), action, at))

    def _group(self) -> None:
        """Join the loop turn's transaction, opening it (and its commit at the turn's end) if need be."""
        if self._db.in_transaction:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop: the statement commits alone
        self._db.execute("BEGIN")
        loop.call_soon(self.flush)

    def flush(self) -> None:
        try:
            pending = self._db.in_transaction
        except sqlite3.ProgrammingError:  # closed: nothing can be pending
            return
        if pending:
            with self._lock:
                self._commit_group()

    def _commit_group(self) -> None:
        if self._db.in_transaction:
            self._db.execute("COMMIT")

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

    def finish(self, t: TableRow, record: dict[str, Any], settlement: Settlement | None = None) -> None:
        # one transaction: the final state, the record, each seat's result and the new ratings
        # are stored together or not at all
        with self._lock:
            db = self._db
            self._commit_group()
            db.execute("BEGIN IMMEDIATE")
            try:
                self._update_table(t, record)
                if settlement is not None:
                    db.executemany(
                        "INSERT INTO results (table_id, seat, player, side, rank, game, ended)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?)",
                        [(t.id, r.seat, r.player, r.side, r.rank, settlement.game, t.ended or 0.0)
                         for r in settlement.results])
                    db.executemany(
                        "INSERT OR REPLACE INTO ratings (player, game, mu, sigma, games) VALUES (?, ?, ?, ?, ?)",
                        [(p, settlement.game, r.mu, r.sigma, r.games) for p, r in settlement.after.items()])
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    # ratings and history
    def ratings(self, game: str, players: list[str]) -> dict[str, Rating]:
        with self._lock:
            marks = ",".join("?" * len(players))
            rows = self._db.execute(
                f"SELECT player, mu, sigma, games FROM ratings WHERE game=? AND player IN ({marks})",
                (game, *players)).fetchall()
        return {p: Rating(mu, sigma, games) for p, mu, sigma, games in rows}

    def player_ratings(self, player: str) -> dict[str, Rating]:
        with self._lock:
            rows = self._db.execute("SELECT game, mu, sigma, games FROM ratings WHERE player=? ORDER BY game",
                                    (player,)).fetchall()
        return {g: Rating(mu, sigma, games) for g, mu, sigma, games in rows}

    def set_ratings(self, game: str, ratings: dict[str, Rating]) -> None:
        with self._lock:
            self._commit_group()
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM ratings WHERE game=?", (game,))
            self._db.executemany("INSERT INTO ratings (player, game, mu, sigma, games) VALUES (?, ?, ?, ?, ?)",
                                 [(p, game, r.mu, r.sigma, r.games) for p, r in ratings.items()])
            self._db.execute("COMMIT")

    def history(self, player: str, before: float | None = None, limit: int = 50) -> list[GameLine]:
        with self._lock:
            rows = self._db.execute(
                "SELECT r.table_id, r.game, r.ended, r.rank, t.extra FROM results r JOIN tables t ON t.id = r.table_id"
                " WHERE r.player=? AND r.ended < ? ORDER BY r.ended DESC, r.table_id LIMIT ?",
                (player, float("inf") if before is None else before, limit)).fetchall()
        return [GameLine(tid, game, ended, rank, json.loads(extra).get("result", {}))
                for tid, game, ended, rank, extra in rows]

    def leaderboard(self, game: str, min_games: int, limit: int) -> list[tuple[str, str, Rating]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT r.player, COALESCE(p.name, r.player), r.mu, r.sigma, r.games FROM ratings r"
                " LEFT JOIN players p ON p.id = r.player WHERE r.game=? AND r.games >= ?"
                " ORDER BY r.mu - 3 * r.sigma DESC, r.player LIMIT ?", (game, min_games, limit)).fetchall()
        return [(p, name, Rating(mu, sigma, games)) for p, name, mu, sigma, games in rows]

    def finished_games(self) -> list[FinishedGame]:
        with self._lock:
            tables = self._db.execute(
                "SELECT id, game, record FROM tables WHERE state='over' AND record IS NOT NULL"
                " ORDER BY ended, id").fetchall()
            results = self._db.execute("SELECT table_id, seat, player FROM results").fetchall()
        players: dict[str, dict[int, str]] = {}
        for tid, seat, player in results:
            players.setdefault(tid, {})[seat] = player
        return [FinishedGame(tid, game, json.loads(record), [p for _, p in sorted(players.get(tid, {}).items())])
                for tid, game, record in tables]

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
        with self._lock, contextlib.suppress(sqlite3.ProgrammingError):  # closed before
            self._commit_group()
            self._db.close()
