"""Random-play conformance for Cribbage: every player count, teams, both counting modes, the turn timer
and both crib-flush rules (tests.conformance.check_random_game, target 61 to keep games short)."""

from __future__ import annotations

from typing import Any

import pytest

from .conformance import check_random_game

CASES: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (2, {"counting": "automatic"}),
    (2, {"turn_time": 30}),
    (2, {"counting": "automatic", "turn_time": 60, "crib_flush": "five"}),
    (3, {}),
    (3, {"counting": "automatic", "turn_time": 45}),
    (4, {}),
    (4, {"teams": "2x2"}),
    (4, {"teams": "2x2", "counting": "automatic", "turn_time": 30}),
    (5, {}),
    (5, {"counting": "automatic", "turn_time": 30, "crib_flush": "five"}),
    (6, {}),
    (6, {"teams": "2x3", "turn_time": 30}),
    (6, {"teams": "3x2", "counting": "automatic"}),
]


@pytest.mark.parametrize(("players", "options"), CASES)
@pytest.mark.parametrize("seed", range(2))
def test_random_cribbage_games(players: int, options: dict[str, Any], seed: int) -> None:
    game = check_random_game("cribbage", players, seed, {"target": 61, **options})
    assert game.is_over and max(game.view(None)["side_scores"]) >= 61


def test_a_default_game_to_121() -> None:
    """The lobby's defaults (manual counting, 121), with the cut for the first dealer."""
    game = check_random_game("cribbage", 2, 99)
    assert game.log[0]["type"] == "cut" and max(game.scores) >= 121
