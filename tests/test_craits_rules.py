"""Craits rules, one test (or more) per rule ID of rules/craits.md, and the notation contract.

The worked scenarios are in test_craits_scenarios.py; they cite their own rule IDs too.
"""

from __future__ import annotations

import json

import pytest

import feltroom
from feltroom import CLOCK, IllegalAction, InvalidAction
from feltroom.cards import parse_cards
from feltroom.game import Game
from feltroom.games.craits import POINTS, choose_dealer, hand_size, score_hand

from .craits_helpers import events, hand, position, srt, stacked


def rule_of(game: Game, seat: int | str, action: str) -> str:
    with pytest.raises(IllegalAction) as e:
        game.apply(CLOCK if seat == CLOCK else seat, action)  # type: ignore[arg-type]
    return e.value.rule


# ---------------------------------------------------------------- §1–4 setup, dealer, deal, upcard

@pytest.mark.parametrize(("players", "options", "size"), [
    (2, {}, 52), (5, {}, 52), (6, {}, 104), (6, {"decks": 1}, 52), (7, {}, 104), (10, {}, 104),
    (2, {"remove_kq_small": True}, 44), (3, {"remove_kq_small": True}, 44), (4, {"remove_kq_small": True}, 52)])
def test_setup1_packs(players: int, options: dict[str, object], size: int) -> None:
    """CRAITS-SETUP-1, CRAITS-AMB-1 (one deck optional at 6), CRAITS-VAR-NOKQ (44 cards with 2–3 players only)."""
    game = feltroom.new_game("craits", players=players, seed=1, options=options)
    assert len(game.pack()) == size and sorted(game.audit_cards()) == sorted(game.pack())
    if options.get("remove_kq_small") and players <= 3:
        assert not any(c // 4 + 1 in (12, 13) for c in game.pack())


@pytest.mark.parametrize(("players", "decks"), [(2, 2), (5, 2), (7, 1), (10, 1)])
def test_setup1_decks_only_six_may_choose(players: int, decks: int) -> None:
    """CRAITS-SETUP-1: only 6 players choose the number of decks."""
    with pytest.raises(ValueError, match="decks"):
        feltroom.new_game("craits", players=players, seed=1, options={"decks": decks})


def test_setup1_player_range_and_duplicates() -> None:
    """CRAITS-SETUP-1: 2–10 players; with two decks identical duplicates are dealt and played."""
    for bad in (1, 11):
        with pytest.raises(ValueError):
            feltroom.new_game("craits", players=bad, seed=1)
    g = stacked(7, 0, {1: "AS AS", 2: "QD QH", 3: "QD QH", 4: "JD JH", 5: "JD JH", 6: "KD KH", 0: "KD KH"}, "3S")
    assert g.view(1)["hand"] == ["AS", "AS"] and g.legal_actions(1) == ["play AS", "play AS one"]


def test_setup2_ace_high_cut() -> None:
    """CRAITS-SETUP-2, CRAITS-AMB-2: A K Q … 3 2, the 2 lowest; ties redraw."""
    order = iter(parse_cards("AS KS"))
    assert choose_dealer(2, lambda: next(order))[1] == 1
    order = iter(parse_cards("3S 2S"))
    assert choose_dealer(2, lambda: next(order))[1] == 1
    order = iter(parse_cards("9S 9H 5C AD"))
    draws, dealer = choose_dealer(2, lambda: next(order))
    assert dealer == 0 and len(draws) == 2


def test_dealer1_cut_is_seeded_and_first_dealer_option_skips_it() -> None:
    """CRAITS-DEALER-1: the cut is deterministic with the seed; a stacked deck never affects it."""
    a = feltroom.new_game("craits", players=5, seed=77)
    b = feltroom.new_game("craits", players=5, seed=77, deck=["AS", "2S"])
    assert a.log[0] == b.log[0] and a.log[0]["type"] == "cut"
    c = feltroom.new_game("craits", players=5, seed=77, options={"first_dealer": 3})
    assert c.log[0]["type"] == "hand_start" and c.log[0]["dealer"] == 3


def test_game1_dealer2_deal1_hand_sizes_rotation() -> None:
    """CRAITS-GAME-1, CRAITS-DEALER-2, CRAITS-AMB-3, CRAITS-DEAL-1, CRAITS-DEAL-2, CRAITS-DEAL-3:
    N(h), dealer to the left, deal and stock."""
    assert [hand_size(h) for h in range(1, 16)] == [8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8]
    names = [n for n in feltroom.cards.NAMES if n != "3H"][:32]
    g = feltroom.new_game("craits", players=4, seed=3, options={"first_dealer": 2}, deck=[*names, "3H"])
    assert set(g.view(3)["hand"]) == set(names[0::4])  # one card at a time from the dealer's left
    v = g.view(None)
    assert v["hand_sizes"] == [8, 8, 8, 8] and v["stock_size"] == 52 - 32 - 1 and v["discard_size"] == 1
    assert v["direction"] == "cw"
    start = g.log[0]
    assert start == {"type": "hand_start", "to": "all", "hand": 1, "dealer": 2, "cards": 8, "direction": "cw",
                     "sizes": [8, 8, 8, 8]}
    # the reveal of each deal goes to its seat alone
    reveals = [e for e in g.log if e["type"] == "reveal"]
    assert [e["to"] for e in reveals] == [[0], [1], [2], [3]] and all(e["why"] == "deal" for e in reveals)


def test_deal3_first_turn_and_direction_reset_each_hand() -> None:
    """CRAITS-DEAL-3: each hand starts CW (without DIRDEAL) with the dealer's left neighbour."""
    g = position(4, 1, {1: "KC", 2: "AS 2S", 3: "AH 2H", 0: "AD 2D"}, "QC", direction=-1)
    g._stacks = [[], parse_cards("AS AH AD AC 2S 2H 2D 2C 4S 4H 4D 4C 5S 5H 5D 5C 6S 6H 6D 6C 7S 7H 7D 7C "
                                 "10S 10H 10D 10C 3H")]
    g.apply(1, "play KC one")
    assert g.view(None)["direction"] == "cw" and g.dealer == 1 and g.to_act == (2,)


@pytest.mark.parametrize("up", ["AS", "3S", "JS", "QS", "KS"])
def test_up2_plain_upcards(up: str) -> None:
    """CRAITS-UP-2 row A/3/J/Q/K, CRAITS-CARD-A, CRAITS-CARD-3, CRAITS-CARD-JQK: no effect, L1 plays."""
    g = stacked(3, 0, {1: "4H 5H", 2: "4D 5D", 0: "4C 5C"}, up, "7H")
    assert g.to_act == (1,) and not events(g, kind="draw") and not events(g, kind="skip")
    assert g.view(None)["count"] is None and g.view(None)["hand_sizes"] == [2, 2, 2]


def test_up1_up3_upcard_is_played_by_the_dealer() -> None:
    """CRAITS-UP-1, CRAITS-UP-3, CRAITS-AMB-4: the upcard's function acts for the dealer; the dealer's hand
    is not reduced and no one-card check is made."""
    g = stacked(3, 0, {1: "4H 5H", 2: "4D 5D", 0: "4C 5C"}, "5S", "7H 7D")
    assert [e["seat"] for e in events(g, kind="draw")] == [1, 2]  # everyone except the dealer
    assert g.view(None)["hand_sizes"] == [2, 3, 3] and not events(g, kind="idiot")
    g = stacked(2, 0, {1: "4H", 0: "4C"}, "7S", "7H")  # hand 8: the dealer holds 1 card, no "one" owed
    assert g.view(None)["hand_sizes"] == [1, 2] and g.view(None)["penalties"] == []


def test_up2_seven_upcard_victims() -> None:
    """CRAITS-UP-2 row 7: L2 draws with 4+ players, L1 with 2–3."""
    g = stacked(4, 0, {1: "4H 5H", 2: "4D 5D", 3: "4S 5S", 0: "4C 5C"}, "7S", "7H")
    assert [e["seat"] for e in events(g, kind="draw")] == [2] and g.to_act == (1,)
    g = stacked(3, 0, {1: "4H 5H", 2: "4D 5D", 0: "4C 5C"}, "7S", "7H")
    assert [e["seat"] for e in events(g, kind="draw")] == [1] and g.to_act == (1,)


@pytest.mark.parametrize(("up", "suits"), [("8D", ["S", "H", "D", "C"]), ("9S", ["S", "C"]), ("9H", ["H", "D"])])
def test_up2_eight_and_nine_upcards_prompt_the_dealer(up: str, suits: list[str]) -> None:
    """CRAITS-UP-2 rows 8/9, CRAITS-UP-3 (rejections), CRAITS-CARD-8, CRAITS-CARD-9."""
    g = stacked(3, 0, {1: "4H 5H", 2: "4D 5D", 0: "4C 5C"}, up)
    v = g.view(0)
    assert v["phase"] == "suit" and g.to_act == (0,) and g.legal_actions(0) == [f"suit {s}" for s in suits]
    assert rule_of(g, 1, "suit H") == "CRAITS-PLAY-6"
    assert rule_of(g, 0, "play 4C") == "CRAITS-UP-3"
    if up[0] == "9":
        other = {"S": "H", "H": "S"}[up[1]]
        assert rule_of(g, 0, f"suit {other}") == "CRAITS-CARD-9"
    g.apply(0, f"suit {suits[-1]}")
    assert g.view(None)["active_suit"] == suits[-1] and g.to_act == (1,)
    assert events(g, kind="suit")[0] == {"type": "suit", "to": "all", "seat": 0, "suit": suits[-1]}
    assert rule_of(g, 1, "suit S") == "CRAITS-UP-3"


def test_up2_two_upcard_starts_count_and_six_upcard() -> None:
    """CRAITS-UP-2 rows 2 and 6."""
    g = stacked(3, 0, {1: "4H AS", 2: "4D 5D", 0: "4C 5C"}, "2C")
    assert g.view(None)["count"] == 2 and g.legal_actions(1) == ["play AS", "play AS one"]
    g = stacked(3, 0, {1: "4H AS", 2: "4D 5D", 0: "4C 5C"}, "6C")
    assert g.to_act == (0,) and g.legal_actions(0) == ["play 4C", "play 4C one", "play 5C", "play 5C one"]
    g.apply(0, "play 4C one")  # resolves normally: a 4 skips L1
    assert g.to_act == (2,)


# ---------------------------------------------------------------- §5 normal play

def test_play1_legal_cards() -> None:
    """CRAITS-PLAY-1: same rank, active suit, or an 8/9."""
    g = position(3, 1, {1: "5C 5H 7H 8S 9D KS", 2: "AC", 0: "AD"}, "5D", active="H")
    assert g.legal_actions(1) == ["play 5H", "play 5C", "play 7H", "play 8S", "play 8S suit H", "play 8S suit D",
                                  "play 8S suit C", "play 9D", "play 9D suit H"]
    assert rule_of(g, 1, "play KS") == "CRAITS-PLAY-1"


def test_play2_play3_draw_only_when_stuck_and_drawn_card_not_played() -> None:
    """CRAITS-PLAY-2, CRAITS-PLAY-3, CRAITS-AMB-5, CRAITS-AMB-6."""
    g = position(3, 1, {1: "5H KS", 2: "AC QS", 0: "AD"}, "7H", "7S")
    assert rule_of(g, 1, "draw") == "CRAITS-PLAY-2"
    assert rule_of(g, 1, "play 2C") == "CRAITS-PLAY-2"  # not held
    g = position(3, 1, {1: "5D KS", 2: "AC QS", 0: "AD"}, "7H", "7S")
    assert g.legal_actions(1) == ["draw"]
    g.apply(1, "draw")
    assert hand(g, 1) == srt("5D 7S KS") and g.to_act == (2,)  # 7S would match, but the turn is over
    assert events(g, kind="draw")[0] == {"type": "draw", "to": "all", "seat": 1, "n": 1, "why": "turn"}


def test_play4_play5_active_suit_and_order_of_steps() -> None:
    """CRAITS-PLAY-4 (the played card's suit), CRAITS-PLAY-5 (play → one-card check → function → end check)."""
    g = position(3, 1, {1: "7H KS", 2: "AC QS", 0: "AD JD"}, "7D", "2S 3S")
    g.apply(1, "play 7H")
    kinds = [e["type"] for e in g.log]
    assert kinds[:3] == ["play", "idiot", "draw"] and g.view(None)["active_suit"] == "H"
    g = position(3, 1, {1: "7H", 2: "AC QS", 0: "AD JD"}, "7D", "2S 3S")
    g.apply(1, "play 7H")
    assert [e["type"] for e in g.log][:4] == ["play", "draw", "reveal", "hand_end"]  # CRAITS-OUT-1, CRAITS-OUT-2


def test_play6_turn_order_and_out_of_turn() -> None:
    """CRAITS-PLAY-6: next player in the direction; out of turn is rejected."""
    g = position(4, 1, {1: "KH AH", 2: "QH AC", 3: "JH AD", 0: "AS 2S"}, "3H")
    assert rule_of(g, 2, "play QH") == "CRAITS-PLAY-6"
    assert rule_of(g, CLOCK, "play KH") == "CRAITS-PLAY-6"
    g.apply(1, "play KH")
    assert g.to_act == (2,) and g.legal_actions(1) == []


def test_play7_card10_direction() -> None:
    """CRAITS-PLAY-7, CRAITS-CARD-10: only a 10 reverses; with 2 players the other still plays."""
    g = position(4, 1, {1: "10H AH KH", 2: "QH AC", 3: "JH AD", 0: "AS 2S"}, "3H")
    g.apply(1, "play 10H")
    assert g.view(None)["direction"] == "ccw" and g.to_act == (0,)
    assert events(g, kind="direction")[0]["direction"] == "ccw"
    g = position(2, 1, {1: "10H AH KH", 0: "AS 2S"}, "3H")
    g.apply(1, "play 10H")
    assert g.to_act == (0,) and g.view(None)["direction"] == "ccw"


def test_play8_sizes_public_cards_private() -> None:
    """CRAITS-PLAY-8: unlimited hands; everyone sees sizes, only the owner the cards."""
    g = feltroom.new_game("craits", players=3, seed=9)
    for seat in (0, 1, 2, None):
        v = g.view(seat)
        assert v["hand_sizes"] == [8, 8, 8]
        text = json.dumps(v)
        for other in range(3):
            if other != seat:
                mine = set(g.view(other)["hand"])
                assert not any(f'"{c}"' in text for c in mine - (set(v.get("hand", [])) | {v["discard_top"]}))
    assert "hand" not in g.view(None) and "stock" not in g.view(0)


# ---------------------------------------------------------------- §6 card functions

def test_card4_skip_and_card5_all_others_draw() -> None:
    """CRAITS-CARD-4, CRAITS-CARD-5, CRAITS-AMB-7."""
    g = position(4, 1, {1: "4H KH", 2: "QH AC", 3: "JH AD", 0: "AS 2S"}, "3H")
    g.apply(1, "play 4H")
    assert g.to_act == (3,) and events(g, kind="skip")[0] == {"type": "skip", "to": "all", "seat": 2, "why": "four"}
    g = position(5, 1, {1: "5H KH", 2: "QH AC", 3: "JH AD", 4: "JC JS", 0: "AS 2S"}, "3H")
    g.apply(1, "play 5H")
    assert [e["seat"] for e in events(g, kind="draw")] == [2, 3, 4, 0] and g.to_act == (2,)
    assert all(e["why"] == "five" for e in events(g, kind="draw"))


def test_card6_extra_play_and_card7_victim() -> None:
    """CRAITS-CARD-6 (the extra play may be any legal card, and its function resolves), CRAITS-CARD-7."""
    g = position(4, 1, {1: "6H 4H KS", 2: "QH AC", 3: "JH AD", 0: "AS 2S"}, "3H")
    g.apply(1, "play 6H")
    assert g.view(1)["six"] and g.to_act == (1,)
    g.apply(1, "play 4H")
    assert g.to_act == (3,) and not g.view(1)["six"]
    g = position(4, 1, {1: "7H KS", 2: "QH AC", 3: "JH AD", 0: "AS 2S"}, "3H")
    g.apply(1, "play 7H")
    assert [e["seat"] for e in events(g, kind="draw")] == [3] and g.to_act == (2,)


def test_card8_card9_suit_forms() -> None:
    """CRAITS-CARD-8 (any suit, own by default), CRAITS-CARD-9 (own colour only), CRAITS-AMB-9, CRAITS-AMB-10."""
    g = position(3, 1, {1: "8H 9C KS", 2: "QH AC", 0: "AD JD"}, "3D")
    legal = g.legal_actions(1)
    assert [a for a in legal if "8H" in a] == ["play 8H", "play 8H suit S", "play 8H suit D", "play 8H suit C"]
    assert [a for a in legal if "9C" in a] == ["play 9C", "play 9C suit S"]
    assert g.canonical(1, "play 8h SUIT h") == "play 8H" and g.canonical(1, "play 9c suit ♠") == "play 9C suit S"
    assert rule_of(g, 1, "play 9C suit D") == "CRAITS-CARD-9"
    g.apply(1, "play 8H")
    assert g.view(None)["active_suit"] == "H"


def test_card_jqk_no_function_in_base_game() -> None:
    """CRAITS-CARD-JQK: jacks and the queen of spades do nothing without the face-card variant."""
    g = position(3, 1, {1: "JS QS KC", 2: "QH AC", 0: "AD JD"}, "3S")
    g.apply(1, "play JS")
    assert g.to_act == (2,) and not events(g, kind="draw") and g.view(None)["jack_streak"] == 0


# ---------------------------------------------------------------- §7 the count

def test_count2_only_aces_and_twos_any_suit() -> None:
    """CRAITS-COUNT-2, CRAITS-AMB-11: no 8/9 in the count, any suit, must answer when able."""
    g = position(3, 1, {1: "AS 2H 8D 9C KD", 2: "QH AC", 0: "AD JD"}, "2D", count=2)
    assert g.legal_actions(1) == ["play AS", "play 2H"]
    assert rule_of(g, 1, "play 8D") == "CRAITS-COUNT-2" and rule_of(g, 1, "draw") == "CRAITS-COUNT-2"
    assert rule_of(g, 1, "play 9C suit S") == "CRAITS-COUNT-2"


def test_count3_count4_values_and_pickup_by_empty_hand() -> None:
    """CRAITS-CARD-2, CRAITS-COUNT-1, CRAITS-COUNT-3 (A +1, 2 +2),
    CRAITS-COUNT-4 (draw the value, next plays on the last card)."""
    g = position(3, 1, {1: "2H KD QD", 2: "AC QS JS", 0: "2S 7D 7C"}, "9H", "3C 3D 3H 3S 4C 4D 4H")
    g.apply(1, "play 2H")
    g.apply(2, "play AC")
    g.apply(0, "play 2S")
    assert [e["value"] for e in events(g, kind="count")] == [2, 3, 5]
    g.apply(1, "draw")
    assert len(g.hands[1]) == 7 and g.to_act == (2,) and g.view(None)["active_suit"] == "S"
    assert events(g, kind="draw")[-1]["n"] == 5 and events(g, kind="draw")[-1]["why"] == "count"
    assert g.legal_actions(2) == ["play JS", "play JS one", "play QS", "play QS one"]


def test_count5_ace_in_normal_play_does_nothing() -> None:
    """CRAITS-COUNT-5: an ace outside the count starts nothing."""
    g = position(3, 1, {1: "AH KH", 2: "QH AC", 0: "AD JD"}, "3H")
    g.apply(1, "play AH")
    assert g.view(None)["count"] is None and "play QH" in g.legal_actions(2)


def test_count6_one_card_rule_and_penalty_turn_in_the_count() -> None:
    """CRAITS-COUNT-6, CRAITS-ONE-4: the flag applies in the count; a penalty turn in the count draws 2 then
    the count value, and the count ends."""
    g = position(3, 1, {1: "AH 2H KH", 2: "2C QS", 0: "AD 5D 6D"}, "2D", "3C 3D 3H 3S 4C 4D 4H", count=2)
    g.apply(1, "play AH")  # count 3
    g.apply(2, "play 2C")  # P2 left with 1 card, no flag: penalty turn; count 5
    assert events(g, kind="idiot")[0] == {"type": "idiot", "to": "all", "seat": 2, "penalty": "turn"}
    g.apply(0, "play AD")  # count 6; P2's penalty turn comes in the count
    g.apply(1, "play 2H")  # count 8
    assert g.to_act == (0,) and len(g.hands[2]) == 1 + 2 + 8 and g.count == 0
    whys = [(e["seat"], e["why"], e["n"]) for e in events(g, kind="draw")]
    assert whys == [(2, "penalty", 2), (2, "count", 8)]
    assert events(g, kind="count_end")[0]["seat"] == 2


def test_count7_end_check_after_pickup() -> None:
    """CRAITS-COUNT-7: the hand ends when the count ends if someone went out since it began, else goes on."""
    g = position(3, 1, {1: "2D KD", 2: "5S QS", 0: "4H KS"}, "9D", "7C 8H 3D 3C")
    g.apply(1, "play 2D one")
    g.apply(2, "draw")
    assert not events(g, kind="hand_end") and g.to_act == (0,)


# ---------------------------------------------------------------- §8 one card

def test_one1_one5_flag_forms() -> None:
    """CRAITS-ONE-1 (both forms listed when a play leaves one card), CRAITS-ONE-5 (a flag elsewhere is dropped)."""
    g = position(3, 1, {1: "KH QH JH", 2: "QS AC", 0: "AD JD"}, "3H")
    assert "play KH one" not in g.legal_actions(1) and g.canonical(1, "play KH one") == "play KH"
    g.apply(1, "play KH one")
    assert events(g, kind="play")[0]["one"] is False and not events(g, kind="idiot")
    assert g.canonical(2, " PLAY  qs   One ") == "play QS one"


def test_one5_reaching_one_card_by_drawing_is_no_failure() -> None:
    """CRAITS-ONE-5: drawing from zero to one card triggers nothing (see also CRAITS-SCN-11)."""
    g = position(3, 1, {1: "6H", 2: "QS AC", 0: "AD JD"}, "3H", "5C")
    g.apply(1, "play 6H")
    g.apply(1, "draw")
    assert not events(g, kind="idiot") and g.view(None)["penalties"] == []


def test_one3_penalty_lapses_at_hand_end_and_one6_automatic() -> None:
    """CRAITS-ONE-3 (lapses with the hand), CRAITS-ONE-6 (no call needed), CRAITS-OUT-5, CRAITS-AMB-12."""
    g = position(3, 1, {1: "KH QS", 2: "QH", 0: "AD JD"}, "3H")
    g.apply(1, "play KH")
    assert g.view(None)["penalties"] == [1]
    g.apply(2, "play QH")  # P2 goes out: the hand ends
    assert events(g, kind="hand_end") and g.view(None)["penalties"] == [] and g.hand_no == 2


# ---------------------------------------------------------------- §9 going out

def test_out1_out2_function_before_the_end() -> None:
    """CRAITS-OUT-1, CRAITS-OUT-2: a last 7 makes its victim draw before the hand ends."""
    g = position(4, 1, {1: "7H", 2: "QH", 3: "QS", 0: "AD"}, "3H", "KC")
    g.apply(1, "play 7H")
    end = events(g, kind="hand_end")[0]
    assert end["hands"][3] == ["QS", "KC"] and end["why"] == "out" and end["went_out"] == [1]


def test_out3_out5_went_out_during_count_scores_zero_but_others_score() -> None:
    """CRAITS-OUT-3, CRAITS-OUT-5, CRAITS-SCORE-2: stays in the turn order, scores 0 with cards held."""
    g = position(3, 1, {1: "AH", 2: "KC 5S", 0: "4H 2S"}, "2D", "7C 8H 3D 3C", count=2)
    g.apply(1, "play AH")
    assert not events(g, kind="hand_end") and g.went_out == {1}
    g.apply(2, "draw")
    end = events(g, kind="hand_end")[0]
    assert end["why"] == "count" and end["went_out"] == [1] and end["hand_scores"][1] == 0


# ---------------------------------------------------------------- §10 shuffle penalty

def test_shuf4_multi_card_draw_can_pay_several_penalties() -> None:
    """CRAITS-SHUF-4, CRAITS-AMB-15: each card of a count pickup checks the stock."""
    g = position(3, 1, {1: "KD", 2: "QS", 0: "JS"}, "4C 5C 2D 2C", count=4, rest=False)
    g.apply(1, "draw")
    pens = events(g, kind="shuffle_penalty")
    assert [p["points"] for p in pens] == [5, 10] and pens[-1]["seat"] == 1
    assert events(g, kind="hand_end")[0]["why"] == "stock" and g.scores[1] == 15 + events(g, kind="hand_end")[0][
        "hand_scores"][1]


def test_shuf5_penalty_goes_to_the_forced_drawer() -> None:
    """CRAITS-SHUF-5: a 5 with an empty stock: the drawing opponent pays."""
    g = position(3, 1, {1: "5H KH", 2: "QS AS", 0: "JS AD"}, "4C 9C 3H", rest=False)
    g.apply(1, "play 5H")
    pens = events(g, kind="shuffle_penalty")
    assert [p["seat"] for p in pens] == [2] and g.scores == [0, 0, 5]


def test_shuf6_empty_stock_alone_triggers_nothing() -> None:
    """CRAITS-SHUF-6: taking the last stock card does not rebuild the stock."""
    g = position(3, 1, {1: "KD", 2: "QS AS", 0: "JS AD"}, "4C 9C 3H", "2C", rest=False)
    g.apply(1, "draw")
    assert g.stock == [] and not events(g, kind="reshuffle") and g.view(None)["discard_size"] == 3


def test_shuf2_counters_never_reset_over_a_game() -> None:
    """CRAITS-SHUF-2: 5 × 2^(k−1), per player, for the whole game; added to the score at once."""
    game = feltroom.new_game("craits", players=2, seed=11)
    import random
    rng = random.Random(3)
    seen: dict[int, list[int]] = {0: [], 1: []}
    while not game.is_over:
        seat = game.to_act[0]
        before = list(game.scores)
        n = len(game.log)
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        for e in game.log[n:]:
            if e["type"] == "shuffle_penalty":
                seen[e["seat"]].append(e["points"])
                assert e["points"] == 5 * 2 ** (e["k"] - 1) and e["k"] == len(seen[e["seat"]])
        hand_scores = [0, 0]
        for e in game.log[n:]:
            if e["type"] == "hand_end":
                hand_scores = [a + b for a, b in zip(hand_scores, e["hand_scores"], strict=True)]
        pen = [sum(e["points"] for e in game.log[n:] if e["type"] == "shuffle_penalty" and e["seat"] == s)
               for s in (0, 1)]
        assert game.scores == [before[s] + pen[s] + hand_scores[s] for s in (0, 1)]
    assert any(len(v) > 1 for v in seen.values())


# ---------------------------------------------------------------- §11–12 scoring and the end

def test_score1_card_points() -> None:
    """CRAITS-SCORE-1: the points table (a lone 3 is 'only threes', so it is checked with another card)."""
    table = {"A": 1, "2": 20, "4": 15, "5": 30, "6": 30, "7": 20, "8": 50, "9": 30, "10": 25, "J": 10, "Q": 10,
             "K": 10}
    for rank, pts in table.items():
        assert score_hand(parse_cards(f"{rank}S"))[0] == pts == POINTS[parse_cards(f"{rank}S")[0] // 4 + 1]
    assert score_hand(parse_cards("3S 8H"))[0] == 53


def test_score4_score6_never_three_on_three_and_ace_allowed_in_base() -> None:
    """CRAITS-SCORE-4, CRAITS-SCORE-6, CRAITS-AMB-16, CRAITS-AMB-17, CRAITS-AMB-18:
    threes cancel the highest eligible cards, never a
    three; in the base game an ace may be cancelled; spare threes score 3."""
    assert score_hand(parse_cards("3S 3H 3D AH")) == (9, parse_cards("AH"))
    assert score_hand(parse_cards("3S 3H 3D AH"), punitive=True)[0] == 1 + 300
    assert score_hand(parse_cards("3S 8H 8D"), eights=True) == (53, parse_cards("8H"))


def test_setup3_end2_lowest_wins() -> None:
    """CRAITS-SETUP-3, CRAITS-END-2: the lowest cumulative score wins."""
    g = position(3, 1, {1: "KC", 0: "JS", 2: "KS 5H"}, "QC", options={"short_game": True}, hand_no=8)
    g.totals = [100, 120, 90]
    g.apply(1, "play KC one")
    assert g.scores == [110, 120, 130] and g.winners == [0]


# ---------------------------------------------------------------- §13 variants

def test_var_short_ends_after_hand_eight() -> None:
    """CRAITS-VAR-SHORT, CRAITS-GAME-2, CRAITS-END-1."""
    g = position(3, 1, {1: "KC", 0: "JS", 2: "KS"}, "QC", options={"short_game": True}, hand_no=7)
    g.apply(1, "play KC one")
    assert not g.is_over and g.hand_no == 8
    g = position(3, 1, {1: "KC", 0: "JS", 2: "KS"}, "QC", hand_no=8)
    g.apply(1, "play KC one")
    assert not g.is_over and g.hand_no == 9


def test_var_onedeal_declarations() -> None:
    """CRAITS-VAR-ONEDEAL, CRAITS-ONE-5: a declaration phase after a one-card deal; undeclared seats are penalised
    when the CLOCK closes it; rejections."""
    opts = {"one_card_on_one_card_deal": True}
    g = stacked(3, 0, {1: "KH", 2: "QH", 0: "JH"}, "3H", "5C 6C", options=opts)
    v = g.view(1)
    assert v["phase"] == "declare" and v["discard_top"] is None and g.to_act == (0, 1, 2)
    assert g.legal_actions(1) == ["one"] and g.legal_actions(CLOCK) == ["close"]
    assert events(g, kind="timer")[-1] == {"type": "timer", "to": "all", "action": "close", "seconds": 5}
    assert rule_of(g, 1, "play KH") == "CRAITS-VAR-ONEDEAL"
    g.apply(1, "one")
    assert g.to_act == (0, 2) and g.view(None)["declared"] == [1]
    assert rule_of(g, 1, "one") == "CRAITS-VAR-ONEDEAL"
    g.apply(CLOCK, "close")
    assert [e["seat"] for e in events(g, kind="idiot")] == [0, 2] and g.view(None)["penalties"] == [0, 2]
    assert g.view(None)["discard_top"] == "3H" and g.to_act == (1,)
    assert rule_of(g, CLOCK, "close") == "CRAITS-VAR-ONEDEAL" and rule_of(g, 1, "one") == "CRAITS-VAR-ONEDEAL"
    g.apply(1, "play KH one")  # P1 goes out: the hand ends; the penalties lapse
    # all declare: the phase ends by itself; with idiot_card the undeclared draw at once
    g = stacked(2, 0, {1: "KH", 0: "JH"}, "3H", options=opts)
    g.apply(0, "one")
    g.apply(1, "one")
    assert g.view(None)["phase"] == "play" and not events(g, kind="idiot")
    g = stacked(2, 0, {1: "KH", 0: "JH"}, "3H", "5C", options={**opts, "idiot_card": True})
    g.apply(CLOCK, "close")
    assert g.view(None)["hand_sizes"] == [2, 2] and g.view(None)["penalties"] == []


def test_var_nokq_ignored_with_four() -> None:
    """CRAITS-VAR-NOKQ: points unchanged; a no-op with 4 players."""
    g = feltroom.new_game("craits", players=4, seed=1, options={"remove_kq_small": True})
    assert len(g.pack()) == 52
    assert score_hand(parse_cards("KS QS"))[0] == 20


def test_var_faces_upcards_and_count() -> None:
    """CRAITS-VAR-FACES (face upcards act; no face cards in the count), FACES-J/QS/K as upcards."""
    opts = {"face_card_functions": True}
    g = stacked(3, 0, {1: "4H 5H", 2: "4D 5D", 0: "4C 5C"}, "JS", "AS AH 2C 2D 7C", options=opts)
    assert g.view(None)["jack_streak"] == 1 and g.view(None)["hand_sizes"][1] == 4 and g.to_act == (2,)
    g = stacked(3, 0, {1: "4H 5H", 2: "4D 5D", 0: "4C 5C"}, "QS", "AS AH 2C 2D 7C", options=opts)
    assert g.view(None)["hand_sizes"][1] == 7 and g.to_act == (2,)
    g = stacked(3, 0, {1: "4H 5H", 2: "4D 5D", 0: "4C 5S"}, "KS", options=opts)
    assert g.to_act == (0,) and g.view(0)["run"] == 1 and g.legal_actions(0) == ["play 5S", "play 5S one"]
    g = position(3, 1, {1: "KD QD JD AD", 2: "4D", 0: "4C"}, "2D", count=2, options=opts)
    assert g.legal_actions(1) == ["play AD"]


def test_var_faces_k_run_goes_out_and_third_king() -> None:
    """CRAITS-VAR-FACES-K (d): going out in a run ends the hand; (b) a third-card king starts a new run."""
    opts = {"face_card_functions": True}
    g = position(3, 1, {1: "KH 5H", 2: "AS 7H", 0: "QC QD"}, "4H", options=opts)
    g.apply(1, "play KH one")
    g.apply(1, "play 5H")
    assert events(g, kind="hand_end")[0]["went_out"] == [1]
    g = position(3, 1, {1: "KH", 2: "AS 7H", 0: "QC QD"}, "4H", options=opts)  # a king as the last card
    g.apply(1, "play KH")
    assert events(g, kind="hand_end")[0]["went_out"] == [1] and events(g, kind="hand_end")[0]["why"] == "out"
    g = position(3, 1, {1: "KH 5H 5D KD 7D 2S", 2: "AS 7H", 0: "QC QD"}, "4H", options=opts)
    for a in ("play KH", "play 5H", "play 5D", "play KD"):
        g.apply(1, a)
    assert g.to_act == (1,) and g.view(None)["run"] == 1 and [e["run"] for e in events(g, kind="play")][-1] == 3
    assert rule_of(g, 1, "play 2S") == "CRAITS-VAR-FACES-K"
    assert g.legal_actions(1) == ["play 7D", "play 7D one"]


def test_var_faces_j_with_two_players_and_penalty_at_skip() -> None:
    """CRAITS-VAR-FACES-J with 2 players: P plays again; a pending penalty is paid after the jack's draw."""
    opts = {"face_card_functions": True}
    g = position(2, 0, {0: "JH KH QH", 1: "AS 7C"}, "4H", "2C 2D 2S 2H 3C", options=opts)
    g.apply(0, "play JH")
    assert g.to_act == (0,) and len(g.hands[1]) == 4
    g = position(3, 0, {0: "JH KH QH", 1: "AS", 2: "AD 4S"}, "4H", "2C 2D 2S 2H 3C", options=opts)
    g.penalties[1] = True
    g.apply(0, "play JH")
    assert [(e["why"], e["n"]) for e in events(g, kind="draw")] == [("jack", 2), ("penalty", 2)]
    assert g.to_act == (2,) and g.view(None)["penalties"] == []


def test_var_combinations_score_out10_punitive_three8() -> None:
    """CRAITS-VAR-OUT10 with CRAITS-VAR-PUNITIVE and CRAITS-VAR-THREE8 combined at a hand end."""
    opts = {"going_out_minus_10": True, "punitive_scoring": True, "threes_cancel_eights": True}
    g = position(3, 1, {1: "KC", 0: "3S 8D AH", 2: "3H 3D"}, "QC", options=opts)
    g.apply(1, "play KC one")
    assert events(g, kind="hand_end")[0]["hand_scores"] == [3 + 1, -10, -100]


# ---------------------------------------------------------------- §14 timer, notation, views

def test_onl1_timer_events_for_every_decision() -> None:
    """CRAITS-ONL-1, CRAITS-AMB-23: a timer for each decision (6 extra play, run steps, suit choice);
    none while declaring."""
    opts = {"turn_time": 45, "face_card_functions": True}
    g = position(3, 1, {1: "6H 5H KH 4H 7H", 2: "AS 7C", 0: "QC QD"}, "3H", options=opts)
    assert rule_of(g, 1, "timeout") == "CRAITS-ONL-1"
    for a in ("play 6H", "play KH", "play 5H"):
        n = len(g.log)
        g.apply(1, a)
        assert g.log[-1] == {"type": "timer", "to": "all", "action": "timeout", "seconds": 45, "seat": 1}
        assert g.legal_actions(CLOCK) == ["timeout"] and len(events(g, n, "timer")) == 1
    g.apply(CLOCK, "timeout")  # a King-run step: draw 1, run and turn end
    assert g.to_act == (2,) and g.view(None)["run"] is None and events(g, kind="timer")[-1]["seat"] == 2
    untimed = feltroom.new_game("craits", players=3, seed=1)
    assert untimed.legal_actions(CLOCK) == [] and rule_of(untimed, CLOCK, "timeout") == "CRAITS-ONL-1"
    opts2 = {"turn_time": 30, "one_card_on_one_card_deal": True}
    g = position(3, 1, {1: "KC", 0: "JS", 2: "KS"}, "QC", options=opts2, hand_no=7)
    g.timer_on = True
    g.apply(1, "play KC one")
    assert g.view(None)["phase"] == "declare" and g.legal_actions(CLOCK) == ["close"]
    assert events(g, kind="timer_stop") == [{"type": "timer_stop", "to": "all", "action": "timeout"}]


def test_onl2_timeout_never_flags_one() -> None:
    """CRAITS-ONL-2: a timeout draws even with a legal card and gives no one-card flag."""
    g = position(3, 1, {1: "KH 5S", 2: "AS 7C", 0: "QC QD"}, "3H", "2C", options={"turn_time": 60})
    g.apply(CLOCK, "timeout")
    assert not events(g, kind="play") and hand(g, 1) == srt("2C 5S KH") and not events(g, kind="idiot")


@pytest.mark.parametrize("junk", ["", "fly", "play", "play 1Z", "play 7S suit", "play 7S suit H", "play 8S suit X",
                                  "draw 2", "suit", "suit Q", "one two", "play 8S one one", "timeout now"])
def test_malformed_actions_are_invalid(junk: str) -> None:
    """notation.md §2.1/§2.2: malformed → InvalidAction, and nothing changes."""
    g = position(3, 1, {1: "7S 8S KH", 2: "AS 7C", 0: "QC QD"}, "3S")
    before = json.dumps([g.view(s) for s in (0, 1, 2, None)])
    with pytest.raises(InvalidAction):
        g.apply(1, junk)
    assert json.dumps([g.view(s) for s in (0, 1, 2, None)]) == before


def test_copy_is_independent() -> None:
    """Game.copy semantics: lists copied, events shared, RNG state copied."""
    g = feltroom.new_game("craits", players=4, seed=21)
    c = g.copy()
    seat = g.to_act[0]
    a = g.legal_actions(seat)[0]
    c.apply(seat, a)
    assert len(c.log) > len(g.log) and len(c.actions) == 1 and g.actions == []
    assert g.view(seat)["hand"] != c.view(seat)["hand"] or g.view(None) != c.view(None)
    g.apply(seat, a)
    assert g.view(None) == c.view(None) and g.log == c.log and g.rng.getstate() == c.rng.getstate()


def test_view_keys() -> None:
    """notation.md Craits View: every key, and no stock order."""
    g = feltroom.new_game("craits", players=3, seed=2)
    v = g.view(0)
    for key in ("phase", "hand_no", "cards_per_hand", "dealer", "turn", "hand", "hand_sizes", "stock_size",
                "discard_top", "discard_size", "active_suit", "direction", "count", "six", "run", "jack_streak",
                "penalties", "declared", "shuffle_penalties", "last_hand"):
        assert key in v
    assert "stock" not in v and "seed" not in json.dumps(v)


def test_view_last_hand_summary() -> None:
    """notation.md Craits View ``last_hand``: the previous hand_end without its type and to."""
    g = position(3, 1, {1: "KC", 0: "JS 3D", 2: "KS"}, "QC")
    g.apply(1, "play KC one")
    last = g.view(2)["last_hand"]
    assert last == {"hand": 1, "why": "out", "hands": [["3D", "JS"], [], ["KS"]], "went_out": [1],
                    "cancelled": [["JS"], [], []],
                    "hand_scores": [3, 0, 10], "scores": [3, 0, 10]}


def test_unknown_seats_have_no_actions() -> None:
    """notation.md §2.2: legal_actions is [] for unknown seats; apply rejects them."""
    g = position(3, 1, {1: "KC 5C", 0: "JS 3D", 2: "KS"}, "QC")
    for seat in (True, 1.0, "1", -1, 3, None):
        assert g.legal_actions(seat) == []  # type: ignore[arg-type]
    with pytest.raises(InvalidAction):
        g.apply(True, "play KC")
