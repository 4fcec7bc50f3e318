"""Every row of the Crisp rejection table (notation.md): the first matching rule, a message, no change."""

from __future__ import annotations

import pytest

from feltroom import CLOCK

from .crisp_helpers import act, std
from .helpers import assert_rejected


def test_acting_out_of_turn_is_crisp_turn_1() -> None:
    """CRISP-TURN-1: turns pass clockwise; only the seat on turn may draw or resolve."""
    g = std(4, dealer=0)
    for seat in (0, 2, 3):
        for action in ("draw", "discard", "swap L", "king"):
            e = assert_rejected(g, seat, action, "CRISP-TURN-1")
            assert "P1" in e.message
    act(g, "1 draw", "1 discard")
    assert_rejected(g, 3, "draw", "CRISP-TURN-1")  # P2 is next, not P3
    assert g.legal_actions(2) == ["draw"]


def test_acting_during_a_hold_is_crisp_onl_win_2() -> None:
    """CRISP-ONL-WIN-2: the held next player may not act before release."""
    g = std(3, clock=True)
    act(g, "1 draw", "1 discard")
    e = assert_rejected(g, 2, "draw", "CRISP-ONL-WIN-2")
    assert "2 s" in e.message
    assert_rejected(g, 0, "draw", "CRISP-TURN-1")


def test_drawing_while_holding_a_card_is_crisp_turn_4() -> None:
    """CRISP-TURN-4: one drawn card must be resolved before another draw."""
    g = std(3, draw_from_discard=True)
    act(g, "1 draw")
    assert_rejected(g, 1, "draw", "CRISP-TURN-4")
    assert_rejected(g, 1, "draw discard", "CRISP-TURN-4")


def test_draw_discard_with_the_option_off_is_crisp_turn_3() -> None:
    """CRISP-TURN-3: the draw is from the deck unless draw_from_discard is on."""
    g = std(3)
    act(g, "1 draw", "1 discard", "1 decline")
    e = assert_rejected(g, 2, "draw discard", "CRISP-TURN-3")
    assert "off" in e.message


def test_draw_discard_from_an_empty_pile_is_crisp_onl_disc_4() -> None:
    """CRISP-ONL-DISC-4: the first draw of a round must come from the deck."""
    g = std(3, draw_from_discard=True)
    assert_rejected(g, 1, "draw discard", "CRISP-ONL-DISC-4")


@pytest.mark.parametrize("action", ["swap L", "discard", "jack", "queen L 2 R", "king"])
def test_a_resolution_with_no_card_held_is_crisp_turn_3(action: str) -> None:
    """CRISP-TURN-3: draw first."""
    g = std(3)
    assert_rejected(g, 1, action, "CRISP-TURN-3")


@pytest.mark.parametrize("top", ["JS", "QS", "KS"])
def test_swapping_a_face_card_from_the_deck_is_crisp_spec_1(top: str) -> None:
    """CRISP-SPEC-1: a J, Q or K drawn from the deck can never be swapped in."""
    g = std(3, top)
    act(g, "1 draw")
    for slot in "LCR":
        assert_rejected(g, 1, f"swap {slot}", "CRISP-SPEC-1")


def test_discarding_a_king_from_the_deck_is_crisp_spec_3() -> None:
    """CRISP-SPEC-3: a King must be used."""
    g = std(3, "KH")
    act(g, "1 draw")
    assert_rejected(g, 1, "discard", "CRISP-SPEC-3")
    assert g.legal_actions(1) == ["king"]


@pytest.mark.parametrize("action", ["discard", "jack", "queen L 0 L", "king"])
def test_anything_but_swap_on_a_card_from_the_pile_is_crisp_onl_disc_2(action: str) -> None:
    """CRISP-ONL-DISC-2: a card taken from the discard pile must be swapped in."""
    for top in ("JD", "QD", "KD", "5D"):
        g = std(3, top, draw_from_discard=True)
        if top == "KD":
            act(g, "1 draw", "1 king", "1 draw", "1 discard", "1 draw", "1 discard", "1 decline")
        else:
            act(g, "1 draw", "1 discard", "1 decline")
        act(g, "2 draw discard")
        assert_rejected(g, 2, action, "CRISP-ONL-DISC-2")


@pytest.mark.parametrize(("top", "action"), [
    ("5H", "jack"), ("5H", "king"), ("5H", "queen L 0 L"), ("JH", "king"), ("JH", "queen L 0 L"),
    ("QH", "jack"), ("QH", "king"), ("KH", "jack"), ("KH", "queen L 0 L"),
])
def test_using_the_wrong_rank_is_crisp_turn_4(top: str, action: str) -> None:
    """CRISP-TURN-4 (c) and CRISP-SPEC-10: only J, Q and K from the deck have a use."""
    g = std(3, top)
    act(g, "1 draw")
    e = assert_rejected(g, 1, action, "CRISP-TURN-4")
    assert top in e.message


def test_a_queen_naming_the_actor_is_crisp_spec_7() -> None:
    """CRISP-SPEC-7: exactly one own card and one card of ANOTHER player."""
    g = std(3, "QH")
    act(g, "1 draw")
    for s in "LCR":
        for t in "LCR":
            assert_rejected(g, 1, f"queen {s} 1 {t}", "CRISP-SPEC-7")


def test_a_second_crisp_or_one_after_a_last_turn_is_crisp_call_5() -> None:
    """CRISP-CALL-5: one crisp per round; no declaration at the end of a last turn."""
    g = std(3)
    act(g, "1 draw", "1 discard", "1 crisp")
    assert_rejected(g, 1, "crisp", "CRISP-CALL-5")
    act(g, "2 draw", "2 discard")
    e = assert_rejected(g, 2, "crisp", "CRISP-CALL-5")
    assert "P1" in e.message


def test_crisp_or_decline_after_the_window_closed() -> None:
    """CRISP-CALL-2 (clockless: the next draw closes it) and CRISP-ONL-WIN-1 (clock: close S)."""
    g = std(3)
    act(g, "1 draw", "1 discard", "2 draw")
    assert_rejected(g, 1, "crisp", "CRISP-CALL-2")
    assert_rejected(g, 1, "decline", "CRISP-CALL-2")
    g = std(3, clock=True)
    act(g, "1 draw", "1 discard", "CLOCK close 1")
    assert_rejected(g, 1, "crisp", "CRISP-ONL-WIN-1")
    assert_rejected(g, 1, "decline", "CRISP-ONL-WIN-1")
    g = std(3)
    act(g, "1 draw", "1 discard", "1 decline")
    assert_rejected(g, 1, "crisp", "CRISP-CALL-2")


def test_crisp_or_decline_with_no_own_window_is_crisp_call_1() -> None:
    """CRISP-CALL-1: before one's first turn, during a turn, in another's window, after a timeout."""
    g = std(3, clock=True, draw_time=30)
    assert_rejected(g, 0, "crisp", "CRISP-CALL-1")  # before P0's first turn
    assert_rejected(g, 1, "crisp", "CRISP-CALL-1")  # during P1's turn
    assert_rejected(g, 1, "decline", "CRISP-CALL-1")
    act(g, "1 draw")
    assert_rejected(g, 1, "crisp", "CRISP-CALL-1")
    act(g, "1 discard")
    assert_rejected(g, 2, "crisp", "CRISP-CALL-1")  # P1's window, not P2's
    act(g, "CLOCK release", "CLOCK close 1", "CLOCK timeout")  # P2 times out
    assert_rejected(g, 2, "crisp", "CRISP-CALL-1")


def test_clock_actions_that_do_not_exist_now() -> None:
    """The last row: CRISP-ONL-TIME-1 (timeout), CRISP-ONL-WIN-2 (release), CRISP-ONL-WIN-1 (close)."""
    g = std(3)
    assert_rejected(g, CLOCK, "timeout", "CRISP-ONL-TIME-1")
    assert_rejected(g, CLOCK, "release", "CRISP-ONL-WIN-2")
    assert_rejected(g, CLOCK, "close 1", "CRISP-ONL-WIN-1")
    g = std(3, clock=True)
    assert_rejected(g, CLOCK, "timeout", "CRISP-ONL-TIME-1")  # no draw_time
    assert_rejected(g, CLOCK, "release", "CRISP-ONL-WIN-2")
    act(g, "1 draw", "1 discard")
    assert_rejected(g, CLOCK, "close 2", "CRISP-ONL-WIN-1")
    assert_rejected(g, CLOCK, "timeout", "CRISP-ONL-TIME-1")  # nobody may act during the hold
    assert_rejected(g, 1, "close 1", "CRISP-ONL-WIN-1")  # players never apply CLOCK actions
    assert_rejected(g, 2, "release", "CRISP-ONL-WIN-2")
    assert_rejected(g, CLOCK, "draw", "CRISP-TURN-1")  # and the clock plays no cards
    assert_rejected(g, CLOCK, "crisp", "CRISP-TURN-1")


def test_everything_is_rejected_once_the_game_is_over() -> None:
    g = std(2, end_limit=1)
    act(g, "1 draw", "1 discard", "1 crisp", "0 draw", "0 discard")
    assert g.is_over
    assert "over" in assert_rejected(g, 0, "draw", "CRISP-TURN-1").message
    assert "over" in assert_rejected(g, 1, "crisp", "CRISP-TURN-1").message
