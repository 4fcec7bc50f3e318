"""Random-play conformance over every registered game (OpenSpiel-style).

Per-game test modules call ``check_random_game`` with their own options and player
counts; this module covers every registered game with its defaults.
"""

from __future__ import annotations

import pytest

import feltroom
from feltroom.cards import NAMES
from feltroom.cards import parse_card as card

from .conformance import assert_within, cards_in, check_random_game

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


def test_cards_in_counts_the_most_copies_that_any_one_place_names() -> None:
    """The harness's card count: copies count within one list (a double deck's ``3D 3D``), a card named
    in two places is one card, keys ``type`` and ``to`` are not places, and other strings are no cards."""
    message = {"type": "AS", "to": ["KH"], "hand": ["3D", "3D", "AS", "fly"], "combos": [["3D"], {"top": "QC"}],
               "last": "AS", "score": 7}
    assert cards_in(message) == {card("3D"): 2, card("AS"): 1, card("QC"): 1}


@pytest.mark.parametrize("name", sorted(feltroom.GAMES))
def test_the_harness_fails_a_view_that_shows_a_hidden_card(name: str) -> None:
    """The leak check itself can fail: a card hidden from seat 0 in its view is reported, its own cards are not."""
    cls = feltroom.GAMES[name]
    game = feltroom.new_game(name, players=cls.min_players, seed=1)
    hidden = game.audit_view_hidden(0)
    assert hidden, name
    shown = sorted({*game.pack()} - {*hidden})
    assert_within(game, cards_in({"cards": [NAMES[c] for c in shown]}), hidden, "seat 0's own cards")
    with pytest.raises(AssertionError, match="may not know"):
        assert_within(game, cards_in({"peek": NAMES[hidden[0]]}), hidden, "a view of seat 0")
