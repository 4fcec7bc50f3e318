"""Declaring crisp, windows and last turns (rules/crisp.md §7), clockless."""

from __future__ import annotations

from feltroom.cards import NAMES

from .crisp_helpers import act, of, std, strip
from .helpers import assert_rejected


def test_crisp_only_in_ones_own_window_after_a_normal_turn() -> None:
    """CRISP-CALL-1 (a)–(d): a declaration is allowed after any normal turn, including the first."""
    g = std(3)
    assert_rejected(g, 0, "crisp", "CRISP-CALL-1")
    act(g, "1 draw", "1 discard")
    assert g.windows == [1] and g.legal_actions(1) == ["crisp", "decline"]
    assert_rejected(g, 2, "crisp", "CRISP-CALL-1")  # someone else's window
    ev = act(g, "1 crisp")  # the player's belief is not checked
    assert g.declarer == 1 and strip(of(ev, "crisp")[0]) == {"seat": 1, "last_turns": [2, 0]}


def test_a_timed_out_turn_opens_no_window() -> None:
    """CRISP-CALL-1 (a), CRISP-ONL-TIME-4 (d)."""
    g = std(3, clock=True, draw_time=30)
    ev = act(g, "CLOCK timeout")
    assert not of(ev, "window_open") and g.windows == [] and g.to_act == (2,)
    assert_rejected(g, 1, "crisp", "CRISP-CALL-1")


def test_clockless_window_closes_at_the_next_players_first_draw() -> None:
    """CRISP-CALL-2 (CRISP-AMB-13): to_act is (owner, next); a declaration before that draw is valid."""
    g = std(4)
    ev = act(g, "1 draw", "1 discard")
    assert [e["type"] for e in ev][-3:] == ["turn_end", "window_open", "turn_start"]
    assert g.to_act == (1, 2) and g.legal_actions(2) == ["draw"]
    late = g.copy()
    act(g, "1 crisp")
    assert g.declarer == 1 and g.view(2)["last_turn"] and g.last_turns == [2, 3, 0]
    ev = act(late, "2 draw")
    assert strip(of(ev, "window_close")[0]) == {"seat": 1, "why": "draw"} and ev[0]["type"] == "window_close"
    assert_rejected(late, 1, "crisp", "CRISP-CALL-2")


def test_decline_closes_the_window() -> None:
    """CRISP-CALL-2: `decline` (notation.md §7.2)."""
    g = std(3)
    act(g, "1 draw", "1 discard")
    ev = act(g, "1 decline")
    assert [strip(e) for e in ev] == [{"seat": 1, "why": "decline"}] and g.to_act == (2,)


def test_last_turns_every_other_player_once_in_order() -> None:
    """CRISP-CALL-3: the next player's turn is the first last turn; the declarer plays no more."""
    g = std(5, dealer=0)
    act(g, "1 draw", "1 discard", "1 decline", "2 draw", "2 discard", "2 crisp")
    assert g.last_turns == [3, 4, 0, 1]
    played = []
    while g.round_no == 1:
        seat = g.turn
        played.append(seat)
        assert g.view(seat)["last_turn"] and g.last_turns[0] == seat
        act(g, f"{seat} draw", f"{seat} discard")
        assert seat not in g.windows  # CRISP-CALL-5: no window after a last turn
    assert played == [3, 4, 0, 1]


def test_a_last_turn_is_a_complete_turn() -> None:
    """CRISP-CALL-4: Kings, Jacks and Queens work in last turns; the declarer may be targeted."""
    g = std(3, "2S KH JD QH 3S")
    act(g, "1 draw", "1 discard", "1 crisp", "2 draw", "2 king", "2 draw", "2 jack")
    assert g.turn == 2 and g.pending == 1
    ev = act(g, "2 draw", "2 queen L 1 R")
    assert [e["to"] for e in of(ev, "reveal") if e["why"] == "queen"] == [[2], [1]]  # CRISP-SPEC-6 still
    assert g.turn == 0 and g.view(0)["last_turn"]


def test_round_end_reveals_every_hand_publicly() -> None:
    """CRISP-CALL-6: after the last last turn all slots are public (round_end to all)."""
    g = std(2)
    act(g, "1 draw", "1 discard", "1 crisp")
    hands_before = [list(h) for h in g.hands]
    ev = act(g, "0 draw", "0 discard")
    end = of(ev, "round_end")[0]
    assert end["to"] == "all" and len(end["hands"]) == 2 and g.round_no == 2
    assert end["hands"] == [[NAMES[c] for c in h] for h in hands_before]


def test_without_a_declaration_the_round_goes_on_forever() -> None:
    """CRISP-CALL-7 (CRISP-AMB-14): no cap; the deck recycles (CRISP-DECK-1) as often as needed."""
    g = std(2, seed=4)
    for _ in range(400):
        seat = g.turn
        act(g, f"{seat} draw")
        while g.legal_actions(seat) == ["king"]:
            act(g, f"{seat} king", f"{seat} draw")
        act(g, f"{seat} discard")
        while g.turn == seat and g.pending and g.windows != [seat]:
            act(g, f"{seat} draw", f"{seat} {'king' if g.legal_actions(seat) == ['king'] else 'discard'}")
        act(g, f"{seat} decline")
    assert g.round_no == 1 and not g.is_over and len(of(g.log, "flip")) >= 8
    assert sorted(g.audit_cards()) == list(range(52))
