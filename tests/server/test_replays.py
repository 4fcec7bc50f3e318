"""``GET /api/games/{table}/replay``: every step of a finished game as one seat (or a spectator)
saw it, over a real uvicorn: each page checked by the offline audit (views, events, no hidden
card of another seat), the paging limit set low and hit, 404/409/400, abandoned games, and the
viewer's address ``/replay/{table}``."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

import feltroom
from feltroom.server import Limits
from feltroom.views import events_for

from ..helpers import SHORT_TABLES
from .audit import HISTORY_KEYS, Replay, cards_in
from .served import Peer, Served, create_table, eventually


def finished(served: Served, ann: Peer, game: str) -> str:
    """A whole game played by bots and ann's stand-in (ann leaves at once); its table id."""
    seats, options = SHORT_TABLES[game]
    tid = create_table(ann, game, seats, options, bots={i: "random" for i in range(1, seats)})
    assert ann.request({"type": "leave", "table": tid})["type"] == "table"
    eventually(lambda: served.room.tables[tid].state == "over", 60, "the end of the game")
    return tid


def whole_replay(served: Served, tid: str, seat: int | None) -> tuple[list[dict[str, Any]], list[str]]:
    """Every step of the replay for ``seat``, page after page; and the raw page texts."""
    steps: list[dict[str, Any]] = []
    texts: list[str] = []
    start: int | None = 0
    while start is not None:
        query = f"from={start}" + ("" if seat is None else f"&seat={seat}")
        with urllib.request.urlopen(f"http://127.0.0.1:{served.port}/api/games/{tid}/replay?{query}") as r:
            text = r.read().decode()
        page = json.loads(text)
        assert page["from"] == start and page["seat"] == seat
        texts.append(text)
        steps.extend(page["steps"])
        start = page["next"]
    return steps, texts


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(SHORT_TABLES))
def test_each_seat_replays_exactly_what_it_saw_and_no_hidden_card(tmp_path: Path, game: str) -> None:
    # Small pages, so that the paging is part of every game's check.
    with Served(tmp_path / "r.sqlite", Limits(replay_page=40)) as served, Peer(served.port, "ann") as ann:
        tid = finished(served, ann, game)
        status, record = served.get(f"/api/games/{tid}/record")
        assert status == 200
        for seat in [None, *range(record["players"])]:
            steps, texts = whole_replay(served, tid, seat)
            assert [s["seq"] for s in steps] == list(range(len(record["actions"]) + 1))
            assert steps[-1]["view"]["over"] is True
            check_steps(record, seat, steps)
            if game == "crisp":  # the offline audit of live play fits Crisp's one-deck memory game
                audit_crisp(record, tid, seat, steps, texts, ann.token or "?")


def names(obj: Any) -> set[str]:
    return set(cards_in(obj))


def check_steps(record: dict[str, Any], seat: int | None, steps: list[dict[str, Any]]) -> None:
    """Each step is the engine's view and redacted events at that point, and names no card hidden
    from ``seat`` when it happened (the games here play with one deck: a name is one card)."""
    audit = Replay(record)  # the reference engine, with the cards each seat may know at each event
    dealt = len(feltroom.GAMES[record["name"]](record["players"], seed=record["seed"],
                                               options=record["options"]).log)
    mine = [i for i, e in enumerate(audit.log) if events_for([e], seat)]
    assert [e for s in steps for e in s["events"]] == [audit.log[i] for i in mine]
    for step in steps:
        assert step["view"] == audit.views[step["seq"]][seat], f"seat {seat} view at {step['seq']} differs"
        view = {k: v for k, v in step["view"].items() if k not in HISTORY_KEYS}
        known = {c for c, n in audit.view_ok[step["seq"]][seat].items() if n > 0}
        assert names(view) <= known, f"seat {seat} step {step['seq']} shows hidden cards {names(view) - known}"
    # The deal's events are left to the engine's addressing: a cut shows cards it shuffles back.
    for i in mine:
        if i >= dealt:
            known = {c for c, n in audit.log.allowed[i][seat].items() if n > 0}
            assert names(audit.log[i]) <= known, f"event {audit.log[i]} to seat {seat} names hidden cards"


def audit_crisp(record: dict[str, Any], tid: str, seat: int | None, steps: list[dict[str, Any]],
                texts: list[str], token: str) -> None:
    """The replay as the updates a live client of that seat got, through the offline audit."""
    audit = Replay(record)
    updates = [{"type": "update", "table": tid, "seat": seat, "seq": s["seq"], "view": s["view"],
                "legal": audit.legal[s["seq"]][seat], "events": s["events"]} for s in steps]
    assert audit.check_socket(tid, seat, texts, updates, [token]) == len(steps)


def test_pages_are_bounded_by_the_limit(tmp_path: Path) -> None:
    with Served(tmp_path / "r.sqlite", Limits(replay_page=5)) as served, Peer(served.port, "ann") as ann:
        tid = finished(served, ann, "cribbage")
        status, page = served.get(f"/api/games/{tid}/replay")
        assert status == 200 and len(page["steps"]) == 5 and page["next"] == 5 and page["limit"] == 5
        assert page["total"] > 5 and page["game"] == "cribbage" and page["table"] == tid
        assert [s["name"] for s in page["seats"]] == ["ann", "bot:random"]
        assert page["seats"][0]["player"] == ann.player and page["seats"][1]["player"] == "bot:random"
        status, err = served.get(f"/api/games/{tid}/replay?count=6")
        assert status == 400 and "at most 5 steps" in err["error"]
        status, page = served.get(f"/api/games/{tid}/replay?from=3&count=2&seat=1")
        assert status == 200 and [s["seq"] for s in page["steps"]] == [3, 4] and page["next"] == 5
        total = page["total"]
        status, page = served.get(f"/api/games/{tid}/replay?from={total - 1}")
        assert status == 200 and len(page["steps"]) == 1 and page["next"] is None
        for query, words in [("seat=2", "no seat 2"), ("seat=-1", "no seat -1"), ("seat=x", "integer"),
                             (f"from={total}", f"from must be 0–{total - 1}"), ("count=0", "count must be 1–5")]:
            status, err = served.get(f"/api/games/{tid}/replay?{query}")
            assert status == 400 and words in err["error"], (query, err)


def test_unknown_and_running_tables_are_refused_like_the_record(tmp_path: Path) -> None:
    with Served(tmp_path / "r.sqlite", bot_delay=5.0) as served, Peer(served.port, "ann") as ann:
        status, err = served.get("/api/games/t0000000000000000/replay")
        assert status == 404 and "no finished game" in err["error"]
        tid = create_table(ann, "cribbage", 2, SHORT_TABLES["cribbage"][1], bots={1: "random"})
        status, err = served.get(f"/api/games/{tid}/replay?seat=0")
        assert status == 409 and "not over" in err["error"]


def test_an_abandoned_game_replays_to_where_it_stopped(tmp_path: Path) -> None:
    with Served(tmp_path / "r.sqlite", Limits(abandon_after=0.3), grace=0.2, bot_delay=0.1) as served:
        ann = Peer(served.port, "ann")
        tid = create_table(ann, "cribbage", 2, {"target": 121, "counting": "automatic"}, bots={1: "random"})
        ann.close()
        eventually(lambda: served.room.tables[tid].state == "abandoned", 10, "the abandonment")
        status, record = served.get(f"/api/games/{tid}/record")
        assert status == 200
        status, page = served.get(f"/api/games/{tid}/replay?seat=0")
        assert status == 200 and page["abandoned"] is True
        assert page["total"] == len(record["actions"]) + 1
        assert page["steps"][-1]["view"]["over"] is False or page["next"] is not None


def test_the_viewer_address_opens_the_client_on_the_replay(tmp_path: Path) -> None:
    with Served(tmp_path / "r.sqlite") as served:
        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args: Any, **kwargs: Any) -> None:
                return None

        opener = urllib.request.build_opener(NoRedirect)
        with pytest.raises(urllib.error.HTTPError) as e:
            opener.open(f"http://127.0.0.1:{served.port}/replay/t0123456789abcdef?seat=1")
        assert e.value.code == 302 and e.value.headers["Location"] == "/#/replay/t0123456789abcdef?seat=1"
