"""Craits under the generic random-play conformance check, and property tests.

``check_random_game`` checks, after every action, card conservation, the driver invariant,
no leaks (events at emission, views), rejected actions changing nothing, and replay.
Most runs use ``short_game`` (hands 1–8) to keep the file fast; two full games cover hands 9–15.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import feltroom
from feltroom import CLOCK
from feltroom.cards import NAMES, SUIT_NAMES
from feltroom.games.craits import POINTS, VARIANTS, score_hand

from .conformance import check_random_game

SHORT = {"short_game": True}


@pytest.mark.slow
@pytest.mark.parametrize("players", range(2, 11))
def test_conformance_every_player_count(players: int) -> None:
    """CRAITS-SETUP-1: 2–10 players (one or two decks) keep the contract."""
    check_random_game("craits", players, players, SHORT, reject_every=7 if players < 8 else 25)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_conformance_full_game(players: int) -> None:
    """CRAITS-GAME-1: all 15 hands."""
    game = check_random_game("craits", players, 100 + players)
    assert len([e for e in game.log if e["type"] == "hand_end"]) == 15


@pytest.mark.slow
@pytest.mark.parametrize("variant", [v for v in VARIANTS if v != "short_game"])
def test_conformance_each_variant(variant: str) -> None:
    """Every CRAITS-VAR-* option alone (CRAITS-VAR-DIRDEAL, CRAITS-VAR-NOKQ, CRAITS-VAR-ONEDEAL, CRAITS-VAR-IDIOT,
    CRAITS-VAR-COUNTOUT, CRAITS-VAR-THREE8, CRAITS-VAR-PUNITIVE, CRAITS-VAR-OUT10, CRAITS-VAR-FACES)."""
    players = 3 if variant == "remove_kq_small" else 4
    check_random_game("craits", players, 7, {variant: True, **SHORT})


@pytest.mark.slow
@pytest.mark.parametrize(("players", "options"), [
    (2, {**dict.fromkeys(VARIANTS, True), "turn_time": 30}),
    (3, {"one_card_on_one_card_deal": True, "idiot_card": True, "turn_time": 45, **SHORT}),
    (5, {"face_card_functions": True, "count_out_continues": True, "dealer_follows_direction": True, **SHORT}),
    (6, {"decks": 1, "face_card_functions": True, "turn_time": 60, "punitive_scoring": True, **SHORT}),
    (3, {"remove_kq_small": True, "face_card_functions": True, "one_card_on_one_card_deal": True, **SHORT}),
])
def test_conformance_combinations(players: int, options: dict[str, Any]) -> None:
    """Variants combine freely (rules §13), with the turn timer (CRAITS-ONL-1, CRAITS-ONL-2)."""
    check_random_game("craits", players, 3, options)


# ---------------------------------------------------------------- property tests

_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 51), max_size=9), st.booleans(), st.booleans())
def test_score_cancellation_is_optimal(cards: list[int], eights: bool, punitive: bool) -> None:
    """CRAITS-SCORE-4, CRAITS-AMB-17: the engine's cancellation is the best of all legal cancellations."""
    threes = [c for c in cards if c // 4 == 2]
    others = [c for c in cards if c // 4 != 2]
    score, cancelled = score_hand(cards, eights, punitive)
    if cards and not others:
        assert score == -50 * len(threes)  # CRAITS-SCORE-3
        return
    eligible = [i for i, c in enumerate(others)
                if (eights or c // 4 != 7) and not (punitive and c // 4 == 0)]
    best = None
    for k in range(min(len(threes), len(eligible)) + 1):
        for chosen in itertools.combinations(eligible, k):
            total = sum(POINTS[c // 4 + 1] for i, c in enumerate(others) if i not in chosen)
            total += 3 * k + (100 if punitive else 3) * (len(threes) - k)
            best = total if best is None else min(best, total)
    assert score == best
    assert len(cancelled) == min(len(threes), len(eligible))


def _random_game(seed: int, players: int, options: dict[str, Any], steps: int) -> feltroom.Game:
    game = feltroom.new_game("craits", players=players, seed=seed, options=options)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        clock = game.legal_actions(CLOCK)
        seat: Any = CLOCK if clock and (not game.to_act or rng.random() < 0.1) else game.to_act[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


_OPTIONS = st.fixed_dictionaries({v: st.booleans() for v in VARIANTS if v != "short_game"}).map(
    lambda d: {**d, "short_game": True})


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 7), _OPTIONS, st.integers(0, 300))
def test_legal_lists_are_canonical_sorted_and_consistent(seed: int, players: int, options: dict[str, Any],
                                                        steps: int) -> None:
    """notation.md §2.2 and CRAITS-PLAY-1, CRAITS-COUNT-2, CRAITS-PLAY-2: legal lists are canonical, unique,
    sorted (card, then suit absent before S H D C, then 'one' absent before present); a draw is offered exactly
    when no card may be played; the one-card form exactly when the play leaves one card."""
    game = _random_game(seed, players, options, steps)
    if game.is_over or not game.to_act:
        return
    seat = game.to_act[0]
    legal = game.legal_actions(seat)
    assert len(set(legal)) == len(legal) and all(game.canonical(seat, a) == a for a in legal)
    view = game.view(seat)
    if view["phase"] != "play":
        return
    plays = [a for a in legal if a.startswith("play")]
    assert (legal == ["draw"]) == (not plays)

    def key(a: str) -> tuple[int, int, int]:
        p = a.split()
        card = NAMES.index(p[1])
        suit = SUIT_NAMES.index(p[3]) + 1 if "suit" in p else 0
        return card, suit, int(p[-1] == "one")
    assert plays == sorted(plays, key=key)
    held = view["hand"]
    for a in plays:
        assert a.split()[1] in held
        if a.endswith(" one"):
            assert len(held) == 2 and a[:-4] in legal
        else:
            assert (a + " one" in legal) == (len(held) == 2)
    top, active, count = view["discard_top"], view["active_suit"], view["count"]
    for card in set(held):
        playable = any(a.split()[1] == card for a in plays)
        if count:
            assert playable == (card[:-1] in ("A", "2"))
        else:
            assert playable == (card[-1] == active or card[:-1] == top[:-1] or card[:-1] in ("8", "9"))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 6), _OPTIONS)
def test_scores_are_hand_scores_plus_penalties(seed: int, players: int, options: dict[str, Any]) -> None:
    """CRAITS-SCORE-6, CRAITS-SHUF-2: totals = Σ hand scores + Σ shuffle penalties; hand sizes add up."""
    game = _random_game(seed, players, options, 3000)
    totals = [0] * players
    for e in game.log:
        if e["type"] == "hand_end":
            totals = [t + h for t, h in zip(totals, e["hand_scores"], strict=True)]
            assert e["scores"][0] is not None
        elif e["type"] == "shuffle_penalty":
            totals[e["seat"]] += e["points"]
    assert totals == game.scores
    v = game.view(None)
    assert sum(v["hand_sizes"]) + v["stock_size"] + v["discard_size"] == len(game.pack())
    json.dumps(v)
