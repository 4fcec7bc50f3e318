"""Two room nodes (real uvicorn processes) on one PostgreSQL and one Redis, each started by the
test itself: clients on different nodes play at one table, a spectator on a third socket sees every
update, the owner node is killed with SIGKILL mid-game and the other node takes the table over
(same seq, views and legal actions), the clients of the dead node reconnect and finish the game,
and the record replays to the same result. Every socket's messages pass the hidden-information
audit (tests/server/audit.py), the cross-node ones included."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis as redis_client

from feltroom.game import CLOCK
from feltroom.server import cluster
from feltroom.server.clock import RealClock
from feltroom.server.cluster import RedisBus
from feltroom.server.leases import Leases
from feltroom.server.limits import Limits
from feltroom.server.local_service import free_port
from feltroom.server.pg_local import LocalPostgres
from feltroom.server.redis_local import LocalRedis
from feltroom.server.room import Room
from feltroom.server.sqlite_store import SQLiteStore

from .audit import Replay
from .live import LiveServer, serve_live
from .served import Peer, Served

pytestmark = pytest.mark.slow

_databases = itertools.count(1)


def get(server: LiveServer, path: str) -> Any:
    with urllib.request.urlopen(server.url + path, timeout=10) as r:
        return json.loads(r.read())


def lobby_ids(server: LiveServer) -> list[str]:
    return [t["table"] for t in get(server, "/api/tables")]


def same_lobby(nodes: list[LiveServer], timeout: float = 5.0) -> list[str]:
    """The table ids of the lobby, once every node shows the same list (changes travel over Redis)."""
    deadline = time.monotonic() + timeout
    while True:
        lists = [lobby_ids(n) for n in nodes]
        if all(x == lists[0] for x in lists):
            return lists[0]
        if time.monotonic() > deadline:
            raise AssertionError(f"the nodes' lobbies differ: {lists}")
        time.sleep(0.05)


@contextlib.contextmanager
def two_nodes(tmp_path: Path, postgres: LocalPostgres, redis_server: LocalRedis,
              grace: float = 600.0) -> Iterator[list[LiveServer]]:
    db = postgres.create_database(f"cluster_{next(_databases)}")
    with serve_live(tmp_path, db=db, redis=redis_server.url, grace=grace) as a, \
            serve_live(tmp_path, db=db, redis=redis_server.url, grace=grace) as b:
        yield [a, b]


def holding(update: dict[str, Any]) -> bool:
    """Whether a Crisp update shows a hold: the next player waits for the release (CRISP-ONL-WIN-2)."""
    return any(d["action"] == "release" for d in update["deadlines"])


def start_crisp(host: Peer, guest: Peer, watchers: tuple[Peer, ...] = ()) -> str:
    """A two-seat Crisp table made by ``host``, joined by ``guest`` (and watched by ``watchers``),
    started and read by everyone up to its first update; its id."""
    tid: str = host.request({"type": "create", "game": "crisp", "seats": 2, "options": {}})["table"]
    assert guest.request({"type": "join", "table": tid})["you"] == 1
    for w in watchers:
        assert w.request({"type": "watch", "table": tid})["you"] is None
    assert host.request({"type": "start", "table": tid})["state"] == "playing"
    for c in (host, guest, *watchers):
        c.wait_seq(tid, 0)
    return tid


def act_once(players: list[Peer], tid: str, rng: random.Random) -> bool:
    """One random legal action by whoever may act; every player then reads up to it. ``False``
    once the game is over."""
    ups = [c.updates[tid] for c in players]
    if ups[0]["view"]["over"]:
        return False
    seq = ups[0]["seq"]
    choices = [(i, a) for i, u in enumerate(ups) for a in u["legal"]]
    if not choices:  # a hold (Crisp's window): the owner's clock moves the game on
        assert ups[0]["deadlines"], f"nobody may act at seq {seq} and no clock runs"
        for c in players:
            c.wait_seq(tid, seq + 1)
        return True
    i, action = rng.choice(choices)
    reply = players[i].request({"type": "act", "table": tid, "action": action, "seq": seq})
    assert reply["type"] == "update" and reply["seq"] == seq + 1, reply
    for c in players:
        c.wait_seq(tid, seq + 1)
    return True


def test_two_nodes_share_a_game_and_the_survivor_takes_it_over_after_kill_9(
        tmp_path: Path, postgres: LocalPostgres, redis_server: LocalRedis) -> None:
    with two_nodes(tmp_path, postgres, redis_server) as (a, b):
        ann, cid = Peer(a.port, "ann"), Peer(a.port, "cid")     # on the node that will own the table
        bob, eve = Peer(b.port, "bob"), Peer(b.port, "eve")     # on the other node; eve watches
        created = ann.request({"type": "create", "game": "crisp", "seats": 3, "options": {}})
        assert created["type"] == "table"
        tid = created["table"]
        assert same_lobby([a, b]) == [tid]
        for c in (bob, cid):  # bob's join crosses to the owner and back
            joined = c.request({"type": "join", "table": tid})
            assert joined["type"] == "table" and joined["you"] is not None, joined
        watched = eve.request({"type": "watch", "table": tid})
        assert watched["type"] == "table" and watched["you"] is None
        started = ann.request({"type": "start", "table": tid})
        assert started["type"] == "table" and started["state"] == "playing"
        seats = {m["you"]: p for p in (ann, bob, cid) for m in [p.tables[tid]]}
        players = [seats[i] for i in range(3)]
        for c in [*players, eve]:
            c.wait_seq(tid, 0)
        assert get(b, "/api/tables")[0]["state"] == "playing"

        rng = random.Random(7)
        while players[0].updates[tid]["seq"] < 12:
            assert act_once(players, tid, rng)
            eve.wait_seq(tid, players[0].updates[tid]["seq"])
        assert same_lobby([a, b]) == [tid]
        before = {id(c): c.updates[tid] for c in [*players, eve]}
        seq = players[0].updates[tid]["seq"]

        a.proc.send_signal(signal.SIGKILL)  # the owner dies mid-game
        a.proc.wait(10)
        killed = time.monotonic()
        # until a node owns the table again, a message for it is answered, not lost
        refused = bob.request({"type": "chat", "table": tid, "text": "anyone?"})
        assert refused["type"] == "error" and refused["code"] == "unavailable", refused

        # bob and eve stay on their sockets: the new owner sends them the table and the whole view
        for c in (bob, eve):
            c.recv_type("table")
            view = c.recv_type("update")
            assert view["seq"] == seq and view["events"] == []
            assert view["view"] == before[id(c)]["view"] and view["legal"] == before[id(c)]["legal"]
        took = time.monotonic() - killed
        assert took < 10, f"the table had no owner for {took:.1f} s"

        # the dead node's clients reconnect (to the address still up) with their tokens
        again = {}
        for old in (ann, cid):
            new = Peer(b.port, "whoever", token=old.token)
            seat = next(i for i, p in enumerate(players) if p is old)
            assert new.welcome["tables"] == [{"table": tid, "seat": seat, "state": "playing"}]
            view = new.recv_type("update")
            assert view["seq"] == seq and view["view"] == before[id(old)]["view"]
            assert view["legal"] == before[id(old)]["legal"]
            again[seat] = new
        survivors = [again.get(i, p) for i, p in enumerate(players)]
        assert lobby_ids(b) == [tid]

        while act_once(survivors, tid, rng):
            pass
        final = survivors[0].updates[tid]["seq"]
        eve.wait_seq(tid, final)
        deadline = time.monotonic() + 5
        while lobby_ids(b) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert lobby_ids(b) == []

        record = get(b, f"/api/games/{tid}/record")
        assert len(record["actions"]) == final
        replay = Replay(record)
        assert replay.game.is_over and replay.views[final][None] == eve.updates[tid]["view"]
        tokens = [str(p.token) for p in [*players, eve]]
        secrets_ = [str(record["seed"]), record["meta"]["salt"]]
        for seat, p in enumerate(players):
            others = [t for t in tokens if t != p.token]
            texts = [json.dumps(m) for m in p.inbox if m["type"] != "welcome"]
            if seat in again:  # the first socket up to the kill, the second from its reconnect
                assert replay.check_socket(tid, seat, texts, p.inbox, [*others, *secrets_], from_start=False) > seq
                new = again[seat]
                new_texts = [json.dumps(m) for m in new.inbox if m["type"] != "welcome"]
                assert replay.check_socket(tid, seat, new_texts, new.inbox, [*others, *secrets_],
                                           from_start=False) > 0
            else:  # bob's one socket saw it all, across the move
                assert replay.check_socket(tid, seat, texts, p.inbox, [*others, *secrets_]) == final + 2
        # the spectator, on the other node from the start, saw every update (one more after the move)
        n = replay.check_socket(tid, None, [json.dumps(m) for m in eve.inbox], eve.inbox,
                                [t for t in tokens if t != eve.token] + secrets_)
        assert n == final + 2
        for p in [bob, eve, *again.values()]:
            p.close()


def test_an_owner_paused_past_its_lease_lets_the_table_go_and_its_clients_follow(
        tmp_path: Path, postgres: LocalPostgres, redis_server: LocalRedis) -> None:
    """SIGSTOP of the owner for longer than the lease: the other node takes the table over; when the
    paused node wakes up it writes nothing more for that table (its lease lapsed by its own clock,
    and the store refuses a seq taken), and its client, still on it, is served by the new owner
    through it. The pause comes in a Crisp hold (CRISP-ONL-WIN-2): the release due while the owner
    is stopped is refused to the woken copy and fired by the new owner, which restarted it in full.
    The woken node speaks (it attaches its client to the new owner) before its key saying it is
    alive is set again: the new owner does not take it for dead, so its client's socket sees each
    update once, and the whole view once after the move."""
    with two_nodes(tmp_path, postgres, redis_server) as (a, b):
        ann, bob = Peer(a.port, "ann"), Peer(b.port, "bob")
        tid = start_crisp(ann, bob)
        players = [ann, bob]
        rng = random.Random(3)
        while ann.updates[tid]["seq"] < 6 or not holding(ann.updates[tid]):
            assert act_once(players, tid, rng)
        seq = ann.updates[tid]["seq"]
        before = {id(c): c.updates[tid] for c in players}

        a.proc.send_signal(signal.SIGSTOP)
        try:
            bob.recv_type("table")
            view = bob.recv_type("update")  # from b, the new owner
            assert view["seq"] == seq and view["events"] == [] and view["view"] == before[id(bob)]["view"]
        finally:
            a.proc.send_signal(signal.SIGCONT)
        while not (ann.inbox[-1]["type"] == "update" and ann.inbox[-1]["events"] == []):
            ann.recv(timeout=15)  # a lets the table go; b sends ann the whole view through a
        assert ann.inbox[-1]["seq"] == seq and ann.inbox[-1]["view"] == before[id(ann)]["view"]
        assert holding(ann.inbox[-1]), "the new owner restarted the hold's clocks"
        assert same_lobby([a, b]) == [tid]

        while act_once(players, tid, rng):  # ann's moves go from a to b
            pass
        final = ann.updates[tid]["seq"]
        record = get(a, f"/api/games/{tid}/record")
        assert len(record["actions"]) == final  # nothing stored twice, nothing lost
        released = [i for i, (seat, action) in enumerate(record["actions"]) if i >= seq and action == "release"]
        assert released and released[0] <= seq + 1, "the release pending at the take-over was fired (by b)"
        assert record["actions"][released[0]][0] == CLOCK
        replay = Replay(record)
        for seat, p in enumerate(players):
            assert replay.check_socket(tid, seat, [json.dumps(m) for m in p.inbox], p.inbox, [str(record["seed"])],
                                       from_start=True) == final + 2
        assert "lost the lease of table " + tid in a.log()
        assert "a deadline failed" not in a.log()  # the stale copy's refused release is no error
        assert "is gone" not in b.log()
        for p in players:
            p.close()


def test_a_node_paused_past_its_alive_key_gets_its_sockets_back_from_the_owner(
        tmp_path: Path, postgres: LocalPostgres, redis_server: LocalRedis) -> None:
    """The table stays where it is; the node of two of its sockets (a player and a spectator) is
    stopped long enough for the owner to find its alive key lapsed and drop them as disconnected.
    When it wakes, the owner's word that it dropped them reaches it: it attaches them again, each
    gets the table and the whole view (the spectator watches again), and the game goes on to its
    end with every update reaching them. Before that word existed the woken node believed them
    attached, and they heard nothing more of the table."""
    leases = Leases(ttl=2.0, stuck=1.5, scan_every=0.25)  # the pause need only pass 2 s + a scan
    db = postgres.create_database(f"cluster_{next(_databases)}")
    with serve_live(tmp_path, db=db, redis=redis_server.url, grace=600, leases=leases) as a, \
            serve_live(tmp_path, db=db, redis=redis_server.url, grace=600, leases=leases) as b:
        bob, ann, eve = Peer(b.port, "bob"), Peer(a.port, "ann"), Peer(a.port, "eve")
        tid = start_crisp(bob, ann, (eve,))
        players = [bob, ann]
        rng = random.Random(5)
        while bob.updates[tid]["seq"] < 4:
            assert act_once(players, tid, rng)
            eve.wait_seq(tid, bob.updates[tid]["seq"])

        a.proc.send_signal(signal.SIGSTOP)
        try:
            deadline = time.monotonic() + 15
            while "is gone" not in b.log():  # b took a for dead: ann's seat is disconnected
                assert time.monotonic() < deadline, "the owner never found the paused node's key lapsed"
                time.sleep(0.05)
        finally:
            a.proc.send_signal(signal.SIGCONT)
        for c in (ann, eve):  # attached again: the table and the whole view, as on a reconnect
            seq = bob.updates[tid]["seq"]
            c.recv_type("table")
            view = c.recv_type("update")
            assert view["seq"] >= seq and view["events"] == []
        assert "took this node for dead" in a.log()

        while act_once(players, tid, rng):
            eve.wait_seq(tid, bob.updates[tid]["seq"])
        final = bob.updates[tid]["seq"]
        eve.wait_seq(tid, final)
        record = get(b, f"/api/games/{tid}/record")
        assert len(record["actions"]) == final
        replay = Replay(record)
        assert replay.game.is_over and replay.views[final][None] == eve.updates[tid]["view"]
        for seat, p in enumerate(players):  # each event once, in order, the whole view again after the pause
            n = replay.check_socket(tid, seat, [json.dumps(m) for m in p.inbox], p.inbox, [str(record["seed"])])
            assert n == final + 1 + (p is ann)
        assert replay.check_socket(tid, None, [json.dumps(m) for m in eve.inbox], eve.inbox,
                                   [str(record["seed"])]) == final + 2  # the first view on watch, one after
        for p in [*players, eve]:
            p.close()


def test_lease_timings_set_low_move_a_killed_nodes_table_within_their_bound(
        tmp_path: Path, postgres: LocalPostgres, redis_server: LocalRedis) -> None:
    """``--lease-ttl``, ``--lease-renewals``, ``--lease-valid`` and ``--scan-every`` set low: the
    game plays as usual (the owner renews often enough to keep writing), Redis holds the lease for
    the TTL set, and after kill -9 of the owner the other node takes the table over within
    ``ttl + scan_every`` (1.75 s here, against 6 s with the defaults), not before the lease ran."""
    leases = Leases(ttl=1.5, renewals=4, valid=0.5, scan_every=0.25)
    db = postgres.create_database(f"cluster_{next(_databases)}")
    with serve_live(tmp_path, db=db, redis=redis_server.url, grace=600, leases=leases) as a, \
            serve_live(tmp_path, db=db, redis=redis_server.url, grace=600, leases=leases) as b:
        ann, bob = Peer(a.port, "ann"), Peer(b.port, "bob")
        tid = start_crisp(ann, bob)
        players = [ann, bob]
        rng = random.Random(11)
        while ann.updates[tid]["seq"] < 8:
            assert act_once(players, tid, rng)
        seq = ann.updates[tid]["seq"]
        redis = redis_client.Redis.from_url(redis_server.url)
        try:
            asked = time.monotonic()  # before the question: a pause after Redis answers must not move lapses later
            ms = redis.pttl(f"feltroom:lease:{tid}")
            lapses = asked + ms / 1000  # at the earliest: a renewal before the kill only delays it
        finally:
            redis.close()
        assert 0 < ms <= 1500

        a.proc.send_signal(signal.SIGKILL)
        killed = time.monotonic()
        a.proc.wait(10)
        bob.recv_type("table")
        view = bob.recv_type("update")
        moved = time.monotonic()
        assert view["seq"] == seq and view["events"] == []
        assert moved > lapses - 0.05, "the table moved while its lease still ran"
        assert moved - killed < leases.takeover + 1.25, f"the table moved {moved - killed:.2f} s after the kill"
        assert lobby_ids(b) == [tid]
        bob.close()


def test_a_node_whose_event_loop_is_stuck_lets_its_tables_go_within_the_set_bound(
        tmp_path: Path, postgres: LocalPostgres, redis_server: LocalRedis) -> None:
    """``--lease-stuck`` set low: an owner whose event loop stops turning (blocked here on purpose,
    while its renewal thread runs on) renews for ``stuck`` seconds more, then stops; the other node
    takes the table over within ``stuck + ttl + scan_every`` (2.65 s here, against 9 s with the
    defaults), and not before the lease it renewed last ran out."""
    leases = Leases(ttl=1.5, stuck=0.9, scan_every=0.25)
    db = postgres.create_database(f"cluster_{next(_databases)}")
    blocked = leases.stuck + leases.takeover + 2.0
    with Served(db, redis=redis_server.url, leases=leases) as a, \
            serve_live(tmp_path, db=db, redis=redis_server.url, leases=leases), \
            Peer(a.port, "ann") as ann:
        tid = ann.request({"type": "create", "game": "crisp", "seats": 2, "options": {}})["table"]
        bus = a.room.bus
        assert isinstance(bus, RedisBus) and bus._loop is not None
        key = f"feltroom:lease:{tid}"
        redis = redis_client.Redis.from_url(redis_server.url, decode_responses=True)
        try:
            assert redis.get(key) == bus.node
            start = time.monotonic()
            bus._loop.call_soon_threadsafe(time.sleep, blocked)  # the node's event loop stops turning
            lapses = start
            while True:
                look = redis.pipeline(transaction=True)  # both of one moment
                look.get(key)
                look.pttl(key)
                asked = time.monotonic()  # the expiry is at least asked + ms, however long the answer takes to be read
                owner, ms = look.execute()
                if owner not in (bus.node, None):
                    break
                if ms > 0:  # when the lease runs out, as the node's renewals leave it
                    lapses = max(lapses, asked + ms / 1000)
                assert time.monotonic() - start < blocked, "the stuck node's table never moved"
                time.sleep(0.01)
            moved = time.monotonic()
        finally:
            redis.close()
        assert lapses - start > leases.ttl, "the renewal thread renewed after the loop stopped (for stuck seconds)"
        assert moved > lapses - 0.05, "the table moved while its lease still ran"
        assert moved - start < leases.stuck + leases.takeover + 1.25, f"the table moved after {moved - start:.2f} s"
        time.sleep(max(0.0, start + blocked - time.monotonic()))  # the loop turns again before the node stops


def test_feltroom_serve_sets_the_lease_timings_from_its_flags(tmp_path: Path, redis_server: LocalRedis) -> None:
    """``feltroom serve --redis … --lease-ttl 1.2``: the node's alive key lives 1.2 s in Redis (the
    default is 5 s); a set of timings that cannot work is refused at start-up, naming its flags."""
    port = free_port()
    with open(tmp_path / "serve.log", "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "feltroom.server", "serve", "--port", str(port), "--db",
                                 str(tmp_path / "room.sqlite"), "--redis", redis_server.url, "--lease-ttl", "1.2",
                                 "--lease-renewals", "3", "--lease-valid", "0.5", "--lease-stuck", "0.8",
                                 "--scan-every", "0.3"], stdout=out, stderr=subprocess.STDOUT)
    redis = redis_client.Redis.from_url(redis_server.url, decode_responses=True)
    try:
        deadline = time.monotonic() + 30
        while not (keys := redis.keys("feltroom:alive:*")):
            assert proc.poll() is None and time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
            time.sleep(0.1)
        assert 0 < redis.pttl(keys[0]) <= 1200
    finally:
        redis.close()
        proc.terminate()
        try:
            proc.wait(40)  # each step of a node's leaving is bounded (cluster.STOP_WAIT)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
    bad = subprocess.run([sys.executable, "-m", "feltroom.server", "serve", "--redis", redis_server.url,
                          "--lease-renewals", "2", "--lease-valid", "0.4"], capture_output=True, text=True, timeout=30,
                         cwd=tmp_path)
    assert bad.returncode == 2
    assert "--lease-renewals × --lease-valid must be over 1 (here 2 × 0.4)" in bad.stderr


def test_a_node_told_to_stop_stops_even_if_a_task_ignores_its_cancel(
        tmp_path: Path, redis_server: LocalRedis, monkeypatch: pytest.MonkeyPatch) -> None:
    """CI once met a node that scanned on for ever after SIGTERM: a cancellation lost inside a Redis
    call left its shutdown waiting on its tasks. Leaving waits for them a bounded time, then goes on
    to release its leases and close its store."""
    monkeypatch.setattr(cluster, "STOP_WAIT", 0.5)

    async def leave() -> float:
        bus = RedisBus(redis_server.url, leases=Leases())
        room = Room(SQLiteStore(str(tmp_path / "room.sqlite")), RealClock(), Limits(), bus=bus)
        await bus.start(room)
        done = False

        async def stubborn() -> None:  # swallows every cancel, as the lost one did
            while not done:
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.sleep(60)

        bus._tasks.append(asyncio.get_running_loop().create_task(stubborn()))
        await asyncio.sleep(0)
        start = time.monotonic()
        await bus.stop()
        took = time.monotonic() - start
        done = True
        bus._tasks[-1].cancel()
        room.store.close()
        return took

    took = asyncio.run(leave())
    assert took < 3, f"leaving took {took:.1f} s with a task that ignores its cancel"
    redis = redis_client.Redis.from_url(redis_server.url, decode_responses=True)
    try:
        assert redis.keys("feltroom:alive:*") == []  # it still said it left
    finally:
        redis.close()
