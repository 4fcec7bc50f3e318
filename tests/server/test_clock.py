"""Clocks on the fake clock: Crisp's hold, crisp window and draw timer (CRISP-ONL-*).

The table turns the engine's ``timer`` events into deadlines and applies the CLOCK action
when one passes, before any message received at or after it. Nothing here sleeps.
"""

from __future__ import annotations

from typing import Any

import pytest

import feltroom
import feltroom.server.table as table_mod
from feltroom import CLOCK
from feltroom.server import Limits

from .conftest import Client, Room_, start_table, wait_seq
from .test_disconnect import until

OPTIONS = {"end_limit": 100, "draw_time": 30}


def plain_start(seed: int) -> bool:
    """The first two turns can each be a draw and a discard (no King drawn)."""
    g = feltroom.new_game("crisp", players=4, seed=seed, options={**OPTIONS, "clock": True})
    first = g.to_act[0]
    g.apply(first, "draw")
    if "discard" not in g.legal_actions(first):
        return False
    g.apply(first, "discard")
    g.apply(CLOCK, "release")
    nxt = (first + 1) % 4
    g.apply(nxt, "draw")
    return "discard" in g.legal_actions(nxt)


@pytest.fixture
def crisp4(room: Room_, monkeypatch: pytest.MonkeyPatch) -> tuple[Room_, list[Client], str, int]:
    seed = next(s for s in range(200) if plain_start(s))
    monkeypatch.setattr(table_mod, "new_seed_salt", lambda: (seed, "ab" * 16))
    clients = [room.client(n) for n in ("p0", "p1", "p2", "p3")]
    tid = start_table(room, clients, options=OPTIONS)
    first = clients[0].updates[tid]["view"]["turn"]
    return room, clients, tid, first


def act(c: Client, tid: str, action: str, seq: int | None = None) -> dict[str, Any]:
    return c.request({"type": "act", "table": tid, "action": action,
                      "seq": c.updates[tid]["seq"] if seq is None else seq})


def deadlines(c: Client, tid: str) -> list[tuple[str, int | None, float]]:
    return [(d["action"], d["seat"], d["at"]) for d in c.updates[tid]["deadlines"]]


def test_the_first_draw_timer_starts_at_the_deal(crisp4: Any) -> None:
    # CRISP-ONL-TIME-2 / CRISP-DEAL-6: the round's first draw timer starts at the deal.
    room, clients, tid, f = crisp4
    t0 = room.clock.now()
    assert deadlines(clients[0], tid) == [("timeout", f, t0 + 30)]


def end_first_turn(room: Room_, clients: list[Client], tid: str, f: int) -> float:
    room.clock.advance(1)
    assert act(clients[f], tid, "draw")["type"] == "update"
    room.clock.advance(4)
    t_end = room.clock.now()
    assert act(clients[f], tid, "discard")["type"] == "update"
    for c in clients:
        c.sync()
    return t_end


def test_scn10_hold_overlap_and_declaration(crisp4: Any) -> None:
    # CRISP-SCN-10, CRISP-ONL-WIN-1, CRISP-ONL-WIN-2, CRISP-ONL-WIN-3, CRISP-CALL-3.
    room, clients, tid, f = crisp4
    n = (f + 1) % 4
    t = end_first_turn(room, clients, tid, f)
    # the window closes at T_end + 3 s, the next player is held until T_end + 2 s
    assert deadlines(clients[n], tid) == [("release", n, t + 2), (f"close {f}", f, t + 3)]
    assert clients[n].updates[tid]["legal"] == []
    seq = clients[n].updates[tid]["seq"]
    room.clock.set(t + 1.5)  # CRISP-ONL-WIN-2: P2 tries to draw at 101.500: rejected
    err = act(clients[n], tid, "draw")
    assert err["type"] == "error" and err["code"] == "illegal" and err["rule"] == "CRISP-ONL-WIN-2"
    # the values the message names, for a client that words it itself (docs/protocol.md)
    assert err["params"] == {"seat": f, "seconds": 2}
    assert err["template"] == "wait: {seat}'s crisp window holds your turn for {seconds} s"
    assert err["message"] == f"wait: P{f}'s crisp window holds your turn for 2 s"
    assert room.table(tid).seq == seq
    room.clock.set(t + 2.1)  # P2 draws at 102.100 with the seq it had: release is applied first
    reply = act(clients[n], tid, "draw", seq)
    assert reply["type"] == "update" and reply["seq"] == seq + 2
    first, _second = [m for m in clients[n].inbox if m.get("type") == "update"][-2:]
    assert first["seq"] == seq + 1 and {"type": "turn_start", "to": "all", "seat": n, "last": False} in first["events"]
    assert room.table(tid).record()["actions"][-2:] == [[CLOCK, "release"], [n, "draw"]]
    room.clock.set(t + 2.6)  # P1 declares at 102.600: accepted
    # P1 has not seen the release nor P2's draw: its seq is behind, but neither changed its options
    assert clients[f].updates[tid]["seq"] == seq
    reply = act(clients[f], tid, "crisp")
    assert reply["type"] == "update"
    crisp = next(e for e in reply["events"] if e["type"] == "crisp")
    assert crisp["last_turns"] == [n, (n + 1) % 4, (n + 2) % 4]  # P2's started turn is the first last turn
    assert reply["view"]["last_turns"] == [n, (n + 1) % 4, (n + 2) % 4]


def test_scn10_variant_a_declaration_at_the_window_end_is_rejected(crisp4: Any) -> None:
    # CRISP-SCN-10 variant, CRISP-ONL-WIN-1: received at or after T_end + 3.000 s is rejected.
    room, clients, tid, f = crisp4
    t = end_first_turn(room, clients, tid, f)
    room.clock.set(t + 3.0)
    err = act(clients[f], tid, "crisp")
    assert err["type"] == "error" and err["code"] == "illegal" and err["rule"] == "CRISP-ONL-WIN-1", err
    actions = room.table(tid).record()["actions"]
    assert actions[-2:] == [[CLOCK, "release"], [CLOCK, f"close {f}"]]
    clients[f].sync()
    closes = [e for m in clients[f].inbox if m.get("type") == "update" for e in m["events"]
              if e["type"] == "window_close"]
    assert closes == [{"type": "window_close", "to": "all", "seat": f, "why": "clock"}]


def test_timers_fire_on_their_own_in_order_hold_window_then_draw_timer(crisp4: Any) -> None:
    # CRISP-ONL-WIN-6 (the next draw timer starts at T_end + 2 s), CRISP-ONL-TIME-4 (a),
    # CRISP-ONL-WIN-5 (no window after a timeout: the next player acts at once), CRISP-SCN-12 (a).
    room, clients, tid, f = crisp4
    n, m = (f + 1) % 4, (f + 2) % 4
    t = end_first_turn(room, clients, tid, f)
    seq = room.table(tid).seq
    room.clock.set(t + 2)  # no message: the table's own timer applies release
    wait_seq(clients, tid, seq + 1)
    assert (("timeout", n, t + 32)) in deadlines(clients[0], tid)
    assert clients[n].updates[tid]["legal"][0] == "draw"
    room.clock.set(t + 3)
    wait_seq(clients, tid, seq + 2)
    assert [d[0] for d in deadlines(clients[0], tid)] == ["timeout"]
    room.clock.set(t + 32)
    wait_seq(clients, tid, seq + 3)
    actions = room.table(tid).record()["actions"]
    assert actions[-3:] == [[CLOCK, "release"], [CLOCK, f"close {f}"], [CLOCK, "timeout"]]
    last = clients[m].updates[tid]
    kinds = [e["type"] for e in last["events"]]
    assert "discard" in kinds and {"type": "turn_end", "seat": n, "why": "timeout"}.items() <= \
        next(e for e in last["events"] if e["type"] == "turn_end").items()
    assert "window_open" not in kinds and last["legal"][0] == "draw"  # at once, no hold
    assert deadlines(clients[0], tid) == [("timeout", m, t + 62)]


def test_a_late_message_applies_every_due_deadline_first_in_order(crisp4: Any) -> None:
    # A deadline due at t is applied before any message received at or after t (notation §2.3).
    room, clients, tid, f = crisp4
    _n, m = (f + 1) % 4, (f + 2) % 4
    t = end_first_turn(room, clients, tid, f)
    table = room.table(tid)
    seq = table.seq
    room.clock.set(t + 40, wake=False)  # the table's own timer sleeps on: only the message finds them due
    reply = act(clients[m], tid, "draw", seq)  # m may act: n's turn timed out at t + 32
    assert reply["type"] == "update", reply
    assert table.record()["actions"][seq:] == [[CLOCK, "release"], [CLOCK, f"close {f}"], [CLOCK, "timeout"],
                                               [m, "draw"]]
    # the next draw timer counts from the timeout's deadline, not from the late message
    assert ("timeout", m, t + 62) in deadlines(clients[m], tid)


def test_the_draw_timer_of_a_seat_whose_player_is_away_still_runs(crisp4: Any) -> None:
    # CRISP-ONL-TIME-4 (a): the first player does nothing; at +30 s the engine plays for them.
    room, clients, tid, f = crisp4
    t0 = room.clock.now()
    clients[f].close()
    room.clock.set(t0 + 30)
    wait_seq([c for c in clients if not c.closed], tid, 1)
    assert room.table(tid).record()["actions"] == [[CLOCK, "timeout"]]


def test_deadlines_end_with_the_game(room: Room_) -> None:
    ann = room.client("ann")
    tid = start_table(room, [ann], bots={1: "random"}, options={"end_limit": 50, "draw_time": 30})
    table = room.table(tid)
    for _ in range(5000):
        if table.state == "over":
            break
        u = ann.updates[tid]
        if u["legal"]:
            act(ann, tid, u["legal"][-1])
        elif u["deadlines"]:
            room.clock.set(min(d["at"] for d in u["deadlines"]))
        ann.sync()
    assert table.state == "over" and table.deadlines == {} and table._timer is None


def test_scn11_overlap_race_first_declaration_received_wins(crisp4: Any) -> None:
    # CRISP-SCN-11, CRISP-ONL-WIN-4 (order of receipt), CRISP-CALL-5 (one crisp per round),
    # CRISP-ONL-WIN-2 (P2's window holds P3 until P2's T_end + 2 s).
    room, clients, tid, f = crisp4
    n, m = (f + 1) % 4, (f + 2) % 4
    t = end_first_turn(room, clients, tid, f)  # P1's turn ends at 100.000
    room.clock.set(t + 2.1)
    assert act(clients[n], tid, "draw")["type"] == "update"  # P2 draws at 102.100 …
    room.clock.set(t + 2.4)
    assert act(clients[n], tid, "discard")["type"] == "update"  # … and ends the turn at 102.400
    room.clock.set(t + 2.45)
    reply = act(clients[n], tid, "crisp")  # P2 declares at 102.450: accepted
    assert reply["type"] == "update" and reply["view"]["crisp"] == n
    assert reply["view"]["last_turns"] == [m, (m + 1) % 4, f]
    room.clock.set(t + 2.6)
    err = act(clients[f], tid, "crisp")  # P1 at 102.600: rejected, a crisp already exists
    assert err["type"] == "error" and err["code"] == "illegal" and err["rule"] == "CRISP-CALL-5"
    clients[m].sync()
    assert ("release", m, t + 4.4) in deadlines(clients[m], tid)  # P3 may act from 104.400
    err = act(clients[m], tid, "draw")
    assert err["rule"] == "CRISP-ONL-WIN-2"


def test_stale_only_when_a_players_action_changed_your_options(crisp4: Any) -> None:
    room, clients, tid, f = crisp4
    c = clients[f]
    assert act(c, tid, "draw", 5)["code"] == "stale"  # ahead of the table
    assert act(c, tid, "draw", -1)["code"] == "stale"
    assert act(c, tid, "draw")["type"] == "update"  # seq 1 now; the draw changed f's options
    err = act(c, tid, "discard", 0)
    assert err["code"] == "stale" and room.table(tid).seq == 1  # legal now, but decided on old options
    err = act(c, tid, "draw", 0)
    assert err["code"] == "illegal" and err["rule"] == "CRISP-TURN-4"  # not legal now: the rule says why


def test_a_deadline_only_postponed_keeps_its_timer_and_still_fires_on_time(make_room: Any) -> None:
    """An untimed game's idle stand-in deadline moves later with every move: the timer already
    set (for earlier) is kept, not cancelled and made again; it wakes, finds nothing due and sets
    the next one, so the stand-in still plays exactly when the seat has owed its action for
    ``Limits.idle_standin`` seconds."""
    room: Room_ = make_room(Limits(rate=1e6, burst=1e6, idle_standin=100))
    ann, bob = room.client("ann"), room.client("bob")
    tid = start_table(room, [ann, bob], game="cribbage", options={"target": 121})
    table = room.table(tid)
    assert table.deadlines == {}  # untimed: only the idle rule has a deadline
    timers = set()
    for _ in range(6):  # every discard: the other seat still owes one, the mover's wait starts again later
        room.clock.advance(5)
        for c in (ann, bob):
            c.sync()
            up = c.updates[tid]
            if up["legal"]:
                assert c.request({"type": "act", "table": tid, "action": up["legal"][0], "seq": up["seq"]})[
                    "type"] == "update"
                timers.add(table._timer)
    assert len(timers) == 1 and table._timer is not None and not table._timer.done()
    due = min(at for _, at in table._idle_deadlines())
    assert table._timer_at is not None and table._timer_at < due
    room.clock.set(table._timer_at)  # the early timer wakes: nothing is due, the next one is set for ``due``
    until(ann, lambda: table._timer_at == due)
    assert all(s.standin is None for s in table.seats)
    room.clock.set(due)
    until(ann, lambda: any(s.standin is not None for s in table.seats))
