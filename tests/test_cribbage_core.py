"""The compiled Cribbage core (``feltroom.games._cribbage_core``) against the reference engine.

The differential games (``tests.differential.check_differential``) compare, after every
action, every hot member for every seat (and -1, ``players``, ``True``, ``"CLOCK"``, junk),
the events, the rejections of junk and of other seats' actions, and at the end the logs,
views and records. They cover 2–6 players, teams, both counting modes, ``crib_flush: five``,
targets 61/121/241, a fixed or cut first dealer, stacked decks, and the turn timer (whose
``timeout`` hands the game over to the reference).

``FELTROOM_DIFF_GAMES=N`` scales the number of seeded games (default 1: about 1,400 games).
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

import feltroom
from feltroom.cards import NAMES
from feltroom.fastgame import FastGame
from feltroom.games.cribbage import Cribbage, score_total
from feltroom.games.cribbage_scoring import score_sum
from tests.differential import check_differential

core = pytest.importorskip("feltroom.games._cribbage_core")

SCALE = int(os.environ.get("FELTROOM_DIFF_GAMES", "1"))
pytestmark = pytest.mark.skipif(Cribbage.fast_class is None, reason="the compiled Cribbage core is not built")


def _options(r: random.Random, players: int) -> dict[str, Any]:
    opts: dict[str, Any] = {
        "counting": r.choice(["manual", "automatic"]),
        "target": r.choice([61, 61, 121, 241]),
    }
    if players == 4:
        opts["teams"] = r.choice(["none", "2x2"])
    elif players == 6:
        opts["teams"] = r.choice(["none", "2x3", "3x2"])
    if r.random() < 0.3:
        opts["crib_flush"] = "five"
    if r.random() < 0.5:
        opts["first_dealer"] = r.randrange(players)
    return opts


def _deck(r: random.Random) -> list[list[str]] | list[str]:
    """A stacked deck: one list (the first deal) or several (one per deal), each a random prefix."""
    lists = [[NAMES[c] for c in r.sample(range(52), r.choice([0, 5, 13, 25, 40, 52]))]
             for _ in range(r.choice([1, 1, 3]))]
    return lists[0] if len(lists) == 1 and r.random() < 0.5 else lists


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(8))
def test_differential_random_games(chunk: int) -> None:
    """Seeded random games, every player count and option mix (about 140 games per chunk)."""
    games = 140 * SCALE
    for k in range(games):
        seed = chunk * 1_000_000 + k
        r = random.Random(seed)
        players = 2 + k % 5
        check_differential("cribbage", players, seed, _options(r, players), copy_at=r.choice([None, 10, 40]))


@pytest.mark.parametrize("chunk", [0, pytest.param(1, marks=pytest.mark.slow)])
def test_differential_two_players(chunk: int) -> None:
    """The benchmarked table (2 players, automatic) and its manual twin."""
    for k in range(100 * SCALE):
        seed = 50_000_000 + chunk * 1_000_000 + k
        options = {"counting": "automatic" if k % 2 else "manual"}
        check_differential("cribbage", 2, seed, options)


@pytest.mark.slow
def test_differential_stacked_decks() -> None:
    for k in range(60 * SCALE):
        seed = 60_000_000 + k
        r = random.Random(seed)
        players = 2 + k % 5
        check_differential("cribbage", players, seed, _options(r, players), _deck(r))


@pytest.mark.slow
def test_differential_turn_timer() -> None:
    """With ``turn_time`` the CLOCK may act: its ``timeout`` hands the game to the reference."""
    for k in range(60 * SCALE):
        seed = 70_000_000 + k
        r = random.Random(seed)
        players = 2 + k % 5
        options = {**_options(r, players), "turn_time": r.choice([30, 60])}
        check_differential("cribbage", players, seed, options, clock_rate=r.choice([0.0, 0.01, 0.05]))


def test_new_game_gives_the_core() -> None:
    game = feltroom.new_game("cribbage", 2, seed=3, options={"counting": "automatic"})
    assert isinstance(game, FastGame) and isinstance(game, core.CribbageCore)
    assert type(Cribbage(2, seed=3)) is Cribbage
    assert core.CribbageCore.supports(2, None)
    assert core.CribbageCore.supports(6, {"teams": "3x2", "turn_time": 30, "counting": "manual"})


def test_bad_teams_fall_back_to_the_reference_error() -> None:
    with pytest.raises(ValueError, match="option 'teams' cannot be"):
        feltroom.new_game("cribbage", 3, seed=1, options={"teams": "2x2"})


def test_hot_members_after_the_game() -> None:
    options = {"counting": "automatic", "target": 61}
    game = feltroom.new_game("cribbage", 3, seed=11, options=options)
    ref = Cribbage(3, seed=11, options=options)
    rng = random.Random(1)
    while not game.is_over:
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        game.apply(seat, action)
        ref.apply(seat, action)
    assert game.to_act == () and game.winners == ref.winners and game.scores == ref.scores
    assert max(game.scores) >= 61
    assert [game.legal_actions(s) for s in (0, 1, 2, "CLOCK")] == [[], [], [], []]
    assert game.log == ref.log


def test_legal_list_is_cached_per_state() -> None:
    game = feltroom.new_game("cribbage", 2, seed=5, options={"counting": "automatic"})
    seat = game.to_act[0]
    first = game.legal_actions(seat)
    assert game.legal_actions(seat) is first
    assert len(first) == 15 and first == Cribbage(2, seed=5, options={"counting": "automatic"}).legal_actions(seat)


@pytest.mark.slow
def test_c_scorer_equals_score_total() -> None:
    """The core's totals (fifteens by subset sums, pairs, runs, flush, nobs) over many sets."""
    r = random.Random(7)
    for _ in range(30_000):
        m = r.choice((4, 4, 5))
        cards = r.sample(range(52), m + 1)
        five = r.random() < 0.5
        assert core._score_total(cards[:m], cards[m], five) == score_total(cards[:m], cards[m], five)
    for hand in ([16, 17, 18, 41], [0, 4, 8, 9, 12], [20, 24, 25, 28, 32], [36, 37, 38, 39, 40], [1, 5, 9, 13]):
        for starter in range(52):
            if starter not in hand:
                for five in (False, True):
                    assert core._score_total(hand, starter, five) == score_total(hand, starter, five)


def test_c_scorer_sum_equals_score_sum() -> None:
    """The core's sum over many starters (the heuristic's discards value each kept hand over every
    unseen starter) is the reference's, card set by card set."""
    r = random.Random(8)
    for _ in range(300):
        m = r.choice((4, 4, 5))
        cards = r.sample(range(52), m)
        starters = [c for c in range(52) if c not in cards]
        five = r.random() < 0.5
        assert core._score_sum(cards, starters, five) == score_sum(cards, starters, five) \
            == sum(score_total(cards, s, five) for s in starters)
    assert core._score_sum([0, 4, 8, 12], []) == 0
    with pytest.raises(ValueError, match="1-6 cards"):
        core._score_sum([], [1, 2])


def test_reordered_legal_list_applies_the_named_action() -> None:
    """A caller that sorts or shuffles the (cached) legal list still applies the action it names."""
    options = {"counting": "manual", "target": 61}
    game = feltroom.new_game("cribbage", 3, seed=21, options=options)
    ref = Cribbage(3, seed=21, options=options)
    rng = random.Random(2)
    while not game.is_over:
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        rng.shuffle(legal)
        action = legal[0]
        if rng.random() < 0.5:
            action = "".join(action)  # an equal string, not the list's own object
        assert list(game.apply(seat, action)) == ref.apply(seat, action)
        assert game.to_act == ref.to_act and game.scores == ref.scores
    assert game.record == ref.record


def _outcome(game: Any, seat: Any, action: Any) -> tuple[Any, ...]:
    try:
        events = game.apply(seat, action)
    except Exception as e:
        return ("raised", type(e).__name__, getattr(e, "rule", None), str(e))
    return ("applied", list(events))


@pytest.mark.parametrize("players", [2, 3, 6])
def test_rejections_once_the_game_is_over(players: int) -> None:
    options = {"counting": "manual", "target": 61}
    game = feltroom.new_game("cribbage", players, seed=31 + players, options=options)
    ref = Cribbage(players, seed=31 + players, options=options)
    rng = random.Random(players)
    seen: list[str] = []
    while not game.is_over:
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        seen += legal[:2]
        action = legal[rng.randrange(len(legal))]
        game.apply(seat, action)
        ref.apply(seat, action)
    for seat in (*range(-1, players + 1), "CLOCK", True, None):
        for attempt in (*seen[-8:], "claim 3", "timeout", "discard AS", "play KH", "go", "", None):
            assert _outcome(game, seat, attempt) == _outcome(ref, seat, attempt), (seat, attempt)
