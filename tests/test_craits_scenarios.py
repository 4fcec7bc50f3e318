"""Every worked scenario of rules/craits.md §15 (CRAITS-SCN-1 … CRAITS-SCN-28), step by step.

Positions come from stacked decks (``stacked``) or, for mid-hand positions the scenario
states directly, from ``position`` (see tests/craits_helpers.py).
"""

from __future__ import annotations

import random

import pytest

import feltroom
from feltroom import CLOCK, IllegalAction
from feltroom.cards import parse_cards
from feltroom.games.craits import choose_dealer, score_hand

from .craits_helpers import deck_for, events, hand, position, srt, stacked


def random_to_end(game: feltroom.Game, seed: int = 0) -> None:
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act[0] if game.to_act else CLOCK
        legal = game.legal_actions(seat)
        game.apply(seat, rng.choice(legal))


# ---------------------------------------------------------------- SCN-1, SCN-2

@pytest.mark.parametrize("short", [False, True])
def test_scn1_hand_sizes_and_dealers(short: bool) -> None:
    """CRAITS-SCN-1 (CRAITS-GAME-1, CRAITS-GAME-2, CRAITS-DEALER-2, CRAITS-END-1); CRAITS-CONV-4: a hand
    is one deal, 15 to a game."""
    game = feltroom.new_game("craits", players=3, seed=4, options={"first_dealer": 1, "short_game": short})
    random_to_end(game)
    starts = events(game, kind="hand_start")
    expect = [8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8][: 8 if short else 15]
    assert [e["cards"] for e in starts] == expect
    assert [e["dealer"] for e in starts] == [(1 + i) % 3 for i in range(len(expect))]
    if not short:
        assert starts[14]["dealer"] == 0
    assert len(events(game, kind="hand_end")) == len(expect) and game.is_over
    assert events(game)[-1]["type"] == "game_end"


def test_scn2_first_dealer_cut() -> None:
    """CRAITS-SCN-2 (CRAITS-DEALER-1, CRAITS-SETUP-2, CRAITS-DEAL-1, CRAITS-DEAL-3)."""
    cards = iter(parse_cards("AS 2H 9C"))
    draws, dealer = choose_dealer(3, lambda: next(cards))
    assert dealer == 1 and len(draws) == 1  # the 2 is lowest, the ace high
    cards = iter(parse_cards("4S 4H JD KC 3D"))
    draws, dealer = choose_dealer(3, lambda: next(cards))
    assert dealer == 1 and [[s for s, _ in r] for r in draws] == [[0, 1, 2], [0, 1]]
    # (a) P1 deals: the deal order is P2, P0, P1, repeated 8 times, and P2 plays first
    deck = [f"{r}{s}" for r in ("A", "3", "5", "7") for s in "SHDC"] + ["JS", "JH", "JD", "JC", "QS", "QH", "QD", "QC"]
    game = feltroom.new_game("craits", players=3, seed=1, options={"first_dealer": 1}, deck=[*deck, "KS"])
    assert set(game.view(2)["hand"]) == set(deck[0::3])
    assert set(game.view(0)["hand"]) == set(deck[1::3]) and set(game.view(1)["hand"]) == set(deck[2::3])
    assert game.view(0)["discard_top"] == "KS" and game.to_act == (2,)


def test_scn2_cut_event_names_the_dealer() -> None:
    """CRAITS-DEALER-1: the cut is public and decides the dealer; ties redraw among the tied only."""
    for seed in range(40):
        game = feltroom.new_game("craits", players=4, seed=seed)
        cut = game.log[0]
        assert cut["type"] == "cut" and cut["to"] == "all"
        rank = {"A": 14, "J": 11, "Q": 12, "K": 13}
        last = cut["draws"][-1]
        values = [(rank.get(c[:-1]) or int(c[:-1]), s) for s, c in last]
        low = min(v for v, _ in values)
        assert [s for v, s in values if v == low] == [cut["dealer"]]
        for prev, nxt in zip(cut["draws"], cut["draws"][1:], strict=False):
            pv = [(rank.get(c[:-1]) or int(c[:-1]), s) for s, c in prev]
            tied = [s for v, s in pv if v == min(v for v, _ in pv)]
            assert [s for s, _ in nxt] == tied and len(tied) > 1
        assert game.view(None)["dealer"] == cut["dealer"]


# ---------------------------------------------------------------- SCN-3 … SCN-8: upcards and card functions

def test_scn3_upcard_two_count_failure_and_resumption() -> None:
    """CRAITS-SCN-3 (CRAITS-UP-2, CRAITS-COUNT-1, CRAITS-COUNT-2, CRAITS-COUNT-3, CRAITS-COUNT-4, CRAITS-ONE-1)."""
    g = stacked(3, 0, {1: "AH 7S KD", 2: "2D 5C 9H", 0: "8S 4C QH"}, "2S", "10C 3S 6D JH 4D 7H")
    assert g.hand_no == 6 and g.count == 2 and g.to_act == (1,)
    assert g.legal_actions(1) == ["play AH"]  # 7S and KD are illegal in the count
    g.apply(1, "play AH")
    assert g.view(None)["count"] == 3
    g.apply(2, "play 2D")
    assert g.view(None)["count"] == 5
    with pytest.raises(IllegalAction) as e:
        g.apply(0, "play 8S")
    assert e.value.rule == "CRAITS-COUNT-2"
    g.apply(0, "draw")
    assert hand(g, 0) == srt("3S 4C 4D 6D 8S 10C JH QH") and g.view(None)["count"] is None
    assert events(g, kind="count_end")[-1] == {"type": "count_end", "to": "all", "seat": 0, "value": 5}
    assert g.legal_actions(1) == ["play KD", "play KD one"]
    g.apply(1, "play KD one")
    v = g.view(None)
    assert hand(g, 1) == srt("7S") and g.discard == parse_cards("2S AH 2D KD")
    assert v["active_suit"] == "D" and g.stock[-1] == parse_cards("7H")[0] and g.to_act == (2,)


def test_scn4_upcard_four() -> None:
    """CRAITS-SCN-4 (CRAITS-UP-2, CRAITS-CARD-4)."""
    g = stacked(3, 0, {1: "KC KS", 2: "5H 6C", 0: "QC QS"}, "4H")
    assert g.to_act == (2,) and events(g, kind="skip")[0]["seat"] == 1
    assert g.legal_actions(2) == ["play 5H", "play 5H one"]
    g = stacked(2, 0, {1: "KH KS", 0: "QH QS"}, "4C")
    assert g.to_act == (0,)  # with 2 players the dealer plays first


def test_scn5_upcard_ten() -> None:
    """CRAITS-SCN-5 (CRAITS-UP-2, CRAITS-CARD-10, CRAITS-PLAY-7)."""
    g = stacked(4, 0, {1: "KC KS", 2: "QC QS", 3: "JC JS", 0: "AC AS"}, "10D", "KH QH JH AH 5H")
    assert g.view(None)["direction"] == "ccw"
    order = []
    for _ in range(5):
        seat = g.to_act[0]
        order.append(seat)
        g.apply(seat, "draw")
    assert order == [3, 2, 1, 0, 3]
    g = stacked(2, 0, {1: "KC KS", 0: "QC QS"}, "10D")
    assert g.to_act == (1,)


def test_scn6_upcard_six() -> None:
    """CRAITS-SCN-6 (CRAITS-UP-2, CRAITS-CARD-6, CRAITS-CARD-9)."""
    g = stacked(3, 0, {1: "KS QS JS", 2: "KD QD JD", 0: "KH 9D 3S"}, "6C")
    assert g.to_act == (0,) and g.view(0)["six"] is True
    assert g.legal_actions(0) == ["play 9D", "play 9D suit H"]
    g.apply(0, "play 9D suit H")
    assert g.view(None)["active_suit"] == "H" and hand(g, 0) == srt("3S KH") and g.to_act == (1,)
    g = stacked(3, 0, {1: "KS QS", 2: "KD QD", 0: "KH 4S"}, "6C", "2H")
    assert g.legal_actions(0) == ["draw"]
    g.apply(0, "draw")
    assert g.view(None)["active_suit"] == "C" and g.to_act == (1,) and hand(g, 0) == srt("2H 4S KH")


def test_scn7_five() -> None:
    """CRAITS-SCN-7 (CRAITS-CARD-5, CRAITS-SHUF-5): all others draw, from next(P) on."""
    g = stacked(4, 0, {1: "5H KC", 2: "AC AD", 3: "JC JD", 0: "QC QH"}, "5S", "2S 3S 4S QD 2C 9S")
    # the upcard 5 already made P1, P2, P3 draw 2S, 3S, 4S
    assert [e["seat"] for e in events(g, kind="draw")] == [1, 2, 3]
    start = len(g.log)
    g.apply(1, "play 5H")
    drew = [(e["seat"], e["cards"]) for e in events(g, start, "reveal")]
    assert drew == [(2, ["QD"]), (3, ["2C"]), (0, ["9S"])] and g.to_act == (2,)
    g = stacked(2, 1, {0: "5C KH", 1: "QD QH"}, "3C", "7S")
    g.apply(0, "play 5C")
    assert hand(g, 1) == srt("7S QH QD") and g.to_act == (1,)


def test_scn8_seven() -> None:
    """CRAITS-SCN-8 (CRAITS-CARD-7, CRAITS-AMB-8)."""
    # (a) 4 players: the upcard 7D makes L2 = P2 draw first; then P1 plays 7C and P3 draws AS
    g = stacked(4, 0, {1: "7C KH", 2: "QC QH", 3: "JC JH", 0: "KS KD"}, "7D", "10H AS")
    assert [e["seat"] for e in events(g, kind="draw")] == [2]
    start = len(g.log)
    g.apply(1, "play 7C")
    assert [(e["seat"], e["cards"]) for e in events(g, start, "reveal")] == [(3, ["AS"])]
    assert g.to_act == (2,) and hand(g, 2) == srt("10H QH QC")
    # (b) 3 players: the next player draws and still takes the turn; AS is not legal on 7C
    g = stacked(3, 0, {1: "7C KH", 2: "KC QH", 0: "KS KD"}, "7D", "10H AS")
    g.apply(1, "play 7C")
    assert hand(g, 2) == srt("AS QH KC") and g.to_act == (2,)
    assert g.legal_actions(2) == ["play KC"]
    # (c) 2 players
    g = stacked(2, 1, {0: "7H KH", 1: "KC QC"}, "7D", "10S AS")
    assert hand(g, 0) == srt("10S 7H KH")
    g.apply(0, "play 7H")
    assert "AS" in hand(g, 1) and g.to_act == (1,)


# ---------------------------------------------------------------- SCN-9 … SCN-15

def test_scn9_eight_and_nine_change_the_suit() -> None:
    """CRAITS-SCN-9 (CRAITS-CARD-8, CRAITS-CARD-9, CRAITS-PLAY-1, CRAITS-PLAY-4); CRAITS-CONV-3: the last
    card played is the top, and the active suit is its suit unless an 8 or a 9 named another."""
    # one deck cannot hold 5S twice (top and P2's hand): the top is 6S here, active suit S as in the scenario
    g = position(4, 1, {1: "8D KC", 2: "5S JH 9H", 3: "QS 4D 9C", 0: "AC 2C"}, "6S")
    g.apply(1, "play 8D suit H")
    assert g.view(None)["discard_top"] == "8D" and g.view(None)["active_suit"] == "H"
    assert g.legal_actions(2) == ["play 9H", "play 9H suit D", "play JH"]
    with pytest.raises(IllegalAction) as e:
        g.apply(2, "play 5S")
    assert e.value.rule == "CRAITS-PLAY-1"
    g.apply(2, "play 9H suit D")
    assert g.view(None)["active_suit"] == "D"
    assert g.legal_actions(3) == ["play 4D", "play 9C", "play 9C suit S"]
    with pytest.raises(IllegalAction) as e:
        g.apply(3, "play 9C suit H")
    assert e.value.rule == "CRAITS-CARD-9"


def test_scn10_chain_of_sixes() -> None:
    """CRAITS-SCN-10 (CRAITS-CARD-6, CRAITS-PLAY-2, CRAITS-PLAY-3)."""
    g = stacked(3, 0, {1: "6H 6C KD 2S", 2: "AC AD AH AS", 0: "QC QD QH QS"}, "3H", "10S")
    g.apply(1, "play 6H")
    assert g.to_act == (1,) and g.legal_actions(1) == ["play 6C"]
    g.apply(1, "play 6C")
    assert g.legal_actions(1) == ["draw"]
    g.apply(1, "draw")
    assert hand(g, 1) == srt("2S 10S KD") and g.view(None)["discard_top"] == "6C" and g.to_act == (2,)


def test_scn11_six_as_last_card_does_not_go_out() -> None:
    """CRAITS-SCN-11 (CRAITS-CARD-6, CRAITS-OUT-2, CRAITS-ONE-5, CRAITS-AMB-13)."""
    g = stacked(3, 0, {1: "6H", 2: "KC", 0: "QC"}, "JH", "4S")
    assert g.legal_actions(1) == ["play 6H"]
    g.apply(1, "play 6H")
    assert g.legal_actions(1) == ["draw"] and g.view(None)["hand_sizes"][1] == 0 and not events(g, kind="hand_end")
    g.apply(1, "draw")
    assert hand(g, 1) == srt("4S") and g.to_act == (2,) and g.view(None)["active_suit"] == "H"
    assert not events(g, kind="idiot") and not events(g, kind="hand_end")


def test_scn12_going_out_on_a_five() -> None:
    """CRAITS-SCN-12 (CRAITS-OUT-1, CRAITS-OUT-2, CRAITS-CARD-5, CRAITS-SCORE-4)."""
    g = position(3, 1, {1: "5D", 2: "KD 3C", 0: "8S"}, "5S", "7H 2C")
    g.apply(1, "play 5D")
    end = events(g, kind="hand_end")[0]
    assert end["why"] == "out" and end["hands"][2] == ["3C", "7H", "KD"] and end["hands"][0] == ["2C", "8S"]
    assert end["hand_scores"] == [70, 0, 13] and end["went_out"] == [1] and end["cancelled"][2] == ["7H"]


def test_scn13_going_out_during_the_count() -> None:
    """CRAITS-SCN-13 (CRAITS-OUT-3, CRAITS-COUNT-1, CRAITS-COUNT-4, CRAITS-COUNT-7, CRAITS-SCORE-4)."""
    g = position(3, 1, {1: "2D", 2: "AC 5S", 0: "4H KS"}, "9D", "7C 8H 3D")
    g.apply(1, "play 2D")
    assert g.view(None)["count"] == 2 and not events(g, kind="hand_end")
    assert g.legal_actions(2) == ["play AC", "play AC one"]
    g.apply(2, "play AC one")
    assert g.view(None)["count"] == 3
    g.apply(0, "draw")
    end = events(g, kind="hand_end")[0]
    assert end["why"] == "count" and end["hand_scores"] == [78, 0, 30] and end["cancelled"][0] == ["7C"]


@pytest.mark.parametrize("variant", ["base", "going_out_minus_10", "count_out_continues"])
def test_scn14_the_player_who_went_out_picks_up_the_count(variant: str) -> None:
    """CRAITS-SCN-14 (CRAITS-OUT-3, CRAITS-OUT-5, CRAITS-COUNT-7, CRAITS-SCORE-2, CRAITS-VAR-COUNTOUT,
    CRAITS-VAR-OUT10, CRAITS-AMB-14)."""
    opts = {} if variant == "base" else {variant: True}
    g = position(2, 0, {0: "2C", 1: "2S KH"}, "7C", "9S 4D AH 6C QD", options=opts)
    g.apply(0, "play 2C")
    g.apply(1, "play 2S one")
    assert g.legal_actions(0) == ["draw"]
    g.apply(0, "draw")
    if variant == "count_out_continues":
        assert not events(g, kind="hand_end") and g.to_act == (1,) and hand(g, 0) == srt("AH 4D 6C 9S")
        assert g.legal_actions(1) == ["draw"]
        g.apply(1, "draw")
        assert hand(g, 1) == srt("QD KH") and g.to_act == (0,) and not g.went_out
        return
    end = events(g, kind="hand_end")[0]
    assert end["hands"][0] == ["AH", "4D", "6C", "9S"] and end["went_out"] == [0]
    assert end["hand_scores"] == [-10 if variant == "going_out_minus_10" else 0, 10]


@pytest.mark.parametrize("case", ["base", "skip", "idiot_card"])
def test_scn15_failing_to_declare_one_card(case: str) -> None:
    """CRAITS-SCN-15 (CRAITS-ONE-1, CRAITS-ONE-2, CRAITS-ONE-3, CRAITS-VAR-IDIOT)."""
    opts = {"idiot_card": True} if case == "idiot_card" else {}
    g = position(3, 1, {1: "KS QD", 2: "KD JD 7C", 0: "3D 4D 7H KC"}, "4S", "5C JH", options=opts)
    assert g.legal_actions(1) == ["play KS", "play KS one"]
    g.apply(1, "play KS")
    idiot = events(g, kind="idiot")[0]
    assert idiot["seat"] == 1 and idiot["penalty"] == ("card" if case == "idiot_card" else "turn")
    if case == "idiot_card":
        assert hand(g, 1) == srt("5C QD") and g.to_act == (2,)
        g.apply(2, "play KD")
        g.apply(0, "play 3D")
        assert g.to_act == (1,) and "play QD" in g.legal_actions(1)
        return
    assert g.view(None)["penalties"] == [1]
    g.apply(2, "play KD")
    if case == "base":
        g.apply(0, "play 3D")  # P1's penalty turn: draws 5C JH and plays nothing
        assert hand(g, 1) == srt("5C JH QD") and g.to_act == (2,)
        assert [e["why"] for e in events(g, kind="skip")] == ["penalty"]
    else:
        g.apply(0, "play 4D")  # P1's turn is skipped: the 2 cards are drawn at the skip
        assert hand(g, 1) == srt("5C JH QD") and g.to_act == (2,)
        assert [e["why"] for e in events(g, kind="skip")] == ["four"]
        g.apply(2, "play JD one")
        g.apply(0, "play 3D")
        assert g.to_act == (1,) and g.view(None)["penalties"] == []  # the following turn is normal
    assert g.view(None)["penalties"] == []


# ---------------------------------------------------------------- SCN-16 … SCN-18: scoring

def test_scn16_scoring_threes_source_example() -> None:
    """CRAITS-SCN-16 (CRAITS-SCORE-4, CRAITS-SCORE-5, CRAITS-VAR-PUNITIVE)."""
    cards = parse_cards("AH 3S 3D 6C 7H 9S KD")
    assert score_hand(cards) == (37, sorted(parse_cards("6C 9S")))
    assert score_hand(cards, punitive=True)[0] == 37


@pytest.mark.parametrize(("held", "base", "eights"), [
    ("3S", -50, -50), ("3S 3H", -100, -100), ("3S 8D", 53, 3), ("3S 3H 8D", 56, 6)])
def test_scn17_only_threes_and_threes_with_eights(held: str, base: int, eights: int) -> None:
    """CRAITS-SCN-17 (CRAITS-SCORE-3, CRAITS-SCORE-4, CRAITS-VAR-THREE8)."""
    assert score_hand(parse_cards(held))[0] == base
    assert score_hand(parse_cards(held), eights=True)[0] == eights


def test_scn18_punitive_scoring_with_a_spare_three() -> None:
    """CRAITS-SCN-18 (CRAITS-VAR-PUNITIVE, CRAITS-SCORE-4)."""
    assert score_hand(parse_cards("AH 3S 3D KC"))[0] == 6
    assert score_hand(parse_cards("AH 3S 3D KC"), punitive=True)[0] == 104
    assert score_hand(parse_cards("3S 3H"), punitive=True)[0] == -100


def test_scn16_scores_reach_hand_end() -> None:
    """CRAITS-SCORE-4, CRAITS-SCORE-6 through the engine: the hand_end scores use the best cancellation."""
    g = position(2, 0, {0: "KC", 1: "AH 3S 3D 6C 7H 9S KD"}, "QC", options={"punitive_scoring": True})
    g.apply(0, "play KC one")
    end = events(g, kind="hand_end")[0]
    assert end["hand_scores"] == [0, 37] and end["cancelled"][1] == ["6C", "9S"] and g.scores == [0, 37]


# ---------------------------------------------------------------- SCN-19, SCN-20: the stock

def test_scn19_reshuffle_and_shuffle_penalties() -> None:
    """CRAITS-SCN-19 (CRAITS-SHUF-1, CRAITS-SHUF-2, CRAITS-SHUF-6)."""
    g = position(3, 2, {2: "KD QH", 0: "AS 2S", 1: "AH 2H"}, "4C JD 9H 6S", rest=False)
    assert g.legal_actions(2) == ["draw"] and g.stock == []
    g.apply(2, "draw")
    assert events(g, kind="reshuffle")[0] == {"type": "reshuffle", "to": "all", "seat": 2, "stock_size": 3}
    assert events(g, kind="shuffle_penalty")[0]["points"] == 5 and g.scores == [0, 0, 5]
    v = g.view(None)
    assert v["discard_top"] == "6S" and v["discard_size"] == 1 and v["active_suit"] == "S" and v["stock_size"] == 2
    assert sorted(g.stock + [c for c in g.hands[2] if c not in parse_cards("KD QH")]) == sorted(
        parse_cards("4C JD 9H"))
    # later: P1's 1st and 2nd penalties cost 5 and 10, the 3rd (in hand 9) 20; P2's 2nd would cost 10
    costs: list[int] = []
    for hand_no in (3, 3, 9):
        g = position(3, 1, {1: "KD", 0: "AS 2S", 2: "AH 2H"}, "4C 6S", rest=False, hand_no=hand_no)
        g.shuf_k = [0, len(costs), 1]
        g.apply(1, "draw")
        costs.append(events(g, kind="shuffle_penalty")[0]["points"])
    assert costs == [5, 10, 20]
    g = position(3, 2, {2: "KD", 0: "AS 2S", 1: "AH 2H"}, "4C 6S", rest=False)
    g.shuf_k = [0, 3, 1]
    g.apply(2, "draw")
    assert events(g, kind="shuffle_penalty")[0]["k"] == 2 and events(g, kind="shuffle_penalty")[0]["points"] == 10


def test_scn20_nothing_left_to_reshuffle() -> None:
    """CRAITS-SCN-20 (CRAITS-SHUF-3, CRAITS-OUT-5, CRAITS-SCORE-4, CRAITS-OUT-4)."""
    g = position(3, 1, {1: "KC 5S", 0: "JS 4D", 2: "3C 10S"}, "QH", rest=False)
    g.shuf_k[1] = 1
    g.totals[1] = 5
    g.apply(1, "draw")
    pen = events(g, kind="shuffle_penalty")[0]
    this_hand = g.log[:next(i for i, e in enumerate(g.log) if e["type"] == "hand_end")]  # the next deal may draw
    assert pen["points"] == 10 and pen["k"] == 2 and not [e for e in this_hand if e["type"] == "draw"]
    end = events(g, kind="hand_end")[0]
    assert end["why"] == "stock" and end["hand_scores"] == [25, 40, 3] and g.scores[1] - 5 == 50


# ---------------------------------------------------------------- SCN-21 … SCN-28

def test_scn21_new_count_straight_after_a_count() -> None:
    """CRAITS-SCN-21 (CRAITS-COUNT-4, CRAITS-COUNT-5, CRAITS-PLAY-1)."""
    # stacked hand 7 dealt by P2: the upcard 2D starts a count that P0 (L1) picks up
    g = stacked(3, 2, {0: "QC QD", 1: "2C KS", 2: "AS 7H"}, "2D", "4C 4H")
    g.apply(0, "draw")
    assert events(g, kind="count_end")[0]["seat"] == 0 and g.view(None)["active_suit"] == "D"
    assert g.legal_actions(1) == ["play 2C", "play 2C one"]
    g.apply(1, "play 2C one")
    assert g.view(None)["count"] == 2 and g.legal_actions(2) == ["play AS", "play AS one"]
    g = stacked(3, 2, {0: "QC QD JC", 1: "2C KS 8S", 2: "AS 7H JH"}, "2D", "4C 4H")
    g.apply(0, "draw")
    assert "play 8S suit D" in g.legal_actions(1)
    g.apply(1, "play 8S suit D")
    assert g.view(None)["count"] is None and "play AS" not in g.legal_actions(2)


def _hand_deck(players: int, dealer: int, size: int, upcard: str, direction: int = 1) -> list[str]:
    pool = [c for c in (f"{r}{s}" for r in ("A", "3", "5", "7", "J", "Q", "K", "4", "10") for s in "SHDC")
            if c != upcard]
    hands = {s: " ".join(pool[s * size:(s + 1) * size]) for s in range(players)}
    return deck_for(players, dealer, hands, upcard, direction=direction)


@pytest.mark.parametrize("follow", [False, True])
def test_scn22_dealer_follows_direction(follow: bool) -> None:
    """CRAITS-SCN-22 (CRAITS-VAR-DIRDEAL, CRAITS-DEALER-2, CRAITS-AMB-20)."""
    opts = {"dealer_follows_direction": True} if follow else {}
    new_dealer = 3 if follow else 1
    d = -1 if follow else 1
    deck2 = _hand_deck(4, new_dealer, 7, "3H", direction=d)
    g = feltroom.new_game("craits", players=4, seed=2, options={"first_dealer": 0, **opts}, deck=[[], deck2])
    g2 = position(4, 1, {1: "KC", 2: "AS 2S", 3: "AH 2H", 0: "AD 2D"}, "QC", direction=-1, options=opts)
    g2._stacks = g._stacks
    g2.apply(1, "play KC one")
    start = events(g2, kind="hand_start")[0]
    assert start["dealer"] == new_dealer and start["direction"] == ("ccw" if follow else "cw")
    first_cards = deck2[0]
    assert first_cards in g2.view(2)["hand"]  # the deal starts with P2 either way
    assert deck2[1] in g2.view(1 if follow else 3)["hand"]
    assert g2.to_act == (2,)
    if follow:  # hand 2 ends CW: hand 3 is dealt by P0 and starts with P1, CW
        deck3 = _hand_deck(4, 0, 6, "3H")
        g3 = position(4, 1, {1: "KC", 2: "AS 2S", 3: "AH 2H", 0: "AD 2D"}, "QC", direction=1, dealer=3,
                      options=opts, hand_no=2)
        g3._stacks = [[], [], parse_cards(deck3)]
        g3.apply(1, "play KC one")
        start = events(g3, kind="hand_start")[0]
        assert start["dealer"] == 0 and start["direction"] == "cw" and g3.to_act == (1,)
        assert deck3[0] in g3.view(1)["hand"]


def test_scn23_chain_of_jacks() -> None:
    """CRAITS-SCN-23 (CRAITS-VAR-FACES-J, CRAITS-AMB-21)."""
    opts = {"face_card_functions": True}
    hands = {1: "JH JD 4S KC", 2: "AC", 3: "JS KD AH", 0: "AD"}
    g = position(4, 1, hands, "5H", options=opts)

    def sizes() -> list[int]:
        return list(g.view(None)["hand_sizes"])

    g.apply(1, "play JH")
    assert g.view(None)["jack_streak"] == 1 and sizes()[2] == 3 and g.to_act == (3,)
    assert events(g, kind="skip")[-1] == {"type": "skip", "to": "all", "seat": 2, "why": "jack"}
    g.apply(3, "play JS")
    assert g.view(None)["jack_streak"] == 2 and sizes()[0] == 5 and g.to_act == (1,)
    g.apply(1, "play JD")
    assert g.view(None)["jack_streak"] == 3 and sizes()[2] == 9 and g.to_act == (3,)
    # instead, a non-jack at step 3 resets the streak (4S: a 4D would not match JS)
    g = position(4, 1, hands, "5H", options=opts)
    g.apply(1, "play JH")
    g.apply(3, "play JS")
    g.apply(1, "play 4S")
    assert g.view(None)["jack_streak"] == 0


def test_scn24_queen_of_spades() -> None:
    """CRAITS-SCN-24 (CRAITS-VAR-FACES-QS)."""
    g = position(3, 1, {1: "QS KC KH", 2: "AC", 0: "QH KD"}, "7S", options={"face_card_functions": True})
    g.apply(1, "play QS")
    assert g.view(None)["hand_sizes"][2] == 6 and g.to_act == (0,)
    assert events(g, kind="draw")[-1]["why"] == "queen_spades"
    g.apply(0, "play QH")
    assert g.to_act == (1,) and g.view(None)["hand_sizes"] == [1, 2, 6]


def test_scn25_king_run() -> None:
    """CRAITS-SCN-25 (CRAITS-VAR-FACES-K, CRAITS-COUNT-1, CRAITS-ONE-1, CRAITS-AMB-22)."""
    opts = {"face_card_functions": True}
    g = position(3, 1, {1: "KH 5H 8C 2C 6D", 2: "AS 7H", 0: "QC QD"}, "4H", options=opts)
    g.apply(1, "play KH")
    assert g.to_act == (1,) and g.view(None)["run"] == 1
    n = len(g.log)
    g.apply(1, "play 5H")
    assert not events(g, n, "draw") and g.view(None)["run"] == 2
    assert "play 8C suit D" in g.legal_actions(1)
    g.apply(1, "play 8C")
    assert g.view(None)["active_suit"] == "C" and g.view(None)["run"] == 3
    assert g.legal_actions(1) == ["play 2C", "play 2C one"]
    g.apply(1, "play 2C one")
    assert g.view(None)["count"] == 2 and g.to_act == (2,) and hand(g, 1) == srt("6D") and not events(g, kind="idiot")
    assert [e["run"] for e in events(g, kind="play")] == [None, 1, 2, 3]
    g = position(3, 1, {1: "KH 5H 7S", 2: "AS 7H", 0: "JC JD"}, "4H", "QC", options=opts)
    g.apply(1, "play KH")
    g.apply(1, "play 5H")
    assert g.legal_actions(1) == ["draw"]
    g.apply(1, "draw")
    assert hand(g, 1) == srt("7S QC") and g.to_act == (2,) and g.view(None)["run"] is None


def test_scn26_four_with_two_players() -> None:
    """CRAITS-SCN-26 (CRAITS-CARD-4, CRAITS-PLAY-3)."""
    # hand 6 dealt by P1 from a stacked deck; the upcard 9S keeps its suit (the dealer's choice), then P0 plays
    g = stacked(2, 1, {0: "4S 4D KC", 1: "AH AD QH"}, "9S", "7H")
    g.apply(1, "suit S")
    assert g.view(None)["discard_top"] == "9S" and g.view(None)["active_suit"] == "S" and g.to_act == (0,)
    g.apply(0, "play 4S")
    assert g.to_act == (0,)
    g.apply(0, "play 4D one")
    assert g.to_act == (0,) and g.legal_actions(0) == ["draw"]
    g.apply(0, "draw")
    assert g.to_act == (1,) and hand(g, 0) == srt("7H KC")


@pytest.mark.parametrize("short", [False, True])
def test_scn27_end_of_the_game_with_a_tie(short: bool) -> None:
    """CRAITS-SCN-27 (CRAITS-END-1, CRAITS-END-2, CRAITS-SHUF-2, CRAITS-AMB-19)."""
    last = 8 if short else 15
    g = position(3, 1, {1: "KC", 0: "JS", 2: "KS"}, "QC", options={"short_game": short}, hand_no=last)
    g.totals = [202, 198, 188]
    g.apply(1, "play KC one")
    assert g.is_over and g.scores == [212, 198, 198] and g.winners == [1, 2]
    assert events(g)[-1] == {"type": "game_end", "to": "all", "scores": [212, 198, 198], "winners": [1, 2]}
    assert g.to_act == () and g.legal_actions(1) == [] and g.view(0)["phase"] == "over"


def test_scn28_turn_timer() -> None:
    """CRAITS-SCN-28 (CRAITS-ONL-1, CRAITS-ONL-2)."""
    opts = {"turn_time": 30}
    g = position(3, 1, {1: "7H KD", 2: "AC", 0: "AD"}, "7S", "QC 4H 5D", options=opts)
    assert g.legal_actions(CLOCK) == ["timeout"]
    n = len(g.log)
    g.apply(CLOCK, "timeout")
    assert hand(g, 1) == srt("7H QC KD") and g.to_act == (2,)
    assert events(g, n)[0] == {"type": "timeout", "to": "all", "seats": [1]}
    assert events(g, n)[-1] == {"type": "timer", "to": "all", "action": "timeout", "seconds": 30, "seat": 2}
    assert g.actions[-1] == [CLOCK, "timeout"]
    # (b) in the count: the count value is drawn instead of playing AS
    g = position(3, 1, {1: "AS 7H", 2: "KC", 0: "AD"}, "2C AC", "QC 4H 5D", options=opts, count=3)
    g.apply(CLOCK, "timeout")
    assert hand(g, 1) == srt("AS 4H 5D 7H QC") and g.count == 0 and g.to_act == (2,) and not events(g, kind="hand_end")
    # (c) an 8 upcard with no suit chosen keeps D
    g = stacked(3, 0, {1: "KS QS", 2: "KC QC", 0: "KH QH"}, "8D", options=opts)
    assert g.view(0)["phase"] == "suit" and g.legal_actions(CLOCK) == ["timeout"]
    g.apply(CLOCK, "timeout")
    assert g.view(None)["active_suit"] == "D" and g.to_act == (1,)
