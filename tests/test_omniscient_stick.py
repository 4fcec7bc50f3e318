"""The omniscient measuring stick of bench/search_strength.py (issue #15): ``fair`` worlds keep
every hand, the crib, the piles and the past as they are and redraw only the cards to come;
``full`` worlds are the true state copied."""

from __future__ import annotations

import random
from typing import Any

import pytest

import feltroom
from feltroom.bots import make_bot
from feltroom.fastgame import FastGame
from feltroom.game import CLOCK, Game

from .helpers import bench_module

BENCH = bench_module("search_strength")


def _ref(game: Game) -> Any:
    return game._ref_now() if isinstance(game, FastGame) else game


def _advance(name: str, seed: int, until: Any) -> Game:
    """A heads-up game played by heuristics until ``until(reference game)`` holds."""
    game = feltroom.new_game(name, players=2, seed=seed)
    bots = [make_bot("heuristic", name, s, 2, game.options, s) for s in range(2)]
    while not until(_ref(game)):
        assert not game.is_over
        if not game.to_act:
            game.apply(CLOCK, game.legal_actions(CLOCK)[0])
            continue
        seat = game.to_act[0]
        game.apply(seat, bots[seat].choose(game.view(seat), game.legal_actions(seat)))
    return game


def _worlds(game: Game, name: str, fair: bool, k: int = 60) -> tuple[Any, list[Any]]:
    stick = BENCH.TrueState(name, 0, 2, fair=fair)
    stick.truth = game
    rng = random.Random(5)
    return _ref(game), [stick.sample(rng) for _ in range(k)]


@pytest.mark.parametrize("phase", ["discard", "play"])
def test_cribbage_fair_worlds_keep_every_hand_and_redraw_the_starter(phase: str) -> None:
    if phase == "discard":  # one seat has discarded: the starter is still in the stock
        game = _advance("cribbage", 11, lambda g: g.phase == "discard" and len(g.to_discard) == 1)
    else:  # a card played: the starter is turned and stays what it is
        game = _advance("cribbage", 11, lambda g: g.phase == "play" and len(g.played) == 1)
    truth, worlds = _worlds(game, "cribbage", fair=True)
    held = {c for h in truth.hands for c in h} | set(truth.crib)
    for w in worlds:
        assert w.hands == truth.hands and w.crib == truth.crib and w.discards == truth.discards
        assert w.played == truth.played and w.log == truth.log and w.side_scores == truth.side_scores
        assert w.starter == truth.starter
        assert w.next_starter not in held
        w.apply(w.to_act[0], w.legal_actions(w.to_act[0])[0])  # a legal world that plays on
    starters = {w.next_starter for w in worlds}
    if phase == "discard":
        assert truth.starter is None
        assert len(starters) > 20  # drawn afresh: 60 draws from the 52 - 11 cards no one holds
    else:
        assert truth.starter is not None and starters == {truth.next_starter}
    # the worlds' future deals are reseeded: their next hands differ from one another
    assert len({w.rng.top(list(range(52)), 5)[0] for w in worlds[:20]}) > 1


def test_cribbage_full_worlds_are_the_true_state() -> None:
    game = _advance("cribbage", 11, lambda g: g.phase == "discard" and len(g.to_discard) == 1)
    truth, worlds = _worlds(game, "cribbage", fair=False, k=5)
    for w in worlds:
        assert w.hands == truth.hands and w.next_starter == truth.next_starter


def test_krypkasino_fair_worlds_keep_hands_and_piles_and_shuffle_the_stock() -> None:
    game = _advance("krypkasino", 3, lambda g: len(g.actions) >= 3 and len(g.stock) > 10)
    truth, worlds = _worlds(game, "krypkasino", fair=True, k=20)
    for w in worlds:
        assert w.hands == truth.hands and w.table == truth.table and w.piles == truth.piles
        assert sorted(w.stock) == sorted(truth.stock)
    assert len({tuple(w.stock) for w in worlds}) == len(worlds)


def test_crisp_fair_worlds_keep_every_hand_and_the_discards_and_shuffle_the_draw_pile() -> None:
    game = _advance("crisp", 4, lambda g: len(g.actions) >= 6 and len(g.deck) > 10)
    truth, worlds = _worlds(game, "crisp", fair=True, k=20)
    for w in worlds:
        assert w.hands == truth.hands and w.discard == truth.discard and w.held == truth.held
        assert sorted(w.deck) == sorted(truth.deck)
    assert len({tuple(w.deck) for w in worlds}) == len(worlds)


def test_fair_refuses_a_game_without_a_redraw() -> None:
    with pytest.raises(ValueError, match="no fair omniscient stick"):
        BENCH.TrueState("craits", 0, 2, fair=True)
