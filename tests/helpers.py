"""Helpers every game's tests share.

What "nothing changed" means is decided here, once, for every game and the conformance check:
every view (each seat's and a spectator's), every seat's legal actions, the seats to act, the
log, the actions, the scores, and where every card is, hidden ones included (``audit_cards`` in
location order, ``audit_hidden`` per seat).
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from feltroom import CLOCK, IllegalAction
from feltroom.bots.base import Bot
from feltroom.cards import NAMES, RANK_NAMES, SUIT_NAMES
from feltroom.errors import fill
from feltroom.game import Game
from feltroom.views import events_for

FIELD = re.compile(r"\{(\w+)\}")

#: A short game of each registered game: the options that make a whole game quick to play, for the
#: tests that play whole games (engine, room, browser). A new game needs its line here.
SHORT_GAMES: dict[str, dict[str, Any]] = {
    "crisp": {"end_limit": 50}, "craits": {"short_game": True},
    "cribbage": {"target": 61}, "krypkasino": {"dealer_rounds": 1},
}

#: A table of each game that bots finish quickly by themselves (seats, options): Crisp and Craits at
#: three seats, Cribbage counted automatically (no claims to wait for).
SHORT_TABLES: dict[str, tuple[int, dict[str, Any]]] = {
    "crisp": (3, SHORT_GAMES["crisp"]), "craits": (3, SHORT_GAMES["craits"]),
    "cribbage": (2, {**SHORT_GAMES["cribbage"], "counting": "automatic"}), "krypkasino": (2, SHORT_GAMES["krypkasino"]),
}


def snapshot(game: Game) -> str:
    """Everything a rejected action must leave as it was, as one comparable string."""
    seats: list[int | None] = [*range(game.players), None]
    return json.dumps(
        {
            "views": [game.view(s) for s in seats],
            "legal": [game.legal_actions(s) for s in [*range(game.players), CLOCK]],
            "to_act": list(game.to_act),
            "log": len(game.log),
            "actions": len(game.actions),
            "scores": game.scores,
            "over": game.is_over,
            "cards": game.audit_cards(),
            "hidden": [game.audit_hidden(s) for s in seats],
        }
    )


def assert_rejected(game: Game, seat: Any, action: str, rule: str) -> IllegalAction:
    """``seat`` applying ``action`` is refused by ``rule``, and nothing changes; returns the error."""
    before = snapshot(game)
    with pytest.raises(IllegalAction) as info:
        game.apply(seat, action)
    assert info.value.rule == rule, (seat, action, info.value.rule, str(info.value))
    assert snapshot(game) == before, f"rejected {action!r} by {seat!r} changed the game"
    check_params(game, info.value)
    return info.value


def check_params(game: Game, e: IllegalAction) -> None:
    """The values a rejection names are what its template asks for, of the kind its keys say
    (errors.py, docs/protocol.md "Error parameters"), and the message is the template filled."""
    assert set(FIELD.findall(e.template)) == set(e.params), (e.template, e.params)
    assert e.message == fill(e.template, e.params) and "{" not in e.message, e.message
    json.dumps(e.params, allow_nan=False)
    for key, value in e.params.items():
        if key == "seat" or key.endswith("_seat"):
            assert type(value) is int and 0 <= value < game.players, (key, value)
        elif key == "card" or key.endswith("_card"):
            assert value in NAMES, (key, value)
        elif key == "cards" or key.endswith("_cards"):
            assert isinstance(value, list) and value and all(c in NAMES for c in value), (key, value)
        elif key == "suit":
            assert value in SUIT_NAMES, value
        elif key == "rank":
            assert value in RANK_NAMES, value
        else:
            assert type(value) in (int, str), (key, value)


def bench_module(name: str) -> ModuleType:
    """The bench script ``bench/<name>.py`` as a module (``bench_<name>`` in ``sys.modules``: a module
    found by name pickles and types well); imported once. ``bench/`` is put on the import path, as
    running a script from it does, for the scripts that import each other (``import search_strength``)."""
    key = f"bench_{name}"
    if key not in sys.modules:
        folder = Path(__file__).resolve().parents[1] / "bench"
        if str(folder) not in sys.path:
            sys.path.append(str(folder))
        path = folder / f"{name}.py"
        spec = importlib.util.spec_from_file_location(key, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


def seat_to_act(game: Game, bots: list[Bot], fed: list[int]) -> tuple[int, list[str]]:
    """Apply the clock's actions until a seat may act, feed that seat's bot the events it has not seen
    (``fed``: how much of the log each bot has had), and return the seat and its legal actions."""
    while not game.to_act:
        game.apply(CLOCK, game.legal_actions(CLOCK)[0])
    seat = game.to_act[0]
    bots[seat].observe(events_for(game.log[fed[seat]:], seat))
    fed[seat] = len(game.log)
    return seat, game.legal_actions(seat)
