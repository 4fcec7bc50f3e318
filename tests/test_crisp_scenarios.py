"""Every worked scenario of rules/crisp.md §11 (CRISP-SCN-1 … CRISP-SCN-18), from stacked decks."""

from __future__ import annotations

from typing import Any

import pytest

from feltroom import CLOCK, InvalidAction
from feltroom.games.crisp import Crisp

from .crisp_helpers import (
    act,
    deal_deck,
    deck_top,
    discard,
    filler,
    hands,
    new,
    of,
    round_deck,
    simple_round,
    strip,
    turn,
)
from .helpers import assert_rejected

SCN1_DECK = "5H KD 2C 9S AH 7D QC 3S 10H 4C JS"


def test_scn_1_deal_slots_first_peek_first_player() -> None:
    """CRISP-SCN-1: CRISP-DEAL-3/4/5/6/7, CRISP-VAL-1/2; CRISP-CONV-4 (the deck listed top card first)
    and CRISP-CONV-3 (hands written L/C/R)."""
    g = new(3, SCN1_DECK, dealer=0)
    # CRISP-DEAL-3, CRISP-DEAL-4: passes from the dealer's left, slots in deal order
    assert hands(g) == ["2C/7D/10H", "5H/9S/QC", "KD/AH/3S"]
    # CRISP-DEAL-5: 43 cards in the deck, top 4C, discard pile empty
    assert len(g.deck) == 43 and deck_top(g, 2) == ["4C", "JS"] and g.discard == []
    # CRISP-DEAL-6: L and R revealed to their owner only; nobody is shown a C card
    reveals = [(e["to"], e["cards"][0], e["slot"]) for e in of(g.log, "reveal")]
    assert reveals == [([1], "5H", "L"), ([1], "QC", "R"), ([2], "KD", "L"), ([2], "3S", "R"),
                       ([0], "2C", "L"), ([0], "10H", "R")]
    # CRISP-DEAL-7: P1 acts first, at once
    assert g.to_act == (1,) and g.legal_actions(1) == ["draw"]
    # CRISP-VAL-1, CRISP-VAL-2: KD counts 10, QC counts 10
    assert g.totals() == [19, 24, 14]


def test_scn_1_first_draw_timer_starts_at_the_deal() -> None:
    """CRISP-SCN-1 with a draw timer: CRISP-DEAL-6, CRISP-ONL-TIME-2."""
    g = new(3, SCN1_DECK, dealer=0, clock=True, draw_time=30)
    types = [e["type"] for e in g.log]
    assert types[-2:] == ["turn_start", "timer"]
    assert strip(g.log[-1]) == {"action": "timeout", "seconds": 30, "seat": 1}
    assert g.legal_actions(CLOCK) == ["timeout"] and g.to_act == (1,)


def test_scn_2_swap_then_a_drawn_jack() -> None:
    """CRISP-SCN-2: CRISP-TURN-4, CRISP-TURN-5, CRISP-SPEC-1, CRISP-SPEC-2, CRISP-SPEC-4."""
    g = new(3, SCN1_DECK, dealer=0)
    ev = act(g, "1 draw")
    assert of(ev, "reveal") == [{"type": "reveal", "to": [1], "seat": 1, "cards": ["4C"], "slot": None,
                                 "why": "draw"}]
    ev = act(g, "1 swap C")  # CRISP-TURN-5
    assert hands(g)[1] == "5H/4C/QC" and discard(g) == ["9S"] and g.totals()[1] == 19
    assert strip(of(ev, "swap")[0]) == {"seat": 1, "slot": "C", "out": "9S"}
    assert of(ev, "turn_end")[0]["seat"] == 1 and of(ev, "reveal") == []  # no new reveal (CRISP-AMB-6)
    act(g, "1 decline", "2 draw")
    assert_rejected(g, 2, "swap L", "CRISP-SPEC-1")
    alt = g.copy()
    ev = act(g, "2 jack")  # CRISP-SPEC-4
    assert [strip(e) for e in of(ev, "reveal")] == [{"seat": 2, "cards": ["AH"], "slot": "C", "why": "jack"}]
    assert of(ev, "reveal")[0]["to"] == [2]
    assert discard(g) == ["9S", "JS"] and hands(g)[2] == "KD/AH/3S"
    assert of(ev, "turn_end") and g.turn == 0
    # CRISP-SPEC-2: or simply discard the Jack: same piles, no reveal
    ev = act(alt, "2 discard")
    assert discard(alt) == ["9S", "JS"] and hands(alt)[2] == "KD/AH/3S" and of(ev, "reveal") == []


def test_scn_3_king_must_be_used_and_kings_chain() -> None:
    """CRISP-SCN-3: CRISP-SPEC-3, CRISP-SPEC-8, CRISP-SPEC-9, CRISP-SPEC-11, CRISP-TURN-7."""
    g = new(2, deal_deck(2, 1, {1: "5H 9S QC", 0: "2S 3S 4S"}, "4D KS 6H KC 2D 8S 7C"), dealer=1)
    turn(g, 0, "discard", decline=False)
    assert hands(g)[1] == "5H/9S/QC" and discard(g) == ["4D"]
    draws = 0
    act(g, "1 draw")
    draws += 1
    assert_rejected(g, 1, "discard", "CRISP-SPEC-3")
    assert_rejected(g, 1, "swap L", "CRISP-SPEC-1")
    ev = act(g, "1 king")  # step 1
    assert [discard(g), g.pending] == [["4D"], 2] and [c for c in g.view(0)["kings_in_use"]] == ["KS"]
    assert strip(of(ev, "king")[0]) == {"seat": 1, "card": "KS", "pending": 2}
    act(g, "1 draw", "1 swap L")  # step 2
    draws += 1
    assert discard(g) == ["4D", "5H"] and g.pending == 1
    act(g, "1 draw", "1 king")  # step 3
    draws += 1
    assert g.view(1)["kings_in_use"] == ["KS", "KC"] and g.pending == 2
    assert_rejected(g, 1, "crisp", "CRISP-CALL-1")  # CRISP-SPEC-11: no declaration between a King and its draws
    act(g, "1 draw", "1 swap R")  # step 4
    draws += 1
    assert discard(g) == ["4D", "5H", "QC"] and g.pending == 1
    ev = act(g, "1 draw", "1 discard")  # step 5
    draws += 1
    assert hands(g)[1] == "6H/9S/2D" and g.totals()[1] == 17
    assert discard(g) == ["4D", "5H", "QC", "8S", "KS", "KC"] and g.view(1)["kings_in_use"] == []
    assert deck_top(g) == ["7C"] and draws == 5  # 1 + 2×2 (CRISP-SPEC-9)
    # CRISP-TURN-7, CRISP-SPEC-11: the window opens only after the Kings went onto the pile
    types = [e["type"] for e in ev]
    assert types[types.index("turn_end"):] == ["turn_end", "window_open", "turn_start"]
    assert of(ev, "turn_end")[0]["kings"] == ["KS", "KC"]
    assert g.legal_actions(1) == ["crisp", "decline"]


SCN4 = {1: "5H 9S QC", 2: "KD AH 3S", 0: "2C 7D 10H"}


def test_scn_4_queen_swap_and_peek_rights() -> None:
    """CRISP-SCN-4: CRISP-SPEC-5, CRISP-SPEC-6, CRISP-SPEC-7."""
    g = new(3, deal_deck(3, 0, SCN4, "QH"), dealer=0)
    act(g, "1 draw")
    alt = g.copy()
    ev = act(g, "1 queen C 2 L")
    assert hands(g)[1:] == ["5H/KD/QC", "9S/AH/3S"] and discard(g)[-1] == "QH"
    assert strip(of(ev, "queen")[0]) == {"seat": 1, "card": "QH", "slot": "C", "target": 2, "target_slot": "L"}
    # 9S, never seen by P1, is revealed to P2; nothing to P1 (KD landed in C)
    assert [(e["to"], e["cards"]) for e in of(ev, "reveal")] == [([2], ["9S"])]
    ev = act(alt, "1 queen L 2 C")
    assert hands(alt)[1:] == ["AH/9S/QC", "KD/5H/3S"]
    assert [(e["to"], e["cards"], e["slot"]) for e in of(ev, "reveal")] == [([1], ["AH"], "L")]
    # CRISP-SPEC-7: own ↔ own is rejected; other ↔ other cannot even be written
    alt2 = new(3, deal_deck(3, 0, SCN4, "QH"), dealer=0)
    act(alt2, "1 draw")
    assert_rejected(alt2, 1, "queen L 1 R", "CRISP-SPEC-7")
    with pytest.raises(InvalidAction):
        alt2.apply(1, "queen 2 L 0 L")
    with pytest.raises(InvalidAction):
        alt2.apply(1, "queen L 2 L 0 L")


def scn5_game(last: str = "") -> tuple[Crisp, list[str]]:
    """3 players, dealer P0: KS sits in P0's L and is swapped out on P0's first turn."""
    hands_ = {1: "KH 5D 6D", 2: "KD 7D 8D", 0: "KS KC 9D"}
    top = "4C 9S AC 8H"
    used = " ".join(hands_.values()) + " " + top + " " + last
    rest = filler(used)
    deck = deal_deck(3, 0, hands_, f"{top} {rest} {last}".strip())
    return new(3, deck, dealer=0), (top + " " + rest).split()


def test_scn_5_deck_exhausted_discard_pile_turned_over() -> None:
    """CRISP-SCN-5: CRISP-DECK-1, CRISP-DECK-2, CRISP-DECK-3, CRISP-SPEC-8."""
    g, order = scn5_game()
    assert len(order) == 43
    turn(g, 1, "discard")
    turn(g, 2, "discard")
    turn(g, 0, "swap L")  # AC in, KS out
    while g.deck:
        turn(g, g.turn, "discard")
    assert discard(g)[:4] == ["4C", "9S", "KS", "8H"] and len(g.discard) == 43
    # CRISP-DECK-2: the deck being empty between turns triggered nothing
    assert g.turn == 2 and g.deck == [] and not of(g.log, "flip") and g.to_act == (2,)
    # CRISP-DECK-3: deck + discard + kings in use = 52 − 3n
    assert len(g.deck) + len(g.discard) + len(g.kings) == 52 - 9
    ev = act(g, "2 draw")
    assert strip(of(ev, "flip")[0]) == {"size": 43}
    assert g.held >= 0 and of(ev, "reveal")[0]["cards"] == ["4C"]
    assert g.discard == [] and deck_top(g, 3) == ["9S", "KS", "8H"] and len(g.deck) == 42
    act(g, "2 discard")
    assert discard(g) == ["4C"] and len(g.deck) == 42 and deck_top(g) == ["9S"]


def test_scn_5_variant_flip_during_extra_draws_leaves_the_king_in_use_aside() -> None:
    """CRISP-SCN-5 variant: CRISP-DECK-1, CRISP-SPEC-8 — the King in use is not turned over."""
    g2 = new(3, deal_deck(3, 0, {1: "2S 5D 6D", 2: "KD 7D 8D", 0: "KS KC 9D"},
                          "4C 9S AC 8H " + filler("2S 5D 6D KD 7D 8D KS KC 9D 4C 9S AC 8H KH") + " KH"), dealer=0)
    turn(g2, 1, "discard")
    turn(g2, 2, "discard")
    turn(g2, 0, "swap L")
    while len(g2.deck) > 1:
        turn(g2, g2.turn, "discard")
    seat = g2.turn
    act(g2, f"{seat} draw", f"{seat} king")
    assert g2.deck == [] and len(g2.discard) == 42 and g2.view(None)["kings_in_use"] == ["KH"]
    ev = act(g2, f"{seat} draw")
    assert strip(of(ev, "flip")[0]) == {"size": 42}  # KH stays beside the pile
    assert g2.view(None)["kings_in_use"] == ["KH"] and of(ev, "reveal")[0]["cards"] == ["4C"]
    ev = act(g2, f"{seat} discard", f"{seat} draw", f"{seat} discard")
    assert discard(g2) == ["4C", "9S", "KH"] and of(ev, "turn_end")[0]["kings"] == ["KH"]


SCN6 = {0: "10S 10D 9C", 1: "4H 5C 6D", 2: "AS 2H 3C", 3: "7S 8D 9H"}


def test_scn_6_declaration_last_turns_queen_on_the_declarer_tie_means_plus_5() -> None:
    """CRISP-SCN-6: CRISP-CALL-1, CRISP-CALL-3, CRISP-CALL-4, CRISP-CALL-6, CRISP-SPEC-7,
    CRISP-SCORE-1, CRISP-SCORE-3."""
    g = new(4, round_deck(4, 1, SCN6, "5S 2S QD 9D"), dealer=1)
    turn(g, 2, "discard", decline=False)
    assert hands(g) == ["10S/10D/9C", "4H/5C/6D", "AS/2H/3C", "7S/8D/9H"]
    mark = len(g.log)
    ev = act(g, "2 crisp")  # CRISP-CALL-1
    assert strip(of(ev, "crisp")[0]) == {"seat": 2, "last_turns": [3, 0, 1]}  # CRISP-CALL-3
    act(g, "3 draw", "3 swap R")
    assert g.totals()[3] == 17
    ev = act(g, "0 draw", "0 queen L 2 L")  # CRISP-CALL-4, CRISP-SPEC-7: the declarer may be targeted
    assert hands(g)[0] == "AS/10D/9C" and hands(g)[2] == "10S/2H/3C"
    queen_reveals = [(e["to"][0], e["cards"][0]) for e in of(ev, "reveal") if e["why"] == "queen"]
    assert sorted(queen_reveals) == [(0, "AS"), (2, "10S")]
    assert 0 not in g.windows  # a last turn has no window (CRISP-CALL-5)
    ev = act(g, "1 draw", "1 discard")
    end = of(ev, "round_end")[0]  # CRISP-CALL-6: every card revealed, P2 took no further turn
    ends = [i for i, e in enumerate(g.log) if e["type"] == "round_end"]
    assert [e["seat"] for e in of(g.log[mark:ends[0]], "turn_end")] == [3, 0, 1]
    assert end["hands"] == [["AS", "10D", "9C"], ["4H", "5C", "6D"], ["10S", "2H", "3C"], ["7S", "8D", "2S"]]
    assert end["totals"] == [20, 15, 15, 17]  # CRISP-SCORE-1
    assert end["round_scores"] == [20, 15, 20, 17] and end["declarer"] == 2  # CRISP-SCORE-3: a tie is +5


def test_scn_7_declarer_strictly_lowest_negative_round_score() -> None:
    """CRISP-SCN-7: CRISP-SCORE-2, CRISP-SCORE-4 (cumulative 30/10/22 built by round 1)."""
    r1 = round_deck(3, 0, {0: "10S 10H 10D", 1: "5S 5H 5D", 2: "10C 9S 3H"})
    r2 = round_deck(3, 1, {0: "2H 4D 6C", 1: "AS AH 2D", 2: "2S 3S 4S"})
    g = new(3, [r1, r2], dealer=0)
    simple_round(g, declarer=1)
    assert g.scores == [30, 10, 22]
    ev = simple_round(g, declarer=1)
    end = of(ev, "round_end")[0]
    assert end["totals"] == [12, 4, 9] and end["declarer"] == 1
    assert end["round_scores"] == [12, -1, 9] and g.scores == [42, 9, 31]


def test_scn_8_declarer_higher() -> None:
    """CRISP-SCN-8: CRISP-SCORE-3."""
    g = new(3, round_deck(3, 0, {1: "AS 3S 4S", 2: "AH 2H 4H", 0: "10D 5C 5D"}), dealer=0)
    end = of(simple_round(g, declarer=1), "round_end")[0]
    assert end["totals"] == [20, 8, 7] and end["round_scores"] == [20, 13, 7]


def test_scn_9_one_crisp_per_round_and_no_declaration_out_of_window() -> None:
    """CRISP-SCN-9: CRISP-CALL-1, CRISP-CALL-5, CRISP-CALL-3."""
    g = new(3, round_deck(3, 0, {0: "2S 3S 4S", 1: "5S 6S 7S", 2: "8S 9S 10S"}), dealer=0)
    assert_rejected(g, 0, "crisp", "CRISP-CALL-1")  # not at the end of P0's own turn
    turn(g, 1, "discard", decline=False)
    ev = act(g, "1 crisp")
    assert of(ev, "crisp")[0]["last_turns"] == [2, 0]
    turn(g, 2, "discard", decline=False)
    assert_rejected(g, 2, "crisp", "CRISP-CALL-5")
    assert g.windows == [] and g.to_act == (0,)
    ev = turn(g, 0, "discard", decline=False)
    assert of(ev, "round_end")
    assert [e["seat"] for e in of(g.log, "turn_end")] == [1, 2, 0]  # P1 took no turn after declaring


def clocked(players: int, **options: Any) -> Crisp:
    hands_ = dict(enumerate(["2S 3S 4S", "5S 6S 7S", "8S 9S 10S", "2H 3H 4H"][:players]))
    return new(players, round_deck(players, 0, hands_), dealer=0, clock=True, **options)


def test_scn_10_online_window_with_overlap() -> None:
    """CRISP-SCN-10: CRISP-ONL-WIN-1, CRISP-ONL-WIN-2, CRISP-ONL-WIN-3, CRISP-CALL-3."""
    g = clocked(4)
    ev = turn(g, 1, "discard")  # t = 100.000
    assert g.hold and g.windows == [1]
    assert [strip(e) for e in of(ev, "timer")] == [{"action": "release", "seconds": 2, "seat": 2},
                                                   {"action": "close 1", "seconds": 3, "seat": 1}]
    variant = g.copy()
    assert_rejected(g, 2, "draw", "CRISP-ONL-WIN-2")  # 101.500
    act(g, "CLOCK release", "2 draw")  # 102.000, 102.100
    ev = act(g, "1 crisp")  # 102.600
    assert of(ev, "crisp")[0]["last_turns"] == [2, 3, 0] and g.view(2)["last_turn"]
    act(g, "2 discard")
    assert g.to_act == (3,) and not g.hold and g.windows == []  # a last turn opens no window
    turn(g, 3, "discard")
    ev = turn(g, 0, "discard")
    assert of(ev, "round_end") and [e["seat"] for e in of(g.log, "turn_end")] == [1, 2, 3, 0]
    # variant: P1 declares at 103.000, after close 1
    act(variant, "CLOCK release", "2 draw", "CLOCK close 1")
    assert_rejected(variant, 1, "crisp", "CRISP-ONL-WIN-1")
    assert variant.declarer is None


def test_scn_11_overlap_race_next_player_declares_first() -> None:
    """CRISP-SCN-11: CRISP-ONL-WIN-3, CRISP-ONL-WIN-4, CRISP-CALL-5."""
    g = clocked(4)
    turn(g, 1, "discard")  # 100.000
    act(g, "CLOCK release", "2 draw", "2 discard")  # P2's turn ends at 102.400
    assert g.windows == [1, 2] and g.hold and g.to_act == (1, 2)
    mirror = g.copy()
    ev = act(g, "2 crisp")  # 102.450
    assert strip(of(ev, "crisp")[0]) == {"seat": 2, "last_turns": [3, 0, 1]}
    assert [strip(e) for e in of(ev, "window_close")] == [{"seat": 2, "why": "crisp"}, {"seat": 1, "why": "void"}]
    assert_rejected(g, 1, "crisp", "CRISP-CALL-5")  # 102.600
    assert g.hold and g.to_act == () and g.legal_actions(CLOCK) == ["release"]  # P3 waits until 104.400
    act(g, "CLOCK release")
    assert g.to_act == (3,) and g.view(3)["last_turn"]
    turn(g, 3, "discard")
    turn(g, 0, "discard")
    ev = turn(g, 1, "discard")
    assert of(ev, "round_end")[0]["declarer"] == 2
    # mirror: P1's declaration arrives first (102.440)
    ev = act(mirror, "1 crisp")
    assert strip(of(ev, "crisp")[0]) == {"seat": 1, "last_turns": [3, 0]}  # P2's finished turn was its last
    assert_rejected(mirror, 2, "crisp", "CRISP-CALL-5")
    assert mirror.hold and mirror.to_act == ()
    act(mirror, "CLOCK release")
    turn(mirror, 3, "discard")
    ev = turn(mirror, 0, "discard")
    assert of(ev, "round_end")[0]["declarer"] == 1


def timed(top: str, **options: Any) -> Crisp:
    hands_ = {0: "2S 3S 4S", 1: "5S 6S 7S", 2: "8S 9S 10S"}
    return new(3, round_deck(3, 0, hands_, top), dealer=0, clock=True, draw_time=30, **options)


def test_scn_12a_timeout_with_no_draw() -> None:
    """CRISP-SCN-12 (a): CRISP-ONL-TIME-4, CRISP-ONL-WIN-5."""
    g = timed("7C")
    ev = act(g, "CLOCK timeout")
    assert [e["type"] for e in ev] == ["draw", "discard", "timer_stop", "turn_end", "turn_start", "timer"]
    assert strip(of(ev, "discard")[0]) == {"seat": 1, "card": "7C", "why": "timeout"}
    assert strip(of(ev, "turn_end")[0]) == {"seat": 1, "why": "timeout", "lost": 0, "kings": []}
    assert discard(g) == ["7C"] and g.windows == [] and not g.hold and g.to_act == (2,)
    assert strip(ev[-1]) == {"action": "timeout", "seconds": 30, "seat": 2}


def test_scn_12b_an_unplayed_king() -> None:
    """CRISP-SCN-12 (b): CRISP-ONL-TIME-4, CRISP-SPEC-8."""
    g = timed("KH")
    act(g, "1 draw")
    ev = act(g, "CLOCK timeout")
    assert discard(g) == ["KH"] and strip(of(ev, "turn_end")[0])["lost"] == 0
    assert g.turn == 2 and g.pending == 1 and not g.windows


def test_scn_12c_an_extra_draw_left_unresolved() -> None:
    """CRISP-SCN-12 (c): CRISP-ONL-TIME-1, CRISP-ONL-TIME-2, CRISP-ONL-TIME-4, CRISP-SPEC-8."""
    g = timed("KS QD")
    act(g, "1 draw")
    ev = act(g, "1 king")
    assert strip(of(ev, "timer")[0]) == {"action": "timeout", "seconds": 30, "seat": 1}  # extra-draw timer
    act(g, "1 draw")
    ev = act(g, "CLOCK timeout")
    assert discard(g) == ["QD", "KS"]
    assert strip(of(ev, "turn_end")[0]) == {"seat": 1, "why": "timeout", "lost": 1, "kings": ["KS"]}
    assert not g.windows and g.to_act == (2,)


def test_scn_13_draw_from_the_discard_pile() -> None:
    """CRISP-SCN-13: CRISP-ONL-DISC-1, CRISP-ONL-DISC-2, CRISP-ONL-DISC-3, CRISP-ONL-DISC-4, CRISP-VAL-2."""
    g = new(2, round_deck(2, 1, {1: "5H 2C 9C", 0: "2S 3S 4S"}, "JH"), dealer=1, draw_from_discard=True)
    assert_rejected(g, 0, "draw discard", "CRISP-ONL-DISC-4")  # (b) the first draw of a round
    assert g.legal_actions(0) == ["draw"]
    turn(g, 0, "discard", decline=False)
    assert g.legal_actions(1) == ["draw", "draw discard"]
    ev = act(g, "1 draw discard")
    assert strip(of(ev, "draw")[0]) == {"seat": 1, "source": "discard", "card": "JH"}
    assert_rejected(g, 1, "discard", "CRISP-ONL-DISC-2")
    assert_rejected(g, 1, "jack", "CRISP-ONL-DISC-2")
    assert g.legal_actions(1) == ["swap L", "swap C", "swap R"]
    ev = act(g, "1 swap R")
    assert hands(g)[1] == "5H/2C/JH" and g.totals()[1] == 17 and discard(g)[-1] == "9C"
    assert of(ev, "reveal") == [] and of(ev, "swap")[0]["out"] == "9C"


def test_scn_14_a_king_and_the_discard_option() -> None:
    """CRISP-SCN-14: CRISP-SPEC-8, CRISP-ONL-DISC-1, CRISP-ONL-DISC-3, CRISP-ONL-DISC-6."""
    g = new(2, round_deck(2, 1, {1: "5H 2C 9C", 0: "2S 3S 4S"}, "4D KS 3D"), dealer=1, draw_from_discard=True)
    turn(g, 0, "discard", decline=False)
    act(g, "1 draw", "1 king")
    assert discard(g) == ["4D"] and g.pending == 2 and g.view(1)["kings_in_use"] == ["KS"]
    assert "draw discard" in g.legal_actions(1) and g.view(1)["discard_top"] == "4D"  # would take 4D, not KS
    act(g, "1 draw", "1 discard")
    assert discard(g) == ["4D", "3D"] and g.pending == 1
    act(g, "1 draw discard")  # CRISP-ONL-DISC-6: take back one's own discard
    assert g.legal_actions(1) == ["swap L", "swap C", "swap R"]
    ev = act(g, "1 swap R")
    assert hands(g)[1] == "5H/2C/3D" and g.totals()[1] == 10
    assert discard(g) == ["4D", "9C", "KS"] and of(ev, "turn_end")[0]["kings"] == ["KS"]
    act(g, "1 decline", "0 draw discard")  # CRISP-ONL-DISC-3: KS is now a plain card
    assert g.legal_actions(0) == ["swap L", "swap C", "swap R"]
    act(g, "0 swap L")
    assert hands(g)[0] == "KS/3S/4S" and g.totals()[0] == 17


def scn15(p0_last: str) -> tuple[Crisp, list[int]]:
    """Cumulative 92/60/71 after three rounds, then the deciding round (P2 declares)."""
    rounds = [
        (0, {0: "10S 10H 10D", 1: "10C 9S 6S", 2: "JS 9H 7S"}, 1),  # 30, 25−5, 26
        (1, {0: "10S 10H 7D", 1: "10C 9S AS", 2: "JS 9H 6S"}, 2),  # 27, 20, 25+5
        (2, {0: "10S 10H 10D", 1: "10C 9S AS", 2: "JS 3S 2S"}, 0),  # 30+5, 20, 15
        (0, {0: p0_last, 1: "10C 2D AS", 2: "AH 2H 4H"}, 2),  # 9, 13, 7−5
    ]
    decks = [round_deck(3, dealer, hands_) for dealer, hands_, _ in rounds]
    return new(3, decks, dealer=0, end_limit=100), [r[2] for r in rounds]


def test_scn_15_limit_reached_shared_win() -> None:
    """CRISP-SCN-15: CRISP-END-1, CRISP-END-2, CRISP-END-3."""
    g, declarers = scn15("2C 3C 4C")  # P0 round score 9
    for d in declarers[:3]:
        simple_round(g, d)
    assert g.scores == [92, 60, 71]
    ev = simple_round(g, declarers[3])
    assert of(ev, "round_end")[0]["round_scores"] == [9, 13, 2]
    assert g.scores == [101, 73, 73] and g.is_over and g.winners == [1, 2]
    assert strip(of(ev, "game_end")[0]) == {"scores": [101, 73, 73], "winners": [1, 2]}
    assert g.to_act == () and g.legal_actions(0) == [] and g.view(0)["phase"] == "over"


@pytest.mark.parametrize(("p0_hand", "over"), [("AC 3C 4C", True), ("AC 2C 4C", False)])
def test_scn_15_variant_100_ends_99_does_not(p0_hand: str, over: bool) -> None:
    """CRISP-SCN-15 variants: CRISP-END-2 (≥ the limit, CRISP-AMB-16)."""
    g, declarers = scn15(p0_hand)
    for d in declarers:
        simple_round(g, d)
    assert g.scores[0] == (100 if over else 99) and g.is_over is over
    assert g.round_no == (4 if over else 5)


def test_scn_16_dealer_rotation_over_four_rounds() -> None:
    """CRISP-SCN-16: CRISP-DEAL-2, CRISP-DEAL-7."""
    hands_ = {0: "2S 3S 4S", 1: "5S 6S 7S", 2: "8S 9S 10S"}
    g = new(3, [round_deck(3, d, hands_) for d in (2, 0, 1, 2)], dealer=2, end_limit=1000, seed=5)
    seen = []
    while g.round_no <= 4:
        start = [e for e in g.log if e["type"] == "round_start"][-1]
        seen.append((start["round"], start["dealer"], start["first"], g.turn))
        play_round_declaring(g)
    assert seen == [(1, 2, 0, 0), (2, 0, 1, 1), (3, 1, 2, 2), (4, 2, 0, 0)]


def play_round_declaring(g: Crisp) -> None:
    """First player declares at once; every draw is resolved by a legal non-special choice."""
    rnd = g.round_no
    while g.round_no == rnd:
        seat = g.turn
        if g.windows:
            w = g.windows[0]
            act(g, f"{w} crisp" if g.declarer is None else f"{w} decline")
            continue
        act(g, f"{seat} draw")
        legal = g.legal_actions(seat)
        act(g, f"{seat} {'king' if legal == ['king'] else 'discard'}")


def test_scn_17_timeout_auto_draw_with_an_empty_deck() -> None:
    """CRISP-SCN-17: CRISP-ONL-TIME-4a, CRISP-DECK-1, CRISP-DECK-2, CRISP-DECK-3."""
    hands_ = {0: "KD KS KC", 1: "KH 5D 6D", 2: "2D 7D 8D"}
    body = filler(" ".join(hands_.values()) + " 3H 8C 4D").split()
    assert len(body) == 40
    g = new(3, deal_deck(3, 2, hands_, " ".join(["3H", "8C", *body, "4D"])), dealer=2,
            clock=True, draw_time=45, draw_from_discard=True)
    while g.deck:
        seat = g.turn
        last = len(g.deck) == 1
        act(g, f"{seat} draw", f"{seat} {'swap L' if last else 'discard'}")
        act(g, f"{seat} decline", "CLOCK release")
    assert len(g.discard) == 43 and discard(g)[:2] == ["3H", "8C"] and discard(g)[-1] == "KD"
    assert g.turn == 1 and g.deck == [] and g.to_act == (1,)
    ev = act(g, "CLOCK timeout")
    assert strip(of(ev, "flip")[0]) == {"size": 43}
    assert strip(of(ev, "discard")[0]) == {"seat": 1, "card": "3H", "why": "timeout"}
    assert discard(g) == ["3H"] and len(g.deck) == 42 and deck_top(g) == ["8C"]
    assert g.deck[0] == 4 * 12 + 2  # KD is now the bottom card: the engine did not take the pile's top
    assert not g.windows and not g.hold and g.to_act == (2,)


def test_scn_18_two_players_crisp_one_last_turn() -> None:
    """CRISP-SCN-18: CRISP-CALL-3, CRISP-CALL-6, CRISP-SCORE-2."""
    g = new(2, round_deck(2, 1, {0: "AS 2S 4S", 1: "5S 3H 3D"}), dealer=1)
    turn(g, 0, "discard", decline=False)
    ev = act(g, "0 crisp")
    assert of(ev, "crisp")[0]["last_turns"] == [1]
    ev = turn(g, 1, "discard")
    end = of(ev, "round_end")[0]
    assert end["totals"] == [7, 11] and end["round_scores"] == [2, 11]
    assert strip(of(ev, "round_start")[0]) == {"round": 2, "dealer": 0, "first": 1}
