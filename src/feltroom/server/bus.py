"""What a room asks of the other nodes of a cluster (``feltroom serve --redis``): the small
interface between the room and the layer that joins several room processes.

One process alone (no ``--redis``) has no bus: the room's ``bus`` is ``None`` and every table
it knows is its own. With a bus (``cluster.RedisBus``) each running table has one owner node;
the room asks the bus:

- ``forward``: a message for a table this node does not own goes to its owner (the answer and
  every later update come back to the socket through the bus, already redacted by the owner);
- ``added`` / ``changed``: a table this node owns is new, or its seats or state changed (the
  lobby of every node shows it; an ended table gives up its lease);
- ``lobby``: the lobby's entries of every node; ``player_tables``: a player's seats anywhere;
- ``welcomed`` / ``detached``: a socket of this node speaks for a player from now on (the owners
  of its tables hear of it, as a reconnect), or no longer does.

The owner writes a table's changes to the store only while it holds the table's lease:
``fenced`` wraps the store so that a write for a table whose lease may have lapsed raises
``LeaseLost`` and changes nothing (the store's ``(table, seq)`` key refuses an action the next
owner stored already).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .connection import Connection
    from .protocol import ClientMessage
    from .ratings import Rating, Settlement
    from .room import Room
    from .store import FinishedGame, GameLine, PlayerRow, Store, TableRow
    from .table import Table


class LeaseLost(Exception):
    """This node no longer owns the table (its lease lapsed): the write did not happen."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id}: this node's lease lapsed")
        self.table_id = table_id


class Bus(Protocol):
    node: str  # this node's id: unique to one process run

    async def start(self, room: Room) -> None: ...
    async def stop(self) -> None: ...
    async def forward(self, conn: Connection, msg: ClientMessage, text: str) -> bool: ...
    def added(self, table: Table) -> None: ...
    async def claimed(self, table: Table) -> bool: ...
    def changed(self, table: Table) -> None: ...
    def lobby(self, local: dict[str, Table]) -> list[dict[str, Any]]: ...
    def player_tables(self, player_id: str) -> list[dict[str, Any]]: ...
    def welcomed(self, conn: Connection) -> None: ...
    def detached(self, conn: Connection) -> None: ...
    def holds(self, table_id: str) -> bool: ...
    def lost(self, table_id: str) -> None: ...


class FencedStore:
    """``store`` whose writes for a table go through only while ``holds(table)``; a refused write
    raises ``LeaseLost`` and ``lost(table)`` is called (the node lets the table go)."""

    def __init__(self, store: Store, holds: Callable[[str], bool], lost: Callable[[str], None]) -> None:
        self.store = store
        self._holds = holds
        self._lost = lost

    def _fence(self, table_id: str) -> None:
        if not self._holds(table_id):
            self._lost(table_id)
            raise LeaseLost(table_id)

    # ------------------------------------------------------------------ fenced: a table's writes

    def save_table(self, table: TableRow) -> None:
        self._fence(table.id)
        self.store.save_table(table)

    def delete_table(self, table_id: str) -> None:
        self._fence(table_id)
        self.store.delete_table(table_id)

    def append_action(self, table_id: str, seq: int, seat: int | str, action: str, at: float) -> None:
        self._fence(table_id)
        self.store.append_action(table_id, seq, seat, action, at)

    def finish(self, table: TableRow, record: dict[str, Any], settlement: Settlement | None = None) -> None:
        self._fence(table.id)
        self.store.finish(table, record, settlement)

    # ------------------------------------------------------------------ the rest as it is

    def add_table(self, table: TableRow) -> None:
        self.store.add_table(table)  # a new id: nobody else can own it yet

    def find_player(self, token_hash: str) -> PlayerRow | None:
        return self.store.find_player(token_hash)

    def find_player_named(self, name: str) -> PlayerRow | None:
        return self.store.find_player_named(name)

    def get_player(self, player_id: str) -> PlayerRow | None:
        return self.store.get_player(player_id)

    def add_player(self, player: PlayerRow) -> None:
        self.store.add_player(player)

    def set_password(self, player_id: str, password_hash: str) -> None:
        self.store.set_password(player_id, password_hash)

    def add_token(self, player_id: str, token_hash: str) -> None:
        self.store.add_token(player_id, token_hash)

    def flush(self) -> None:
        self.store.flush()

    def actions(self, table_id: str) -> list[tuple[int | str, str]]:
        return self.store.actions(table_id)

    def unfinished_tables(self) -> list[TableRow]:
        return self.store.unfinished_tables()

    def ratings(self, game: str, players: list[str]) -> dict[str, Rating]:
        return self.store.ratings(game, players)

    def player_ratings(self, player: str) -> dict[str, Rating]:
        return self.store.player_ratings(player)

    def set_ratings(self, game: str, ratings: dict[str, Rating]) -> None:
        self.store.set_ratings(game, ratings)

    def history(self, player: str, before: float | None = None, limit: int = 50) -> list[GameLine]:
        return self.store.history(player, before, limit)

    def leaderboard(self, game: str, min_games: int, limit: int) -> list[tuple[str, str, Rating]]:
        return self.store.leaderboard(game, min_games, limit)

    def finished_games(self) -> list[FinishedGame]:
        return self.store.finished_games()

    def record(self, table_id: str) -> dict[str, Any] | None:
        return self.store.record(table_id)

    def close(self) -> None:
        self.store.close()
