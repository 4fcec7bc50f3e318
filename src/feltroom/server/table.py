"""A table: one game, its seats, its clocks and its watchers. Authoritative.

Every change happens under the table's lock, one at a time: due CLOCK actions first, then
the player's action through ``game.apply``; each applied action is stored before any
client hears of it; then each seat gets its own ``update``.

No game waits for ever on a person (the room decides this, not the rules):
- a seated player without a socket gets the grace period, then a stand-in bot plays the seat —
  from the start and from a restore too, not only after a disconnect;
- when no CLOCK deadline runs (an untimed game), a seat that owes an action for
  ``Limits.idle_standin`` seconds while another person waits gets its stand-in; the player takes
  the seat back by acting;
- a player who left a running game may take the seat back once;
- a running table whose people are all away for the grace period plus ``Limits.abandon_after``
  is ended as ``abandoned`` (not a finished game: no winners), its record published.

A tutorial table (``feltroom.tutorial``) is the one kind of table dealt from a chosen deck: the
tutorial's own, from the server's data. While its script lasts, only the step due may be played
(the learner is offered just that action; its bots play their steps); then it is an ordinary
game. It is never rated, never listed in the lobby, has no rematch, and its record says
``meta.tutorial`` (the record's ``deck`` is the stacked one).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..dealing import CURRENT_FORMAT
from ..errors import IllegalAction, InvalidAction
from ..game import CLOCK, Game
from ..registry import new_game, replay
from ..tutorial import Tutorial, tutorial_for
from ..views import events_for, own_view, public_view
from .bots import BotSeat, Thinkers, levels_for, standin_level
from .bus import LeaseLost
from .clock import Clock
from .connection import Connection, Player, dumps, dumps_list, dumps_str, with_id
from .fair import fair_hash, new_seed_salt
from .limits import KeyedRate, Limits
from .names import clean_text
from .protocol import ProtocolError
from .ratings import result_line, settle_game
from .store import UNFINISHED, Store, TableRow
from .timers import Deadline, apply_timer_events, running

log = logging.getLogger("feltroom.server")


@dataclass(frozen=True, slots=True)
class Services:
    """What a table needs from the room it is in, and nothing more."""

    store: Store
    clock: Clock
    limits: Limits
    grace: float                         # seconds an absent player keeps the seat before a stand-in plays it
    bot_delay: float                     # a bot's think time
    changed: Callable[[Table], None]     # seats or state changed (the lobby shows it; the room drops ended tables)
    chat_lines: KeyedRate                # chat lines per player id, across its sockets and tables
    thinkers: Thinkers | None = None     # worker processes for bots that search (None: they think on the loop)


@dataclass(eq=False)
class Seat:
    """Who plays a seat: a player, a bot level, or nobody yet."""

    player: Player | None = None
    bot: str | None = None             # a bot the host seated
    standin: BotSeat | None = None     # plays for an absent player (after the grace period, or after leave)
    left: bool = False                 # the player left a running game (join takes the seat back)
    took_back: bool = False            # the player took the seat back after leaving (allowed once)
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


@dataclass(eq=False)
class Rematch:
    """An offer to play the same game again at a new table, open until ``expires``."""

    expires: float
    accepted: set[int] = field(default_factory=set)   # seats
    state: str = "offered"                             # offered, started, declined, lapsed
    next: str | None = None                            # the new table, once started


class Table:
    """One table from creation to its end: ``waiting`` → ``playing`` → ``over`` (or ``abandoned``);
    a waiting table nobody sits at any more is ``closed`` and deleted."""

    def __init__(self, services: Services, table_id: str, game: str, players: int, options: dict[str, Any],
                 host: Player, created: float, tutorial: Tutorial | None = None) -> None:
        self.services = services
        self.id = table_id
        self.game_name = game
        self.players = players
        self.options = options
        self.bot_levels = levels_for(game, players, options)  # the levels that play this table as themselves
        self.host = host
        self.created = created
        self.seats = [Seat() for _ in range(players)]
        self.tutorial = tutorial
        self.seats[tutorial.seat if tutorial else 0].player = host
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
        self.owing: dict[int, float] = {}     # seat → since when it owes an action
        self.result: dict[str, Any] | None = None            # names, scores, winners once over
        self.rating_changes: list[dict[str, Any]] | None = None  # per seat, once rated
        self.rematch: Rematch | None = None   # an offer to play again, once over
        self.abandon_at: float | None = None  # set while every person at the table is away
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

    def identities(self) -> list[str | None]:
        """Per seat, who answers for it: a player id, ``bot:LEVEL``, or ``None`` (free)."""
        return [s.player.id if s.player else (f"bot:{s.bot}" if s.bot else None) for s in self.seats]

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
                "standin_at": self.graces.get(i),  # while the grace period runs: when it ends
            })
        return out

    def lobby_entry(self) -> dict[str, Any]:
        return {"table": self.id, "game": self.game_name, "seats": self.players,
                "taken": sum(s.taken for s in self.seats), "options": self.options, "state": self.state,
                "host": self.host.name, "names": self.names(), "players": self.identities()}

    def table_message(self, you: int | None) -> dict[str, Any]:
        msg: dict[str, Any] = {
            "type": "table", "table": self.id, "game": self.game_name, "options": self.options,
            "state": self.state, "host": self.host.name, "host_player": self.host.id,
            "seats": self.seat_list(), "you": you, "fair": self.fair,
            "seq": self.seq, "bot_levels": self.bot_levels,
        }
        if self.tutorial is not None:
            msg["tutorial"] = self.tutorial.public()
        if self.state not in UNFINISHED:
            msg["record"] = f"/api/games/{self.id}/record"
            msg["rating_changes"] = self.rating_changes
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

    def update_encoder(self, new: list[dict[str, Any]]) -> Callable[[int | None], str]:
        """The ``update`` text for each seat (``None``: a spectator) after the events ``new``.

        The parts every recipient shares (each event, the public part of the view, the
        deadlines) are built and serialised once; only the seat's own part of the view, its
        legal actions and its choice of events are per seat (both choices made by views.py)."""
        game = self.game
        assert game is not None
        encoded = {id(e): dumps(e) for e in new}
        public_events = events_for(new, None)  # the one redaction point, as for each seat below
        shared_events = ",".join([encoded[id(e)] for e in public_events])
        head = f'{{"type":"update","table":{dumps_str(self.id)},"seq":{len(game.actions)},"seat":'
        public = dumps(public_view(game))
        public_open = public[:-1]  # the object left open: the seat's own keys follow
        tail = (f',"deadlines":{dumps_list([d.public() for d in sorted(self.deadlines.values())])}'
                f',"now":{round(self.services.clock.now(), 3)!r}}}')

        def text(seat: int | None) -> str:
            mine = events_for(new, seat)
            # a seat's events are the public ones and its own, in order: as many means the same
            events = shared_events if len(mine) == len(public_events) else ",".join([encoded[id(e)] for e in mine])
            legal = self._offered(seat) if seat is not None else []
            own = dumps(own_view(game, seat))
            comma = "," if len(public) > 2 and len(own) > 2 else ""  # neither part empty ({})
            return (f'{head}{"null" if seat is None else seat},"view":{public_open}{comma}{own[1:]}'
                    f',"legal":{dumps_list(legal)},"events":[{events}]{tail}')

        return text

    # ------------------------------------------------------------------ the tutorial's script

    def _step_due(self) -> tuple[int, str] | None:
        """The tutorial's step due now (seat, action), or ``None``: no tutorial, or its script is over."""
        if self.tutorial is None or self.game is None:
            return None
        step = self.tutorial.step_due(len(self.game.actions))
        return (step.seat, step.action) if step is not None else None

    def _offered(self, seat: int) -> list[str]:
        """The actions ``seat`` is offered: its legal ones, or during a tutorial's script the step due."""
        due = self._step_due()
        if due is None:
            return self._legal[seat]  # kept current by every change of the game (_apply, _deal, resume)
        return [due[1]] if due[0] == seat else []

    def _check_step(self, seat: int, action: str) -> None:
        """During a tutorial's script, only the step due may be played."""
        due = self._step_due()
        if due is None:
            return
        assert self.game is not None
        try:
            canon = self.game.canonical(seat, action)
        except InvalidAction as e:
            raise ProtocolError("invalid", str(e)) from None
        if due[0] != seat:
            raise ProtocolError("forbidden", f"tutorial: the next step is seat {due[0]}'s: wait for it")
        if canon != due[1]:
            raise ProtocolError("forbidden", f"tutorial: this step asks for {due[1]!r}, not {canon!r}")

    def start_tutorial(self, conn: Connection, mid: Any = None) -> None:
        """Seat the tutorial's bots and deal at once (the room made this table for the learner)."""
        assert self.tutorial is not None
        level = standin_level(self.game_name)
        for s in self.seats:
            if s.player is None:
                s.bot = level
        self._deal(self.services.clock.now(), conn, mid)

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
        """The whole view, with no events (on reconnect and on ``watch``)."""
        if self.game is not None:
            conn.send(self.update_encoder([])(seat))

    def broadcast_update(self, start: int, sender: Connection | None = None, mid: Any = None) -> None:
        """Send every seat (and the spectators) its ``update`` for the events from ``start``."""
        assert self.game is not None
        text = self.update_encoder(self.game.log[start:])
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
        seats = [{"player": s.player.id if s.player else None, "bot": s.bot, "left": s.left,
                  "took_back": s.took_back} for s in self.seats]
        extra: dict[str, Any] = {"format": self.format}
        if self.tutorial is not None:
            extra["tutorial"] = self.tutorial.game
        if self.result is not None:
            extra["result"] = self.result
        return TableRow(self.id, self.game_name, self.players, self.options, self.host.id, seats, self.state,
                        self.seed, self.salt, self.fair, self.created, self.started, self.ended, extra)

    def save(self) -> None:
        self.services.store.save_table(self.row())

    def record(self) -> dict[str, Any]:
        game = self.game
        assert game is not None
        rec = game.record
        rec["meta"] = {**rec.get("meta", {}), "table": self.id, "names": self.names(), "salt": self.salt,
                       "fair": self.fair, "started": self.started, "ended": self.ended,
                       "bots": [s.bot for s in self.seats], "players": self.identities()}
        if self.state == "abandoned":
            rec["meta"]["abandoned"] = True
        if self.tutorial is not None:
            rec["meta"]["tutorial"] = True   # dealt from the tutorial's stacked deck (rec["deck"]), unrated
        return rec

    # ------------------------------------------------------------------ the game

    def start(self, conn: Connection, mid: Any = None) -> None:
        """The host's ``start``: every seat taken, at least one by a person."""
        self._host_waiting(conn, "start the game")
        free = [i for i, s in enumerate(self.seats) if not s.taken]
        if free:
            raise ProtocolError("forbidden", f"every seat must be taken first (free: {', '.join(map(str, free))})")
        if all(s.player is None for s in self.seats):
            raise ProtocolError("forbidden", "a table with no person seated is not started")
        self._deal(self.services.clock.now(), conn, mid)

    def _deal(self, now: float, sender: Connection | None = None, mid: Any = None) -> None:
        """Deal: a fresh seed and salt, publish ``fair``, start the clocks and the bots."""
        self.seed, self.salt = new_seed_salt()
        self.fair = fair_hash(self.seed, self.salt)
        self.game = new_game(self.game_name, players=self.players, seed=self.seed, options=self.options,
                             deck=self.tutorial.deck if self.tutorial is not None else None,
                             compiled=False)  # the room reads every view: the reference is cheaper here
        self.format = self.game.format
        self.state = "playing"
        self.started = now
        for i, s in enumerate(self.seats):
            if s.bot is not None:
                s.driver = BotSeat(s.bot, self.game, i)
        apply_timer_events(self.deadlines, self.game.log, now)
        self._legal = [self.game.legal_actions(s) for s in range(self.players)]
        for i, s in enumerate(self.seats):
            if s.player is not None and not s.player.conns:  # gone just before the start
                self.graces[i] = now + self.services.grace
        self._track_owing(now, None)
        self._check_presence(now)
        self.save()
        self.broadcast_table(sender, mid)
        self.broadcast_update(0)
        self.services.changed(self)
        self._after_change()

    @classmethod
    def restore(cls, services: Services, row: TableRow, player: Callable[[str], Player | None]) -> Table | None:
        """The table stored as ``row``, as it was (a running game replayed from its actions);
        ``player`` finds a stored player by id. ``None`` if its host is gone."""
        host = player(row.host)
        if host is None:
            return None
        tut = tutorial_for(row.extra["tutorial"]) if row.extra.get("tutorial") else None
        t = cls(services, row.id, row.game, row.players, row.options, host, row.created, tut)
        for s in t.seats:
            s.player = None
        for seat, data in zip(t.seats, row.seats, strict=True):
            seat.bot = data.get("bot")
            seat.left = bool(data.get("left"))
            seat.took_back = bool(data.get("took_back"))
            if data.get("player"):
                seat.player = player(data["player"])
                if seat.player is not None:
                    seat.player.tables.add(t.id)
        t.state, t.seed, t.salt, t.fair, t.started = row.state, row.seed, row.salt, row.fair, row.started
        t.format = row.extra.get("format", 1)  # stored before the format was: random.Random's deals
        now = services.clock.now()
        if t.state == "playing":
            t.resume(services.store.actions(t.id), now)
        else:  # nobody is connected yet: the seats of a waiting table expire as after a disconnect
            for seat in t.seats:
                if seat.player is not None:
                    t.expire_later(seat.player)
        return t

    def resume(self, actions: list[tuple[int | str, str]], now: float) -> None:
        """Rebuild a running game from its stored actions (after a restart); clocks restart in full."""
        assert self.seed is not None
        record = {"format": self.format, "name": self.game_name, "players": self.players, "options": self.options,
                  "seed": self.seed, "deck": self.tutorial.deck if self.tutorial is not None else None,
                  "actions": [[s, a] for s, a in actions]}
        self.game = replay(record, compiled=False)
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
                self.graces[i] = now + self.services.grace
        self._track_owing(now, None)
        self._check_presence(now)
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
                    raise ProtocolError.illegal(e) from None
                except InvalidAction as e:
                    raise ProtocolError("invalid", str(e)) from None
            raise ProtocolError("stale", f"seq {seq} is not the table's current seq {self.seq}: "
                                         "apply the updates you have not seen, then act again")
        try:
            self._check_step(seat, action)
            self._apply(seat, action, received, conn, mid)
            if self.seats[seat].standin is not None:  # the player is back: acting takes the seat back
                self.seats[seat].standin = None
                self.broadcast_table()
        except IllegalAction as e:
            raise ProtocolError.illegal(e) from None
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
            if kind == "idle":
                self._standin(int(key))
                continue
            if kind == "abandon":
                self._abandon(at)
                return
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
        for seat, at in self._idle_deadlines():
            if best is None or at < best[0]:
                best = (at, "idle", seat)
        if self.abandon_at is not None and (best is None or self.abandon_at < best[0]):
            best = (self.abandon_at, "abandon", "")
        return best

    def _idle_deadlines(self) -> list[tuple[int, float]]:
        """Seats of people that owe an action in an untimed game while another person waits."""
        if self.deadlines or not self.owing:
            return []
        present = {i for i, s in enumerate(self.seats) if s.player is not None and s.connected()}
        out = []
        for seat, since in self.owing.items():
            s = self.seats[seat]
            if s.player is not None and s.playing_bot() is None and present - {seat}:
                out.append((seat, since + self.services.limits.idle_standin))
        return out

    def _track_owing(self, now: float, actor: int | str | None) -> None:
        """Who owes an action since when: a seat's wait starts when it comes to act, or when it acted
        and still has to act."""
        assert self.game is not None
        to_act = self.game.to_act
        for seat in [s for s in self.owing if s not in to_act]:
            del self.owing[seat]
        for seat in to_act:
            if seat not in self.owing or seat == actor:
                self.owing[seat] = now

    def _check_presence(self, now: float) -> None:
        """Start (or stop) the count-down that ends a table every person has left."""
        away = all(s.left or not s.player.conns for s in self.seats if s.player is not None)
        if not away:
            self.abandon_at = None
        elif self.abandon_at is None:
            self.abandon_at = now + self.services.grace + self.services.limits.abandon_after

    def _apply(self, seat: int | str, action: str, at: float, sender: Connection | None = None,
               mid: Any = None) -> None:
        game = self.game
        assert game is not None
        start = len(game.log)
        game.apply(seat, action)  # raises before any change
        canon = game.actions[-1][1]
        seq = len(game.actions)
        self.services.store.append_action(self.id, seq, seat, canon, at)  # stored before it is sent
        for s in range(self.players):
            legal = game.legal_actions(s)
            if legal != self._legal[s]:
                self._legal[s] = legal
                if seat != CLOCK:
                    self._changed[s] = seq
        new = game.log[start:]
        apply_timer_events(self.deadlines, new, at)
        self._track_owing(at, seat)
        if game.is_over:
            self.deadlines.clear()
        self.broadcast_update(start, sender, mid)
        if game.is_over:
            self._finish(at)

    def _finish(self, now: float, state: str = "over") -> None:
        """End the game: the final state, the record, the results and the new ratings are stored in
        one transaction, then announced. Only a game that ended by its rules is rated."""
        game = self.game
        assert game is not None
        self.state = state
        self.ended = now
        try:
            settlement = None
            if state == "over":
                self.result = result_line(game, self.names())
                players = self.identities()
                # a seat whose player is gone (lost from the store) is not rated, nor a stacked tutorial
                if None not in players and self.tutorial is None:
                    settlement = settle_game(self.services.store, game, [p for p in players if p is not None])
            self.services.store.finish(self.row(), self.record(), settlement)
            if settlement is not None:
                self.rating_changes = settlement.changes()
        except Exception:
            # the store still holds the running game: a restart replays it and finishes it again
            log.exception("table %s: could not store the end of the game", self.id)
        self.deadlines.clear()
        self.graces.clear()
        self.owing.clear()
        self.abandon_at = None
        for s in self.seats:
            if s.player is not None:
                s.player.tables.discard(self.id)
        self.broadcast_table()
        self.services.changed(self)

    # ------------------------------------------------------------------ rematch

    def accept_rematch(self, conn: Connection, mid: Any) -> bool:
        """A player of the finished game offers (or accepts) a rematch; ``True`` once every person
        seated has: then the room starts the new table (``start_rematch``)."""
        assert conn.player is not None
        seat = self.seat_of(conn.player)
        if seat is None:
            raise ProtocolError("forbidden", "only the players of this game may ask for a rematch")
        if self.state != "over":
            raise ProtocolError("forbidden", f"a rematch is offered once the game is over (the table is {self.state})")
        if self.tutorial is not None:
            raise ProtocolError("forbidden", "a tutorial has no rematch: start the tutorial again from the lobby")
        if self.rematch is not None and self.rematch.state == "started":
            raise ProtocolError("forbidden", f"the rematch has started: table {self.rematch.next}")
        if self.rematch is None or self.rematch.state != "offered":
            self.rematch = Rematch(self.services.clock.now() + self.services.limits.rematch_window)
            with contextlib.suppress(RuntimeError):
                asyncio.get_running_loop().create_task(self._rematch_lapses(self.rematch))
        self.rematch.accepted.add(seat)
        if {i for i, s in enumerate(self.seats) if s.player is not None} <= self.rematch.accepted:
            return True
        self._announce_rematch(conn, mid)
        return False

    def start_rematch(self, old: Table, conn: Connection, mid: Any) -> None:
        """Seat the players and bots of ``old`` as they sat, tell everyone at ``old``, and deal."""
        assert old.rematch is not None
        for seat, was in zip(self.seats, old.seats, strict=True):
            seat.player, seat.bot = was.player, was.bot
            if seat.player is not None:
                seat.player.tables.add(self.id)
        self.host = old.host
        old.rematch.state, old.rematch.next = "started", self.id
        old._announce_rematch(conn, mid)
        for c in list(old.spectators):
            self.watch(c, None)
        self._deal(self.services.clock.now())

    def _rematch_ends(self, how: str, conn: Connection | None = None, mid: Any = None) -> None:
        assert self.rematch is not None
        self.rematch.state = how
        self._announce_rematch(conn, mid)
        self.rematch = None

    def _announce_rematch(self, sender: Connection | None, mid: Any) -> None:
        offer = self.rematch
        assert offer is not None
        text = dumps({"type": "rematch", "table": self.id, "state": offer.state, "accepted": sorted(offer.accepted),
                      "expires": offer.expires, "next": offer.next})
        for c, _ in self.audience():
            c.send(with_id(text, mid) if c is sender else text)

    async def _rematch_lapses(self, offer: Rematch) -> None:
        await self.services.clock.sleep_until(offer.expires)
        async with self.lock:
            if self.rematch is offer and offer.state == "offered":
                self._rematch_ends("lapsed")

    def _abandon(self, now: float) -> None:
        log.info("table %s: every person has been away since %.0f s: abandoned", self.id,
                 now - self.services.grace - self.services.limits.abandon_after)
        self._finish(now, "abandoned")

    # ------------------------------------------------------------------ seats coming and going

    def _host_waiting(self, conn: Connection, what: str) -> None:
        if self.host is not conn.player:
            raise ProtocolError("forbidden", f"only the host ({self.host.name}) may {what}")
        if self.state != "waiting":
            raise ProtocolError("forbidden", f"the table is {self.state}: {what} is only before the start")

    def join(self, conn: Connection, seat: int | None, mid: Any) -> None:
        """Sit down before the start (at ``seat``, or the first free one), or take back a seat left."""
        player = conn.player
        assert player is not None
        mine = self.seat_of(player)
        if mine is not None:
            if self.state == "playing" and self.seats[mine].left:
                if self.seats[mine].took_back:
                    raise ProtocolError("forbidden", "you took your seat back once in this game already: "
                                                     "the stand-in plays it to the end")
                self._take_back(mine, conn, mid)
                return
            raise ProtocolError("forbidden", f"you already sit at seat {mine} of this table")
        if self.state != "waiting":
            raise ProtocolError("forbidden", f"the table is {self.state}: seats are taken before the start "
                                             "(watch it instead)")
        limit = self.services.limits.max_open_tables_per_player
        if len(player.tables) >= limit:
            raise ProtocolError("forbidden", f"at most {limit} unfinished tables per player")
        if seat is None:
            free = [i for i, s in enumerate(self.seats) if not s.taken]
            if not free:
                raise ProtocolError("full", "every seat is taken")
            seat = free[0]
        else:
            if not 0 <= seat < self.players:
                raise ProtocolError("bad_message", f"no seat {seat}: seats are 0–{self.players - 1}")
            if self.seats[seat].taken:
                raise ProtocolError("full", f"seat {seat} is taken")
        self.seats[seat].player = player
        player.tables.add(self.id)
        self.unwatch(conn)
        self.save()
        self.broadcast_table(conn, mid)
        self.services.changed(self)

    def leave(self, conn: Connection, mid: Any) -> None:
        """Give up the seat before the start; during the game, hand it to the stand-in."""
        player = conn.player
        assert player is not None
        seat = self.seat_of(player)
        if seat is None:
            raise ProtocolError("forbidden", "you have no seat at this table")
        if self.state == "playing":
            if self.seats[seat].left:
                raise ProtocolError("forbidden", "you already left this game")
            self._leave_running(seat, conn, mid)
            return
        if self.state != "waiting":
            if self.rematch is not None and self.rematch.state == "offered":
                self._rematch_ends("declined", conn, mid)  # leaving an offered rematch declines it
                return
            raise ProtocolError("forbidden", "the game is over")
        for c in player.conns:
            c.send({"type": "left", "table": self.id, **({"id": mid} if c is conn else {})})
        self._free_seat(player)

    def _free_seat(self, player: Player) -> None:
        seat = self.seat_of(player)
        assert seat is not None
        self.seats[seat].player = None
        player.tables.discard(self.id)
        if self.host is player:
            people = [s.player for s in self.seats if s.player is not None]
            if not people:
                self._close()
                return
            self.host = people[0]
        self.save()
        self.broadcast_table()
        self.services.changed(self)

    def _close(self) -> None:
        """A waiting table that no person sits at any more is removed."""
        for c, _ in self.audience():
            c.send({"type": "closed", "table": self.id})
            c.watching.discard(self.id)
        self.state = "closed"
        self.services.store.delete_table(self.id)
        self.services.changed(self)

    def expire_later(self, player: Player) -> None:
        """A player away for the whole grace period gives up its seat at this waiting table."""
        with contextlib.suppress(RuntimeError):  # no running loop: a table built outside the server
            asyncio.get_running_loop().create_task(self._expire(player))

    async def _expire(self, player: Player) -> None:
        await self.services.clock.sleep_until(self.services.clock.now() + self.services.grace)
        async with self.lock:
            if not player.conns and self.state == "waiting" and self.seat_of(player) is not None:
                self._free_seat(player)

    def seat_bot(self, conn: Connection, seat: int, level: str | None, mid: Any) -> None:
        """The host seats a bot of ``level`` (or removes the bot: ``None``)."""
        self._host_waiting(conn, "seat bots")
        if not 0 <= seat < self.players:
            raise ProtocolError("bad_message", f"no seat {seat}: seats are 0–{self.players - 1}")
        s = self.seats[seat]
        if level is None:
            if s.bot is None:
                raise ProtocolError("forbidden", f"no bot sits at seat {seat}")
            s.bot = None
        else:
            levels = self.bot_levels
            if level not in levels:
                raise ProtocolError("bad_message", f"no bot level {level!r} for {self.game_name} at this table "
                                                   f"({self.players} players): the levels are {', '.join(levels)}")
            if s.player is not None:
                raise ProtocolError("full", f"seat {seat} is taken by {s.player.name}")
            s.bot = level
        self.save()
        self.broadcast_table(conn, mid)
        self.services.changed(self)

    def watch(self, conn: Connection, mid: Any) -> None:
        """Follow the table as a spectator (a seated player gets its seat's view again)."""
        assert conn.player is not None
        seat = self.seat_of(conn.player)
        if seat is None and self.id not in conn.watching:
            limit = self.services.limits.max_watch_per_socket
            if len(conn.watching) >= limit:
                raise ProtocolError("forbidden", f"at most {limit} tables watched per socket")
            conn.watching.add(self.id)
            self.spectators.add(conn)
        self.send_table(conn, mid)
        self.send_full_update(conn, seat)

    def unwatch(self, conn: Connection) -> None:
        conn.watching.discard(self.id)
        self.spectators.discard(conn)

    def chat(self, conn: Connection, text: str, mid: Any) -> None:
        player = conn.player
        assert player is not None
        if self.seat_of(player) is None and conn not in self.spectators:
            raise ProtocolError("forbidden", "sit at or watch a table to chat there")
        try:
            text = clean_text(text, self.services.limits.max_chat, "chat")
        except ValueError as e:
            raise ProtocolError("bad_message", str(e)) from None
        if not self.services.chat_lines.take(player.id, self.services.clock.now()):
            limits = self.services.limits
            raise ProtocolError("rate_limited", f"chat: too many lines: at most {limits.chat_burst} at once, "
                                                f"then {limits.chat_rate:g} a second per player, across all its "
                                                "sockets")
        out = dumps({"type": "chat", "table": self.id, "from": player.name, "player": player.id, "text": text})
        for c, _ in self.audience():
            c.send(with_id(out, mid) if c is conn else out)

    def disconnected(self, player: Player) -> None:
        """The player's last socket closed: the grace period starts for its seat (before the
        start: the seat expires after it)."""
        seat = self.seat_of(player)
        if seat is None:
            return
        if self.state == "waiting":
            self.expire_later(player)
        if self.state == "playing":
            now = self.services.clock.now()
            if not self.seats[seat].left and self.seats[seat].standin is None:
                self.graces[seat] = now + self.services.grace
            self._check_presence(now)
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
        if self.state == "playing":
            self._check_presence(self.services.clock.now())
            self._after_change()

    def _leave_running(self, seat: int, sender: Connection | None = None, mid: Any = None) -> None:
        s = self.seats[seat]
        s.left = True
        self.graces.pop(seat, None)
        if s.standin is None:
            assert self.game is not None
            s.standin = BotSeat(standin_level(self.game_name), self.game, seat)
        self._check_presence(self.services.clock.now())
        self.save()
        self.broadcast_table(sender, mid)
        self._after_change()

    def _take_back(self, seat: int, sender: Connection | None = None, mid: Any = None) -> None:
        s = self.seats[seat]
        s.left = False
        s.took_back = True
        s.standin = None
        self._check_presence(self.services.clock.now())
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
            self.stop()
            return
        due = self._next_due()
        at = due[0] if due else None
        # a timer due before the next deadline is kept: it wakes, finds nothing due and sets the
        # next one; so a move that only postpones a deadline (an untimed game's idle stand-in,
        # each move) cancels and creates no task
        early = self._timer is not None and at is not None and self._timer_at is not None and self._timer_at < at
        if at != self._timer_at and not early:
            if self._timer is not None and self._timer is not asyncio.current_task():
                self._timer.cancel()
            self._timer_at = at
            self._timer = asyncio.get_running_loop().create_task(self._wait(at)) if at is not None else None
        if self._bot_seats() and (self._bots is None or self._bots.done()):
            self._bots = asyncio.get_running_loop().create_task(self._play_bots())

    def stop(self) -> None:
        """Cancel the table's timer and bot tasks (the game ended, or the room shuts down)."""
        for task in (self._timer, self._bots):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        self._timer = self._bots = None
        self._timer_at = None

    async def _wait(self, at: float) -> None:
        await self.services.clock.sleep_until(at)
        async with self.lock:
            if self._timer is asyncio.current_task():
                self._timer = None
                self._timer_at = None
            try:
                self.run_due(self.services.clock.now())
            except LeaseLost:
                pass  # a stale copy (its node was paused): the bus let it go, the new owner runs the deadline
            except Exception:
                log.exception("table %s: a deadline failed", self.id)
            self._after_change()

    def _bot_seats(self) -> list[int]:
        game = self.game
        if game is None or self.state != "playing":
            return []
        due = self._step_due()
        if due is not None:  # the tutorial's script: only the bot whose step is due plays
            return [due[0]] if due[0] in game.to_act and self.seats[due[0]].playing_bot() is not None else []
        return [i for i in game.to_act if self.seats[i].playing_bot() is not None]

    async def _play_bots(self) -> None:
        while self._bot_seats():
            if self.services.bot_delay > 0:
                await asyncio.sleep(self.services.bot_delay)
            else:
                await asyncio.sleep(0)
            thinking: tuple[int, BotSeat, Game] | None = None
            async with self.lock:
                now = self.services.clock.now()
                try:
                    self.run_due(now)
                except LeaseLost:
                    return  # a stale copy: the new owner runs the deadline and plays the bots
                seats = self._bot_seats()
                if not seats:
                    break
                assert self.game is not None
                seat = seats[0]
                bot = self.seats[seat].playing_bot()
                assert bot is not None
                due = self._step_due()
                if due is None and bot.thinks and self.services.thinkers is not None:
                    thinking = (seat, bot, self.game)
                else:
                    try:  # a tutorial's scripted step, or a bot that answers at once
                        self._apply(seat, due[1] if due is not None else bot.choose(self.game), now)
                    except LeaseLost:
                        return  # a stale copy: the new owner's bot plays
                    except Exception:
                        log.exception("table %s: bot in seat %s failed", self.id, seat)
                        return
                    finally:
                        self._after_change()
            if thinking is not None and not await self._think(*thinking):
                return
        if self._bots is asyncio.current_task():
            self._bots = None
        self._after_change()

    async def _think(self, seat: int, bot: BotSeat, game: Game) -> bool:
        """A searching bot's move: it thinks in a worker process while the table stays open to
        everyone else (the lock is free), then plays if its seat still has the same choice."""
        assert self.services.thinkers is not None
        action, legal = await bot.think(game, self.services.thinkers)
        async with self.lock:
            try:
                if (self.game is game and self.state == "playing" and self.seats[seat].playing_bot() is bot
                        and game.legal_actions(seat) == legal):
                    self._apply(seat, action, self.services.clock.now())
            except LeaseLost:
                return False  # a stale copy: the new owner's bot plays
            except Exception:
                log.exception("table %s: bot in seat %s failed", self.id, seat)
                return False
            finally:
                self._after_change()
        return True
