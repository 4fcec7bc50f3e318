"""Random-play conformance over every registered game (OpenSpiel-style).

Per-game test modules call ``check_random_game`` with their own options and player
counts; this module covers every registered game with its defaults.
"""

from __future__ import annotations

import pytest

import feltroom

from .conformance import check_random_game

CASES = [(name, n) for name, cls in sorted(feltroom.GAMES.items())
         for n in range(cls.min_players, cls.max_players + 1)]
#: Defaults, except where a whole default game is long (each game's own tests play those).
OPTIONS = {"craits": {"short_game": True}}


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), CASES)
@pytest.mark.parametrize("seed", range(3))
def test_random_games_keep_the_contract(name: str, players: int, seed: int) -> None:
    check_random_game(name, players, seed, OPTIONS.get(name))


@pytest.mark.parametrize("name", sorted(feltroom.GAMES))
def test_a_new_game_is_ready_to_play(name: str) -> None:
    cls = feltroom.GAMES[name]
    game = feltroom.new_game(name, players=cls.min_players, seed=1)
    assert cls.name == name and game.record["name"] == name
    assert not game.is_over and (game.to_act or game.legal_actions(feltroom.CLOCK))
    assert game.record["actions"] == [] and isinstance(game.record["seed"], int)
