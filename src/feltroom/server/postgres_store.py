"""The PostgreSQL store (psycopg 3, synchronous): the SQLite store's semantics on a server.

Decisions beyond the ``Store`` interface:

- One connection in autocommit mode: every write is committed (and flushed, with PostgreSQL's
  default ``synchronous_commit=on``) before the call returns, so an action is durable on return,
  as with SQLite. A write is one statement, or one transaction where rows change together
  (``finish``, ``set_ratings``, ``delete_table``). Calls are serialised by a lock, as in SQLite.
- Settings, seats, extras, records and each action's seat are ``json`` (not ``jsonb``): PostgreSQL
  keeps the text as written, so a table reads back key for key as it was saved, as from SQLite.
- Ties in an ordering by id or game name are broken byte-wise (``COLLATE "C"``), as SQLite does,
  whatever the database's locale.
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
from .names import name_key
from .ratings import Rating, Settlement
from .store import UNFINISHED, DuplicateId, FinishedGame, GameLine, PlayerRow, TableRow


def fill_name_keys(db: psycopg.Connection[Any]) -> None:
    """Players stored before name keys get theirs, computed from their names."""
    rows = db.execute("SELECT id, name FROM players WHERE name_key IS NULL").fetchall()
    with db.cursor() as cursor:
        cursor.executemany("UPDATE players SET name_key = %s WHERE id = %s", [(name_key(n), i) for i, n in rows])


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
    Migration(2, "accounts, name keys, ratings and results", (*statements("""
        CREATE TABLE IF NOT EXISTS ratings (
            player text NOT NULL, game text NOT NULL, mu double precision NOT NULL,
            sigma double precision NOT NULL, games integer NOT NULL, PRIMARY KEY (player, game));
        CREATE INDEX IF NOT EXISTS ratings_board ON ratings (game, games, mu);
        CREATE TABLE IF NOT EXISTS results (
            table_id text NOT NULL, seat integer NOT NULL, player text NOT NULL, side integer NOT NULL,
            rank integer NOT NULL, game text NOT NULL, ended double precision NOT NULL,
            PRIMARY KEY (table_id, seat));
        CREATE INDEX IF NOT EXISTS results_player ON results (player, ended);
        CREATE TABLE IF NOT EXISTS tokens (token_hash text PRIMARY KEY, player text NOT NULL);
        ALTER TABLE players ADD COLUMN IF NOT EXISTS password text;
        ALTER TABLE players ADD COLUMN IF NOT EXISTS name_key text;
    """), fill_name_keys, "CREATE INDEX IF NOT EXISTS players_name_key ON players (name_key)")),
)

#: The advisory lock key migrations hold (any constant; this one spells "feltroom" in ASCII).
MIGRATION_LOCK = 0x66656C74726F6F6D

CONNECT_TIMEOUT = 10  # seconds to reach the server, unless the URL sets connect_timeout

PLAYER = "id, name, token_hash, password"  # the columns of a PlayerRow
TABLE_COLUMNS = "id, game, players, options, host, seats, state, seed, salt, fair, created, started, ended, extra"


class PostgresStore:
    """``Store`` on a PostgreSQL database given by a ``postgresql://user@host:port/db`` URL."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._lock = threading.Lock()
        self._closed = False
        self._db = self._connect()
        try:
            migrate(self._db, MIGRATIONS, lock=f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        except BaseException:
            self._db.close()
            raise

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
    def find_player_named(self, name: str) -> PlayerRow | None:
        row = self._one(f"SELECT {PLAYER} FROM players WHERE name_key = %s LIMIT 1", (name_key(name),))
        return PlayerRow(*row) if row else None

    def find_player(self, token_hash: str) -> PlayerRow | None:
        row = self._one(f"SELECT {PLAYER} FROM players WHERE token_hash = %s"
                        " OR id = (SELECT player FROM tokens WHERE token_hash = %s)", (token_hash, token_hash))
        return PlayerRow(*row) if row else None

    def get_player(self, player_id: str) -> PlayerRow | None:
        row = self._one(f"SELECT {PLAYER} FROM players WHERE id = %s", (player_id,))
        return PlayerRow(*row) if row else None

    def add_player(self, player: PlayerRow) -> None:
        try:
            self._write("INSERT INTO players (id, name, token_hash, name_key) VALUES (%s, %s, %s, %s)",
                        (player.id, player.name, player.token_hash, name_key(player.name)))
        except psycopg.errors.UniqueViolation as e:
            raise DuplicateId(f"player {player.id}") from e

    def set_password(self, player_id: str, password_hash: str) -> None:
        self._write("UPDATE players SET password = %s WHERE id = %s", (password_hash, player_id))

    def add_token(self, player_id: str, token_hash: str) -> None:
        self._write("INSERT INTO tokens (token_hash, player) VALUES (%s, %s)", (token_hash, player_id))

    # tables
    def add_table(self, t: TableRow) -> None:
        try:
            self._write(
                f"INSERT INTO tables ({TABLE_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (t.id, t.game, t.players, Json(t.options), t.host, Json(t.seats), t.state, t.seed, t.salt, t.fair,
                 t.created, t.started, t.ended, Json(t.extra)))
        except psycopg.errors.UniqueViolation as e:
            raise DuplicateId(f"table {t.id}") from e

    def save_table(self, t: TableRow) -> None:
        """Update a table added before (a final state is only written by ``finish``, with its record)."""
        with self._lock:
            self._update_table(self._conn(), t, None)

    @staticmethod
    def _update_table(db: psycopg.Connection[Any], t: TableRow, record: dict[str, Any] | None) -> None:
        db.execute(
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

    def flush(self) -> None:
        """Nothing waits: every write commits on return."""

    def actions(self, table_id: str) -> list[tuple[int | str, str]]:
        rows = self._all("SELECT seat, action FROM actions WHERE table_id = %s ORDER BY seq", (table_id,))
        return [(seat, action) for seat, action in rows]

    def unfinished_tables(self) -> list[TableRow]:
        rows = self._all(f"SELECT {TABLE_COLUMNS} FROM tables WHERE state IN (%s, %s) ORDER BY created",
                         UNFINISHED)
        return [TableRow(*r) for r in rows]

    def finish(self, t: TableRow, record: dict[str, Any], settlement: Settlement | None = None) -> None:
        # one transaction: the final state, the record, each seat's result and the new ratings
        # are stored together or not at all
        with self._lock:
            db = self._conn()
            with db.transaction(), db.cursor() as cursor:
                self._update_table(db, t, record)
                if settlement is not None:
                    cursor.executemany(
                        "INSERT INTO results (table_id, seat, player, side, rank, game, ended)"
                        " VALUES (%s, %s, %s, %s, %s, %s, %s)",
                        [(t.id, r.seat, r.player, r.side, r.rank, settlement.game, t.ended or 0.0)
                         for r in settlement.results])
                    cursor.executemany(
                        "INSERT INTO ratings (player, game, mu, sigma, games) VALUES (%s, %s, %s, %s, %s)"
                        " ON CONFLICT (player, game) DO UPDATE"
                        " SET mu = EXCLUDED.mu, sigma = EXCLUDED.sigma, games = EXCLUDED.games",
                        [(p, settlement.game, r.mu, r.sigma, r.games) for p, r in settlement.after.items()])

    # ratings and history
    def ratings(self, game: str, players: list[str]) -> dict[str, Rating]:
        rows = self._all("SELECT player, mu, sigma, games FROM ratings WHERE game = %s AND player = ANY(%s)",
                         (game, list(players)))
        return {p: Rating(mu, sigma, games) for p, mu, sigma, games in rows}

    def player_ratings(self, player: str) -> dict[str, Rating]:
        rows = self._all('SELECT game, mu, sigma, games FROM ratings WHERE player = %s ORDER BY game COLLATE "C"',
                         (player,))
        return {g: Rating(mu, sigma, games) for g, mu, sigma, games in rows}

    def set_ratings(self, game: str, ratings: dict[str, Rating]) -> None:
        with self._lock:
            db = self._conn()
            with db.transaction(), db.cursor() as cursor:
                cursor.execute("DELETE FROM ratings WHERE game = %s", (game,))
                cursor.executemany("INSERT INTO ratings (player, game, mu, sigma, games) VALUES (%s, %s, %s, %s, %s)",
                                   [(p, game, r.mu, r.sigma, r.games) for p, r in ratings.items()])

    def history(self, player: str, before: float | None = None, limit: int = 50) -> list[GameLine]:
        rows = self._all(
            "SELECT r.table_id, r.game, r.ended, r.rank, t.extra FROM results r JOIN tables t ON t.id = r.table_id"
            ' WHERE r.player = %s AND r.ended < %s ORDER BY r.ended DESC, r.table_id COLLATE "C" LIMIT %s',
            (player, float("inf") if before is None else before, limit))
        return [GameLine(tid, game, ended, rank, extra.get("result", {})) for tid, game, ended, rank, extra in rows]

    def leaderboard(self, game: str, min_games: int, limit: int) -> list[tuple[str, str, Rating]]:
        rows = self._all(
            "SELECT r.player, COALESCE(p.name, r.player), r.mu, r.sigma, r.games FROM ratings r"
            " LEFT JOIN players p ON p.id = r.player WHERE r.game = %s AND r.games >= %s"
            ' ORDER BY r.mu - 3 * r.sigma DESC, r.player COLLATE "C" LIMIT %s', (game, min_games, limit))
        return [(p, name, Rating(mu, sigma, games)) for p, name, mu, sigma, games in rows]

    def finished_games(self) -> list[FinishedGame]:
        with self._lock:
            db = self._conn()
            with db.transaction():
                tables = db.execute(
                    "SELECT id, game, record FROM tables WHERE state = 'over' AND record IS NOT NULL"
                    ' ORDER BY ended, id COLLATE "C"').fetchall()
                results = db.execute("SELECT table_id, seat, player FROM results").fetchall()
        players: dict[str, dict[int, str]] = {}
        for tid, seat, player in results:
            players.setdefault(tid, {})[seat] = player
        return [FinishedGame(tid, game, record, [p for _, p in sorted(players.get(tid, {}).items())])
                for tid, game, record in tables]

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
