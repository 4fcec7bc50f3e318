"""The Cribbage ``search`` level's weighted worlds (``feltroom.bots.search_games._crib_fit``, issue #15):
a sampled world is weighed by how likely the other seat's choices this hand are in it, under the
heuristic as a model of that seat, and the weight reads nothing but the world."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

import feltroom
from feltroom.bots import make_bot
from feltroom.bots.cribbage import CribbageBot
from feltroom.bots.search import SPECS, SearchBot
from feltroom.bots.search_games import CRIB_MISS, CRIB_WEIGHED, _crib_fit
from feltroom.cards import NAMES
from feltroom.game import CLOCK, Game
from feltroom.games.cribbage import Cribbage
from feltroom.views import events_for

from .cribbage_helpers import new

#: seat 0 deals (CRIB-DEALER-3: the crib is its); seat 1 keeps 5H 5S JC QD in both worlds
SEAT0 = "AC 3D 7S 8H 9C KS"
HEURISTIC_DISCARD = "5H 5S 10D JC QD KC"  # the heuristic discards 10D KC (checked below)
ODD_DISCARD = "5H 5S JC QD 4C 6D"  # discarding 4C 6D breaks the 4-5-5-6 the heuristic keeps


def world(dealt1: str, **options: Any) -> Cribbage:
    return new(2, {0: SEAT0, 1: dealt1}, "2D", counting="automatic", **options)


def test_the_heuristic_keeps_what_the_worlds_assume() -> None:
    """The stacked hands below do what their names say (CRIB-DEAL-5)."""
    for dealt, keeps in ((HEURISTIC_DISCARD, "discard 10D KC"), (ODD_DISCARD, "discard JC QD")):
        g = world(dealt)
        assert CribbageBot(1, 2, g.options).choose(g.view(1), g.legal_actions(1)) == keeps


def test_a_world_consistent_with_the_opponents_choices_weighs_more() -> None:
    """Seat 1 keeps the same four cards in both worlds and seat 0 sees the same events (CRIB-DEAL-5:
    the discards are face down), but only in the first did the heuristic's discard leave them: the
    other world is ``CRIB_MISS`` as likely. A lead the heuristic would not make (CRIB-PEG-2: it does
    not lead a five while it holds a face card) costs one more factor in both; seat 0's own choices
    never count."""
    fits, odd = world(HEURISTIC_DISCARD), world(ODD_DISCARD)
    for g, out in ((fits, "10D KC"), (odd, "4C 6D")):
        g.apply(0, "discard 7S 8H")  # not the heuristic's (AC KS): seat 0's own choice
        g.apply(1, f"discard {out}")
    assert events_for(fits.log, 0) == events_for(odd.log, 0)
    assert _crib_fit(fits, 0) == 1.0
    assert _crib_fit(odd, 0) == pytest.approx(CRIB_MISS)
    assert _crib_fit(fits, 1) == pytest.approx(CRIB_MISS)  # seen from seat 1, only seat 0's choices count
    assert CribbageBot(1, 2, fits.options).choose(fits.view(1), fits.legal_actions(1)) != "play 5H"
    for g in (fits, odd):
        g.apply(1, "play 5H")
    assert _crib_fit(fits, 0) == pytest.approx(CRIB_MISS)
    assert _crib_fit(odd, 0) == pytest.approx(CRIB_MISS ** 2)
    assert _crib_fit(fits, 0) > _crib_fit(odd, 0)


def test_the_clocks_discard_is_no_evidence() -> None:
    """CRIB-ONL-2: a discard the clock made (the two highest cards) is not the seat's choice, so it
    costs nothing, although the heuristic would have discarded otherwise (10D KC)."""
    g = world(HEURISTIC_DISCARD, turn_time=30)
    g.apply(0, "discard AC KS")
    g.apply(CLOCK, "timeout")  # the clock discards seat 1's QD KC
    assert next(e for e in g.log if e["type"] == "timeout")["seats"] == [1]
    assert sorted(NAMES[c] for c in g.discards[1]) == ["KC", "QD"]
    assert _crib_fit(g, 0) == 1.0


@pytest.mark.parametrize("seed", [3, 4])
def test_the_true_world_of_heuristic_players_fits_fully(seed: int) -> None:
    """Fed the views it had in the world (rebuilt from the world's log), the model makes every discard
    (CRIB-DEAL-5) and play (CRIB-PEG-2) of a heuristic seat: no miss at any decision of a whole game."""
    game = feltroom.new_game("cribbage", players=2, seed=seed, options={"target": 61})
    bots = [make_bot("heuristic", "cribbage", s, 2, game.options, s) for s in range(2)]
    seen = [0, 0]
    checked = 0
    while not game.is_over:
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        if len(legal) > 1 and not legal[0].startswith("claim"):
            assert _crib_fit(game, 0) == 1.0
            assert _crib_fit(game, 1) == 1.0
            checked += 1
        bots[seat].observe(events_for(game.log[seen[seat]:], seat))
        seen[seat] = len(game.log)
        game.apply(seat, bots[seat].choose(game.view(seat), legal) if len(legal) > 1 else legal[0])
    assert checked > 20


def test_weighted_search_reads_only_what_its_seat_saw(monkeypatch: pytest.MonkeyPatch) -> None:
    """The two worlds above differ only in seat 1's face-down discards (CRIB-DEAL-5, CRIB-DEAL-6), which
    seat 0 never sees: seat 0's weighted search draws the same pool, weighs it the same way and plays
    out the same values in both (the weights read sampled worlds only, never the true state)."""
    import feltroom.bots.search as search

    monkeypatch.setitem(SPECS, "cribbage", CRIB_WEIGHED)
    seen: list[dict[str, list[float]]] = []
    weights: list[float] = []
    real_gate = search.gate

    def spy_gate(first: str, best: str, values: dict[str, list[float]], z: float, min_worlds: int,
                 worlds: list[int] | None = None) -> str:
        seen.append({a: list(v) for a, v in values.items()})
        return real_gate(first, best, values, z, min_worlds, worlds)

    def spy_weigh(w: Game, seat: int) -> float:
        weights.append(_crib_fit(w, seat))
        return weights[-1]

    monkeypatch.setattr(search, "gate", spy_gate)
    monkeypatch.setitem(SPECS, "cribbage", dataclasses.replace(CRIB_WEIGHED, weigh=spy_weigh))
    per_game = []
    for dealt, out in ((HEURISTIC_DISCARD, "10D KC"), (ODD_DISCARD, "4C 6D")):
        g = world(dealt)
        g.apply(1, f"discard {out}")
        g.apply(0, "discard AC KS")
        g.apply(1, "play JC")
        bot = make_bot("search", "cribbage", 0, 2, g.options, 5, budget=24)
        assert isinstance(bot, SearchBot)
        bot.observe(events_for(g.log, 0))
        weights.clear()
        bot.choose(g.view(0), g.legal_actions(0))
        per_game.append(list(weights))
    assert seen[0] == seen[1]
    assert per_game[0] == per_game[1]
    assert len(per_game[0]) == CRIB_WEIGHED.pool
    assert 0 < min(per_game[0]) < max(per_game[0])  # the worlds are told apart, none ruled out


@pytest.mark.parametrize(("players", "weighed"), [(2, True), (3, False)])
def test_cribbage_worlds_are_weighted_heads_up_only(players: int, weighed: bool,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """As Crisp's: with more seats, more choices would leave too few effective worlds for the gate."""
    calls: list[int] = []

    def spy(w: Game, seat: int) -> float:
        calls.append(seat)
        return _crib_fit(w, seat)

    monkeypatch.setitem(SPECS, "cribbage", dataclasses.replace(CRIB_WEIGHED, weigh=spy))
    game = feltroom.new_game("cribbage", players=players, seed=2, options={"first_dealer": 1})
    bot = make_bot("search", "cribbage", 0, players, game.options, 3, budget=16)
    rng = random.Random(0)
    for seat in range(1, players):  # the others discard first: there is a choice to read
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    bot.observe(events_for(game.log, 0))
    bot.choose(game.view(0), game.legal_actions(0))
    assert len(calls) == (CRIB_WEIGHED.pool if weighed else 0)
