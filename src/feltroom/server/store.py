"""The room's storage interface, and ``open_store`` to pick one by URL.

The room only talks to this small interface; ``open_store`` picks the SQLite store (a path, the
default) or the PostgreSQL store (a ``postgresql://`` URL) behind it. Both migrate their schema
by themselves when they open (``migrations.py``).

>>> sqlite_path("sqlite:///data/room.sqlite"), sqlite_path("room.sqlite"), sqlite_path(None)
('data/room.sqlite', 'room.sqlite', 'feltroom.sqlite')
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeGuard
from urllib.parse import urlsplit, urlunsplit

if TYPE_CHECKING:
    from .ratings import Rating, Settlement

DEFAULT_DATABASE = "feltroom.sqlite"


@dataclass(slots=True)
class PlayerRow:
    id: str
    name: str
    token_hash: str                 # the hash of the token the player was made with
    password: str | None = None     # an argon2id hash once the name is protected (an account)


@dataclass(slots=True)
class TableRow:
    """A table's settings and state; its actions are stored one row each."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    host: str
    seats: list[dict[str, Any]]           # per seat: {"player": id|None, "bot": level|None, "left": bool, …}
    state: str = "waiting"                # waiting, playing, over, abandoned
    seed: int | None = None
    salt: str | None = None
    fair: str | None = None
    created: float = 0.0
    started: float | None = None
    ended: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def new_id(prefix: str = "") -> str:
    """A fresh random id of 64 bits (the store refuses a repeat; the caller draws again)."""
    return prefix + secrets.token_hex(8)


class GameLine(NamedTuple):
    """A player's line in its history: the table, the game, when it ended, its place, and the
    table's result (``names``, ``scores``, ``winners``)."""

    table: str
    game: str
    ended: float
    rank: int
    result: dict[str, Any]


class FinishedGame(NamedTuple):
    """A game that ended by its rules, with its record and the rated identity of each seat."""

    table: str
    game: str
    record: dict[str, Any]
    players: list[str]


class DuplicateId(Exception):
    """``add_player``/``add_table`` found the id taken: nothing was written (draw another id)."""


#: The states of a stored table; ``over`` and ``abandoned`` are final (the record is written with them).
UNFINISHED = ("waiting", "playing")


class Store(Protocol):
    """What the room stores. Every call is short; ``append_action`` is durable on return, or, while
    an event loop runs, a store may group the actions of one turn of the loop into one commit at
    the turn's end (SQLite): ``flush()`` commits them at once, and the room calls it before anything
    it sends leaves the process (a socket's writer, the cluster's bus), so an action is durable
    before any player sees it.

    Rows are added with a plain insert that never replaces (``DuplicateId``), and a game ends
    in one transaction: its final state, its record, each seat's result and the new ratings
    together (``finish``)."""

    def find_player(self, token_hash: str) -> PlayerRow | None: ...
    def find_player_named(self, name: str) -> PlayerRow | None: ...  # the same names.name_key
    def get_player(self, player_id: str) -> PlayerRow | None: ...
    def add_player(self, player: PlayerRow) -> None: ...
    def set_password(self, player_id: str, password_hash: str) -> None: ...
    def add_token(self, player_id: str, token_hash: str) -> None: ...
    def add_table(self, table: TableRow) -> None: ...
    def save_table(self, table: TableRow) -> None: ...
    def delete_table(self, table_id: str) -> None: ...
    def append_action(self, table_id: str, seq: int, seat: int | str, action: str, at: float) -> None: ...
    def flush(self) -> None: ...
    def actions(self, table_id: str) -> list[tuple[int | str, str]]: ...
    def unfinished_tables(self) -> list[TableRow]: ...
    def finish(self, table: TableRow, record: dict[str, Any], settlement: Settlement | None = None) -> None: ...
    def ratings(self, game: str, players: list[str]) -> dict[str, Rating]: ...
    def player_ratings(self, player: str) -> dict[str, Rating]: ...
    def set_ratings(self, game: str, ratings: dict[str, Rating]) -> None: ...
    def history(self, player: str, before: float | None = None, limit: int = 50) -> list[GameLine]: ...
    def leaderboard(self, game: str, min_games: int, limit: int) -> list[tuple[str, str, Rating]]: ...
    def finished_games(self) -> list[FinishedGame]: ...
    def record(self, table_id: str) -> dict[str, Any] | None: ...
    def close(self) -> None: ...


def sqlite_path(database: str | None) -> str:
    """The file path of a SQLite database given as a path or ``sqlite:///path``."""
    if database is None:
        return DEFAULT_DATABASE
    if database.startswith("sqlite:///"):
        return database[len("sqlite:///"):]
    if database.startswith("sqlite://"):
        return database[len("sqlite://"):]
    return database


def is_postgres(database: str | None) -> TypeGuard[str]:
    """Whether ``database`` names a PostgreSQL database (a ``postgresql://`` or ``postgres://`` URL)."""
    return database is not None and database.startswith(("postgresql://", "postgres://"))


def printable(database: str) -> str:
    """``database`` as it may be printed or logged: a URL's password replaced by ``***``.

    >>> printable("postgresql://room:s3cret@db.example:5432/feltroom"), printable("room.sqlite")
    ('postgresql://room:***@db.example:5432/feltroom', 'room.sqlite')
    """
    if not is_postgres(database):
        return database
    url = urlsplit(database)
    if url.password is None:
        return database
    host = url.netloc.rpartition("@")[2]
    return urlunsplit(url._replace(netloc=f"{url.username or ''}:***@{host}"))


def open_store(database: str | None) -> Store:
    """A store for ``database``: a SQLite file path or ``sqlite:///path`` (default ``feltroom.sqlite``),
    or a PostgreSQL URL ``postgresql://user[:password]@host[:port]/database``."""
    if is_postgres(database):
        from .postgres_store import PostgresStore

        return PostgresStore(database)
    from .sqlite_store import SQLiteStore

    return SQLiteStore(sqlite_path(database))
