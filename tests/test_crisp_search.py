"""The Crisp ``search`` level's spec (``feltroom.bots.search_games``): its playouts and what they are worth."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

import feltroom
from feltroom.bots import make_bot
from feltroom.bots.search import SPECS, SearchBot
from feltroom.game import Game
from feltroom.views import events_for


def mid_game(players: int, rounds: int, seed: int = 11) -> tuple[Game, list[Any]]:
    """A heuristic game played into its round ``rounds``, stopped at a choice of seat 0 with several actions."""
    game = feltroom.new_game("crisp", players=players, seed=seed)
    bots = [make_bot("heuristic", "crisp", s, players, game.options, s) for s in range(players)]
    seen = [0] * players
    while True:
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        if seat == 0 and len(legal) > 2 and game.round_no >= rounds:  # type: ignore[attr-defined]
            return game, bots
        bots[seat].observe(events_for(game.log[seen[seat]:], seat))
        seen[seat] = len(game.log)
        game.apply(seat, bots[seat].choose(game.view(seat), legal) if len(legal) > 1 else legal[0])


def test_crisp_playouts_from_the_round_start_with_a_small_view_play_as_full_ones(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The playout bots' memory starts at the round's ``round_start`` (the heuristic forgets the past
    rounds there) and they are shown only the view keys they read: the playouts are the same."""
    game, _ = mid_game(2, rounds=3)
    bot = make_bot("search", "crisp", 0, 2, game.options, 3)
    assert isinstance(bot, SearchBot)
    bot.observe(events_for(game.log, 0))
    legal = game.legal_actions(0)
    assert bot.knowledge is not None
    rng = random.Random(1)
    worlds = [(bot.knowledge.sample(rng), rng.getrandbits(32)) for _ in range(6)]
    fast = [bot.playout(w.copy(), a, random.Random(s)) for w, s in worlds for a in legal]
    full = dataclasses.replace(SPECS["crisp"], history=lambda g: 0, view=None)
    monkeypatch.setitem(SPECS, "crisp", full)
    slow = [bot.playout(w.copy(), a, random.Random(s)) for w, s in worlds for a in legal]
    assert fast == slow
