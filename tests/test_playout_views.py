"""The small views the ``search`` playouts show their heuristic bots (``feltroom.bots.search_games``).

A playout's bots read a few keys of a view; building the whole view was a sixth of a playout.
Each small view must equal the seat's real view on every key it has, and the playouts must play
exactly as with whole views.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

import pytest

import feltroom
from feltroom.bots import make_bot
from feltroom.bots.search import SPECS, SearchBot
from feltroom.bots.search_games import _craits_view, _crib_view, _kryp_view
from feltroom.game import Game
from feltroom.views import events_for

SMALL: dict[str, Callable[[Game, int], dict[str, Any]]] = {
    "krypkasino": _kryp_view, "cribbage": _crib_view, "craits": _craits_view}


def heuristic_game(name: str, players: int, seed: int, stop: Callable[[Game, int, list[str]], bool]) -> Game:
    """A game of heuristics, stopped before the first choice where ``stop(game, seat, legal)``."""
    game = feltroom.new_game(name, players=players, seed=seed, compiled=False)  # as the search's worlds
    bots = [make_bot("heuristic", name, s, players, game.options, s) for s in range(players)]
    seen = [0] * players
    while not game.is_over:
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        if stop(game, seat, legal):
            return game
        bots[seat].observe(events_for(game.log[seen[seat]:], seat))
        seen[seat] = len(game.log)
        game.apply(seat, bots[seat].choose(game.view(seat), legal) if len(legal) > 1 else legal[0])
    return game


def same_keys(small: dict[str, Any], full: dict[str, Any]) -> bool:
    # a small view's options hold only the ones the heuristic reads
    return all((small[k].items() <= full[k].items()) if k == "options" else small[k] == full[k] for k in small)


@pytest.mark.parametrize("name", sorted(SMALL))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_small_view_is_the_seats_view_on_every_key_it_has(name: str, players: int) -> None:
    views = 0
    moves = 0

    def every_few(game: Game, seat: int, legal: list[str]) -> bool:
        nonlocal moves, views
        moves += 1
        if moves % 5 == 0:  # every fifth decision, any phase (the discards, the play, the show)
            for s in range(players):
                assert same_keys(SMALL[name](game, s), game.view(s)), (name, moves, s)
                views += 1
        return False

    for seed in range(3):
        heuristic_game(name, players, seed, every_few)
    assert views > 100


@pytest.mark.parametrize("name", sorted(SMALL))
def test_playouts_with_the_small_view_play_as_with_the_whole_one(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    plays = [0]

    def a_choice(game: Game, seat: int, legal: list[str]) -> bool:
        plays[0] += 1
        return seat == 0 and len(legal) > 2 and plays[0] > 9

    game = heuristic_game(name, 2, 4, a_choice)
    bot = make_bot("search", name, 0, 2, game.options, 3)
    assert isinstance(bot, SearchBot) and bot.knowledge is not None
    bot.observe(events_for(game.log, 0))
    bot.knowledge.see(game.view(0))
    legal = game.legal_actions(0)
    rng = random.Random(1)
    worlds = [(bot.knowledge.sample(rng), rng.getrandbits(32)) for _ in range(6)]
    fast = [bot.playout(w.copy(), a, random.Random(s)) for w, s in worlds for a in legal]
    monkeypatch.setitem(SPECS, name, dataclasses.replace(SPECS[name], view=None))
    slow = [bot.playout(w.copy(), a, random.Random(s)) for w, s in worlds for a in legal]
    assert fast == slow
