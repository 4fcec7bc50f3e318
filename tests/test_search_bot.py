"""The search bot level (feltroom.bots.search, issue #15): legal play in every game that has a
knowledge tracker, determinism, the budget, and the lobby's levels."""

from __future__ import annotations

import random
from typing import Any

import pytest

import feltroom
from feltroom.bots import levels_for, make_bot
from feltroom.bots.runner import play_out
from feltroom.catalog import fixed_options, lobby_fields
from feltroom.games.craits_knowledge import CraitsKnowledge
from feltroom.knowledge import KNOWLEDGE

from .conformance import check_bot_game
from .helpers import SHORT_GAMES

SEARCHED = sorted(KNOWLEDGE)
#: issue #15: the search bots play 200 random-option games per game with the conformance checks
#: on, in the slow tier, in CHUNKS parametrised runs per game (so that pytest-xdist spreads them)
GAMES_EACH = 200
CHUNKS = 8


def random_table(name: str, rng: random.Random) -> tuple[int, dict[str, Any]]:
    """A seat count and options a lobby could set, at random."""
    cls = feltroom.GAMES[name]
    players = rng.randint(cls.min_players, cls.max_players)
    options = {f["key"]: rng.choice(f["values"]) for f in lobby_fields(cls, players)}
    short = {k: v for k, v in SHORT_GAMES.get(name, {}).items() if k in options}
    return players, {**options, **short, **fixed_options(cls)}  # what the lobby sets itself (Crisp's clock)


@pytest.fixture(autouse=True)
def _strict_craits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Craits samples are replayed with ``apply``: a sampled world that replays an action its cards do
    not allow fails the test instead of going on as a wrong world (issue #15)."""
    monkeypatch.setattr(CraitsKnowledge, "strict", True)


def play_searched(name: str, games: range, budget: int, players: int | None = None) -> None:
    """Random-option games ``games`` (their numbers seed them) with one search bot at ``budget``
    (its seat rotates) against heuristic and random bots; the state and every view are checked at each
    of its decisions and at the end, every bot's choice is legal, and the record replays."""
    for g in games:
        rng = random.Random(15 * 100_003 + g)
        table = random_table(name, rng)
        while players is not None and table[0] != players:
            table = random_table(name, rng)
        seats, options = table
        seat = g % seats
        bots = [make_bot("search", name, s, seats, options, g, budget=budget) if s == seat
                else make_bot("heuristic" if s % 2 else "random", name, s, seats, options, g)
                for s in range(seats)]
        check_bot_game(name, seats, rng.randrange(2**53), options, bots, checked=seat.__eq__)


@pytest.mark.parametrize("name", SEARCHED)
def test_search_plays_a_heads_up_game_legally(name: str) -> None:
    """The fast tier's check: one heads-up random-option game per game, a search bot at budget 1."""
    play_searched(name, range(1), budget=1, players=2)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("name", SEARCHED)
def test_search_plays_legally_with_random_options(name: str, chunk: int) -> None:
    """Issue #15: search bots at budget 2 play GAMES_EACH random-option games (short ones) per game,
    CHUNKS runs of GAMES_EACH / CHUNKS, with the conformance checks on: no illegal action, no view
    or event showing a card the seat may not know, every record replays."""
    per = GAMES_EACH // CHUNKS
    play_searched(name, range(chunk * per, (chunk + 1) * per), budget=2)


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
