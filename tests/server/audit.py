"""Offline audit of everything a set of clients received during one game.

The game is rebuilt from its downloaded record (bit for bit the server's game) with a log
that records, as each event is appended, which cards each seat may know at that moment
(``audit_hidden``). Then every ``update`` a client got is checked: its view is exactly
``game.view(seat)`` at its ``seq`` and names no card ``audit_view_hidden`` hides; its
events, concatenated, are exactly the seat's events, each within what the seat could know
when it happened; no message carries another player's token, the seed or the salt.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import feltroom
from feltroom.cards import card_str
from feltroom.game import Event, Game
from feltroom.views import events_for

#: View keys that repeat earlier public events (the previous round's result), as in tests/conformance.py.
HISTORY_KEYS = frozenset({"last_round", "last_hand"})
CARD = re.compile(r'"((?:10|[2-9AJQK])[SHDC])"')


def cards_in(obj: Any) -> Counter[str]:
    """Every card name written as a JSON string anywhere in ``obj``."""
    return Counter(CARD.findall(json.dumps(obj)))


def allowed(game: Game, hidden: list[int]) -> Counter[str]:
    """The cards (as a multiset of names) a seat may know: the pack less ``hidden``."""
    left = Counter(card_str(c) for c in game.pack())
    left.subtract(Counter(card_str(c) for c in hidden))
    return left


class RecordingLog(list[Event]):
    def __init__(self, game: Game, events: list[Event]) -> None:
        super().__init__(events)
        self.game = game
        self.allowed: list[dict[int | None, Counter[str]]] = [self.snapshot() for _ in events]

    def snapshot(self) -> dict[int | None, Counter[str]]:
        g = self.game
        return {s: allowed(g, g.audit_hidden(s)) for s in [*range(g.players), None]}

    def append(self, event: Event) -> None:
        super().append(event)
        self.allowed.append(self.snapshot())


def within(seen: Counter[str], ok: Counter[str]) -> dict[str, int]:
    return {c: n for c, n in seen.items() if n > ok[c]}


class Replay:
    def __init__(self, record: dict[str, Any]) -> None:
        # The reference engine (its log can be replaced by a recording one; the compiled cores'
        # cannot), which plays every record exactly as the cores do (tests/differential.py).
        g = feltroom.GAMES[record["name"]](record["players"], seed=record["seed"], options=record["options"],
                                           deck=record.get("deck"))
        log = RecordingLog(g, list(g.log))
        g.log = log
        seats: list[int | None] = [*range(g.players), None]
        self.views = [{s: g.view(s) for s in seats}]
        self.legal = [{s: g.legal_actions(s) if s is not None else [] for s in seats}]
        self.view_ok = [{s: allowed(g, g.audit_view_hidden(s)) for s in seats}]
        for seat, action in record["actions"]:
            g.apply(seat, action)
            self.views.append({s: g.view(s) for s in seats})
            self.legal.append({s: g.legal_actions(s) if s is not None else [] for s in seats})
            self.view_ok.append({s: allowed(g, g.audit_view_hidden(s)) for s in seats})
        self.game = g
        self.log = log
        self.public_summaries = [{k: v for k, v in e.items() if k not in ("type", "to")}
                                 for e in log if e["to"] == "all"]

    def check_socket(self, table: str, seat: int | None, texts: list[str], msgs: list[dict[str, Any]],
                     secrets_: list[str], from_start: bool = True) -> int:
        """Check one socket's messages; return how many updates were checked."""
        for text in texts:
            for s in secrets_:
                assert s not in text, f"a secret reached seat {seat}: {text[:200]}"
        updates = [m for m in msgs if m.get("type") == "update" and m.get("table") == table]
        got: list[Event] = []
        for u in updates:
            assert u["seat"] == seat
            seq = u["seq"]
            assert u["view"] == self.views[seq][seat], f"seat {seat} view at seq {seq} differs"
            assert u["legal"] == self.legal[seq][seat]
            view = {k: v for k, v in u["view"].items() if k not in HISTORY_KEYS}
            for key in HISTORY_KEYS & set(u["view"]):  # a repeat of a public event, e.g. the last round_end
                if u["view"][key] is not None:
                    assert u["view"][key] in self.public_summaries, f"{key} repeats no public event"
            rest = {**{k: v for k, v in u.items() if k not in ("events", "view")}, "view": view}
            leaked = within(cards_in(rest), self.view_ok[seq][seat])
            assert not leaked, f"seat {seat} update {seq} shows hidden cards {leaked}"
            got.extend(u["events"])
        mine = [(i, e) for i, e in enumerate(self.log) if e["to"] == "all" or (seat is not None and seat in e["to"])]
        if from_start:
            assert got == [e for _, e in mine], f"seat {seat}: the events differ from the seat's own events"
        k = 0
        for e in got:  # in order, each one of the seat's own events, each within what it could know then
            while k < len(mine) and mine[k][1] != e:
                k += 1
            assert k < len(mine), f"seat {seat} got an event that is not its own, or out of order: {e}"
            leaked = within(cards_in(e), self.log.allowed[mine[k][0]][seat])
            assert not leaked, f"event {e} to seat {seat} names {leaked}"
            k += 1
        assert events_for(self.log, seat) == [e for _, e in mine]
        return len(updates)
