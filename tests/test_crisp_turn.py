"""Crisp turns and special cards (rules/crisp.md §4–§5)."""

from __future__ import annotations

import json

from feltroom.cards import NAMES

from .crisp_helpers import act, deck_top, discard, hands, of, std, strip
from .helpers import assert_rejected


def test_turns_pass_clockwise() -> None:
    """CRISP-TURN-1: nobody announces the end of a turn; the next seat simply plays."""
    g = std(5, dealer=2)
    order = []
    for _ in range(7):
        order.append(g.turn)
        act(g, f"{g.turn} draw", f"{g.turn} discard")
    assert order == [3, 4, 0, 1, 2, 3, 4]


def test_a_turn_starts_with_one_pending_draw() -> None:
    """CRISP-TURN-2, CRISP-TURN-7: one draw, then the turn is over."""
    g = std(3)
    assert g.pending == 1 and g.view(1)["pending"] == 1
    ev = act(g, "1 draw", "1 discard")
    assert of(ev, "turn_end") and g.turn == 2 and g.pending == 1


def test_a_drawn_card_is_revealed_to_the_drawer_only() -> None:
    """CRISP-TURN-3: the public draw event has no card; other seats see held card null."""
    g = std(3, "7H")
    ev = act(g, "1 draw")
    assert strip(of(ev, "draw")[0]) == {"seat": 1, "source": "deck"}
    assert of(ev, "reveal") == [{"type": "reveal", "to": [1], "seat": 1, "cards": ["7H"], "slot": None,
                                 "why": "draw"}]
    assert g.view(1)["held"] == {"source": "deck", "card": "7H"}
    for seat in (0, 2, None):
        assert g.view(seat)["held"] == {"source": "deck", "card": None}
        assert "7H" not in json.dumps(g.view(seat))


def test_what_a_drawn_card_allows() -> None:
    """CRISP-TURN-4 (a)(b)(c), CRISP-SPEC-10: A–10 swap or discard; J, Q: use or discard; K: use."""
    for top, legal in [("AH", ["swap L", "swap C", "swap R", "discard"]),
                       ("10D", ["swap L", "swap C", "swap R", "discard"]),
                       ("JH", ["discard", "jack"]), ("KH", ["king"])]:
        g = std(3, top)
        act(g, "1 draw")
        assert g.legal_actions(1) == legal, top
    g = std(3, "QH")
    act(g, "1 draw")
    assert g.legal_actions(1)[0] == "discard" and all(a.startswith("queen") for a in g.legal_actions(1)[1:])


def test_swap_puts_the_slot_card_face_up_on_the_pile() -> None:
    """CRISP-TURN-5: the old card is public on the pile; no new reveal for the card swapped in."""
    g = std(3, "AH")
    old = NAMES[g.hands[1][2]]
    act(g, "1 draw")
    ev = act(g, "1 swap R")
    assert NAMES[g.hands[1][2]] == "AH" and discard(g) == [old]
    assert strip(of(ev, "swap")[0]) == {"seat": 1, "slot": "R", "out": old} and not of(ev, "reveal")
    assert g.view(2)["discard_top"] == old


def test_discard_puts_the_drawn_card_face_up() -> None:
    """CRISP-TURN-6."""
    g = std(3, "9H")
    before = hands(g)
    ev = act(g, "1 draw", "1 discard")
    assert discard(g) == ["9H"] and hands(g) == before
    assert strip(of(ev, "discard")[0]) == {"seat": 1, "card": "9H", "why": "play"}


def test_no_other_action_exists_during_a_turn() -> None:
    """CRISP-TURN-8: no passing, no peeking, no rearranging: the legal list is all there is."""
    g = std(3, "9H")
    assert g.legal_actions(1) == ["draw"]
    for action in ("decline", "crisp"):
        assert_rejected(g, 1, action, "CRISP-CALL-1")
    act(g, "1 draw")
    assert set(g.legal_actions(1)) == {"swap L", "swap C", "swap R", "discard"}


def test_face_cards_from_the_deck_never_enter_a_slot() -> None:
    """CRISP-SPEC-1, CRISP-SPEC-2: J and Q may be discarded unused."""
    for top in ("JC", "QC"):
        g = std(3, top)
        act(g, "1 draw")
        assert_rejected(g, 1, "swap C", "CRISP-SPEC-1")
        act(g, "1 discard")
        assert discard(g) == [top]


def test_a_king_cannot_be_discarded() -> None:
    """CRISP-SPEC-3."""
    g = std(3, "KC")
    act(g, "1 draw")
    assert_rejected(g, 1, "discard", "CRISP-SPEC-3")


def test_jack_reveals_own_centre_card_once() -> None:
    """CRISP-SPEC-4: the C card to its owner only, then the J goes on the pile."""
    g = std(3, "JC")
    centre = NAMES[g.hands[1][1]]
    ev = act(g, "1 draw", "1 jack")
    r = of(ev, "reveal")[-1]
    assert r == {"type": "reveal", "to": [1], "seat": 1, "cards": [centre], "slot": "C", "why": "jack"}
    assert discard(g) == ["JC"] and strip(of(ev, "jack")[0]) == {"seat": 1, "card": "JC"}


def test_queen_swaps_blind_and_reveals_by_slot() -> None:
    """CRISP-SPEC-5, CRISP-SPEC-6: L/R arrivals are revealed to their new owner, C arrivals are not."""
    for s, t, to in [("L", "R", [1, 2]), ("C", "C", []), ("R", "C", [1]), ("C", "L", [2])]:
        g = std(3, "QC")
        mine, theirs = NAMES[g.hands[1]["LCR".index(s)]], NAMES[g.hands[2]["LCR".index(t)]]
        ev = act(g, "1 draw", f"1 queen {s} 2 {t}")
        assert NAMES[g.hands[1]["LCR".index(s)]] == theirs and NAMES[g.hands[2]["LCR".index(t)]] == mine
        q = of(ev, "queen")[0]
        assert strip(q) == {"seat": 1, "card": "QC", "slot": s, "target": 2, "target_slot": t}
        assert mine not in json.dumps(q) and theirs not in json.dumps(q)  # the cards are not public
        got = [(e["to"], e["cards"][0]) for e in of(ev, "reveal") if e["why"] == "queen"]
        expect = [([1], theirs)] if 1 in to else []
        expect += [([2], mine)] if 2 in to else []
        assert got == expect, (s, t)
        assert discard(g) == ["QC"]


def test_queen_may_target_any_other_player() -> None:
    """CRISP-SPEC-7 (CRISP-AMB-8): any other seat, before or after a declaration."""
    g = std(4, "QC")
    act(g, "1 draw")
    targets = {int(a.split()[2]) for a in g.legal_actions(1) if a.startswith("queen")}
    assert targets == {0, 2, 3}


def test_king_gives_two_extra_draws_and_stays_in_use_until_the_turn_ends() -> None:
    """CRISP-SPEC-8, CRISP-SPEC-9, CRISP-SPEC-11."""
    g = std(3, "KC 5H JH KD 2C 3C 4C 7C")
    act(g, "1 draw", "1 king")
    assert g.pending == 2 and g.view(0)["kings_in_use"] == ["KC"] and g.discard == []
    act(g, "1 draw", "1 discard")
    assert g.view(0)["kings_in_use"] == ["KC"] and g.turn == 1 and g.pending == 1 and discard(g) == ["5H"]
    ev = act(g, "1 draw", "1 jack")  # an extra draw may use a special card
    assert discard(g) == ["5H", "JH", "KC"] and g.view(0)["kings_in_use"] == []
    assert of(ev, "turn_end")[0]["kings"] == ["KC"] and of(ev, "window_open")


def test_king_chain_pools_the_draws() -> None:
    """CRISP-SPEC-9: 1 + 2 × Kings draws; all Kings go to the pile together, last used on top."""
    g = std(3, "KC KD 2C 3C 4C 5C 6C")
    act(g, "1 draw", "1 king", "1 draw", "1 king")
    assert g.pending == 3 and g.view(2)["kings_in_use"] == ["KC", "KD"]
    draws = 2
    while g.turn == 1 and g.pending:
        act(g, "1 draw", "1 discard")
        draws += 1
    assert draws == 5 and discard(g) == ["2C", "3C", "4C", "KC", "KD"] and deck_top(g) == ["5C"]


def test_special_cards_from_the_pile_have_no_function() -> None:
    """CRISP-SPEC-10, CRISP-ONL-DISC-3: a J taken from the pile is just 10 points."""
    g = std(3, "JC", draw_from_discard=True)
    act(g, "1 draw", "1 discard", "1 decline", "2 draw discard")
    assert g.legal_actions(2) == ["swap L", "swap C", "swap R"]
    act(g, "2 swap C")
    assert NAMES[g.hands[2][1]] == "JC"
