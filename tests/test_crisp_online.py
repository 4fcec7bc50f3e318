"""The online rules (rules/crisp.md §10): clock, window, hold, draw timer, discard-pile draws."""

from __future__ import annotations

from feltroom import CLOCK

from .crisp_helpers import act, deck_top, discard, of, std, strip
from .helpers import assert_rejected


def test_online_play_keeps_every_table_rule() -> None:
    """CRISP-ONL-1: with the clock on, Kings chain and Queens swap exactly as at the table."""
    g = std(3, "KH 2S QD", clock=True, draw_time=60, draw_from_discard=True)
    act(g, "1 draw", "1 king", "1 draw", "1 swap L", "1 draw", "1 queen C 2 C")
    assert discard(g)[-2:] == ["QD", "KH"] and g.windows == [1] and g.hold


def test_host_options_and_lobby_defaults() -> None:
    """CRISP-ONL-2 (a)(b)(c), CRISP-AMB-17: 100 / unlimited / off."""
    g = std(2)
    assert (g.options["end_limit"], g.options["draw_time"], g.options["draw_from_discard"]) == (100, None, False)
    for limit in (50, 100, 150):
        assert std(2, end_limit=limit, clock=True).options["end_limit"] == limit


def test_window_is_open_until_close_and_the_next_draw_does_not_close_it() -> None:
    """CRISP-ONL-WIN-1: [T_end, T_end + 3 s); close S ends it; a later crisp is rejected."""
    g = std(3, clock=True)
    ev = act(g, "1 draw", "1 discard")
    assert strip(of(ev, "timer")[-1]) == {"action": "close 1", "seconds": 3, "seat": 1}
    act(g, "CLOCK release", "2 draw")
    assert g.windows == [1] and g.to_act == (1, 2)
    ev = act(g, "CLOCK close 1")
    assert [strip(e) for e in ev] == [{"seat": 1, "why": "clock"}]  # no timer_stop for the deadline that fired
    assert_rejected(g, 1, "crisp", "CRISP-ONL-WIN-1")


def test_hold_after_a_window_and_release() -> None:
    """CRISP-ONL-WIN-2: the next player waits for `release` (2 s) even after a declaration."""
    g = std(3, clock=True)
    act(g, "1 draw", "1 discard")
    assert g.hold and g.to_act == (1,) and g.view(2)["hold"] and g.view(2)["turn"] == 2
    assert_rejected(g, 2, "draw", "CRISP-ONL-WIN-2")
    act(g, "1 crisp")
    assert g.hold and g.to_act == () and g.legal_actions(CLOCK) == ["release"]  # never shortened
    ev = act(g, "CLOCK release")
    assert strip(ev[0]) == {"seat": 2, "last": True} and g.to_act == (2,)


def test_declaration_in_the_overlap_makes_the_running_turn_the_first_last_turn() -> None:
    """CRISP-ONL-WIN-3: whatever P2 has done stays done."""
    g = std(4, "5H 6H", clock=True)
    act(g, "1 draw", "1 discard", "CLOCK release", "2 draw")
    act(g, "1 crisp")
    assert g.view(2)["last_turn"] and g.view(2)["held"] == {"source": "deck", "card": "6H"}
    assert g.last_turns == [2, 3, 0]


def test_first_declaration_received_wins() -> None:
    """CRISP-ONL-WIN-4 (CRISP-AMB-19): two windows open; the first crisp wins, the other is rejected."""
    g = std(4, clock=True)
    act(g, "1 draw", "1 discard", "CLOCK release", "2 draw", "2 discard")
    assert g.view(0)["windows"] == [1, 2]
    act(g, "1 crisp")
    assert_rejected(g, 2, "crisp", "CRISP-CALL-5")
    assert g.declarer == 1 and g.windows == [] and g.last_turns == [3, 0]


def test_no_hold_after_a_turn_that_opened_no_window() -> None:
    """CRISP-ONL-WIN-5: timeouts and last turns let the next player act at once."""
    g = std(3, clock=True, draw_time=30)
    act(g, "CLOCK timeout")
    assert not g.hold and g.to_act == (2,)
    act(g, "2 draw", "2 discard", "2 crisp", "CLOCK release", "0 draw", "0 discard")
    assert not g.hold and g.to_act == (1,) and g.view(1)["last_turn"]


def test_first_draw_timer_starts_at_release() -> None:
    """CRISP-ONL-WIN-6, CRISP-ONL-TIME-2: no draw timer during the hold; it starts with release."""
    g = std(3, clock=True, draw_time=45)
    ev = act(g, "1 draw", "1 discard")
    assert [e["action"] for e in of(ev, "timer")] == ["release", "close 1"]
    assert of(ev, "timer_stop")[0]["action"] == "timeout" and "timeout" not in g.legal_actions(CLOCK)
    ev = act(g, "CLOCK release")
    assert [strip(e) for e in ev] == [{"seat": 2, "last": False}, {"action": "timeout", "seconds": 45, "seat": 2}]


def test_every_draw_has_its_own_timer() -> None:
    """CRISP-ONL-TIME-1, CRISP-ONL-TIME-2: each King extra draw restarts the timeout timer."""
    g = std(3, "KH 5S 6S", clock=True, draw_time=30)
    ev = act(g, "1 draw", "1 king", "1 draw", "1 discard")
    assert [strip(e) for e in of(ev, "timer")] == [{"action": "timeout", "seconds": 30, "seat": 1}] * 2
    assert not of(act(g, "1 draw"), "timer")  # a draw itself does not restart it


def test_atomic_resolution_an_unsubmitted_queen_is_not_played() -> None:
    """CRISP-ONL-TIME-3 (CRISP-AMB-22): a drawn Queen not yet submitted is discarded unused."""
    g = std(3, "QH", clock=True, draw_time=30)
    hands_before = [list(h) for h in g.hands]
    act(g, "1 draw")
    ev = act(g, "CLOCK timeout")
    assert [list(h) for h in g.hands] == hands_before and discard(g) == ["QH"] and not of(ev, "queen")


def test_timeout_rules_a_to_d() -> None:
    """CRISP-ONL-TIME-4 (a)(b)(c)(d) and CRISP-AMB-23: a pile card goes back on top."""
    g = std(3, "5S", clock=True, draw_time=30, draw_from_discard=True)
    act(g, "1 draw", "1 discard", "1 decline", "CLOCK release", "2 draw discard")
    ev = act(g, "CLOCK timeout")
    assert discard(g) == ["5S"] and strip(of(ev, "discard")[0]) == {"seat": 2, "card": "5S", "why": "timeout"}
    assert not of(ev, "window_open") and g.to_act == (0,)
    g = std(3, "KS JS 7S", clock=True, draw_time=30, draw_from_discard=True)
    act(g, "1 draw", "1 king")
    ev = act(g, "CLOCK timeout")  # (a) nothing drawn on an extra draw: the deck's top, even a Jack
    assert discard(g) == ["JS", "KS"] and strip(of(ev, "turn_end")[0])["lost"] == 1
    assert [e["type"] for e in ev][:2] == ["draw", "discard"] and deck_top(g) == ["7S"]


def test_a_timed_out_last_turn_still_counts() -> None:
    """CRISP-ONL-TIME-5."""
    g = std(2, clock=True, draw_time=30)
    act(g, "1 draw", "1 discard", "1 crisp", "CLOCK release")
    ev = act(g, "CLOCK timeout")
    assert of(ev, "round_end")[0]["declarer"] == 1 and g.round_no == 2


def test_draw_from_the_discard_pile_on_every_draw() -> None:
    """CRISP-ONL-DISC-1: every draw, King extra draws included; the King in use is not on the pile."""
    g = std(3, "5S KS", draw_from_discard=True)
    act(g, "1 draw", "1 discard", "1 decline")
    assert g.legal_actions(2) == ["draw", "draw discard"]
    act(g, "2 draw", "2 king")
    assert g.legal_actions(2) == ["draw", "draw discard"] and g.view(2)["discard_top"] == "5S"
    ev = act(g, "2 draw discard")
    assert of(ev, "draw")[0]["card"] == "5S" and g.discard == [] and g.view(2)["kings_in_use"] == ["KS"]
    act(g, "2 swap L")
    assert g.legal_actions(2) == ["draw", "draw discard"]


def test_a_pile_card_must_be_swapped() -> None:
    """CRISP-ONL-DISC-2."""
    g = std(3, "5S", draw_from_discard=True)
    act(g, "1 draw", "1 discard", "1 decline", "2 draw discard")
    assert_rejected(g, 2, "discard", "CRISP-ONL-DISC-2")
    assert g.legal_actions(2) == ["swap L", "swap C", "swap R"]


def test_a_face_card_from_the_pile_is_a_plain_ten() -> None:
    """CRISP-ONL-DISC-3, CRISP-VAL-2."""
    g = std(3, "QS", draw_from_discard=True)
    act(g, "1 draw", "1 discard", "1 decline", "2 draw discard", "2 swap L")
    assert g.hands[2][0] == 4 * 11 + 0 and g.totals()[2] >= 10


def test_empty_pile_forces_the_deck() -> None:
    """CRISP-ONL-DISC-4."""
    g = std(3, draw_from_discard=True)
    assert g.legal_actions(1) == ["draw"]
    assert_rejected(g, 1, "draw discard", "CRISP-ONL-DISC-4")


def test_empty_deck_with_a_pile_allows_the_pile_without_a_flip() -> None:
    """CRISP-ONL-DISC-5, CRISP-DECK-2: taking from the pile never flips."""
    g = std(2, draw_from_discard=True, seed=2)
    while g.deck:
        seat = g.turn
        act(g, f"{seat} draw")
        act(g, f"{seat} {'king' if g.legal_actions(seat) == ['king'] else 'discard'}")
        if seat in g.windows:
            act(g, f"{seat} decline")
    seat = g.turn
    assert g.pending and g.held < 0 and g.legal_actions(seat) == ["draw", "draw discard"]
    size = len(g.discard)
    ev = act(g, f"{seat} draw discard")
    assert not of(ev, "flip") and g.deck == [] and len(g.discard) == size - 1
    act(g, f"{seat} swap L")


def test_taking_back_ones_own_discard() -> None:
    """CRISP-ONL-DISC-6: during King extra draws; the King itself cannot be taken back."""
    g = std(3, "KS 4H", draw_from_discard=True)
    act(g, "1 draw", "1 king", "1 draw", "1 discard")
    assert g.view(1)["discard_top"] == "4H" and g.view(1)["kings_in_use"] == ["KS"]
    ev = act(g, "1 draw discard")
    assert of(ev, "draw")[0]["card"] == "4H"


def test_release_and_timeout_close_windows_that_real_time_already_closed() -> None:
    """CRISP-ONL-WIN-1/2: a window lasts 3 s, a hold 2 s after a later turn end, a draw timer ≥ 30 s; so at a
    release every older window, and at a timeout every window, has closed. A driver that applies CLOCK
    actions out of time order cannot keep them open."""
    g = std(4, clock=True, draw_time=30)
    act(g, "1 draw", "1 discard", "CLOCK release", "2 draw", "2 discard")
    ev = act(g, "CLOCK release")
    assert [strip(e) for e in ev[:2]] == [{"seat": 1, "why": "clock"}, {"action": "close 1"}]
    assert g.windows == [2] and g.to_act == (2, 3)
    ev = act(g, "CLOCK timeout")
    assert [strip(e) for e in ev[:2]] == [{"seat": 2, "why": "clock"}, {"action": "close 2"}]
    assert g.windows == [] and g.to_act == (0,)
