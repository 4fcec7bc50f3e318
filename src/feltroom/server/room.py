"""The room: players and their tokens, the lobby, the tables, and the message dispatch."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
from typing import Any

from ..registry import GAMES, new_game
from . import protocol as p
from .bots import levels_for
from .clock import Clock
from .connection import Connection, Player, dumps, with_id
from .limits import Limits
from .lobby_options import lobby_options
from .names import clean_text
from .protocol import ProtocolError
from .store import PlayerRow, Store
from .table import Table

log = logging.getLogger("feltroom.server")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Room:
    def __init__(self, store: Store, clock: Clock, limits: Limits, *, grace: float = 60.0,
                 bot_delay: float = 0.6) -> None:
        self.store = store
        self.clock = clock
        self.limits = limits
        self.grace = grace
        self.bot_delay = bot_delay
        self.players: dict[str, Player] = {}
        self.by_token: dict[str, Player] = {}
        self.tables: dict[str, Table] = {}
        self.lobby_subs: set[Connection] = set()
        self.connections = 0
        self._lobby_dirty = False

    # ------------------------------------------------------------------ start-up

    def restore(self) -> int:
        """Resume every unfinished table from the store; returns how many."""
        now = self.clock.now()
        n = 0
        for row in self.store.unfinished_tables():
            try:
                host = self._load_player(row.host)
                if host is None or row.game not in GAMES:
                    continue
                t = Table(self, row.id, row.game, row.players, row.options, host, row.created)
                for seat, data in zip(t.seats, row.seats, strict=True):
                    seat.bot = data.get("bot")
                    seat.left = bool(data.get("left"))
                    if data.get("player"):
                        seat.player = self._load_player(data["player"])
                        if seat.player is not None:
                            seat.player.tables.add(t.id)
                t.state, t.seed, t.salt, t.fair, t.started = row.state, row.seed, row.salt, row.fair, row.started
                t.format = row.extra.get("format", 1)  # stored before the format was: random.Random's deals
                self.tables[t.id] = t
                if t.state == "playing":
                    t.resume(self.store.actions(t.id), now)
                n += 1
            except Exception:
                log.exception("could not resume table %s", row.id)
        return n

    def _load_player(self, player_id: str) -> Player | None:
        if player_id in self.players:
            return self.players[player_id]
        row = self.store.get_player(player_id)
        if row is None:
            return None
        player = Player(row.id, row.name, row.token_hash)
        self.players[player.id] = player
        self.by_token[player.token_hash] = player
        return player

    def forget_later(self, table_id: str, after: float = 900.0) -> None:
        """A finished table leaves memory after a while (its record stays in the store)."""
        with contextlib.suppress(RuntimeError):  # no running loop: a restore of a game that had ended
            asyncio.get_running_loop().call_later(after, self._forget, table_id)

    def _forget(self, table_id: str) -> None:
        table = self.tables.get(table_id)
        if table is not None and table.state == "over":
            del self.tables[table_id]
            for c in table.spectators:
                c.watching.discard(table_id)

    # ------------------------------------------------------------------ lobby

    def lobby_message(self) -> dict[str, Any]:
        return {"type": "lobby", "tables": [t.lobby_entry() for t in self.tables.values() if t.state != "over"]}

    def lobby_changed(self) -> None:
        """Send the table list to every lobby subscriber (coalesced within one loop turn)."""
        if self.lobby_subs and not self._lobby_dirty:
            self._lobby_dirty = True
            asyncio.get_running_loop().call_soon(self._send_lobby)

    def _send_lobby(self) -> None:
        self._lobby_dirty = False
        text = dumps(self.lobby_message())
        for c in list(self.lobby_subs):
            c.send(text)

    # ------------------------------------------------------------------ connections

    async def receive(self, conn: Connection, text: str, received: float) -> None:
        """Handle one text frame; every rejection is answered with an ``error``."""
        mid: Any = None
        try:
            try:
                obj = json.loads(text)
            except (ValueError, RecursionError):
                raise ProtocolError("bad_message", "not JSON: send one JSON object per text frame") from None
            mid = p.message_id(obj)
            msg = p.validate(obj)
            await self.dispatch(conn, msg, received)
        except ProtocolError as e:
            conn.send(p.error(e.code, e.message, e.rule, mid))
            if e.close:
                conn.close(1008)
        except Exception:
            log.exception("unexpected error on %r", text[:200])
            conn.send(p.error("bad_message", "the server could not handle this message", None, mid))

    def closed(self, conn: Connection) -> None:
        self.lobby_subs.discard(conn)
        for tid in conn.watching:
            t = self.tables.get(tid)
            if t is not None:
                t.spectators.discard(conn)
        player = conn.player
        if player is not None:
            player.conns.discard(conn)
            if not player.conns:
                for tid in list(player.tables):
                    t = self.tables.get(tid)
                    if t is not None:
                        t.disconnected(player)
                        if t.state == "waiting":
                            asyncio.get_running_loop().create_task(self._drop_absent(player, t))

    async def _drop_absent(self, player: Player, table: Table) -> None:
        """A player away for the whole grace period gives up its seats at waiting tables."""
        await self.clock.sleep_until(self.clock.now() + self.grace)
        async with table.lock:
            if not player.conns and table.state == "waiting" and table.seat_of(player) is not None \
                    and self.tables.get(table.id) is table:
                self._free_seat(player, table)

    async def dispatch(self, conn: Connection, msg: p.ClientMessage, received: float) -> None:
        if conn.player is None:
            if not isinstance(msg, p.Hello):
                raise ProtocolError("bad_message", "the first message must be hello")
            self.hello(conn, msg)
            return
        if isinstance(msg, p.Hello):
            raise ProtocolError("bad_message", "hello was already said on this socket")
        if isinstance(msg, p.Ping):
            conn.send({"type": "pong", "id": msg.id, "time": self.clock.now()})
        elif isinstance(msg, p.Lobby):
            self.lobby_subs.add(conn)
            m = self.lobby_message()
            m["id"] = msg.id
            conn.send(m)
        elif isinstance(msg, p.Create):
            self.create(conn, msg)
        else:
            table = self.tables.get(msg.table)
            if table is None:
                raise ProtocolError("not_found", f"no table {msg.table!r}")
            async with table.lock:
                if isinstance(msg, p.Act):
                    table.act(conn, msg.action, msg.seq, received, msg.id)
                elif isinstance(msg, p.Join):
                    self.join(conn, table, msg)
                elif isinstance(msg, p.Leave):
                    self.leave(conn, table, msg.id)
                elif isinstance(msg, p.Bot):
                    self.bot(conn, table, msg)
                elif isinstance(msg, p.Start):
                    self.start(conn, table, msg.id)
                elif isinstance(msg, p.Watch):
                    self.watch(conn, table, msg.id)
                elif isinstance(msg, p.Chat):
                    self.chat(conn, table, msg)

    # ------------------------------------------------------------------ handlers

    def hello(self, conn: Connection, msg: p.Hello) -> None:
        player = self.by_token.get(token_hash(msg.token)) if msg.token else None
        if player is None and msg.token:
            row = self.store.find_player(token_hash(msg.token))
            if row is not None:
                player = self._load_player(row.id)
        token = msg.token
        if player is None:
            try:
                name = clean_text(msg.name, self.limits.max_name, "name")
            except ValueError as e:
                raise ProtocolError("bad_message", str(e)) from None
            token = secrets.token_urlsafe(24)
            player = Player(secrets.token_hex(6), name, token_hash(token))
            while player.id in self.players:
                player.id = secrets.token_hex(6)
            self.store.save_player(PlayerRow(player.id, player.name, player.token_hash))
            self.players[player.id] = player
            self.by_token[player.token_hash] = player
        if len(player.conns) >= self.limits.max_sockets_per_player:
            raise ProtocolError("full", f"at most {self.limits.max_sockets_per_player} sockets per player",
                                close=True)
        conn.player = player
        player.conns.add(conn)
        tables = [self.tables[t] for t in sorted(player.tables) if t in self.tables]
        conn.send({"type": "welcome", "id": msg.id, "protocol": p.PROTOCOL, "player": player.id,
                   "name": player.name, "token": token,
                   "tables": [{"table": t.id, "seat": t.seat_of(player), "state": t.state} for t in tables]})
        for t in tables:
            t.reconnected(player, conn)

    def _open_tables(self, player: Player) -> int:
        return len(player.tables)

    def create(self, conn: Connection, msg: p.Create) -> None:
        player = conn.player
        assert player is not None
        cls = GAMES.get(msg.game)
        if cls is None:
            raise ProtocolError("bad_message", f"unknown game {msg.game!r}: the games are {', '.join(sorted(GAMES))}")
        if not cls.min_players <= msg.seats <= cls.max_players:
            raise ProtocolError("bad_message", f"{msg.game} is for {cls.min_players}–{cls.max_players} seats, "
                                               f"not {msg.seats}")
        if self._open_tables(player) >= self.limits.max_open_tables_per_player:
            raise ProtocolError("forbidden", f"at most {self.limits.max_open_tables_per_player} unfinished tables "
                                             "per player")
        try:
            options = lobby_options(msg.game, msg.seats, dict(msg.options))
            options = new_game(msg.game, players=msg.seats, seed=0, options=options).options
        except ValueError as e:
            raise ProtocolError("bad_message", str(e)) from None
        tid = "t" + secrets.token_hex(4)
        while tid in self.tables:
            tid = "t" + secrets.token_hex(4)
        table = Table(self, tid, msg.game, msg.seats, options, player, self.clock.now())
        table.seats[0].player = player
        player.tables.add(tid)
        self.tables[tid] = table
        table.save()
        for c in player.conns:
            table.send_table(c, msg.id if c is conn else None)
        self.lobby_changed()

    def join(self, conn: Connection, table: Table, msg: p.Join) -> None:
        player = conn.player
        assert player is not None
        mine = table.seat_of(player)
        if mine is not None:
            if table.state == "playing" and table.seats[mine].left:
                table.take_back(mine, conn, msg.id)
                return
            raise ProtocolError("forbidden", f"you already sit at seat {mine} of this table")
        if table.state != "waiting":
            raise ProtocolError("forbidden", f"the table is {table.state}: seats are taken before the start "
                                             "(watch it instead)")
        if self._open_tables(player) >= self.limits.max_open_tables_per_player:
            raise ProtocolError("forbidden", f"at most {self.limits.max_open_tables_per_player} unfinished tables "
                                             "per player")
        if msg.seat is None:
            free = [i for i, s in enumerate(table.seats) if not s.taken]
            if not free:
                raise ProtocolError("full", "every seat is taken")
            seat = free[0]
        else:
            if not 0 <= msg.seat < table.players:
                raise ProtocolError("bad_message", f"no seat {msg.seat}: seats are 0–{table.players - 1}")
            if table.seats[msg.seat].taken:
                raise ProtocolError("full", f"seat {msg.seat} is taken")
            seat = msg.seat
        table.seats[seat].player = player
        player.tables.add(table.id)
        conn.watching.discard(table.id)
        table.spectators.discard(conn)
        table.save()
        table.broadcast_table(conn, msg.id)
        self.lobby_changed()

    def leave(self, conn: Connection, table: Table, mid: Any) -> None:
        player = conn.player
        assert player is not None
        seat = table.seat_of(player)
        if seat is None:
            raise ProtocolError("forbidden", "you have no seat at this table")
        if table.state == "playing":
            if table.seats[seat].left:
                raise ProtocolError("forbidden", "you already left this game")
            table.leave_running(seat, conn, mid)
            return
        if table.state != "waiting":
            raise ProtocolError("forbidden", "the game is over")
        for c in player.conns:
            c.send({"type": "left", "table": table.id, **({"id": mid} if c is conn else {})})
        self._free_seat(player, table)

    def _free_seat(self, player: Player, table: Table) -> None:
        seat = table.seat_of(player)
        assert seat is not None
        table.seats[seat].player = None
        player.tables.discard(table.id)
        if table.host is player:
            humans = [s.player for s in table.seats if s.player is not None]
            if not humans:
                self._close(table)
                return
            table.host = humans[0]
        table.save()
        table.broadcast_table()
        self.lobby_changed()

    def _close(self, table: Table) -> None:
        """A waiting table that no person sits at any more is removed."""
        for c, _ in table.audience():
            c.send({"type": "closed", "table": table.id})
            c.watching.discard(table.id)
        del self.tables[table.id]
        self.store.delete_table(table.id)
        self.lobby_changed()

    def _host_waiting(self, conn: Connection, table: Table, what: str) -> None:
        if table.host is not conn.player:
            raise ProtocolError("forbidden", f"only the host ({table.host.name}) may {what}")
        if table.state != "waiting":
            raise ProtocolError("forbidden", f"the table is {table.state}: {what} is only before the start")

    def bot(self, conn: Connection, table: Table, msg: p.Bot) -> None:
        self._host_waiting(conn, table, "seat bots")
        if not 0 <= msg.seat < table.players:
            raise ProtocolError("bad_message", f"no seat {msg.seat}: seats are 0–{table.players - 1}")
        seat = table.seats[msg.seat]
        if msg.level is None:
            if seat.bot is None:
                raise ProtocolError("forbidden", f"no bot sits at seat {msg.seat}")
            seat.bot = None
        else:
            levels = levels_for(table.game_name)
            if msg.level not in levels:
                raise ProtocolError("bad_message", f"no bot level {msg.level!r} for {table.game_name}: "
                                                   f"the levels are {', '.join(levels)}")
            if seat.player is not None:
                raise ProtocolError("full", f"seat {msg.seat} is taken by {seat.player.name}")
            seat.bot = msg.level
        table.save()
        table.broadcast_table(conn, msg.id)
        self.lobby_changed()

    def start(self, conn: Connection, table: Table, mid: Any) -> None:
        self._host_waiting(conn, table, "start the game")
        free = [i for i, s in enumerate(table.seats) if not s.taken]
        if free:
            raise ProtocolError("forbidden", f"every seat must be taken first (free: {', '.join(map(str, free))})")
        table.start(self.clock.now(), conn, mid)

    def watch(self, conn: Connection, table: Table, mid: Any) -> None:
        assert conn.player is not None
        seat = table.seat_of(conn.player)
        if seat is None and table.id not in conn.watching:
            if len(conn.watching) >= self.limits.max_watch_per_socket:
                raise ProtocolError("forbidden", f"at most {self.limits.max_watch_per_socket} tables watched "
                                                 "per socket")
            conn.watching.add(table.id)
            table.spectators.add(conn)
        table.send_table(conn, mid)
        table.send_full_update(conn, seat)

    def chat(self, conn: Connection, table: Table, msg: p.Chat) -> None:
        player = conn.player
        assert player is not None
        if table.seat_of(player) is None and conn not in table.spectators:
            raise ProtocolError("forbidden", "sit at or watch a table to chat there")
        try:
            text = clean_text(msg.text, self.limits.max_chat, "chat")
        except ValueError as e:
            raise ProtocolError("bad_message", str(e)) from None
        out = dumps({"type": "chat", "table": table.id, "from": player.name, "player": player.id, "text": text})
        for c, _ in table.audience():
            c.send(with_id(out, msg.id) if c is conn else out)
