"""Random-play conformance for Crisp: 2,016 games over 2–8 players and the important option mixes."""

from __future__ import annotations

from typing import Any

import pytest

from .conformance import check_random_game

MIXES: list[dict[str, Any]] = [
    {"end_limit": 10},
    {"end_limit": 20, "draw_from_discard": True},
    {"end_limit": 15, "clock": True},
    {"end_limit": 25, "clock": True, "draw_time": 30},
    {"end_limit": 20, "clock": True, "draw_time": 60, "draw_from_discard": True},
    {"end_limit": 40, "clock": True, "draw_from_discard": True},
]
SEEDS = 48  # 7 player counts × 6 mixes × 48 seeds = 2,016 games


@pytest.mark.slow
@pytest.mark.parametrize("mix", range(len(MIXES)))
@pytest.mark.parametrize("players", range(2, 9))
def test_random_crisp_games_keep_the_contract(players: int, mix: int) -> None:
    for seed in range(SEEDS):
        # every game is checked after every action; one in 6 also tries a rejected action every 7 steps
        check_random_game("crisp", players, 1000 * mix + seed, MIXES[mix], reject_every=7 if seed % 6 == 0 else 23)


@pytest.mark.parametrize("players", [2, 5, 8])
def test_default_options_full_length_games(players: int) -> None:
    """A few games to the default limit of 100."""
    for seed in range(2):
        check_random_game("crisp", players, 77 + seed)
