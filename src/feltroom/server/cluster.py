"""Several room nodes over Redis (``feltroom serve --db postgresql://… --redis redis://…``).

What this module decides beyond the issue:

- **Ownership.** Each unfinished table has one owner node: the node whose id is the value of the
  key ``feltroom:lease:TABLE`` (``SET NX PX``, ``ttl`` s; the timings are ``leases.Leases``, set by
  ``feltroom serve --lease-*``). The owner renews all its leases every ``ttl / renewals`` s in one
  script call that extends only the keys still holding its id, from a thread of its own (a busy
  event loop delays the game, not the lease). It writes a table's changes only while its own
  clock says the lease holds (``valid`` of the TTL counted from before the renewal was sent, so a
  node stops writing before Redis lets the key go); past that, or when the renewal finds the key
  gone or another node's, it lets the table go. The store's ``(table, seq)`` key fences what slips
  through: a stale owner's action at a seq the next owner stored already is refused by the store,
  and was never sent to anyone.
- **Fail-over.** Every node scans the set ``feltroom:tables`` (the unfinished tables, filled from
  the store at each node's start) every ``scan_every`` s; a table without a lease is claimed with
  ``SET NX`` and rebuilt from the store (``Table.restore``: the same seq, views and legal actions;
  clocks restart in full, as after a restart). With the defaults a table of a killed node has a
  new owner within ``ttl + scan_every`` = 6 s.
- **Routing.** The lobby entries (the hash ``feltroom:entries``, and the channel ``feltroom:lobby``
  for each change) name each table's owner. A message for a table owned elsewhere is published to
  the owner's channel ``feltroom:node:ID``; when no node listens there (the owner is gone and no
  other has claimed the table yet) the client gets ``unavailable`` and nothing changed.
- **A socket elsewhere.** Before a node forwards the first message of a socket to an owner, it
  *attaches* the socket there: the owner makes a ``RemoteConnection`` for it and treats it as a
  reconnect of its player (``table`` and whole ``update`` of the player's tables there). Every
  message the owner sends to it — redacted for that socket's seat as for a local one — is
  published to the socket's node, which passes it on unread; so a node holds no card that its
  sockets may not see. When a table moves, each node attaches its interested sockets (the seated
  players', the watchers') to the new owner. A node whose key ``feltroom:alive:ID`` lapsed, and
  that has not been heard from for a TTL, is dead: the owners drop its sockets as disconnected
  (their grace periods start), and tell it so. A node that was only paused (SIGSTOP, a stalled
  machine) hears that when it wakes, says it is alive and attaches its sockets there again, as on
  a reconnect; a node that wakes and speaks before the owners' next scan keeps its attachments.
- What each node sends to one other node within one loop turn goes out as one message, in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import redis as sync_redis
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from ..registry import GAMES
from . import protocol as p
from .connection import Connection
from .leases import Leases
from .protocol import ProtocolError
from .remote import RemoteConnection
from .store import UNFINISHED
from .table import Table

if TYPE_CHECKING:
    from .room import Room

log = logging.getLogger("feltroom.server")

PREFIX = "feltroom:"
#: Pauses between the looks at the lease of a table this node has not heard of (a brand-new table
#: whose creator's claim may still be on its way to Redis).
LOOKUP_WAITS = (0.02, 0.05, 0.1)
#: Seconds each step of a node's leaving may take (its tasks' end; releasing; closing).
STOP_WAIT = 5.0

# KEYS: leases; ARGV: this node, the TTL in ms. Extends the leases still this node's; the
# 1-based positions of the others.
RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('PEXPIRE', key, ARGV[2]) else lost[#lost + 1] = i end
end
return lost
"""
# KEYS: leases; ARGV: this node. Deletes those still this node's.
RELEASE = """
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('DEL', key) end
end
return 0
"""

UNAVAILABLE = ("the table is moving to another node (its owner stopped): try again in a few seconds; "
               "its new owner sends the table and the whole view")

Reply = Callable[[Any], None]


class RedisBus:
    """The room's ``Bus`` over one Redis server (``redis://host:port/db``)."""

    def __init__(self, url: str, *, leases: Leases | None = None, prefix: str = PREFIX) -> None:
        self.url = url
        self.node = secrets.token_hex(6)
        self.leases = leases or Leases()
        self.prefix = prefix
        self._room: Room | None = None
        self._redis: aioredis.Redis | None = None
        self._pubsub: Any = None
        self._tasks: list[asyncio.Task[None]] = []
        self._out: list[tuple[tuple[Any, ...], Reply | None]] = []  # commands in order, each with its reply
        self._wake: asyncio.Event | None = None
        self._ops: dict[str, list[list[Any]]] = {}   # per node: what goes there at the end of this loop turn
        self._fails: dict[str, list[Callable[[], None]]] = {}  # per node: what to do if nobody listens there
        self._flush_due = False
        self.valid_until: dict[str, float] = {}  # the tables this node owns → until when it writes (monotonic)
        self._confirmed: set[str] = set()       # of those, the ones whose lease Redis confirmed
        self.entries: dict[str, tuple[str, float, dict[str, Any]]] = {}  # table → (owner, created, lobby entry)
        self.remotes: dict[tuple[str, str], RemoteConnection] = {}      # (node, socket) → its stand-in here
        self.local: dict[Connection, str] = {}    # this node's sockets that speak for a player → their ids
        self._by_cid: dict[str, Connection] = {}
        self._attached: dict[Connection, set[str]] = {}  # a local socket → the nodes it is attached to
        self._watching: dict[Connection, set[str]] = {}  # a local socket → the tables elsewhere it watches
        self._cids = 0
        self._heartbeat = time.monotonic()
        self._heard: dict[str, float] = {}  # another node → when this one last received a message of it
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping = threading.Event()
        self._renewer: threading.Thread | None = None
        self._claims: dict[str, asyncio.Future[bool]] = {}

    # ------------------------------------------------------------------ names

    def key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    def _channel(self, node: str) -> str:
        return self.key("node", node)

    @property
    def room(self) -> Room:
        assert self._room is not None
        return self._room

    @property
    def redis(self) -> aioredis.Redis:
        assert self._redis is not None
        return self._redis

    def _ms(self) -> int:
        return int(self.leases.ttl * 1000)

    # ------------------------------------------------------------------ start and stop

    async def start(self, room: Room) -> None:
        """Join the cluster: listen, read the lobby, list the store's unfinished tables, and take
        those nobody owns."""
        self._room = room
        self._wake = asyncio.Event()
        self._redis = aioredis.from_url(self.url, decode_responses=True)
        self._pubsub = self.redis.pubsub()
        await self._pubsub.subscribe(self._channel(self.node), self.key("lobby"))
        await self.redis.set(self.key("alive", self.node), "1", px=self._ms())
        for tid, raw in (await self.redis.hgetall(self.key("entries"))).items():
            node, created, entry = json.loads(raw)
            self.entries[str(tid)] = (node, created, entry)
        ids = [row.id for row in room.store.unfinished_tables()]
        if ids:
            await self.redis.sadd(self.key("tables"), *ids)
        loop = self._loop = asyncio.get_running_loop()
        scans = self._every(self.leases.scan_every, self._scan)
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._write()),
                       loop.create_task(self._beat()), loop.create_task(scans)]
        self._renewer = threading.Thread(target=self._renewals, name=f"leases-{self.node}", daemon=True)
        self._renewer.start()
        await self._scan()
        log.info("node %s joined the cluster at %s: %d tables here", self.node, self.url, len(room.tables))

    async def stop(self) -> None:
        """Leave: the leases are released (the other nodes take the tables at their next scan).

        Every step is bounded, and the loops also end on ``_stopping``: a node told to stop must
        stop. CI once met a node that answered SIGTERM by scanning on for ever after its tasks were
        cancelled: a cancellation lost inside a Redis call left the shutdown waiting on them."""
        self._stopping.set()
        if self._renewer is not None:
            await asyncio.to_thread(self._renewer.join, 10)
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            ended, stuck = await asyncio.wait(self._tasks, timeout=STOP_WAIT)
            for task in ended:  # read, so that a task that had failed is not reported again when collected
                if not task.cancelled():
                    task.exception()
            if stuck:
                log.warning("node %s: %d tasks did not end within %.0f s of their cancel", self.node, len(stuck),
                            STOP_WAIT)
        if self._redis is None:
            return
        with contextlib.suppress(RedisError, OSError, TimeoutError):
            async with asyncio.timeout(STOP_WAIT):
                mine = [self.key("lease", t) for t in self.valid_until]
                if mine:
                    await self.redis.eval(RELEASE, len(mine), *mine, self.node)  # type: ignore[misc]
                await self.redis.delete(self.key("alive", self.node))
        with contextlib.suppress(RedisError, OSError, TimeoutError):
            async with asyncio.timeout(STOP_WAIT):
                await self._pubsub.aclose()
        with contextlib.suppress(RedisError, OSError, TimeoutError):
            async with asyncio.timeout(STOP_WAIT):
                await self.redis.aclose()

    # ------------------------------------------------------------------ sending

    def _command(self, *args: Any, reply: Reply | None = None) -> None:
        """Send a Redis command, in order with every other one this node sends through here."""
        self._out.append((args, reply))
        assert self._wake is not None
        self._wake.set()

    async def _write(self) -> None:
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._out = self._out, []
            if not batch:
                continue
            pipe = self.redis.pipeline(transaction=False)
            for args, _ in batch:
                pipe.execute_command(*args)
            try:
                results = await pipe.execute(raise_on_error=False)
            except (RedisError, OSError) as e:  # not retried: a message published twice could act twice
                log.warning("node %s: %d Redis commands failed: %s", self.node, len(batch), e)
                results = [e] * len(batch)
            for (_, reply), result in zip(batch, results, strict=True):
                if reply is not None:
                    try:
                        reply(result)
                    except Exception:
                        log.exception("node %s: handling a Redis reply failed", self.node)

    def _op(self, node: str, op: list[Any], fail: Callable[[], None] | None = None) -> None:
        """Queue ``op`` for ``node``; ``fail`` runs if no node listens there."""
        self._ops.setdefault(node, []).append(op)
        if fail is not None:
            self._fails.setdefault(node, []).append(fail)
        if not self._flush_due:
            self._flush_due = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_due = False
        self.room.store.flush()  # what the messages tell is stored before they leave
        ops, self._ops = self._ops, {}
        fails, self._fails = self._fails, {}
        for node, items in ops.items():
            failed = fails.get(node)
            self._command("PUBLISH", self._channel(node), json.dumps([self.node, items], separators=(",", ":")),
                          reply=None if failed is None else _when_unheard(failed))

    # ------------------------------------------------------------------ receiving

    async def _listen(self) -> None:
        lobby = self.key("lobby")
        while not self._stopping.is_set():
            try:
                message = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except (RedisError, OSError) as e:
                log.warning("node %s: the Redis subscription failed: %s", self.node, e)
                await asyncio.sleep(0.5)
                continue
            if message is None:
                continue
            try:
                if message["channel"] == lobby:
                    node, tid, created, entry = json.loads(message["data"])
                    self._entry(node, tid, created, entry)
                else:
                    sender, ops = json.loads(message["data"])
                    self._heard[sender] = time.monotonic()
                    for op in ops:
                        self._received(sender, op)
            except Exception:
                log.exception("node %s: could not handle %r", self.node, str(message.get("data"))[:200])

    def _received(self, sender: str, op: list[Any]) -> None:
        room = self.room
        match op:
            case ["send", cid, text]:
                conn = self._by_cid.get(cid)
                if conn is not None:
                    conn.send(text)
            case ["close", cid, code, reason]:
                conn = self._by_cid.get(cid)
                if conn is not None:
                    conn.close(code, reason)
            case ["attach", cid, player, address]:
                room.attach_remote(self._remote(sender, cid, address), player)
            case ["msg", cid, player, address, text]:
                remote = self._remote(sender, cid, address)
                if remote.player is None or remote.player.id != player:
                    room.attach_remote(remote, player, reconnect=False)
                remote.received(text, self._handle)
            case ["detach", cid]:
                gone = self.remotes.pop((sender, cid), None)
                if gone is not None:
                    room.closed(gone)
            case ["dropped"]:
                self._attach_again(sender)
            case _:
                log.warning("node %s: unknown operation %r from %s", self.node, op[:1], sender)

    async def _handle(self, conn: Connection, text: str) -> None:
        await self.room.receive(conn, text, self.room.clock.now())

    def _remote(self, node: str, cid: str, address: str) -> RemoteConnection:
        remote = self.remotes.get((node, cid))
        if remote is None:
            remote = RemoteConnection(node, cid, address, self.room.limits, self._op)
            self.remotes[(node, cid)] = remote
        return remote

    # ------------------------------------------------------------------ the lobby and routing

    def _entry(self, node: str, tid: str, created: float, entry: dict[str, Any] | None) -> None:
        """Another node's table changed (``entry``) or ended (``None``)."""
        if node == self.node:
            return  # this node's own news: its tables are in memory
        old = self.entries.get(tid)
        if entry is None:
            if old is not None and old[0] == node:
                del self.entries[tid]
        else:
            self.entries[tid] = (node, created, entry)
            if tid in self.room.tables:  # another node owns it now: this one's lease lapsed
                self.lost(tid, f"node {node} owns it")
            if old is None or old[0] != node:
                self._moved(tid, node, entry)
        self.room.lobby_changed()

    def _moved(self, tid: str, node: str, entry: dict[str, Any]) -> None:
        """``node`` owns ``tid`` now: attach the sockets here that follow it there."""
        seated = {pid for pid in entry.get("players", []) if pid and not pid.startswith("bot:")}
        for conn in list(self.local):
            if conn.player is None or conn.closing:
                continue
            if conn.player.id in seated:
                self._attach(conn, node)  # a new attachment gets the player's tables there
            elif tid in self._watching.get(conn, ()):
                self._attach(conn, node)
                self._op(node, ["msg", self.local[conn], conn.player.id, conn.address,
                                json.dumps({"type": "watch", "table": tid})])

    async def forward(self, conn: Connection, msg: p.ClientMessage, text: str) -> bool:
        """Send ``msg`` (``text`` as received) to the owner of its table; ``False`` if no node
        has that table."""
        tid: str = getattr(msg, "table")  # noqa: B009 (every message routed here names its table)
        if isinstance(conn, RemoteConnection):
            raise ProtocolError("unavailable", UNAVAILABLE)  # routed here, but this node no longer owns it
        known = self.entries.get(tid)
        node = known[0] if known is not None else await self._owner(tid)
        if node is None or conn.player is None or conn.closing:
            return False
        if node == self.node:
            raise ProtocolError("unavailable", UNAVAILABLE)
        self._attach(conn, node)
        if isinstance(msg, p.Watch):
            self._watching.setdefault(conn, set()).add(tid)
        mid = msg.id
        self._op(node, ["msg", self.local[conn], conn.player.id, conn.address, text],
                 fail=lambda: conn.send(p.error("unavailable", UNAVAILABLE, None, mid)))
        return True

    async def _owner(self, tid: str) -> str | None:
        """The owner of a table the lobby here has not heard of (yet): its lease. A table created
        on another node a moment ago may be known to a client before its lobby entry reached this
        node, or even before its creator's claim reached Redis (both go out as the creator answers)."""
        if not tid.startswith("t") or len(tid) > 32:
            return None
        for wait in LOOKUP_WAITS:
            try:
                owner = await self.redis.get(self.key("lease", tid))
            except (RedisError, OSError):
                return None
            if owner is not None:
                return str(owner)
            await asyncio.sleep(wait)
        return None

    def _attach(self, conn: Connection, node: str) -> None:
        nodes = self._attached.setdefault(conn, set())
        if node in nodes or conn.player is None:
            return
        nodes.add(node)
        self._op(node, ["attach", self.local[conn], conn.player.id, conn.address], fail=lambda: nodes.discard(node))

    def welcomed(self, conn: Connection) -> None:
        if isinstance(conn, RemoteConnection) or conn.player is None:
            return
        self._cids += 1
        cid = f"{self._cids:x}"
        self.local[conn] = cid
        self._by_cid[cid] = conn
        pid = conn.player.id
        for node in {node for node, _, entry in self.entries.values()
                     if node != self.node and pid in entry.get("players", ())}:
            self._attach(conn, node)

    def detached(self, conn: Connection) -> None:
        cid = self.local.pop(conn, None)
        if cid is None:
            return
        self._by_cid.pop(cid, None)
        self._watching.pop(conn, None)
        for node in self._attached.pop(conn, ()):
            self._op(node, ["detach", cid])

    def lobby(self, local: dict[str, Table]) -> list[dict[str, Any]]:
        """The unfinished tables of every node, oldest first (the same list on every node)."""
        rows = [(t.created, t.id, t.lobby_entry()) for t in local.values()
                if t.state in UNFINISHED and t.tutorial is None]
        rows += [(created, tid, entry) for tid, (_, created, entry) in self.entries.items()
                 if tid not in local and entry.get("state") in UNFINISHED and not entry.get("tutorial")]
        rows.sort(key=lambda r: (r[0], r[1]))
        return [entry for _, _, entry in rows]

    def player_tables(self, player_id: str) -> list[dict[str, Any]]:
        """The player's seats at tables other nodes own."""
        out = []
        for tid, (node, _, entry) in self.entries.items():
            players = entry.get("players", [])
            if node != self.node and tid not in self.room.tables and player_id in players:
                out.append({"table": tid, "seat": players.index(player_id), "state": entry.get("state")})
        return out

    # ------------------------------------------------------------------ this node's tables

    def added(self, table: Table) -> None:
        """A new table here: claim its lease (nobody else knows its id yet)."""
        tid = table.id
        self.valid_until[tid] = time.monotonic() + self.leases.ttl * self.leases.valid

        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._claims[tid] = done

        def claimed(result: Any) -> None:
            self._claims.pop(tid, None)
            ok = result is True or result == "OK"
            if ok:
                self._confirmed.add(tid)
            else:
                self.lost(tid, f"its claim failed ({result!r})")
            if not done.done():
                done.set_result(ok)

        self._command("SET", self.key("lease", tid), self.node, "NX", "PX", self._ms(), reply=claimed)

    async def claimed(self, table: Table) -> bool:
        """Whether the new ``table``'s lease is in Redis (waits for the claim ``added`` sent): a
        client that learns of the table can find its owner from any node from then on."""
        claim = self._claims.get(table.id)
        if claim is None:
            return table.id in self._confirmed
        return await asyncio.shield(claim)

    def changed(self, table: Table) -> None:
        """Tell every node of the table's seats and state; an ended table gives up its lease."""
        tid = table.id
        if tid not in self.valid_until or self.room.tables.get(tid, table) is not table:
            return  # not this node's (any more), or a copy it let go of
        if table.state in UNFINISHED:
            entry = table.lobby_entry()
            if table.tutorial is not None:  # a player's own tutorial: known to every node, listed by none
                entry["tutorial"] = True
            self.entries[tid] = (self.node, table.created, entry)
            news = json.dumps([self.node, tid, table.created, entry], separators=(",", ":"))
            self._command("HSET", self.key("entries"), tid, json.dumps([self.node, table.created, entry]))
            self._command("SADD", self.key("tables"), tid)
            self._command("PUBLISH", self.key("lobby"), news)
            return
        self.entries.pop(tid, None)
        self._forget(tid)
        self.valid_until.pop(tid, None)
        self._confirmed.discard(tid)
        self._command("EVAL", RELEASE, 1, self.key("lease", tid), self.node)

    def _forget(self, tid: str) -> None:
        """The table ended or is gone: off the lobby of every node, and off the list to take over."""
        self._command("HDEL", self.key("entries"), tid)
        self._command("SREM", self.key("tables"), tid)
        self._command("PUBLISH", self.key("lobby"), json.dumps([self.node, tid, 0, None]))

    def holds(self, table_id: str) -> bool:
        return time.monotonic() < self.valid_until.get(table_id, 0.0)

    def lost(self, table_id: str, why: str = "its time ran out by this node's clock") -> None:
        """This node no longer owns the table: it lets it go at once (nothing runs on it here any
        more; its sockets here follow it to the new owner when that one announces itself)."""
        self.valid_until.pop(table_id, None)
        self._confirmed.discard(table_id)
        table = self.room.tables.pop(table_id, None)
        if table is None:
            return
        log.warning("node %s: lost the lease of table %s (seq %d): %s", self.node, table_id, table.seq, why)
        table.state = "moved"  # every timer, bot and handler of this copy stops at its next step
        table.stop()
        for seat in table.seats:
            if seat.player is not None:
                seat.player.tables.discard(table_id)
        for c in list(table.spectators):
            c.watching.discard(table_id)
            if c in self.local:  # it follows the table to its new owner
                self._watching.setdefault(c, set()).add(table_id)
        table.spectators.clear()
        self._command("EVAL", RELEASE, 1, self.key("lease", table_id), self.node)

    # ------------------------------------------------------------------ leases and fail-over

    async def _every(self, seconds: float, job: Callable[[], Any]) -> None:
        while not self._stopping.is_set():
            await asyncio.sleep(seconds)
            try:
                await job()
            except (RedisError, OSError) as e:
                log.warning("node %s: %s failed: %s", self.node, getattr(job, "__name__", job), e)
            except Exception:
                log.exception("node %s: %s failed", self.node, getattr(job, "__name__", job))

    def _renewals(self) -> None:
        """The renewal thread: every ``ttl / renewals`` s, extend this node's leases (and its
        being alive) in one call, while the event loop shows signs of life.

        A thread of its own, with its own connection: a node whose event loop is busy (many
        clients, a slow store) still answers for its tables, only later; a node whose event loop
        has not turned for ``stuck`` s, or whose process is paused, lets its leases lapse. Once the
        loop turns again the next renewal comes within a beat, not a whole period: a node woken
        from a pause says it is alive before the owners' next scan can take it for dead."""
        client = sync_redis.Redis.from_url(self.url, decode_responses=True)
        period = self.leases.ttl / self.leases.renewals
        stalled = False
        try:
            while not self._stopping.wait(min(period, self.leases.beat) if stalled else period):
                still = time.monotonic() - self._heartbeat
                if still > self.leases.stuck:
                    if not stalled:
                        log.warning("node %s: the event loop has not turned for %.1f s: no renewal", self.node, still)
                    stalled = True
                    continue
                stalled = False
                try:
                    self._renew(client)
                except (RedisError, OSError) as e:
                    log.warning("node %s: the lease renewal failed: %s", self.node, e)
        finally:
            client.close()

    def _renew(self, client: sync_redis.Redis) -> None:
        tids = [t for t in list(self.valid_until) if t in self._confirmed]
        sent = time.monotonic()
        pipe = client.pipeline(transaction=False)
        pipe.set(self.key("alive", self.node), "1", px=self._ms())
        if tids:
            pipe.eval(RENEW, len(tids), *[self.key("lease", t) for t in tids], self.node, self._ms())
        results = pipe.execute()
        took = time.monotonic() - sent
        if took > 0.5:
            log.warning("node %s: the lease renewal took %.1f s", self.node, took)
        lost = {tids[i - 1] for i in results[1]} if tids else set()
        assert self._loop is not None
        self._loop.call_soon_threadsafe(self._renewed, tids, lost, sent)

    def _renewed(self, tids: list[str], lost: set[str], sent: float) -> None:
        """On the event loop (which alone changes ``valid_until``): the renewal sent at ``sent``."""
        for tid in tids:
            if tid in lost:
                self.lost(tid, "the renewal found it gone or another node's")
            elif tid in self.valid_until and tid in self._confirmed:
                self.valid_until[tid] = max(self.valid_until[tid], sent + self.leases.ttl * self.leases.valid)

    async def _beat(self) -> None:
        """The event loop's sign of life for the renewal thread."""
        while not self._stopping.is_set():
            self._heartbeat = time.monotonic()
            await asyncio.sleep(self.leases.beat)

    async def _scan(self) -> None:
        """Take the tables nobody owns; drop the sockets of nodes that died."""
        room = self.room
        candidates = [str(t) for t in await self.redis.smembers(self.key("tables")) if t not in room.tables]
        if candidates:
            owners = await self.redis.mget([self.key("lease", t) for t in candidates])
            orphans = [t for t, owner in zip(candidates, owners, strict=True) if owner is None]
            if orphans:
                sent = time.monotonic()
                pipe = self.redis.pipeline(transaction=False)
                for tid in orphans:
                    pipe.set(self.key("lease", tid), self.node, nx=True, px=self._ms())
                won = [t for t, ok in zip(orphans, await pipe.execute(), strict=True) if ok]
                if won:
                    self._take(won, sent)
        nodes = sorted({r.node for r in self.remotes.values()})
        if nodes:
            alive = await self.redis.mget([self.key("alive", n) for n in nodes])
            now = time.monotonic()
            for node, flag in zip(nodes, alive, strict=True):
                # a node that spoke within a TTL is alive, whatever its key says: one woken from a
                # pause attaches its sockets here before its renewal thread has set the key again
                if flag is None and now - self._heard.get(node, -self.leases.ttl) > self.leases.ttl:
                    self._node_died(node)

    def _take(self, won: list[str], sent: float) -> None:
        """Rebuild the tables this node just claimed from the store."""
        room = self.room
        rows = {row.id: row for row in room.store.unfinished_tables()}
        for tid in won:
            self.valid_until[tid] = sent + self.leases.ttl * self.leases.valid
            self._confirmed.add(tid)
            row = rows.get(tid)
            table = None
            if row is not None and row.game in GAMES:
                try:
                    table = Table.restore(room.services, row, room._load_player)
                except Exception:
                    log.exception("node %s: could not resume table %s", self.node, tid)
            if table is None or table.state not in UNFINISHED:
                self.valid_until.pop(tid, None)
                self._confirmed.discard(tid)
                self.entries.pop(tid, None)
                self._forget(tid)
                self._command("EVAL", RELEASE, 1, self.key("lease", tid), self.node)
                if table is not None:  # it ended while being resumed (the last action was stored)
                    room.tables[tid] = table
                continue
            room.tables[tid] = table
            self.changed(table)
            watchers = [c for c in self.local if tid in self._watching.get(c, ())]
            for c in watchers:
                self._watching[c].discard(tid)  # watched here from now on
            room.adopted(table, watchers)
            log.info("node %s: took over table %s at seq %d", self.node, tid, table.seq)

    def _node_died(self, node: str) -> None:
        log.warning("node %s: node %s is gone: its sockets are disconnected", self.node, node)
        self._heard.pop(node, None)
        for key in [k for k in self.remotes if k[0] == node]:
            self.room.closed(self.remotes.pop(key))
        # A node whose key lapsed only because it was paused (SIGSTOP, a stalled machine) still
        # believes its sockets attached here: without this word it would never attach them again,
        # and they would hear nothing more of this node's tables. Nobody listens if it is dead.
        self._op(node, ["dropped"])

    def _attach_again(self, node: str) -> None:
        """``node`` dropped this node's sockets (it found this node's alive key lapsed): this node
        is alive after all, so it says so, and attaches them there again (each gets the table and
        the whole view of its player's tables there, as on a reconnect) and watches again what
        they watched there."""
        log.warning("node %s: node %s took this node for dead: its sockets attach there again", self.node, node)
        self._command("SET", self.key("alive", self.node), "1", "PX", self._ms())  # before the attachments
        for conn, nodes in list(self._attached.items()):
            if node not in nodes:
                continue
            nodes.discard(node)
            if conn.player is None or conn.closing or conn not in self.local:
                continue
            self._attach(conn, node)
            for tid in sorted(self._watching.get(conn, ())):
                known = self.entries.get(tid)
                if known is not None and known[0] == node:
                    self._op(node, ["msg", self.local[conn], conn.player.id, conn.address,
                                    json.dumps({"type": "watch", "table": tid})])


def _when_unheard(fails: list[Callable[[], None]]) -> Reply:
    def reply(listeners: Any) -> None:
        if listeners == 0 or isinstance(listeners, Exception):
            for fail in fails:
                fail()
    return reply
