"""A table: one game, its seats, its clocks and its watchers. Authoritative.

Every change happens under the table's lock, one at a time: due CLOCK actions first, then
the player's action through ``game.apply``; each applied action is stored before any
client hears of it; then each seat gets its own ``update``.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..dealing import CURRENT_FORMAT
from ..errors import IllegalAction, InvalidAction
from ..game import CLOCK, Game
from ..registry import new_game, replay
from ..views import events_for
from .bots import BotSeat, levels_for, standin_level
from .connection import Connection, Player, dumps, dumps_list, dumps_str, with_id
from .fair import fair_hash, new_seed_salt
from .protocol import ProtocolError
from .store import TableRow
from .timers import Deadline, apply_timer_events, running

if TYPE_CHECKING:
    from .room import Room

log = logging.getLogger("feltroom.server")


@dataclass(eq=False)
class Seat:
    """Who plays a seat: a player, a bot level, or nobody yet."""

    player: Player | None = None
    bot: str | None = None             # a bot the host seated
    standin: BotSeat | None = None     # plays for an absent player (after the grace period, or after leave)
    left: bool = False                 # the player left a running game (join takes the seat back)
    driver: BotSeat | None = None      # the host-seated bot's driver once playing

    @property
    def taken(self) -> bool:
        return self.player is not None or self.bot is not None

    def connected(self) -> bool:
        if self.bot is not None:
            return True
        return self.player is not None and bool(self.player.conns) and not self.left

    def playing_bot(self) -> BotSeat | None:
        return self.driver if self.bot is not None else self.standin


class Table:
    def __init__(self, room: Room, table_id: str, game: str, players: int, options: dict[str, Any],
                 host: Player, created: float) -> None:
        self.room = room
        self.id = table_id
        self.game_name = game
        self.players = players
        self.options = options
        self.host = host
        self.created = created
        self.seats = [Seat() for _ in range(players)]
        self.state = "waiting"
        self.game: Game | None = None
        self.seed: int | None = None
        self.format = CURRENT_FORMAT  # the dealing (feltroom.dealing) of its game: stored, and resumed with
        self.salt: str | None = None
        self.fair: str | None = None
        self.started: float | None = None
        self.ended: float | None = None
        self.lock = asyncio.Lock()
        self.deadlines: dict[str, Deadline] = {}
        self.graces: dict[int, float] = {}
        self.spectators: set[Connection] = set()
        self._timer: asyncio.Task[None] | None = None
        self._timer_at: float | None = None
        self._bots: asyncio.Task[None] | None = None
        # per seat: its legal actions now, and the seq of the last player's action that changed them
        # (an ``act`` whose seq is older than that is stale; CLOCK actions never make it stale)
        self._legal: list[list[str]] = [[] for _ in range(players)]
        self._changed: list[int] = [0] * players

    # ------------------------------------------------------------------ reading

    @property
    def seq(self) -> int:
        return len(self.game.actions) if self.game is not None else 0

    def seat_of(self, player: Player) -> int | None:
        for i, s in enumerate(self.seats):
            if s.player is player:
                return i
        return None

    def names(self) -> list[str | None]:
        return [s.player.name if s.player else (f"bot:{s.bot}" if s.bot else None) for s in self.seats]

    def seat_list(self) -> list[dict[str, Any]]:
        out = []
        for i, s in enumerate(self.seats):
            out.append({
                "seat": i,
                "name": s.player.name if s.player else (f"bot:{s.bot}" if s.bot else None),
                "player": s.player.id if s.player else None,
                "bot": s.bot,
                "standin": s.standin.level if s.standin else None,
                "connected": s.connected(),
            })
        return out

    def lobby_entry(self) -> dict[str, Any]:
        return {"table": self.id, "game": self.game_name, "seats": self.players,
                "taken": sum(s.taken for s in self.seats), "options": self.options, "state": self.state,
                "host": self.host.name, "names": self.names()}

    def table_message(self, you: int | None) -> dict[str, Any]:
        msg: dict[str, Any] = {
            "type": "table", "table": self.id, "game": self.game_name, "options": self.options,
            "state": self.state, "host": self.host.name, "host_player": self.host.id,
            "seats": self.seat_list(), "you": you, "fair": self.fair,
            "seq": self.seq, "bot_levels": levels_for(self.game_name),
        }
        if self.state == "over":
            msg["record"] = f"/api/games/{self.id}/record"
        return msg

    def audience(self) -> list[tuple[Connection, int | None]]:
        out: list[tuple[Connection, int | None]] = []
        seen: set[Connection] = set()
        for i, s in enumerate(self.seats):
            if s.player is not None:
                for c in s.player.conns:
                    out.append((c, i))
                    seen.add(c)
        out.extend((c, None) for c in self.spectators if c not in seen)
        return out

    def update_message(self, seat: int | None, events: list[dict[str, Any]]) -> dict[str, Any]:
        game = self.game
        assert game is not None
        return {
            "type": "update", "table": self.id, "seq": len(game.actions), "seat": seat,
            "view": game.view(seat),
            "legal": game.legal_actions(seat) if seat is not None else [],
            "events": events,
            "deadlines": [d.public() for d in sorted(self.deadlines.values())],
            "now": round(self.room.clock.now(), 3),
        }

    # ------------------------------------------------------------------ sending

    def send_table(self, conn: Connection, mid: Any = None) -> None:
        you = None
        if conn.player is not None:
            you = self.seat_of(conn.player)
        msg = self.table_message(you)
        if mid is not None:
            msg["id"] = mid
        conn.send(msg)

    def broadcast_table(self, sender: Connection | None = None, mid: Any = None) -> None:
        cache: dict[int | None, str] = {}
        for conn, seat in self.audience():
            if seat not in cache:
                cache[seat] = dumps(self.table_message(seat))
            conn.send(with_id(cache[seat], mid) if conn is sender else cache[seat])

    def send_full_update(self, conn: Connection, seat: int | None) -> None:
        if self.game is not None:
            conn.send(self.update_message(seat, []))

    def broadcast_update(self, start: int, sender: Connection | None = None, mid: Any = None) -> None:
        """Send every seat (and the spectators) its ``update`` for the events from ``start``.

        The parts every recipient shares (each event, the deadlines) are serialised once; only
        the view, the legal actions and the choice of events differ per seat."""
        game = self.game
        assert game is not None
        new = game.log[start:]
        encoded = {id(e): dumps(e) for e in new}
        head = (f'{{"type":"update","table":{dumps_str(self.id)},"seq":{len(game.actions)},"seat":')
        tail = (f',"deadlines":{dumps_list([d.public() for d in sorted(self.deadlines.values())])}'
                f',"now":{round(self.room.clock.now(), 3)!r}}}')

        def text(seat: int | None) -> str:
            events = ",".join(encoded[id(e)] for e in events_for(new, seat))  # the one redaction point
            legal = game.legal_actions(seat) if seat is not None else []
            return (f'{head}{"null" if seat is None else seat},"view":{dumps(game.view(seat))}'
                    f',"legal":{dumps_list(legal)},"events":[{events}]{tail}')

        for i, s in enumerate(self.seats):
            if s.player is None or not s.player.conns:
                continue
            seat_text = text(i)
            for c in s.player.conns:
                c.send(with_id(seat_text, mid) if c is sender else seat_text)
        public: str | None = None
        for c in self.spectators:
            if c.player is not None and self.seat_of(c.player) is not None:
                continue
            if public is None:
                public = text(None)
            c.send(with_id(public, mid) if c is sender else public)

    # ------------------------------------------------------------------ storing

    def row(self) -> TableRow:
        seats = [{"player": s.player.id if s.player else None, "bot": s.bot, "left": s.left} for s in self.seats]
        return TableRow(self.id, self.game_name, self.players, self.options, self.host.id, seats, self.state,
                        self.seed, self.salt, self.fair, self.created, self.started, self.ended,
                        extra={"format": self.format})

    def save(self) -> None:
        self.room.store.save_table(self.row())

    def record(self) -> dict[str, Any]:
        game = self.game
        assert game is not None
        rec = game.record
        rec["meta"] = {**rec.get("meta", {}), "table": self.id, "names": self.names(), "salt": self.salt,
                       "fair": self.fair, "started": self.started, "ended": self.ended,
                       "bots": [s.bot for s in self.seats]}
        return rec

    # ------------------------------------------------------------------ the game

    def start(self, now: float, sender: Connection | None = None, mid: Any = None) -> None:
        """Deal: a fresh seed and salt, publish ``fair``, start the clocks and the bots."""
        self.seed, self.salt = new_seed_salt()
        self.fair = fair_hash(self.seed, self.salt)
        self.game = new_game(self.game_name, players=self.players, seed=self.seed, options=self.options)
        self.format = self.game.format
        self.state = "playing"
        self.started = now
        for i, s in enumerate(self.seats):
            if s.bot is not None:
                s.driver = BotSeat(s.bot, self.game, i)
        apply_timer_events(self.deadlines, self.game.log, now)
        self._legal = [self.game.legal_actions(s) for s in range(self.players)]
        self.save()
        self.broadcast_table(sender, mid)
        self.broadcast_update(0)
        self.room.lobby_changed()
        self._after_change()

    def resume(self, actions: list[tuple[int | str, str]], now: float) -> None:
        """Rebuild a running game from its stored actions (after a restart); clocks restart in full."""
        assert self.seed is not None
        record = {"format": self.format, "name": self.game_name, "players": self.players, "options": self.options,
                  "seed": self.seed, "deck": None, "actions": [[s, a] for s, a in actions]}
        self.game = replay(record)
        # the timers still running, restarted in full; one whose action was applied (or no longer
        # applies) is not restarted: CLOCK actions that are not legal now would be dropped anyway
        clock_legal = set(self.game.legal_actions(CLOCK))
        self.deadlines = {a: d for a, d in running(self.game.log, now).items() if a in clock_legal}
        self._legal = [self.game.legal_actions(s) for s in range(self.players)]
        self._changed = [len(self.game.actions)] * self.players
        for i, s in enumerate(self.seats):
            if s.bot is not None:
                s.driver = BotSeat(s.bot, self.game, i)
            elif s.left and s.player is not None:
                s.standin = BotSeat(standin_level(self.game_name), self.game, i)
            elif s.player is not None:
                self.graces[i] = now + self.room.grace
        if self.game.is_over:  # stored the last action but not the end
            self._finish(now)
        else:
            self._after_change()

    def act(self, conn: Connection, action: str, seq: int, received: float, mid: Any) -> None:
        """A player's action, received at ``received``. Raises ``ProtocolError``; nothing changes then."""
        player = conn.player
        assert player is not None
        seat = self.seat_of(player)
        if seat is None:
            raise ProtocolError("forbidden", "you have no seat at this table")
        if self.state != "playing" or self.game is None:
            raise ProtocolError("forbidden", f"the game is not running (the table is {self.state})")
        self.run_due(received)
        if self.state != "playing":
            raise ProtocolError("forbidden", "the game is over")
        if self.seats[seat].left:
            raise ProtocolError("forbidden", "you left this game: join the table again to take your seat back")
        if seq != self.seq and not (0 <= seq < self.seq and seq >= self._changed[seat]):
            if 0 <= seq < self.seq:  # a rejected action says why (with its rule) rather than "stale"
                try:
                    self.game.verify(seat, action)
                except IllegalAction as e:
                    raise ProtocolError("illegal", e.message, e.rule) from None
                except InvalidAction as e:
                    raise ProtocolError("invalid", str(e)) from None
            raise ProtocolError("stale", f"seq {seq} is not the table's current seq {self.seq}: "
                                         "apply the updates you have not seen, then act again")
        try:
            self._apply(seat, action, received, conn, mid)
        except IllegalAction as e:
            raise ProtocolError("illegal", e.message, e.rule) from None
        except InvalidAction as e:
            raise ProtocolError("invalid", str(e)) from None
        finally:
            self._after_change()

    def run_due(self, now: float) -> None:
        """Apply every deadline due at or before ``now``, in order (CLOCK actions and grace periods)."""
        while self.state == "playing":
            due = self._next_due()
            if due is None or due[0] > now:
                return
            at, kind, key = due
            if kind == "grace":
                del self.graces[int(key)]
                self._standin(int(key))
                continue
            del self.deadlines[str(key)]
            game = self.game
            assert game is not None
            if key in game.legal_actions(CLOCK):
                self._apply(CLOCK, str(key), at)

    def _next_due(self) -> tuple[float, str, str | int] | None:
        best: tuple[float, str, str | int] | None = None
        if self.deadlines:
            d = min(self.deadlines.values())
            best = (d.at, "clock", d.action)
        for seat, at in self.graces.items():
            if best is None or at < best[0]:
                best = (at, "grace", seat)
        return best

    def _apply(self, seat: int | str, action: str, at: float, sender: Connection | None = None,
               mid: Any = None) -> None:
        game = self.game
        assert game is not None
        start = len(game.log)
        game.apply(seat, action)  # raises before any change
        canon = game.actions[-1][1]
        seq = len(game.actions)
        self.room.store.append_action(self.id, seq, seat, canon, at)  # stored before it is sent
        for s in range(self.players):
            legal = game.legal_actions(s)
            if legal != self._legal[s]:
                self._legal[s] = legal
                if seat != CLOCK:
                    self._changed[s] = seq
        new = game.log[start:]
        apply_timer_events(self.deadlines, new, at)
        if game.is_over:
            self.deadlines.clear()
        self.broadcast_update(start, sender, mid)
        if game.is_over:
            self._finish(at)

    def _finish(self, now: float) -> None:
        self.state = "over"
        self.ended = now
        self.deadlines.clear()
        self.graces.clear()
        self.room.store.finish(self.row(), self.record())
        for s in self.seats:
            if s.player is not None:
                s.player.tables.discard(self.id)
        self.broadcast_table()
        self.room.lobby_changed()
        self.room.forget_later(self.id)

    # ------------------------------------------------------------------ seats coming and going

    def disconnected(self, player: Player) -> None:
        """The player's last socket closed: the grace period starts for its seat."""
        seat = self.seat_of(player)
        if seat is None:
            return
        if self.state == "playing" and not self.seats[seat].left and self.seats[seat].standin is None:
            self.graces[seat] = self.room.clock.now() + self.room.grace
            self._after_change()
        self.broadcast_table()

    def reconnected(self, player: Player, conn: Connection) -> None:
        """A socket of a seated player (re)joins: it gets the table and the whole view."""
        seat = self.seat_of(player)
        if seat is None:
            return
        s = self.seats[seat]
        changed = False
        if not s.left and (seat in self.graces or s.standin is not None):
            self.graces.pop(seat, None)
            s.standin = None
            changed = True
        self.broadcast_table() if changed or len(player.conns) == 1 else self.send_table(conn)
        self.send_full_update(conn, seat)
        if changed:
            self._after_change()

    def leave_running(self, seat: int, sender: Connection | None = None, mid: Any = None) -> None:
        s = self.seats[seat]
        s.left = True
        self.graces.pop(seat, None)
        if s.standin is None:
            assert self.game is not None
            s.standin = BotSeat(standin_level(self.game_name), self.game, seat)
        self.save()
        self.broadcast_table(sender, mid)
        self._after_change()

    def take_back(self, seat: int, sender: Connection | None = None, mid: Any = None) -> None:
        s = self.seats[seat]
        s.left = False
        s.standin = None
        self.save()
        self.broadcast_table(sender, mid)
        for c in s.player.conns if s.player else ():
            self.send_full_update(c, seat)
        self._after_change()

    def _standin(self, seat: int) -> None:
        assert self.game is not None
        self.seats[seat].standin = BotSeat(standin_level(self.game_name), self.game, seat)
        self.broadcast_table()

    # ------------------------------------------------------------------ timers and bots

    def _after_change(self) -> None:
        if self.state != "playing":
            self._cancel_tasks()
            return
        due = self._next_due()
        at = due[0] if due else None
        if at != self._timer_at:
            if self._timer is not None and self._timer is not asyncio.current_task():
                self._timer.cancel()
            self._timer_at = at
            self._timer = asyncio.get_running_loop().create_task(self._wait(at)) if at is not None else None
        if self._bot_seats() and (self._bots is None or self._bots.done()):
            self._bots = asyncio.get_running_loop().create_task(self._play_bots())

    def _cancel_tasks(self) -> None:
        for task in (self._timer, self._bots):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        self._timer = self._bots = None
        self._timer_at = None

    async def _wait(self, at: float) -> None:
        await self.room.clock.sleep_until(at)
        async with self.lock:
            if self._timer is asyncio.current_task():
                self._timer = None
                self._timer_at = None
            try:
                self.run_due(self.room.clock.now())
            except Exception:
                log.exception("table %s: a deadline failed", self.id)
            self._after_change()

    def _bot_seats(self) -> list[int]:
        game = self.game
        if game is None or self.state != "playing":
            return []
        return [i for i in game.to_act if self.seats[i].playing_bot() is not None]

    async def _play_bots(self) -> None:
        while self._bot_seats():
            if self.room.bot_delay > 0:
                await asyncio.sleep(self.room.bot_delay)
            else:
                await asyncio.sleep(0)
            async with self.lock:
                now = self.room.clock.now()
                self.run_due(now)
                seats = self._bot_seats()
                if not seats:
                    break
                assert self.game is not None
                seat = seats[0]
                bot = self.seats[seat].playing_bot()
                assert bot is not None
                try:
                    self._apply(seat, bot.choose(self.game), now)
                except Exception:
                    log.exception("table %s: bot in seat %s failed", self.id, seat)
                    return
                finally:
                    self._after_change()
        if self._bots is asyncio.current_task():
            self._bots = None
        self._after_change()
