"""The Krypkasino heuristic bot: legal, sighted only through its view, and better than random."""

from __future__ import annotations

import random

import pytest

import feltroom
from feltroom.bots import make_bot
from feltroom.bots.krypkasino import KrypkasinoBot
from feltroom.bots.runner import play_out

from .krypkasino_helpers import game

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestDeprecationWarning")


def test_registered_as_heuristic() -> None:
    assert isinstance(make_bot("heuristic", "krypkasino", 0, 2), KrypkasinoBot)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_plays_whole_matches(players: int) -> None:
    g = feltroom.new_game("krypkasino", players=players, seed=players, options={"turn_time": 30})
    play_out(g, [make_bot("heuristic", "krypkasino", s, players, g.options, s) for s in range(players)])
    assert g.is_over and sum(g.scores) == 42 * players


@pytest.mark.slow
def test_beats_random_heads_up() -> None:
    """Low totals win (KRYP-SETUP-3): the heuristic wins clearly more than half of 60 heads-up matches."""
    rng = random.Random(5)
    wins = 0
    for i in range(60):
        g = feltroom.new_game("krypkasino", players=2, seed=rng.randrange(2**40))
        hero = i % 2
        bots = [make_bot("heuristic" if s == hero else "random", "krypkasino", s, 2, g.options, i) for s in (0, 1)]
        play_out(g, bots)
        wins += hero in g.winners
    assert wins >= 38, wins


def test_leaves_the_next_player_a_forced_sweep() -> None:
    """KRYP-SWEEP-2/3: trailing 6C on 8H leaves 14 (any ace sweeps, the bot earns -5); KD leaves nothing."""
    g = game(2, 0, {1: ["6C", "KD", "9S", "9H", "10S", "10H"]}, ["8H", "QD", "QC", "JD"])
    bot = KrypkasinoBot(1, 2, g.options, seed=1)
    bot.observe([e for e in g.log if e["to"] == "all" or 1 in e["to"]])
    assert bot.choose(g.view(1), ["play 6C", "play KD"]) == "play 6C"


def test_avoids_capturing_points() -> None:
    """KRYP-SCORE-1: taking 4H (0 points) beats taking 7S (1 point)."""
    g = game(6, 0, {1: ["7D", "4C", "9S", "9H", "10H"]}, ["7S", "4H"])
    bot = KrypkasinoBot(1, 6, g.options, seed=1)
    bot.observe(list(g.log))
    assert bot.choose(g.view(1), ["play 4C", "play 7D"]) == "play 4C"


def test_sweeps_with_the_cheapest_card() -> None:
    """KRYP-SWEEP-9: with a choice of sweeping cards it prefers the normal sweep to the double."""
    g = game(6, 1, {2: ["3D", "3C", "9H", "8C", "8H"]}, ["3D", "KH"])
    bot = KrypkasinoBot(2, 6, g.options, seed=1)
    assert bot.choose(g.view(2), g.legal_actions(2)) == "play 3C"
