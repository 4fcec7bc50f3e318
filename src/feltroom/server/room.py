"""The room: players and their tokens, the lobby, the tables, and the message dispatch.

One process is the whole room unless it is given a bus (``bus.py``; ``feltroom serve --redis``):
then ``tables`` holds only the tables this node owns, a message for another node's table is
forwarded to its owner, and the lobby and a player's seats include the other nodes' tables."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
from typing import Any

from ..registry import GAMES, new_game
from ..tutorial import Tutorial, tutorial_for
from . import protocol as p
from .accounts import check_password, hash_password, verify
from .bots import DEFAULT_THINKERS, Thinkers
from .bus import Bus, LeaseLost
from .clock import Clock
from .connection import Connection, Player, dumps
from .limits import KeyedRate, Limits
from .lobby_options import lobby_options
from .names import clean_name, name_key
from .protocol import ProtocolError
from .store import UNFINISHED, DuplicateId, PlayerRow, Store, new_id
from .table import Services, Table

log = logging.getLogger("feltroom.server")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


#: Draws of a new id before the room gives up (a repeat of 64 random bits is already rare).
ID_TRIES = 8
#: Seconds an ended table stays in memory (its record stays in the store).
FORGET_AFTER = 900.0


class Room:
    """Players and their tokens, the table list and the lobby; each table runs itself."""

    def __init__(self, store: Store, clock: Clock, limits: Limits, *, grace: float = 60.0,
                 bot_delay: float = 0.6, bot_workers: int = DEFAULT_THINKERS, bus: Bus | None = None) -> None:
        self.store = store
        self.bus = bus  # the other nodes of a cluster (bus.py); None: this process is the whole room
        self.clock = clock
        self.limits = limits
        chat_lines = KeyedRate(limits.chat_burst, limits.chat_burst / limits.chat_rate)
        self.thinkers = Thinkers(bot_workers)
        self.services = Services(store, clock, limits, grace, bot_delay, self._table_changed, chat_lines,
                                 self.thinkers)
        self.players: dict[str, Player] = {}
        self.by_token: dict[str, Player] = {}
        self.tables: dict[str, Table] = {}
        self.lobby_subs: set[Connection] = set()
        self.connections = 0
        self.new_players = KeyedRate(limits.new_players_per_minute, 60.0)
        self.new_tables = KeyedRate(limits.new_tables_per_hour, 3600.0)
        self.failed_logins = KeyedRate(limits.failed_logins_per_minute, 60.0)
        self._hashing = asyncio.Semaphore(2)  # password hashes at once (each takes 64 MiB and a core)
        self._lobby_dirty = False

    # ------------------------------------------------------------------ start-up

    def restore(self) -> int:
        """Resume every unfinished table from the store; returns how many."""
        n = 0
        for row in self.store.unfinished_tables():
            try:
                if row.game not in GAMES:
                    continue
                table = Table.restore(self.services, row, self._load_player)
                if table is None:
                    continue
                self.tables[table.id] = table
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

    def _table_changed(self, table: Table) -> None:
        """A table's seats or state changed: the lobby hears of it; a closed table goes at once,
        an ended one after a while (its record stays in the store)."""
        if table.state == "closed":
            self.tables.pop(table.id, None)
        elif table.state not in UNFINISHED:
            with contextlib.suppress(RuntimeError):  # no running loop: a restore of a game that had ended
                asyncio.get_running_loop().call_later(FORGET_AFTER, self._forget, table.id)
        if self.bus is not None:
            self.bus.changed(table)
        self.lobby_changed()

    def _forget(self, table_id: str) -> None:
        table = self.tables.get(table_id)
        if table is not None and table.state not in UNFINISHED:
            del self.tables[table_id]
            for c in list(table.spectators):
                table.unwatch(c)

    # ------------------------------------------------------------------ lobby

    def lobby_message(self) -> dict[str, Any]:
        if self.bus is not None:
            return {"type": "lobby", "tables": self.bus.lobby(self.tables)}
        return {"type": "lobby", "tables": [t.lobby_entry() for t in self.tables.values()
                                          if t.state in UNFINISHED and t.tutorial is None]}

    def unfinished(self, table_id: str) -> bool:
        """Whether ``table_id`` is a table waiting or playing, on this node or another."""
        table = self.tables.get(table_id)
        if table is not None:
            return table.state in UNFINISHED
        return self.bus is not None and any(e["table"] == table_id for e in self.bus.lobby({}))

    def lobby_changed(self) -> None:
        """Send the table list to every lobby subscriber (coalesced within one loop turn)."""
        if self.lobby_subs and not self._lobby_dirty:
            self._lobby_dirty = True
            asyncio.get_running_loop().call_soon(self._send_lobby)

    def _send_lobby(self) -> None:
        self._lobby_dirty = False
        text = dumps(self.lobby_message())
        for c in list(self.lobby_subs):
            c.send_lobby(text)

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
            if self.bus is not None and conn.player is not None:
                table_id = getattr(msg, "table", None)
                if table_id is not None and table_id not in self.tables and await self.bus.forward(conn, msg, text):
                    return  # its owner answers, through the bus
            await self.dispatch(conn, msg, received)
        except LeaseLost:
            conn.send(p.error("unavailable", "the table is moving to another node: try again in a few seconds; "
                                             "its new owner sends the table and the whole view", None, mid))
        except ProtocolError as e:
            conn.send(p.error(e.code, e.message, e.rule, mid, params=e.params, template=e.template))
            if e.close:
                conn.close(1008)
        except Exception:
            log.exception("unexpected error on %r", text[:200])
            conn.send(p.error("bad_message", "the server could not handle this message", None, mid))

    def closed(self, conn: Connection) -> None:
        self.lobby_subs.discard(conn)
        for tid in list(conn.watching):
            t = self.tables.get(tid)
            if t is not None:
                t.unwatch(conn)
        self._detach(conn)

    def _detach(self, conn: Connection) -> None:
        """The socket no longer speaks for its player (closed, or signed in as another)."""
        player = conn.player
        if player is not None:
            if self.bus is not None:
                self.bus.detached(conn)
            conn.player = None
            player.conns.discard(conn)
            if not player.conns:
                for tid in list(player.tables):
                    t = self.tables.get(tid)
                    if t is not None:
                        t.disconnected(player)

    async def dispatch(self, conn: Connection, msg: p.ClientMessage, received: float) -> None:
        if conn.player is None and not isinstance(msg, p.Hello | p.Login):
            raise ProtocolError("bad_message", "the first message must be hello (or login)")
        match msg:
            case p.Hello() if conn.player is None:
                self.hello(conn, msg)
            case p.Hello():
                raise ProtocolError("bad_message", "hello was already said on this socket")
            case p.Login():
                await self.login(conn, msg)
            case p.Register():
                await self.register(conn, msg)
            case p.Ping():
                conn.send({"type": "pong", "id": msg.id, "time": self.clock.now()})
            case p.Lobby():
                self.lobby_subs.add(conn)
                conn.send({**self.lobby_message(), "id": msg.id})
            case p.Create():
                await self.create(conn, msg)
            case p.Tutorial():
                await self.tutorial(conn, msg)
            case _:
                table = self.tables.get(msg.table)
                if table is None:
                    raise ProtocolError("not_found", f"no table {msg.table!r}")
                async with table.lock:
                    match msg:
                        case p.Act():
                            table.act(conn, msg.action, msg.seq, received, msg.id)
                        case p.Join():
                            table.join(conn, msg.seat, msg.id)
                        case p.Leave():
                            table.leave(conn, msg.id)
                        case p.Bot():
                            table.seat_bot(conn, msg.seat, msg.level, msg.id)
                        case p.Start():
                            table.start(conn, msg.id)
                        case p.Watch():
                            table.watch(conn, msg.id)
                        case p.Chat():
                            table.chat(conn, msg.text, msg.id)
                        case p.Rematch():
                            if table.accept_rematch(conn, msg.id):
                                new = self._add_table(table.game_name, table.players, table.options, table.host)
                                async with new.lock:
                                    new.start_rematch(table, conn, msg.id)

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
                name = clean_name(msg.name, self.limits.max_name)
            except ValueError as e:
                raise ProtocolError("bad_message", str(e)) from None
            if self.store.find_player_named(name) is not None:
                raise ProtocolError("name_taken", f"name: {name!r} is taken (or looks like a name that is): "
                                                  "pick another")
            if not self.new_players.take(conn.address, self.clock.now()):
                raise ProtocolError("rate_limited", f"at most {self.limits.new_players_per_minute} new players a "
                                                    "minute from one address: say hello with your token")
            token = secrets.token_urlsafe(24)
            player = self._add_player(name, token_hash(token))
            self.by_token[player.token_hash] = player
        self._welcome(conn, player, token, msg.id)

    def _welcome(self, conn: Connection, player: Player, token: str | None, mid: Any) -> None:
        """The socket speaks for ``player`` from now on: ``welcome``, then its tables."""
        if len(player.conns) >= self.limits.max_sockets_per_player:
            raise ProtocolError("full", f"at most {self.limits.max_sockets_per_player} sockets per player",
                                close=True)
        conn.player = player
        player.conns.add(conn)
        tables = [self.tables[t] for t in sorted(player.tables) if t in self.tables]
        seats = [{"table": t.id, "seat": t.seat_of(player), "state": t.state} for t in tables]
        if self.bus is not None:
            seats += self.bus.player_tables(player.id)
        conn.send({"type": "welcome", "id": mid, "protocol": p.PROTOCOL, "player": player.id,
                   "name": player.name, "token": token, "tables": seats})
        for t in tables:
            t.reconnected(player, conn)
        if self.bus is not None:
            self.bus.welcomed(conn)  # the owners of its other tables send those

    def attach_remote(self, conn: Connection, player_id: str, *, reconnect: bool = True) -> None:
        """A socket of another node speaks for ``player_id`` here (the bus's stand-in for it): as
        on ``hello``, the player's tables on this node send it their table and whole view."""
        player = self._load_player(player_id)
        if player is None:
            conn.close(1008, "no such player")
            return
        if conn.player is not player:
            self._detach(conn)
            conn.player = player
            player.conns.add(conn)
        if reconnect:
            for tid in sorted(player.tables):
                table = self.tables.get(tid)
                if table is not None:
                    table.reconnected(player, conn)

    def adopted(self, table: Table, watchers: list[Connection]) -> None:
        """This node took over ``table`` (rebuilt from the store): the sockets it knows of already
        get the table and the whole view, as on a reconnect."""
        for seat in table.seats:
            if seat.player is not None:
                for c in list(seat.player.conns):
                    table.reconnected(seat.player, c)
        for c in watchers:
            if c.player is not None and table.seat_of(c.player) is None:
                with contextlib.suppress(ProtocolError):
                    table.watch(c, None)

    async def register(self, conn: Connection, msg: p.Register) -> None:
        """The socket's player protects its name with a password (an account)."""
        player = conn.player
        assert player is not None
        try:
            check_password(msg.password)
        except ValueError as e:
            raise ProtocolError("bad_message", str(e)) from None
        row = self.store.get_player(player.id)
        if row is None or row.password is not None:
            raise ProtocolError("forbidden", f"the name {player.name!r} is protected already")
        async with self._hashing:
            hashed = await asyncio.to_thread(hash_password, msg.password)
        self.store.set_password(player.id, hashed)
        conn.send({"type": "registered", "id": msg.id, "player": player.id, "name": player.name})

    async def login(self, conn: Connection, msg: p.Login) -> None:
        """Sign in with a protected name and its password: this socket becomes that player, with a
        new token. A wrong password and an unknown name get the same answer."""
        key = name_key(msg.name)
        now = self.clock.now()
        if not self.failed_logins.allows(key, now):
            raise ProtocolError("rate_limited", f"at most {self.limits.failed_logins_per_minute} failed logins a "
                                                "minute for one name: wait a minute")
        row = self.store.find_player_named(msg.name)
        async with self._hashing:
            ok = await asyncio.to_thread(verify, row.password if row else None, msg.password)
        if not ok or row is None:
            self.failed_logins.take(key, now)
            raise ProtocolError("forbidden", "wrong name or password")
        player = self._load_player(row.id)
        assert player is not None
        token = secrets.token_urlsafe(24)
        self.store.add_token(player.id, token_hash(token))
        self.by_token[token_hash(token)] = player
        if conn.player is not player:
            self._detach(conn)
            self._welcome(conn, player, token, msg.id)
        else:
            conn.send({"type": "welcome", "id": msg.id, "protocol": p.PROTOCOL, "player": player.id,
                       "name": player.name, "token": token, "tables": []})

    def _add_player(self, name: str, hashed: str) -> Player:
        for _ in range(ID_TRIES):
            player = Player(new_id(), name, hashed)
            if player.id in self.players:
                continue
            try:
                self.store.add_player(PlayerRow(player.id, player.name, player.token_hash))
            except DuplicateId:
                continue
            self.players[player.id] = player
            self.by_token[player.token_hash] = player
            return player
        raise ProtocolError("bad_message", "the room could not draw a new player id: try again")

    async def create(self, conn: Connection, msg: p.Create) -> None:
        player = conn.player
        assert player is not None
        cls = GAMES.get(msg.game)
        if cls is None:
            raise ProtocolError("bad_message", f"unknown game {msg.game!r}: the games are {', '.join(sorted(GAMES))}")
        if not cls.min_players <= msg.seats <= cls.max_players:
            raise ProtocolError("bad_message", f"{msg.game} is for {cls.min_players}–{cls.max_players} seats, "
                                               f"not {msg.seats}")
        remote = len(self.bus.player_tables(player.id)) if self.bus is not None else 0
        if len(player.tables) + remote >= self.limits.max_open_tables_per_player:
            raise ProtocolError("forbidden", f"at most {self.limits.max_open_tables_per_player} unfinished tables "
                                             "per player")
        try:
            options = lobby_options(msg.game, msg.seats, dict(msg.options))
            options = new_game(msg.game, players=msg.seats, seed=0, options=options).options
        except ValueError as e:
            raise ProtocolError("bad_message", str(e)) from None
        if not self.new_tables.take(conn.address, self.clock.now()):
            raise ProtocolError("rate_limited", f"at most {self.limits.new_tables_per_hour} new tables an hour "
                                                "from one address")
        table = self._add_table(msg.game, msg.seats, options, player)
        if self.bus is not None and not await self.bus.claimed(table):
            raise ProtocolError("unavailable", "the room could not register the new table: try again")
        for c in player.conns:
            table.send_table(c, msg.id if c is conn else None)
        self.lobby_changed()

    async def tutorial(self, conn: Connection, msg: p.Tutorial) -> None:
        """A tutorial table of ``msg.game``, started at once: the learner and the scripted bots seated
        as the tutorial says, its stacked deal (the only way a table gets a chosen deck), unrated and
        not listed in the lobby."""
        player = conn.player
        assert player is not None
        tut = tutorial_for(msg.game) if msg.game in GAMES else None
        if tut is None:
            raise ProtocolError("bad_message", f"no tutorial for {msg.game!r}: "
                                               f"the games are {', '.join(sorted(GAMES))}")
        if len(player.tables) >= self.limits.max_open_tables_per_player:
            raise ProtocolError("forbidden", f"at most {self.limits.max_open_tables_per_player} unfinished tables "
                                             "per player")
        if not self.new_tables.take(conn.address, self.clock.now()):
            raise ProtocolError("rate_limited", f"at most {self.limits.new_tables_per_hour} new tables an hour "
                                                "from one address")
        options = new_game(tut.game, players=tut.players, seed=0, options=tut.options).options
        table = self._add_table(tut.game, tut.players, options, player, tut)
        if self.bus is not None and not await self.bus.claimed(table):
            raise ProtocolError("unavailable", "the room could not register the new table: try again")
        table.start_tutorial(conn, msg.id)

    def _add_table(self, game: str, seats: int, options: dict[str, Any], host: Player,
                   tutorial: Tutorial | None = None) -> Table:
        for _ in range(ID_TRIES):
            table = Table(self.services, new_id("t"), game, seats, options, host, self.clock.now(), tutorial)
            if table.id in self.tables:
                continue
            try:
                self.store.add_table(table.row())
            except DuplicateId:
                continue
            host.tables.add(table.id)
            self.tables[table.id] = table
            if self.bus is not None:
                self.bus.added(table)
                self.bus.changed(table)
            return table
        raise ProtocolError("bad_message", "the room could not draw a new table id: try again")
