"""Helpers every game's tests share.

What "nothing changed" means is decided here, once, for every game and the conformance check:
every view (each seat's and a spectator's), every seat's legal actions, the seats to act, the
log, the actions, the scores, and where every card is, hidden ones included (``audit_cards`` in
location order, ``audit_hidden`` per seat).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from feltroom import CLOCK, IllegalAction
from feltroom.game import Game


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
    return info.value
