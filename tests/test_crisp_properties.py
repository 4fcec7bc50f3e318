"""Hypothesis properties of Crisp: conservation, score consistency, replay, parsing tolerance."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import feltroom
from feltroom import CLOCK
from feltroom.game import Seat
from feltroom.games.crisp import Crisp, hand_total

OPTIONS = st.fixed_dictionaries({
    "end_limit": st.integers(5, 40),
    "draw_from_discard": st.booleans(),
}).flatmap(lambda base: st.sampled_from([
    {**base},
    {**base, "clock": True},
    {**base, "clock": True, "draw_time": 30},
]))


def random_play(game: Crisp, rng: random.Random, limit: int = 3000) -> None:
    for _ in range(limit):
        if game.is_over:
            return
        clock = game.legal_actions(CLOCK)
        if clock and (not game.to_act or rng.random() < 0.1):
            game.apply(CLOCK, rng.choice(clock))
            continue
        seat = rng.choice(game.to_act)
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        assert sorted(game.audit_cards()) == list(range(52))
        if game.held < 0 and not game.is_over:  # CRISP-DECK-3
            assert len(game.deck) + len(game.discard) + len(game.kings) == 52 - 3 * game.players


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 8), seed=st.integers(0, 2**53 - 1), options=OPTIONS)
def test_random_games_conserve_cards_score_consistently_and_replay(players: int, seed: int,
                                                                   options: dict[str, object]) -> None:
    """CRISP-SETUP-2, CRISP-DECK-3, CRISP-SCORE-1..4, CRISP-END-2/3 over arbitrary games."""
    game = feltroom.new_game("crisp", players=players, seed=seed, options=options)
    assert isinstance(game, Crisp)
    random_play(game, random.Random(seed))
    assert game.is_over
    running = [0] * players
    for end in (e for e in game.log if e["type"] == "round_end"):
        totals = [hand_total([feltroom.cards.parse_card(c) for c in h]) for h in end["hands"]]
        assert totals == end["totals"]
        expect = list(totals)
        d = end["declarer"]
        if d is not None:
            expect[d] += -5 if all(totals[d] < t for i, t in enumerate(totals) if i != d) else 5
        assert end["round_scores"] == expect
        running = [a + b for a, b in zip(running, expect, strict=True)]
        assert end["scores"] == running
    assert game.scores == running and max(running) >= game.options["end_limit"]
    assert game.winners == [i for i, s in enumerate(running) if s == min(running)]
    again = feltroom.replay(json.loads(json.dumps(game.record)))
    assert again.log == game.log and again.scores == game.scores


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), steps=st.integers(0, 60))
def test_copy_is_independent_and_equal(seed: int, steps: int) -> None:
    game = feltroom.new_game("crisp", players=4, seed=seed, options={"clock": True, "draw_time": 45})
    assert isinstance(game, Crisp)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        clock = game.legal_actions(CLOCK)
        if clock and (not game.to_act or rng.random() < 0.1):
            game.apply(CLOCK, rng.choice(clock))
        else:
            seat = rng.choice(game.to_act)
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    twin = game.copy()
    assert twin.log == game.log and twin.view(None) == game.view(None) and twin.record == game.record
    for seat in [*range(4), None]:
        assert twin.view(seat) == game.view(seat)
    if not game.is_over:
        actor: Seat = twin.to_act[0] if twin.to_act else CLOCK
        before = (len(game.log), game.view(None), [list(h) for h in game.hands], list(game.deck))
        twin.apply(actor, twin.legal_actions(actor)[0])
        assert (len(game.log), game.view(None), [list(h) for h in game.hands], list(game.deck)) == before
        a = random.Random(1)
        b = random.Random(1)
        g2 = game.copy()
        random_play(g2, a, 200)
        g3 = game.copy()
        random_play(g3, b, 200)
        assert g2.log == g3.log  # the RNG state is copied too


def messy(action: str, rng: random.Random) -> str:
    toks = [t.lower() if rng.random() < 0.5 else t.upper() for t in action.split()]
    toks = [("P" + t if t.isdigit() and rng.random() < 0.5 else t) for t in toks]
    return " " * rng.randrange(3) + (" " * rng.randint(1, 3)).join(toks) + " " * rng.randrange(3)


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_any_spelling_of_a_legal_action_is_accepted_as_canonical(seed: int) -> None:
    """notation.md §2.1 input tolerance: case, whitespace, P-prefixed seats."""
    rng = random.Random(seed)
    game = feltroom.new_game("crisp", players=rng.randint(2, 8), seed=seed, options={"draw_from_discard": True})
    for _ in range(30):
        if game.is_over:
            break
        seat = rng.choice(game.to_act)
        legal = game.legal_actions(seat)
        action = rng.choice(legal)
        text = messy(action, rng)
        assert game.canonical(seat, text) == action
        game.apply(seat, text)
        assert game.actions[-1] == [seat, action]
