"""Krypkasino rules one by one (rules/krypkasino.md), beyond the worked scenarios."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

import feltroom
from feltroom import CLOCK, InvalidAction
from feltroom.cards import NAMES, card_list, parse_card
from feltroom.games.krypkasino import INITIAL, Krypkasino

from .helpers import assert_rejected
from .krypkasino_helpers import game, play, sweep_of

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestDeprecationWarning")


def new(players: int = 4, seed: int = 1, **options: object) -> Krypkasino:
    g = feltroom.new_game("krypkasino", players=players, seed=seed, options=options)
    assert isinstance(g, Krypkasino)
    return g


# ---------------------------------------------------------------------------- options


@pytest.mark.parametrize("rounds", [1, 2, 3, 4])
def test_dealer_rounds_fix_the_number_of_deals(rounds: int) -> None:
    """KRYP-OPT-1 (KRYP-AMB-1), KRYP-MATCH-1: dealer_rounds × n deals."""
    g = new(3, dealer_rounds=rounds)
    assert g.view(0)["deals"] == 3 * rounds and g.options["dealer_rounds"] == rounds


@pytest.mark.parametrize(("key", "value"), [("dealer_rounds", 0), ("dealer_rounds", 5), ("dealer_rounds", "1"),
                                            ("dealer_rounds", True), ("turn_time", 20), ("turn_time", 30.0),
                                            ("turn_time", "30"), ("first_dealer", 4), ("first_dealer", -1),
                                            ("colour", 1)])
def test_bad_options_are_refused(key: str, value: Any) -> None:
    """KRYP-OPT-1, KRYP-OPT-2: out-of-range or mistyped values raise ValueError naming what is allowed."""
    with pytest.raises(ValueError):
        new(4, **{key: value})


def test_options_are_normalised() -> None:
    """KRYP-OPT-2: turn_time unlimited (null) by default."""
    assert new(2).options == {"dealer_rounds": 1, "turn_time": None, "first_dealer": None}
    assert new(2, turn_time=45).options["turn_time"] == 45


# ---------------------------------------------------------------------------- deal


def test_first_dealer_is_random_but_seeded() -> None:
    """KRYP-DEAL-1: without first_dealer the seeded RNG draws it, uniformly; a stacked deck does not change it."""
    dealers = Counter(new(4, seed=s).dealer for s in range(400))
    assert set(dealers) == {0, 1, 2, 3} and min(dealers.values()) > 60
    assert all(new(4, seed=s).dealer == new(4, seed=s).dealer for s in range(20))
    for s in range(20):
        stacked = feltroom.new_game("krypkasino", players=4, seed=s, deck=["2C", "3C"])
        assert isinstance(stacked, Krypkasino) and stacked.dealer == new(4, seed=s).dealer
    assert new(4, seed=3, first_dealer=2).dealer == 2


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("dealer", [0, 1])
def test_deal_order_rounds_then_table(players: int, dealer: int) -> None:
    """KRYP-DEAL-2 (KRYP-AMB-2: the packet sizes are hand sizes), KRYP-DEAL-3 (KRYP-AMB-3: table after
    both rounds), KRYP-DEAL-4, KRYP-CONV-4: dealt from the top, clockwise from the dealer's left."""
    first, second, table = INITIAL[players]
    # Number cards only, so nothing is removed from the table.
    deck = [NAMES[c] for c in range(4, 40)][: players * (first + second) + table]
    g = feltroom.new_game("krypkasino", players=players, seed=1, options={"first_dealer": dealer}, deck=deck)
    order = [(dealer + i) % players for i in range(1, players + 1)]
    it = iter(deck)
    hands: dict[int, list[str]] = {s: [] for s in range(players)}
    for size in (first, second):
        for s in order:
            hands[s] += [next(it) for _ in range(size)]
    laid = [next(it) for _ in range(table)]
    for s in range(players):
        assert sorted(g.view(s)["hand"], key=parse_card) == sorted(hands[s], key=parse_card)
    assert sorted(g.view(None)["table"], key=parse_card) == sorted(laid, key=parse_card)
    assert g.view(None)["stock_size"] == 104 - len(deck)
    assert (first, second) == {2: (3, 3), 3: (3, 2), 4: (3, 2), 5: (2, 2), 6: (3, 2)}[players]
    start = g.log[0]
    assert start["type"] == "deal_start" and start["dealer"] == dealer and start["sizes"] == [first + second] * players


def test_face_cards_removed_right_after_the_deal() -> None:
    """KRYP-DEAL-5, KRYP-FACE-1: spade faces to their pile, others dead, before anyone plays."""
    g = game(2, 0, {}, ["JS", "QH", "KC", "5D"])
    kinds = [e["type"] for e in g.log]
    assert kinds.index("remove") == kinds.index("table") + 1
    v = g.view(0)
    assert v["table"] == ["5D"] and v["spade_faces"] == ["JS"]
    assert v["dead"] == ["QH", "KC"] and v["stock_size"] == 88


def test_trailed_face_card_removed_before_the_next_packet_not_scored() -> None:
    """KRYP-FACE-2, KRYP-FACE-3, KRYP-FACE-4: a trailed face card stays until the packet ends."""
    g = game(6, 0, {1: ["QS", "9C", "9D", "8C", "8D"], 2: ["KD", "9C", "9D", "8C", "8D"]}, ["QH", "JH"])
    play(g, 1, "play QS")
    assert g.view(0)["table"] == ["QS"] and g.view(0)["spade_faces"] == []
    play(g, 2, "play KD")
    assert g.view(0)["table"] == ["QS", "KD"]
    while g.view(0)["packet"] == 1:
        seat = g.to_act[0]
        g.apply(seat, next(a for a in g.legal_actions(seat) if "Q" not in a and "K" not in a))
    v = g.view(0)
    assert "QS" in v["spade_faces"] and "KD" in v["dead"] and not any(c[0] in "JQK" for c in v["table"])
    removal = next(e for e in reversed(g.log) if e["type"] == "remove")
    assert removal["spades"] == ["QS"] and "KD" in removal["dead"]


# ---------------------------------------------------------------------------- turns and rejections


def test_out_of_turn_and_card_not_held() -> None:
    """KRYP-TURN-1, KRYP-TURN-2: the rejection table's first two rows."""
    g = game(4, 0, {1: ["5D", "9C", "9H", "8C", "8H"], 2: ["5C", "9S", "9D", "8S", "8D"]}, ["5H", "2C", "JD", "QD"])
    assert_rejected(g, 2, "play 5C", "KRYP-TURN-1")
    assert_rejected(g, 0, "play 5C", "KRYP-TURN-1")
    assert_rejected(g, 1, "play 5C", "KRYP-TURN-2")
    assert_rejected(g, 1, "play KS take 5H", "KRYP-TURN-2")
    assert g.legal_actions(2) == [] and g.legal_actions(7) == []


def test_take_rejections() -> None:
    """KRYP-CAPTURE-1 (not a capture), KRYP-CAPTURE-3 (too small), KRYP-TRAIL-1 (take on a trail)."""
    g = game(4, 0, {1: ["7D", "9C", "10H", "4S", "KH"]}, ["AC", "2D", "4H", "5S"])
    assert g.legal_actions(1) == ["play 4S", "play 7D", "play 9C", "play 10H", "play KH"]
    assert_rejected(g, 1, "play 7D take 2D 5S", "KRYP-CAPTURE-3")  # A+2+4 is another 7 to take as well
    assert_rejected(g, 1, "play 7D take AC 2D", "KRYP-CAPTURE-1")
    assert_rejected(g, 1, "play 7D take 3D 4H", "KRYP-CAPTURE-1")  # 3D is not on the table
    assert_rejected(g, 1, "play 7D take 2D 5S 2D 5S", "KRYP-CAPTURE-1")
    assert_rejected(g, 1, "play KH take AC", "KRYP-TRAIL-1")
    assert g.canonical(1, "play 9C take 4H 5S") == "play 9C"  # the unique capture
    assert play(g, 1, "play 7D")["taken"] == ["AC", "2D", "4H"]


def test_take_rejections_exact() -> None:
    """KRYP-CAPTURE-2: every further group is taken (the canonical action takes them all)."""
    g = game(4, 0, {1: ["7D", "9C", "10H", "4S", "KH"]}, ["AC", "2D", "4H", "5S"])
    events = g.apply(1, "play 7D")
    assert events[0]["taken"] == ["AC", "2D", "4H"] and g.view(1)["table"] == ["5S"]  # no 7 left behind


@pytest.mark.parametrize("text", ["", "play", "play 1Z", "play 10 H", "play AS take", "play AS 2C", "take AS",
                                  "play AS take 2C take 3C", "play AS take 1Z", "timeout now", "pass",
                                  "play AS tak 2C"])
def test_malformed_actions(text: str) -> None:
    """notation.md: malformed strings raise InvalidAction (KRYP-TURN-2 covers a card not held)."""
    g = new(2)
    with pytest.raises(InvalidAction):
        g.apply(g.to_act[0], text)


def test_input_tolerance_and_canonical_form() -> None:
    """KRYP-CAPTURE-4: a take names a multiset in any order and case; ties need it."""
    g = game(4, 0, {1: ["6C", "10H", "8D", "7H", "7D"]}, ["AC", "2D", "3H", "3S"])
    assert g.canonical(1, "  PLAY 6c   TAKE 3♥ a♣ 2d ") == "play 6C take AC 2D 3H"
    assert g.canonical(1, "play t♥") == "play 10H"
    g.apply(1, "Play 6♣ take 3s 2D ac")
    assert g.actions == [[1, "play 6C take AC 2D 3S"]]


def test_copies_are_one_action() -> None:
    """KRYP-CAPTURE-4, KRYP-CONV-3: captures differing only in which copy they take are one action."""
    g = game(4, 0, {1: ["6C", "10H", "8D", "7H", "7D"]}, ["AC", "2D", "3H", "3H"])
    assert g.legal_actions(1)[0] == "play 6C"
    assert play(g, 1, "play 6C")["taken"] == ["AC", "2D", "3H"] and g.view(1)["table"] == ["3H"]
    g = game(4, 0, {1: ["6C", "10H", "8D", "7H", "7D"]}, ["3H", "3H", "3S", "9D"])
    assert g.legal_actions(1)[:2] == ["play 6C take 3S 3H", "play 6C take 3H 3H"]


def test_sweep_available_restricts_cards_even_to_a_double() -> None:
    """KRYP-SWEEP-2, KRYP-TURN-3: the only sweeping card may be a double sweep; it must be played."""
    g = game(6, 0, {1: ["8H", "2C", "3C", "4C", "9C"]}, ["8H", "KD"])
    assert g.legal_actions(1) == ["play 8H"]
    assert sweep_of(g.apply(1, "play 8H"))["double"]  # type: ignore[index]


def test_lone_ace_cannot_double() -> None:
    """KRYP-SWEEP-7, KRYP-VAL-3: a lone ace and its copy: no capture at all."""
    g = game(6, 0, {1: ["AH", "2C", "3C", "4C", "9C"]}, ["AH", "KD"])
    assert "play AH" in g.legal_actions(1) and play(g, 1, "play AH")["taken"] == []


def test_sweep_needs_a_non_empty_table() -> None:
    """KRYP-SWEEP-1, KRYP-TRAIL-3: a trail onto an empty table is no sweep."""
    g = game(6, 0, {}, ["QH", "KD"])
    events = g.apply(1, g.legal_actions(1)[0])
    assert sweep_of(events) is None and g.ledger == [] and g.scores == [0] * 6


# ---------------------------------------------------------------------------- end of deal, information


def test_nobody_captured_the_dealer_takes_the_rest() -> None:
    """KRYP-END-1 (KRYP-AMB-13): with no capture in the whole deal the dealer gets the table."""
    g = new(2, seed=5, first_dealer=1)
    rng = random.Random(5)
    while not (g.last_packet and sum(map(len, g.hands)) == 1):
        seat = g.to_act[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    # As if nobody had captured: the table's cards go aside and the last card is trailed.
    g.piles[0].extend(g.table)
    g.table = []
    g.last_capturer = None
    g._legal = None
    seat = g.to_act[0]
    last = g.hands[seat][0]
    events = g.apply(seat, g.legal_actions(seat)[0])
    assert events[0]["taken"] == []
    award = next(e for e in events if e["type"] == "award")
    assert award["seat"] == 1 and award["cards"] == [NAMES[last]]


KEYS = {"game", "seat", "players", "options", "phase", "to_act", "scores", "over", "winners", "deal_no", "deals",
        "dealer", "packet", "packets", "last_packet", "hand_sizes", "table", "stock_size", "spade_faces", "dead",
        "piles", "ledger", "last_capturer", "deal_scores"}


def test_views_hide_hands_stock_and_piles() -> None:
    """KRYP-INFO-1, KRYP-INFO-2 (KRYP-AMB-15): own hand only; piles as sizes and markers; points at the end."""
    g = new(3, seed=9)
    rng = random.Random(9)
    for _ in range(40):
        actor = g.to_act[0]
        g.apply(actor, rng.choice(g.legal_actions(actor)))
    for seat in (0, 1, 2, None):
        v = g.view(seat)
        assert set(v) >= {"deal_no", "deals", "dealer", "packet", "packets", "last_packet", "hand_sizes", "table",
                          "stock_size", "spade_faces", "dead", "piles", "ledger", "last_capturer", "deal_scores"}
        text = json.dumps(v)
        assert set(v) == KEYS | ({"hand"} if seat is not None else set())
        if seat is not None:
            assert v["hand"] == card_list(g.hands[seat])
        assert "card_points" not in text
        for pile in v["piles"]:
            assert set(pile) == {"size", "markers"}
        assert v["hand_sizes"] == [len(h) for h in g.hands]
        assert v["stock_size"] == len(g.stock) and v["last_capturer"] == g.last_capturer
    assert "hand" not in g.view(None)
    assert g.audit_hidden(0) and Counter(g.audit_hidden(None)) - Counter(g.audit_hidden(0)) == Counter(g.hands[0])


def test_scores_show_transfers_during_the_deal_and_points_after() -> None:
    """KRYP-INFO-2, KRYP-SCORE-4, KRYP-SCORE-5: scores = earlier deals + current transfers."""
    g = new(2, seed=4)
    rng = random.Random(4)
    while not g.deal_scores:
        assert g.scores == g.transfers
        seat = g.to_act[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    assert g.scores == g.deal_scores[0] and sum(g.scores) == 42


def test_negative_scores_occur() -> None:
    """KRYP-SCORE-6: a deal score (card points + transfers) can be negative."""
    seen = False
    for seed in range(60):
        g = new(2, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            seat = g.to_act[0]
            g.apply(seat, rng.choice(g.legal_actions(seat)))
        if any(s < 0 for d in g.deal_scores for s in d):
            seen = True
            break
    assert seen


def test_timer_events_follow_each_turn() -> None:
    """KRYP-ONL-1: each turn gets its own full limit; the clock stops when the match ends."""
    g = new(2, seed=3, turn_time=60)
    assert g.log[-1]["type"] == "timer" and g.log[-1]["seat"] == g.to_act[0] and g.log[-1]["seconds"] == 60
    while not g.is_over:
        seat = g.to_act[0]
        events = g.apply(CLOCK, "timeout")
        assert events[0] == {"type": "timeout", "to": "all", "seats": [seat]}
        assert [e["type"] for e in events].count("timer") + [e["type"] for e in events].count("timer_stop") == 1
        assert events[-1]["type"] in ("timer", "timer_stop")
        if not g.is_over:
            assert events[-1]["seat"] == g.to_act[0]
    assert g.log[-1] == {"type": "timer_stop", "to": "all", "action": "timeout"}
    assert g.legal_actions(CLOCK) == []


def test_timeout_plays_the_first_legal_action() -> None:
    """KRYP-ONL-2: the first legal action in canonical order, exactly as if chosen."""
    for seed in range(5):
        a = new(3, seed=seed, turn_time=30)
        b = a.copy()
        for _ in range(60):
            seat = a.to_act[0]
            first = a.legal_actions(seat)[0]
            ea = a.apply(CLOCK, "timeout")
            eb = b.apply(seat, first)
            assert ea[1:] == eb
        assert a.view(0) == b.view(0)


def test_copy_is_independent() -> None:
    """architecture.md: copy() shares events but no state."""
    g = new(4, seed=2)
    c = g.copy()
    seat = g.to_act[0]
    c.apply(seat, c.legal_actions(seat)[0])
    assert g.actions == [] and len(c.actions) == 1 and g.view(seat) != c.view(seat)
    assert c.rng.random() == g.copy().rng.random()
