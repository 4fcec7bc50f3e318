"""The Crisp ``search`` level's spec (``feltroom.bots.search_games``): its playouts and what they are worth."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

import feltroom
from feltroom.bots import make_bot
from feltroom.bots.runner import play_out
from feltroom.bots.search import SPECS, SearchBot
from feltroom.bots.search_games import CRISP_MISS, _crisp_fit
from feltroom.cards import NAMES
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


def play_heuristic(game: Game, bots: list[Any], seen: list[int], until: Any) -> None:
    """Heuristic moves for every seat until ``until(game, seat, legal)``."""
    while not game.is_over:
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        if until(game, seat, legal):
            return
        bots[seat].observe(events_for(game.log[seen[seat]:], seat))
        seen[seat] = len(game.log)
        game.apply(seat, bots[seat].choose(game.view(seat), legal) if len(legal) > 1 else legal[0])


@pytest.mark.parametrize("players", [2, 4])
def test_a_world_where_the_others_played_as_the_heuristic_fits_fully(players: int) -> None:
    """Every resolution (CRISP-TURN-4) and crisp window (CRISP-CALL-1) of the other seats is the model's."""
    game = feltroom.new_game("crisp", players=players, seed=5)
    bots = [make_bot("heuristic", "crisp", s, players, game.options, s) for s in range(players)]
    seen = [0] * players
    play_heuristic(game, bots, seen, lambda g, s, legal: g.round_no == 2 and s == 0 and len(legal) > 1)
    assert game.round_no == 2  # type: ignore[attr-defined]
    assert _crisp_fit(game, 0) == 1.0


def test_each_choice_the_heuristic_would_not_make_costs_a_factor() -> None:
    """Seat 1 swaps a drawn card in where the heuristic would do otherwise, twice: the world's weight
    is ``CRISP_MISS`` squared (a miss is unlikely, never impossible); seat 0's own choices never count."""
    game = feltroom.new_game("crisp", players=2, seed=8)
    bots = [make_bot("heuristic", "crisp", s, 2, game.options, s) for s in range(2)]
    seen = [0, 0]
    for misses in (1, 2):
        play_heuristic(game, bots, seen, lambda g, s, legal: s == 1 and legal[0] == "swap L")
        bots[1].observe(events_for(game.log[seen[1]:], 1))
        seen[1] = len(game.log)
        legal = game.legal_actions(1)
        model = bots[1].choose(game.view(1), legal)
        other = next(a for a in ("swap C", "swap L") if a != model)
        game.apply(1, other)
        assert _crisp_fit(game, 0) == pytest.approx(CRISP_MISS ** misses)
        assert _crisp_fit(game, 1) == 1.0  # seen from seat 1, only seat 0's choices count: the heuristic's


@pytest.mark.parametrize(("players", "weighed"), [(2, True), (3, False), (4, False)])
def test_crisp_worlds_are_weighted_heads_up_only(players: int, weighed: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Heads-up a decision weighs its pool of worlds by the other seat's choices; with more players it
    draws its worlds straight from the knowledge (with 4 players the weighted pool's duplicated worlds
    made the gate's test too bold: unweighted 25.6 %, weighted 22.2 % of the same 178 games)."""
    spec = SPECS["crisp"]
    weighed_worlds: list[int] = []

    def spy(world: Game, seat: int) -> float:
        weighed_worlds.append(seat)
        assert spec.weigh is not None
        return spec.weigh(world, seat)

    monkeypatch.setitem(SPECS, "crisp", dataclasses.replace(spec, weigh=spy))
    game, _ = mid_game(players, rounds=2)
    bot = make_bot("search", "crisp", 0, players, game.options, 3, budget=40)
    bot.observe(events_for(game.log, 0))
    bot.choose(game.view(0), game.legal_actions(0))
    assert len(weighed_worlds) == (spec.pool if weighed else 0)


def test_crisp_search_with_its_weighted_worlds_is_deterministic_for_a_seed() -> None:
    """The pool of worlds and the draws from it come from the bot's seed: the same game twice."""
    records = []
    for _ in range(2):
        game = feltroom.new_game("crisp", players=3, seed=4, options={"end_limit": 20})
        bots = [make_bot("search", "crisp", 0, 3, game.options, 9, budget=12),
                *(make_bot("heuristic", "crisp", s, 3, game.options, s) for s in (1, 2))]
        play_out(game, bots)
        records.append(game.record["actions"])
    assert records[0] == records[1]


def test_cards_the_seat_never_saw_do_not_change_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two games whose deals differ only in two cards seat 1 never sees: its search weighs the same
    worlds the same way and plays out the same values (the weighting reads sampled worlds only)."""
    import feltroom.bots.search as search

    seen: list[dict[str, list[float]]] = []
    real_gate = search.gate

    def spy(first: str, best: str, values: dict[str, list[float]], z: float, min_worlds: int,
            worlds: list[int] | None = None) -> str:
        seen.append({a: list(v) for a, v in values.items()})
        return real_gate(first, best, values, z, min_worlds, worlds)

    monkeypatch.setattr(search, "gate", spy)
    players, seat = 3, 1
    compared = 0
    for seed in range(3):
        deck = list(range(52))
        random.Random(seed).shuffle(deck)
        twin = list(deck)
        twin[3 * players + 10], twin[3 * players + 20] = twin[3 * players + 20], twin[3 * players + 10]
        games = [feltroom.new_game("crisp", players, seed=seed, options={"first_dealer": 0},
                                   deck=[NAMES[c] for c in d]) for d in (deck, twin)]
        bots = [make_bot("search", "crisp", seat, players, games[0].options, 4, budget=24) for _ in games]
        rng = random.Random(seed)
        fed = 0
        while games[0].round_no == 1 and not games[0].is_over:  # type: ignore[attr-defined]
            logs = [events_for(g.log, seat) for g in games]
            if logs[0] != logs[1]:
                break
            mover = rng.choice(games[0].to_act)
            legal = games[0].legal_actions(mover)
            if mover == seat and len(legal) > 1:
                for g, b, log in zip(games, bots, logs, strict=True):
                    b.observe(log[fed:])
                    b.choose(g.view(seat), legal)
                fed = len(logs[0])
                assert seen[-1] == seen[-2]
                compared += 1
            action = rng.choice(legal)
            for g in games:
                g.apply(mover, action)
    assert compared > 5
