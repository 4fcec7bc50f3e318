"""Provably fair deals: the ``fair`` hash published at the start, the record revealing seed
and salt at the end, and ``feltroom verify`` (here ``python -m feltroom.server verify``)."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import feltroom
from feltroom.server.cli import main
from feltroom.server.fair import fair_hash

from .conftest import Room_, start_table


@pytest.fixture
def finished(room: Room_, tmp_path: Path) -> tuple[dict[str, Any], str, list[dict[str, Any]], Path]:
    ann = room.client("ann")
    tid = start_table(room, [ann], bots={1: "random", 2: "random"}, options={"end_limit": 50})
    fair = next(m["fair"] for m in ann.inbox if m.get("type") == "table" and m["fair"])
    assert room.tc.get(f"/api/games/{tid}/record").status_code == 409
    rng = random.Random(8)
    table = room.table(tid)
    for _ in range(20_000):
        if table.state == "over":
            break
        u = ann.updates[tid]
        if u["legal"]:
            ann.request({"type": "act", "table": tid, "action": rng.choice(u["legal"]), "seq": u["seq"]})
        elif u["deadlines"]:
            room.clock.set(min(d["at"] for d in u["deadlines"]))
        ann.sync()
    ann.sync()
    assert table.state == "over"
    events = [e for m in ann.inbox if m.get("type") == "update" for e in m["events"]]
    r = room.tc.get(f"/api/games/{tid}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    record: dict[str, Any] = r.json()
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    return record, fair, events, path


def test_the_record_reveals_seed_and_salt_that_hash_to_the_published_fair(finished: Any) -> None:
    record, fair, events, _ = finished
    assert len(record["meta"]["salt"]) == 32 and int(record["meta"]["salt"], 16) >= 0
    assert fair_hash(record["seed"], record["meta"]["salt"]) == fair == record["meta"]["fair"]
    again = feltroom.replay(record)
    assert again.is_over and again.scores == record_scores(events)
    assert record["meta"]["names"] == ["ann", "bot:random", "bot:random"]


def record_scores(events: list[dict[str, Any]]) -> list[int]:
    end: list[int] = next(e for e in reversed(events) if e["type"] == "game_end")["scores"]
    return end


def test_verify_accepts_the_true_record_and_the_events_a_player_saw(finished: Any, tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    _record, fair, events, path = finished
    assert main(["verify", str(path), "--fair", fair]) == 0
    ev = tmp_path / "events.json"
    ev.write_text(json.dumps(events))
    assert main(["verify", str(path), "--fair", fair, "--events", str(ev), "--seat", "0"]) == 0
    out = capsys.readouterr().out
    assert "hash" in out and "replay" in out and "events" in out and "fair" in out


def test_verify_rejects_a_wrong_hash_a_changed_seed_or_action_and_changed_events(finished: Any, tmp_path: Path) -> None:
    record, fair, events, path = finished
    assert main(["verify", str(path), "--fair", "0" * 64]) == 1
    for change in ("seed", "salt", "action"):
        bad = copy.deepcopy(record)
        if change == "seed":
            bad["seed"] += 1
        elif change == "salt":
            bad["meta"]["salt"] = "f" * 32
        else:
            bad["actions"][0][1] = "discard" if bad["actions"][0][1] != "discard" else "draw"
        p = tmp_path / f"bad-{change}.json"
        p.write_text(json.dumps(bad))
        assert main(["verify", str(p), "--fair", fair]) == 1, change
    reveal = next(i for i, e in enumerate(events) if e["type"] == "reveal")
    forged = copy.deepcopy(events)
    forged[reveal]["cards"] = ["AS"] if forged[reveal]["cards"] != ["AS"] else ["2S"]
    ev = tmp_path / "forged.json"
    ev.write_text(json.dumps(forged))
    assert main(["verify", str(path), "--fair", fair, "--events", str(ev), "--seat", "0"]) == 1


def test_python_m_feltroom_server_verify(finished: Any) -> None:
    _, fair, _, path = finished
    done = subprocess.run([sys.executable, "-m", "feltroom.server", "verify", str(path), "--fair", fair],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "the deal is fair" in done.stdout
