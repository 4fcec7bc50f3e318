"""Tutorial tables (feltroom.tutorial, server/table.py): the only tables dealt from a chosen deck.

The learner is offered just the step due and its bots play their own steps, so the hand goes as
the words say; the table is unrated, not in the lobby, and its record says it was stacked."""

from __future__ import annotations

from typing import Any

import pytest

from feltroom.cards import parse_cards
from feltroom.tutorial import tutorial_for, tutorial_games

from .conftest import Client, Room_


def play_script(c: Client, tid: str, game: str) -> None:
    """Play the learner's steps from what the server offers, checking it offers exactly the step due."""
    tut = tutorial_for(game)
    assert tut is not None
    for _ in range(200):
        c.sync()
        upd = c.updates[tid]
        done = upd["seq"]
        if done >= len(tut.steps):
            return
        step = tut.steps[done]
        if step.seat != tut.seat:
            assert upd["legal"] == []  # the bot's step is due: the learner waits
            continue
        assert upd["legal"] == [step.action]
        r = c.request({"type": "act", "table": tid, "action": step.action, "seq": upd["seq"]})
        assert r["type"] == "update", r
    raise AssertionError("the script did not end")


@pytest.mark.parametrize("game", tutorial_games())
def test_a_tutorial_plays_its_script_then_goes_on_as_a_game(room: Room_, game: str) -> None:
    c = room.client("ann")
    t = c.request({"type": "tutorial", "game": game})
    assert t["type"] == "table" and t["state"] == "playing", t
    tid = t["table"]
    tut = tutorial_for(game)
    assert tut is not None
    assert t["you"] == tut.seat and t["tutorial"]["seat"] == tut.seat
    assert len(t["tutorial"]["steps"]) == len(tut.steps)
    assert all(s["bot"] for i, s in enumerate(t["seats"]) if i != tut.seat)
    play_script(c, tid, game)
    table = room.table(tid)
    assert table.game is not None
    assert [a for _, a in table.game.actions[:len(tut.steps)]] == [s.action for s in tut.steps]
    if table.state == "playing":  # after the script: an ordinary game, every legal action offered
        c.sync()
        upd = c.updates[tid]
        assert upd["legal"] == table.game.legal_actions(tut.seat)
    lobby = c.request({"type": "lobby"})
    assert tid not in [e["table"] for e in lobby["tables"]]


def test_the_learner_cannot_leave_the_script(room: Room_) -> None:
    c = room.client("ann")
    tid = c.request({"type": "tutorial", "game": "crisp"})["table"]
    c.sync()
    upd = c.updates[tid]
    r = c.request({"type": "act", "table": tid, "action": "draw discard", "seq": upd["seq"]})
    assert r["type"] == "error" and "tutorial" in r["message"], r
    assert room.table(tid).game is not None and room.table(tid).seq == upd["seq"]  # nothing changed


def test_a_finished_tutorial_is_unrated_and_its_record_says_stacked(room: Room_) -> None:
    c = room.client("ann")
    tid = c.request({"type": "tutorial", "game": "crisp"})["table"]
    play_script(c, tid, "crisp")
    for _ in range(50):
        if room.table(tid).state == "over":
            break
        c.sync()
    table = room.table(tid)
    assert table.state == "over"  # the crisp tutorial's end limit ends the game with its round
    assert table.rating_changes is None
    rec: dict[str, Any] = room.tc.get(f"/api/games/{tid}/record").json()
    assert rec["meta"]["tutorial"] is True
    tut = tutorial_for("crisp")
    assert tut is not None
    assert parse_cards(" ".join(rec["deck"])) == parse_cards(" ".join(tut.deck))
    r = c.request({"type": "rematch", "table": tid})
    assert r["type"] == "error" and "tutorial" in r["message"]


def test_a_normal_table_cannot_choose_its_deck(room: Room_) -> None:
    c = room.client("ann")
    r = c.request({"type": "create", "game": "crisp", "seats": 2, "options": {}, "deck": ["AS"]})
    assert r["type"] == "error" and r["code"] == "bad_message"
    r = c.request({"type": "create", "game": "crisp", "seats": 2, "options": {"deck": ["AS"]}})
    assert r["type"] == "error" and r["code"] == "bad_message"
    r = c.request({"type": "tutorial", "game": "crisp", "deck": ["AS"]})
    assert r["type"] == "error" and r["code"] == "bad_message"
    r = c.request({"type": "tutorial", "game": "chess"})
    assert r["type"] == "error" and r["code"] == "bad_message"


def test_a_restarted_room_resumes_a_tutorial_from_its_stacked_deck(make_room: Any) -> None:
    first: Room_ = make_room(db="same.sqlite")
    ann = first.client("ann")
    tid = ann.request({"type": "tutorial", "game": "krypkasino"})["table"]
    ann.sync()
    upd = ann.updates[tid]
    assert ann.request({"type": "act", "table": tid, "action": "play 9D", "seq": upd["seq"]})["type"] == "update"
    before = first.table(tid)
    assert before.game is not None
    seq, view = before.seq, before.game.view(0)
    first.close()

    second: Room_ = make_room(db="same.sqlite")
    table = second.table(tid)
    assert table.tutorial is not None and table.game is not None
    assert table.seq == seq and table.game.view(0) == view
    again = second.client("ann", token=ann.token)
    again.sync()
    play_script(again, tid, "krypkasino")
