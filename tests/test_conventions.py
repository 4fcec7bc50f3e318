"""The conventions every game's specification opens with (``*-CONV-*``), checked over whole random
games of each game, and the house rule that every rule ID of the specification is cited by a test.

The conventions are mostly how the rules are written; where they bind the engine (seat order,
card names), the engine is held to them here, whatever the game."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import feltroom
from feltroom.cards import NAMES
from feltroom.game import Game
from feltroom.registry import GAMES

from .rules_text import spec_ids

TESTS = Path(__file__).resolve().parent
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
#: a card as every game writes it (CRISP-CONV-2, CRIB-CONV-2, CRAITS-CONV-2, KRYP-CONV-2)
CARD = re.compile(r"(?:A|[2-9]|10|J|Q|K)[SHDC]")
#: a string that a lenient reader might take for a card: rank-like, then a suit-like letter or sign
CARD_LIKE = re.compile(r"(?:[AaJjQqKkTt]|[1-9]|10)[SHDCshdc♠♥♦♣♤♡♢♧]")
#: the event that starts each hand, round or deal, and names its dealer
DEAL_START = {"crisp": "round_start", "cribbage": "hand_start", "craits": "hand_start", "krypkasino": "deal_start"}


def random_game(game: str, players: int, seed: int) -> Game:
    g = feltroom.new_game(game, players=players, seed=seed, options={})
    rng = random.Random(seed)
    while not g.is_over:
        seat = rng.choice(sorted(g.to_act, key=str))
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    return g


def strings(x: Any) -> Iterator[str]:
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for v in x.values():
            yield from strings(v)
    elif isinstance(x, (list, tuple)):
        for v in x:
            yield from strings(v)


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_deal_and_the_first_turn_go_to_the_left(game: str, players: int) -> None:
    """CRISP-CONV-1, CRIB-CONV-1, CRAITS-CONV-1, KRYP-CONV-1: the left of Pi is P(i+1). Each hand,
    round or deal is dealt by the left of the last dealer (CRISP-DEAL-2, CRIB-DEALER-2,
    CRAITS-DEALER-2, KRYP-MATCH-1), and where the first player is the dealer's left (CRISP-DEAL-7,
    CRIB-PEG-1, KRYP-TURN-1, KRYP-PACKET-3) it is P(dealer + 1)."""
    first_turn = {"crisp": "turn_start", "cribbage": "play", "krypkasino": "play"}.get(game)
    for seed in range(3):
        log = random_game(game, players, seed).log
        dealers = [(i, e["dealer"]) for i, e in enumerate(log) if e["type"] == DEAL_START[game]]
        assert len(dealers) >= 2, "a whole game has several hands, rounds or deals"
        for (_, before), (_, after) in itertools.pairwise(dealers):
            assert after == (before + 1) % players
        if first_turn is None:
            continue  # Craits: the upcard may give the first turn to another seat (CRAITS-UP-2)
        dealer, checked = -1, 0
        for i, e in enumerate(log):
            if e["type"] == DEAL_START[game]:
                dealer = e["dealer"]
            if e["type"] == DEAL_START[game] or e["type"] == "packet":  # Krypkasino: each packet too
                assert dealer >= 0, "a packet within a deal"
                first = next(x for x in log[i:] if x["type"] == first_turn)
                assert first["seat"] == (dealer + 1) % players, (seed, i, first)
                checked += 1
        assert checked >= len(dealers)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_card_is_written_rank_then_suit(game: str) -> None:
    """CRISP-CONV-2, CRIB-CONV-2, CRAITS-CONV-2, KRYP-CONV-2: every card any event names, over whole
    games, is one of the 52 names ``A 2 … 10 J Q K`` then ``S H D C`` (``10H``, ``QS``), and nothing
    the events carry is a card written otherwise (``TH``, ``qs``, ``10♥``)."""
    assert set(NAMES) == {r + s for r in RANKS for s in "SHDC"}
    named: set[str] = set()
    for seed, players in enumerate((2, 3, 4)):
        for text in strings(random_game(game, players, seed).log):
            for word in text.split():
                if CARD_LIKE.fullmatch(word):  # every card name among them
                    assert CARD.fullmatch(word), (game, word)
                    named.add(word)
    assert named == set(NAMES), "whole games show every card, by its one name"


def test_every_rule_of_the_spec_is_cited_by_a_test() -> None:
    """Every rule ID of every game's specification appears in the tests (a docstring, a comment or
    an assertion), so that a rule no test exercises is found when the specification grows."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted(TESTS.rglob("test_*.py")))
    cited = set(re.findall(r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+", text))
    missing = {game: [i for i in spec_ids(game) if i not in cited] for game in sorted(GAMES)}
    assert not any(missing.values()), missing
