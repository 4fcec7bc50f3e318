"""The Krypkasino ``search`` level's spec (``feltroom.bots.search_games``): its playouts' small view."""

from __future__ import annotations

import dataclasses
import random

import pytest

import feltroom
from feltroom.bots import make_bot
from feltroom.bots.search import SPECS, SearchBot
from feltroom.bots.search_games import _kryp_view
from feltroom.game import Game
from feltroom.views import events_for


def mid_deal(players: int, plays: int, seed: int) -> Game:
    """A heuristic game after ``plays`` plays, at a choice of seat 0 with several actions."""
    game = feltroom.new_game("krypkasino", players=players, seed=seed)
    bots = [make_bot("heuristic", "krypkasino", s, players, game.options, s) for s in range(players)]
    seen = [0] * players
    done = 0
    while True:
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        if seat == 0 and len(legal) > 2 and done >= plays:
            return game
        bots[seat].observe(events_for(game.log[seen[seat]:], seat))
        seen[seat] = len(game.log)
        game.apply(seat, bots[seat].choose(game.view(seat), legal) if len(legal) > 1 else legal[0])
        done += 1


@pytest.mark.parametrize("players", [2, 4])
def test_the_playout_view_is_the_seats_view_for_every_key_the_heuristic_reads(players: int) -> None:
    for seed in range(5):
        game = mid_deal(players, plays=7 * seed, seed=seed)
        for seat in range(players):
            small = _kryp_view(game, seat)
            full = game.view(seat)
            assert small == {k: full[k] for k in small}


def test_krypkasino_playouts_with_the_small_view_play_as_with_the_whole_one(monkeypatch: pytest.MonkeyPatch) -> None:
    game = mid_deal(2, plays=9, seed=4)
    bot = make_bot("search", "krypkasino", 0, 2, game.options, 3)
    assert isinstance(bot, SearchBot)
    bot.observe(events_for(game.log, 0))
    legal = game.legal_actions(0)
    assert bot.knowledge is not None
    bot.knowledge.see(game.view(0))
    rng = random.Random(1)
    worlds = [(bot.knowledge.sample(rng), rng.getrandbits(32)) for _ in range(6)]
    fast = [bot.playout(w.copy(), a, random.Random(s)) for w, s in worlds for a in legal]
    monkeypatch.setitem(SPECS, "krypkasino", dataclasses.replace(SPECS["krypkasino"], view=None))
    slow = [bot.playout(w.copy(), a, random.Random(s)) for w, s in worlds for a in legal]
    assert fast == slow
